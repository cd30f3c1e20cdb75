//! The flock in the render world: the main world's orders carried over at each extract, then
//! applied and the fixed steps run on the render device before the frame is drawn.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bevy::prelude::*;
use bevy::render::MainWorld;
use bevy::render::renderer::{RenderDevice, RenderQueue};
use bevy::tasks::futures_lite::future;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on};
use flock_gpu::{DeviceFlock as KernelFlock, FlockPipelines, GpuError, NearQuery};

use super::GpuDeviceLink;
use super::handle::{DeviceReport, FrameOrders, GpuFlock, GpuOrder};

/// The render world's flock: made on the render device at the first frame, stepped there.
#[derive(Resource, Default)]
pub struct RenderGpuFlock {
    /// The kernel's flock, once made.
    pub(crate) flock: Option<KernelFlock>,
    /// Its compute pipelines, compiling on the async compute pool from when the plugin
    /// finishes, so no frame waits for the driver's compiler; the flock is made (and the
    /// orders given meanwhile applied) at the first frame after they are ready.
    pub(crate) compiling: Option<Task<Result<FlockPipelines, GpuError>>>,
    /// What the last extract carried over.
    pub(crate) frame: FrameOrders,
    /// Steps run since the flock was made.
    pub(crate) steps: u64,
    /// Whether the main world wants read-backs.
    pub(crate) readback: bool,
    /// The question about the boids near a point on the device, and one waiting for it.
    pub(crate) asked: Option<NearQuery>,
    pub(crate) waiting_query: Option<NearQuery>,
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

    /// The kernel's flock, once made: what the device holds (species, hunts, points,
    /// obstacles, the enclosure).
    pub fn kernel(&self) -> Option<&KernelFlock> {
        self.flock.as_ref()
    }

    /// Whether the flock's pipelines are still compiling (the flock is made, and steps, from
    /// the first frame after they are ready).
    pub fn is_compiling(&self) -> bool {
        self.compiling
            .as_ref()
            .is_some_and(|task| !task.is_finished())
    }
}

/// Starts compiling the flock's pipelines for `device` on the async compute pool; once they
/// are ready the report says so, and the main world hands over fixed steps from then on.
pub(crate) fn compile_pipelines(
    device: &RenderDevice,
    report: &Arc<DeviceReport>,
) -> Task<Result<FlockPipelines, GpuError>> {
    let device = device.wgpu_device().clone();
    let report = Arc::clone(report);
    AsyncComputeTaskPool::get().spawn(async move {
        let compiled = FlockPipelines::new(&device);
        if compiled.is_ok() {
            report.ready.store(true, Ordering::Release);
        }
        compiled
    })
}

/// In `ExtractSchedule`: takes the main world's orders and steps (the handle forgets them, so
/// each is applied once).
pub(crate) fn extract_gpu_flock(
    mut main_world: ResMut<MainWorld>,
    mut render_flock: ResMut<RenderGpuFlock>,
    link: Res<GpuDeviceLink>,
) {
    let Some(mut handle) = main_world.get_resource_mut::<GpuFlock>() else {
        return;
    };
    if !handle.shares(&link.0) {
        // Inserted after this frame's `First`.
        handle.join(Arc::clone(&link.0));
    }
    let mut frame = handle.take_frame();
    // Orders from a frame the render world has not applied yet (none in practice: every
    // extract is followed by its frame) are kept ahead of the new ones.
    let earlier = std::mem::take(&mut render_flock.frame);
    if !earlier.orders.is_empty() {
        frame.orders.splice(0..0, earlier.orders);
    }
    frame.config = frame.config.or(earlier.config);
    frame.gameplay = frame.gameplay.after(earlier.gameplay);
    frame.steps = frame.steps.saturating_add(earlier.steps);
    render_flock.frame = frame;
}

