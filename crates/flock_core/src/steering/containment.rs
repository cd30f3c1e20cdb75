//! Containment (Reynolds 1999): stay inside a region by probing ahead and turning back from
//! its boundary before reaching it. The region ([`Enclosure`], in [`shape`](crate::shape)) is
//! any simple polygon in 2D (a pen, an arena) and a box in 3D; unlike wall avoidance it need
//! not be the world's bounds.

use super::Vehicle;
use crate::math::{Vector, square_to};
use crate::shape::Enclosure;

/// cos 30 degrees (√3 / 2), the nearest f32.
const COS_30_DEGREES: f32 = 0.866_025_4;

/// Reynolds' containment: probe `look_ahead` along the heading, and at the same distance at 30
/// degrees to each side; every probe that crosses the boundary of `enclosure` steers back from
/// the side it crosses (the one ahead with full weight, the side ones with half; a side at the
/// probe's tip with half that), turning to a side as well where the way back is straight
/// behind. A vehicle already outside heads straight back in. An invalid enclosure (see
/// [`Enclosure::is_valid`]) gives no force. The force
/// is at most `max_speed` per response time, the scale of obstacle avoidance.
pub fn contain(vehicle: &Vehicle, enclosure: &Enclosure, look_ahead: f32) -> Vector {
    let full = vehicle.max_speed / vehicle.response_time;
    if !vehicle.position.is_finite() || !enclosure.is_valid() {
        return Vector::ZERO;
    }
    if !enclosure.contains(vehicle.position) {
        return enclosure.way_in(vehicle.position) * full;
    }
    let heading = vehicle.heading();
    if heading == Vector::ZERO || !(look_ahead.is_finite() && look_ahead > 0.0) {
        return Vector::ZERO;
    }
    // The side probes' 30 degrees, as constants: the same bits on every processor.
    let (cos, sin) = (COS_30_DEGREES, 0.5);
    let ahead = std::iter::once((heading, 1.0));
    let aside = square_to(heading).map(|side| (heading * cos + side * sin, 0.5));
    let push: Vector = ahead
        .chain(aside)
        .filter_map(|(direction, weight)| {
            // Back from the side the probe crosses, harder the nearer that side is.
            let probe = vehicle.position + direction * look_ahead;
            let (at, inward) = enclosure.crossing(vehicle.position, probe)?;
            Some(inward * weight * (1.0 - 0.5 * at))
        })
        .sum();
    // A push straight against the heading only brakes; a vehicle meeting the boundary square
    // on (or nose first into a corner) turns to a side as well, so it does not stop dead.
    // It turns away from the boundary nearest to it now, towards the room there is.
    let lateral = |push: Vector| push - heading * push.dot(heading);
    let push = if lateral(push).length_squared() < 0.0625 * push.length_squared() {
        let turn = lateral(enclosure.way_in(vehicle.position))
            .try_normalize()
            .unwrap_or(square_to(heading)[0]);
        push + turn * push.length()
    } else {
        push
    };
    push.clamp_length_max(1.0) * full
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    #[cfg(not(flock_3d))]
    use crate::shape::Polygon;
    use crate::steering::test_support::vehicle;

    /// A square pen from (0, 0) to (10, 10) (in 3D a box as deep, centred on z = 0).
    fn pen() -> Enclosure {
        #[cfg(not(flock_3d))]
        return Enclosure::Polygon(
            Polygon::rectangle(glam::Vec2::splat(5.0))
                .unwrap()
                .placed(glam::Vec2::splat(5.0), glam::Vec2::X),
        );
        #[cfg(flock_3d)]
        return Enclosure::Cuboid {
            centre: planar(5.0, 5.0),
            half_size: Vector::splat(5.0),
        };
    }

    #[test]
    fn probes_turn_the_vehicle_back_before_the_boundary() {
        let pen = pen();
        // Heading for the right side, 2 units from it: turned back left.
        let near = vehicle(planar(8.0, 5.0), planar(2.0, 0.0));
        let force = contain(&near, &pen, 3.0);
        assert!(force.x < 0.0, "{force}");
        // In the middle, or heading away from the side: nothing.
        let middle = vehicle(planar(5.0, 5.0), planar(2.0, 0.0));
        assert_eq!(contain(&middle, &pen, 3.0), Vector::ZERO);
        let away = vehicle(planar(8.0, 5.0), planar(-2.0, 0.0));
        assert_eq!(contain(&away, &pen, 3.0), Vector::ZERO);
        // Running along the top side close to it: a side probe pushes down.
        let along = vehicle(planar(5.0, 9.0), planar(2.0, 0.0));
        let force = contain(&along, &pen, 3.0);
        assert!(force.y < 0.0 && force.x.abs() < 1e-6, "{force}");
        // Outside: straight back in at full strength (2 / 0.5).
        let outside = vehicle(planar(12.0, 5.0), planar(0.0, 2.0));
        let force = contain(&outside, &pen, 3.0);
        assert!((force - planar(-4.0, 0.0)).length() < 1e-5, "{force}");
    }

    #[test]
    fn a_vehicle_stays_in_the_pen() {
        let pen = pen();
        let mut me = vehicle(planar(5.0, 5.0), planar(1.5, 1.0));
        let dt = 0.05;
        for _ in 0..2000 {
            let force = contain(&me, &pen, 2.0);
            // Keeps cruising: steer, then restore the speed.
            me.velocity = ((me.velocity + force * dt).normalize_or_zero()) * 1.8;
            me.position += me.velocity * dt;
            assert!(pen.contains(me.position), "left the pen at {}", me.position);
        }
    }

    #[test]
    fn bad_input_gives_no_nan() {
        let pen = pen();
        let me = vehicle(planar(8.0, 5.0), planar(2.0, 0.0));
        for look_ahead in [f32::NAN, -1.0, 0.0, f32::INFINITY] {
            assert_eq!(contain(&me, &pen, look_ahead), Vector::ZERO);
        }
        let lost = vehicle(planar(f32::NAN, 5.0), planar(2.0, 0.0));
        assert_eq!(contain(&lost, &pen, 3.0), Vector::ZERO);
        #[cfg(flock_3d)]
        for half_size in [Vector::ZERO, Vector::splat(f32::NAN), -Vector::ONE] {
            let broken = Enclosure::Cuboid {
                centre: Vector::ZERO,
                half_size,
            };
            assert!(!broken.is_valid());
            assert_eq!(contain(&me, &broken, 3.0), Vector::ZERO);
        }
    }
}
