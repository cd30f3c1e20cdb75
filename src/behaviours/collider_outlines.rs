//! Avian's colliders as ORCA obstacles (feature `avian`): the outline of each static collider
//! whose shape the kernel can hold (a ball, a box or a convex polygon in 2D; a ball, a box or a
//! capsule in 3D), where its `GlobalTransform` puts it. Colliders of moving bodies are left to
//! the boids' own avoidance: ORCA's obstacles are static, and its obstacle tree is rebuilt
//! whenever one moves.

use avian::prelude::{Collider, RigidBody};
use bevy::prelude::*;
#[cfg(not(flock_3d))]
use flock_core::steering::Polygon;
use flock_core::steering::Shape;

use crate::dimension::position_of;

/// The outline of `collider` where `transform` puts it, or `None` for a shape the kernel has no
/// outline for (a compound, a mesh, a height field...) and for a body that moves.
pub(crate) fn collider_outline(
    collider: &Collider,
    transform: &GlobalTransform,
    body: Option<&RigidBody>,
) -> Option<Shape> {
    if body.is_some_and(|body| *body != RigidBody::Static) {
        return None;
    }
    let (_, rotation, translation) = transform.to_scale_rotation_translation();
    let centre = position_of(translation);
    let shape = collider.shape_scaled();
    if let Some(ball) = shape.as_ball() {
        #[cfg(not(flock_3d))]
        return Some(Shape::Circle {
            centre,
            radius: ball.radius,
        });
        #[cfg(flock_3d)]
        return Some(Shape::Sphere {
            centre,
            radius: ball.radius,
        });
    }
    if let Some(cuboid) = shape.as_cuboid() {
        let half = cuboid.half_extents;
        #[cfg(not(flock_3d))]
        {
            let turn = (rotation * Vec3::X).truncate().normalize_or(Vec2::X);
            return Some(Shape::RotatedRect {
                centre,
                half_size: Vec2::new(half.x, half.y),
                rotation: Mat2::from_cols(turn, turn.perp()),
            });
        }
        #[cfg(flock_3d)]
        return Some(Shape::OrientedCuboid {
            centre,
            half_size: Vec3::new(half.x, half.y, half.z),
            rotation,
        });
    }
    #[cfg(not(flock_3d))]
    if let Some(polygon) = shape.as_convex_polygon() {
        let turn = (rotation * Vec3::X).truncate().normalize_or(Vec2::X);
        let local = polygon
            .points()
            .iter()
            .map(|point| Vec2::new(point.x, point.y));
        let polygon = Polygon::new(local).ok()?;
        return Some(Shape::Polygon(polygon.placed(centre, turn)));
    }
    #[cfg(flock_3d)]
    if let Some(capsule) = shape.as_capsule() {
        let (a, b) = (capsule.segment.a, capsule.segment.b);
        return Some(Shape::Capsule {
            start: centre + rotation * Vec3::new(a.x, a.y, a.z),
            end: centre + rotation * Vec3::new(b.x, b.y, b.z),
            radius: capsule.radius,
        });
    }
    None
}
