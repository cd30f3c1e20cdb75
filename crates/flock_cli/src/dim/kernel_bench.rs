//! The kernel's benchmark in this module's dimension: the world, and one measurement of
//! `Flock` stepped on a task pool.

use std::time::Instant;

use bevy::tasks::TaskPool;

use super::PoolExecutor;
use super::kernel::{
    Bounds, DIMENSIONS, EdgeMode, Flock, FlockConfig, IndexKind, NeighbourStats, Vector,
};
use crate::bench::{BenchArgs, KernelResult, median, wants_more_samples};

/// The benchmark world: Processing's radii (separation 25, alignment and cohesion 50) in a
/// square (cube in 3D) wrapping world whose density gives `neighbours` boids within 50 of each
/// boid on average, neighbours found across the seams.
pub fn bench_config(count: usize, neighbours: u32, index: IndexKind) -> FlockConfig {
    let config = FlockConfig::processing();
    let reach = config.max_radius();
    let per_neighbour = count as f32 / neighbours.max(1) as f32;
    let side = if DIMENSIONS == 2 {
        // Area per boid times boids: a disc of `reach` holds `neighbours` on average.
        (per_neighbour * std::f32::consts::PI * reach * reach).sqrt()
    } else {
        // The same with a ball.
        (per_neighbour * 4.0 / 3.0 * std::f32::consts::PI * reach.powi(3)).cbrt()
    };
    FlockConfig {
        bounds: Bounds::centered(Vector::splat(side)),
        edges: EdgeMode::Wrap,
        wrap_neighbours: true,
        index,
        ..config
    }
}

/// Steps a random flock of `count` in [`bench_config`]'s world on `pool`, timing the index
/// build, the steering and the whole step.
pub fn measure_kernel(
    args: &BenchArgs,
    pool: &TaskPool,
    count: usize,
    neighbours: u32,
    index: IndexKind,
) -> KernelResult {
    let config = bench_config(count, neighbours, index);
    let executor = PoolExecutor(pool);
    let mut flock = Flock::random(count, &config, args.seed);
    for _ in 0..args.warmup {
        flock.step_with(&config, 1.0 / 60.0, &executor);
    }
    let (mut builds, mut steers, mut steps) = (Vec::new(), Vec::new(), Vec::new());
    let mut stats = NeighbourStats::default();
    let started = Instant::now();
    while wants_more_samples(args, steps.len(), started) {
        let begin = Instant::now();
        flock.rebuild_index(&config, &executor);
        let built = Instant::now();
        stats = flock.compute_forces(&config, &executor);
        let steered = Instant::now();
        flock.move_boids(&config, 1.0 / 60.0, &executor);
        builds.push(built - begin);
        steers.push(steered - built);
        steps.push(begin.elapsed());
    }
    KernelResult {
        build: median(builds),
        steer: median(steers),
        step: median(steps),
        neighbours_per_boid: stats.neighbours as f64 / count.max(1) as f64,
        candidates_per_boid: stats.candidates as f64 / count.max(1) as f64,
    }
}

/// Builds a flock of `count` in the 32-neighbour world and steps it a few times: for the
/// memory probe.
pub fn run_for_memory(pool: &TaskPool, count: usize, seed: u64, steps: usize) {
    let config = bench_config(count, 32, IndexKind::Grid);
    let mut flock = Flock::random(count, &config, seed);
    for _ in 0..steps {
        flock.step_with(&config, 1.0 / 60.0, &PoolExecutor(pool));
    }
}
