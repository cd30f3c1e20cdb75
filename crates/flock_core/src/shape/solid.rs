//! The shapes of space: spheres, boxes (aligned with the axes or rotated) and capsules as
//! obstacles; a box as a pen.

use super::parts::{
    Nearest, ball_entry, ball_is_valid, ball_nearest, ball_way_out, box_entry, box_is_valid,
    box_nearest, box_way_out, capsule_entry, is_size, largest_axis, nearest_on_segment,
    turned_box_dodge_point, turned_box_entry, turned_box_nearest, turned_box_way_out,
};
use crate::math::{DIMENSIONS, Rotation, Vector};

/// An obstacle's outline: a circle, a rectangle (aligned with the axes or rotated) or a simple
/// polygon in 2D; a sphere, a box (aligned or rotated) or a capsule in 3D. The variants are
/// named for their dimension, as Bevy's primitives are.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A round obstacle.
    Sphere {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A box-shaped obstacle.
    Cuboid {
        /// Its centre.
        centre: Vector,
        /// Half its width, height and depth.
        half_size: Vector,
    },
    /// A box turned by `rotation` about its centre.
    OrientedCuboid {
        /// Its centre.
        centre: Vector,
        /// Half its width, height and depth, before the rotation.
        half_size: Vector,
        /// Its rotation.
        rotation: Rotation,
    },
    /// The points within `radius` of the segment from `start` to `end`.
    Capsule {
        /// One end of its axis.
        start: Vector,
        /// The other end of its axis.
        end: Vector,
        /// Its radius.
        radius: f32,
    },
}

impl Shape {
    /// Whether it is an outline at all: finite numbers, sizes not negative, a rotation of unit
    /// length.
    pub fn is_valid(&self) -> bool {
        match self {
            Self::Sphere { centre, radius } => ball_is_valid(*centre, *radius),
            Self::Cuboid { centre, half_size } => box_is_valid(*centre, *half_size),
            Self::OrientedCuboid {
                centre,
                half_size,
                rotation,
            } => {
                box_is_valid(*centre, *half_size)
                    && rotation.is_finite()
                    && rotation.is_normalized()
            }
            Self::Capsule { start, end, radius } => {
                start.is_finite() && end.is_finite() && is_size(*radius)
            }
        }
    }

    /// Its outline's point nearest `point`, the outward normal there, and whether `point` is
    /// inside.
    pub fn nearest(&self, point: Vector) -> Nearest {
        match *self {
            Self::Sphere { centre, radius } => ball_nearest(centre, radius, point),
            Self::Cuboid { centre, half_size } => box_nearest(centre, half_size, point),
            Self::OrientedCuboid {
                centre,
                half_size,
                rotation,
            } => turned_box_nearest(centre, half_size, rotation, point),
            Self::Capsule { start, end, radius } => {
                let axis = end - start;
                let along = ((point - start).dot(axis) / axis.length_squared()).clamp(0.0, 1.0);
                // A capsule whose ends meet is a ball.
                let spine = start + axis * if along.is_finite() { along } else { 0.0 };
                ball_nearest(spine, radius, point)
            }
        }
    }

    /// The unit direction out of this shape for a point inside it (out of a box through its
    /// nearest face, out of a capsule straight away from its axis), or `None` for a point
    /// outside.
    pub fn way_out(&self, point: Vector) -> Option<Vector> {
        match *self {
            Self::Sphere { centre, radius } => ball_way_out(centre, radius, point),
            Self::Cuboid { centre, half_size } => box_way_out(centre, half_size, point),
            Self::OrientedCuboid {
                centre,
                half_size,
                rotation,
            } => turned_box_way_out(centre, half_size, rotation, point),
            Self::Capsule { start, end, radius } => {
                let out = point - nearest_on_segment(point, start, end);
                (out.length_squared() < radius * radius).then(|| {
                    out.try_normalize()
                        .unwrap_or_else(|| (end - start).any_orthonormal_vector())
                })
            }
        }
    }

    /// How far along unit `heading` from `position` the path first meets this shape grown by
    /// `clearance` (zero if it starts inside the grown shape), or `None` if it never does.
    pub fn ray_entry(&self, position: Vector, heading: Vector, clearance: f32) -> Option<f32> {
        match *self {
            Self::Sphere { centre, radius } => {
                ball_entry(centre, radius, position, heading, clearance)
            }
            Self::Cuboid { centre, half_size } => {
                box_entry(centre, half_size, position, heading, clearance)
            }
            Self::OrientedCuboid {
                centre,
                half_size,
                rotation,
            } => turned_box_entry(centre, half_size, rotation, position, heading, clearance),
            Self::Capsule { start, end, radius } => {
                capsule_entry(position, heading, start, end, radius + clearance)
            }
        }
    }

