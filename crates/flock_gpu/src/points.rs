//! Points the game moves every frame: attractors every boid arrives at, repellers it flees
//! within a radius, predators it evades within a radius. flock_core's `arrive`, `flee` and
//! `evade` give the forces; they are weighted and summed with the hunts' forces, and the sum
//! is truncated to the boid's max force (flock_core's `combine`), as the Bevy plugin combines
//! its behaviours' forces.
//!
//! They are checked on the host and laid out as the shaders' `Points` uniform
//! (shaders/gameplay.wgsl) reads them.

use flock_core::{ConfigError, DIMENSIONS, FlockConfig, Vector};

use crate::error::GpuError;
use crate::layout::to_bytes;
use crate::species::{check_size, check_weight};

/// The most points a flock steers by at once (`MAX_POINTS` in shaders/gameplay.wgsl): every
/// boid visits every point, so they are few, and they fit a small uniform buffer.
pub const MAX_POINTS: usize = 64;

/// A point that steers every boid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GpuPoint {
    /// Every boid steers towards it at full speed, slowing inside `slow_radius` to stop on it
    /// (flock_core's `arrive`; `seek` with a radius of zero).
    Attractor {
        /// Where it is.
        position: Vector,
        /// The distance at which boids start to slow down; zero for plain seek.
        slow_radius: f32,
        /// How much this force counts in a boid's sum.
        weight: f32,
    },
    /// Boids closer than `radius` steer away from it at full speed (flock_core's `flee`).
    Repeller {
        /// Where it is.
        position: Vector,
        /// How near it must be to be fled from.
        radius: f32,
        /// How much this force counts in a boid's sum.
        weight: f32,
    },
    /// Boids closer than `radius` flee where it will be, predicted from its velocity at most
    /// `max_look_ahead` seconds ahead (flock_core's `evade`).
    Predator {
        /// Where it is.
        position: Vector,
        /// How it moves, world units per second.
        velocity: Vector,
        /// How near it must be to be fled from.
        radius: f32,
        /// How much this force counts in a boid's sum.
        weight: f32,
        /// The longest prediction, seconds.
        max_look_ahead: f32,
    },
}

/// The kinds as the shaders number them (`POINT_*` in shaders/gameplay.wgsl).
const ATTRACTOR: u32 = 0;
const REPELLER: u32 = 1;
const PREDATOR: u32 = 2;

impl GpuPoint {
    /// Its kind, position, velocity, radius, weight and look-ahead, as the uniform holds them.
    fn parts(&self) -> (u32, Vector, Vector, f32, f32, f32) {
        match *self {
            Self::Attractor {
                position,
                slow_radius,
                weight,
            } => (ATTRACTOR, position, Vector::ZERO, slow_radius, weight, 0.0),
            Self::Repeller {
                position,
                radius,
                weight,
            } => (REPELLER, position, Vector::ZERO, radius, weight, 0.0),
            Self::Predator {
                position,
                velocity,
                radius,
                weight,
                max_look_ahead,
            } => (PREDATOR, position, velocity, radius, weight, max_look_ahead),
        }
    }

    /// Checks it: a position and velocity finite and within [`FlockConfig::MAX_MAGNITUDE`]
    /// on every axis, a radius and look-ahead finite and not negative, a finite weight.
    fn check(&self) -> Result<(), ConfigError> {
        let (_, position, velocity, radius, weight, look_ahead) = self.parts();
        for (field, vector) in [("position", position), ("velocity", velocity)] {
            let bad = vector
                .to_array()
                .into_iter()
                .find(|value| !(value.is_finite() && value.abs() <= FlockConfig::MAX_MAGNITUDE));
            if let Some(value) = bad {
                return Err(ConfigError {
                    field,
                    value,
                    reason: "must be finite and within 1e9 (FlockConfig::MAX_MAGNITUDE) on \
                             every axis",
                });
            }
        }
        check_size("radius", radius)?;
        check_size("max_look_ahead", look_ahead)?;
        check_weight("weight", weight)
    }
}

/// Checks points: at most [`MAX_POINTS`] (more is an error, never a truncation), each as
/// [`GpuPoint`] says. None at all is fine: no point steers.
pub fn check_points(points: &[GpuPoint]) -> Result<(), GpuError> {
    if points.len() > MAX_POINTS {
        return Err(GpuError::TooMany {
            what: "points",
            requested: points.len(),
            limit: MAX_POINTS,
        });
    }
    for (index, point) in points.iter().enumerate() {
        point
            .check()
            .map_err(|error| GpuError::Point { index, error })?;
    }
    Ok(())
}

/// The `Points` uniform: the count, then [`MAX_POINTS`] points of three `vec4`s (position,
/// velocity, then radius, weight, look-ahead and the kind's bits), unused ones zero.
pub(crate) fn points_bytes(points: &[GpuPoint]) -> Vec<u8> {
    let mut words: Vec<[u8; 4]> = Vec::with_capacity(POINTS_WORDS);
    words.extend([points.len() as u32, 0, 0, 0].map(u32::to_le_bytes));
    let padded = |v: Vector| {
        let mut out = [0.0f32; 4];
        out[..DIMENSIONS].copy_from_slice(&v.to_array()[..DIMENSIONS]);
        out
    };
    for point in points {
        let (kind, position, velocity, radius, weight, look_ahead) = point.parts();
        words.extend(padded(position).map(f32::to_le_bytes));
        words.extend(padded(velocity).map(f32::to_le_bytes));
        words.extend([radius, weight, look_ahead].map(f32::to_le_bytes));
        words.push(kind.to_le_bytes());
    }
    words.resize(POINTS_WORDS, [0; 4]);
    to_bytes(words)
}

/// The `Points` uniform's size in words.
const POINTS_WORDS: usize = 4 + MAX_POINTS * 12;

/// The `Points` uniform's size in bytes.
pub(crate) const POINTS_BYTES: u64 = POINTS_WORDS as u64 * 4;
