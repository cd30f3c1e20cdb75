//! Steering behaviours for one vehicle: seek, arrive, flee, pursue, evade, wander, wall and
//! obstacle avoidance, their combination and turn-rate-limited driving (the cocos2d-x crowd demo's
//! catalogue); the Unity tank group is in [`group`](crate::group), re-exported here.
//!
//! Every behaviour follows Reynolds' formula as the flocking rules do: a *desired velocity*,
//! and the steering force `(desired - velocity) / response_time` (see
//! [`FlockConfig::response_time`](crate::FlockConfig)). Forces are in world units per second
//! squared times mass; [`combine`] turns their weighted sum into an acceleration as the
//! crowd demo does: truncate to the maximum force, divide by mass.

pub use crate::sight::{SightParams, in_sight, sight_flock};

pub use crate::group::{DriveParams, DriveState, GroupParams, drive, group_direction, group_speed};

mod collision_avoidance;
mod containment;
pub mod context;
mod flee;
mod flow_field;
mod formation;
mod frame;
mod leader;
mod obstacles;
mod offset_pursuit;
mod orca;
mod path;
mod pursuit;
mod queue;
mod seek;
mod turning;
mod wall_follow;
mod walls;
mod wander;

pub use collision_avoidance::{
    CollisionParams, Encounter, avoid_collisions, closest_approach, nearest_collision,
};
pub use containment::contain;
pub use flee::{flee, flee_all};
pub use flow_field::{Cell, FlowField, FlowFieldError, follow_flow};
pub use formation::{
    FormationError, FormationShape, MAX_UNTANGLE_PASSES, assign_slots, formation_slots,
};
pub use frame::{level, local_to_world};
pub use leader::{Leader, LeaderFollowParams, follow_leader, in_leader_way};
pub use obstacles::{avoid_obstacles, dodge, escape};
pub use offset_pursuit::{Frame, arrive_moving, offset_pursue};
pub use orca::{
    AsOrcaObstacles, ContactPass, ContactScratch, CrowdAgent, HalfSpace, MAX_OBSTACLE_COORDINATE,
    ObstacleError, ObstacleFault, OrcaAgent, OrcaCrowd, OrcaNeighbour, OrcaObstacles, OrcaParams,
    OrcaScratch, STILL_SHARE, STILL_SPEED_FRACTION, orca_velocity,
};
pub use path::{PathDirection, PathError, PathFollowParams, PathProjection, Polyline, follow_path};
// The shapes the behaviours steer by, where users of the behaviours find them.
pub use crate::shape::{Enclosure, Rotation, Shape};
#[cfg(not(flock_3d))]
pub use crate::shape::{Polygon, PolygonError};

/// The segment geometry ORCA's obstacle constraints read (the polygon's, in 2D).
#[cfg(not(flock_3d))]
pub(crate) mod polygon {
    pub(crate) use crate::shape::nearest_on_segment;
}
pub use pursuit::{evade, predict, pursue};
pub use queue::{QueueParams, QueueState, queue};
pub use seek::{arrival_velocity, arrive, seek};
pub use turning::limit_turn;
pub use wall_follow::{Wall, WallFollowParams, WallPoint, WallSide, follow_wall};
pub use walls::avoid_walls;
pub use wander::{WanderHome, WanderJitter, WanderParams, WanderState, wander, wander_jitter};

use crate::config::ForceLimit;
use crate::math::{Vector, limit_force};

/// What a behaviour needs to know about the vehicle it steers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vehicle {
    /// Where it is.
    pub position: Vector,
    /// How it moves, world units per second.
    pub velocity: Vector,
    /// The speed it wants to travel at, world units per second.
    pub max_speed: f32,
    /// How quickly it wants to reach a desired velocity, seconds (one frame by default).
    pub response_time: f32,
}

impl Vehicle {
    /// Reynolds' steering force towards a desired velocity.
    #[inline]
    pub fn steer_to(&self, desired_velocity: Vector) -> Vector {
        (desired_velocity - self.velocity) / self.response_time
    }

    /// Its heading, or zero at rest.
    #[inline]
    pub fn heading(&self) -> Vector {
        self.velocity.normalize_or_zero()
    }
}

/// The cocos2d-x crowd demo's combination: the weighted forces' sum, truncated to `max_force`,
/// divided by `mass`. The result is an acceleration.
pub fn combine(force_sum: Vector, max_force: f32, mass: f32) -> Vector {
    limit_force(force_sum, max_force, ForceLimit::Truncate) / mass
}

/// The vehicle every unit test of a behaviour starts from.
#[cfg(test)]
pub(crate) mod test_support {
    use super::Vehicle;
    use crate::math::Vector;

    pub fn vehicle(position: Vector, velocity: Vector) -> Vehicle {
        Vehicle {
            position,
            velocity,
            max_speed: 2.0,
            response_time: 0.5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;

    #[test]
    fn combine_truncates_then_divides_by_mass() {
        assert_eq!(combine(planar(30.0, 40.0), 10.0, 2.0), planar(3.0, 4.0));
        assert_eq!(combine(planar(3.0, 4.0), 10.0, 2.0), planar(1.5, 2.0));
    }
}
