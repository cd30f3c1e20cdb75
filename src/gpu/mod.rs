//! The flock on the GPU (feature `gpu`): boids simulated by `flock_gpu`'s compute shaders in
//! Bevy's render world and drawn instanced straight from the device's boid buffer, so a frame
//! does no work per boid on the CPU and no boid is an entity.
//!
//! - [`GpuFlock`], a resource of the main world, is the handle: spawn and clear boids, change
//!   the settings (a [`FlockConfig`](flock_core::FlockConfig), validated as the CPU flock's),
//!   pause, ask for read-backs.
//! - At each extract the render world takes the handle's orders and the number of fixed steps
//!   the main world ran since the last frame; before drawing it applies the orders and submits
//!   that many steps (at most [`GpuFlock::max_steps_per_frame`]) to the render device.
//! - The flock's compute pipelines compile on Bevy's async compute pool from when the plugin
//!   finishes, as Bevy's `PipelineCache` compiles its own off the frames (`flock_gpu` is
//!   engine-free, so it cannot hand them to the cache): no frame waits for the driver's
//!   compiler. Until they are ready ([`GpuFlock::is_ready`]) boids and orders wait and fixed
//!   steps are not taken; the flock is made at the first frame after.
//! - [`GpuFlockReadback`] holds positions and velocities copied back a few frames late, while
//!   [`GpuFlock::set_readback`] is on.
//! - Each camera that sees the flock's render layers draws it in one instanced draw from the
//!   boid buffer, as the app's [`BoidPrefab`](crate::BoidPrefab) says: sprites in 2D (in
//!   Bevy's transparent 2D phase, sorted with the app's sprites and text by depth at
//!   `GpuFlock::draw_depth`), the prefab's mesh in 3D (depth-tested with the scene).
//! - [`follow_cpu_flock`] has it follow the CPU flock's settings and clock, so the tuning
//!   panel runs it.
//!
//! What the device cannot do is said, and the app runs on: the plugin reads the render
//! device's limits when it finishes, so a spawn that cannot fit is refused before any boid is
//! made (from the first `Startup` system on); a device that cannot run the flock (no compute
//! shaders, too few storage buffers per stage) is named once in a warning and the flock stays
//! empty; every buffer and dispatch is sized within the device's limits before it is asked
//! for (wgpu's error scopes are not used: in Bevy's build of wgpu they are one stack per
//! device, shared with the renderer's threads, so a scope here could unbalance the
//! renderer's); a lost (and replaced) render device stops the flock with a message.
//! [`GpuFlock::stopped`] says why a flock stopped.
//!
//! Gameplay runs on the device too: species and the hunts between them
//! ([`GpuFlock::set_species`], [`GpuFlock::set_hunts`]), points the game moves on entities
//! ([`GpuFlockPoint`]), the app's [`Obstacle`](crate::Obstacle)s
//! ([`GpuFlock::set_obstacle_avoidance`]), an enclosure ([`GpuFlock::set_containment`]) and
//! questions about the boids near a point answered without a read-back
//! ([`GpuFlock::query_near`]).
//!
//! The CPU flock ([`BoidsPlugin`](crate::BoidsPlugin)) and the GPU flock are independent and
//! can live in one app; per-boid weights and the other behaviours are the CPU flock's.
//!
//! ```no_run
//! # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
//! use bevy::prelude::*;
//! use bevy_flock::gpu::{GpuFlock, GpuFlockPlugin};
//! use bevy_flock::prelude::*;
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, GpuFlockPlugin))
//!     .add_systems(Startup, |mut flock: ResMut<GpuFlock>| {
//!         flock.spawn(100_000, Placement::RandomInBounds);
//!     })
//!     .run();
//! ```

mod draw;
mod gameplay;
mod handle;
mod look;
mod readback;
mod stepping;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use bevy::prelude::*;
use bevy::render::renderer::RenderDevice;
use bevy::render::{ExtractSchedule, Render, RenderApp, RenderSystems};

#[cfg(flock_3d)]
use bevy::core_pipeline::{
    Core3d, Core3dSystems,
    core_3d::{main_opaque_pass_3d, main_transparent_pass_3d},
};

