//! `flock crowd-bench`: steps per second of `App::update()` with every boid avoiding the others
//! by ORCA (`Orca`), against the same flock with unaligned collision avoidance
//! (`AvoidCollisions`), in one run.

use clap::Args;

use crate::bench::{parse_boid_count, parse_dims};

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
}

/// Runs `flock crowd-bench`: one table row per dimension and size.
pub fn run(args: &CrowdBenchArgs) -> Result<(), String> {
    if args.samples == 0 {
        return Err("--samples: at least one".to_string());
    }
    let threads = bevy::tasks::available_parallelism();
    println!(
        "App::update() on {threads} threads, medians of {} updates",
        args.samples
    );
    println!("| dims | boids | ORCA steps/s | AvoidCollisions steps/s | ratio |");
    println!("|---|---|---|---|---|");
    for &dims in &args.dims {
        for &count in &args.counts {
            let measure = |avoidance| {
                if dims == 3 {
                    crate::dim3::crowd_bench::measure(count, avoidance, args.warmup, args.samples)
                } else {
                    crate::dim2::crowd_bench::measure(count, avoidance, args.warmup, args.samples)
                }
            };
            let orca = measure(Avoidance::Orca).as_secs_f64();
            let reynolds = measure(Avoidance::AvoidCollisions).as_secs_f64();
            println!(
                "| {dims} | {count} | {:.1} | {:.1} | {:.2} |",
                1.0 / orca,
                1.0 / reynolds,
                orca / reynolds
            );
        }
    }
    Ok(())
}
