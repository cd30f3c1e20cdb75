//! The contact pass: after ORCA has moved a crowd, agents that still overlap (a crowd too dense
//! for every constraint leaves some) are parted at the position level, as Recast's DetourCrowd
//! does after its own avoidance, and agents are put back out of static obstacles.
//!
//! The pass is deterministic: the pairs are found in a grid and visited in a fixed order (by the
//! agents' indexes, never by a query's or a thread's order), each pair parted at once
//! (Gauss-Seidel, which converges in a few sweeps where DetourCrowd's averaged Jacobi sweeps do
//! not), for at most a fixed number of sweeps, stopping early once no pair overlaps by more than
//! the tolerance. The pairs are found with a margin, and again once an agent has moved half of
//! it, so no pair can come to touch unseen. Each push parts a pair slightly past touching (two
//! `f32` steps at its coordinates), so that rounding far from the origin leaves no overlap.
//! [`OrcaCrowd::step`](super::OrcaCrowd::step) then adds the displacement to the velocities.
//!
//! Finding the pairs and each agent's nearby obstacles runs on the caller's [`Executor`], by
//! chunks of agents (in the grid's order for the pairs, so that queries one after another read
//! the same cells; in index order for the obstacles): each chunk keeps its own lists, each
//! agent's pairs sorted, and the lists are joined in chunk order, the pairs by a counting sort
//! on their first agent, so they are the same whatever the number of threads or chunks. The
//! sweeps themselves stay on the calling thread: each push moves the agents the next pair
//! sees, so their order is part of the result. The search also notes which pairs overlap, and
//! each sweep looks only at those and at the pairs of agents moved since
//! ([`SweepQueue`]): a pair whose agents have not moved would part nothing, so the result is
//! that of sweeps over every pair, while the pass's serial work follows the agents that move.
//!
//! Where we differ from DetourCrowd on purpose: in the plane each push is also partly sideways
//! ([`ContactPass::slip`]), every pair turned the same way about its midpoint. A crowd pressed
//! into a symmetric jam (RVO2's Circle) then turns like a roundabout and clears, where plain
//! pushes cancel out and hold it: ORCA alone, which lets agents overlap, slips through such a
//! jam; hard contacts without the turn can hold it for good.

use super::agent::CrowdAgent;
use super::cells::Cells;
use super::contact_queue::{Moved, SweepQueue};
use super::counting_sort::counting_sort;
use super::half_planes::nearest_points;
use super::obstacles::{AsOrcaObstacles, OrcaObstacles};
use crate::math::Vector;
use crate::parallel::{Executor, Serial, chunk_len_for};
use crate::steering::Shape;

/// How the contact pass parts overlapping agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPass {
    /// The most sweeps over the overlapping pairs and the obstacles; more than
    /// [`ContactPass::MAX_ITERATIONS`] count as that many, so a huge value cannot stall a step.
    pub iterations: u32,
    /// Overlaps up to this much (world units) count as touching; the pass stops once every pair
    /// is within it.
    pub tolerance: f32,
    /// How much of each push goes sideways, as a share of the push apart (2D only: in space a
    /// pair has no one sideways, and 3D ignores it). The pair turns clockwise about its
    /// midpoint, the same hand for every pair, so a jammed crowd circulates instead of
    /// pressing on itself. 0 is DetourCrowd's plain push; the sideways part never brings two
    /// agents closer. Values that are not finite or below 0 count as 0, above 1 as 1.
    pub slip: f32,
}

impl Default for ContactPass {
    /// A thousand sweeps at most (a crowd of a thousand pressed into a jam needs hundreds; the
    /// pass stops as soon as no pair overlaps), a tolerance of 1e-4 world units, and half of
    /// each push sideways (on RVO2's Circle family this clears the jams RVO2 holds longest
    /// soonest; see BENCHMARKS.md).
    fn default() -> Self {
        Self {
            iterations: 1000,
            tolerance: 1e-4,
            slip: 0.5,
        }
    }
}

