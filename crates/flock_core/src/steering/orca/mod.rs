//! Optimal reciprocal collision avoidance (ORCA; van den Berg, Guy, Lin and Manocha,
//! "Reciprocal n-Body Collision Avoidance", 2011): each agent picks the velocity nearest the
//! one it prefers among those that avoid its neighbours for a time horizon, assuming each
//! neighbour takes its share of every avoidance. Two agents that both follow it never collide
//! while their programs are feasible.
//!
//! The algorithm is RVO2's (`Agent::computeNewVelocity`, the authors' library): for each
//! neighbour the agent builds one half-plane (half-space in 3D) of allowed velocities
//! (`half_planes.rs`; four neighbours at a time in `constraint_lanes.rs`), for each static
//! obstacle near enough one more (before the neighbours'), and solves a small linear program
//! over them within its maximum speed (`program.rs`, and `program_3d.rs` in 3D). When
//! the constraints leave no velocity (a dense crowd), RVO2's fallback (`linearProgram3`) keeps
//! the obstacles' constraints and minimises the largest violation of the neighbours'.
//! [`OrcaParams::rvo2`] gives RVO2's exact behaviour (the test `tests/rvo2.rs` runs scenarios
//! through RVO2's own library and compares the velocities); the defaults differ from it in two
//! documented ways: a [`clearance`](OrcaParams::clearance) between outlines, and agents at rest
//! taking a smaller share ([`yield_at_rest`](OrcaParams::yield_at_rest)).
//!
//! Static obstacles ([`OrcaObstacles`], built once) are RVO2's in 2D: linked polygons with
//! their convexity, in RVO2's obstacle k-d tree (`obstacle_tree.rs`), each edge an agent sees
//! giving RVO2's line (`obstacle_lines.rs`: legs, cut-off, already-covered pruning); circles
//! are discs at rest (see [`OrcaObstacles`]). In 3D (RVO2-3D has no obstacles) each shape gives
//! one half-space per nearest point, a linearisation that errs on the safe side at corners. In
//! 3D the program is RVO2-3D's shape (a ball cut by half-spaces), checked here against brute
//! force only.
//!
//! Neighbours are RVO2's: the nearest [`max_neighbours`](OrcaParams::max_neighbours) within the
//! neighbour distance, nearest first, ties by id (RVO2 breaks ties by its k-d tree's order), so
//! the result does not depend on the order candidates are given in, and nothing is random.
//! [`crowd`](OrcaCrowd) steps a whole crowd as RVO2's `doStep` does, in parallel chunks, with
//! an optional [contact pass](ContactPass) after it.

mod agent;
mod cells;
mod constraint_lanes;
mod contact;
mod contact_queue;
mod counting_sort;
mod crowd;
mod half_planes;
mod lines;
mod nearest_keys;
mod obstacle_cells;
mod obstacle_input;
#[cfg(not(flock_3d))]
mod obstacle_lines;
#[cfg(not(flock_3d))]
mod obstacle_tree;
mod obstacles;
mod program;
#[cfg(flock_3d)]
mod program_3d;
mod sorting_network;
#[cfg(test)]
mod test_random;

pub use agent::CrowdAgent;
pub use contact::{ContactPass, ContactScratch};
pub use crowd::OrcaCrowd;
pub use lines::HalfSpace;
pub use obstacle_input::{MAX_OBSTACLE_COORDINATE, ObstacleError, ObstacleFault};
pub use obstacles::{AsOrcaObstacles, OrcaObstacles};

use crate::math::Vector;
use constraint_lanes::{Pair, agent_constraints};
use lines::Goal;
use program::{least_violation, solve};

