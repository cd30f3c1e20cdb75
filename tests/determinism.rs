//! Replay: the same seed and settings give a bit-identical flock after 1,000 steps, in separate
//! runs and with one compute thread or two (each in its own process, as Bevy's compute pool is
//! sized once per process); and the plugin's systems have no ambiguous order. `bevy_flock3d`
//! runs the same cases in 3D (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::app::ScheduleRunnerPlugin;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy_flock::prelude::*;
use common::{BoidState, boid_states, create_app, replay, roomy_settings, spawn, state_bits, step};

const STEPS: usize = 1_000;
/// Enough boids that the steering is split into different chunks for two and three executor
/// threads (chunks are at least 256 boids, eight per thread).
const BOIDS: usize = 8_000;

/// The run every process does: `BOIDS` boids, `STEPS` steps, with wanderers among the flock so
/// the random generator's draws count too.
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
    replay::child_run(roomy_settings(), 7, run);
}

#[test]
fn one_thread_or_two_and_separate_runs_give_the_same_bits() {
    replay::assert_one_thread_or_two_give_the_same_bits(BOIDS);
}

#[test]
fn a_different_seed_gives_a_different_flock() {
    // The comparisons above would pass trivially if the state did not depend on the seed.
    let mut first = create_app(roomy_settings(), 7);
    let mut other = create_app(roomy_settings(), 8);
    for app in [&mut first, &mut other] {
        spawn(app, 100, Placement::RandomInBounds);
        step(app, 10);
    }
    assert_ne!(
        state_bits(&boid_states(&mut first)),
        state_bits(&boid_states(&mut other))
    );
}

/// How many pairs of systems in `label`'s schedule touch the same data with no order between
/// them (after the first `update`, which builds the schedules).
fn ambiguity_count(app: &mut App, label: impl ScheduleLabel + Clone) -> usize {
    let world = app.world_mut();
    let Some(mut schedule) = world.resource_mut::<Schedules>().remove(label.clone()) else {
        return 0;
    };
    schedule.initialize(world).unwrap();
    let count = schedule.graph().conflicting_systems().len();
    world.resource_mut::<Schedules>().insert(schedule);
    count
}

fn headless_app(with_plugin: bool) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.build().disable::<ScheduleRunnerPlugin>());
    if with_plugin {
        app.add_plugins(BoidsPlugin::default());
    }
    app.finish();
    app
}

#[test]
fn the_plugin_adds_no_ambiguous_system_order() {
    // Bevy's own systems may be ambiguous among themselves, so the plugin's are measured as
    // the difference from the same app without it. (This Bevy build has no `debug` feature,
    // so system names are not available to list the pairs.) Update holds the camera, cursor,
    // click and prefab systems; FixedUpdate the flock's step.
    let mut bare = headless_app(false);
    let mut with_flock = headless_app(true);
    for label in [FixedUpdate.intern(), Update.intern()] {
        let added = ambiguity_count(&mut with_flock, label) - ambiguity_count(&mut bare, label);
        assert_eq!(
            added, 0,
            "{label:?}: the plugin adds {added} ambiguous pairs"
        );
    }
}
