//! Wall avoidance: a probe ahead pushed back inside the world's bounds.

use super::Vehicle;
use crate::config::Bounds;
use crate::math::{DIMENSIONS, Vector};

/// The cocos2d-x crowd demo's wall avoidance: look `look_ahead` along the heading; for every wall
/// that point is beyond (or on), a push straight inwards at `speed` per frame, summed (a corner
/// pushes along the diagonal, `sqrt 2` times as hard). The result is a velocity change over the
/// response time, `inwards * speed / response_time`; the demo adds it to the velocity after
/// truncating its other steering (`_velocity += wallAvoid()`, with `_dtSpeed` as the speed). Zero
/// when the point is inside.
pub fn avoid_walls(vehicle: &Vehicle, bounds: &Bounds, look_ahead: f32, speed: f32) -> Vector {
    let probe = vehicle.position + vehicle.heading() * look_ahead;
    let mut inwards = Vector::ZERO;
    for axis in 0..DIMENSIONS {
        inwards[axis] = inward_component(probe[axis], bounds.min[axis], bounds.max[axis]);
    }
    inwards * speed / vehicle.response_time
}

/// +1 below the low wall, -1 above the high wall, 0 between (both walls count, as the crowd demo's
/// `>=` and `<=` do).
fn inward_component(value: f32, low: f32, high: f32) -> f32 {
    f32::from(u8::from(value <= low)) - f32::from(u8::from(value >= high))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{planar, world_size};
    use crate::steering::test_support::vehicle;

    #[test]
    fn walls_push_inwards_when_the_probe_is_out() {
        let bounds = Bounds::centered(world_size(10.0, 10.0));
        let v = vehicle(planar(4.0, 0.0), planar(2.0, 0.0));
        assert_eq!(avoid_walls(&v, &bounds, 0.5, 3.0), Vector::ZERO);
        // Probe at (6, 0): 3 per frame inwards, over 0.5 s; the velocity is not subtracted.
        assert_eq!(avoid_walls(&v, &bounds, 2.0, 3.0), planar(-6.0, 0.0));
        // A corner pushes along the diagonal, one unit per wall.
        let corner = vehicle(planar(4.0, 4.0), planar(1.0, 1.0));
        assert_eq!(avoid_walls(&corner, &bounds, 3.0, 1.0), planar(-2.0, -2.0));
    }
}
