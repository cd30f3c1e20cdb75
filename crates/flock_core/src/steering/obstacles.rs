//! Obstacle avoidance: circles, rectangles (aligned or rotated) and polygons (2D); spheres,
//! boxes (aligned or rotated) and capsules (3D) in the path.

use std::borrow::Borrow;

use super::Vehicle;
#[cfg(not(flock_3d))]
use super::polygon::{Polygon, ray_crosses_segment};
use crate::math::{DIMENSIONS, Vector, cross_length, sideways_away};

/// A rotation of this dimension: a 2 x 2 rotation matrix in 2D, a quaternion in 3D.
#[cfg(not(flock_3d))]
pub type Rotation = glam::Mat2;
/// A rotation of this dimension: a 2 x 2 rotation matrix in 2D, a quaternion in 3D.
#[cfg(flock_3d)]
pub type Rotation = glam::Quat;

/// An obstacle's outline: a circle, a rectangle (aligned with the axes or rotated) or a simple
/// polygon in 2D; a sphere, a box (aligned or rotated) or a capsule in 3D. The variants are
/// named for their dimension, as Bevy's primitives are; the code below reads the shapes both
/// dimensions have as `Round`, `Aligned` and `Oriented`.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A round obstacle.
    #[cfg(not(flock_3d))]
    Circle {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A rectangular obstacle.
    #[cfg(not(flock_3d))]
    Rect {
        /// Its centre.
        centre: Vector,
        /// Half its width and half its height.
        half_size: Vector,
    },
    /// A rectangle turned by `rotation` about its centre.
    #[cfg(not(flock_3d))]
    RotatedRect {
        /// Its centre.
        centre: Vector,
        /// Half its width and half its height, before the rotation.
        half_size: Vector,
        /// Its rotation (a rotation matrix: `Mat2::from_angle`).
        rotation: Rotation,
    },
    /// A polygon, convex or not, in world coordinates.
    #[cfg(not(flock_3d))]
    Polygon(Polygon),
    /// A round obstacle.
    #[cfg(flock_3d)]
    Sphere {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A box-shaped obstacle.
    #[cfg(flock_3d)]
    Cuboid {
        /// Its centre.
        centre: Vector,
        /// Half its width, height and depth.
        half_size: Vector,
    },
    /// A box turned by `rotation` about its centre.
    #[cfg(flock_3d)]
    OrientedCuboid {
        /// Its centre.
        centre: Vector,
        /// Half its width, height and depth, before the rotation.
        half_size: Vector,
        /// Its rotation.
        rotation: Rotation,
    },
    /// The points within `radius` of the segment from `start` to `end`.
    #[cfg(flock_3d)]
    Capsule {
        /// One end of its axis.
        start: Vector,
        /// The other end of its axis.
        end: Vector,
        /// Its radius.
        radius: f32,
    },
}

#[cfg(not(flock_3d))]
use Shape::{Circle as Round, Rect as Aligned, RotatedRect as Oriented};
#[cfg(flock_3d)]
use Shape::{Cuboid as Aligned, OrientedCuboid as Oriented, Sphere as Round};

impl Shape {
    /// The point it is dodged away from, for a vehicle at `position` whose path meets it at
    /// `hit`: its centre; for a rotated box or a polygon, its centre (a polygon's mean vertex)
    /// while that is ahead of the vehicle, then its point nearest the hit (a long or concave
    /// shape can still be in the way when its middle is behind); for a capsule, its axis point
    /// nearest the hit. (Aligned boxes keep their first behaviour: the centre.)
    fn dodge_point(&self, position: Vector, hit: Vector) -> Vector {
        match self {
            Round { centre, .. } | Aligned { centre, .. } => *centre,
            &Oriented {
                centre,
                half_size,
                rotation,
            } => {
                if (centre - position).dot(hit - position) > 0.0 {
                    centre
                } else {
                    // The box's point nearest the hit.
                    let local = rotation.inverse() * (hit - centre);
                    centre + rotation * local.clamp(-half_size, half_size)
                }
            }
            #[cfg(not(flock_3d))]
            Self::Polygon(polygon) => {
                let centre = polygon.centre();
                if (centre - position).dot(hit - position) > 0.0 {
                    centre
                } else {
                    polygon.nearest_edge(hit).0
                }
            }
            #[cfg(flock_3d)]
            Self::Capsule { start, end, .. } => nearest_on_segment(hit, *start, *end),
        }
    }

    /// How far along `heading` from `position` the path first meets this shape grown by
    /// `clearance` (zero if it starts inside the grown shape), or `None` if it never does.
    pub(crate) fn path_entry(
        &self,
        position: Vector,
        heading: Vector,
        clearance: f32,
    ) -> Option<f32> {
        match self {
            &Oriented {
                centre,
                half_size,
                rotation,
            } => {
                let inverse = rotation.inverse();
                let local = |point: Vector| inverse * point;
                let aligned = Aligned {
                    centre: Vector::ZERO,
                    half_size,
                };
                aligned.path_entry(local(position - centre), local(heading), clearance)
            }
            #[cfg(not(flock_3d))]
            Self::Polygon(polygon) => {
                // The polygon grown by the clearance is the union of the polygon and a capsule
                // around each edge; the path enters it where it first meets one of them.
                polygon
                    .edges()
                    .filter_map(|(a, b)| {
                        let crossing = ray_crosses_segment(position, heading, a, b);
                        let near = capsule_entry(position, heading, a, b, clearance);
                        crossing.into_iter().chain(near).reduce(f32::min)
                    })
                    .reduce(f32::min)
            }
            #[cfg(flock_3d)]
            &Self::Capsule { start, end, radius } => {
                capsule_entry(position, heading, start, end, radius + clearance)
            }
            _ => self.round_or_aligned_entry(position, heading, clearance),
        }
    }

    /// [`path_entry`](Self::path_entry) for a circle (sphere) or an aligned rectangle (box).
    fn round_or_aligned_entry(
        &self,
        position: Vector,
        heading: Vector,
        clearance: f32,
    ) -> Option<f32> {
        match *self {
            Round { centre, radius } => {
                let offset = centre - position;
                let reach = radius + clearance;
                let lateral = cross_length(offset, heading);
                let half_chord_squared = reach * reach - lateral * lateral;
                (half_chord_squared > 0.0)
                    .then(|| (offset.dot(heading) - half_chord_squared.sqrt()).max(0.0))
            }
            Aligned { centre, half_size } => {
                // The slab method: the ray is inside the box between the last entry and the
                // first exit over both axes.
                let grown = half_size + Vector::splat(clearance);
                let (low, high) = (centre - grown - position, centre + grown - position);
                let mut entry = f32::NEG_INFINITY;
                let mut exit = f32::INFINITY;
                for axis in 0..DIMENSIONS {
                    if heading[axis] == 0.0 {
                        if low[axis] > 0.0 || high[axis] < 0.0 {
                            return None;
                        }
                        continue;
                    }
                    let (a, b) = (low[axis] / heading[axis], high[axis] / heading[axis]);
                    entry = entry.max(a.min(b));
                    exit = exit.min(a.max(b));
                }
                (exit >= entry.max(0.0)).then(|| entry.max(0.0))
            }
            _ => None,
        }
    }

    /// The direction out of this shape for a point inside it, or `None` for a point outside.
    pub(crate) fn way_out(&self, point: Vector) -> Option<Vector> {
        match self {
            &Oriented {
                centre,
                half_size,
                rotation,
            } => {
                let aligned = Aligned {
                    centre: Vector::ZERO,
                    half_size,
                };
                let local = rotation.inverse() * (point - centre);
                aligned.way_out(local).map(|way| rotation * way)
            }
            #[cfg(not(flock_3d))]
            Self::Polygon(polygon) => polygon
                .contains(point)
                .then(|| polygon.nearest_edge(point).1),
            #[cfg(flock_3d)]
            &Self::Capsule { start, end, radius } => {
                let out = point - nearest_on_segment(point, start, end);
                (out.length_squared() < radius * radius).then(|| {
                    out.try_normalize()
                        .unwrap_or_else(|| (end - start).any_orthonormal_vector())
                })
            }
            _ => self.round_or_aligned_way_out(point),
        }
    }

    /// [`way_out`](Self::way_out) for a circle (sphere) or an aligned rectangle (box).
    fn round_or_aligned_way_out(&self, point: Vector) -> Option<Vector> {
        match *self {
            Round { centre, radius } => {
                let out = point - centre;
                (out.length_squared() < radius * radius).then(|| out.normalize_or(Vector::X))
            }
            Aligned { centre, half_size } => {
                let out = point - centre;
                let depth = half_size - out.abs();
                // Out through the nearest side (the last axis of a tie).
                depth.cmpgt(Vector::ZERO).all().then(|| {
                    let nearest = (1..DIMENSIONS).fold(0, |best, axis| {
                        if depth[axis] <= depth[best] {
                            axis
                        } else {
                            best
                        }
                    });
                    let mut way = Vector::ZERO;
                    way[nearest] = out[nearest].signum();
                    way
                })
            }
            _ => None,
        }
    }
}

/// The point of segment `a`-`b` nearest `point`.
fn nearest_on_segment(point: Vector, a: Vector, b: Vector) -> Vector {
    let along = b - a;
    let length_squared = along.length_squared();
    if length_squared == 0.0 {
        return a;
    }
    a + along * ((point - a).dot(along) / length_squared).clamp(0.0, 1.0)
}

/// How far along unit `heading` from `origin` the ray first comes within `radius` of the
/// segment `a`-`b` (zero if it starts that close), or `None` if it never does: the ray against
/// a capsule, in either dimension (Inigo Quilez's formulation, with dot products only).
fn capsule_entry(
    origin: Vector,
    heading: Vector,
    a: Vector,
    b: Vector,
    radius: f32,
) -> Option<f32> {
    if origin.distance_squared(nearest_on_segment(origin, a, b)) <= radius * radius {
        return Some(0.0);
    }
    let (axis, from_a) = (b - a, origin - a);
    let axis_squared = axis.dot(axis);
    let axis_heading = axis.dot(heading);
    let axis_from_a = axis.dot(from_a);
    // Against the infinite cylinder (slab, in 2D) around the axis...
    let k2 = axis_squared - axis_heading * axis_heading;
    let k1 = axis_squared * heading.dot(from_a) - axis_from_a * axis_heading;
    let k0 = axis_squared * from_a.dot(from_a)
        - axis_from_a * axis_from_a
        - radius * radius * axis_squared;
    let discriminant = k1 * k1 - k2 * k0;
    if discriminant < 0.0 {
        return None;
    }
    if k2 > 0.0 {
        let t = (-k1 - discriminant.sqrt()) / k2;
        let along = axis_from_a + t * axis_heading;
        if t >= 0.0 && along > 0.0 && along < axis_squared {
            return Some(t);
        }
    }
    // ...else against the balls at its ends.
    [a, b]
        .into_iter()
        .filter_map(|end| {
            let to_origin = origin - end;
            let half_b = heading.dot(to_origin);
            let h = half_b * half_b - (to_origin.dot(to_origin) - radius * radius);
            let t = -half_b - h.max(0.0).sqrt();
            (h >= 0.0 && t >= 0.0).then_some(t)
        })
        .reduce(f32::min)
}

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
        let Some(entry) = obstacle.path_entry(vehicle.position, heading, clearance) else {
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
    use crate::math::planar;
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
        let entry = end_on.path_entry(Vector::ZERO, Vector::X, 0.2).unwrap();
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
    use crate::math::planar;
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
