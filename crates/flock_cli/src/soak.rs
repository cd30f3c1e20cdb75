//! `flock soak`: a long run that checks, as it goes, that every boid stays finite and in the
//! bounds and none is lost, and that memory stops growing once the flock has warmed up.

use std::time::Instant;

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, TaskPoolBuilder, available_parallelism};
use bevy_flock::{Boid, TaskPoolExecutor, Velocity};
use clap::Args;
use flock_core::{Flock, FlockConfig, IndexKind};

use crate::arguments::{format_count, parse_boid_count, parse_count, parse_threads};
use crate::dim2::app_bench::bench_app;
use crate::dim2::kernel_bench::bench_config;
use crate::memory::{peak_resident_bytes, resident_bytes};

/// Options of `flock soak`.
#[derive(Args, Debug)]
pub struct SoakArgs {
    /// Boids (`2k`, `100k` or a plain number), in a wrapping world sized for 32 neighbours each.
    #[arg(long, value_parser = parse_boid_count)]
    count: usize,
    /// Steps of 1/60 s.
    #[arg(long, value_parser = parse_count)]
    steps: usize,
    /// Run the whole plugin through `App::update()` rather than the kernel's `Flock`.
    #[arg(long)]
    app: bool,
    /// Threads of the compute pool (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Seed of the random flock.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// What one check found.
struct Check {
    boids: usize,
    non_finite: usize,
    outside: usize,
}

/// Runs `flock soak`; fails if a boid was ever non-finite, outside the bounds or lost.
pub fn run(args: &SoakArgs) -> Result<(), String> {
    if args.steps == 0 {
        return Err("--steps 0: must be at least 1".to_string());
    }
    let threads = args.threads.unwrap_or_else(available_parallelism).max(1);
    let pool = ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(threads).build());
    let config = bench_config(args.count, 32, IndexKind::Grid);
    let mut flock = Stepper::new(args, &config);
    // Memory is compared from here: a tenth of the run (at least one step, at most 1,000) lets
    // every buffer reach its size.
    let warm_up = (args.steps / 10).clamp(1, 1_000).min(args.steps);
    // About a hundred checks over the run, each of every boid.
    let every = (args.steps / 100).max(1);
    println!(
        "flock soak: {} boids, {} steps of 1/60 s, {}, {threads} threads; checks every {every} \
         steps, memory compared after {warm_up} warm-up steps",
        format_count(args.count),
        format_count(args.steps),
        if args.app { "App::update()" } else { "kernel" },
    );

    let started = Instant::now();
    let mut warm_rss = 0;
    let mut highest_rss_after_warm_up = 0;
    let mut problems = Vec::new();
    for step in 1..=args.steps {
        flock.step(&config, pool);
        if step == warm_up {
            warm_rss = resident_bytes()?;
        }
        if step % every == 0 || step == args.steps {
            let check = flock.check(&config);
            if check.boids != args.count || check.non_finite > 0 || check.outside > 0 {
                problems.push(format!(
                    "step {step}: {} boids, {} not finite, {} outside the bounds",
                    check.boids, check.non_finite, check.outside
                ));
            }
            if step >= warm_up {
                highest_rss_after_warm_up = highest_rss_after_warm_up.max(resident_bytes()?);
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let end_rss = resident_bytes()?;
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    println!(
        "{:.1} s, {:.0} steps/s; {} checks: {}",
        seconds,
        args.steps as f64 / seconds,
        args.steps / every,
        if problems.is_empty() {
            "every boid finite and in the bounds, none lost"
        } else {
            "PROBLEMS"
        }
    );
    println!(
        "resident memory: {:.1} MiB after warm-up, {:.1} MiB at the end ({:+.2} MiB), \
         {:.1} MiB highest sampled after warm-up, {:.1} MiB peak of the whole run",
        mib(warm_rss),
        mib(end_rss),
        mib(end_rss) - mib(warm_rss),
        mib(highest_rss_after_warm_up),
        mib(peak_resident_bytes()?),
    );
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The flock being soaked: the kernel's buffers, or a headless app with the plugin.
enum Stepper {
    Kernel(Box<Flock>),
    App(Box<App>),
}

impl Stepper {
    fn new(args: &SoakArgs, config: &FlockConfig) -> Self {
        if args.app {
            Self::App(Box::new(bench_app(*config, args.count, args.seed)))
        } else {
            Self::Kernel(Box::new(Flock::random(args.count, config, args.seed)))
        }
    }

    fn step(&mut self, config: &FlockConfig, pool: &'static bevy::tasks::TaskPool) {
        match self {
            Self::Kernel(flock) => {
                flock.step_with(config, 1.0 / 60.0, &TaskPoolExecutor(pool));
            }
            Self::App(app) => app.update(),
        }
    }

    fn check(&mut self, config: &FlockConfig) -> Check {
        let mut check = Check {
            boids: 0,
            non_finite: 0,
            outside: 0,
        };
        let mut visit = |position: Vec2, velocity: Vec2| {
            check.boids += 1;
            if !(position.is_finite() && velocity.is_finite()) {
                check.non_finite += 1;
            } else if !config.bounds.contains(position) {
                check.outside += 1;
            }
        };
        match self {
            Self::Kernel(flock) => {
                for (p, v) in flock.positions().iter().zip(flock.velocities()) {
                    visit(*p, *v);
                }
            }
            Self::App(app) => {
                let world = app.world_mut();
                let mut boids = world.query_filtered::<(&Transform, &Velocity), With<Boid>>();
                for (transform, velocity) in boids.iter(world) {
                    visit(transform.translation.truncate(), velocity.0);
                }
            }
        }
        check
    }
}
