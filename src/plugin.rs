//! `FlockCorePlugin`: the flock's step and the resources it shares.

use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use crate::clock::{FlockClock, flock_is_stepping, tick_clock};
use crate::components::{Acceleration, Boid, SteeringWeights, Velocity};
use crate::dimension::face_velocity;
use crate::identity::{BoidId, BoidIds};
use crate::motion::{apply_boid_edges, integrate_boids};
use crate::rng::FlockRng;
use crate::schedule::{FlockSystems, register_types};
use crate::settings::{
    ActiveFlockSettings, FlockSettings, follow_camera_bounds, validate_settings,
};
use crate::steer::{FlockBuffers, build_index, snapshot_boids, steer_boids};

/// The flock's step: registers the boid's components, inserts the resources ([`FlockSettings`],
/// [`FlockRng`], [`FlockClock`], [`FlockBuffers`]; ones you inserted before are kept) and runs
/// [`FlockSystems`] (snapshot, index, flocking forces, integration, edges and facing) in its
/// schedule, `FixedUpdate` by default, which it sets to [`FlockCorePlugin::STEPS_PER_SECOND`]
/// (60) steps a second: the source documents step once a frame at 60 frames per second, and the
/// presets convert their per-frame numbers at that rate, so a preset stepped at 1/60 s moves as
/// its document does per frame (Bevy's own default is 64). [`FlockCorePlugin::with_step_rate`]
/// chooses another rate, or none. Part of [`FlockPlugins`](crate::FlockPlugins) and
/// [`BoidsPlugin`](crate::BoidsPlugin), which set it up with their own builders.
#[derive(Debug, Clone)]
pub struct FlockCorePlugin {
    pub(crate) schedule: Interned<dyn ScheduleLabel>,
    seed: u64,
    step_rate: Option<f64>,
}

impl Default for FlockCorePlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl FlockCorePlugin {
    /// The flock stepped in `schedule` (`FixedUpdate` by default; the step uses that
    /// schedule's `Time`).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
            seed: 0,
            step_rate: Some(Self::STEPS_PER_SECOND),
        }
    }

    /// The fixed steps per second the plugin sets by default: the source documents' frame
    /// rate, at which the presets' per-frame numbers were converted.
    pub const STEPS_PER_SECOND: f64 = 60.0;

    /// Sets `FixedUpdate` to `steps_per_second` when the plugin is built (60 by default);
    /// `None` leaves `Time<Fixed>` as it is (yours, or Bevy's 64). Only used when the flock
    /// runs in `FixedUpdate`; a rate that is not a finite positive number is refused with an
    /// error in the log.
    pub fn with_step_rate(mut self, steps_per_second: Option<f64>) -> Self {
        self.step_rate = steps_per_second;
        self
    }

    /// Seeds the flock's random number generator (0 by default), so a run can be replayed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

impl Plugin for FlockCorePlugin {
    fn finish(&self, _app: &mut App) {
        // By now the TaskPoolPlugin has made the pools. Bevy's default split leaves small
        // machines few compute threads, and steering runs on those: say how to get more.
        let cores = bevy::tasks::available_parallelism();
        if let Some(pool) = bevy::tasks::ComputeTaskPool::try_get()
            && pool.thread_num() < cores
        {
            info!(
                "bevy_flock: the compute task pool has {} of {cores} cores; \
                 `DefaultPlugins.set(bevy_flock::all_cores_for_compute())` steers on all of them",
                pool.thread_num()
            );
        }
    }

    fn build(&self, app: &mut App) {
        register_types! { app =>
            Boid, Velocity, Acceleration, SteeringWeights, FlockSettings, FlockClock, BoidId, BoidIds
        }
        app.init_resource::<FlockSettings>()
            .init_resource::<ActiveFlockSettings>()
            .init_resource::<FlockClock>()
            .init_resource::<FlockBuffers>()
            .init_resource::<BoidIds>()
            .insert_resource(FlockRng::new(self.seed));
        #[cfg(flock_3d)]
        app.register_type::<crate::dimension::Banking>();

        // Take settings set before the first frame if they are valid, so the first step already
        // uses them; invalid ones are logged by `validate_settings` on its first run (once).
        let settings = app.world().resource::<FlockSettings>().clone();
        if settings.validate().is_ok() {
            app.insert_resource(ActiveFlockSettings(settings));
        }

        if let Some(rate) = self.step_rate
            && self.schedule == FixedUpdate.intern()
        {
            if rate.is_finite() && rate > 0.0 {
                app.insert_resource(Time::<Fixed>::from_hz(rate));
            } else {
                error!("bevy_flock: a step rate of {rate} per second is not valid; left as it was");
            }
        }

        app.add_systems(Update, follow_camera_bounds);

        app.configure_sets(
            self.schedule,
            (
                FlockSystems::Snapshot,
                FlockSystems::Index,
                FlockSystems::Steer,
                FlockSystems::Behaviours,
                FlockSystems::Integrate,
                FlockSystems::Edges,
                FlockSystems::TransformSync,
            )
                .chain()
                .run_if(flock_is_stepping),
        )
        .add_systems(
            self.schedule,
            (
                (validate_settings, tick_clock)
                    .chain()
                    .before(FlockSystems::Snapshot),
                snapshot_boids.in_set(FlockSystems::Snapshot),
                build_index.in_set(FlockSystems::Index),
                steer_boids.in_set(FlockSystems::Steer),
                integrate_boids.in_set(FlockSystems::Integrate),
                apply_boid_edges.in_set(FlockSystems::Edges),
                face_velocity.in_set(FlockSystems::TransformSync),
            ),
        );
    }
}
