//! Replay: the same seed and settings give a bit-identical flock after 1,000 steps, in separate
//! runs and with one compute thread or two; and the plugin's systems have no ambiguous order.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use bevy::app::{ScheduleRunnerPlugin, TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy_flock::prelude::*;
use common::{BoidState, boid_states, create_app, create_app_with, spawn, state_bits, step};

const STEPS: usize = 1_000;
/// Enough boids that the steering is split into different chunks for two and three executor
/// threads (chunks are at least 256 boids, eight per thread), in a world roomy enough for
/// ordinary neighbour counts.
const BOIDS: usize = 8_000;

fn settings() -> FlockSettings {
    FlockSettings {
        config: FlockConfig {
            bounds: bevy_flock::flock_core::Bounds::centered(Vec2::new(4000.0, 2500.0)),
            ..FlockConfig::default()
        },
        ..default()
    }
}

/// The run every process does: `BOIDS` boids from `seed`, `STEPS` steps.
fn run(app: &mut App) -> Vec<BoidState> {
    spawn(app, BOIDS, Placement::RandomInBounds);
    step(app, STEPS);
    boid_states(app)
}

/// Bevy's compute pool is one per process, sized once, so each thread count needs its own
/// process: the test binary runs itself, filtered to `child_run`, with the thread count in
/// this variable, and reads back the state it writes.
const CHILD_THREADS: &str = "FLOCK_DETERMINISM_THREADS";
const CHILD_OUTPUT: &str = "FLOCK_DETERMINISM_OUTPUT";

#[test]
#[ignore = "a child of one_thread_or_two_and_separate_runs_give_the_same_bits; runs there"]
fn child_run() {
    let threads: usize = std::env::var(CHILD_THREADS)
        .expect("run by the determinism test")
        .parse()
        .unwrap();
    let output = PathBuf::from(std::env::var_os(CHILD_OUTPUT).unwrap());
    let mut pools = TaskPoolPlugin::default();
    pools.task_pool_options.compute = TaskPoolThreadAssignmentPolicy {
        min_threads: threads,
        max_threads: threads,
        percent: 1.0,
        on_thread_spawn: None,
        on_thread_destroy: None,
    };
    let mut app = create_app_with(MinimalPlugins.set(pools), settings(), 7);
    assert_eq!(ComputeTaskPool::get().thread_num(), threads);
    let bits = state_bits(&run(&mut app));
    let text: String = bits
        .iter()
        .map(|bits| {
            let words: Vec<String> = bits.iter().map(|word| format!("{word:08x}")).collect();
            words.join(" ") + "\n"
        })
        .collect();
    std::fs::write(output, text).unwrap();
}

/// Runs `child_run` in a new process with `threads` compute threads; its state as text.
fn state_from_child(threads: usize, output: &Path) -> String {
    let run = Command::new(std::env::current_exe().unwrap())
        .args(["child_run", "--exact", "--ignored", "--test-threads=1"])
        .env(CHILD_THREADS, threads.to_string())
        .env(CHILD_OUTPUT, output)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "the child with {threads} threads failed: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(output).unwrap()
}

#[test]
fn one_thread_or_two_and_separate_runs_give_the_same_bits() {
    let dir = std::env::temp_dir().join(format!("flock-determinism-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = state_from_child(1, &dir.join("one.txt"));
    let one_again = state_from_child(1, &dir.join("one-again.txt"));
    let two = state_from_child(2, &dir.join("two.txt"));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(one.lines().count(), BOIDS);
    assert!(one == one_again, "two runs with one thread differ");
    assert!(one == two, "one thread and two threads differ");
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
