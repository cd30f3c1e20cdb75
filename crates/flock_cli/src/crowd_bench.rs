//! `flock crowd-bench`: steps per second of `App::update()` with every boid avoiding the others
//! by ORCA (`Orca`), against the same flock with unaligned collision avoidance
//! (`AvoidCollisions`), and with that avoidance time-sliced (`TimeSlicing`), in one run.

use clap::Args;

use crate::arguments::{parse_boid_count, parse_dims};

/// How every boid of the benchmark avoids the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Avoidance {
    /// `Orca`.
    Orca,
    /// `AvoidCollisions`.
    AvoidCollisions,
}

/// Options of `flock crowd-bench`.
#[derive(Args, Debug)]
pub struct CrowdBenchArgs {
    /// Dimensions: 2, 3 or both (`2,3`).
    #[arg(long, value_delimiter = ',', default_value = "2,3", value_parser = parse_dims)]
    dims: Vec<usize>,
    /// Flock sizes.
    #[arg(long, value_delimiter = ',', default_value = "1k,10k,100k", value_parser = parse_boid_count)]
    counts: Vec<usize>,
    /// Updates before measuring.
    #[arg(long, default_value_t = 5)]
    warmup: usize,
    /// Updates measured (the median is reported).
    #[arg(long, default_value_t = 15)]
    samples: usize,
    /// The sliced column: collision avoidance worked out one step in this many (`TimeSlicing`
    /// with no focus, so every boid is sliced).
    #[arg(long, default_value_t = 4)]
    slicing: u32,
    /// Only the ORCA column (at 100k boids each AvoidCollisions column takes minutes); the
    /// others are printed as `-`.
    #[arg(long)]
    orca_only: bool,
}

/// Runs `flock crowd-bench`: one table row per dimension and size.
pub fn run(args: &CrowdBenchArgs) -> Result<(), String> {
    if args.samples == 0 {
        return Err("--samples: at least one".to_string());
    }
    if !bevy_flock::TimeSlicing::new(args.slicing, 0.0).is_valid() {
        return Err(format!(
            "--slicing: 1 to {}, not {}",
            bevy_flock::TimeSlicing::MAX_EVERY,
            args.slicing
        ));
    }
    let every = args.slicing;
    let threads = bevy::tasks::available_parallelism();
    println!(
        "App::update() on {threads} threads, medians of {} updates",
        args.samples
    );
    println!(
        "| dims | boids | ORCA steps/s | AvoidCollisions steps/s | ratio | AvoidCollisions, 1 \
         step in {every}, steps/s |"
    );
    println!("|---|---|---|---|---|---|");
    for &dims in &args.dims {
        for &count in &args.counts {
            let measure = |avoidance, every| {
                let (warmup, samples) = (args.warmup, args.samples);
                if dims == 3 {
                    crate::dim3::crowd_bench::measure(count, avoidance, every, warmup, samples)
                } else {
                    crate::dim2::crowd_bench::measure(count, avoidance, every, warmup, samples)
                }
            };
            let orca = measure(Avoidance::Orca, 1).as_secs_f64();
            let others = if args.orca_only {
                "- | - | -".to_string()
            } else {
                let reynolds = measure(Avoidance::AvoidCollisions, 1).as_secs_f64();
                let sliced = measure(Avoidance::AvoidCollisions, every).as_secs_f64();
                format!(
                    "{:.1} | {:.2} | {:.1}",
                    1.0 / reynolds,
                    orca / reynolds,
                    1.0 / sliced
                )
            };
            println!("| {dims} | {count} | {:.1} | {others} |", 1.0 / orca);
        }
    }
    Ok(())
}
