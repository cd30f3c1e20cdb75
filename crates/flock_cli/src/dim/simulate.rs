//! `flock simulate`'s run in this module's dimension: settings, boids, steps, CSV; on the CPU
//! kernel, or on the GPU kernel with `--gpu`.

use std::io::Write;

use bevy::tasks::available_parallelism;

use super::Settings;
use super::boids::{output_header, read_boids, write_boids, write_state};
use super::gpu_kernel::{DeviceFlock, GpuError, max_boids, request_device, wgpu};
use super::kernel::{Flock, FlockConfig, ScopedThreads};
use super::settings::read_settings;
use crate::simulate::SimulateArgs;

/// Builds the flock the arguments ask for and returns a writer that steps it, writing the
/// states as CSV.
pub fn run(
    args: &SimulateArgs,
) -> Result<Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()>>, String> {
    let settings = match &args.settings {
        Some(path) => read_settings(path)?,
        None => Settings::default(),
    };
    let config = settings.config;
    // The device first, so a count it cannot hold is refused before a boid is made.
    let device = args
        .gpu
        .then(request_device)
        .transpose()
        .map_err(|error| error.to_string())?;
    let mut flock = match (&args.input, args.count) {
        (Some(path), _) => {
            let (positions, velocities) = read_boids(path)?;
            Flock::new(positions, velocities, &config)
        }
        (None, Some(count)) => {
            if let Some((device, _, _)) = &device {
                fits_on(device, count)?;
            }
            Flock::random(count, &config, args.seed.unwrap_or(0))
        }
        (None, None) => return Err("give --input FILE or --count N".to_string()),
    };
    let (steps, every, dt) = (args.steps, args.every, args.dt);
    if let Some((device, queue, _)) = device {
        return Ok(Box::new(gpu_run(
            device, queue, flock, config, steps, every, dt,
        )?));
    }
    let executor = ScopedThreads(args.threads.unwrap_or_else(available_parallelism));
    Ok(Box::new(
        move |out: &mut dyn Write| -> std::io::Result<()> {
            writeln!(out, "{}", output_header())?;
            write_state(out, 0, &flock)?;
            for step in 1..=steps {
                flock.step_with(&config, dt, &executor);
                if step % every == 0 {
                    write_state(out, step, &flock)?;
                }
            }
            out.flush()
        },
    ))
}

/// Refuses `count` boids where the device cannot hold them, as
/// [`DeviceFlock::new`] would, but before they are made.
pub fn fits_on(device: &wgpu::Device, count: usize) -> Result<(), String> {
    let limit = max_boids(&device.limits());
    if count > limit {
        return Err(GpuError::TooManyBoids {
            requested: count,
            limit,
        }
        .to_string());
    }
    Ok(())
}

/// The same run on the GPU kernel (`--gpu`), from the same initial boids: each written step
/// is read back from the device.
fn gpu_run(
    device: wgpu::Device,
    queue: wgpu::Queue,
    start: Flock,
    config: FlockConfig,
    steps: u64,
    every: u64,
    dt: f32,
) -> Result<impl FnOnce(&mut dyn Write) -> std::io::Result<()>, String> {
    let mut flock =
        DeviceFlock::new(&device, &queue, config, start.len()).map_err(|error| error.to_string())?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_past_the_devices_limit_is_refused_with_the_limit() {
        let Ok((device, _, _)) = request_device() else {
            assert!(
                std::env::var("FLOCK_REQUIRE_GPU").as_deref() != Ok("1"),
                "FLOCK_REQUIRE_GPU=1 but there is no GPU adapter"
            );
            return;
        };
        let limit = max_boids(&device.limits());
        assert_eq!(fits_on(&device, limit), Ok(()));
        let error = fits_on(&device, limit + 1).unwrap_err();
        assert!(error.contains(&format!("at most {limit}")), "{error}");
        assert!(fits_on(&device, usize::MAX).is_err());
    }
}
