//! The contact pass: after ORCA has moved a crowd, agents that still overlap (a crowd too dense
//! for every constraint leaves some) are parted at the position level, as Recast's DetourCrowd
//! does after its own avoidance, and agents are put back out of static obstacles.
//!
//! The pass is deterministic: the pairs are found once in a grid and visited in a fixed order
//! (by the agents' indexes, never by a query's or a thread's order), each pair parted at once
//! (Gauss-Seidel, which converges in a few sweeps where DetourCrowd's averaged Jacobi sweeps do
//! not), for at most a fixed number of sweeps, stopping early once no pair overlaps by more than
//! the tolerance. [`OrcaCrowd::step`](super::OrcaCrowd::step) then adds the displacement to the
//! velocities.
//!
//! Where we differ from DetourCrowd on purpose: in the plane each push is also partly sideways
//! ([`ContactPass::slip`]), every pair turned the same way about its midpoint. A crowd pressed
//! into a symmetric jam (RVO2's Circle) then turns like a roundabout and clears, where plain
//! pushes cancel out and hold it: ORCA alone, which lets agents overlap, slips through such a
//! jam; hard contacts without the turn can hold it for good.

use super::agent::CrowdAgent;
use super::cells::Cells;
use super::half_planes::nearest_points;
use super::obstacles::{AsOrcaObstacles, OrcaObstacles};
use crate::math::Vector;
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
    cells: Cells<u32>,
    pairs: Vec<(u32, u32)>,
    /// The obstacles near each agent at the start of the pass (within its radius and the
    /// margin): `nearby[starts[i]..starts[i + 1]]` for agent `i`, found from `anchors[i]`.
    starts: Vec<u32>,
    nearby: Vec<u32>,
    anchors: Vec<Vector>,
    /// The obstacles near an agent that moved beyond the margin from its anchor.
    near: Vec<u32>,
    /// The obstacles built from the shapes given, while they stay the same.
    obstacles: OrcaObstacles,
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
    pub fn separate(
        &self,
        agents: &mut [CrowdAgent],
        obstacles: impl AsOrcaObstacles,
        scratch: &mut ContactScratch,
    ) -> f32 {
        let mut kept = std::mem::take(&mut scratch.obstacles);
        let worst = obstacles.with_orca_obstacles(&mut kept, |obstacles| {
            self.separate_from(agents, obstacles, scratch)
        });
        scratch.obstacles = kept;
        worst
    }

    fn separate_from(
        &self,
        agents: &mut [CrowdAgent],
        obstacles: &OrcaObstacles,
        scratch: &mut ContactScratch,
    ) -> f32 {
        if !self.is_valid() || agents.len() > u32::MAX as usize {
            return 0.0;
        }
        let radius = |agent: &CrowdAgent| {
            let radius = agent.params.radius;
            (radius.is_finite() && radius > 0.0 && agent.position.is_finite()).then_some(radius)
        };
        let largest = agents.iter().filter_map(radius).fold(0.0_f32, f32::max);
        if largest == 0.0 {
            return 0.0;
        }
        // Pairs within reach of touching, with room for the pushes of one pass.
        let margin = largest;
        let ContactScratch {
            cells,
            pairs,
            starts,
            nearby,
            anchors,
            near,
            ..
        } = scratch;
        cells.build(
            2.0 * largest + margin,
            agents.iter().enumerate().map(|(index, agent)| {
                let position = if radius(agent).is_some() {
                    agent.position
                } else {
                    Vector::NAN
                };
                (position, index as u32)
            }),
        );
        pairs.clear();
        for (index, agent) in agents.iter().enumerate() {
            let Some(own) = radius(agent) else { continue };
            let search = 2.0 * largest + margin;
            cells.nearest_first(agent.position, search, |_, run| {
                for &other in run {
                    let them = &agents[other as usize];
                    if other as usize > index
                        && let Some(theirs) = radius(them)
                    {
                        let reach = own + theirs + margin;
                        if agent.position.distance_squared(them.position) < reach * reach {
                            pairs.push((index as u32, other));
                        }
                    }
                }
                search * search
            });
        }
        pairs.sort_unstable();

        let slip = self.sideways_share();
        // Each agent's nearby obstacles, found once: a sweep looks again only for an agent that
        // has moved beyond the margin since.
        starts.clear();
        nearby.clear();
        anchors.clear();
        // (Without obstacles a sweep parts the pairs only.)
        let any_obstacles = !obstacles.is_empty();
        for agent in agents.iter().filter(|_| any_obstacles) {
            starts.push(nearby.len() as u32);
            anchors.push(agent.position);
            if let Some(own) = radius(agent) {
                obstacles.cells().near(agent.position, own + margin, near);
                nearby.extend_from_slice(near);
            }
        }
        starts.push(nearby.len() as u32);
        let mut worst = 0.0;
        for _ in 0..self.iterations.min(Self::MAX_ITERATIONS) {
            worst = 0.0_f32;
            for &(first, second) in pairs.iter() {
                let (first, second) = (first as usize, second as usize);
                let contact = agents[first].params.radius + agents[second].params.radius;
                let offset = agents[second].position - agents[first].position;
                let distance = offset.length();
                let overlap = contact - distance;
                // NaN (agents too far apart to subtract) is no overlap.
                if overlap.is_nan() || overlap <= self.tolerance {
                    continue;
                }
                worst = worst.max(overlap);
                let direction = if distance > contact * 1e-6 {
                    offset / distance
                } else {
                    // On one point: apart along the first axis, the lower index first.
                    Vector::X
                };
                let push = (direction + sideways(direction) * slip) * (overlap * 0.5);
                agents[first].position -= push;
                agents[second].position += push;
            }
            for (index, agent) in agents.iter_mut().enumerate().filter(|_| any_obstacles) {
                if let Some(own) = radius(agent) {
                    let found = Nearby {
                        anchor: anchors[index],
                        margin,
                        obstacles: &nearby[starts[index] as usize..starts[index + 1] as usize],
                    };
                    push_out_of_all(agent, own, obstacles, found, near);
                }
            }
            if worst <= self.tolerance {
                break;
            }
        }
        worst
    }
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
/// bounding ball it touches. Again from where that leaves it, if it moved.
fn push_out_of_all(
    agent: &mut CrowdAgent,
    radius: f32,
    obstacles: &OrcaObstacles,
    found: Nearby,
    near: &mut Vec<u32>,
) {
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
            break;
        }
    }
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
