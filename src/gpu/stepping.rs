//! The flock in the render world: the main world's orders carried over at each extract, then
//! applied and the fixed steps run on the render device before the frame is drawn.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bevy::prelude::*;
use bevy::render::MainWorld;
use bevy::render::renderer::{RenderDevice, RenderQueue};
use flock_gpu::GpuFlock as KernelFlock;

use super::handle::{DeviceReport, FrameOrders, GpuFlock, GpuOrder};

/// The render world's flock: made on the render device at the first frame, stepped there.
#[derive(Resource, Default)]
pub struct RenderGpuFlock {
    /// The kernel's flock, once made.
    pub(crate) flock: Option<KernelFlock>,
    /// What the last extract carried over.
    pub(crate) frame: FrameOrders,
    /// Steps run since the flock was made.
    pub(crate) steps: u64,
    /// Whether the main world wants read-backs.
    pub(crate) readback: bool,
    /// Where the device's limit and step time are written for the main world.
    pub(crate) report: Option<Arc<DeviceReport>>,
}

impl RenderGpuFlock {
    /// How many boids the device holds now.
    pub fn len(&self) -> usize {
        self.flock.as_ref().map_or(0, KernelFlock::len)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The boid buffer (laid out as [`flock_gpu::BOID_BYTES`] says), once the flock exists.
    pub fn boid_buffer(&self) -> Option<&flock_gpu::wgpu::Buffer> {
        self.flock.as_ref().map(KernelFlock::boid_buffer)
    }

    /// Steps run on the device since the flock was made.
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// In `ExtractSchedule`: takes the main world's orders and steps (the handle forgets them, so
/// each is applied once).
pub(crate) fn extract_gpu_flock(
    mut main_world: ResMut<MainWorld>,
    mut render_flock: ResMut<RenderGpuFlock>,
) {
    let Some(mut handle) = main_world.get_resource_mut::<GpuFlock>() else {
        return;
    };
    let mut frame = handle.take_frame();
    // Orders from a frame the render world has not applied yet (none in practice: every
    // extract is followed by its frame) are kept ahead of the new ones.
    let earlier = std::mem::take(&mut render_flock.frame);
    if !earlier.orders.is_empty() {
        frame.orders.splice(0..0, earlier.orders);
    }
    frame.config = frame.config.or(earlier.config);
    frame.steps = frame.steps.saturating_add(earlier.steps);
    if render_flock.report.is_none() {
        render_flock.report = Some(handle.report());
    }
    render_flock.frame = frame;
}

/// In `Render`, before anything is drawn: makes the flock on the render device (first frame),
/// applies the orders and settings, and submits the frame's steps.
pub(crate) fn step_gpu_flock(
    mut render_flock: ResMut<RenderGpuFlock>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
) {
    let render_flock = &mut *render_flock;
    let frame = std::mem::take(&mut render_flock.frame);
    if render_flock.flock.is_none() {
        // The settings were checked in the main world, and the first extract carries them.
        let config = frame.config.unwrap_or_default();
        match KernelFlock::new(device.wgpu_device(), &queue.0, config, 0) {
            Ok(flock) => render_flock.flock = Some(flock),
            Err(error) => {
                error!("GPU flock: cannot make the flock on the render device: {error}");
                return;
            }
        }
    }
    let Some(flock) = render_flock.flock.as_mut() else {
        return;
    };
    if let Some(report) = &render_flock.report {
        report.limit.store(flock.max_capacity(), Ordering::Relaxed);
        if let Some(time) = flock.last_step_time() {
            let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX - 1);
            report.step_nanos.store(nanos, Ordering::Relaxed);
        }
    }
    if let Some(config) = frame.config
        && let Err(error) = flock.set_config(config)
    {
        error!("GPU flock: settings refused by the device: {error}");
    }
    for order in frame.orders {
        apply_order(flock, order);
    }
    for _ in 0..frame.steps {
        if let Err(error) = flock.step(frame.dt) {
            error!("GPU flock: step refused: {error}");
            break;
        }
        render_flock.steps += 1;
    }
    render_flock.readback = frame.readback;
}

fn apply_order(flock: &mut KernelFlock, order: GpuOrder) {
    let result = match order {
        GpuOrder::Clear => flock.upload(&[], &[]),
        GpuOrder::Add {
            positions,
            velocities,
        } => flock.append(&positions, &velocities),
    };
    if let Err(error) = result {
        error!("GPU flock: boids refused by the device: {error}");
    }
}
