//! [`GpuFlock`]: the main world's handle on the flock that lives on the GPU. It holds no boids,
//! only the orders for the render world (spawn, clear, settings) and the fixed steps to run.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use flock_core::{ConfigError, FlockConfig, Vector, random_direction, random_point};
use flock_gpu::{NearQuery, QueryResult};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

use super::gameplay::{Gameplay, GameplayOrders};
use crate::spawn::Placement;

/// The most fixed steps one frame runs on the GPU by default: after a long frame the flock
/// falls behind the fixed clock instead of spending the next frames catching up.
pub const DEFAULT_MAX_STEPS_PER_FRAME: u32 = 4;

/// The flock on the GPU, seen from the main world: spawn and clear boids, change the settings,
/// pause it, ask for read-backs. The boids themselves live in Bevy's render world (a
/// [`flock_gpu::DeviceFlock`]), where [`GpuFlockPlugin`](super::GpuFlockPlugin) applies these
/// orders at the next extract and steps the flock once for every run of the main world's fixed
/// schedule since the last frame (at most [`GpuFlock::max_steps_per_frame`]).
///
/// The plugin reads the render device's limits when it finishes, so from the first `Startup`
/// system on a spawn that cannot fit ([`GpuFlock::device_limit`]) is refused before a single
/// boid is made; a handle inserted later learns the limit at the next frame, and a handle
/// inserted in place of another starts a new flock (the device's boids are cleared).
/// [`GpuFlock::len`] is always the device's count: boids the device refuses after all are
/// taken off it once the render world reports them.
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
    /// The count once the orders handed to the render world so far are applied.
    count_at_extract: usize,
    /// Whether a `Clear` waits among the orders (the count is then the orders' alone).
    clear_waiting: bool,
    render_layers: RenderLayers,
    /// The 2D flock's z.
    #[cfg(not(flock_3d))]
    draw_depth: f32,
    gameplay: Gameplay,
}

/// The most boids a handle takes before the plugin has read the device: the kernel's own
/// bound on any device.
const UNKNOWN_DEVICE_LIMIT: usize = flock_gpu::MAX_BOIDS;

/// What the main and render worlds share about the device: the most boids it holds, the last
/// step time it measured, the count after the orders it applied, and why the flock stopped.
#[derive(Debug)]
pub(crate) struct DeviceReport {
    /// The most boids the device holds ([`UNKNOWN_DEVICE_LIMIT`] until the plugin reads it).
    pub limit: AtomicUsize,
    /// Nanoseconds; `u64::MAX` while there is no measurement.
    pub step_nanos: AtomicU64,
    /// Frames of orders handed to the render world.
    pub extracted: AtomicU64,
    /// Frames of orders the render world has applied.
    pub applied: AtomicU64,
    /// Boids on the device after the last applied frame.
    pub count: AtomicUsize,
    /// Whether the flock's pipelines are compiled, so the render world makes the flock at its
    /// next frame: steps are handed over only from then on.
    pub ready: AtomicBool,
    /// Why the flock stopped (a device that cannot run it, a lost device, a failed step).
    pub stopped: Mutex<Option<String>>,
    /// The last answer to a question about the boids near a point, until the handle takes it.
    pub query_answer: Mutex<Option<(NearQuery, QueryResult)>>,
}

impl Default for DeviceReport {
    fn default() -> Self {
        Self {
            limit: AtomicUsize::new(UNKNOWN_DEVICE_LIMIT),
            step_nanos: AtomicU64::new(u64::MAX),
            extracted: AtomicU64::new(0),
            applied: AtomicU64::new(0),
            count: AtomicUsize::new(0),
            ready: AtomicBool::new(false),
            stopped: Mutex::new(None),
            query_answer: Mutex::new(None),
        }
    }
}

impl DeviceReport {
    /// Why the flock stopped, if it has.
    pub fn stopped(&self) -> Option<String> {
        self.stopped.lock().ok().and_then(|reason| reason.clone())
    }

    /// Stops the flock for `reason` (the first reason stands), with no boids.
    pub fn stop(&self, reason: String) {
        if let Ok(mut stopped) = self.stopped.lock()
            && stopped.is_none()
        {
            *stopped = Some(reason);
        }
        self.count.store(0, Ordering::Release);
    }
}

/// A change to the boids, applied in order in the render world.
#[derive(Debug, Clone)]
pub(crate) enum GpuOrder {
    /// New boids after the existing ones, all of one species.
    Add {
        positions: Vec<Vector>,
        velocities: Vec<Vector>,
        species: u32,
    },
    /// No boids.
    Clear,
}

