//! Obstacle avoidance: circles, rectangles (aligned or rotated) and polygons (2D); spheres,
//! boxes (aligned or rotated) and capsules (3D) in the path. The geometry is
//! [`shape`](crate::shape)'s; this is what a vehicle does about it.

use std::borrow::Borrow;

use super::Vehicle;
use crate::math::{Vector, sideways_away};
use crate::shape::Shape;

/// Reynolds' obstacle avoidance: of the obstacles ahead that the vehicle's path (a corridor
/// `clearance` wide on each side) meets within `look_ahead`, the nearest pushes the vehicle
/// sideways, away from its centre and harder the closer it is (see [`dodge`]); an obstacle the
/// vehicle is already inside pushes it straight out (see [`escape`]).
pub fn avoid_obstacles(
    vehicle: &Vehicle,
    obstacles: impl IntoIterator<Item = impl Borrow<Shape>>,
    look_ahead: f32,
    clearance: f32,
) -> Vector {
    let heading = vehicle.heading();
    let mut nearest: Option<(f32, Vector)> = None;
    for obstacle in obstacles {
        let obstacle = obstacle.borrow();
        if let Some(out) = obstacle.way_out(vehicle.position) {
            return escape(vehicle, out);
        }
        if heading == Vector::ZERO {
            continue;
        }
        let Some(entry) = obstacle.ray_entry(vehicle.position, heading, clearance) else {
            continue;
        };
        let hit = vehicle.position + heading * entry;
        let away_from = obstacle.dodge_point(vehicle.position, hit);
        // `dodge` gives no push beyond the look-ahead or for an obstacle not ahead.
        if nearest.is_none_or(|(distance, _)| entry < distance) {
            let push = dodge_along(vehicle, heading, entry, away_from, look_ahead);
            if push != Vector::ZERO {
                nearest = Some((entry, push));
            }
        }
    }
    nearest.map_or(Vector::ZERO, |(_, push)| push)
}

/// The push away from an obstacle that the vehicle's path meets `entry` ahead (within
/// `look_ahead`), dodged away from point `away_from` (its centre, or the point of it that was
/// hit): sideways only, so dodging does not brake, from nothing at `look_ahead` to
/// `max_speed` per response time at the obstacle. No push for a vehicle at rest, for a point
/// not ahead of it, or for an entry beyond `look_ahead` (or not a number).
pub fn dodge(vehicle: &Vehicle, entry: f32, away_from: Vector, look_ahead: f32) -> Vector {
    dodge_along(vehicle, vehicle.heading(), entry, away_from, look_ahead)
}

/// [`dodge`] with the vehicle's unit `heading` (or zero at rest) already worked out, so a
/// vehicle checking many obstacles normalises its velocity once.
fn dodge_along(
    vehicle: &Vehicle,
    heading: Vector,
    entry: f32,
    away_from: Vector,
    look_ahead: f32,
) -> Vector {
    let offset = away_from - vehicle.position;
    // Written so that a look-ahead or entry that is not a number gives no push.
    let within_reach = entry <= look_ahead;
    let ahead = offset.is_finite() && offset.dot(heading) > 0.0;
    if heading == Vector::ZERO || !ahead || !within_reach {
        return Vector::ZERO;
    }
    let push = sideways_away(heading, offset) * (1.0 - entry / look_ahead);
    push * vehicle.max_speed / vehicle.response_time
}

