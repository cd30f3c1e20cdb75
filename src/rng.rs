//! The flock's one random number generator, seeded so a run can be replayed.

use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The random number generator behind every random choice of the plugin (spawn positions,
/// headings, colours). The same seed, settings and inputs replay the same run.
#[derive(Resource, Debug, Clone)]
pub struct FlockRng {
    seed: u64,
    rng: Xoshiro256PlusPlus,
}

impl FlockRng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// The seed this generator started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Starts over from `seed`.
    pub fn reseed(&mut self, seed: u64) {
        *self = Self::new(seed);
    }

    /// The generator, to draw from with `rand`'s `RngExt` methods.
    pub fn rng(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.rng
    }
}

impl Default for FlockRng {
    fn default() -> Self {
        Self::new(0)
    }
}