/// How an agent avoids others with ORCA.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaParams {
    /// The agent's radius, world units.
    pub radius: f32,
    /// How far ahead it avoids other agents, seconds: longer is safer and earlier, but more
    /// cautious in a crowd.
    pub time_horizon: f32,
    /// How far ahead it avoids static obstacles, seconds (usually shorter than for agents, so
    /// it can pass close to walls).
    pub obstacle_time_horizon: f32,
    /// Agents whose centres are farther than this are ignored, world units. At most
    /// [`MAX_NEIGHBOUR_DISTANCE`](Self::MAX_NEIGHBOUR_DISTANCE) radii: beyond it the work grows
    /// with the square of the distance and nothing is gained; larger values count as that.
    pub neighbour_distance: f32,
    /// At most this many neighbours (the nearest) are avoided; at most
    /// [`MAX_NEIGHBOURS`](Self::MAX_NEIGHBOURS) (larger values count as that).
    pub max_neighbours: usize,
    /// Extra distance ORCA keeps between two agents' outlines, world units (the paper's
    /// constraints use the sum of the radii plus this). Zero is the paper's own; a little more
    /// absorbs what a crowd too dense for every constraint forces on its agents (the fallback
    /// lets them close in), so that their bodies still do not touch.
    pub clearance: f32,
    /// The agent's weight in sharing an avoidance: of a pair, each takes its weight over the
    /// sum of both (`0.5` and `0.5`: the paper's reciprocal halves; an agent of weight `1`
    /// against one of `0.5` takes two thirds). The weight falls as the agent's preferred speed
    /// goes to zero (see [`share`](Self::share)), so an agent that has arrived or stands still
    /// mostly lets the others go round it. Clamped to `[MIN_RESPONSIBILITY, 1]` where
    /// shared, so a huge weight cannot overflow a pair's sum.
    pub responsibility: f32,
    /// Whether an agent's weight falls as its preferred speed goes to zero (see
    /// [`share`](Self::share)): an agent that has arrived lets the others go round it rather
    /// than being pushed off its goal. RVO2 has no such rule (every pair shares half and half):
    /// `false` is RVO2's. Missing from serialized parameters, it is the default, `true`.
    #[cfg_attr(feature = "serde", serde(default = "yield_at_rest_by_default"))]
    pub yield_at_rest: bool,
}

/// [`OrcaParams::yield_at_rest`] where serialized parameters leave it out.
#[cfg(feature = "serde")]
fn yield_at_rest_by_default() -> bool {
    true
}

impl Default for OrcaParams {
    /// Sizes for the plugin's pixel-scale boids: a radius of 8, two seconds ahead for agents and
    /// one for obstacles, the ten nearest within 80, a clearance of a quarter of the radius, the
    /// paper's reciprocal halves, agents at rest yielding.
    fn default() -> Self {
        Self {
            radius: 8.0,
            time_horizon: 2.0,
            obstacle_time_horizon: 1.0,
            neighbour_distance: 80.0,
            max_neighbours: 10,
            clearance: 2.0,
            responsibility: 0.5,
            yield_at_rest: true,
        }
    }
}

/// Below this fraction of its maximum speed, an agent's preferred speed lowers its weight
/// (see [`OrcaParams::share`]).
pub const STILL_SPEED_FRACTION: f32 = 0.1;

/// The least part of its weight an agent keeps at rest, so that it still steps aside for an
/// agent that cannot avoid it alone (a program left infeasible in a crowd).
pub const STILL_SHARE: f32 = 0.1;

impl OrcaParams {
    /// The most neighbours an agent avoids: more than RVO2's examples use (10) by far, and a
    /// bound on each agent's program.
    pub const MAX_NEIGHBOURS: usize = 64;

    /// The farthest an agent looks for neighbours, in its own radii.
    pub const MAX_NEIGHBOUR_DISTANCE: f32 = 100.0;

    /// The least weight a valid responsibility counts as.
    pub const MIN_RESPONSIBILITY: f32 = 1e-3;

    /// RVO2's agent (`RVOSimulator::addAgent` with the same arguments): no clearance, half and
    /// half in every pair, no yielding at rest. `time_horizon_obst` is RVO2's
    /// `timeHorizonObst`.
    pub fn rvo2(
        neighbour_distance: f32,
        max_neighbours: usize,
        time_horizon: f32,
        time_horizon_obst: f32,
        radius: f32,
    ) -> Self {
        Self {
            radius,
            time_horizon,
            obstacle_time_horizon: time_horizon_obst,
            neighbour_distance,
            max_neighbours,
            clearance: 0.0,
            responsibility: 0.5,
            yield_at_rest: false,
        }
    }

