//! `flock`: data rather than a window.
//!
//! - `flock bench`: steps per second of each neighbour index and of the whole plugin, the
//!   table in `BENCHMARKS.md`.
//! - `flock simulate`: run a scenario headless and write every boid's state as CSV.
//! - `flock soak`: a long run checked for non-finite or lost boids and for memory growth.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use flock_cli::{bench, memory, simulate, soak};

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
