//! The shapes of the plane: circles, rectangles (aligned with the axes or rotated) and simple
//! polygons as obstacles; a polygon as a pen.

use super::parts::{
    Nearest, ball_entry, ball_is_valid, ball_nearest, ball_way_out, box_entry, box_is_valid,
    box_nearest, box_way_out, capsule_entry, turned_box_dodge_point, turned_box_entry,
    turned_box_nearest, turned_box_way_out,
};
use super::polygon::{Polygon, ray_crosses_segment};
use crate::math::{Rotation, Vector};

/// An obstacle's outline: a circle, a rectangle (aligned with the axes or rotated) or a simple
/// polygon in 2D; a sphere, a box (aligned or rotated) or a capsule in 3D. The variants are
/// named for their dimension, as Bevy's primitives are.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A round obstacle.
    Circle {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A rectangular obstacle.
    Rect {
        /// Its centre.
        centre: Vector,
        /// Half its width and half its height.
        half_size: Vector,
    },
    /// A rectangle turned by `rotation` about its centre.
    RotatedRect {
        /// Its centre.
        centre: Vector,
        /// Half its width and half its height, before the rotation.
        half_size: Vector,
        /// Its rotation (a rotation matrix: `Mat2::from_angle`).
        rotation: Rotation,
    },
    /// A polygon, convex or not, in world coordinates.
    Polygon(Polygon),
}

impl Shape {
    /// Whether it is an outline at all: finite numbers and sizes not negative (a polygon as
    /// [`Polygon::new`] makes it).
    pub fn is_valid(&self) -> bool {
        match self {
            Self::Circle { centre, radius } => ball_is_valid(*centre, *radius),
            Self::Rect { centre, half_size } => box_is_valid(*centre, *half_size),
            Self::RotatedRect {
                centre,
                half_size,
                rotation,
            } => box_is_valid(*centre, *half_size) && rotation.is_finite(),
            Self::Polygon(polygon) => polygon.is_valid(),
        }
    }

    /// Its outline's point nearest `point`, the outward normal there, and whether `point` is
    /// inside.
    pub fn nearest(&self, point: Vector) -> Nearest {
        match self {
            &Self::Circle { centre, radius } => ball_nearest(centre, radius, point),
            &Self::Rect { centre, half_size } => box_nearest(centre, half_size, point),
            &Self::RotatedRect {
                centre,
                half_size,
                rotation,
            } => turned_box_nearest(centre, half_size, rotation, point),
            Self::Polygon(polygon) => polygon.nearest(point),
        }
    }

    /// The unit direction out of this shape for a point inside it (out of a rectangle through
    /// its nearest side, out of a polygon through its nearest edge), or `None` for a point
    /// outside.
    pub fn way_out(&self, point: Vector) -> Option<Vector> {
        match self {
            &Self::Circle { centre, radius } => ball_way_out(centre, radius, point),
            &Self::Rect { centre, half_size } => box_way_out(centre, half_size, point),
            &Self::RotatedRect {
                centre,
                half_size,
                rotation,
            } => turned_box_way_out(centre, half_size, rotation, point),
            Self::Polygon(polygon) => polygon
                .contains(point)
                .then(|| polygon.nearest_edge(point).1),
        }
    }

    /// How far along unit `heading` from `position` the path first meets this shape grown by
    /// `clearance` (zero if it starts inside the grown shape), or `None` if it never does.
    pub fn ray_entry(&self, position: Vector, heading: Vector, clearance: f32) -> Option<f32> {
        match self {
            &Self::Circle { centre, radius } => {
                ball_entry(centre, radius, position, heading, clearance)
            }
            &Self::Rect { centre, half_size } => {
                box_entry(centre, half_size, position, heading, clearance)
            }
            &Self::RotatedRect {
                centre,
                half_size,
                rotation,
            } => turned_box_entry(centre, half_size, rotation, position, heading, clearance),
            // The polygon grown by the clearance is the union of the polygon and a capsule
            // around each edge; the path enters it where it first meets one of them.
            Self::Polygon(polygon) => polygon
                .edges()
                .filter_map(|(a, b)| {
                    let crossing = ray_crosses_segment(position, heading, a, b);
                    let near = capsule_entry(position, heading, a, b, clearance);
                    crossing.into_iter().chain(near).reduce(f32::min)
                })
                .reduce(f32::min),
        }
    }