    /// The point it is dodged away from, for a vehicle at `position` whose path meets it at
    /// `hit`: its centre; for a rotated box, its centre while that is ahead of the vehicle,
    /// then its point nearest the hit (a long box can still be in the way when its middle is
    /// behind); for a capsule, its axis point nearest the hit. (Aligned boxes keep their first
    /// behaviour: the centre.)
    pub(crate) fn dodge_point(&self, position: Vector, hit: Vector) -> Vector {
        match self {
            Self::Sphere { centre, .. } | Self::Cuboid { centre, .. } => *centre,
            &Self::OrientedCuboid {
                centre,
                half_size,
                rotation,
            } => turned_box_dodge_point(centre, half_size, rotation, position, hit),
            &Self::Capsule { start, end, .. } => nearest_on_segment(hit, start, end),
        }
    }

    /// A ball around the whole shape (centre and radius), for skipping the far ones without a
    /// finer test; `None` when it is not finite.
    pub fn bounding_ball(&self) -> Option<(Vector, f32)> {
        let (centre, radius) = match self {
            &Self::Sphere { centre, radius } => (centre, radius),
            &Self::Cuboid { centre, half_size }
            | &Self::OrientedCuboid {
                centre, half_size, ..
            } => (centre, half_size.length()),
            &Self::Capsule { start, end, radius } => {
                ((start + end) / 2.0, start.distance(end) / 2.0 + radius)
            }
        };
        (centre.is_finite() && radius.is_finite()).then_some((centre, radius.abs()))
    }
}

/// A region to stay inside: a polygon in 2D, a box aligned with the axes in 3D.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq)]
pub enum Enclosure {
    /// Inside a box.
    Cuboid {
        /// Its centre.
        centre: Vector,
        /// Half its width, height and depth.
        half_size: Vector,
    },
}

impl Enclosure {
    /// Whether it is a region at all: a polygon of at least three finite vertices (as
    /// `Polygon::new` makes), a box with a finite centre and finite positive half sizes.
    /// [`contain`](crate::steering::contain) ignores one that is not.
    pub fn is_valid(&self) -> bool {
        let Self::Cuboid { centre, half_size } = self;
        centre.is_finite() && half_size.is_finite() && half_size.cmpgt(Vector::ZERO).all()
    }

    /// Whether `point` is inside.
    pub fn contains(&self, point: Vector) -> bool {
        let Self::Cuboid { centre, half_size } = self;
        (point - *centre).abs().cmplt(*half_size).all()
    }

    /// The unit direction back inside from `point`: for a point outside, towards the nearest
    /// point of the boundary; for one inside, away from the nearest boundary.
    pub fn way_in(&self, point: Vector) -> Vector {
        let Self::Cuboid { centre, half_size } = self;
        let offset = point - *centre;
        let outside = offset.abs() - *half_size;
        if outside.cmpgt(Vector::ZERO).any() {
            // Towards the box's nearest point.
            let nearest = offset.clamp(-*half_size, *half_size);
            return (nearest - offset).normalize_or(-offset.signum());
        }
        // Inside: back from the nearest face.
        let nearest = largest_axis(outside);
        let mut way = Vector::ZERO;
        way[nearest] = -offset[nearest].signum();
        way
    }

    /// Its boundary's point nearest `point`, the boundary's outward normal there (out of the
    /// region), and whether `point` is inside.
    pub fn nearest(&self, point: Vector) -> Nearest {
        let &Self::Cuboid { centre, half_size } = self;
        box_nearest(centre, half_size, point)
    }

    /// Where the segment from `from` to `to` first crosses the boundary: the fraction of the
    /// way, and the inward unit normal of the side it crosses; `None` if it crosses none.
    pub fn crossing(&self, from: Vector, to: Vector) -> Option<(f32, Vector)> {
        let way = to - from;
        let Self::Cuboid { centre, half_size } = self;
        (0..DIMENSIONS)
            .filter(|&axis| way[axis] != 0.0)
            .map(|axis| {
                let side = centre[axis] + half_size[axis] * way[axis].signum();
                let mut inward = Vector::ZERO;
                inward[axis] = -way[axis].signum();
                ((side - from[axis]) / way[axis], inward)
            })
            .filter(|&(at, _)| (0.0..=1.0).contains(&at))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }
}