/// The contact pass's buffers; a pass allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct ContactScratch {
    cells: Cells<Body>,
    /// The pairs within reach of touching, sorted: the order the sweeps part them in.
    pairs: Vec<(u32, u32)>,
    /// Where each agent's pairs as the first of them start in `pairs` (one more than the
    /// agents).
    first_starts: Vec<usize>,
    /// The pairs (by index) that overlapped by more than the tolerance when they were found.
    overlapping: Vec<usize>,
    /// Which pairs and agents each sweep looks at.
    queue: SweepQueue,
    /// The obstacles near each agent where the pairs were found (within its radius and the
    /// margin): `nearby[starts[i]..starts[i + 1]]` for agent `i`, found from `anchors[i]`,
    /// where agent `i` was.
    starts: Vec<u32>,
    nearby: Vec<u32>,
    anchors: Vec<Vector>,
    /// Each agent's position and radius while the sweeps move them: the pairs' loads stay
    /// within a few cache lines' worth of memory per agent, not a whole agent each.
    positions: Vec<Vector>,
    radii: Vec<f32>,
    /// The obstacles near an agent that moved beyond the margin from its anchor.
    near: Vec<u32>,
    /// Each chunk's share of the search, kept between passes (there may be more than a pass
    /// uses: fewer agents or threads leave the rest unused rather than freed).
    chunks: Vec<Chunk>,
    /// The obstacles built from the shapes given, while they stay the same.
    obstacles: OrcaObstacles,
}

/// What one chunk of agents finds, on its own thread, before the chunks are joined.
#[derive(Clone, Debug, Default)]
struct Chunk {
    /// The chunk's pairs, each agent's together and sorted, and whether each overlapped by more
    /// than the tolerance.
    pairs: Vec<(u32, u32, bool)>,
    /// Where each agent's obstacles start in the chunk's `nearby`.
    starts: Vec<u32>,
    nearby: Vec<u32>,
    /// The obstacle grid's answer for one agent.
    near: Vec<u32>,
}

impl ContactPass {
    /// The most sweeps one pass makes, whatever `iterations` says: ten times the default.
    pub const MAX_ITERATIONS: u32 = 10_000;

    /// [`slip`](Self::slip) as the pass uses it: within 0 to 1, 0 in 3D.
    fn sideways_share(&self) -> f32 {
        if cfg!(flock_3d) || !self.slip.is_finite() {
            0.0
        } else {
            self.slip.clamp(0.0, 1.0)
        }
    }

    /// Whether the tolerance is a finite number, zero or more.
    pub fn is_valid(&self) -> bool {
        self.tolerance.is_finite() && self.tolerance >= 0.0
    }

    /// Parts the `agents` that overlap each other by more than the tolerance and moves those
    /// inside `obstacles` (or nearer than their radius) out. Each agent's body is its ORCA
    /// radius (agents whose radius is not a finite number above zero are left alone), and an
    /// agent whose position is not finite takes no part. `obstacles` is an [`OrcaObstacles`]
    /// (built once) or shapes (built into the one `scratch` keeps: see [`AsOrcaObstacles`]);
    /// an agent is pushed out of every shape and open segment among them whose bounding ball
    /// it touches. Returns the largest overlap between two agents left after the last sweep
    /// (0 if none).
    ///
    /// On the calling thread; [`separate_on`](Self::separate_on) finds the pairs on an
    /// executor's threads, with the same result.
    pub fn separate(
        &self,
        agents: &mut [CrowdAgent],
        obstacles: impl AsOrcaObstacles,
        scratch: &mut ContactScratch,
    ) -> f32 {
        self.separate_on(&Serial, agents, obstacles, scratch)
    }

    /// [`separate`](Self::separate), finding the pairs and each agent's nearby obstacles (the
    /// pass's setup) on `executor`'s threads. The result is the same bits for any executor and
    /// number of threads; the sweeps run on the calling thread.
    pub fn separate_on(
        &self,
        executor: &impl Executor,
        agents: &mut [CrowdAgent],
        obstacles: impl AsOrcaObstacles,
        scratch: &mut ContactScratch,
    ) -> f32 {
        let mut kept = std::mem::take(&mut scratch.obstacles);
        let worst = obstacles.with_orca_obstacles(&mut kept, |obstacles| {
            self.separate_from(executor, agents, obstacles, scratch)
        });
        scratch.obstacles = kept;
        worst
    }

