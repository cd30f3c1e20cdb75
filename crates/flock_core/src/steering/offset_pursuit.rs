//! Offset pursuit (Reynolds 1999): keep to a point fixed in a moving target's own frame, as
//! an escort or a wingman does. Formations use the same arrival at a moving point.

use super::{Vehicle, arrival_velocity, local_to_world, pursue};
use crate::math::{Vector, non_negative};

/// A moving body seen by its pursuers: where it is, how it moves, which way it faces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Its position.
    pub position: Vector,
    /// Its velocity.
    pub velocity: Vector,
    /// The way it faces (its heading; need not be unit length); zero counts as +x.
    pub heading: Vector,
}

impl Frame {
    /// The world point at `offset` in this body's frame (see [`local_to_world`]).
    pub fn point_at(&self, offset: Vector) -> Vector {
        self.position + local_to_world(self.heading, offset)
    }
}

/// Arrive at a point that moves with `point_velocity`: further than `slow_radius` from it,
/// pursue where it will be (prediction capped at `max_look_ahead` seconds); inside, the
/// desired velocity is the point's own plus the arrival velocity towards it (at most the
/// vehicle's max speed), so a vehicle on the point moves with it instead of lagging behind.
pub fn arrive_moving(
    vehicle: &Vehicle,
    point: Vector,
    point_velocity: Vector,
    slow_radius: f32,
    max_look_ahead: f32,
) -> Vector {
    let finite = [vehicle.position, vehicle.velocity, point, point_velocity]
        .iter()
        .all(|v| v.is_finite());
    if !finite {
        return Vector::ZERO;
    }
    let slow_radius = non_negative(slow_radius);
    if vehicle.position.distance(point) >= slow_radius {
        return pursue(vehicle, point, point_velocity, non_negative(max_look_ahead));
    }
    let desired = point_velocity + arrival_velocity(vehicle, point, slow_radius);
    vehicle.steer_to(desired.clamp_length_max(vehicle.max_speed.max(0.0)))
}

/// Offset pursuit: [`arrive_moving`] at the point `offset` in the target's frame.
pub fn offset_pursue(
    vehicle: &Vehicle,
    target: &Frame,
    offset: Vector,
    slow_radius: f32,
    max_look_ahead: f32,
) -> Vector {
    arrive_moving(
        vehicle,
        target.point_at(offset),
        target.velocity,
        slow_radius,
        max_look_ahead,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::steering::level;
    use crate::steering::{combine, seek, test_support::vehicle};

    #[test]
    fn far_away_it_pursues_the_predicted_slot() {
        let me = vehicle(Vector::ZERO, Vector::ZERO);
        // The target at (20, 0) heading +y at 2: the slot 2 to its left is (18, 0); 9 units
        // at speed 2 is 4.5 s, capped at 1 s: the slot will be at (18, 2).
        let target = Frame {
            position: level(20.0, 0.0),
            velocity: level(0.0, 2.0),
            heading: level(0.0, 1.0),
        };
        let force = offset_pursue(&me, &target, level(0.0, 2.0), 5.0, 1.0);
        assert_eq!(force, seek(&me, level(18.0, 2.0)));
    }

    #[test]
    fn on_the_slot_it_moves_with_the_target() {
        let target = Frame {
            position: Vector::ZERO,
            velocity: level(1.5, 0.0),
            heading: level(1.0, 0.0),
        };
        let me = vehicle(level(-3.0, 0.0), level(1.5, 0.0));
        assert_eq!(
            offset_pursue(&me, &target, level(-3.0, 0.0), 5.0, 1.0),
            Vector::ZERO
        );
        // Not finite in, nothing out.
        let lost = Frame {
            position: Vector::splat(f32::NAN),
            ..target
        };
        assert_eq!(
            offset_pursue(&me, &lost, level(-3.0, 0.0), 5.0, 1.0),
            Vector::ZERO
        );
    }

    #[test]
    fn a_wingman_catches_up_and_holds_its_offset_through_a_turn() {
        let dt = 1.0 / 60.0;
        let mut target = Frame {
            position: Vector::ZERO,
            velocity: level(50.0, 0.0),
            heading: level(1.0, 0.0),
        };
        let offset = level(-20.0, 20.0);
        let mut me = Vehicle {
            max_speed: 100.0,
            response_time: dt,
            ..vehicle(level(-150.0, -80.0), Vector::ZERO)
        };
        for step in 0..900 {
            // Straight for 5 s, then a slow left turn.
            if step >= 300 {
                let angle = 0.3 * (step - 299) as f32 * dt;
                target.velocity = level(angle.cos(), angle.sin()) * 50.0;
                target.heading = target.velocity.normalize();
            }
            target.position += target.velocity * dt;
            let force = combine(offset_pursue(&me, &target, offset, 40.0, 1.0), 5000.0, 1.0);
            me.velocity = (me.velocity + force * dt).clamp_length_max(me.max_speed);
            me.position += me.velocity * dt;
            // In the turn the slot also swings round the target (0.3 rad/s at 28 units, 8.5
            // units a second more than the target's velocity), which the wingman only catches
            // by the arrival speed: a few units behind (8.5 * 40 / 100 = 3.4).
            let allowed = if step < 300 { 1.0 } else { 4.0 };
            if step == 299 || step == 899 {
                let gap = me.position.distance(target.point_at(offset));
                assert!(gap < allowed, "step {step}: {gap} from the slot");
            }
        }
    }
}
