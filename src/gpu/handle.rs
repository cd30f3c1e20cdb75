//! [`GpuFlock`]: the main world's handle on the flock that lives on the GPU. It holds no boids,
//! only the orders for the render world (spawn, clear, settings) and the fixed steps to run.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use flock_core::{ConfigError, FlockConfig, Vector, random_direction, random_point};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use crate::spawn::Placement;

/// The most fixed steps one frame runs on the GPU by default: after a long frame the flock
/// falls behind the fixed clock instead of spending the next frames catching up.
pub const DEFAULT_MAX_STEPS_PER_FRAME: u32 = 4;

/// The flock on the GPU, seen from the main world: spawn and clear boids, change the settings,
/// pause it, ask for read-backs. The boids themselves live in Bevy's render world (a
/// [`flock_gpu::GpuFlock`]), where [`GpuFlockPlugin`](super::GpuFlockPlugin) applies these
/// orders at the next extract and steps the flock once for every run of the main world's fixed
/// schedule since the last frame (at most [`GpuFlock::max_steps_per_frame`]).
///
/// ```no_run
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::gpu::GpuFlock;
/// use bevy_flock::prelude::*;
///
/// fn setup(mut flock: ResMut<GpuFlock>) {
///     flock.spawn(100_000, Placement::RandomInBounds);
/// }
/// # bevy::ecs::system::assert_is_system(setup);
/// ```
#[derive(Resource, Debug)]
pub struct GpuFlock {
    config: FlockConfig,
    rng: Xoshiro256PlusPlus,
    count: usize,
    orders: Vec<GpuOrder>,
    config_changed: bool,
    paused: bool,
    readback: bool,
    max_steps_per_frame: u32,
    steps_waiting: u32,
    steps_taken: u64,
    step_dt: f32,
    logged: Option<ConfigError>,
    report: Arc<DeviceReport>,
    render_layers: RenderLayers,
}

/// What the render world reports back about the device: the most boids it holds and the last
/// step time it measured.
#[derive(Debug)]
pub(crate) struct DeviceReport {
    /// `usize::MAX` until the flock is made on the device.
    pub limit: AtomicUsize,
    /// Nanoseconds; `u64::MAX` while there is no measurement.
    pub step_nanos: AtomicU64,
}

impl Default for DeviceReport {
    fn default() -> Self {
        Self {
            limit: AtomicUsize::new(usize::MAX),
            step_nanos: AtomicU64::new(u64::MAX),
        }
    }
}

/// A change to the boids, applied in order in the render world.
#[derive(Debug, Clone)]
pub(crate) enum GpuOrder {
    /// New boids after the existing ones.
    Add {
        positions: Vec<Vector>,
        velocities: Vec<Vector>,
    },
    /// No boids.
    Clear,
}

/// What one extract hands to the render world.
#[derive(Debug, Default)]
pub(crate) struct FrameOrders {
    pub orders: Vec<GpuOrder>,
    pub config: Option<FlockConfig>,
    pub steps: u32,
    pub dt: f32,
    pub readback: bool,
}