    fn separate_from(
        &self,
        executor: &impl Executor,
        agents: &mut [CrowdAgent],
        obstacles: &OrcaObstacles,
        scratch: &mut ContactScratch,
    ) -> f32 {
        if !self.is_valid() || agents.len() > u32::MAX as usize {
            return 0.0;
        }
        let largest = agents
            .iter()
            .filter_map(body_radius)
            .fold(0.0_f32, f32::max);
        if largest == 0.0 {
            return 0.0;
        }
        // Pairs within reach of touching, with room for the pushes of several sweeps.
        let margin = largest;
        let chunk_len = chunk_len_for(agents.len(), executor.threads());
        let mut sweeps_left = self.iterations.min(Self::MAX_ITERATIONS);
        loop {
            Setup {
                agents,
                obstacles,
                margin,
                search: 2.0 * largest + margin,
                tolerance: self.tolerance,
            }
            .gather(executor, chunk_len, scratch);
            let sweeps = self.sweep(agents, obstacles, margin, sweeps_left, scratch);
            sweeps_left -= sweeps.made;
            // An agent that has gone half the margin from where the pairs were found may meet
            // one that was not within reach then: the pairs are found again from here.
            if !sweeps.drifted || sweeps_left == 0 {
                return sweeps.worst;
            }
        }
    }

    /// At most `sweeps` sweeps over the pairs and obstacles `scratch` holds, on the calling
    /// thread, until no pair overlaps by more than the tolerance or, at the end of a sweep, an
    /// agent is more than half the `margin` from its anchor. Each sweep looks only at the pairs
    /// and agents that may have changed (see [`SweepQueue`]), with the result of a sweep over
    /// them all. Not generic, unlike the setup: it is compiled once here, with what it calls
    /// for every pair and agent inlined, rather than in each caller's crate.
    fn sweep(
        &self,
        agents: &mut [CrowdAgent],
        obstacles: &OrcaObstacles,
        margin: f32,
        sweeps: u32,
        scratch: &mut ContactScratch,
    ) -> Sweeps {
        let ContactScratch {
            pairs,
            first_starts,
            overlapping,
            queue,
            starts,
            nearby,
            anchors,
            positions,
            radii,
            near,
            ..
        } = scratch;
        positions.clear();
        positions.extend(agents.iter().map(|agent| agent.position));
        radii.clear();
        radii.extend(agents.iter().map(|agent| agent.params.radius));
        let slip = self.sideways_share();
        // Beyond this (squared) from its anchor an agent may meet agents not among its pairs.
        let drift = (margin * 0.5) * (margin * 0.5);
        let mut done = Sweeps {
            worst: 0.0,
            made: 0,
            drifted: false,
        };
        queue.begin(pairs.len(), agents.len(), overlapping);
        while done.made < sweeps && !done.drifted {
            if done.made > 0 {
                queue.next_sweep(pairs, first_starts);
            }
            done.made += 1;
            let mut worst = 0.0_f32;
            while let Some(pair) = queue.next_pair() {
                let (first, second) = pairs[pair];
                let (first, second) = (first as usize, second as usize);
                let apart = separation(
                    (positions[first], radii[first]),
                    (positions[second], radii[second]),
                );
                // NaN (agents too far apart to subtract) is no overlap.
                if apart.overlap.is_nan() || apart.overlap <= self.tolerance {
                    continue;
                }
                worst = worst.max(apart.overlap);
                let direction = if apart.distance > apart.contact * 1e-6 {
                    apart.offset / apart.distance
                } else {
                    // On one point: apart along the first axis, the lower index first.
                    Vector::X
                };
                let parted = apart.overlap + rounding_slack(positions[first], positions[second]);
                let push = (direction + sideways(direction) * slip) * (parted * 0.5);
                positions[first] -= push;
                positions[second] += push;
                queue.pushed(pair, pairs, first_starts);
                done.drifted |= positions[first].distance_squared(anchors[first]) > drift
                    || positions[second].distance_squared(anchors[second]) > drift;
            }
            // (Without obstacles a sweep parts the pairs only.)
            if !obstacles.is_empty() {
                queue.obstacle_round(agents.len(), |index| {
                    let agent = &mut agents[index];
                    agent.position = positions[index];
                    let Some(own) = body_radius(agent) else {
                        return Moved {
                            moved: false,
                            settled: true,
                        };
                    };
                    let found = Nearby {
                        anchor: anchors[index],
                        margin,
                        obstacles: &nearby[starts[index] as usize..starts[index + 1] as usize],
                    };
                    let settled = push_out_of_all(agent, own, obstacles, found, near);
                    done.drifted |= agent.position.distance_squared(anchors[index]) > drift;
                    let moved = agent.position != positions[index];
                    positions[index] = agent.position;
                    Moved { moved, settled }
                });
            }
            done.worst = worst;
            if worst <= self.tolerance {
                break;
            }
        }
        for (agent, position) in agents.iter_mut().zip(positions.iter()) {
            agent.position = *position;
        }
        done
    }
}