/// The steering force straight out of an obstacle the vehicle is inside, along unit `out`: as
/// urgent as it gets, the velocity turned to `out` at full speed in one response time. No
/// force for an `out` that is not finite.
pub fn escape(vehicle: &Vehicle, out: Vector) -> Vector {
    if !out.is_finite() {
        return Vector::ZERO;
    }
    vehicle.steer_to(out * vehicle.max_speed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{planar, world_size};
    #[cfg(not(flock_3d))]
    use crate::shape::Shape::{Circle as Round, Rect as Aligned};
    #[cfg(flock_3d)]
    use crate::shape::Shape::{Cuboid as Aligned, Sphere as Round};
    use crate::steering::test_support::vehicle;

    #[test]
    fn a_dodge_grows_from_nothing_at_the_look_ahead_to_full_speed_at_the_obstacle() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let right_of_the_path = planar(4.0, -1.0);
        let full = v.max_speed / v.response_time;
        // Away from the point: to the left (+y), harder the nearer the entry.
        let at = |entry| dodge(&v, entry, right_of_the_path, 8.0);
        assert_eq!(at(0.0), planar(0.0, full));
        assert_eq!(at(4.0), planar(0.0, 0.5 * full));
        assert_eq!(at(8.0), Vector::ZERO);
        // Beyond the look-ahead, a point behind, a vehicle at rest, numbers that are not
        // numbers: no push.
        assert_eq!(at(8.5), Vector::ZERO);
        assert_eq!(dodge(&v, 1.0, planar(-4.0, -1.0), 8.0), Vector::ZERO);
        let at_rest = vehicle(Vector::ZERO, Vector::ZERO);
        assert_eq!(dodge(&at_rest, 1.0, right_of_the_path, 8.0), Vector::ZERO);
        assert_eq!(at(f32::NAN), Vector::ZERO);
        assert_eq!(dodge(&v, 1.0, right_of_the_path, f32::NAN), Vector::ZERO);
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(dodge(&v, 1.0, planar(bad, -1.0), 8.0), Vector::ZERO);
            assert_eq!(dodge(&v, 1.0, planar(4.0, bad), 8.0), Vector::ZERO);
        }
    }

    #[test]
    fn escaping_turns_the_velocity_straight_out_at_full_speed() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let out = planar(0.0, 1.0);
        let force = escape(&v, out);
        assert_eq!(v.velocity + force * v.response_time, out * v.max_speed);
        for bad in [f32::NAN, f32::INFINITY] {
            assert_eq!(escape(&v, planar(bad, 0.0)), Vector::ZERO);
        }
        // Avoidance inside a circle is this escape, outwards from its centre.
        let around = Round {
            centre: planar(0.0, -0.5),
            radius: 1.0,
        };
        assert_eq!(avoid_obstacles(&v, [around], 10.0, 0.2), force);
    }

    #[test]
    fn obstacles_push_sideways_only_when_in_the_path() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let circle = |x, y| Round {
            centre: planar(x, y),
            radius: 1.0,
        };
        let force = avoid_obstacles(&v, [circle(5.0, 0.5)], 10.0, 0.2);
        assert!(force.x == 0.0 && force.y < 0.0, "{force}");
        // Behind, beside the path, beyond the look-ahead: no force.
        let missed = [circle(-5.0, 0.0), circle(5.0, 3.0), circle(20.0, 0.0)];
        assert_eq!(avoid_obstacles(&v, missed, 10.0, 0.2), Vector::ZERO);
        let out = avoid_obstacles(&v, [circle(0.5, 0.0)], 10.0, 0.2);
        assert!(out.x < 0.0, "{out}");

        let wall = |y| Aligned {
            centre: planar(6.0, y),
            // In 3D as deep as it is high.
            half_size: world_size(1.0, 3.0),
        };
        // Its lower part is in the path, its centre above: pushed down.
        let force = avoid_obstacles(&v, [wall(2.5)], 10.0, 0.2);
        assert!(force.x == 0.0 && force.y < 0.0, "{force}");
        assert_eq!(avoid_obstacles(&v, [wall(3.5)], 10.0, 0.2), Vector::ZERO);
        // The nearer of two pushes; a nearer one pushes harder.
        let near = avoid_obstacles(&v, [wall(2.5), circle(3.0, -0.5)], 10.0, 0.2);
        assert!(near.y > 0.0, "{near}");
        let far = avoid_obstacles(&v, [circle(8.0, -0.5)], 10.0, 0.2);
        assert!(near.length() > far.length());
        // Inside a rectangle: out through the nearest side.
        let inside = vehicle(planar(6.0, 2.0), planar(2.0, 0.0));
        let out = avoid_obstacles(&inside, [wall(0.0)], 10.0, 0.2);
        assert!(out.y > 0.0, "{out}");
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;
    use crate::math::Rotation;
    use crate::math::planar;
    #[cfg(not(flock_3d))]
    use crate::shape::Polygon;
    #[cfg(flock_3d)]
    use crate::shape::Shape::{Cuboid as Aligned, OrientedCuboid as Oriented};
    #[cfg(not(flock_3d))]
    use crate::shape::Shape::{Rect as Aligned, RotatedRect as Oriented};
    use crate::steering::test_support::vehicle;

    /// A quarter turn anticlockwise about the axis out of the plane.
    fn quarter_turn() -> Rotation {
        #[cfg(not(flock_3d))]
        return Rotation::from_angle(std::f32::consts::FRAC_PI_2);
        #[cfg(flock_3d)]
        return Rotation::from_rotation_z(std::f32::consts::FRAC_PI_2);
    }

    #[test]
    fn a_rotated_box_is_met_where_it_lies_not_where_it_would_unrotated() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        // 6 wide and 1 high before the turn: after it, a thin wall from y = -0.5 to 5.5.
        let mut half_size = Vector::splat(0.5);
        half_size.x = 3.0;
        let turned = Oriented {
            centre: planar(6.0, 2.5),
            half_size,
            rotation: quarter_turn(),
        };
        let force = avoid_obstacles(&v, [&turned], 10.0, 0.2);
        assert!(force.y < 0.0 && force.x.abs() < 1e-4, "{force}");
        // Unrotated it would lie from y = 2 to 3: out of the path.
        let flat = Aligned {
            centre: planar(6.0, 2.5),
            half_size,
        };
        assert_eq!(avoid_obstacles(&v, [flat], 10.0, 0.2), Vector::ZERO);
        // Inside the turned box (not the flat one): out through the nearer long side.
        let inside = vehicle(planar(5.8, 4.0), planar(2.0, 0.0));
        let out = avoid_obstacles(&inside, [turned], 10.0, 0.2);
        assert!(out.x < 0.0, "{out}");
    }

    #[cfg(not(flock_3d))]
    #[test]
    fn a_polygon_is_avoided_by_its_outline() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        // A triangle whose lower corner reaches into the path, its centre above it.
        let triangle = |dy: f32| {
            Shape::Polygon(
                Polygon::new([
                    planar(5.0, 2.0 + dy),
                    planar(7.0, 2.0 + dy),
                    planar(6.0, -0.1 + dy),
                ])
                .unwrap(),
            )
        };
        let force = avoid_obstacles(&v, [triangle(0.0)], 10.0, 0.2);
        assert!(force.y < 0.0 && force.x == 0.0, "{force}");
        // Lifted clear of the corridor: nothing; nearer, a harder push.
        assert_eq!(
            avoid_obstacles(&v, [triangle(0.5)], 10.0, 0.2),
            Vector::ZERO
        );
        let inside = vehicle(planar(6.0, 1.5), planar(2.0, 0.0));
        let out = avoid_obstacles(&inside, [triangle(0.0)], 10.0, 0.2);
        assert!(out.y > 0.0, "out through the top edge: {out}");
        // Without clearance the outline itself still stops the path.
        let wall = Shape::Polygon(
            Polygon::new([
                planar(5.0, -3.0),
                planar(5.5, -3.0),
                planar(5.5, 3.5),
                planar(5.0, 3.5),
            ])
            .unwrap(),
        );
        assert!(avoid_obstacles(&v, [wall], 10.0, 0.0).y < 0.0);
    }

    #[cfg(flock_3d)]
    #[test]
    fn a_capsule_is_avoided_along_its_whole_length() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let capsule = |start: Vector, end: Vector| Shape::Capsule {
            start,
            end,
            radius: 0.5,
        };
        // Its axis from just above the path upwards: the body reaches into it.
        let standing = capsule(planar(6.0, 0.5), planar(6.0, 5.0));
        let force = avoid_obstacles(&v, [&standing], 10.0, 0.2);
        assert!(force.y < 0.0 && force.x.abs() < 1e-4, "{force}");
        // End on, along the path: met at its near end's ball (0.1 off the path, 0.7 round).
        let end_on = capsule(planar(5.0, 0.1), planar(9.0, 0.1));
        let entry = end_on.ray_entry(Vector::ZERO, Vector::X, 0.2).unwrap();
        assert!((entry - (5.0 - (0.48f32).sqrt())).abs() < 1e-4, "{entry}");
        // Beside the path, parallel to it: missed.
        let beside = capsule(planar(2.0, 2.0), planar(8.0, 2.0));
        assert_eq!(avoid_obstacles(&v, [beside], 10.0, 0.2), Vector::ZERO);
        // Inside: straight out from the axis.
        let inside = vehicle(planar(6.0, 3.0) + Vector::Z * 0.3, planar(2.0, 0.0));
        let out = avoid_obstacles(&inside, [standing], 10.0, 0.2);
        assert!(out.z > 0.0 && out.y.abs() < 1e-4, "{out}");
    }
}

