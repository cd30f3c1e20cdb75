//! `flock bench`: steps per second of each neighbour index at several flock sizes and
//! densities, and of the whole plugin through `App::update()`, printed as Markdown tables.

use std::time::{Duration, Instant};

use bevy::tasks::{ComputeTaskPool, TaskPool, TaskPoolBuilder};
use bevy_flock::prelude::*;
use clap::Args;

use crate::arguments::{format_count, parse_boid_count, parse_count, parse_dims, parse_threads};
use crate::memory;

/// Options of `flock bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Dimensions of the kernel and `App::update()` tables: 2, 3 or both (`2,3`).
    #[arg(long, value_delimiter = ',', default_value = "2", value_parser = parse_dims)]
    dims: Vec<usize>,
    /// Flock sizes for the kernel table (k and M suffixes: 10k, 1M).
    #[arg(long, value_delimiter = ',', default_value = "1k,10k,100k,1M", value_parser = parse_boid_count)]
    sizes: Vec<usize>,
    /// Average neighbour counts; the world's density is chosen to give each.
    #[arg(long, value_delimiter = ',', default_value = "8,32,128")]
    neighbours: Vec<u32>,
    /// Indexes to measure: grid, kdtree, brute.
    #[arg(long, value_delimiter = ',', default_value = "grid,kdtree,brute", value_parser = parse_index)]
    indexes: Vec<IndexKind>,
    /// Brute force only runs up to this many boids.
    #[arg(long, default_value = "10k", value_parser = parse_count)]
    brute_max: usize,
    /// Flock sizes for the `App::update()` table (32 neighbours); `none` skips it.
    #[arg(long, value_delimiter = ',', default_value = "10k,100k,1M", value_parser = parse_count_or_none)]
    app_sizes: Vec<usize>,
    /// Threads that step the flock (default: one per core).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Untimed steps before measuring.
    #[arg(long, default_value_t = 3)]
    pub(crate) warmup: usize,
    /// Most timed steps per measurement; the median is reported.
    #[arg(long, default_value_t = 30)]
    pub(crate) steps: usize,
    /// Time budget per measurement in seconds (at least three timed steps are always taken).
    #[arg(long, default_value_t = 2.0)]
    pub(crate) seconds: f64,
    /// Also report peak memory per boid (kernel and app, fresh processes) at this size.
    #[arg(long, value_parser = parse_boid_count)]
    memory: Option<usize>,
    /// Seed of the random initial flocks.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Instead of the tables above: the GPU kernel (flock_gpu) on the system's adapter, beside
    /// the CPU kernel's grid, at `--gpu-sizes` with 32 neighbours.
    #[arg(long)]
    gpu: bool,
    /// Flock sizes for the `--gpu` table.
    #[arg(long, value_delimiter = ',', default_value = "100k,1M", value_parser = parse_boid_count)]
    gpu_sizes: Vec<usize>,
}

/// Runs `flock bench`.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    let threads = args
        .threads
        .unwrap_or_else(bevy::tasks::available_parallelism)
        .max(1);
    // The apps run their systems on Bevy's compute pool, `threads` threads (set up here, so
    // their TaskPoolPlugin finds it). The kernel is stepped from this thread, which works in
    // its own task pool's scopes too: its pool gets one thread less, so both measure `threads`
    // threads at work.
    ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(threads).build());
    let kernel_pool = TaskPoolBuilder::new()
        .num_threads(threads - 1)
        .thread_name("flock bench kernel".to_string())
        .build();
    println!(
        "flock bench: {threads} threads, wrapping world (square in 2D, cube in 3D), radii 25 / 50 / 50, \
         seed {}, median of up to {} timed steps ({} s budget) after {} warm-up steps",
        args.seed, args.steps, args.seconds, args.warmup
    );
    if args.gpu {
        for &dims in &args.dims {
            gpu_table(args, &kernel_pool, dims, threads)?;
        }
        return Ok(());
    }
    for &dims in &args.dims {
        kernel_tables(args, &kernel_pool, dims, threads);
    }

    let app_sizes: Vec<usize> = args.app_sizes.iter().copied().filter(|c| *c > 0).collect();
    for &dims in &args.dims {
        if app_sizes.is_empty() {
            break;
        }
        println!(
            "\n{dims}D plugin, `App::update()` headless (MinimalPlugins + BoidsPlugin in FixedUpdate, \
             grid, 32 neighbours, {threads} compute-pool threads):\n"
        );
        println!(
            "| boids | steps/s | ms/step | index ms | steer ms | rest of the app ms | boid-updates/s per core | candidate pairs/s per core |"
        );
        println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for &count in &app_sizes {
            let app = if dims == 3 {
                crate::dim3::app_bench::measure_app(args, count)
            } else {
                crate::dim2::app_bench::measure_app(args, count)
            };
            let rates = PerCore::new(count, app.update, app.candidates_per_boid, threads);
            println!(
                "| {} | {:.1} | {:.2} | {:.2} | {:.2} | {:.2} | {} | {} |",
                format_count(count),
                1.0 / app.update.as_secs_f64(),
                millis(app.update),
                millis(app.index),
                millis(app.steer),
                millis(app.update.saturating_sub(app.index + app.steer)),
                format_rate(rates.boid_updates),
                format_rate(rates.candidate_pairs),
            );
        }
    }

    if let Some(count) = args.memory {
        println!("\nPeak memory (peak RSS of a fresh process / boids, grid, 32 neighbours):\n");
        println!("| boids | what | peak RSS MiB | bytes/boid |");
        println!("|---:|---|---:|---:|");
        let mut probes: Vec<memory::Probe> = args
            .dims
            .iter()
            .map(|&dims| memory::Probe::kernel(dims))
            .collect();
        if args.dims.contains(&2) {
            probes.push(memory::Probe::App);
        }
        for what in probes {
            let peak = memory::measure_in_child(what, count, threads, args.seed)?;
            println!(
                "| {} | {} | {:.1} | {:.0} |",
                format_count(count),
                what.name(),
                peak as f64 / (1024.0 * 1024.0),
                peak as f64 / count as f64
            );
        }
    }
    Ok(())
}

