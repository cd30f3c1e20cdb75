//! Peak memory per boid, measured in a fresh process so one measurement's peak can't hide
//! another's.

use std::process::Command;

use bevy::tasks::{ComputeTaskPool, TaskPoolBuilder};
use clap::{Args, ValueEnum};
use flock_core::IndexKind;

use crate::arguments::{parse_boid_count, parse_threads};
use crate::dim2::app_bench::bench_app;
use crate::dim2::kernel_bench::bench_config;

/// What to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Probe {
    /// The 2D kernel's `Flock` with the grid.
    Kernel,
    /// The 3D kernel's `Flock` with the grid.
    Kernel3d,
    /// The whole plugin in a headless app.
    App,
}

impl Probe {
    /// The kernel of `dims` dimensions.
    pub fn kernel(dims: usize) -> Self {
        if dims == 3 {
            Self::Kernel3d
        } else {
            Self::Kernel
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Kernel => "2D kernel",
            Self::Kernel3d => "3D kernel",
            Self::App => "App::update()",
        }
    }
}

/// Options of the hidden `flock memory-probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    #[arg(long, value_enum)]
    what: Probe,
    #[arg(long, value_parser = parse_boid_count)]
    count: usize,
    #[arg(long, value_parser = parse_threads)]
    threads: usize,
    #[arg(long)]
    seed: u64,
}

const STEPS: usize = 5;

/// Builds the flock, runs a few steps, prints the process's peak resident set in bytes.
pub fn probe(args: &ProbeArgs) -> Result<(), String> {
    let pool =
        ComputeTaskPool::get_or_init(|| TaskPoolBuilder::new().num_threads(args.threads).build());
    match args.what {
        Probe::Kernel => {
            crate::dim2::kernel_bench::run_for_memory(pool, args.count, args.seed, STEPS)
        }
        Probe::Kernel3d => {
            crate::dim3::kernel_bench::run_for_memory(pool, args.count, args.seed, STEPS)
        }
        Probe::App => {
            let config = bench_config(args.count, 32, IndexKind::Grid);
            let mut app = bench_app(config, args.count, args.seed);
            for _ in 0..STEPS {
                app.update();
            }
        }
    }
    println!("{}", peak_resident_bytes()?);
    Ok(())
}

/// Runs the probe in a child process and returns its peak resident set in bytes.
pub fn measure_in_child(
    what: Probe,
    count: usize,
    threads: usize,
    seed: u64,
) -> Result<u64, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the flock binary: {e}"))?;
    let output = Command::new(exe)
        .arg("memory-probe")
        .args(["--what", what.to_possible_value().unwrap().get_name()])
        .args(["--count", &count.to_string()])
        .args(["--threads", &threads.to_string()])
        .args(["--seed", &seed.to_string()])
        .output()
        .map_err(|e| format!("cannot run the memory probe: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "the memory probe failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("the memory probe printed no byte count: {e}"))
}

/// `VmHWM` of `/proc/self/status`: the peak resident set size.
pub fn peak_resident_bytes() -> Result<u64, String> {
    status_bytes("VmHWM:")
}

/// `VmRSS` of `/proc/self/status`: the resident set size now.
pub fn resident_bytes() -> Result<u64, String> {
    status_bytes("VmRSS:")
}

/// A size line of `/proc/self/status`, e.g. `VmRSS:   1234 kB`, in bytes.
fn status_bytes(key: &str) -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("cannot read /proc/self/status (Linux only): {e}"))?;
    let line = status
        .lines()
        .find(|line| line.starts_with(key))
        .ok_or_else(|| format!("no {key} line in /proc/self/status"))?;
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("unreadable {key} line"))?;
    Ok(kib * 1024)
}