pub use gameplay::GpuFlockPoint;
pub use handle::{DEFAULT_MAX_STEPS_PER_FRAME, GpuFlock};
pub use readback::GpuFlockReadback;
pub use stepping::RenderGpuFlock;

/// The GPU kernel, re-exported: `flock_gpu` in `bevy_flock`, `flock_gpu3d` in `bevy_flock3d`.
pub use flock_gpu;

#[cfg(flock_3d)]
use draw::draw_gpu_flock;
use draw::{GpuDrawPipelines, add_draw_shader};
use handle::DeviceReport;
use look::{RenderGpuLook, extract_gpu_look};
use readback::{read_back_gpu_flock, readback_channel, receive_gpu_readback};
use stepping::{extract_gpu_flock, step_gpu_flock};

/// Adds the GPU flock: the [`GpuFlock`] handle (yours if inserted before, else an empty flock
/// with the default settings), [`GpuFlockReadback`], the fixed-step count in `FixedUpdate`,
/// and the render world's stepping and drawing. Boids are drawn as the app's
/// [`BoidPrefab`](crate::BoidPrefab) says, the resource the CPU flock's boids are drawn with
/// (added here if the app has none). Needs Bevy's renderer (`DefaultPlugins`, or a headless
/// `RenderPlugin`); without it the plugin logs an error and adds only the main world's part.
#[derive(Debug, Clone, Copy, Default)]
pub struct GpuFlockPlugin;

/// The app's render device as the GPU flock sees it, shared by the main and render worlds:
/// every [`GpuFlock`] handle joins it, so one inserted later learns the device's limit.
#[derive(Resource, Clone, Default)]
pub(crate) struct GpuDeviceLink(pub(crate) Arc<DeviceReport>);

impl Plugin for GpuFlockPlugin {
    fn build(&self, app: &mut App) {
        let (receiver, sender) = readback_channel();
        let link = GpuDeviceLink::default();
        app.init_resource::<GpuFlock>()
            .init_resource::<GpuFlockReadback>()
            .init_resource::<crate::BoidPrefab>()
            .insert_resource(receiver)
            .insert_resource(link.clone())
            .add_systems(First, join_device)
            .add_systems(FixedUpdate, count_fixed_step)
            .add_systems(PreUpdate, receive_gpu_readback)
            .add_systems(
                PostUpdate,
                gameplay::gather_gpu_gameplay.after(TransformSystems::Propagate),
            )
            .register_type::<GpuFlockPoint>();
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            error!("GpuFlockPlugin: the app has no renderer (add it after DefaultPlugins)");
            return;
        };
        render_app
            .insert_resource(link)
            .init_resource::<RenderGpuFlock>()
            .init_resource::<RenderGpuLook>()
            .init_resource::<GpuDrawPipelines>()
            .insert_resource(sender)
            .add_systems(ExtractSchedule, (extract_gpu_flock, extract_gpu_look))
            .add_systems(
                Render,
                (step_gpu_flock, read_back_gpu_flock)
                    .chain()
                    .in_set(RenderSystems::PrepareResources),
            );
        #[cfg(not(flock_3d))]
        render_app.add_systems(Render, draw::queue_gpu_flock.in_set(RenderSystems::Queue));
        #[cfg(flock_3d)]
        render_app.add_systems(
            Core3d,
            draw_gpu_flock
                .after(main_opaque_pass_3d)
                .before(main_transparent_pass_3d)
                .in_set(Core3dSystems::MainPass),
        );
    }

    fn finish(&self, app: &mut App) {
        read_device_limits(app);
        start_compiling(app);
        #[cfg(not(flock_3d))]
        if let Some(render_app) = app.get_sub_app_mut(RenderApp)
            && let Some(draw_functions) = render_app
                .world()
                .get_resource::<bevy::render::render_phase::DrawFunctions<
                bevy::core_pipeline::core_2d::Transparent2d,
            >>()
        {
            draw_functions.write().add(draw::DrawGpuFlock);
        }
        add_draw_shader(app);
        // The bundled sprites (2D) or the default bird (3D), as `BoidsPlugin` adds them: both
        // leave a prefab the app chose alone, so adding both plugins is the same as one.
        #[cfg(not(flock_3d))]
        crate::render::sprites::add_bundled_sprites(app);
        #[cfg(flock_3d)]
        crate::render::prefab::add_default_mesh(app);
    }
}