/// How two bodies (position and radius each) lie: the offset from the first to the second, its
/// length, the distance at which they touch, and by how much they overlap (NaN where too far
/// apart to subtract). One function for finding the pairs and for the sweeps, so both see the
/// same overlap to the bit.
#[inline]
fn separation(first: (Vector, f32), second: (Vector, f32)) -> Separation {
    let offset = second.0 - first.0;
    let distance = offset.length();
    let contact = first.1 + second.1;
    Separation {
        offset,
        distance,
        contact,
        overlap: contact - distance,
    }
}

/// See [`separation`].
struct Separation {
    offset: Vector,
    distance: f32,
    contact: f32,
    overlap: f32,
}

/// What a run of sweeps did.
struct Sweeps {
    /// The largest overlap the last sweep found (and parted).
    worst: f32,
    /// How many sweeps were made.
    made: u32,
    /// Whether an agent went beyond half the margin from its anchor.
    drifted: bool,
}

/// An agent's radius, if it takes part in the pass: a finite radius above zero and a finite
/// position.
fn body_radius(agent: &CrowdAgent) -> Option<f32> {
    let radius = agent.params.radius;
    (radius.is_finite() && radius > 0.0 && agent.position.is_finite()).then_some(radius)
}

/// An agent as the pass's grid holds it: what finding its pairs reads, so that the search
/// reads the grid's runs and not each candidate's agent at random.
#[derive(Clone, Copy, Debug)]
struct Body {
    position: Vector,
    radius: f32,
    /// Its index among the agents.
    id: u32,
}

/// What the pass's setup reads: the agents where the pass starts, and the obstacles.
struct Setup<'a> {
    agents: &'a [CrowdAgent],
    obstacles: &'a OrcaObstacles,
    /// The room left for the pushes of one pass.
    margin: f32,
    /// How far a pair may be apart and still be within reach of touching: the grid's cell.
    search: f32,
    /// The pass's tolerance: the pairs that overlap by more are the first sweep's to part.
    tolerance: f32,
}

