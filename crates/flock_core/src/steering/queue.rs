//! Queueing at a doorway (Reynolds, "Steering Behaviors For Autonomous Characters", 1999): a
//! crowd heading for a door seeks it, brakes for whoever is just ahead in the direction of
//! travel, and a vehicle that stays blocked for a while steps sideways. Reynolds adds
//! separation and wall avoidance to this; they are the flock's separation rule and obstacle
//! avoidance here, added to the same vehicle.
//!
//! The neighbours come from the caller, as candidates from the flock's neighbour index within
//! [`QueueParams::look_ahead`], not from every pair.

use super::Vehicle;
use super::frame::{level, local_to_world};
use crate::math::Vector;

/// How a vehicle queues.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueParams {
    /// How far ahead (centre to centre, along the way to the door) another vehicle makes this
    /// one slow down, world units: from full speed at this gap...
    pub look_ahead: f32,
    /// ...to a stop at this gap (about two bodies' radii), world units.
    pub stop_distance: f32,
    /// How far to the side of the way to the door another vehicle still counts as ahead
    /// (a body's width, twice its radius, so that one stepping out of the lane clears the one
    /// it passes), world units.
    pub lane_half_width: f32,
    /// How long a vehicle waits, blocked, before it steps aside, seconds.
    pub patience: f32,
}

impl Default for QueueParams {
    /// For bodies of radius 1: slowing from 6 units, stopped at 2.5, a lane a body's width to
    /// each side (so a vehicle that steps out of it passes the one ahead without touching), a
    /// second of patience.
    fn default() -> Self {
        Self {
            look_ahead: 6.0,
            stop_distance: 2.5,
            lane_half_width: 2.0,
            patience: 1.0,
        }
    }
}

impl QueueParams {
    /// Whether every number is finite and at most
    /// [`FlockConfig::MAX_MAGNITUDE`](crate::FlockConfig::MAX_MAGNITUDE), the look-ahead and
    /// the lane's half width positive, the stop distance and the patience not negative, and the
    /// look-ahead beyond the stop distance; invalid parameters steer nobody.
    pub fn is_valid(&self) -> bool {
        let in_range = |value: f32| (0.0..=crate::FlockConfig::MAX_MAGNITUDE).contains(&value);
        [
            self.look_ahead,
            self.stop_distance,
            self.lane_half_width,
            self.patience,
        ]
        .into_iter()
        .all(in_range)
            && self.lane_half_width > 0.0
            && self.look_ahead > self.stop_distance
    }
}

/// A queueing vehicle's memory: how long it has been blocked.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QueueState {
    /// Seconds it has been blocked without a break.
    pub blocked_for: f32,
}

/// Below this share of its speed a braking vehicle counts as blocked.
const BLOCKED_SPEED_SHARE: f32 = 0.25;

/// How fast a blocked vehicle steps aside, as a share of its max speed.
const STEP_ASIDE_SPEED_SHARE: f32 = 0.5;