#[cfg(test)]
mod bad_shape_tests {
    use super::*;
    use crate::math::Rotation;
    use crate::math::planar;
    #[cfg(flock_3d)]
    use crate::shape::Shape::OrientedCuboid as Oriented;
    #[cfg(not(flock_3d))]
    use crate::shape::Shape::RotatedRect as Oriented;
    use crate::steering::test_support::vehicle;

    #[test]
    fn shapes_with_numbers_that_are_not_finite_give_no_nan() {
        let nan = f32::NAN;
        #[cfg(not(flock_3d))]
        let broken_turn = Rotation::from_cols_array(&[nan; 4]);
        #[cfg(flock_3d)]
        let broken_turn = Rotation::from_xyzw(nan, 0.0, 0.0, 1.0);
        #[cfg_attr(not(flock_3d), allow(unused_mut))]
        let mut shapes = vec![Oriented {
            centre: planar(5.0, 0.0),
            half_size: Vector::splat(1.0),
            rotation: broken_turn,
        }];
        #[cfg(flock_3d)]
        shapes.extend([
            Shape::Capsule {
                start: planar(5.0, 0.0),
                end: planar(5.0, 0.0),
                radius: nan,
            },
            Shape::Capsule {
                start: planar(nan, 0.0),
                end: planar(5.0, 1.0),
                radius: 1.0,
            },
        ]);
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        for shape in &shapes {
            let force = avoid_obstacles(&v, [shape], 10.0, 0.2);
            assert!(force.is_finite(), "{shape:?}: {force}");
        }
    }
}
