//! The GPU kernel's benchmark in this module's dimension: the CPU kernel's world
//! ([`super::kernel_bench::bench_config`]), stepped by `DeviceFlock` on the system's adapter.

use std::time::{Duration, Instant};

use super::gpu_kernel::{DeviceFlock, request_device};
use super::kernel::{Flock, IndexKind};
use super::kernel_bench::bench_config;
use super::simulate::fits_on;
use crate::bench::{BenchArgs, GpuStep, median, wants_more_samples};

/// At most this many steps are timed together before the device is waited for: one wait per
/// step would time the round trip to the device rather than the step. A slow device (a
/// software one) gets fewer, so a sample takes about [`SAMPLE_SECONDS`].
const MAX_STEPS_PER_SAMPLE: u32 = 10;
const SAMPLE_SECONDS: f64 = 0.1;

/// A GPU device, stepping flocks of every size asked for.
pub struct GpuBench {
    device: super::gpu_kernel::wgpu::Device,
    queue: super::gpu_kernel::wgpu::Queue,
    /// The adapter's name and backend, for the table's title.
    pub adapter: String,
}

impl GpuBench {
    /// The system's preferred adapter, or why there is none.
    pub fn new() -> Result<Self, String> {
        let (device, queue, info) = request_device().map_err(|error| error.to_string())?;
        Ok(Self {
            device,
            queue,
            adapter: format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type),
        })
    }

    /// The median time of one step of a random flock of `count` in the benchmark world with
    /// `neighbours` neighbours on average: steps submitted in batches, each batch waited for.
    /// Beside it, the median of the step times the device measured itself (timestamps around
    /// the step's pass), where it can.
    pub fn measure(
        &self,
        args: &BenchArgs,
        count: usize,
        neighbours: u32,
    ) -> Result<GpuStep, String> {
        // Refused before the boids are made, where the device cannot hold them.
        fits_on(&self.device, count)?;
        let config = bench_config(count, neighbours, IndexKind::Grid);
        let start = Flock::random(count, &config, args.seed);
        let mut flock = DeviceFlock::new(&self.device, &self.queue, config, count)
            .map_err(|error| error.to_string())?;
        flock
            .upload(start.positions(), start.velocities())
            .map_err(|error| error.to_string())?;
        let dt = 1.0 / 60.0;
        let mut one_step = Duration::ZERO;
        for _ in 0..args.warmup.max(1) {
            let begin = Instant::now();
            flock.step(dt).map_err(|error| error.to_string())?;
            flock.wait().map_err(|error| error.to_string())?;
            one_step = begin.elapsed();
        }
        let per_sample = (SAMPLE_SECONDS / one_step.as_secs_f64().max(1e-9))
            .clamp(1.0, f64::from(MAX_STEPS_PER_SAMPLE)) as u32;
        let mut samples = Vec::new();
        let mut device_samples = Vec::new();
        let started = Instant::now();
        while wants_more_samples(args, samples.len(), started) {
            let begin = Instant::now();
            for _ in 0..per_sample {
                flock.step(dt).map_err(|error| error.to_string())?;
            }
            flock.wait().map_err(|error| error.to_string())?;
            samples.push(begin.elapsed() / per_sample);
            device_samples.extend(flock.last_step_time());
        }
        // The flock must have survived the run: a device error would show here.
        let (positions, velocities) = flock.read_back().map_err(|error| error.to_string())?;
        if positions.len() != count || !positions.iter().chain(&velocities).all(|v| v.is_finite()) {
            return Err(format!("the GPU flock of {count} did not stay finite"));
        }
        Ok(GpuStep {
            wall: median(samples),
            device: (!device_samples.is_empty()).then(|| median(device_samples)),
        })
    }
}