    /// The neighbour distance the agent uses: [`neighbour_distance`](Self::neighbour_distance)
    /// up to [`MAX_NEIGHBOUR_DISTANCE`](Self::MAX_NEIGHBOUR_DISTANCE) radii.
    pub fn reach(&self) -> f32 {
        self.neighbour_distance
            .min(Self::MAX_NEIGHBOUR_DISTANCE * self.radius)
    }

    /// The number of neighbours the agent uses: [`max_neighbours`](Self::max_neighbours) up to
    /// [`MAX_NEIGHBOURS`](Self::MAX_NEIGHBOURS).
    pub fn neighbour_cap(&self) -> usize {
        self.max_neighbours.min(Self::MAX_NEIGHBOURS)
    }

    /// Why these parameters are capped, if they are: a sentence for a warning, or `None`.
    pub fn capped(&self) -> Option<String> {
        let mut notes = Vec::new();
        if self.max_neighbours > Self::MAX_NEIGHBOURS {
            notes.push(format!(
                "max_neighbours {} counts as {}",
                self.max_neighbours,
                Self::MAX_NEIGHBOURS
            ));
        }
        if self.neighbour_distance > self.reach() {
            notes.push(format!(
                "neighbour_distance {} counts as {} ({} radii)",
                self.neighbour_distance,
                self.reach(),
                Self::MAX_NEIGHBOUR_DISTANCE
            ));
        }
        if self.responsibility > 1.0 {
            notes.push(format!(
                "responsibility {} counts as 1",
                self.responsibility
            ));
        }
        (!notes.is_empty()).then(|| notes.join(", "))
    }

    /// The responsibility as shared: clamped to `[MIN_RESPONSIBILITY, 1]`.
    fn weight(&self) -> f32 {
        self.responsibility.clamp(Self::MIN_RESPONSIBILITY, 1.0)
    }

    /// Whether every number is finite, the radius, horizons and responsibility positive and not
    /// subnormal (a subnormal horizon's inverse is infinite), the neighbour distance and
    /// clearance not negative; invalid parameters steer nobody. Values above the caps are valid
    /// (see [`capped`](Self::capped)).
    pub fn is_valid(&self) -> bool {
        let positive = [
            self.radius,
            self.time_horizon,
            self.obstacle_time_horizon,
            self.responsibility,
        ];
        positive
            .iter()
            .all(|value| value.is_normal() && *value > 0.0)
            && [self.neighbour_distance, self.clearance]
                .iter()
                .all(|value| value.is_finite() && *value >= 0.0)
    }

    /// The weight an agent preferring `preferred_velocity`, with `max_speed`, brings to sharing
    /// an avoidance: [`responsibility`](Self::responsibility) while it wants to move at
    /// [`STILL_SPEED_FRACTION`] of its maximum speed or more, falling in proportion below
    /// that to [`STILL_SHARE`] of it at rest (with [`yield_at_rest`](Self::yield_at_rest);
    /// without, always the responsibility). The responsibility counts clamped to
    /// `[MIN_RESPONSIBILITY, 1]`. Pass it as a neighbour's [`OrcaNeighbour::share`].
    pub fn share(&self, preferred_velocity: Vector, max_speed: f32) -> f32 {
        if !self.yield_at_rest {
            return self.weight();
        }
        let speed = preferred_velocity.length();
        let moving = if max_speed > 0.0 {
            speed / (STILL_SPEED_FRACTION * max_speed)
        } else {
            0.0
        };
        // NaN (a broken velocity) falls to the floor.
        let factor = if moving >= 1.0 {
            1.0
        } else if moving >= STILL_SHARE {
            moving
        } else {
            STILL_SHARE
        };
        self.weight() * factor
    }
}

