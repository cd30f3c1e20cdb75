//! Turn-rate-limited driving: vehicles that cannot turn on the spot.

use crate::math::{Vector, turn_towards};

/// For vehicles that cannot turn on the spot: from the velocity before a
/// step to the one integration wants, with the heading turned by at most `max_turn_rate *
/// dt` radians and the speed changed by at most `max_acceleration * dt`. A vehicle at rest
/// may start off in any direction.
///
/// Never panics, and the result is always finite: a `previous` velocity that is not finite
/// (written by other code) counts as rest, a `wanted` one that is not finite as a wish to stop,
/// and a limit that is NaN or negative allows no change.
pub fn limit_turn(
    previous: Vector,
    wanted: Vector,
    max_turn_rate: f32,
    max_acceleration: f32,
    dt: f32,
) -> Vector {
    let finite_or_zero = |v: Vector| if v.is_finite() { v } else { Vector::ZERO };
    let (previous, wanted) = (finite_or_zero(previous), finite_or_zero(wanted));
    let previous_speed = previous.length();
    // `max` drops NaN: no bound below zero or NaN reaches the comparisons (`f32::clamp` would
    // panic on a NaN bound).
    let max_change = (max_acceleration * dt).max(0.0);
    let max_turn = (max_turn_rate * dt).max(0.0);
    let speed = wanted
        .length()
        .min(previous_speed + max_change)
        .max(previous_speed - max_change)
        .max(0.0);
    let velocity = match (wanted.try_normalize(), previous.try_normalize()) {
        // No direction wanted: keep the heading, change only the speed.
        (None, _) => previous.normalize_or_zero() * speed,
        (Some(wanted_heading), None) => wanted_heading * speed,
        (Some(wanted_heading), Some(previous_heading)) => {
            turn_towards(previous_heading, wanted_heading, max_turn) * speed
        }
    };
    // A speed beyond f32 (a finite velocity whose length overflows) is the only way left to
    // a non-finite result.
    finite_or_zero(velocity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;

    #[test]
    fn turns_and_speed_changes_are_limited() {
        let dt = 0.1;
        // Wanting to turn 90 degrees at 1 rad/s: 0.1 rad this step.
        let v = limit_turn(planar(1.0, 0.0), planar(0.0, 1.0), 1.0, 100.0, dt);
        let turned = crate::math::cross_length(v, Vector::X)
            .abs()
            .atan2(v.dot(Vector::X));
        assert!((turned - 0.1).abs() < 1e-6);
        assert!((v.length() - 1.0).abs() < 1e-6);
        // Speed from 1 to 5 at 2 per second: 1.2.
        let faster = limit_turn(planar(1.0, 0.0), planar(5.0, 0.0), 1.0, 2.0, dt);
        assert!((faster - planar(1.2, 0.0)).length() < 1e-6);
        // From rest any heading; to rest keeps the heading.
        let start = limit_turn(Vector::ZERO, planar(0.0, -1.0), 1.0, 100.0, dt);
        assert_eq!(start, planar(0.0, -1.0));
        let stop = limit_turn(planar(1.0, 0.0), Vector::ZERO, 1.0, 5.0, dt);
        assert!((stop - planar(0.5, 0.0)).length() < 1e-6);
    }
}
