//! `flock nav-bench`: a crowd finding its way through a level of rooms and doors on the
//! navigation mesh (`Destination`) with ORCA, through `App::update()`: the mesh's build, path
//! queries per second, steps per second, and how long the crowd takes to cross against the
//! straight-line bound.

use clap::Args;

use crate::arguments::{parse_boid_count, parse_dims};

/// Options of `flock nav-bench`.
#[derive(Args, Debug)]
pub struct NavBenchArgs {
    /// Dimensions: 2, 3 or both (`2,3`).
    #[arg(long, value_delimiter = ',', default_value = "2,3", value_parser = parse_dims)]
    dims: Vec<usize>,
    /// Crowd sizes (the level grows with the crowd, so the density stays the same).
    #[arg(long, value_delimiter = ',', default_value = "1k,10k", value_parser = parse_boid_count)]
    counts: Vec<usize>,
    /// Updates measured (the median is reported), after the first (which plans every agent).
    #[arg(long, default_value_t = 30)]
    samples: usize,
    /// Path queries timed on the level's mesh.
    #[arg(long, default_value_t = 20_000)]
    queries: usize,
    /// Also step until the whole crowd has arrived (at most this many simulated seconds) and
    /// give its crossing time against the straight-line bound; 0 leaves it out.
    #[arg(long, default_value_t = 0.0)]
    cross: f32,
}

/// What one crowd measured.
pub struct NavResult {
    /// Polygons of the level's mesh and seconds to build it.
    pub polygons: usize,
    pub build: f64,
    /// Path queries per second on the mesh (one thread).
    pub queries_per_second: f64,
    /// The first update (every agent plans) and the median update after it, seconds.
    pub first_update: f64,
    pub update: f64,
    /// The crossing, when asked for.
    pub crossing: Option<Crossing>,
}

/// How the crowd crossed its level.
pub struct Crossing {
    /// Simulated seconds until 95 % of the agents had arrived, and until all had.
    pub most: Option<f32>,
    pub all: Option<f32>,
    /// How many had arrived when it stopped.
    pub arrived: usize,
    /// The straight-line bound: the farthest agent's straight walk at top speed, seconds.
    pub bound: f32,
}

/// Runs `flock nav-bench`: one table row per dimension and size.
pub fn run(args: &NavBenchArgs) -> Result<(), String> {
    if args.samples == 0 || args.queries == 0 {
        return Err("--samples and --queries: at least one".to_string());
    }
    if !(args.cross.is_finite() && (0.0..=3600.0).contains(&args.cross)) {
        return Err(format!("--cross: 0 to 3600 seconds, not {}", args.cross));
    }
    let threads = bevy::tasks::available_parallelism();
    println!(
        "App::update() on {threads} threads, medians of {} updates; path queries on one thread",
        args.samples
    );
    println!(
        "| dims | agents | mesh polygons | mesh build ms | path queries/s | first update ms \
         | steps/s | 95 % arrived s | all arrived s | straight-line bound s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for &dims in &args.dims {
        for &count in &args.counts {
            let result = if dims == 3 {
                crate::dim3::nav_bench::measure(count, args.samples, args.queries, args.cross)
            } else {
                crate::dim2::nav_bench::measure(count, args.samples, args.queries, args.cross)
            };
            let seconds = |time: Option<f32>| time.map_or("-".to_string(), |t| format!("{t:.1}"));
            let (most, all, bound) = match &result.crossing {
                Some(crossing) => (
                    seconds(crossing.most),
                    crossing.all.map_or_else(
                        || format!("{} of {count} by {}", crossing.arrived, args.cross),
                        |t| format!("{t:.1}"),
                    ),
                    format!("{:.1}", crossing.bound),
                ),
                None => ("-".to_string(), "-".to_string(), "-".to_string()),
            };
            println!(
                "| {dims} | {count} | {} | {:.1} | {:.0} | {:.1} | {:.1} | {most} | {all} | {bound} |",
                result.polygons,
                result.build * 1e3,
                result.queries_per_second,
                result.first_update * 1e3,
                1.0 / result.update,
            );
        }
    }
    Ok(())
}
