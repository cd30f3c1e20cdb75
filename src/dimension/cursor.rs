//! Where the cursor points in the world (with the `render` feature): under it in 2D, where its
//! ray meets the ground in 3D; and the camera it is read through.

use bevy::prelude::*;
use flock_core::Vector;

/// Projects the primary window's cursor through the 2D camera into the world.
#[cfg(not(flock_3d))]
pub(crate) fn cursor_in_world(
    camera: &Camera,
    camera_transform: &GlobalTransform,
    screen: Vec2,
) -> Option<Vector> {
    camera.viewport_to_world_2d(camera_transform, screen).ok()
}

/// Where the ray through the cursor meets the ground, the plane y = 0 (Bevy's up is +y):
/// tanks are sent there and clicked boids appear there. `None` when the ray misses it.
#[cfg(flock_3d)]
pub(crate) fn cursor_in_world(
    camera: &Camera,
    camera_transform: &GlobalTransform,
    screen: Vec2,
) -> Option<Vector> {
    let ray = camera.viewport_to_world(camera_transform, screen).ok()?;
    let distance = ray.intersect_plane(Vec3::ZERO, InfinitePlane3d::new(Vec3::Y))?;
    Some(ray.get_point(distance))
}

/// The camera the cursor is projected through: the 2D camera.
#[cfg(not(flock_3d))]
pub(crate) type WorldCamera = Camera2d;
/// The camera the cursor is projected through: the 3D camera.
#[cfg(flock_3d)]
pub(crate) type WorldCamera = Camera3d;
