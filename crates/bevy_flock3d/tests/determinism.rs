//! Replay in 3D: the same seed and settings give a bit-identical flock, in separate runs and
//! with one compute thread or two (each in its own process, as Bevy's compute pool is sized
//! once per process).

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use bevy::app::{TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy_flock3d::prelude::*;
use common::{BoidState, boid_states, create_app, create_app_with, spawn, state_bits, step};

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

const CHILD_THREADS: &str = "FLOCK3D_DETERMINISM_THREADS";
const CHILD_OUTPUT: &str = "FLOCK3D_DETERMINISM_OUTPUT";

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
    let text: String = state_bits(&run(&mut app))
        .iter()
        .map(|bits| {
            let words: Vec<String> = bits.iter().map(|b| format!("{b:08x}")).collect();
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
    let dir = std::env::temp_dir().join(format!("flock3d-determinism-{}", std::process::id()));
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
