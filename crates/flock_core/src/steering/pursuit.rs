//! Pursuit and evasion: seek or flee where a moving target will be.

use super::{Vehicle, flee, seek};
use crate::math::Vector;

/// Where a moving target will be when the vehicle could reach it: its position plus its
/// velocity times the time to cover the distance at full speed, that time capped at
/// `max_look_ahead` seconds so a far or fast target is not predicted beyond reason.
pub fn predict(
    vehicle: &Vehicle,
    target: Vector,
    target_velocity: Vector,
    max_look_ahead: f32,
) -> Vector {
    let distance = (target - vehicle.position).length();
    let time = if vehicle.max_speed > 0.0 {
        (distance / vehicle.max_speed).min(max_look_ahead)
    } else {
        0.0
    };
    target + target_velocity * time
}

/// Seek where a moving target will be (Reynolds' pursuit; the cocos2d-x crowd demo leaves the
/// prediction commented out and seeks the present position).
pub fn pursue(
    vehicle: &Vehicle,
    target: Vector,
    target_velocity: Vector,
    max_look_ahead: f32,
) -> Vector {
    seek(
        vehicle,
        predict(vehicle, target, target_velocity, max_look_ahead),
    )
}

/// Flee where a moving threat will be, while the threat itself is closer than `radius`.
pub fn evade(
    vehicle: &Vehicle,
    threat: Vector,
    threat_velocity: Vector,
    max_look_ahead: f32,
    radius: f32,
) -> Vector {
    if (vehicle.position - threat).length_squared() >= radius * radius {
        return Vector::ZERO;
    }
    let predicted = predict(vehicle, threat, threat_velocity, max_look_ahead);
    flee(vehicle, predicted, f32::INFINITY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    #[test]
    fn prediction_is_capped() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        // 10 units at speed 2 is 5 s, capped at 1 s.
        let predicted = predict(&v, planar(10.0, 0.0), planar(0.0, 3.0), 1.0);
        assert_eq!(predicted, planar(10.0, 3.0));
        let uncapped = predict(&v, planar(10.0, 0.0), planar(0.0, 3.0), 100.0);
        assert_eq!(uncapped, planar(10.0, 15.0));
    }

    #[test]
    fn evade_flees_the_predicted_position() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        // The threat at (2, 0) moving up at 2: predicted at (2, 2) after 1 s.
        let force = evade(&v, planar(2.0, 0.0), planar(0.0, 2.0), 10.0, 5.0);
        let expected = planar(-1.0, -1.0).normalize() * 2.0 / 0.5;
        assert!((force - expected).length() < 1e-5);
        assert_eq!(
            evade(&v, planar(9.0, 0.0), Vector::ZERO, 10.0, 5.0),
            Vector::ZERO
        );
    }
}
