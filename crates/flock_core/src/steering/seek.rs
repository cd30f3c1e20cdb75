//! Seek and arrive: towards a target at full speed, or slowing to stop on it.

use super::Vehicle;
use crate::math::Vector;

/// Full speed towards `target` (Reynolds' seek; *The Nature of Code*'s `seek`).
pub fn seek(vehicle: &Vehicle, target: Vector) -> Vector {
    arrive(vehicle, target, 0.0)
}

/// Seek that slows down inside `slow_radius`, its desired speed falling in proportion to the
/// distance, so it stops at the target (the cocos2d-x crowd demo's `_tarSlowRadius`). A radius of
/// zero is plain seek. At the target itself the desired velocity is zero: it brakes.
pub fn arrive(vehicle: &Vehicle, target: Vector, slow_radius: f32) -> Vector {
    vehicle.steer_to(arrival_velocity(vehicle, target, slow_radius))
}

/// The velocity [`arrive`] steers to: towards `target` at full speed, or inside `slow_radius`
/// at a speed in proportion to the distance. Behaviours that arrive at a moving point add the
/// point's own velocity to it.
pub fn arrival_velocity(vehicle: &Vehicle, target: Vector, slow_radius: f32) -> Vector {
    let offset = target - vehicle.position;
    let distance = offset.length();
    let speed = if distance < slow_radius {
        vehicle.max_speed * distance / slow_radius
    } else {
        vehicle.max_speed
    };
    offset.normalize_or_zero() * speed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    #[test]
    fn seek_steers_to_full_speed_towards_the_target() {
        let v = vehicle(Vector::ZERO, planar(0.0, 1.0));
        // desired (2, 0), minus velocity (0, 1), over 0.5 s.
        assert_eq!(seek(&v, planar(10.0, 0.0)), planar(4.0, -2.0));
    }

    #[test]
    fn arrive_slows_in_proportion_inside_the_slow_radius() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        // 1 unit away, slow radius 4: a quarter of max speed.
        assert_eq!(arrive(&v, planar(1.0, 0.0), 4.0), planar(1.0, 0.0));
        assert_eq!(arrive(&v, planar(8.0, 0.0), 4.0), planar(4.0, 0.0));
        // At the target it brakes.
        let moving = vehicle(Vector::ZERO, planar(1.0, 0.0));
        assert_eq!(arrive(&moving, Vector::ZERO, 4.0), planar(-2.0, 0.0));
    }
}