/// The kernel's table in `dims` dimensions: every size, density and index; then the grid's
/// speed-up over the other indexes.
fn kernel_tables(args: &BenchArgs, pool: &TaskPool, dims: usize, threads: usize) {
    println!("\n{dims}D kernel (`Flock`, index rebuilt every step):\n");
    let mut rows = Vec::new();
    println!(
        "| boids | neighbours (target) | index | steps/s | build ms | steer ms | step ms | neighbours/boid | candidates/boid | boid-updates/s per core | candidate pairs/s per core |"
    );
    println!("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &count in &args.sizes {
        for &neighbours in &args.neighbours {
            for &index in &args.indexes {
                if index == IndexKind::BruteForce && count > args.brute_max {
                    continue;
                }
                let result = measure_kernel(args, pool, dims, count, neighbours, index);
                let rates = PerCore::new(count, result.step, result.candidates_per_boid, threads);
                println!(
                    "| {} | {neighbours} | {} | {:.1} | {:.2} | {:.2} | {:.2} | {:.1} | {:.1} | {} | {} |",
                    format_count(count),
                    index_name(index),
                    result.steps_per_second(),
                    millis(result.build),
                    millis(result.steer),
                    millis(result.step),
                    result.neighbours_per_boid,
                    result.candidates_per_boid,
                    format_rate(rates.boid_updates),
                    format_rate(rates.candidate_pairs),
                );
                rows.push((count, neighbours, index, result));
            }
        }
    }

    println!("\n| boids | neighbours | grid / KD-tree | grid / brute force |");
    println!("|---:|---:|---:|---:|");
    for &count in &args.sizes {
        for &neighbours in &args.neighbours {
            let rate = |kind: IndexKind| {
                rows.iter()
                    .find(|(c, n, i, _)| (*c, *n, *i) == (count, neighbours, kind))
                    .map(|(_, _, _, r)| r.steps_per_second())
            };
            let ratio = |other: IndexKind| match (rate(IndexKind::Grid), rate(other)) {
                (Some(grid), Some(other)) => format!("{:.1}x", grid / other),
                _ => "-".to_string(),
            };
            println!(
                "| {} | {neighbours} | {} | {} |",
                format_count(count),
                ratio(IndexKind::KdTree),
                ratio(IndexKind::BruteForce)
            );
        }
    }
}

/// The GPU kernel against the CPU kernel's grid in `dims` dimensions, same worlds and starts.
fn gpu_table(args: &BenchArgs, pool: &TaskPool, dims: usize, threads: usize) -> Result<(), String> {
    const NEIGHBOURS: u32 = 32;
    let gpu = GpuBench::new(dims)?;
    println!(
        "\n{dims}D GPU kernel (`DeviceFlock`, grid rebuilt on the device every step) on {}, \
         beside the CPU kernel (grid, {threads} threads), {NEIGHBOURS} neighbours:\n",
        gpu.adapter()
    );
    println!(
        "| boids | GPU steps/s | GPU ms/step | GPU ms/step (device timed) | CPU steps/s | CPU ms/step | GPU / CPU | GPU boid-updates/s |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &count in &args.gpu_sizes {
        let gpu_step = gpu.measure(args, count, NEIGHBOURS)?;
        let cpu_step = measure_kernel(args, pool, dims, count, NEIGHBOURS, IndexKind::Grid).step;
        let device_timed = gpu_step
            .device
            .map_or_else(|| "n/a".to_owned(), |step| format!("{:.2}", millis(step)));
        let gpu_step = gpu_step.wall;
        println!(
            "| {} | {:.1} | {:.2} | {device_timed} | {:.1} | {:.2} | {:.2}x | {} |",
            format_count(count),
            1.0 / gpu_step.as_secs_f64(),
            millis(gpu_step),
            1.0 / cpu_step.as_secs_f64(),
            millis(cpu_step),
            cpu_step.as_secs_f64() / gpu_step.as_secs_f64(),
            format_rate(count as f64 / gpu_step.as_secs_f64()),
        );
    }
    Ok(())
}