/// Has the GPU flock follow the CPU flock's controls: its [`FlockSettings`](crate::FlockSettings)
/// whenever they change, and its [`FlockClock`](crate::FlockClock): paused when the clock is
/// paused, running when it resumes, and one step for each single step the paused clock takes.
/// Add it to `Update` to run the GPU flock from the tuning panel (its settings, Pause and Step)
/// or to have it fly in bounds that follow the camera. Settings the GPU flock refuses are
/// logged and leave it as it is (see [`GpuFlock::set_config`]).
pub fn follow_cpu_flock(
    settings: Res<crate::FlockSettings>,
    clock: Option<Res<crate::FlockClock>>,
    time: Res<Time<Fixed>>,
    mut flock: ResMut<GpuFlock>,
    mut followed: Local<Option<(bool, u64)>>,
) {
    if settings.is_changed() {
        // A refusal is logged by `set_config`.
        let _ = flock.set_config(settings.config);
    }
    let Some(clock) = clock else {
        return;
    };
    let (paused, steps) = (clock.is_paused(), clock.steps_taken());
    match *followed {
        // Only the clock's changes are followed: the GPU flock can still be paused on its own.
        Some((was_paused, _)) if paused != was_paused => flock.set_paused(paused),
        Some((_, last_steps)) if paused => {
            for _ in last_steps..steps {
                flock.step_once(time.timestep().as_secs_f32());
            }
        }
        Some(_) => {}
        None => flock.set_paused(paused),
    }
    *followed = Some((paused, steps));
}

/// Reads the render device's limits into the link, or stops the flock with a warning where the
/// device cannot run it; the handle there is joined to the link.
fn read_device_limits(app: &mut App) {
    let Some(link) = app.world().get_resource::<GpuDeviceLink>().cloned() else {
        return;
    };
    if let Some(device) = app.world().get_resource::<RenderDevice>() {
        let limits = device.limits();
        match flock_gpu::check_limits(&limits) {
            Ok(()) => link
                .0
                .limit
                .store(flock_gpu::max_boids(&limits), Ordering::Relaxed),
            Err(error) => {
                warn!("GPU flock: {error}; the app runs on without the GPU flock");
                link.0.limit.store(0, Ordering::Relaxed);
                link.0.stop(error.to_string());
            }
        }
    }
    if let Some(mut flock) = app.world_mut().get_resource_mut::<GpuFlock>() {
        flock.join(link.0);
    }
}

/// Starts compiling the flock's pipelines on the async compute pool while the app starts, where
/// the device can run the flock (`step_gpu_flock` makes the flock once they are ready).
fn start_compiling(app: &mut App) {
    let Some(link) = app.world().get_resource::<GpuDeviceLink>().cloned() else {
        return;
    };
    let Some(device) = app.world().get_resource::<RenderDevice>().cloned() else {
        return;
    };
    if link.0.stopped().is_some() {
        return;
    }
    let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
        return;
    };
    if let Some(mut render_flock) = render_app.world_mut().get_resource_mut::<RenderGpuFlock>() {
        render_flock.compiling = Some(stepping::compile_pipelines(&device, &link.0));
    }
}

/// In `First`: a handle inserted since the last frame joins the app's device (its limit; the
/// device's boids of the handle it replaced are cleared).
fn join_device(link: Res<GpuDeviceLink>, flock: Option<ResMut<GpuFlock>>) {
    if let Some(mut flock) = flock
        && !flock.shares(&link.0)
    {
        flock.join(Arc::clone(&link.0));
    }
}

/// One run of the fixed schedule: one GPU step for the next frame.
fn count_fixed_step(mut flock: ResMut<GpuFlock>, time: Res<Time>) {
    flock.count_fixed_step(time.delta_secs());
}
