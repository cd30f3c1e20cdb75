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
    match config.speed_mode {
        SpeedMode::Constant => velocity.normalize_or_zero() * config.max_speed,
        SpeedMode::Clamp { min_speed } => {
            let speed = velocity.length();
            if speed > config.max_speed {
                velocity * (config.max_speed / speed)
            } else if speed < min_speed && speed > 0.0 {
                velocity * (min_speed / speed)
            } else {
                velocity
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_speed_renormalises() {
        let config = FlockConfig {
            speed_mode: SpeedMode::Constant,
            max_speed: 2.0,
            ..FlockConfig::default()
        };
        let mut position = Vector::ZERO;
        let mut velocity = Vector::new(0.1, 0.0);
        integrate(
            &config,
            0.5,
            &mut position,
            &mut velocity,
            Vector::new(0.0, 0.2),
        );
        assert!((velocity.length() - 2.0).abs() < 1e-6);
        assert!((position - velocity * 0.5).length() < 1e-6);
    }

    #[test]
    fn clamp_keeps_speed_between_min_and_max() {
        let config = FlockConfig {
            speed_mode: SpeedMode::Clamp { min_speed: 1.0 },
            max_speed: 3.0,
            ..FlockConfig::default()
        };
        assert!((limit_speed(Vector::new(10.0, 0.0), &config).length() - 3.0).abs() < 1e-6);
        assert!((limit_speed(Vector::new(0.0, 0.1), &config).length() - 1.0).abs() < 1e-6);
        assert_eq!(
            limit_speed(Vector::new(2.0, 0.0), &config),
            Vector::new(2.0, 0.0)
        );
        assert_eq!(limit_speed(Vector::ZERO, &config), Vector::ZERO);
    }
}