/// What one extract hands to the render world.
#[derive(Debug, Default)]
pub(crate) struct FrameOrders {
    pub orders: Vec<GpuOrder>,
    /// Which extract this is (the report's `extracted` after it).
    pub number: u64,
    pub config: Option<FlockConfig>,
    pub steps: u32,
    pub dt: f32,
    pub readback: bool,
    pub gameplay: GameplayOrders,
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
            count_at_extract: 0,
            clear_waiting: false,
            render_layers: RenderLayers::default(),
            #[cfg(not(flock_3d))]
            draw_depth: 0.0,
            gameplay: Gameplay::default(),
        };
        // Refused settings were logged; the defaults stand.
        let _ = flock.set_config(config);
        flock
    }

    /// The settings the flock steps with.
    pub fn config(&self) -> &FlockConfig {
        &self.config
    }

    /// New settings from the next frame on, if [`flock_gpu::check_config`] accepts them:
    /// valid as the CPU flock's `FlockSettings` are checked ([`FlockConfig::validate`]), with
    /// metric neighbours (topological ones are the CPU flock's: refused, never silently run as
    /// metric). Refused ones change nothing: the error is
    /// returned and logged as a warning (once while the same problem repeats, so a UI that
    /// writes the same settings every frame does not flood the log).
    pub fn set_config(&mut self, config: FlockConfig) -> Result<(), ConfigError> {
        if let Err(error) = flock_gpu::check_config(&config) {
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

    /// How many boids the flock has once the orders given so far are applied: the device's
    /// count, with the boids spawned (or cleared) since the last frame.
    pub fn len(&self) -> usize {
        if self.clear_waiting {
            return self.count;
        }
        let applied = self.report.applied.load(Ordering::Acquire);
        if applied < self.report.extracted.load(Ordering::Acquire) {
            // The render world has not applied the last frame's orders yet.
            return self.count;
        }
        let device = self.report.count.load(Ordering::Acquire);
        let since_extract = self.count.saturating_sub(self.count_at_extract);
        device.saturating_add(since_extract)
    }

    /// Whether the flock has no boids.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The most boids the device holds, as its buffer limits say
    /// ([`flock_gpu::max_boids`]), known once the plugin has finished (so from the first
    /// `Startup` system on); for a handle not in an app yet, the kernel's bound on any device,
    /// [`flock_gpu::MAX_BOIDS`].
    pub fn device_limit(&self) -> usize {
        self.report.limit.load(Ordering::Relaxed)
    }

    /// Why the GPU flock stopped, if it has: a device that cannot run it (no compute shaders,
    /// too few storage buffers), a lost device, a step the device refused. A stopped flock has
    /// no boids and refuses new ones; the rest of the app runs on.
    pub fn stopped(&self) -> Option<String> {
        self.report.stopped()
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
    /// own seeded generator. Refused with a warning, adding none and allocating nothing: more
    /// boids in all than the device holds ([`GpuFlock::device_limit`]), more than this
    /// machine's memory can hold, a placement that is not finite, a stopped flock. Returns how
    /// many were added: `count` or 0.
    pub fn spawn(&mut self, count: usize, placement: Placement) -> usize {
        self.spawn_species(count, placement, 0)
    }

    /// [`GpuFlock::spawn`] with boids of `species` (see [`GpuFlock::set_species`]); a species
    /// past those set (past 0 without species) is refused with a warning, adding none.
    pub fn spawn_species(&mut self, count: usize, placement: Placement, species: u32) -> usize {
        if let Err(error) = self.gameplay.check_spawn_species(species) {
            warn!("GPU flock: cannot spawn boids of species {species}: {error}; adding none");
            return 0;
        }
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
        let Some((mut positions, mut velocities)) = self.make_room(count) else {
            return 0;
        };
        let bounds = self.config.bounds;
        let speed = self.config.max_speed;
        let rng = &mut self.rng;
        positions.extend((0..count).map(|_| match placement {
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
        }));
        velocities.extend((0..count).map(|_| random_direction(&mut self.rng) * speed));
        self.push(positions, velocities, species);
        count
    }

    /// Adds boids with these positions and velocities (one velocity per position). Refused
    /// with a warning, adding none: slices of different lengths, a value that is not finite,
    /// more boids in all than the device holds, a stopped flock. Returns how many were added:
    /// all of them or 0.
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
        let Some((mut kept_positions, mut kept_velocities)) = self.make_room(positions.len())
        else {
            return 0;
        };
        kept_positions.extend_from_slice(positions);
        kept_velocities.extend_from_slice(velocities);
        self.push(kept_positions, kept_velocities, 0);
        positions.len()
    }

    /// Removes every boid.
    pub fn clear(&mut self) {
        self.gameplay.note_cleared();
        self.orders.push(GpuOrder::Clear);
        self.count = 0;
        self.clear_waiting = true;
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

    /// The 2D flock's z (0 by default): it is drawn at this depth in Bevy's transparent 2D
    /// phase, sorted with the app's sprites and 2D meshes by their z, so it is drawn over those
    /// below it and under those above it.
    #[cfg(not(flock_3d))]
    pub fn draw_depth(&self) -> f32 {
        self.draw_depth
    }

    /// Sets [`GpuFlock::draw_depth`] from the next frame on. Refused, keeping the last: a z
    /// that is not finite or beyond `FlockConfig::MAX_MAGNITUDE`.
    #[cfg(not(flock_3d))]
    pub fn set_draw_depth(&mut self, z: f32) -> Result<(), ConfigError> {
        if !(z.is_finite() && z.abs() <= FlockConfig::MAX_MAGNITUDE) {
            let error = ConfigError {
                field: "draw_depth",
                value: z,
                reason: "must be finite and within FlockConfig::MAX_MAGNITUDE",
            };
            warn!("GPU flock: {error}; the flock keeps its depth");
            return Err(error);
        }
        self.draw_depth = z;
        Ok(())
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

    /// Whether the device's flock is ready to step: its compute pipelines, compiled on the async
    /// compute pool from when the plugin finishes (so no frame waits for the driver's
    /// compiler), are ready, and the flock is made at the next frame. Until then boids and
    /// orders wait, and fixed steps are not taken.
    pub fn is_ready(&self) -> bool {
        self.report.ready.load(Ordering::Acquire)
    }

    /// Fixed steps handed to the render world so far (those dropped by the cap, and those
    /// before the device's flock existed, not counted).
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
        // The device's count, with what the refusals it reported took off.
        self.count = self.len();
        self.count_at_extract = self.count;
        self.clear_waiting = false;
        let number = self.report.extracted.fetch_add(1, Ordering::AcqRel) + 1;
        // Until the device's flock exists there is nothing to step: the fixed steps are let go,
        // as the cap lets them go, rather than run all at once on the first frame it exists.
        let ready = self.report.ready.load(Ordering::Acquire);
        let steps = if ready {
            self.steps_waiting.min(self.max_steps_per_frame)
        } else {
            0
        };
        self.steps_waiting = 0;
        self.steps_taken += u64::from(steps);
        let config = self.config_changed.then_some(self.config);
        self.config_changed = false;
        FrameOrders {
            orders: std::mem::take(&mut self.orders),
            number,
            config,
            steps,
            dt: self.step_dt,
            readback: self.readback,
            gameplay: self.gameplay.take_orders(),
        }
    }

    /// Whether this handle shares `report` already.
    pub(crate) fn shares(&self, report: &Arc<DeviceReport>) -> bool {
        Arc::ptr_eq(&self.report, report)
    }

    /// Joins the app's device: its limit and state from now on. The device's boids are the
    /// last handle's, so they are cleared first and this handle's own orders follow, as many as
    /// fit under the limit (the rest dropped with a warning); its settings are sent again.
    pub(crate) fn join(&mut self, report: Arc<DeviceReport>) {
        self.report = report;
        self.orders.insert(0, GpuOrder::Clear);
        self.clear_waiting = true;
        self.config_changed = true;
        let limit = if self.stopped().is_some() {
            0
        } else {
            self.device_limit()
        };
        let mut kept = 0usize;
        let mut dropped = 0usize;
        self.orders.retain(|order| match order {
            GpuOrder::Clear => {
                kept = 0;
                true
            }
            GpuOrder::Add { positions, .. } => {
                let fits = kept.saturating_add(positions.len()) <= limit;
                if fits {
                    kept += positions.len();
                } else {
                    dropped += positions.len();
                }
                fits
            }
        });
        if dropped > 0 {
            warn!(
                "GPU flock: {dropped} boids spawned before the device was known do not fit \
                 (it holds {limit}); they were not added"
            );
        }
        self.count = kept;
    }

    /// Empty position and velocity buffers with room for `count` more boids, or `None` with a
    /// warning when they cannot be added: a stopped flock, more in all than the device holds,
    /// more than this machine can allocate.
    fn make_room(&self, count: usize) -> Option<(Vec<Vector>, Vec<Vector>)> {
        if count == 0 {
            return None;
        }
        if let Some(reason) = self.stopped() {
            warn!("GPU flock: stopped ({reason}); adding no boids");
            return None;
        }
        let limit = self.device_limit();
        let current = self.len();
        if current.checked_add(count).is_none_or(|total| total > limit) {
            warn!(
                "GPU flock: {count} more boids do not fit with the {current} there are: the \
                 device holds {limit}; adding none"
            );
            return None;
        }
        let mut positions = Vec::new();
        let mut velocities = Vec::new();
        if positions.try_reserve_exact(count).is_err()
            || velocities.try_reserve_exact(count).is_err()
        {
            warn!("GPU flock: this machine cannot allocate {count} boids; adding none");
            return None;
        }
        Some((positions, velocities))
    }

    fn push(&mut self, positions: Vec<Vector>, velocities: Vec<Vector>, species: u32) {
        if positions.is_empty() {
            return;
        }
        self.count += positions.len();
        self.gameplay.note_spawned(species);
        self.orders.push(GpuOrder::Add {
            positions,
            velocities,
            species,
        });
    }

    /// The gameplay asked of the device.
    pub(crate) fn gameplay(&self) -> &Gameplay {
        &self.gameplay
    }

    /// The gameplay asked of the device, to change.
    pub(crate) fn gameplay_mut(&mut self) -> &mut Gameplay {
        &mut self.gameplay
    }

    /// The answer the render world left, taken.
    pub(crate) fn take_query_answer(&mut self) -> Option<(NearQuery, QueryResult)> {
        self.report
            .query_answer
            .lock()
            .ok()
            .and_then(|mut answer| answer.take())
    }
}

impl Default for GpuFlock {
    fn default() -> Self {
        Self::new(FlockConfig::default(), 0)
    }
}