/// The agent ORCA picks a velocity for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaAgent {
    /// Where it is.
    pub position: Vector,
    /// How it moves now, world units per second.
    pub velocity: Vector,
    /// How it would move with nobody around (its other behaviours' answer).
    pub preferred_velocity: Vector,
    /// The fastest it may go.
    pub max_speed: f32,
    /// A number unique to it among the agents: it orders neighbours at the same distance and
    /// parts two agents on one point. A neighbour with the same id is the agent itself and is
    /// skipped.
    pub id: u64,
}

/// A neighbour as the agent sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrcaNeighbour {
    /// Where it is.
    pub position: Vector,
    /// How it moves.
    pub velocity: Vector,
    /// Its radius.
    pub radius: f32,
    /// Its weight in sharing an avoidance ([`OrcaParams::share`] of its own parameters; zero
    /// for a body that does not avoid, which leaves the whole avoidance to the agent).
    pub share: f32,
    /// Its unique number (see [`OrcaAgent::id`]).
    pub id: u64,
}

/// Reusable buffers, so that a step allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct OrcaScratch {
    nearest: Vec<(f32, OrcaNeighbour)>,
    /// The neighbours as their constraints take them.
    pairs: Vec<Pair>,
    constraints: Vec<HalfSpace>,
    projected: Vec<HalfSpace>,
    obstacle_count: usize,
    /// The polygon edges the agent sees, nearest first (RVO2's obstacle neighbours).
    #[cfg(not(flock_3d))]
    edges: Vec<(f32, u32)>,
    /// The obstacles built from the shapes given, while they stay the same.
    obstacles: OrcaObstacles,
}

impl OrcaScratch {
    /// The constraints of the last [`orca_velocity`] call: the static obstacles' first (see
    /// [`obstacle_constraints`](Self::obstacle_constraints)), then the neighbours', nearest
    /// first (RVO2's order). For drawing them, and for tests.
    pub fn constraints(&self) -> &[HalfSpace] {
        &self.constraints
    }

    /// How many of [`constraints`](Self::constraints) come from static obstacles: the fallback
    /// keeps these hard.
    pub fn obstacle_constraints(&self) -> usize {
        self.obstacle_count
    }
}

/// ORCA's new velocity for `agent` among `neighbours` (candidates from a neighbour index; those
/// beyond the neighbour distance, with a position or velocity that is not finite, or with the
/// agent's own id are skipped; one with a radius that is not a finite number of zero or more
/// counts as the agent's size, one with a share that is not finite and not negative as sharing
/// half and half) and static `obstacles` (an [`OrcaObstacles`], or shapes, built into the one
/// `scratch` keeps: see [`AsOrcaObstacles`]), for a step of `time_step` seconds.
///
/// The result is within `agent.max_speed` and finite. Invalid parameters or time step give the
/// preferred velocity (limited to the maximum speed), unavoided; an agent whose own position,
/// velocity or maximum speed is not a finite number (or a negative speed) gets zero.
pub fn orca_velocity(
    agent: &OrcaAgent,
    neighbours: impl IntoIterator<Item = OrcaNeighbour>,
    obstacles: impl AsOrcaObstacles,
    params: &OrcaParams,
    time_step: f32,
    scratch: &mut OrcaScratch,
) -> Vector {
    let mut kept = std::mem::take(&mut scratch.obstacles);
    let velocity = obstacles.with_orca_obstacles(&mut kept, |obstacles| {
        orca_velocity_among(
            agent,
            |nearest| {
                let mut set = NearestSet::new(agent, params, nearest);
                neighbours.into_iter().for_each(|n| set.offer(n));
            },
            obstacles,
            params,
            time_step,
            scratch,
        )
    });
    scratch.obstacles = kept;
    velocity
}

