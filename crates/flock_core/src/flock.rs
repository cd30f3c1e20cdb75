//! A whole flock in contiguous buffers, stepped by the kernel: for the command line, benchmarks
//! and tests. The Bevy plugin runs the same functions on buffers copied out of the ECS.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::config::{FlockConfig, RuleWeights};
use crate::edges::apply_edge;
use crate::index::{AnyIndex, NeighbourIndex};
use crate::integrate::integrate;
use crate::math::{Vector, random_direction, random_point};
use crate::parallel::{Executor, Serial, chunk_len_for};
use crate::rules::{ForceInputs, NeighbourStats, StepConstants};
use crate::space::Space;

/// Positions, velocities and weights of a flock (structure of arrays) plus the reusable
/// buffers one step needs.
#[derive(Debug, Default)]
pub struct Flock {
    positions: Vec<Vector>,
    velocities: Vec<Vector>,
    weights: Vec<RuleWeights>,
    forces: Vec<Vector>,
    index: AnyIndex,
}

impl Flock {
    /// A flock from positions and velocities, every boid with the config's default weights.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn new(positions: Vec<Vector>, velocities: Vec<Vector>, config: &FlockConfig) -> Self {
        assert_eq!(positions.len(), velocities.len(), "one velocity per boid");
        let count = positions.len();
        Self {
            positions,
            velocities,
            weights: vec![config.weights; count],
            forces: vec![Vector::ZERO; count],
            index: AnyIndex::new(config.index),
        }
    }

    /// `count` boids placed uniformly in the bounds with random headings (uniform over the
    /// circle, or the sphere in 3D) at max speed, from
    /// `seed`: the same seed gives the same flock.
    pub fn random(count: usize, config: &FlockConfig, seed: u64) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let bounds = config.bounds;
        let (positions, velocities) = (0..count)
            .map(|_| {
                let position = random_point(&bounds, &mut rng);
                (position, random_direction(&mut rng) * config.max_speed)
            })
            .unzip();
        Self::new(positions, velocities, config)
    }

    /// The boids' positions.
    pub fn positions(&self) -> &[Vector] {
        &self.positions
    }

    /// The boids' velocities.
    pub fn velocities(&self) -> &[Vector] {
        &self.velocities
    }

    /// The flocking forces of the last step (before division by mass).
    pub fn forces(&self) -> &[Vector] {
        &self.forces
    }

    /// The per-boid rule weights, to change a boid's mix.
    pub fn weights_mut(&mut self) -> &mut [RuleWeights] {
        &mut self.weights
    }

    /// A 64-bit hash of the positions and velocities, cheap enough to exchange every tick in a
    /// lockstep game: equal on every machine that runs the same steps with the same binary
    /// (see [`crate::lockstep`]).
    pub fn state_hash(&self) -> u64 {
        crate::lockstep::state_hash(&self.positions, &self.velocities)
    }

    /// How many boids there are.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are no boids.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// One synchronous step of `dt` seconds on the calling thread: every force from the same
    /// snapshot, then integration, then edges.
    pub fn step(&mut self, config: &FlockConfig, dt: f32) -> NeighbourStats {
        self.step_with(config, dt, &Serial)
    }

    /// [`Flock::step`], with the force computation split over `executor`'s threads. The result
    /// is the same bit for bit whatever the number of threads.
    pub fn step_with(
        &mut self,
        config: &FlockConfig,
        dt: f32,
        executor: &impl Executor,
    ) -> NeighbourStats {
        self.rebuild_index(config, executor);
        let stats = self.compute_forces(config, executor);
        self.move_boids(config, dt, executor);
        stats
    }

    /// The first part of a step: rebuilds the neighbour index over the current positions.
    pub fn rebuild_index(&mut self, config: &FlockConfig, executor: &impl Executor) {
        self.index.set_kind(config.index);
        self.index.rebuild(
            &self.positions,
            &Space::of(config),
            config.max_radius(),
            executor,
        );
    }

    /// The second part: every boid's force from the current state, through the index built by
    /// [`Flock::rebuild_index`].
    pub fn compute_forces(
        &mut self,
        config: &FlockConfig,
        executor: &impl Executor,
    ) -> NeighbourStats {
        let constants = StepConstants::new(config);
        let inputs = ForceInputs::new(&constants, &self.positions, &self.velocities, &self.weights);
        self.index
            .compute_forces(inputs, &mut self.forces, executor)
    }

    /// The last part: integration with the forces of [`Flock::compute_forces`], then edges.
    /// A `dt` that is negative or not finite counts as zero: it would otherwise turn every
    /// position into NaN (or run time backwards).
    pub fn move_boids(&mut self, config: &FlockConfig, dt: f32, executor: &impl Executor) {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        let forces = &self.forces;
        let chunk_len = chunk_len_for(self.positions.len(), executor.threads());
        executor.for_each_chunk_pair(
            &mut self.positions,
            &mut self.velocities,
            chunk_len,
            |start, positions, velocities| {
                for ((position, velocity), force) in positions
                    .iter_mut()
                    .zip(velocities.iter_mut())
                    .zip(&forces[start..])
                {
                    integrate(config, dt, position, velocity, *force / config.mass);
                    apply_edge(config.edges, &config.bounds, position, velocity);
                }
            },
        );
    }
}
