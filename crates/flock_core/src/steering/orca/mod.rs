//! Optimal reciprocal collision avoidance (ORCA; van den Berg, Guy, Lin and Manocha,
//! "Reciprocal n-Body Collision Avoidance", 2011): each agent picks the velocity nearest the
//! one it prefers among those that avoid its neighbours for a time horizon, assuming each
//! neighbour takes its share of every avoidance. Two agents that both follow it never collide
//! while their programs are feasible.
//!
//! For each neighbour the agent builds one half-plane (half-space in 3D) of allowed velocities
//! (`half_planes.rs`), for each static obstacle near enough one more, and solves a small linear
//! program over them within its maximum speed (`program.rs`, and `program_3d.rs` in 3D). When
//! the constraints leave no velocity (a dense crowd), the paper's fallback keeps the obstacles'
//! constraints and minimises the largest violation of the neighbours'.
//!
//! Everything is deterministic: neighbours are taken nearest first (ties by id), so the result
//! does not depend on the order they are given in, and nothing is random.

mod half_planes;
mod program;
#[cfg(flock_3d)]
mod program_3d;

use std::borrow::Borrow;

pub use program::HalfSpace;

use crate::math::Vector;
use crate::steering::Shape;
use half_planes::{agent_constraint, nearest_points, obstacle_constraint, step_constraint};
use program::{Goal, least_violation, solve};

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
    /// Agents whose centres are farther than this are ignored, world units.
    pub neighbour_distance: f32,
    /// At most this many neighbours (the nearest) are avoided.
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
    /// mostly lets the others go round it.
    pub responsibility: f32,
}

