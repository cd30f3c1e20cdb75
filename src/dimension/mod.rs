//! The plugin's per-dimension code. `bevy_flock` compiles this source in 2D and `bevy_flock3d`
//! in 3D (its build script sets the `flock_3d` cfg); everything else is written against the
//! kernel's [`Vector`] (`Vec2` or `Vec3`), so the components, systems and behaviours are one
//! copy. Here: a boid's position in its `Transform`; in [`facing`], the rotation that faces its
//! velocity (with a stable up and optional banking in 3D); in [`cursor`], with the `render`
//! feature, where the cursor points in the world.

#[cfg(feature = "render")]
mod cursor;
mod facing;
#[cfg(flock_3d)]
mod facing_lanes;

use bevy::math::Vec3;
use flock_core::Vector;

#[cfg(feature = "render")]
pub(crate) use cursor::{WorldCamera, cursor_in_world};
#[cfg(flock_3d)]
pub use facing::{Banking, MAX_ROLL_RATE};
pub(crate) use facing::{face_velocity, facing_of, heading_rotation};

/// A boid's simulated position from its translation: x and y in 2D (z is the sprite's drawing
/// order and stays as the app set it), all three axes in 3D.
#[inline]
pub(crate) fn position_of(translation: Vec3) -> Vector {
    #[cfg(not(flock_3d))]
    return translation.truncate();
    #[cfg(flock_3d)]
    return translation;
}

/// Writes a simulated position into a translation; 2D keeps the drawing order `z`.
#[inline]
pub(crate) fn set_position(translation: &mut Vec3, position: Vector) {
    #[cfg(not(flock_3d))]
    {
        *translation = position.extend(translation.z);
    }
    #[cfg(flock_3d)]
    {
        *translation = position;
    }
}

/// A position or displacement as a translation (`z = 0` in 2D).
#[inline]
pub(crate) fn translation_of(position: Vector) -> Vec3 {
    #[cfg(not(flock_3d))]
    return position.extend(0.0);
    #[cfg(flock_3d)]
    return position;
}
