//! What the 3D tests share: random states in a box, and forces through every index.

#![allow(dead_code)]

use flock_core3d::{
    AnyIndex, Bounds, Executor, FlockConfig, IndexKind, NeighbourIndex, NeighbourStats, RuleForces,
    Serial, StepConstants, Vector, random_direction, random_point, rule_forces,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Positions and velocities of a flock.
#[derive(Clone, Debug)]
pub struct State {
    pub positions: Vec<Vector>,
    pub velocities: Vec<Vector>,
}

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

/// An index of `kind` built over the state, and the step's constants.
pub fn built_index(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
) -> (AnyIndex, StepConstants) {
    let constants = StepConstants::new(config);
    let mut index = AnyIndex::new(kind);
    index.rebuild(
        &state.positions,
        &constants.space,
        constants.query_radius,
        &Serial,
    );
    (index, constants)
}

/// Every boid's rule forces (and neighbour count) from the candidates of an index of `kind`.
pub fn forces_with(kind: IndexKind, config: &FlockConfig, state: &State) -> Vec<RuleForces> {
    let (index, constants) = built_index(kind, config, state);
    let mut candidates = Vec::new();
    (0..state.positions.len())
        .map(|me| {
            index.candidates(state.positions[me], constants.query_radius, &mut candidates);
            rule_forces(
                me,
                &state.positions,
                &state.velocities,
                &candidates,
                &constants,
            )
        })
        .collect()
}

/// The largest weighted force a boid can feel: every rule at max force.
pub fn weighted_force_scale(config: &FlockConfig) -> f32 {
    let weights = config.weights;
    config.max_force * (weights.separation.abs() + weights.alignment.abs() + weights.cohesion.abs())
}

/// Every boid's weighted force through the full path of an index of `kind` (the grid's
/// vectorised one for the grid).
pub fn weighted_forces(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
    executor: &impl Executor,
) -> (Vec<Vector>, NeighbourStats) {
    let (mut index, constants) = built_index(kind, config, state);
    let weights = vec![config.weights; state.positions.len()];
    let mut forces = vec![Vector::NAN; state.positions.len()];
    let stats = index.compute_forces(
        &constants,
        &state.positions,
        &state.velocities,
        &weights,
        &mut forces,
        executor,
    );
    (forces, stats)
}