impl Default for OrcaParams {
    /// Sizes for the plugin's pixel-scale boids: a radius of 8, two seconds ahead for agents and
    /// one for obstacles, the ten nearest within 80, a clearance of a quarter of the radius, the
    /// paper's reciprocal halves.
    fn default() -> Self {
        Self {
            radius: 8.0,
            time_horizon: 2.0,
            obstacle_time_horizon: 1.0,
            neighbour_distance: 80.0,
            max_neighbours: 10,
            clearance: 2.0,
            responsibility: 0.5,
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
    /// Whether every number is finite, the radius, horizons and responsibility positive, the
    /// neighbour distance and clearance not negative; invalid parameters steer nobody.
    pub fn is_valid(&self) -> bool {
        let positive = [
            self.radius,
            self.time_horizon,
            self.obstacle_time_horizon,
            self.responsibility,
        ];
        positive
            .iter()
            .all(|value| value.is_finite() && *value > 0.0)
            && [self.neighbour_distance, self.clearance]
                .iter()
                .all(|value| value.is_finite() && *value >= 0.0)
    }

    /// The weight an agent preferring `preferred_velocity`, with `max_speed`, brings to sharing
    /// an avoidance: [`responsibility`](Self::responsibility) while it wants to move at
    /// [`STILL_SPEED_FRACTION`] of its maximum speed or more, falling in proportion below
    /// that to [`STILL_SHARE`] of it at rest. Pass it as a neighbour's
    /// [`OrcaNeighbour::share`].
    pub fn share(&self, preferred_velocity: Vector, max_speed: f32) -> f32 {
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
        self.responsibility * factor
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
    constraints: Vec<HalfSpace>,
    projected: Vec<HalfSpace>,
    obstacle_count: usize,
    firm_count: usize,
}

impl OrcaScratch {
    /// The constraints of the last [`orca_velocity`] call: the static obstacles' first (see
    /// [`obstacle_constraints`](Self::obstacle_constraints)), then the neighbours', nearest
    /// first. For drawing them, and for tests.
    pub fn constraints(&self) -> &[HalfSpace] {
        &self.constraints
    }

    /// How many of [`constraints`](Self::constraints) come from static obstacles.
    pub fn obstacle_constraints(&self) -> usize {
        self.obstacle_count
    }

    /// How many of [`constraints`](Self::constraints) are firm: the obstacles' and then each
    /// neighbour's constraint for the next step, which the fallback keeps (see
    /// [`orca_velocity`]). The rest are the neighbours' constraints for the time horizon.
    pub fn firm_constraints(&self) -> usize {
        self.firm_count
    }
}

/// ORCA's new velocity for `agent` among `neighbours` (candidates from a neighbour index; those
/// beyond [`OrcaParams::neighbour_distance`], with numbers that are not finite, or with the
/// agent's own id are skipped) and static `obstacles`, for a step of `time_step` seconds.
///
/// The result is within `agent.max_speed` and finite. Invalid parameters or time step give the
/// preferred velocity (limited to the maximum speed), unavoided; an agent whose own position,
/// velocity or maximum speed is not a finite number (or a negative speed) gets zero.
pub fn orca_velocity(
    agent: &OrcaAgent,
    neighbours: impl IntoIterator<Item = OrcaNeighbour>,
    obstacles: impl IntoIterator<Item = impl Borrow<Shape>>,
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
    let preferred = if agent.preferred_velocity.is_finite() {
        agent.preferred_velocity.clamp_length_max(max_speed)
    } else {
        Vector::ZERO
    };
    if !(params.is_valid() && time_step.is_finite() && time_step > 0.0) {
        return preferred;
    }
    let OrcaScratch {
        nearest,
        constraints,
        projected,
        obstacle_count,
        firm_count,
    } = scratch;
    constraints.clear();
    *obstacle_count = 0;

    // Static obstacles first: the fallback keeps them as they are.
    let reach = max_speed * params.obstacle_time_horizon;
    for obstacle in obstacles {
        nearest_points(obstacle.borrow(), agent.position, |point| {
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
    let obstacles = constraints.len();
    *obstacle_count = obstacles;

    nearest_neighbours(agent, neighbours, params, nearest);
    let own_share = params.share(preferred, max_speed);
    let share_with = |neighbour: &OrcaNeighbour| {
        let total = own_share + neighbour.share;
        if total > 0.0 { own_share / total } else { 0.5 }
    };
    // Each pair's constraint for the next step alone, kept hard with the obstacles'.
    constraints.extend(nearest.iter().filter_map(|(_, neighbour)| {
        step_constraint(
            agent.velocity,
            neighbour.position - agent.position,
            agent.velocity - neighbour.velocity,
            params.radius + neighbour.radius + params.clearance,
            time_step,
            share_with(neighbour),
        )
    }));
    let firm = constraints.len();
    *firm_count = firm;
    constraints.extend(nearest.iter().filter_map(|(_, neighbour)| {
        let constraint = agent_constraint(
            agent.velocity,
            neighbour.position - agent.position,
            agent.velocity - neighbour.velocity,
            params.radius + neighbour.radius + params.clearance,
            params.time_horizon,
            time_step,
            share_with(neighbour),
            if agent.id < neighbour.id { 1.0 } else { -1.0 },
        );
        (constraint.point.is_finite() && constraint.normal.is_finite()).then_some(constraint)
    }));

    let mut velocity = Vector::ZERO;
    if let Err(failed) = solve(
        constraints,
        max_speed,
        Goal::Nearest(preferred),
        &mut velocity,
    ) {
        // The paper's fallback: the least largest violation of the neighbours' constraints
        // for the horizon, keeping the firm ones. If those leave nothing themselves (agents
        // squeezed from several sides), the least largest violation of the firm ones alone,
        // keeping the obstacles' (all soft if even those leave nothing).
        if failed >= firm {
            least_violation(
                constraints,
                firm,
                failed,
                max_speed,
                &mut velocity,
                projected,
            );
        } else {
            let hard = if failed >= obstacles { obstacles } else { 0 };
            least_violation(
                &constraints[..firm],
                hard,
                failed,
                max_speed,
                &mut velocity,
                projected,
            );
        }
    }
    if velocity.is_finite() {
        velocity.clamp_length_max(max_speed)
    } else {
        Vector::ZERO
    }
}

/// The nearest [`OrcaParams::max_neighbours`] of `neighbours` within the neighbour distance,
/// nearest first (ties by id), into `nearest` with their squared distances.
fn nearest_neighbours(
    agent: &OrcaAgent,
    neighbours: impl IntoIterator<Item = OrcaNeighbour>,
    params: &OrcaParams,
    nearest: &mut Vec<(f32, OrcaNeighbour)>,
) {
    nearest.clear();
    let capacity = params.max_neighbours;
    if capacity == 0 {
        return;
    }
    let range_squared = params.neighbour_distance * params.neighbour_distance;
    for neighbour in neighbours {
        if neighbour.id == agent.id
            || !(neighbour.position.is_finite()
                && neighbour.velocity.is_finite()
                && neighbour.radius.is_finite()
                && neighbour.radius >= 0.0
                && neighbour.share.is_finite()
                && neighbour.share >= 0.0)
        {
            continue;
        }
        let distance_squared = neighbour.position.distance_squared(agent.position);
        // Not finite for positions too far apart to subtract: skipped as out of range.
        if distance_squared.is_nan() || distance_squared >= range_squared {
            continue;
        }
        let before = |(other_distance, other): &(f32, OrcaNeighbour)| {
            (*other_distance, other.id) < (distance_squared, neighbour.id)
        };
        let slot = nearest.partition_point(before);
        if slot >= capacity {
            continue;
        }
        if nearest.len() == capacity {
            nearest.pop();
        }
        nearest.insert(slot, (distance_squared, neighbour));
    }
}