/// [`orca_velocity`] with the neighbours chosen by `select`, which fills the empty list it is
/// given with RVO2's neighbours and their squared distances, nearest first, as [`NearestSet`]
/// chooses them (for a neighbour index that selects in its own way).
pub(super) fn orca_velocity_among(
    agent: &OrcaAgent,
    select: impl FnOnce(&mut Vec<(f32, OrcaNeighbour)>),
    obstacles: &OrcaObstacles,
    params: &OrcaParams,
    time_step: f32,
    scratch: &mut OrcaScratch,
) -> Vector {
    let max_speed = agent.max_speed;
    if !(agent.position.is_finite()
        && agent.velocity.is_finite()
        && max_speed.is_finite()
        && max_speed >= 0.0)
    {
        return Vector::ZERO;
    }
    // RVO2 aims at the preferred velocity as given (its projection onto a constraint's line
    // uses it unlimited); only the velocity chosen is within the maximum speed.
    let preferred = if agent.preferred_velocity.is_finite() {
        agent.preferred_velocity
    } else {
        Vector::ZERO
    };
    if !(params.is_valid() && time_step.is_normal() && time_step > 0.0) {
        return preferred.clamp_length_max(max_speed);
    }
    let OrcaScratch {
        nearest,
        pairs,
        constraints,
        projected,
        obstacle_count,
        #[cfg(not(flock_3d))]
        edges,
        ..
    } = scratch;
    constraints.clear();

    // Static obstacles first: the fallback keeps them hard. (Nothing to do without any: a
    // crowd in the open pays nothing for them.)
    if !obstacles.is_empty() {
        #[cfg(not(flock_3d))]
        obstacle_constraints(agent, obstacles, params, time_step, edges, constraints);
        #[cfg(flock_3d)]
        obstacle_constraints(agent, obstacles, params, time_step, constraints);
    }
    let obstacles = constraints.len();
    *obstacle_count = obstacles;

    nearest.clear();
    select(nearest);
    let own_share = params.share(preferred.clamp_length_max(max_speed), max_speed);
    pairs.clear();
    for (_, neighbour) in nearest.iter() {
        let radius = if neighbour.radius.is_finite() && neighbour.radius >= 0.0 {
            neighbour.radius
        } else {
            params.radius
        };
        let their_share = if neighbour.share.is_finite() && neighbour.share >= 0.0 {
            neighbour.share
        } else {
            own_share
        };
        let total = own_share + their_share;
        let share = if total > 0.0 { own_share / total } else { 0.5 };
        pairs.push(Pair {
            offset: neighbour.position - agent.position,
            relative_velocity: agent.velocity - neighbour.velocity,
            combined_radius: params.radius + radius + params.clearance,
            share,
            tie_break: if agent.id < neighbour.id { 1.0 } else { -1.0 },
        });
    }
    agent_constraints(
        agent.velocity,
        params.time_horizon,
        time_step,
        pairs,
        constraints,
    );

    let mut velocity = Vector::ZERO;
    if let Err(failed) = solve(
        constraints,
        max_speed,
        Goal::Nearest(preferred),
        &mut velocity,
    ) {
        // RVO2's fallback (`linearProgram3`): from the constraint that failed on, the least
        // largest violation of the neighbours' constraints, keeping the obstacles' hard.
        least_violation(
            constraints,
            obstacles,
            failed,
            max_speed,
            &mut velocity,
            projected,
        );
    }
    if velocity.is_finite() {
        velocity.clamp_length_max(max_speed)
    } else {
        Vector::ZERO
    }
}

/// Appends the constraints of the static obstacles near `agent` to `constraints`: RVO2's lines
/// for the polygon edges the agent sees within `obstacle_time_horizon * max_speed + radius`
/// (RVO2's range, from the tree), nearest first, then for each disc within that range the
/// cone of a body at rest that takes no share, over the obstacle horizon.
#[cfg(not(flock_3d))]
fn obstacle_constraints(
    agent: &OrcaAgent,
    obstacles: &OrcaObstacles,
    params: &OrcaParams,
    time_step: f32,
    edges: &mut Vec<(f32, u32)>,
    constraints: &mut Vec<HalfSpace>,
) {
    let range = params.obstacle_time_horizon * agent.max_speed + params.radius;
    let vertices = obstacles.vertices();
    obstacles
        .tree()
        .query(vertices, agent.position, range * range, edges);
    obstacle_lines::obstacle_lines(
        vertices,
        edges,
        agent.position,
        agent.velocity,
        params.radius,
        params.obstacle_time_horizon,
        constraints,
    );
    for &(centre, radius) in obstacles.discs() {
        let offset = centre - agent.position;
        let gap = offset.length() - radius;
        if gap.is_nan() || gap >= range {
            continue;
        }
        let constraint = half_planes::agent_constraint(
            agent.velocity,
            offset,
            agent.velocity,
            params.radius + radius,
            params.obstacle_time_horizon,
            time_step,
            1.0,
            1.0,
        );
        if constraint.point.is_finite() && constraint.normal.is_finite() {
            constraints.push(constraint);
        }
    }
}

