//! What the GPU scenes (2D and 3D) share: the boid count, the GPU flock following the CPU
//! flock's settings and clock (so the panel's settings, Pause and Step run it), and the
//! readout of the count, the device and the step time.

use bevy::prelude::*;
use bevy::render::renderer::RenderAdapterInfo;
use bevy_flock::gpu::GpuFlock;
use bevy_flock::{FlockSettings, Placement};

use super::stress::blend;
use super::{HelpLine, Shortcuts, add_panel};

/// The boid count: the first argument, else `FLOCK_BOIDS`, else `default`; under
/// `FLOCK_SCREENSHOTS` (software rendering, checked in CI) `screenshot_default` unless given.
pub fn boid_count(default: usize, screenshot_default: usize) -> usize {
    let fallback = if std::env::var_os("FLOCK_SCREENSHOTS").is_some() {
        screenshot_default
    } else {
        default
    };
    super::stress::boid_count(fallback)
}

/// The GPU scenes' controls: space pauses (the flock clock, which the GPU flock follows), N
/// steps once while paused, R spawns the flock again; the panel (where asked for) edits the
/// settings it flies with, and its Pause, Step and Reset run it too.
pub struct GpuSceneControls {
    /// How many boids the scene flies.
    pub count: usize,
}

#[derive(Resource)]
struct GpuSceneCount(usize);

impl Plugin for GpuSceneControls {
    fn build(&self, app: &mut App) {
        app.insert_resource(GpuSceneCount(self.count))
            .add_systems(Startup, spawn_gpu_flock)
            .add_systems(
                Update,
                (
                    bevy_flock::gpu::follow_cpu_flock,
                    super::pause_on_space,
                    super::step_on_n,
                    respawn,
                    show_gpu_timings,
                ),
            );
        // The panel's Reset spawns no CPU boid; the observer below respawns the GPU flock.
        if add_panel(
            app,
            false,
            bevy_flock::SpawnBoids::new(0, Placement::RandomInBounds),
        ) {
            #[cfg(feature = "panel")]
            app.add_observer(
                |_: On<bevy_flock::panel::FlockWasReset>,
                 mut flock: ResMut<GpuFlock>,
                 count: Res<GpuSceneCount>| {
                    flock.clear();
                    flock.spawn(count.0, Placement::RandomInBounds);
                },
            );
        }
    }
}

/// Steps one frame may run while screenshots are taken: software rendering draws a few frames
/// a second, and the flock should still have formed by the screenshots.
const SCREENSHOT_STEPS_PER_FRAME: u32 = 16;

/// Spawns the scene's flock; a count the device cannot hold (the plugin knows its limit from
/// the start, so nothing is allocated) ends the app with an error and a non-zero exit code.
fn spawn_gpu_flock(
    mut flock: ResMut<GpuFlock>,
    settings: Res<FlockSettings>,
    count: Res<GpuSceneCount>,
    mut exit: MessageWriter<AppExit>,
) {
    // The panel's settings from the first frame, so the boids spawn inside its bounds.
    let _ = flock.set_config(settings.config);
    if std::env::var_os("FLOCK_SCREENSHOTS").is_some() {
        flock.set_max_steps_per_frame(SCREENSHOT_STEPS_PER_FRAME);
    }
    if count.0 > 0 && flock.spawn(count.0, Placement::RandomInBounds) == 0 {
        let why = flock
            .stopped()
            .unwrap_or_else(|| format!("this device holds at most {} boids", flock.device_limit()));
        error!("cannot fly {} boids on the GPU: {why}; exiting", count.0);
        exit.write(AppExit::error());
    }
}

fn respawn(shortcuts: Shortcuts, count: Res<GpuSceneCount>, mut flock: ResMut<GpuFlock>) {
    if shortcuts.pressed(KeyCode::KeyR) {
        flock.clear();
        flock.spawn(count.0, Placement::RandomInBounds);
    }
}

/// The readout, smoothed so it can be read: boids, device, GPU step time (where the device
/// times its passes), steps and frames per second.
#[derive(Default)]
struct Smoothed {
    step_ms: f32,
    frame_seconds: f32,
    steps_per_second: f32,
    last_steps: u64,
}

fn show_gpu_timings(
    time: Res<Time<Real>>,
    flock: Res<GpuFlock>,
    adapter: Option<Res<RenderAdapterInfo>>,
    mut smoothed: Local<Smoothed>,
    mut help: ResMut<HelpLine>,
) {
    let seconds = time.delta_secs();
    let steps = flock.steps_taken();
    if seconds > 0.0 {
        let new_steps = steps.saturating_sub(smoothed.last_steps) as f32;
        smoothed.steps_per_second = blend(smoothed.steps_per_second, new_steps / seconds);
        smoothed.frame_seconds = blend(smoothed.frame_seconds, seconds);
    }
    smoothed.last_steps = steps;
    let step = match flock.step_time() {
        Some(step) => {
            smoothed.step_ms = blend(smoothed.step_ms, step.as_secs_f32() * 1e3);
            format!("step {:.2} ms on the GPU", smoothed.step_ms)
        }
        None => "no step time: the device does not time its passes".to_owned(),
    };
    let device = adapter.map_or_else(|| "no device".to_owned(), |info| info.name.clone());
    let paused = if flock.is_paused() { "   PAUSED" } else { "" };
    help.0 = format!(
        "{} boids on {device}\n{step}   {:.0} steps/s   {:.0} FPS{paused}\n\
         space: pause   N: step   R: new flock   boid count: first argument or FLOCK_BOIDS",
        flock.len(),
        smoothed.steps_per_second,
        1.0 / smoothed.frame_seconds.max(1e-6),
    );
}