    /// The point it is dodged away from, for a vehicle at `position` whose path meets it at
    /// `hit`: its centre; for a rotated rectangle or a polygon, its centre (a polygon's mean
    /// vertex) while that is ahead of the vehicle, then its point nearest the hit (a long or
    /// concave shape can still be in the way when its middle is behind). (Aligned rectangles
    /// keep their first behaviour: the centre.)
    pub(crate) fn dodge_point(&self, position: Vector, hit: Vector) -> Vector {
        match self {
            Self::Circle { centre, .. } | Self::Rect { centre, .. } => *centre,
            &Self::RotatedRect {
                centre,
                half_size,
                rotation,
            } => turned_box_dodge_point(centre, half_size, rotation, position, hit),
            Self::Polygon(polygon) => {
                let centre = polygon.centre();
                if (centre - position).dot(hit - position) > 0.0 {
                    centre
                } else {
                    polygon.nearest_edge(hit).0
                }
            }
        }
    }

    /// A ball around the whole shape (centre and radius), for skipping the far ones without a
    /// finer test; `None` when it is not finite.
    pub fn bounding_ball(&self) -> Option<(Vector, f32)> {
        let (centre, radius) = match self {
            &Self::Circle { centre, radius } => (centre, radius),
            &Self::Rect { centre, half_size }
            | &Self::RotatedRect {
                centre, half_size, ..
            } => (centre, half_size.length()),
            Self::Polygon(polygon) => {
                let centre = polygon.centre();
                let radius = (polygon.vertices().iter())
                    .map(|vertex| vertex.distance(centre))
                    .fold(0.0, f32::max);
                (centre, radius)
            }
        };
        (centre.is_finite() && radius.is_finite()).then_some((centre, radius.abs()))
    }
}

/// A region to stay inside: a polygon in 2D, a box aligned with the axes in 3D.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq)]
pub enum Enclosure {
    /// Inside a polygon, convex or not.
    Polygon(Polygon),
}

impl Enclosure {
    /// Whether it is a region at all: a polygon of at least three finite vertices (as
    /// `Polygon::new` makes), a box with a finite centre and finite positive half sizes.
    /// [`contain`](crate::steering::contain) ignores one that is not.
    pub fn is_valid(&self) -> bool {
        let Self::Polygon(polygon) = self;
        polygon.is_valid()
    }

    /// Whether `point` is inside.
    pub fn contains(&self, point: Vector) -> bool {
        let Self::Polygon(polygon) = self;
        polygon.contains(point)
    }

    /// The unit direction back inside from `point`: for a point outside, towards the nearest
    /// point of the boundary; for one inside, away from the nearest boundary.
    pub fn way_in(&self, point: Vector) -> Vector {
        let Self::Polygon(polygon) = self;
        let (nearest, outward) = polygon.nearest_edge(point);
        if polygon.contains(point) {
            -outward
        } else {
            (nearest - point).try_normalize().unwrap_or(-outward)
        }
    }

    /// Its boundary's point nearest `point`, the boundary's outward normal there (out of the
    /// region), and whether `point` is inside.
    pub fn nearest(&self, point: Vector) -> Nearest {
        let Self::Polygon(polygon) = self;
        polygon.nearest(point)
    }

    /// Where the segment from `from` to `to` first crosses the boundary: the fraction of the
    /// way, and the inward unit normal of the side it crosses; `None` if it crosses none.
    pub fn crossing(&self, from: Vector, to: Vector) -> Option<(f32, Vector)> {
        let way = to - from;
        let Self::Polygon(polygon) = self;
        polygon
            .edges()
            .filter_map(|(a, b)| {
                let at = ray_crosses_segment(from, way, a, b).filter(|&at| at <= 1.0)?;
                // Counter-clockwise: the inside is on the left of each edge.
                Some((at, (b - a).perp().normalize_or_zero()))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }
}
