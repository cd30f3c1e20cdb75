//! Replays in separate processes: Bevy's compute pool is one per process, sized once, so each
//! thread count needs its own process. A test binary runs itself, filtered to its ignored
//! `child_run` test, with the thread count in an environment variable, and reads back the
//! state the child writes.

use std::path::{Path, PathBuf};
use std::process::Command;

use bevy::app::{TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::prelude::*;
use bevy::tasks::ComputeTaskPool;
use bevy_flock::prelude::*;

use super::{BoidState, create_app_with, state_bits};

const CHILD_THREADS: &str = "FLOCK_DETERMINISM_THREADS";
const CHILD_OUTPUT: &str = "FLOCK_DETERMINISM_OUTPUT";

/// The body of a test file's ignored `child_run` test: an app of `settings` and `seed` on the
/// compute threads its parent asked for, `run` on it, and the state's bits written as text
/// where the parent reads them.
pub fn child_run(settings: FlockSettings, seed: u64, run: impl FnOnce(&mut App) -> Vec<BoidState>) {
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
    let mut app = create_app_with(MinimalPlugins.set(pools), settings, seed);
    assert_eq!(ComputeTaskPool::get().thread_num(), threads);
    let text: String = state_bits(&run(&mut app))
        .iter()
        .map(|bits| {
            let words: Vec<String> = bits.iter().map(|word| format!("{word:08x}")).collect();
            words.join(" ") + "\n"
        })
        .collect();
    std::fs::write(output, text).unwrap();
}

/// Runs this binary's `child_run` in a new process with `threads` compute threads; its state
/// as text.
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

/// Two runs with one compute thread and one with two, each in its own process, end in the same
/// bits, for all `boids` boids.
pub fn assert_one_thread_or_two_give_the_same_bits(boids: usize) {
    let dir = std::env::temp_dir().join(format!("flock-determinism-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = state_from_child(1, &dir.join("one.txt"));
    let one_again = state_from_child(1, &dir.join("one-again.txt"));
    let two = state_from_child(2, &dir.join("two.txt"));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(one.lines().count(), boids);
    assert!(one == one_again, "two runs with one thread differ");
    assert!(one == two, "one thread and two threads differ");
}
