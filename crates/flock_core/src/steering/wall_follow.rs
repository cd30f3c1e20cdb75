//! Wall following (Reynolds, "Steering Behaviors For Autonomous Characters", 1999): move along
//! a boundary, an obstacle's outline or a pen's, keeping a chosen distance from it on a chosen
//! side.
//!
//! A variant of Reynolds' behaviour: he steers from the vehicle's *predicted* position (where
//! it will be a moment ahead at its velocity), and this steers from its *current* one. Every
//! query then asks about a point the vehicle is at, so its distance from the wall is what it
//! keeps now, not later; and a vehicle at rest (no prediction to make) still finds the wall
//! and sets off along it. The look-ahead lies in the walk along the wall below instead, which
//! rounds corners before the vehicle reaches them.
//!
//! Each step the vehicle finds the boundary's point nearest it, and from there the line it
//! keeps to (the points at the chosen distance from the wall) and the direction along it that
//! keeps the wall on the chosen hand. It walks that line `look_ahead` forwards and as far
//! backwards, in strides brought back to the line each time (so the walk rounds corners and
//! curves), and heads along the chord between the two ends, turned towards the line by how far
//! off it the vehicle is.
//!
//! The side is the vehicle's own: [`WallSide::Left`] keeps the wall on its left hand, which
//! takes it anticlockwise round an obstacle and clockwise round the inside of a pen (seen from
//! above: from +z in 2D, from +y in 3D). In 3D "left" is the left of the frame that
//! [`local_to_world`](super::local_to_world) uses, whose up is Bevy's +y, so a vehicle goes
//! round a wall's side at its own height; where the wall faces straight up or down (a box's
//! top, a pen's floor) no direction along it is to either hand, and the vehicle takes the one
//! nearest its own heading.

use super::Vehicle;
use crate::math::{Vector, left_along_wall};
use crate::shape::{Enclosure, Shape};

/// Which hand of the vehicle the wall is on.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WallSide {
    /// The wall on its left: anticlockwise round an obstacle, clockwise inside a pen.
    #[default]
    Left,
    /// The wall on its right: clockwise round an obstacle, anticlockwise inside a pen.
    Right,
}

/// A boundary to follow: an obstacle's outline, kept on its outside, or a pen's, kept on its
/// inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wall<'a> {
    /// Go round the outside of an obstacle.
    Outside(&'a Shape),
    /// Go round the inside of a pen.
    Inside(&'a Enclosure),
}

/// How a vehicle follows a wall.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallFollowParams {
    /// Which hand the wall is kept on.
    pub side: WallSide,
    /// How far from the wall to keep, world units (zero: along the wall itself).
    pub distance: f32,
    /// How far ahead along the wall the sought point is, world units: shorter follows tighter
    /// curves, longer smooths the way.
    pub look_ahead: f32,
}

impl WallFollowParams {
    /// Whether the distance is finite and not negative and the look-ahead finite and positive,
    /// both at most [`FlockConfig::MAX_MAGNITUDE`](crate::FlockConfig::MAX_MAGNITUDE); invalid
    /// parameters steer nobody.
    pub fn is_valid(&self) -> bool {
        let in_range = |value: f32| value <= crate::FlockConfig::MAX_MAGNITUDE;
        (self.distance >= 0.0 && in_range(self.distance))
            && (self.look_ahead > 0.0 && in_range(self.look_ahead))
    }
}

/// Where a wall is nearest a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WallPoint {
    /// The boundary's point nearest.
    pub point: Vector,
    /// The unit normal there towards the side a follower keeps to (out of an obstacle, into a
    /// pen); at a corner seen from that side, the direction from the corner to the point asked
    /// about, so the distance kept rounds it.
    pub normal: Vector,
    /// How far the point asked about is from the boundary: positive on the follower's side,
    /// negative on the other (inside an obstacle, outside a pen).
    pub distance: f32,
}

