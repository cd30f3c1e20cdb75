//! A moving body's own frame: offsets given as if the body headed along +x, turned with it.
//! Offset pursuit, leader following and formations place their points in it.
//!
//! In 2D the frame is the world turned by the heading's angle: x ahead, y to the left. In 3D
//! it is the world turned so that +x is the heading while +y (Bevy's up) stays as near up as
//! it can: x ahead, y up, z to the right. [`level`] writes a point of the ground (ahead and to
//! the left) in either, so a formation laid out with it lies in the plane in 2D and on the
//! ground (x-z) in 3D.

use crate::math::Vector;

/// The point `ahead` units in front and `left` units to the left on the ground of the local
/// frame: `(ahead, left)` in 2D, `(ahead, 0, -left)` in 3D.
#[inline]
pub fn level(ahead: f32, left: f32) -> Vector {
    #[cfg(not(flock_3d))]
    return Vector::new(ahead, left);
    #[cfg(flock_3d)]
    return Vector::new(ahead, 0.0, -left);
}

/// `local`, an offset in the frame of a body heading along `heading`, as a world offset. A
/// heading of zero (or not finite) counts as +x, so the offset is unchanged. In 3D a vertical
/// heading keeps the frame's right (z) as +z.
pub fn local_to_world(heading: Vector, local: Vector) -> Vector {
    let ahead = heading
        .try_normalize()
        .filter(|ahead| ahead.is_finite())
        .unwrap_or(Vector::X);
    #[cfg(not(flock_3d))]
    {
        ahead * local.x + ahead.perp() * local.y
    }
    #[cfg(flock_3d)]
    {
        let right = ahead.cross(Vector::Y).try_normalize().unwrap_or(Vector::Z);
        let up = right.cross(ahead);
        ahead * local.x + up * local.y + right * local.z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ahead_and_left_follow_the_heading() {
        // Heading left of +x by a quarter turn: ahead is that way, left is -x.
        let heading = level(0.0, 2.0);
        let world = local_to_world(heading, level(3.0, 1.0));
        assert!((world - level(-1.0, 3.0)).length() < 1e-6, "{world}");
        // No heading, or heading +x: the frame is the world's.
        for heading in [Vector::ZERO, Vector::splat(f32::NAN), Vector::X] {
            let world = local_to_world(heading, level(3.0, 1.0));
            assert!((world - level(3.0, 1.0)).length() < 1e-6, "{world}");
        }
    }

    #[cfg(flock_3d)]
    #[test]
    fn in_3d_up_stays_up() {
        // Heading along Bevy's forward, -z: ahead is -z, up +y, right +x.
        let world = local_to_world(Vector::NEG_Z, Vector::new(1.0, 2.0, 3.0));
        assert!(
            (world - Vector::new(3.0, 2.0, -1.0)).length() < 1e-6,
            "{world}"
        );
        // Climbing at 45 degrees: the ground offset stays level, up tilts back.
        let climbing = Vector::new(1.0, 1.0, 0.0);
        assert!(local_to_world(climbing, level(0.0, 1.0)).y.abs() < 1e-6);
        // Straight up: still a frame, lengths kept.
        let up = local_to_world(Vector::Y, Vector::new(1.0, 2.0, 3.0));
        assert!((up.length() - 14f32.sqrt()).abs() < 1e-5 && up.is_finite());
    }
}