/// The force of queueing for `door`, with `others` (positions and velocities of the vehicles
/// around, the vehicle itself not among them): seek the door at full speed, slowed for the
/// nearest slower vehicle ahead in the lane towards the door (within `params.lane_half_width`
/// of the line to it, moving to the door at less than this vehicle's maximum speed) from full
/// speed at `look_ahead` to a stop at `stop_distance`. A vehicle that
/// moves at under a quarter of its speed for that reason is blocked; blocked for longer than
/// `patience` (counted in `state` over steps of `dt` seconds) it also steps sideways at half
/// its speed, away from the one ahead (to its left when that one is dead ahead), until the
/// lane clears. "Ahead" is along the way to the door, so a vehicle at rest queues too.
///
/// Invalid parameters (see [`QueueParams::is_valid`]), a door or position that is not finite,
/// or a `dt` that is not finite and positive give no force and leave `state` as it was;
/// neighbours with positions that are not finite are ignored.
pub fn queue(
    vehicle: &Vehicle,
    door: Vector,
    others: impl IntoIterator<Item = (Vector, Vector)>,
    params: &QueueParams,
    state: &mut QueueState,
    dt: f32,
) -> Vector {
    let valid_step = dt.is_finite() && dt > 0.0;
    if !params.is_valid() || !valid_step || !door.is_finite() || !vehicle.position.is_finite() {
        return Vector::ZERO;
    }
    let Some(way) = (door - vehicle.position).try_normalize() else {
        // At the door: nothing more to queue for.
        state.blocked_for = 0.0;
        return vehicle.steer_to(Vector::ZERO);
    };
    let nearest_ahead = others
        .into_iter()
        .filter_map(|(position, velocity)| {
            let offset = position - vehicle.position;
            let gap = offset.dot(way);
            let aside = offset - way * gap;
            let in_lane = aside.length_squared() < params.lane_half_width.powi(2);
            // Reynolds brakes only for a slower vehicle ahead: one already moving to the door
            // at this one's full speed (or faster) keeps its distance by itself. A velocity
            // that is not finite counts as standing.
            let speed_ahead = if velocity.is_finite() {
                velocity.dot(way)
            } else {
                0.0
            };
            let slower = speed_ahead < vehicle.max_speed;
            (gap > 0.0 && gap < params.look_ahead && in_lane && slower).then_some((gap, aside))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let share = nearest_ahead.map_or(1.0, |(gap, _)| {
        ((gap - params.stop_distance) / (params.look_ahead - params.stop_distance)).clamp(0.0, 1.0)
    });
    if nearest_ahead.is_some() && share < BLOCKED_SPEED_SHARE {
        state.blocked_for = (state.blocked_for + dt).min(crate::FlockConfig::MAX_MAGNITUDE);
    } else {
        state.blocked_for = 0.0;
    }
    let mut desired = way * vehicle.max_speed * share;
    if let Some((_, aside)) = nearest_ahead.filter(|_| state.blocked_for > params.patience) {
        let step = (-aside)
            .try_normalize()
            .unwrap_or_else(|| local_to_world(way, level(0.0, 1.0)));
        desired += step * vehicle.max_speed * STEP_ASIDE_SPEED_SHARE;
    }
    vehicle.steer_to(desired)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    #[test]
    fn a_vehicle_brakes_only_for_a_slower_one_ahead() {
        let me = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let door = planar(100.0, 0.0);
        let params = QueueParams::default();
        let ahead = planar(3.0, 0.0);
        let force = |velocity: Vector| {
            let mut state = QueueState::default();
            queue(&me, door, [(ahead, velocity)], &params, &mut state, 0.1)
        };
        // Ahead at full speed to the door, or faster: no braking.
        assert_eq!(force(planar(me.max_speed, 0.0)), Vector::ZERO);
        assert_eq!(force(planar(me.max_speed * 1.5, 0.3)), Vector::ZERO);
        // Ahead and slower (standing, or coming back, or broken): braking.
        for slower in [
            planar(1.0, 0.0),
            Vector::ZERO,
            planar(-1.0, 0.0),
            Vector::NAN,
        ] {
            assert!(force(slower).x < -1.0, "{slower}: {}", force(slower));
        }
    }

    #[test]
    fn a_vehicle_brakes_for_the_one_ahead_in_its_lane_only() {
        let me = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let door = planar(100.0, 0.0);
        let params = QueueParams::default();
        let mut state = QueueState::default();
        let mut force = |others: &[Vector]| {
            let others = others.iter().map(|&p| (p, Vector::ZERO));
            queue(&me, door, others, &params, &mut state, 0.1)
        };
        // Nobody ahead: full speed towards the door (already there: no force).
        assert_eq!(force(&[]), Vector::ZERO);
        // Someone halfway through the slowing zone: half speed.
        let half = force(&[planar(4.25, 0.0)]);
        assert!((me.velocity + half * me.response_time - planar(1.0, 0.0)).length() < 1e-5);
        // At the stop distance, or closer: stop.
        let stop = force(&[planar(2.0, 0.3)]);
        assert!((me.velocity + stop * me.response_time).length() < 1e-5);
        // Behind, beside the lane, or beyond the look-ahead: no braking.
        for other in [planar(-2.0, 0.0), planar(3.0, 2.5), planar(7.0, 0.0)] {
            assert_eq!(force(&[other]), Vector::ZERO, "{other}");
        }
    }

    #[test]
    fn a_vehicle_blocked_longer_than_its_patience_steps_aside() {
        let me = vehicle(Vector::ZERO, Vector::ZERO);
        let door = planar(100.0, 0.0);
        let params = QueueParams::default();
        let mut state = QueueState::default();
        // Blocked by someone a little to its right (-y): waits a second, then steps left.
        let blocker = [(planar(2.0, -0.2), Vector::ZERO)];
        for _ in 0..4 {
            let force = queue(&me, door, blocker, &params, &mut state, 0.25);
            assert_eq!(force, Vector::ZERO);
        }
        let force = queue(&me, door, blocker, &params, &mut state, 0.25);
        assert!(force.y > 0.0 && force.x.abs() < 1e-6, "{force}");
        // The lane clears: the wait starts over.
        queue(&me, door, [], &params, &mut state, 0.1);
        assert_eq!(state.blocked_for, 0.0);
    }
}