/// One flock size's GPU step time.
pub struct GpuStep {
    /// Submitted and waited for, as the program sees it.
    pub wall: Duration,
    /// As the device timed the step's pass (`None`: it cannot time passes).
    pub device: Option<Duration>,
}

/// The GPU benchmark of one dimension.
enum GpuBench {
    Two(crate::dim2::gpu_bench::GpuBench),
    Three(crate::dim3::gpu_bench::GpuBench),
}

impl GpuBench {
    /// The benchmark in `dims` dimensions on the system's adapter.
    fn new(dims: usize) -> Result<Self, String> {
        Ok(if dims == 3 {
            Self::Three(crate::dim3::gpu_bench::GpuBench::new()?)
        } else {
            Self::Two(crate::dim2::gpu_bench::GpuBench::new()?)
        })
    }

    /// The adapter's name.
    fn adapter(&self) -> &str {
        match self {
            Self::Two(gpu) => &gpu.adapter,
            Self::Three(gpu) => &gpu.adapter,
        }
    }

    /// One flock size's step time.
    fn measure(&self, args: &BenchArgs, count: usize, neighbours: u32) -> Result<GpuStep, String> {
        match self {
            Self::Two(gpu) => gpu.measure(args, count, neighbours),
            Self::Three(gpu) => gpu.measure(args, count, neighbours),
        }
    }
}

/// One measurement of the CPU kernel in `dims` dimensions.
fn measure_kernel(
    args: &BenchArgs,
    pool: &TaskPool,
    dims: usize,
    count: usize,
    neighbours: u32,
    index: IndexKind,
) -> KernelResult {
    if dims == 3 {
        let index = dim3_index(index);
        crate::dim3::kernel_bench::measure_kernel(args, pool, count, neighbours, index)
    } else {
        crate::dim2::kernel_bench::measure_kernel(args, pool, count, neighbours, index)
    }
}

/// The 3D kernel's name for an index.
fn dim3_index(index: IndexKind) -> flock_core3d::IndexKind {
    match index {
        IndexKind::Grid => flock_core3d::IndexKind::Grid,
        IndexKind::KdTree => flock_core3d::IndexKind::KdTree,
        IndexKind::BruteForce => flock_core3d::IndexKind::BruteForce,
    }
}

/// Medians of one kernel measurement.
pub struct KernelResult {
    pub build: Duration,
    pub steer: Duration,
    pub step: Duration,
    pub neighbours_per_boid: f64,
    pub candidates_per_boid: f64,
}

impl KernelResult {
    pub fn steps_per_second(&self) -> f64 {
        1.0 / self.step.as_secs_f64()
    }
}

/// Medians of one `App::update()` measurement, with the plugin's own index and steer times.
pub struct AppResult {
    pub update: Duration,
    pub index: Duration,
    pub steer: Duration,
    pub candidates_per_boid: f64,
}

/// Throughput per core, to compare with other systems on other hardware: boids stepped, and
/// candidate pairs measured (a boid against one candidate), per second per thread at work.
struct PerCore {
    boid_updates: f64,
    candidate_pairs: f64,
}

impl PerCore {
    fn new(count: usize, step: Duration, candidates_per_boid: f64, threads: usize) -> Self {
        let boid_updates = count as f64 / step.as_secs_f64().max(1e-12) / threads.max(1) as f64;
        Self {
            boid_updates,
            candidate_pairs: boid_updates * candidates_per_boid,
        }
    }
}

/// A rate with an SI suffix: 3.2M, 410k.
fn format_rate(rate: f64) -> String {
    match rate {
        r if r >= 1e9 => format!("{:.2}G", r / 1e9),
        r if r >= 1e6 => format!("{:.1}M", r / 1e6),
        r if r >= 1e3 => format!("{:.0}k", r / 1e3),
        r => format!("{r:.0}"),
    }
}

/// Whether a measurement takes another timed step: at least three, at most `--steps`, and no
/// more once the `--seconds` budget is spent.
pub(crate) fn wants_more_samples(args: &BenchArgs, taken: usize, started: Instant) -> bool {
    const AT_LEAST: usize = 3;
    taken < args.steps.max(AT_LEAST)
        && (taken < AT_LEAST || started.elapsed().as_secs_f64() < args.seconds)
}

pub(crate) fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples.get(samples.len() / 2).copied().unwrap_or_default()
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn index_name(index: IndexKind) -> &'static str {
    match index {
        IndexKind::Grid => "grid",
        IndexKind::KdTree => "KD-tree",
        IndexKind::BruteForce => "brute force",
    }
}

fn parse_count_or_none(text: &str) -> Result<usize, String> {
    if text.trim() == "none" {
        Ok(0)
    } else {
        parse_boid_count(text)
    }
}

fn parse_index(text: &str) -> Result<IndexKind, String> {
    match text.trim() {
        "grid" => Ok(IndexKind::Grid),
        "kdtree" | "kd-tree" => Ok(IndexKind::KdTree),
        "brute" | "brute-force" => Ok(IndexKind::BruteForce),
        other => Err(format!("`{other}` is not an index (grid, kdtree or brute)")),
    }
}
