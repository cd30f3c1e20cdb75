//! The flock's random number generators, seeded so a run can be replayed.

use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::identity::BoidId;

/// The random number generators behind every random choice of the plugin: one for the
/// simulation's spawns (positions, headings), one per boid and step for its behaviours
/// ([`FlockRng::for_boid`]: wandering), and one for looks (colours). The same seed, settings and
/// inputs replay the same run, and drawing a boid (a hue for its sprite) never takes random
/// numbers from the simulation.
///
/// A boid's own numbers come from its [`BoidId`], the step and the seed alone, not from a
/// shared stream: they do not depend on the order boids are visited in, so a lockstep peer
/// whose query visits them in another order (a component of its own on some of them) draws
/// the same ones, and boids can draw in parallel.
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

    /// A generator of boid `id`'s own for step `step`, one of its `stream`s (one per behaviour
    /// that draws), the same whatever else has been drawn.
    pub fn for_boid(&self, id: BoidId, step: u64, stream: u64) -> Xoshiro256PlusPlus {
        let key = mix(mix(mix(self.seed ^ BOID_STREAMS) ^ id.0) ^ step) ^ stream;
        Xoshiro256PlusPlus::seed_from_u64(mix(key))
    }

    /// The generator for looks (a boid's hue): drawing from it never changes the flight.
    pub fn looks(&mut self) -> &mut Xoshiro256PlusPlus {
        &mut self.looks
    }
}

/// Mixed into the seed of the boids' own generators.
const BOID_STREAMS: u64 = 0x626f_6964_7300_0002;

/// SplitMix64's finaliser: every bit of the input moves about half the output's.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Default for FlockRng {
    fn default() -> Self {
        Self::new(0)
    }
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;

    #[test]
    fn a_boids_numbers_depend_on_seed_id_step_and_stream_only() {
        let mut rng = FlockRng::new(7);
        let draw =
            |rng: &FlockRng, id, step, stream| rng.for_boid(BoidId(id), step, stream).next_u64();
        let first = draw(&rng, 3, 10, 1);
        // Drawing from the shared generators changes nothing.
        rng.rng().next_u64();
        assert_eq!(draw(&rng, 3, 10, 1), first);
        let others = [
            draw(&rng, 4, 10, 1),
            draw(&rng, 3, 11, 1),
            draw(&rng, 3, 10, 2),
            draw(&FlockRng::new(8), 3, 10, 1),
        ];
        assert!(others.iter().all(|&other| other != first), "{others:x?}");
    }
}