impl Setup<'_> {
    /// Fills `scratch`'s grid, pairs (sorted, with those overlapping by more than the tolerance
    /// and where each agent's start), and each agent's nearby obstacles with their anchors: the grid on the calling thread, the rest by chunks of `chunk_len` agents on
    /// `executor`, joined in chunk order. Any chunking gives the same lists, as one chunk
    /// would.
    fn gather(&self, executor: &impl Executor, chunk_len: usize, scratch: &mut ContactScratch) {
        let agents = self.agents;
        let ContactScratch {
            cells,
            pairs,
            first_starts,
            overlapping,
            starts,
            nearby,
            anchors,
            chunks,
            ..
        } = scratch;
        // An agent without a body stays out of the grid (a position that is not a number).
        cells.build(
            self.search,
            agents.iter().enumerate().map(|(index, agent)| {
                let radius = body_radius(agent);
                let position = radius.map_or(Vector::NAN, |_| agent.position);
                let body = Body {
                    position,
                    radius: radius.unwrap_or(f32::NAN),
                    id: index as u32,
                };
                (position, body)
            }),
        );
        let chunk_len = chunk_len.max(1);
        let count = agents.len().div_ceil(chunk_len);
        if chunks.len() < count {
            chunks.resize_with(count, Chunk::default);
        }
        let chunks = &mut chunks[..count];
        let cells = &*cells;
        executor.for_each_chunk(chunks, 1, |index, chunk| {
            let first = index * chunk_len;
            let end = (first + chunk_len).min(agents.len());
            self.gather_chunk(cells, first..end, &mut chunk[0]);
        });
        // Each agent's pairs are found in one chunk, sorted: a counting sort by the first
        // index, stable, joins them all in index order.
        pairs.clear();
        pairs.resize(chunks.iter().map(|chunk| chunk.pairs.len()).sum(), (0, 0));
        overlapping.clear();
        counting_sort(
            agents.len(),
            chunks.iter().flat_map(|chunk| chunk.pairs.iter().copied()),
            |&(first, ..)| first as usize,
            first_starts,
            |slot, (first, second, overlaps)| {
                pairs[slot] = (first, second);
                if overlaps {
                    overlapping.push(slot);
                }
            },
        );
        starts.clear();
        nearby.clear();
        for chunk in chunks.iter() {
            // The chunk's starts count from its own first obstacle.
            let offset = nearby.len() as u32;
            starts.extend(chunk.starts.iter().map(|start| start + offset));
            nearby.extend_from_slice(&chunk.nearby);
        }
        starts.push(nearby.len() as u32);
        anchors.clear();
        anchors.extend(agents.iter().map(|agent| agent.position));
    }

    /// Into `chunk`: the pairs of the bodies at `range` in the grid's order with those of
    /// higher index, each body's sorted; and the nearby obstacles of each agent at `range` in
    /// index order (none at all without obstacles).
    fn gather_chunk(&self, cells: &Cells<Body>, range: std::ops::Range<usize>, chunk: &mut Chunk) {
        let Chunk {
            pairs,
            starts,
            nearby,
            near,
        } = chunk;
        pairs.clear();
        starts.clear();
        nearby.clear();
        let (margin, search) = (self.margin, self.search);
        // In the grid's order, the bodies one after another query the same few cells, warm in
        // the cache (in index order, each query would fetch its cells from memory).
        let bodies = cells.entries();
        let in_grid = range.start.min(bodies.len())..range.end.min(bodies.len());
        for body in &bodies[in_grid] {
            let first = pairs.len();
            cells.nearest_first(body.position, search, |_, run| {
                // Every body in the grid has a valid radius.
                for them in run {
                    let reach = body.radius + them.radius + margin;
                    if them.id > body.id
                        && body.position.distance_squared(them.position) < reach * reach
                    {
                        // As the sweeps will see it (NaN is no overlap).
                        let overlap =
                            separation((body.position, body.radius), (them.position, them.radius))
                                .overlap;
                        pairs.push((body.id, them.id, overlap > self.tolerance));
                    }
                }
                search * search
            });
            // The grid gives them row by row, not by index.
            pairs[first..].sort_unstable();
        }
        if self.obstacles.is_empty() {
            return;
        }
        for agent in &self.agents[range] {
            starts.push(nearby.len() as u32);
            // Found once: a sweep looks again only for an agent that has moved beyond the
            // margin since.
            if let Some(own) = body_radius(agent) {
                self.obstacles
                    .cells()
                    .near(agent.position, own + margin, near);
                nearby.extend_from_slice(near);
            }
        }
    }
}

/// How much further than touching a push parts two agents at `first` and `second`: two steps of
/// `f32` at the larger coordinate. Far from the origin the positions are rounded to steps
/// coarser than the tolerance (2.4e-4 at 2,500 units), so a push to exactly touching can leave
/// an overlap that no sweep removes, and the pass would run to its last sweep.
fn rounding_slack(first: Vector, second: Vector) -> f32 {
    2.0 * f32::EPSILON * first.abs().max(second.abs()).max_element()
}

/// `direction` turned a right angle clockwise in the first two axes: the pair's sideways.
fn sideways(direction: Vector) -> Vector {
    let mut side = Vector::ZERO;
    side[0] = direction[1];
    side[1] = -direction[0];
    side
}

/// The most times an agent is pushed out of the obstacles near it in one sweep: a push out of
/// one may take it into another, found from its new place.
const OBSTACLE_ROUNDS: usize = 4;

/// The obstacles found near an agent at the start of the pass.
struct Nearby<'a> {
    /// Where the agent was.
    anchor: Vector,
    /// How much further than its radius they were looked for.
    margin: f32,
    obstacles: &'a [u32],
}

