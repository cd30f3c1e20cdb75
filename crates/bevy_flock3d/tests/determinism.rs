//! Replay in 3D: the same seed and settings give a bit-identical flock, in separate runs and
//! with one compute thread or two (each in its own process, as Bevy's compute pool is sized
//! once per process).

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock3d::prelude::*;
use common::{BoidState, boid_states, create_app, replay, spawn, state_bits, step};

const STEPS: usize = 300;
/// Enough boids that two threads split the steering into different chunks than one.
const BOIDS: usize = 4_000;

fn settings() -> FlockSettings {
    FlockSettings {
        config: FlockConfig {
            bounds: bevy_flock3d::flock_core::Bounds::centered(Vec3::new(1200.0, 800.0, 800.0)),
            ..FlockConfig::default()
        },
        ..default()
    }
}

/// The run every process does: wanderers among a flock, so the RNG's draws count too.
fn run(app: &mut App) -> Vec<BoidState> {
    let boids = spawn(app, BOIDS, Placement::RandomInBounds);
    for &boid in boids.iter().step_by(10) {
        app.world_mut().entity_mut(boid).insert(Wander {
            weight: 0.2,
            ..default()
        });
    }
    step(app, STEPS);
    boid_states(app)
}

#[test]
#[ignore = "a child of one_thread_or_two_and_separate_runs_give_the_same_bits; runs there"]
fn child_run() {
    replay::child_run(settings(), 7, run);
}

#[test]
fn one_thread_or_two_and_separate_runs_give_the_same_bits() {
    replay::assert_one_thread_or_two_give_the_same_bits(BOIDS);
}

#[test]
fn a_different_seed_gives_a_different_flock() {
    // The comparisons above would pass trivially if the state did not depend on the seed.
    let mut first = create_app(settings(), 7);
    let mut other = create_app(settings(), 8);
    for app in [&mut first, &mut other] {
        spawn(app, 100, Placement::RandomInBounds);
        step(app, 10);
    }
    assert_ne!(
        state_bits(&boid_states(&mut first)),
        state_bits(&boid_states(&mut other))
    );
}
