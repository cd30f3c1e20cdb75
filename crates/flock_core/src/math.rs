//! The vector type of this build and the small helpers every rule shares.
//!
//! The kernel is written against the alias [`Vector`] and only uses operations that `Vec2` and
//! `Vec3` both have, so a 3D build can compile the same source with `Vector = Vec3` (the way
//! avian keeps one source per dimension behind type aliases).

use crate::config::ForceLimit;

/// The vector type the kernel computes with: 2D for now.
pub type Vector = glam::Vec2;

/// Applies a [`ForceLimit`] to a steering force.
///
/// `Truncate` (Reynolds, Processing, seed 000) only shortens forces longer than `max_force`;
/// `Rescale` (seed 002's Unity port, `steer.normalized * maxforce`) gives every non-zero force
/// exactly `max_force`. A zero force stays zero in both modes.
#[inline]
pub fn limit_force(force: Vector, max_force: f32, mode: ForceLimit) -> Vector {
    match mode {
        ForceLimit::Truncate => {
            let length_squared = force.length_squared();
            if length_squared > max_force * max_force {
                force * (max_force / length_squared.sqrt())
            } else {
                force
            }
        }
        ForceLimit::Rescale => force.normalize_or_zero() * max_force,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_only_shortens_long_forces() {
        let short = Vector::new(0.3, 0.4);
        assert_eq!(limit_force(short, 1.0, ForceLimit::Truncate), short);
        let long = Vector::new(3.0, 4.0);
        let limited = limit_force(long, 1.0, ForceLimit::Truncate);
        assert!((limited - Vector::new(0.6, 0.8)).length() < 1e-6);
    }

    #[test]
    fn rescale_gives_every_nonzero_force_the_max() {
        let short = Vector::new(0.3, 0.4);
        let scaled = limit_force(short, 2.0, ForceLimit::Rescale);
        assert!((scaled - Vector::new(1.2, 1.6)).length() < 1e-6);
        assert_eq!(
            limit_force(Vector::ZERO, 2.0, ForceLimit::Rescale),
            Vector::ZERO
        );
    }
}