/// Moves `agent` (of `radius`) out of every obstacle it is inside or nearer than its radius to,
/// in index order: those `found` at the start of the pass while the agent is within the margin
/// of where it was, else those in the cells about it (`near` is scratch); of these, those whose
/// bounding ball it touches. Again from where that leaves it, if it moved, up to
/// [`OBSTACLE_ROUNDS`] times in all. Returns whether the last time left it where it was.
fn push_out_of_all(
    agent: &mut CrowdAgent,
    radius: f32,
    obstacles: &OrcaObstacles,
    found: Nearby,
    near: &mut Vec<u32>,
) -> bool {
    let solids = obstacles.solids();
    for _ in 0..OBSTACLE_ROUNDS {
        let before = agent.position;
        // Not `<=` the other way: an agent too far to subtract looks again.
        let candidates = if agent.position.distance(found.anchor) <= found.margin {
            found.obstacles
        } else {
            obstacles.cells().near(agent.position, radius, near);
            near.as_slice()
        };
        for &index in candidates {
            match solids.get(index as usize) {
                Some((shape, centre, reach)) => {
                    // Not `>`: a NaN distance (an agent too far to subtract) is skipped too.
                    if agent.position.distance(*centre) - reach - radius <= 0.0 {
                        push_out(agent, radius, shape);
                    }
                }
                None => push_off_segment(agent, radius, obstacles, index as usize - solids.len()),
            }
        }
        if agent.position == before {
            return true;
        }
    }
    false
}

/// Moves `agent` (of `radius`) off the open segment `index` of `obstacles` (which has no
/// inside) to touch it, if nearer than its radius; one on the segment goes to its right.
#[cfg(not(flock_3d))]
fn push_off_segment(agent: &mut CrowdAgent, radius: f32, obstacles: &OrcaObstacles, index: usize) {
    let (a, b) = obstacles.segments()[index];
    let nearest = crate::steering::polygon::nearest_on_segment(agent.position, a, b);
    let away = agent.position - nearest;
    let distance = away.length();
    if distance >= radius {
        return;
    }
    let out = if distance > 1e-6 * radius {
        away / distance
    } else {
        -(b - a).perp().normalize_or(Vector::X)
    };
    let moved = nearest + out * radius;
    if moved.is_finite() {
        agent.position = moved;
    }
}

// 3D obstacles have no open segments.
#[cfg(flock_3d)]
fn push_off_segment(
    _agent: &mut CrowdAgent,
    _radius: f32,
    _obstacles: &OrcaObstacles,
    _index: usize,
) {
}

