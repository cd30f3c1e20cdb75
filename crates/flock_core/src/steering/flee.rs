//! Flee: away from a threat while it is near.

use super::Vehicle;
use crate::math::Vector;

/// Full speed directly away from `threat` while it is closer than `radius` (use `f32::INFINITY` to
/// always flee); no force beyond it (the cocos2d-x crowd demo's `flee`, the ActionScript flocking
/// tutorial's `tooClose`). A threat exactly on the vehicle gives no direction, so no force.
pub fn flee(vehicle: &Vehicle, threat: Vector, radius: f32) -> Vector {
    let away = vehicle.position - threat;
    if away.length_squared() >= radius * radius {
        return Vector::ZERO;
    }
    match away.try_normalize() {
        Some(direction) => vehicle.steer_to(direction * vehicle.max_speed),
        None => Vector::ZERO,
    }
}

/// The sum of [`flee`] over several threats, as the cocos2d-x crowd demo sums one flee force
/// per threat.
pub fn flee_all(
    vehicle: &Vehicle,
    threats: impl IntoIterator<Item = Vector>,
    radius: f32,
) -> Vector {
    threats
        .into_iter()
        .map(|threat| flee(vehicle, threat, radius))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    #[test]
    fn flee_acts_only_inside_its_radius() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        assert_eq!(flee(&v, planar(1.0, 0.0), 2.0), planar(-4.0, 0.0));
        assert_eq!(flee(&v, planar(3.0, 0.0), 2.0), Vector::ZERO);
        assert_eq!(flee(&v, Vector::ZERO, 2.0), Vector::ZERO);
        let two = flee_all(&v, [planar(1.0, 0.0), planar(0.0, 1.0)], 2.0);
        assert_eq!(two, planar(-4.0, -4.0));
    }
}
