//! Moving a boid: acceleration into velocity, speed limits, velocity into position.

use crate::config::{FlockConfig, SpeedMode};
use crate::math::Vector;

/// Advances one boid by `dt` seconds under `acceleration` (force already divided by mass):
/// `v += a dt`, then the speed mode, then `p += v dt` (Euler, as every source document does).
#[inline]
pub fn integrate(
    config: &FlockConfig,
    dt: f32,
    position: &mut Vector,
    velocity: &mut Vector,
    acceleration: Vector,
) {
    *velocity = limit_speed(*velocity + acceleration * dt, config);
    *position += *velocity * dt;
}

/// Applies the speed mode to a velocity.
#[inline]
pub fn limit_speed(velocity: Vector, config: &FlockConfig) -> Vector {
    limit_speed_to(velocity, config.speed_mode, config.max_speed)
}

/// Applies a speed mode with its own `max_speed` to a velocity: for vehicles with limits of
/// their own (the plugin's `MotionLimits` clamps with `SpeedMode::Clamp { min_speed: 0.0 }`).
/// Whatever the velocity, the result is finite: one that is not finite comes to rest.
#[inline]
pub fn limit_speed_to(velocity: Vector, mode: SpeedMode, max_speed: f32) -> Vector {
    let speed = velocity.length();
    if !speed.is_normal() && velocity != Vector::ZERO {
        return limit_extreme_speed(velocity, mode, max_speed);
    }
    match mode {
        SpeedMode::Constant => velocity.normalize_or_zero() * max_speed,
        SpeedMode::Clamp { min_speed } => {
            if speed > max_speed {
                velocity * (max_speed / speed)
            } else if speed < min_speed && speed > 0.0 {
                velocity * (min_speed / speed)
            } else {
                velocity
            }
        }
    }
}

/// The speed mode for a velocity whose length f32 cannot hold: its square overflowed (a huge
/// force over a tiny mass) or underflowed (almost at rest). `velocity * (max / speed)` would
/// stop the first boid (`max / inf` is zero) and fling the second (`min / 0`); dividing by the
/// largest component first gives the direction either way. A non-finite velocity, which valid
/// settings never produce, comes to rest rather than spreading NaN.
///
/// Inlined, the path marked cold, rather than `#[cold]` out of line: a call that takes a `Vec3`
/// kept the callers' vectors on the stack (see `edges::wrap_outside`).
#[inline(always)]
fn limit_extreme_speed(velocity: Vector, mode: SpeedMode, max_speed: f32) -> Vector {
    std::hint::cold_path();
    // `max_element` skips NaN, so test every component.
    if !velocity.is_finite() {
        return Vector::ZERO;
    }
    let largest = velocity.abs().max_element();
    let scaled = velocity / largest;
    let speed = largest * scaled.length();
    let target = match mode {
        SpeedMode::Constant => max_speed,
        SpeedMode::Clamp { min_speed } => {
            if speed > max_speed {
                max_speed
            } else if speed < min_speed {
                min_speed
            } else {
                return velocity;
            }
        }
    };
    scaled.normalize_or_zero() * target
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;

    #[test]
    fn constant_speed_renormalises() {
        let config = FlockConfig {
            speed_mode: SpeedMode::Constant,
            max_speed: 2.0,
            ..FlockConfig::default()
        };
        let mut position = Vector::ZERO;
        let mut velocity = planar(0.1, 0.0);
        integrate(&config, 0.5, &mut position, &mut velocity, planar(0.0, 0.2));
        assert!((velocity.length() - 2.0).abs() < 1e-6);
        assert!((position - velocity * 0.5).length() < 1e-6);
    }

    /// Speeds clamped between 1 and 3.
    fn clamped() -> FlockConfig {
        FlockConfig {
            speed_mode: SpeedMode::Clamp { min_speed: 1.0 },
            max_speed: 3.0,
            ..FlockConfig::default()
        }
    }

    #[test]
    fn clamp_keeps_speed_between_min_and_max() {
        let config = clamped();
        assert!((limit_speed(planar(10.0, 0.0), &config).length() - 3.0).abs() < 1e-6);
        assert!((limit_speed(planar(0.0, 0.1), &config).length() - 1.0).abs() < 1e-6);
        assert_eq!(limit_speed(planar(2.0, 0.0), &config), planar(2.0, 0.0));
        assert_eq!(limit_speed(Vector::ZERO, &config), Vector::ZERO);
    }

    #[test]
    fn speeds_beyond_f32_squares_keep_their_direction() {
        let clamp = clamped();
        let constant = FlockConfig {
            speed_mode: SpeedMode::Constant,
            ..clamp
        };
        for config in [clamp, constant] {
            // Its squared length overflows f32: still slowed to max speed, heading kept.
            let huge = limit_speed(planar(3e30, -3e30), &config);
            assert!(
                (huge - planar(3.0, -3.0) / 2f32.sqrt()).length() < 1e-5,
                "{huge}"
            );
            // Its squared length underflows to zero, yet it moves: sped up to the min (clamp)
            // or max (constant) speed.
            let tiny = limit_speed(planar(0.0, -1e-30), &config);
            let expected = match config.speed_mode {
                SpeedMode::Constant => 3.0,
                SpeedMode::Clamp { min_speed } => min_speed,
            };
            assert!((tiny - planar(0.0, -expected)).length() < 1e-6, "{tiny}");
            assert_eq!(
                limit_speed(planar(f32::INFINITY, 0.0), &config),
                Vector::ZERO
            );
            assert_eq!(limit_speed(planar(f32::NAN, -5.0), &config), Vector::ZERO);
        }
    }
}