/// In `Render`, before anything is drawn: makes the flock on the render device (first frame),
/// applies the orders and settings, and submits the frame's steps. What the device refuses is
/// a warning: boids it cannot hold are taken off the handle's count (through the report), a
/// step it refuses or a replaced (lost) device stops the flock.
pub(crate) fn step_gpu_flock(
    mut render_flock: ResMut<RenderGpuFlock>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
    link: Res<GpuDeviceLink>,
) {
    let render_flock = &mut *render_flock;
    let report = &link.0;
    let frame = std::mem::take(&mut render_flock.frame);
    if report.stopped().is_some() {
        render_flock.flock = None;
        report.applied.store(frame.number, Ordering::Release);
        return;
    }
    if let Some(flock) = &render_flock.flock
        && flock.device() != device.wgpu_device()
    {
        stop(
            render_flock,
            report,
            "the render device was lost and replaced; the boids were on the old one".into(),
        );
        report.applied.store(frame.number, Ordering::Release);
        return;
    }
    if render_flock.flock.is_none() {
        let task = render_flock
            .compiling
            .get_or_insert_with(|| compile_pipelines(&device, report));
        let Some(compiled) = block_on(future::poll_once(task)) else {
            // Still compiling: the orders wait for the flock (the main world hands over no
            // steps until the pipelines are ready).
            render_flock.frame = frame;
            return;
        };
        render_flock.compiling = None;
        let compiled = match compiled {
            Ok(compiled) if compiled.device() == device.wgpu_device() => compiled,
            // The render device was replaced meanwhile: compile for the new one.
            Ok(_) => {
                render_flock.compiling = Some(compile_pipelines(&device, report));
                render_flock.frame = frame;
                return;
            }
            Err(error) => {
                stop(render_flock, report, error.to_string());
                report.applied.store(frame.number, Ordering::Release);
                return;
            }
        };
        // The settings were checked in the main world, and the first extract carries them.
        let config = frame.config.unwrap_or_default();
        match KernelFlock::with_pipelines(Arc::new(compiled), &queue.0, config, 0) {
            Ok(flock) => render_flock.flock = Some(flock),
            Err(error) => {
                stop(render_flock, report, error.to_string());
                report.applied.store(frame.number, Ordering::Release);
                return;
            }
        }
    }
    let Some(flock) = render_flock.flock.as_mut() else {
        return;
    };
    report.limit.store(flock.max_capacity(), Ordering::Relaxed);
    if let Some(time) = flock.last_step_time() {
        let nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX - 1);
        report.step_nanos.store(nanos, Ordering::Relaxed);
    }
    if let Some(config) = frame.config
        && let Err(error) = flock.set_config(config)
    {
        warn!("GPU flock: settings refused by the device: {error}");
    }
    let mut gameplay = frame.gameplay;
    // The species first, so boids spawned of a new species find it; where the device still
    // holds boids of a species the new list drops (cleared this frame), again after the orders.
    let rules = gameplay.rules.take();
    let rules_refused = rules
        .as_ref()
        .and_then(|rules| apply_rules(flock, rules).err().map(|error| (rules, error)));
    for order in frame.orders {
        apply_order(flock, order);
    }
    if let Some((rules, _)) = rules_refused
        && let Err(error) = apply_rules(flock, rules)
    {
        warn!("GPU flock: species or hunts refused by the device: {error}");
    }
    apply_gameplay(flock, &gameplay);
    report.count.store(flock.len(), Ordering::Release);
    report.applied.store(frame.number, Ordering::Release);
    let mut failure = None;
    for _ in 0..frame.steps {
        match flock.step(frame.dt) {
            Ok(()) => render_flock.steps += 1,
            Err(error @ GpuError::InvalidTimeStep(_)) => {
                warn!("GPU flock: step refused: {error}");
                break;
            }
            Err(error) => {
                failure = Some(error.to_string());
                break;
            }
        }
    }
    render_flock.readback = frame.readback;
    if let Some(reason) = failure {
        stop(render_flock, report, reason);
        return;
    }
    if let Some(query) = gameplay.query.take() {
        render_flock.waiting_query = Some(query);
    }
    answer_queries(render_flock, report);
}

/// Species and hunts (an empty species list: one flock again).
fn apply_rules(
    flock: &mut KernelFlock,
    (species, hunts): &(Vec<flock_gpu::SpeciesSettings>, Vec<flock_gpu::GpuHunt>),
) -> Result<(), GpuError> {
    if species.is_empty() {
        flock.clear_species();
        return Ok(());
    }
    flock.set_species(species)?;
    flock.set_hunts(hunts)
}

/// The enclosure, obstacles and points that changed; each was checked in the main world, so
/// a refusal here is the device's, a warning.
fn apply_gameplay(flock: &mut KernelFlock, gameplay: &super::gameplay::GameplayOrders) {
    let mut results = Vec::new();
    if let Some(containment) = &gameplay.containment {
        results.push(("enclosure", flock.set_containment(containment.as_ref())));
    }
    if let Some((shapes, avoidance)) = &gameplay.obstacles {
        let result = match avoidance {
            Some(avoidance) => flock.set_obstacles(shapes, *avoidance),
            // No obstacles at all: the avoidance's numbers are then never used.
            None => flock.set_obstacles(
                &[],
                flock_gpu::ObstacleAvoidance {
                    look_ahead: 1.0,
                    clearance: 0.0,
                    weight: 0.0,
                },
            ),
        };
        results.push(("obstacles", result));
    }
    if let Some(points) = &gameplay.points {
        results.push(("points", flock.set_points(points)));
    }
    for (what, result) in results {
        if let Err(error) = result {
            warn!("GPU flock: {what} refused by the device: {error}");
        }
    }
}

/// Hands an answer that has arrived to the main world, and asks the waiting question once the
/// device has none in flight.
fn answer_queries(render_flock: &mut RenderGpuFlock, report: &DeviceReport) {
    let Some(flock) = render_flock.flock.as_mut() else {
        return;
    };
    if let Some(asked) = render_flock.asked
        && let Some(answer) = flock.poll_query()
    {
        render_flock.asked = None;
        match answer {
            Ok(result) => {
                if let Ok(mut slot) = report.query_answer.lock() {
                    *slot = Some((asked, result));
                }
            }
            Err(error) => {
                warn!("GPU flock: the question about the boids near a point failed: {error}")
            }
        }
    }
    if render_flock.asked.is_none()
        && let Some(query) = render_flock.waiting_query.take()
    {
        match flock.query_near(query) {
            Ok(()) => render_flock.asked = Some(query),
            Err(error) => {
                warn!("GPU flock: the question about the boids near a point was refused: {error}")
            }
        }
    }
}

/// Stops the flock for `reason` with a warning: its boids are dropped and no more are made.
fn stop(render_flock: &mut RenderGpuFlock, report: &DeviceReport, reason: String) {
    warn!("GPU flock: {reason}; the GPU flock stopped and the app runs on without it");
    render_flock.flock = None;
    report.stop(reason);
}

/// Applies one order; boids the device refuses (more than it holds) are a warning, and
/// the device's count, reported to the handle, says what it holds.
fn apply_order(flock: &mut KernelFlock, order: GpuOrder) {
    let result = match order {
        GpuOrder::Clear => flock.upload(&[], &[]),
        GpuOrder::Add {
            positions,
            velocities,
            species: 0,
        } => flock.append(&positions, &velocities),
        GpuOrder::Add {
            positions,
            velocities,
            species,
        } => flock.append_with_species(&positions, &velocities, &vec![species; positions.len()]),
    };
    if let Err(error) = result {
        warn!("GPU flock: boids refused by the device: {error}");
    }
}
