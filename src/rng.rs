//! The flock's random number generators, seeded so a run can be replayed.

use std::convert::Infallible;

use bevy::prelude::*;
use flock_core::lockstep::mix;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{SeedableRng, TryRng};

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
    rng: SimulationRng,
    looks: SimulationRng,
}

/// Mixed into the seed of the looks' generator, so its stream is not the simulation's.
const LOOKS_STREAM: u64 = 0x6c6f_6f6b_7300_0001;

impl FlockRng {
    /// Generators started from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            rng: SimulationRng::seed_from_u64(seed),
            looks: SimulationRng::seed_from_u64(seed ^ LOOKS_STREAM),
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
    pub fn rng(&mut self) -> &mut SimulationRng {
        &mut self.rng
    }

    /// A generator of boid `id`'s own for step `step`, one of its `stream`s (one per behaviour
    /// that draws), the same whatever else has been drawn.
    pub fn for_boid(&self, id: BoidId, step: u64, stream: u64) -> Xoshiro256PlusPlus {
        let key = mix(mix(mix(self.seed ^ BOID_STREAMS) ^ id.0) ^ step) ^ stream;
        Xoshiro256PlusPlus::seed_from_u64(mix(key))
    }

    /// The generator for looks (a boid's hue): drawing from it never changes the flight.
    pub fn looks(&mut self) -> &mut SimulationRng {
        &mut self.looks
    }

    /// Everything the generators will draw from here on: what a saved simulation keeps.
    pub fn state(&self) -> FlockRngState {
        FlockRngState {
            seed: self.seed,
            simulation: self.rng.state(),
            looks: self.looks.state(),
        }
    }

    /// The generators exactly as they were when `state` was taken.
    pub fn from_state(state: FlockRngState) -> Self {
        Self {
            seed: state.seed,
            rng: SimulationRng::from_state(state.simulation),
            looks: SimulationRng::from_state(state.looks),
        }
    }
}

/// [`FlockRng`]'s whole state, to save and restore a simulation exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FlockRngState {
    /// The seed the generators started from.
    pub seed: u64,
    /// The simulation's generator.
    pub simulation: [u64; 4],
    /// The looks' generator.
    pub looks: [u64; 4],
}

/// xoshiro256++ (Blackman and Vigna), the same numbers as `rand`'s `Xoshiro256PlusPlus` from
/// the same seed, with its state open to be saved and restored (a lockstep snapshot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulationRng {
    s: [u64; 4],
}

impl SimulationRng {
    /// A generator seeded from `seed` as `Xoshiro256PlusPlus::seed_from_u64` does: four
    /// SplitMix64 outputs (never all zero).
    pub fn seed_from_u64(mut seed: u64) -> Self {
        let mut s = [0; 4];
        for word in &mut s {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            *word = z ^ (z >> 31);
        }
        Self { s }
    }

    /// The four words of state.
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// The generator with state `s`; an all-zero state (which xoshiro never leaves) becomes
    /// the seed 0's.
    pub fn from_state(s: [u64; 4]) -> Self {
        if s == [0; 4] {
            return Self::seed_from_u64(0);
        }
        Self { s }
    }
}

impl TryRng for SimulationRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        // The upper bits, as the reference does: the lowest have linear dependencies.
        self.try_next_u64().map(|value| (value >> 32) as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        Ok(result)
    }

    fn try_fill_bytes(&mut self, bytes: &mut [u8]) -> Result<(), Infallible> {
        for chunk in bytes.chunks_mut(8) {
            let word = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

/// Mixed into the seed of the boids' own generators.
const BOID_STREAMS: u64 = 0x626f_6964_7300_0002;

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
    fn the_simulation_generator_draws_rands_xoshiro256_plus_plus_numbers() {
        for seed in [0, 1, 42, u64::MAX] {
            let mut ours = SimulationRng::seed_from_u64(seed);
            let mut theirs = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..100 {
                assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
            }
            assert_eq!(ours.next_u32(), theirs.next_u32(), "seed {seed}");
        }
    }

    #[test]
    fn a_generator_restored_from_its_state_draws_what_the_original_would() {
        let mut rng = FlockRng::new(9);
        rng.rng().next_u64();
        rng.looks().next_u64();
        let mut restored = FlockRng::from_state(rng.state());
        for _ in 0..10 {
            assert_eq!(restored.rng().next_u64(), rng.rng().next_u64());
            assert_eq!(restored.looks().next_u64(), rng.looks().next_u64());
        }
        assert_eq!(restored.seed(), 9);
        let zero = SimulationRng::from_state([0; 4]);
        assert_ne!(
            zero.state(),
            [0; 4],
            "an all-zero state would draw zeros forever"
        );
    }

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
