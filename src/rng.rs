//! The flock's one random number generator, seeded so a run can be replayed.

use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

/// The random number generators behind every random choice of the plugin: one for the
/// simulation (spawn positions, headings, wandering) and one for looks (colours). The same seed,
/// settings and inputs replay the same run, and drawing a boid (a hue for its sprite) never
/// takes random numbers from the simulation.
#[derive(Resource, Debug, Clone)]
pub struct FlockRng {
    seed: u64,
    rng: Xoshiro256PlusPlus,
    looks: Xoshiro256PlusPlus,
}

/// Mixed into the seed of the looks' generator, so its stream is not the simulation's.
const LOOKS_STREAM: u64 = 0x6c6f_6f6b_7300_0001;

impl FlockRng {
    /// Generators started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            looks: Xoshiro256PlusPlus::seed_from_u64(seed ^ LOOKS_STREAM),
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

    /// The simulation's generator, to draw from with `rand`'s `RngExt` methods.
    pub fn rng(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.rng
    }

    /// The generator for looks (a boid's hue): drawing from it never changes the flight.
    pub fn looks(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.looks
    }
}

impl Default for FlockRng {
    fn default() -> Self {
        Self::new(0)
    }
}
