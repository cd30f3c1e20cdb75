//! The ways in: `FlockPlugins`, the plugin group a user can trim, and `BoidsPlugin`, the whole
//! flock in one plugin.

use bevy::app::PluginGroupBuilder;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use crate::behaviours::FlockBehavioursPlugin;
use crate::plugin::FlockCorePlugin;

/// The flock's plugins, as `DefaultPlugins` is Bevy's:
///
/// - [`FlockCorePlugin`]: the step (settings, clock, random numbers, snapshot, neighbour index,
///   flocking forces, integration, edges, facing);
/// - [`FlockBehavioursPlugin`]: the steering behaviours;
/// - `FlockRenderPlugin` (feature `render`): boids drawn as sprites (2D) or meshes (3D), and the
///   pointer;
/// - `FlockPanelPlugin` (feature `panel`) and `GpuFlockPlugin` (feature `gpu`), in the group but
///   off until enabled: the tuning panel is a window over the game, and the GPU flock is a
///   second flock of its own.
///
/// Trim it with `.build().disable::<P>()`, turn on what is off with `.enable::<P>()`:
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// # #[cfg(feature = "render")]
/// # fn main() {
/// // A server: the step and the behaviours, nothing drawn.
/// App::new().add_plugins((
///     MinimalPlugins,
///     FlockPlugins::default()
///         .with_seed(7)
///         .build()
///         .disable::<FlockRenderPlugin>(),
/// ));
/// # }
/// # #[cfg(not(feature = "render"))]
/// # fn main() {}
/// ```
#[derive(Debug, Clone, Default)]
pub struct FlockPlugins {
    core: FlockCorePlugin,
}

impl FlockPlugins {
    /// The flock stepped in `schedule` (`FixedUpdate` by default; the step uses that
    /// schedule's `Time`).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            core: FlockCorePlugin::new(schedule),
        }
    }

    /// Sets `FixedUpdate` to `steps_per_second` (60 by default), as
    /// [`FlockCorePlugin::with_step_rate`].
    pub fn with_step_rate(self, steps_per_second: Option<f64>) -> Self {
        Self {
            core: self.core.with_step_rate(steps_per_second),
        }
    }

    /// Seeds the flock's random number generator (0 by default), so a run can be replayed.
    pub fn with_seed(self, seed: u64) -> Self {
        Self {
            core: self.core.with_seed(seed),
        }
    }
}

impl PluginGroup for FlockPlugins {
    fn build(self) -> PluginGroupBuilder {
        let behaviours = FlockBehavioursPlugin::new(self.core.schedule);
        let group = PluginGroupBuilder::start::<Self>()
            .add(self.core)
            .add(behaviours);
        #[cfg(feature = "render")]
        let group = group.add(crate::render::FlockRenderPlugin);
        #[cfg(feature = "panel")]
        let group = group
            .add(crate::panel::FlockPanelPlugin::default())
            .disable::<crate::panel::FlockPanelPlugin>();
        #[cfg(feature = "gpu")]
        let group = group
            .add(crate::gpu::GpuFlockPlugin)
            .disable::<crate::gpu::GpuFlockPlugin>();
        group
    }
}

/// Boids in one line: `app.add_plugins(BoidsPlugin::default())`. The step, the behaviours and
/// (feature `render`) the drawing: [`FlockPlugins`] as it comes, in one plugin.
#[derive(Debug, Clone, Default)]
pub struct BoidsPlugin {
    plugins: FlockPlugins,
}

impl BoidsPlugin {
    /// The plugin with its simulation in `schedule` (`FixedUpdate` by default; the step uses
    /// that schedule's `Time`).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            plugins: FlockPlugins::new(schedule),
        }
    }

    /// The fixed steps per second the plugin sets by default:
    /// [`FlockCorePlugin::STEPS_PER_SECOND`].
    pub const STEPS_PER_SECOND: f64 = FlockCorePlugin::STEPS_PER_SECOND;

    /// Sets `FixedUpdate` to `steps_per_second` (60 by default), as
    /// [`FlockCorePlugin::with_step_rate`].
    pub fn with_step_rate(self, steps_per_second: Option<f64>) -> Self {
        Self {
            plugins: self.plugins.with_step_rate(steps_per_second),
        }
    }

    /// Seeds the flock's random number generator (0 by default), so a run can be replayed.
    pub fn with_seed(self, seed: u64) -> Self {
        Self {
            plugins: self.plugins.with_seed(seed),
        }
    }
}

impl Plugin for BoidsPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(self.plugins.clone());
    }
}
