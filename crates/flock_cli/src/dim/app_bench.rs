//! The plugin's benchmark in this module's dimension: a headless app whose every `update()` is
//! one flock step, and one measurement of it.

use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;

use super::kernel::{FlockConfig, IndexKind};
use super::kernel_bench::bench_config;
use super::plugin::{
    BoidsPlugin, BoundsSource, FlockBuffers, FlockClock, FlockSettings, Placement, spawn_boids,
};
use crate::bench::{AppResult, BenchArgs, median, wants_more_samples};

/// A headless app (MinimalPlugins and the plugin in `FixedUpdate`) with `count` boids, in
/// which every `update()` is exactly one flock step of 1/60 s.
pub fn bench_app(config: FlockConfig, count: usize, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(super::plugin::all_cores_for_compute()))
        .insert_resource(FlockSettings {
            config,
            bounds_source: BoundsSource::Fixed,
            max_boids: count.max(1),
        })
        .add_plugins(BoidsPlugin::default().with_seed(seed))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )));
    app.update();
    spawn_boids(app.world_mut(), count, Placement::RandomInBounds);
    app
}

/// `App::update()` of a flock of `count` in the 32-neighbour benchmark world: medians of the
/// whole update and of the plugin's own index and steer timings.
pub fn measure_app(args: &BenchArgs, count: usize) -> AppResult {
    let config = bench_config(count, 32, IndexKind::Grid);
    let mut app = bench_app(config, count, args.seed);
    for _ in 0..args.warmup {
        app.update();
    }
    let steps_before = app.world().resource::<FlockClock>().steps_taken();
    let (mut steps, mut indexes, mut steers) = (Vec::new(), Vec::new(), Vec::new());
    let started = Instant::now();
    while wants_more_samples(args, steps.len(), started) {
        let begin = Instant::now();
        app.update();
        steps.push(begin.elapsed());
        let timings = app.world().resource::<FlockBuffers>().timings();
        indexes.push(timings.index);
        steers.push(timings.steer);
    }
    let steps_taken = app.world().resource::<FlockClock>().steps_taken() - steps_before;
    assert_eq!(
        steps_taken,
        steps.len() as u64,
        "each update must be exactly one flock step"
    );
    let candidates = app.world().resource::<FlockBuffers>().stats().candidates;
    AppResult {
        update: median(steps),
        index: median(indexes),
        steer: median(steers),
        candidates_per_boid: candidates as f64 / count.max(1) as f64,
    }
}
