//! The ActionScript flocking tutorial's own flocking rules (chapter 10, `flock()`), as the document
//! writes them; the flocking kernel runs Reynolds' and Processing's instead.
//!
//! For every other vehicle in sight (`inSight`: within the sight distance, and not behind: the
//! dot product of the offset with the heading is at least zero), the document adds its velocity
//! to an average that *starts from the vehicle's own velocity* but is divided only by the
//! number of others, adds its position to an average position, and flees it when it is too
//! close. With anyone in sight it then seeks the average position and steers by
//! `averageVelocity - velocity` as it is. All of it goes into one steering sum, which the
//! tutorial's vehicle truncates to its max force once, divides by mass and adds to its
//! velocity ([`combine`](crate::steering::combine)).

use crate::math::Vector;
use crate::steering::{Vehicle, flee, seek};

/// The ActionScript flocking tutorial's two distances. The document names them (`_inSightDist`,
/// `_tooCloseDist`) but gives no numbers.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SightParams {
    /// Others at most this far away and not behind are in sight.
    pub in_sight: f32,
    /// Others in sight and closer than this are fled.
    pub too_close: f32,
}

/// Whether `other` is in sight of `vehicle` (the ActionScript flocking tutorial's `inSight`): at
/// most `in_sight` away and not behind the heading. A vehicle at rest has no heading and sees all
/// round.
pub fn in_sight(vehicle: &Vehicle, other: Vector, in_sight: f32) -> bool {
    let offset = other - vehicle.position;
    offset.length() <= in_sight && offset.dot(vehicle.heading()) >= 0.0
}

/// The steering sum of the ActionScript flocking tutorial's `flock()` for `vehicle`, over `others`
/// (position and velocity of every other vehicle; the vehicle itself left out, as the document's
/// `vehicle != this`). Seek and flee are Reynolds' (`steering::seek`, `steering::flee`), the steer
/// towards the average velocity is `(average - velocity) / response_time`.
pub fn sight_flock(
    vehicle: &Vehicle,
    others: impl IntoIterator<Item = (Vector, Vector)>,
    params: &SightParams,
) -> Vector {
    let mut force = Vector::ZERO;
    // The document starts the velocity sum from the vehicle's own velocity.
    let mut velocity_sum = vehicle.velocity;
    let mut position_sum = Vector::ZERO;
    let mut count = 0u32;
    for (position, velocity) in others {
        if !in_sight(vehicle, position, params.in_sight) {
            continue;
        }
        velocity_sum += velocity;
        position_sum += position;
        if vehicle.position.distance(position) < params.too_close {
            force += flee(vehicle, position, f32::INFINITY);
        }
        count += 1;
    }
    if count > 0 {
        let count = count as f32;
        force += seek(vehicle, position_sum / count);
        force += (velocity_sum / count - vehicle.velocity) / vehicle.response_time;
    }
    force
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;

    fn vehicle(position: Vector, velocity: Vector) -> Vehicle {
        Vehicle {
            position,
            velocity,
            max_speed: 2.0,
            response_time: 1.0,
        }
    }

    #[test]
    fn sight_is_a_distance_and_a_half_plane() {
        let v = vehicle(Vector::ZERO, planar(1.0, 0.0));
        assert!(in_sight(&v, planar(5.0, 3.0), 10.0));
        assert!(in_sight(&v, planar(0.0, 3.0), 10.0), "beside is not behind");
        assert!(
            in_sight(&v, planar(10.0, 0.0), 10.0),
            "the distance itself counts"
        );
        assert!(!in_sight(&v, planar(-0.1, 3.0), 10.0));
        assert!(!in_sight(&v, planar(11.0, 0.0), 10.0));
        let resting = vehicle(Vector::ZERO, Vector::ZERO);
        assert!(in_sight(&resting, planar(-3.0, 0.0), 10.0));
    }

    const PARAMS: SightParams = SightParams {
        in_sight: 10.0,
        too_close: 3.0,
    };

    #[test]
    fn nobody_in_sight_gives_no_force() {
        let v = vehicle(Vector::ZERO, planar(1.0, 0.0));
        let behind = [(planar(-2.0, 0.0), planar(0.0, 1.0))];
        assert_eq!(sight_flock(&v, behind, &PARAMS), Vector::ZERO);
    }

    #[test]
    fn the_average_velocity_keeps_its_own_bias() {
        // One other, far enough not to flee, at the vehicle's heading: seek it at full speed
        // (2, 0) - (1, 0), and steer by ((1, 0) + (0, 3)) / 1 - (1, 0) = (0, 3).
        let v = vehicle(Vector::ZERO, planar(1.0, 0.0));
        let force = sight_flock(&v, [(planar(5.0, 0.0), planar(0.0, 3.0))], &PARAMS);
        assert_eq!(force, planar(1.0, 3.0));
        // Closer than too_close: flee adds (-2, 0) - (1, 0).
        let force = sight_flock(&v, [(planar(2.0, 0.0), planar(0.0, 3.0))], &PARAMS);
        assert_eq!(force, planar(-2.0, 3.0));
    }
}
