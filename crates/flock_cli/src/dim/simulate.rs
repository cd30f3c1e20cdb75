//! `flock simulate`'s run in this module's dimension: settings, boids, steps, CSV; on the CPU
//! kernel, or on the GPU kernel with `--gpu`.

use std::io::Write;

use bevy::tasks::available_parallelism;

use super::Settings;
use super::boids::{output_header, read_boids, write_boids, write_state};
use super::gpu_kernel::{GpuFlock, request_device};
use super::kernel::{Flock, FlockConfig, ScopedThreads};
use super::settings::read_settings;
use crate::simulate::SimulateArgs;

/// Builds the flock the arguments ask for and returns a writer that steps it, writing the
/// states as CSV.
pub fn run(args: &SimulateArgs) -> Result<Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()>>, String> {
    let settings = match &args.settings {
        Some(path) => read_settings(path)?,
        None => Settings::default(),
    };
    let config = settings.config;
    let mut flock = match (&args.input, args.count) {
        (Some(path), _) => {
            let (positions, velocities) = read_boids(path)?;
            Flock::new(positions, velocities, &config)
        }
        (None, Some(count)) => Flock::random(count, &config, args.seed.unwrap_or(0)),
        (None, None) => return Err("give --input FILE or --count N".to_string()),
    };
    let (steps, every, dt) = (args.steps, args.every, args.dt);
    if args.gpu {
        return Ok(Box::new(gpu_run(flock, config, steps, every, dt)?));
    }
    let executor = ScopedThreads(args.threads.unwrap_or_else(available_parallelism));
    Ok(Box::new(move |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{}", output_header())?;
        write_state(out, 0, &flock)?;
        for step in 1..=steps {
            flock.step_with(&config, dt, &executor);
            if step % every == 0 {
                write_state(out, step, &flock)?;
            }
        }
        out.flush()
    }))
}

/// The same run on the GPU kernel (`--gpu`), from the same initial boids: each written step
/// is read back from the device.
fn gpu_run(
    start: Flock,
    config: FlockConfig,
    steps: u64,
    every: u64,
    dt: f32,
) -> Result<impl FnOnce(&mut dyn Write) -> std::io::Result<()>, String> {
    let (device, queue, _) = request_device().map_err(|error| error.to_string())?;
    let mut flock =
        GpuFlock::new(&device, &queue, config, start.len()).map_err(|error| error.to_string())?;
    flock
        .upload(start.positions(), start.velocities())
        .map_err(|error| error.to_string())?;
    Ok(move |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{}", output_header())?;
        write_state(out, 0, &start)?;
        for step in 1..=steps {
            flock.step(dt).map_err(std::io::Error::other)?;
            if step % every == 0 {
                let (positions, velocities) = flock.read_back().map_err(std::io::Error::other)?;
                write_boids(out, step, &positions, &velocities)?;
            }
        }
        out.flush()
    })
}
