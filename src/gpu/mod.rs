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
//! - [`GpuFlockReadback`] holds positions and velocities copied back a few frames late, while
//!   [`GpuFlock::set_readback`] is on.
//!
//! The CPU flock ([`BoidsPlugin`](crate::BoidsPlugin)) and the GPU flock are independent and
//! can live in one app. The GPU flock's boids use the config's rule weights; behaviours,
//! species and per-boid weights are the CPU flock's.
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

mod handle;
mod readback;
mod stepping;

use bevy::prelude::*;
use bevy::render::{ExtractSchedule, Render, RenderApp, RenderSystems};

pub use handle::{DEFAULT_MAX_STEPS_PER_FRAME, GpuFlock};
pub use readback::GpuFlockReadback;
pub use stepping::RenderGpuFlock;

/// The GPU kernel, re-exported: `flock_gpu` in `bevy_flock`, `flock_gpu3d` in `bevy_flock3d`.
pub use flock_gpu;

use readback::{read_back_gpu_flock, readback_channel, receive_gpu_readback};
use stepping::{extract_gpu_flock, step_gpu_flock};

/// Adds the GPU flock: the [`GpuFlock`] handle (yours if inserted before, else an empty flock
/// with the default settings), [`GpuFlockReadback`], the fixed-step count in `FixedUpdate`,
/// and the render world's stepping. Needs Bevy's renderer (`DefaultPlugins`, or a headless
/// `RenderPlugin`); without it the plugin logs an error and adds only the main world's part.
#[derive(Debug, Clone, Copy, Default)]
pub struct GpuFlockPlugin;

impl Plugin for GpuFlockPlugin {
    fn build(&self, app: &mut App) {
        let (receiver, sender) = readback_channel();
        app.init_resource::<GpuFlock>()
            .init_resource::<GpuFlockReadback>()
            .insert_resource(receiver)
            .add_systems(FixedUpdate, count_fixed_step)
            .add_systems(PreUpdate, receive_gpu_readback);
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            error!("GpuFlockPlugin: the app has no renderer (add it after DefaultPlugins)");
            return;
        };
        render_app
            .init_resource::<RenderGpuFlock>()
            .insert_resource(sender)
            .add_systems(ExtractSchedule, extract_gpu_flock)
            .add_systems(
                Render,
                (step_gpu_flock, read_back_gpu_flock)
                    .chain()
                    .in_set(RenderSystems::PrepareResources),
            );
    }
}

/// One run of the fixed schedule: one GPU step for the next frame.
fn count_fixed_step(mut flock: ResMut<GpuFlock>, time: Res<Time>) {
    flock.count_fixed_step(time.delta_secs());
}