/// Moves `agent` (of `radius`) out of `obstacle` to touch its outline, if it is inside or
/// nearer than its radius.
fn push_out(agent: &mut CrowdAgent, radius: f32, obstacle: &Shape) {
    let position = agent.position;
    let mut moved = position;
    nearest_points(obstacle, position, |nearest| {
        let away = moved - nearest.point;
        let distance = away.length();
        let out = if distance > 1e-6 * radius {
            if nearest.inside {
                -away / distance
            } else {
                away / distance
            }
        } else {
            nearest.outward
        };
        let depth = if nearest.inside {
            radius + distance
        } else {
            radius - distance
        };
        if depth > 0.0 {
            moved = nearest.point + out * radius;
        }
    });
    if moved.is_finite() {
        agent.position = moved;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::ScopedThreads;
    use crate::steering::OrcaParams;
    use crate::steering::orca::test_random::unit;

    /// `count` agents of radius 0.5 packed about one to a unit of room, every tenth not
    /// taking part (a position that is not a number).
    fn agents(count: usize) -> Vec<CrowdAgent> {
        let side = (count as f32).powf(1.0 / crate::math::DIMENSIONS as f32);
        let mut state = 3;
        (0..count)
            .map(|i| {
                let mut position = Vector::ZERO;
                for axis in 0..crate::math::DIMENSIONS {
                    position[axis] = (unit(&mut state) - 0.5) * side;
                }
                if i % 10 == 3 {
                    position = Vector::NAN;
                }
                let params = OrcaParams::rvo2(3.0, 10, 2.0, 1.0, 0.5);
                CrowdAgent::standing(position, Vector::ZERO, 1.0, params)
            })
            .collect()
    }

    /// A disc in the plane, a sphere in space, of radius 1 about `x` on the first axis.
    fn ball(x: f32) -> Shape {
        let centre = Vector::X * x;
        #[cfg(not(flock_3d))]
        return Shape::Circle {
            centre,
            radius: 1.0,
        };
        #[cfg(flock_3d)]
        return Shape::Sphere {
            centre,
            radius: 1.0,
        };
    }

    /// Balls over the crowd's middle.
    fn obstacles() -> OrcaObstacles {
        let shapes: Vec<Shape> = (0..5).map(|i| ball(3.0 * i as f32 - 6.0)).collect();
        OrcaObstacles::from_shapes(&shapes)
    }

    /// The setup's lists found the plain way, one agent after another on one thread, every
    /// pair sorted at the end: `(pairs, starts, nearby)`, and whether the grid gave the pairs
    /// sorted already.
    fn plainly(setup: &Setup, cells: &Cells<Body>) -> (Vec<(u32, u32)>, Vec<u32>, Vec<u32>, bool) {
        let (mut pairs, mut starts, mut nearby, mut near) = (vec![], vec![], vec![], vec![]);
        for (index, agent) in setup.agents.iter().enumerate() {
            if !setup.obstacles.is_empty() {
                starts.push(nearby.len() as u32);
            }
            let Some(own) = body_radius(agent) else {
                continue;
            };
            cells.nearest_first(agent.position, setup.search, |_, run| {
                for &Body { id: other, .. } in run {
                    let them = &setup.agents[other as usize];
                    if other as usize > index
                        && let Some(theirs) = body_radius(them)
                        && agent.position.distance_squared(them.position)
                            < (own + theirs + setup.margin).powi(2)
                    {
                        pairs.push((index as u32, other));
                    }
                }
                setup.search * setup.search
            });
            if !setup.obstacles.is_empty() {
                setup
                    .obstacles
                    .cells()
                    .near(agent.position, own + setup.margin, &mut near);
                nearby.extend_from_slice(&near);
            }
        }
        let arrived_sorted = pairs.is_sorted();
        pairs.sort_unstable();
        starts.push(nearby.len() as u32);
        (pairs, starts, nearby, arrived_sorted)
    }

    #[test]
    fn chunks_are_joined_into_the_lists_one_thread_finds() {
        let agents = agents(600);
        for obstacles in [OrcaObstacles::default(), obstacles()] {
            let setup = Setup {
                agents: &agents,
                obstacles: &obstacles,
                margin: 0.5,
                search: 1.5,
                tolerance: ContactPass::default().tolerance,
            };
            let mut scratch = ContactScratch::default();
            setup.gather(&Serial, agents.len(), &mut scratch);
            let (pairs, starts, nearby, arrived_sorted) = plainly(&setup, &scratch.cells);
            assert!(pairs.len() > agents.len(), "{} pairs", pairs.len());
            // The grid gives some pairs out of index order, so the sorts count.
            assert!(!arrived_sorted);
            if !obstacles.is_empty() {
                assert!(nearby.len() > 10, "{} obstacles near agents", nearby.len());
            }
            let anchors: Vec<Vector> = agents.iter().map(|agent| agent.position).collect();
            for chunk_len in [1, 7, 64, 599, 600, 10_000] {
                for threads in [1, 3] {
                    setup.gather(&ScopedThreads(threads), chunk_len, &mut scratch);
                    let at = format!("chunks of {chunk_len} on {threads} threads");
                    assert_eq!(scratch.pairs, pairs, "{at}");
                    assert_eq!(scratch.starts, starts, "{at}");
                    assert_eq!(scratch.nearby, nearby, "{at}");
                    let same = scratch.anchors.iter().zip(&anchors).all(|(a, b)| {
                        a.to_array().map(f32::to_bits) == b.to_array().map(f32::to_bits)
                    });
                    assert!(same && scratch.anchors.len() == anchors.len(), "{at}");
                }
            }
        }
    }

    /// The same crowd parted twice: sweeping only the pairs and agents that may have changed,
    /// and sweeping every pair and agent in every sweep; the positions and the overlap left,
    /// bit for bit.
    fn parts_as_every_pair_would(
        pass: &ContactPass,
        crowd: &[CrowdAgent],
        obstacles: &OrcaObstacles,
        at: &str,
    ) {
        let bits = |agents: &[CrowdAgent]| -> Vec<[u32; crate::math::DIMENSIONS]> {
            agents
                .iter()
                .map(|agent| agent.position.to_array().map(f32::to_bits))
                .collect()
        };
        let mut queued = crowd.to_vec();
        let left = pass.separate(&mut queued, obstacles, &mut ContactScratch::default());
        let mut every = crowd.to_vec();
        let mut scratch = ContactScratch::default();
        scratch.queue.every = true;
        let every_left = pass.separate(&mut every, obstacles, &mut scratch);
        assert_eq!(left.to_bits(), every_left.to_bits(), "{at}: {left} left");
        assert_eq!(bits(&queued), bits(&every), "{at}");
        assert_ne!(bits(&queued), bits(crowd), "{at}: nothing parted");
    }

    #[test]
    fn sweeping_the_pairs_that_may_have_changed_parts_as_sweeping_every_pair() {
        let crowd = agents(600);
        // Overlapping balls, so a push out of one can end inside another.
        let shapes: Vec<Shape> = (0..6).map(|i| ball(1.2 * i as f32 - 3.0)).collect();
        let overlapping = OrcaObstacles::from_shapes(&shapes);
        // A jam: the crowd drawn into a tenth of its room, so the pushes carry agents beyond
        // the margin and the pairs are found again.
        let jam: Vec<CrowdAgent> = crowd
            .iter()
            .map(|agent| CrowdAgent {
                position: agent.position * 0.1,
                ..*agent
            })
            .collect();
        let far: Vec<CrowdAgent> = crowd
            .iter()
            .map(|agent| CrowdAgent {
                position: agent.position + Vector::splat(5000.0),
                ..*agent
            })
            .collect();
        // Apart when found, until the ball pushes the first agent into the second; the last two
        // overlap a little, so that there is a second sweep (and no agent drifts far enough to
        // have the pairs found again).
        let params = OrcaParams::rvo2(3.0, 10, 2.0, 1.0, 0.5);
        let pushed_into: Vec<CrowdAgent> = [1.3, 2.3, 10.0, 10.9]
            .map(|x| CrowdAgent::standing(Vector::X * x, Vector::ZERO, 1.0, params))
            .to_vec();
        let one_ball = OrcaObstacles::from_shapes(&[ball(0.0)]);
        parts_as_every_pair_would(
            &ContactPass::default(),
            &pushed_into,
            &one_ball,
            "pushed out of a ball into another agent",
        );
        for (name, pass) in [
            ("default", ContactPass::default()),
            (
                "no slip",
                ContactPass {
                    slip: 0.0,
                    ..ContactPass::default()
                },
            ),
            (
                "three sweeps",
                ContactPass {
                    iterations: 3,
                    ..ContactPass::default()
                },
            ),
            (
                "no tolerance",
                ContactPass {
                    tolerance: 0.0,
                    iterations: 50,
                    ..ContactPass::default()
                },
            ),
        ] {
            for (crowd_name, crowd) in [("crowd", &crowd), ("jam", &jam), ("far", &far)] {
                for (walls, obstacles) in [
                    ("open", &OrcaObstacles::default()),
                    ("balls", &obstacles()),
                    ("overlapping balls", &overlapping),
                ] {
                    let at = format!("{name}, {crowd_name}, {walls}");
                    parts_as_every_pair_would(&pass, crowd, obstacles, &at);
                }
            }
        }
    }

    #[test]
    fn a_crowd_far_from_the_origin_is_parted_as_surely_as_one_near_it() {
        // At 5,000 units apart from the origin a coordinate's f32 step is 4.9e-4, five times
        // the tolerance: pushes to exactly touching would leave overlaps no sweep removes.
        let pass = ContactPass {
            iterations: 300,
            ..ContactPass::default()
        };
        for offset in [0.0, 5000.0, -5000.0] {
            let mut crowd = agents(400);
            for agent in &mut crowd {
                agent.position += Vector::splat(offset);
            }
            let left = pass.separate(
                &mut crowd,
                OrcaObstacles::default(),
                &mut ContactScratch::default(),
            );
            assert!(left <= pass.tolerance, "at {offset}: {left} left");
            let bodies: Vec<&CrowdAgent> = crowd
                .iter()
                .filter(|agent| body_radius(agent).is_some())
                .collect();
            for (index, first) in bodies.iter().enumerate() {
                for second in &bodies[index + 1..] {
                    let gap = first.position.distance(second.position)
                        - first.params.radius
                        - second.params.radius;
                    assert!(gap > -1e-3, "at {offset}: an overlap of {}", -gap);
                }
            }
        }
    }
}