impl Wall<'_> {
    /// Whether it is a boundary at all: finite numbers, sizes not negative (a pen as
    /// [`Enclosure::is_valid`] says).
    pub fn is_valid(&self) -> bool {
        match self {
            Self::Outside(shape) => shape.is_valid(),
            Self::Inside(enclosure) => enclosure.is_valid(),
        }
    }

    /// Where it is nearest `point`, or `None` for a wall that is not valid or a point that is
    /// not finite.
    pub fn nearest(&self, point: Vector) -> Option<WallPoint> {
        if !point.is_finite() || !self.is_valid() {
            return None;
        }
        let crate::shape::Nearest {
            point: nearest,
            outward,
            inside,
        } = match self {
            Self::Outside(shape) => shape.nearest(point),
            Self::Inside(enclosure) => enclosure.nearest(point),
        };
        let (face_normal, on_free_side) = match self {
            Self::Outside(_) => (outward, !inside),
            Self::Inside(_) => (-outward, inside),
        };
        let away = point - nearest;
        let length = away.length();
        let normal = if on_free_side {
            away.try_normalize().unwrap_or(face_normal)
        } else {
            face_normal
        };
        let distance = if on_free_side { length } else { -length };
        let found = WallPoint {
            point: nearest,
            normal,
            distance,
        };
        (nearest.is_finite() && normal.is_finite() && distance.is_finite()).then_some(found)
    }
}

/// Reynolds' wall following: the steering force that takes the vehicle along `wall` at
/// `distance` from it, on the side `params.side` says (see the module's documentation), at its
/// max speed. A vehicle off that line closes in on it at a slant, steeper the farther it is
/// (straight at it from `look_ahead` away); one inside an obstacle (outside a pen) heads back
/// to its side. Invalid parameters (see [`WallFollowParams::is_valid`]), an invalid wall or a
/// vehicle whose position is not finite give no force.
pub fn follow_wall(vehicle: &Vehicle, wall: Wall, params: &WallFollowParams) -> Vector {
    if !params.is_valid() {
        return Vector::ZERO;
    }
    let Some(here) = wall.nearest(vehicle.position) else {
        return Vector::ZERO;
    };
    let heading = vehicle.heading();
    let abreast = here.point + here.normal * params.distance;
    // The line's direction here: from the point `look_ahead` behind to the one as far ahead,
    // both walked along the line. On a curve that chord is parallel to the line where the
    // vehicle is (one ahead alone would cut inside), and ahead of a corner it already turns.
    let (Some(ahead), Some(behind)) = (
        walk_along(wall, here, params, heading, 1.0),
        walk_along(wall, here, params, heading, -1.0),
    ) else {
        return Vector::ZERO;
    };
    let along = along_wall(here.normal, params.side, heading);
    let way = (ahead - behind).try_normalize().unwrap_or(along);
    let desired = (way * params.look_ahead + (abreast - vehicle.position)).normalize_or(way)
        * vehicle.max_speed;
    let force = vehicle.steer_to(desired);
    if force.is_finite() {
        force
    } else {
        Vector::ZERO
    }
}

/// How many strides a walk along the followed line takes: enough to round a corner.
const WALK_STRIDES: u8 = 4;

/// The point `look_ahead` along the followed line (at `distance` from `wall`) from the point
/// abreast of `from`, forwards (`sense` 1) or backwards (-1), walked in strides each brought
/// back to the line, so the walk rounds corners and follows curves.
fn walk_along(
    wall: Wall,
    from: WallPoint,
    params: &WallFollowParams,
    heading: Vector,
    sense: f32,
) -> Option<Vector> {
    let stride = params.look_ahead / f32::from(WALK_STRIDES);
    let mut at = from.point + from.normal * params.distance;
    let mut normal = from.normal;
    for _ in 0..WALK_STRIDES {
        let along = along_wall(normal, params.side, heading) * sense;
        let next = wall.nearest(at + along * stride)?;
        at = next.point + next.normal * params.distance;
        normal = next.normal;
    }
    Some(at)
}

