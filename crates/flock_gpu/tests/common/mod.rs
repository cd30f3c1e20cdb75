//! What the GPU tests share, in both dimensions: one device for the whole test binary, or a
//! skip with a message where there is no adapter (a failure instead under
//! `FLOCK_REQUIRE_GPU=1`, as CI sets it).
#![allow(dead_code)] // Each test file uses some of these.

use std::sync::OnceLock;

use flock_core::{DIMENSIONS, FlockConfig, Vector};
use flock_gpu::{DeviceFlock, request_device};

/// The shared device and queue, or `None` (with a message) when there is no adapter and the
/// environment does not require one.
pub fn device() -> Option<&'static (wgpu::Device, wgpu::Queue)> {
    static DEVICE: OnceLock<Option<(wgpu::Device, wgpu::Queue)>> = OnceLock::new();
    DEVICE
        .get_or_init(|| match request_device() {
            Ok((device, queue, info)) => {
                eprintln!("GPU tests on {} ({:?})", info.name, info.backend);
                Some((device, queue))
            }
            Err(error) => {
                assert!(
                    std::env::var("FLOCK_REQUIRE_GPU").as_deref() != Ok("1"),
                    "FLOCK_REQUIRE_GPU=1 but {error}"
                );
                eprintln!("skipped: {error} (set VK_ICD_FILENAMES to Mesa's lavapipe to run it)");
                None
            }
        })
        .as_ref()
}

/// A GPU flock holding these boids, or `None` when the test is skipped.
pub fn gpu_flock(
    config: FlockConfig,
    positions: &[Vector],
    velocities: &[Vector],
) -> Option<DeviceFlock> {
    let (device, queue) = device()?;
    let mut flock =
        DeviceFlock::new(device, queue, config, positions.len()).expect("valid settings");
    flock.upload(positions, velocities).expect("finite boids");
    Some(flock)
}

/// The largest extent of the world: the scale the tolerances are taken of.
pub fn world_size(config: &FlockConfig) -> f32 {
    let size = config.bounds.size();
    (0..DIMENSIONS).map(|axis| size[axis]).fold(0.0, f32::max)
}

/// Every value finite.
pub fn all_finite(values: &[Vector]) -> bool {
    values.iter().all(|value| value.is_finite())
}