impl GpuFlock {
    /// An empty flock with these settings and a seed for [`GpuFlock::spawn`]'s random numbers.
    /// Invalid settings are refused with a warning and the defaults used instead.
    pub fn new(config: FlockConfig, seed: u64) -> Self {
        let mut flock = Self {
            config: FlockConfig::default(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            count: 0,
            orders: Vec::new(),
            config_changed: true,
            paused: false,
            readback: false,
            max_steps_per_frame: DEFAULT_MAX_STEPS_PER_FRAME,
            steps_waiting: 0,
            steps_taken: 0,
            step_dt: 0.0,
            logged: None,
            report: Arc::default(),
            render_layers: RenderLayers::default(),
        };
        // Refused settings were logged; the defaults stand.
        let _ = flock.set_config(config);
        flock
    }

    /// The settings the flock steps with.
    pub fn config(&self) -> &FlockConfig {
        &self.config
    }

    /// New settings from the next frame on, if [`FlockConfig::validate`] accepts them, as the
    /// CPU flock's `FlockSettings` are checked. Invalid ones change nothing: the error is
    /// returned and logged as a warning (once while the same problem repeats, so a UI that
    /// writes the same settings every frame does not flood the log).
    pub fn set_config(&mut self, config: FlockConfig) -> Result<(), ConfigError> {
        if let Err(error) = config.validate() {
            // Compared by bits: a NaN is the same problem as the NaN before it.
            let repeated = self.logged.as_ref().is_some_and(|last| {
                last.field == error.field
                    && last.reason == error.reason
                    && last.value.to_bits() == error.value.to_bits()
            });
            if !repeated {
                warn!("GPU flock: {error}; keeping the current settings");
                self.logged = Some(error.clone());
            }
            return Err(error);
        }
        self.logged = None;
        if config != self.config {
            self.config = config;
            self.config_changed = true;
        }
        Ok(())
    }

    /// How many boids the flock has once the orders given so far are applied.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the flock has no boids.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The most boids the device holds: unknown (`usize::MAX`) until the render world has
    /// made the flock, then as the device's buffer limits say.
    pub fn device_limit(&self) -> usize {
        self.report.limit.load(Ordering::Relaxed)
    }

    /// How long a step takes on the GPU, as the device last measured it (timestamps around the
    /// step's compute pass, a few frames old): `None` where the device cannot time its passes
    /// (no `TIMESTAMP_QUERY` feature) and until the first measurement arrives.
    pub fn step_time(&self) -> Option<Duration> {
        match self.report.step_nanos.load(Ordering::Relaxed) {
            u64::MAX => None,
            nanos => Some(Duration::from_nanos(nanos)),
        }
    }

    /// Adds `count` boids placed by `placement` (inside the settings' bounds), each heading in
    /// a random direction at the settings' max speed; the random numbers come from the flock's
    /// own seeded generator. Boids past the device's limit are not added (logged). Returns how
    /// many were added.
    pub fn spawn(&mut self, count: usize, placement: Placement) -> usize {
        #[cfg(not(flock_3d))]
        if let Placement::InRect(rect) = placement
            && !(rect.min.is_finite() && rect.max.is_finite() && rect.min.cmple(rect.max).all())
        {
            warn!("GPU flock: cannot spawn boids in {rect:?}: it must be finite, with min <= max");
            return 0;
        }
        if let Placement::At(point) = placement
            && !point.is_finite()
        {
            warn!("GPU flock: cannot spawn boids at {point}: the point is not finite");
            return 0;
        }
        let count = self.room_for(count);
        let bounds = self.config.bounds;
        let speed = self.config.max_speed;
        let rng = &mut self.rng;
        let positions = (0..count)
            .map(|_| match placement {
                Placement::RandomInBounds => random_point(&bounds, rng),
                Placement::At(point) => point,
                #[cfg(not(flock_3d))]
                Placement::InRect(rect) => {
                    use rand::RngExt;
                    Vec2::new(
                        rng.random_range(rect.min.x..=rect.max.x),
                        rng.random_range(rect.min.y..=rect.max.y),
                    )
                }
            })
            .collect();
        let velocities = (0..count)
            .map(|_| random_direction(&mut self.rng) * speed)
            .collect();
        self.push(positions, velocities);
        count
    }

    /// Adds boids with these positions and velocities (one velocity per position). Refused
    /// with a warning, adding none: slices of different lengths, or a value that is not
    /// finite. Boids past the device's limit are not added (logged). Returns how many were
    /// added.
    pub fn spawn_states(&mut self, positions: &[Vector], velocities: &[Vector]) -> usize {
        if positions.len() != velocities.len() {
            warn!(
                "GPU flock: {} positions but {} velocities: one velocity per boid; adding none",
                positions.len(),
                velocities.len()
            );
            return 0;
        }
        let not_finite = positions
            .iter()
            .zip(velocities)
            .position(|(position, velocity)| !(position.is_finite() && velocity.is_finite()));
        if let Some(boid) = not_finite {
            warn!("GPU flock: boid {boid}'s position or velocity is not finite; adding none");
            return 0;
        }
        let count = self.room_for(positions.len());
        self.push(positions[..count].to_vec(), velocities[..count].to_vec());
        count
    }

    /// Removes every boid.
    pub fn clear(&mut self) {
        self.orders.push(GpuOrder::Clear);
        self.count = 0;
    }

    /// Stops stepping (fixed steps while paused are not run later) or goes on.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// Whether the flock is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// One more step of `dt` seconds at the next frame, paused or not (a "step" button). A
    /// `dt` that is not finite or not positive is refused with a warning.
    pub fn step_once(&mut self, dt: f32) {
        if !(dt.is_finite() && dt > 0.0) {
            warn!("GPU flock: cannot step by {dt} seconds; the step must be finite and positive");
            return;
        }
        self.steps_waiting = self.steps_waiting.saturating_add(1);
        self.step_dt = dt;
    }

    /// Whether the render world copies the boids back into
    /// [`GpuFlockReadback`](super::GpuFlockReadback) (off by default: it costs a copy and a
    /// conversion per boid each time).
    pub fn set_readback(&mut self, on: bool) {
        self.readback = on;
    }

    /// The layers the flock is drawn on: cameras that see one of them draw it (layer 0 by
    /// default, as for entities without `RenderLayers`, so an overlay camera on another layer
    /// does not draw the flock again).
    pub fn render_layers(&self) -> &RenderLayers {
        &self.render_layers
    }

    /// Draws the flock on these layers from the next frame on.
    pub fn set_render_layers(&mut self, layers: RenderLayers) {
        self.render_layers = layers;
    }

    /// Whether read-backs are on.
    pub fn readback(&self) -> bool {
        self.readback
    }

    /// The most fixed steps one frame runs ([`DEFAULT_MAX_STEPS_PER_FRAME`] by default); the
    /// fixed steps beyond it are dropped, so after a slow frame the flock runs behind the
    /// fixed clock rather than spending the next frames catching up. At least one.
    pub fn max_steps_per_frame(&self) -> u32 {
        self.max_steps_per_frame
    }

    /// Sets [`GpuFlock::max_steps_per_frame`]; zero is taken as one.
    pub fn set_max_steps_per_frame(&mut self, steps: u32) {
        self.max_steps_per_frame = steps.max(1);
    }

    /// Fixed steps handed to the render world so far (those dropped by the cap not counted).
    pub fn steps_taken(&self) -> u64 {
        self.steps_taken
    }

    /// One run of the fixed schedule: one more step for the next frame, of `dt` seconds.
    pub(crate) fn count_fixed_step(&mut self, dt: f32) {
        if !self.paused {
            self.steps_waiting = self.steps_waiting.saturating_add(1);
            self.step_dt = dt;
        }
    }

    /// The orders and steps since the last extract, handed over and forgotten here.
    pub(crate) fn take_frame(&mut self) -> FrameOrders {
        let steps = self.steps_waiting.min(self.max_steps_per_frame);
        self.steps_waiting = 0;
        self.steps_taken += u64::from(steps);
        let config = self.config_changed.then_some(self.config);
        self.config_changed = false;
        FrameOrders {
            orders: std::mem::take(&mut self.orders),
            config,
            steps,
            dt: self.step_dt,
            readback: self.readback,
        }
    }

    /// Where the render world writes what it learns about the device.
    pub(crate) fn report(&self) -> Arc<DeviceReport> {
        Arc::clone(&self.report)
    }

    /// How many of `count` new boids fit under the device's limit (logged when not all).
    fn room_for(&self, count: usize) -> usize {
        let room = self.device_limit().saturating_sub(self.count);
        if count > room {
            warn!(
                "GPU flock: the device holds {} boids; adding {room} of {count}",
                self.device_limit()
            );
        }
        count.min(room)
    }

    fn push(&mut self, positions: Vec<Vector>, velocities: Vec<Vector>) {
        if positions.is_empty() {
            return;
        }
        self.count += positions.len();
        self.orders.push(GpuOrder::Add {
            positions,
            velocities,
        });
    }
}

impl Default for GpuFlock {
    fn default() -> Self {
        Self::new(FlockConfig::default(), 0)
    }
}