/// The unit direction along a wall whose normal towards the follower is `normal`, with the wall
/// on the `side` hand. In 3D, where the wall faces straight up or down, the direction along it
/// nearest `heading` (any, for a heading square to it).
fn along_wall(normal: Vector, side: WallSide, heading: Vector) -> Vector {
    match (left_along_wall(normal, heading), side) {
        (Ok(left), WallSide::Left) => left,
        (Ok(left), WallSide::Right) => -left,
        (Err(nearest_heading), _) => nearest_heading,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    fn ball(centre: Vector, radius: f32) -> Shape {
        #[cfg(not(flock_3d))]
        return Shape::Circle { centre, radius };
        #[cfg(flock_3d)]
        return Shape::Sphere { centre, radius };
    }

    fn aligned_box(centre: Vector, half_size: Vector) -> Shape {
        #[cfg(not(flock_3d))]
        return Shape::Rect { centre, half_size };
        #[cfg(flock_3d)]
        return Shape::Cuboid { centre, half_size };
    }

    #[test]
    fn the_nearest_point_and_normal_face_the_follower_side() {
        let circle = ball(Vector::ZERO, 2.0);
        let outside = Wall::Outside(&circle).nearest(planar(5.0, 0.0)).unwrap();
        assert_eq!(outside.point, planar(2.0, 0.0));
        assert_eq!(outside.normal, planar(1.0, 0.0));
        assert_eq!(outside.distance, 3.0);
        let inside = Wall::Outside(&circle).nearest(planar(1.5, 0.0)).unwrap();
        assert_eq!(inside.normal, planar(1.0, 0.0));
        assert_eq!(inside.distance, -0.5);

        // A box's corner, seen from outside: the normal points from the corner to the point.
        let block = aligned_box(Vector::ZERO, Vector::splat(1.0));
        let corner = Wall::Outside(&block).nearest(planar(2.0, 2.0)).unwrap();
        assert!((corner.normal - planar(1.0, 1.0).normalize()).length() < 1e-6);
        assert!((corner.distance - 2f32.sqrt()).abs() < 1e-6);
        // Inside the box: out through the nearest face.
        let deep = Wall::Outside(&block).nearest(planar(0.2, 0.9)).unwrap();
        assert_eq!(deep.normal, planar(0.0, 1.0));
        assert!((deep.distance + 0.1).abs() < 1e-6);
    }

    #[test]
    fn a_pen_is_followed_on_its_inside() {
        #[cfg(not(flock_3d))]
        let pen = Enclosure::Polygon(
            crate::steering::Polygon::rectangle(glam::Vec2::splat(5.0)).unwrap(),
        );
        #[cfg(flock_3d)]
        let pen = Enclosure::Cuboid {
            centre: Vector::ZERO,
            half_size: Vector::splat(5.0),
        };
        let near_right = Wall::Inside(&pen).nearest(planar(4.0, 0.0)).unwrap();
        assert!((near_right.normal - planar(-1.0, 0.0)).length() < 1e-6);
        assert!((near_right.distance - 1.0).abs() < 1e-6);
        let beyond = Wall::Inside(&pen).nearest(planar(7.0, 0.0)).unwrap();
        assert!((beyond.normal - planar(-1.0, 0.0)).length() < 1e-6);
        assert!((beyond.distance + 2.0).abs() < 1e-6);
    }

    #[test]
    fn the_side_chooses_the_way_round() {
        let circle = ball(Vector::ZERO, 2.0);
        // At rest beside the circle on +x: the left hand keeps it anticlockwise (+y)...
        let me = vehicle(planar(4.0, 0.0), Vector::ZERO);
        let params = |side| WallFollowParams {
            side,
            distance: 2.0,
            look_ahead: 1.0,
        };
        #[cfg(not(flock_3d))]
        let anticlockwise = planar(0.0, 1.0);
        // ...which in 3D, seen from +y, is towards -z.
        #[cfg(flock_3d)]
        let anticlockwise = -Vector::Z;
        let left = follow_wall(&me, Wall::Outside(&circle), &params(WallSide::Left));
        assert!(left.dot(anticlockwise) > 0.0, "{left}");
        let right = follow_wall(&me, Wall::Outside(&circle), &params(WallSide::Right));
        assert!(right.dot(anticlockwise) < 0.0, "{right}");
    }
}
