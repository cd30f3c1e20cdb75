//! Shapes and the questions every steering behaviour asks them, in one place: obstacles
//! ([`Shape`]) and pens ([`Enclosure`]), each with one query API.
//!
//! - [`Shape::nearest`], [`Enclosure::nearest`]: the outline's nearest point, the outward
//!   normal there, and whether the point is inside ([`Nearest`]): wall following, and the
//!   outline points ORCA keeps its agents from.
//! - [`Shape::way_out`]: the direction out for a point inside (escaping an obstacle);
//!   [`Enclosure::way_in`] the way back into a pen.
//! - [`Shape::ray_entry`]: where a path (a ray, with a clearance around it) first meets the
//!   shape: look-ahead avoidance and context steering's danger; [`Enclosure::crossing`] where
//!   a probe leaves a pen: containment.
//! - [`Shape::is_valid`], [`Enclosure::is_valid`]: finite numbers and sizes that are sizes.
//!
//! The shapes differ per dimension as Bevy's primitives do (circles, rectangles and polygons
//! in the plane; spheres, boxes and capsules in space): `flat.rs` holds the plane's and
//! `solid.rs` space's, one of them compiled by each kernel (the `flock_3d` cfg), and both are
//! made of the same parts (`parts.rs`: balls, boxes, segments and capsules in whichever
//! dimension [`Vector`](crate::Vector) is). The behaviours that ask them do not name the
//! dimension.

mod parts;

#[cfg(not(flock_3d))]
mod flat;
#[cfg(not(flock_3d))]
mod polygon;
#[cfg(flock_3d)]
mod solid;

#[cfg(not(flock_3d))]
pub use flat::{Enclosure, Shape};
pub use parts::{Nearest, nearest_on_segment};
#[cfg(not(flock_3d))]
pub use polygon::{Polygon, PolygonError};
#[cfg(flock_3d)]
pub use solid::{Enclosure, Shape};

pub use crate::math::Rotation;
