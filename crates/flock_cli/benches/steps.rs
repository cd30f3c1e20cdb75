//! `cargo bench -p flock_cli`: one flock step of the kernel per index, and one
//! `App::update()` of the whole plugin, at a few sizes (32 neighbours, the scenario of
//! `flock bench`), for tracking regressions. `flock bench` prints the full table.

use bevy::tasks::{ComputeTaskPool, TaskPoolBuilder};
use bevy_flock::TaskPoolExecutor;
use divan::Bencher;
use flock_cli::dim2::app_bench::bench_app;
use flock_cli::dim2::kernel_bench::bench_config;
use flock_core::{Flock, IndexKind};

fn main() {
    // One compute pool per core, shared by the kernel benches and the apps.
    ComputeTaskPool::get_or_init(|| {
        TaskPoolBuilder::new()
            .num_threads(bevy::tasks::available_parallelism())
            .build()
    });
    divan::main();
}

const NEIGHBOURS: u32 = 32;

fn kernel_step(bencher: Bencher, count: usize, index: IndexKind) {
    let config = bench_config(count, NEIGHBOURS, index);
    let executor = TaskPoolExecutor(ComputeTaskPool::get());
    let mut flock = Flock::random(count, &config, 1);
    bencher.bench_local(|| flock.step_with(&config, 1.0 / 60.0, &executor));
}

#[divan::bench(args = [10_000, 100_000])]
fn grid(bencher: Bencher, count: usize) {
    kernel_step(bencher, count, IndexKind::Grid);
}

#[divan::bench(args = [10_000, 100_000])]
fn kd_tree(bencher: Bencher, count: usize) {
    kernel_step(bencher, count, IndexKind::KdTree);
}

#[divan::bench(args = [2_000, 10_000], sample_count = 10)]
fn brute_force(bencher: Bencher, count: usize) {
    kernel_step(bencher, count, IndexKind::BruteForce);
}

#[divan::bench(args = [10_000, 100_000])]
fn app_update(bencher: Bencher, count: usize) {
    let mut app = bench_app(bench_config(count, NEIGHBOURS, IndexKind::Grid), count, 1);
    bencher.bench_local(|| app.update());
}
