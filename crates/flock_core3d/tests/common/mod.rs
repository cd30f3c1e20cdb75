//! What the 3D tests share: random states in a box, and forces through every index.

#![allow(dead_code)]

use flock_core3d::{Bounds, Vector, random_direction, random_point};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use flock_core3d as kernel;
#[path = "../../../flock_core/tests/common/forces.rs"]
mod forces;
pub use forces::*;

/// `count` boids uniformly in `area`, with random velocities up to `max_speed` in random
/// directions on the sphere.
pub fn random_state(count: usize, area: Bounds, max_speed: f32, seed: u64) -> State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let positions = (0..count).map(|_| random_point(&area, &mut rng)).collect();
    let velocities = (0..count)
        .map(|_| random_direction(&mut rng) * rng.random_range(0.0..max_speed))
        .collect();
    State {
        positions,
        velocities,
    }
}

/// The default settings in a cube `side` wide.
pub fn cube(side: f32) -> Bounds {
    Bounds::centered(Vector::splat(side))
}