/// Appends the constraints of the static obstacles near `agent` to `constraints`: for each
/// shape, one half-space per nearest point (see `half_planes.rs`).
#[cfg(flock_3d)]
fn obstacle_constraints(
    agent: &OrcaAgent,
    obstacles: &OrcaObstacles,
    params: &OrcaParams,
    time_step: f32,
    constraints: &mut Vec<HalfSpace>,
) {
    use half_planes::{nearest_points, obstacle_constraint};
    let reach = agent.max_speed * params.obstacle_time_horizon;
    for (shape, centre, radius) in obstacles.solids() {
        if agent.position.distance(*centre) - radius - params.radius > reach {
            continue;
        }
        nearest_points(shape, agent.position, |point| {
            constraints.extend(obstacle_constraint(
                agent.position,
                params.radius,
                point,
                params.obstacle_time_horizon,
                time_step,
                reach,
            ));
        });
    }
}

/// RVO2's neighbours (`Agent::insertAgentNeighbor`): the nearest
/// [`OrcaParams::neighbour_cap`] of the candidates offered strictly within
/// [`OrcaParams::reach`], nearest first (ties by id), with their squared distances.
struct NearestSet<'a> {
    position: Vector,
    id: u64,
    capacity: usize,
    range_squared: f32,
    nearest: &'a mut Vec<(f32, OrcaNeighbour)>,
}

impl<'a> NearestSet<'a> {
    fn new(
        agent: &OrcaAgent,
        params: &OrcaParams,
        nearest: &'a mut Vec<(f32, OrcaNeighbour)>,
    ) -> Self {
        nearest.clear();
        let reach = params.reach();
        Self {
            position: agent.position,
            id: agent.id,
            capacity: params.neighbour_cap(),
            range_squared: reach * reach,
            nearest,
        }
    }

    /// Takes `neighbour` in if it is among the nearest so far; skips the agent itself and
    /// neighbours whose position or velocity is not finite.
    #[inline]
    fn offer(&mut self, neighbour: OrcaNeighbour) {
        let distance_squared = (self.position - neighbour.position).length_squared();
        // Not finite for positions too far apart to subtract: skipped as out of range.
        if distance_squared.is_nan()
            || distance_squared >= self.range_squared
            || neighbour.id == self.id
            || !(neighbour.position.is_finite() && neighbour.velocity.is_finite())
        {
            return;
        }
        let nearest = &mut *self.nearest;
        let before = |(other_distance, other): &(f32, OrcaNeighbour)| {
            (*other_distance, other.id) < (distance_squared, neighbour.id)
        };
        let slot = nearest.partition_point(before);
        // A candidate offered twice (found through two images of a wrapping world) comes in
        // once: at the same distance, it would sit right before its slot.
        if slot >= self.capacity
            || (slot > 0 && nearest[slot - 1].1.id == neighbour.id)
            || nearest
                .get(slot)
                .is_some_and(|(_, other)| other.id == neighbour.id)
        {
            return;
        }
        if nearest.len() == self.capacity {
            nearest.pop();
        }
        nearest.insert(slot, (distance_squared, neighbour));
        if nearest.len() == self.capacity {
            // Full: only as near or nearer ones may still come in.
            self.range_squared = nearest[self.capacity - 1].0.next_up();
        }
    }
}
