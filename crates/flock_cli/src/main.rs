//! `flock`: data rather than a window.
//!
//! - `flock bench`: steps per second of each neighbour index and of the whole plugin, the
//!   table in `BENCHMARKS.md`.
//! - `flock simulate`: run a scenario headless and write every boid's state as CSV.
//! - `flock soak`: a long run checked for non-finite or lost boids and for memory growth.
//! - `flock crowd-circle`: RVO2's Circle scenario with ORCA or Reynolds' avoidance.
//! - `flock crowd-bench`: the cost of ORCA through `App::update()`, against `AvoidCollisions`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use flock_cli::{bench, crowd_bench, crowd_circle, memory, nav_bench, simulate, soak};

#[derive(Parser)]
#[command(
    name = "flock",
    version,
    about = "Benchmark bevy_flock, or run a flock headless"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Steps per second for each index and flock size, and of the plugin through App::update().
    Bench(bench::BenchArgs),
    /// Run a flock headless and write its states as CSV (`step,id,x,y,vx,vy`).
    Simulate(simulate::SimulateArgs),
    /// A long run, checked as it goes: no boid non-finite, outside the bounds or lost; resident
    /// memory after warm-up and at the end.
    Soak(soak::SoakArgs),
    /// RVO2's Circle: agents on a circle walk to their antipodes, avoiding each other by ORCA,
    /// unaligned collision avoidance or separation; when the last arrived, how close two came.
    CrowdCircle(crowd_circle::CircleArgs),
    /// Steps per second of App::update() with every boid avoiding the others by ORCA, against
    /// unaligned collision avoidance.
    CrowdBench(crowd_bench::CrowdBenchArgs),
    /// A crowd finding its way through a level on the navigation mesh with ORCA: the mesh's
    /// build, path queries per second, steps per second of App::update() and the crossing time.
    NavBench(nav_bench::NavBenchArgs),
    /// Peak memory of one flock, in a fresh process (used by `bench --memory`).
    #[command(hide = true)]
    MemoryProbe(memory::ProbeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Soak(args) => soak::run(&args),
        Command::CrowdCircle(args) => crowd_circle::run(&args),
        Command::CrowdBench(args) => crowd_bench::run(&args),
        Command::NavBench(args) => nav_bench::run(&args),
        Command::MemoryProbe(args) => memory::probe(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}
