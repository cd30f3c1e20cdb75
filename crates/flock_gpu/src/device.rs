//! A headless device for tests, benchmarks and the command line.

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::error::GpuError;

/// Waits for a future on this thread. wgpu's native futures are ready when first polled (or
/// after a device poll), so a spinning wait with a no-op waker is all they need.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::yield_now();
    }
}

/// A device and queue on the system's preferred adapter (wgpu's backend choice, which
/// `WGPU_BACKEND` and, for Vulkan, `VK_ICD_FILENAMES` steer), with the adapter's own limits so
/// large flocks fit, and timestamps where the adapter has them (for
/// [`DeviceFlock::last_step_time`](crate::DeviceFlock::last_step_time)). An error when there is no
/// adapter.
pub fn request_device() -> Result<(wgpu::Device, wgpu::Queue, wgpu::AdapterInfo), GpuError> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        ..Default::default()
    }))
    .map_err(|error| GpuError::NoAdapter(error.to_string()))?;
    let (device, queue) = block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("flock_gpu"),
        required_limits: adapter.limits(),
        required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
        ..Default::default()
    }))
    .map_err(|error| GpuError::NoDevice(error.to_string()))?;
    Ok((device, queue, adapter.get_info()))
}
