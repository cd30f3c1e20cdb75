//! What the stress examples (2D and 3D) share: the boid count from the command line, their
//! controls, and the step times and frame rate on screen.

use bevy::prelude::*;
use bevy_flock::{FlockBuffers, Placement, SpawnBoids};

use super::{add_panel, pause_on_space};

/// What the stress examples' apps share: space pauses, and the tuning panel (where it is asked
/// for) respawns `count` boids at random on Reset. Add it after `BoidsPlugin`.
pub struct StressControls {
    /// How many boids the example flies.
    pub count: usize,
}

impl Plugin for StressControls {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, pause_on_space);
        let reset = SpawnBoids::new(self.count, Placement::RandomInBounds);
        add_panel(app, false, reset);
    }
}

/// The boid count from the first argument that is not a `--flag`, else `FLOCK_BOIDS`, else
/// `default`.
pub fn boid_count(default: usize) -> usize {
    let from_argument = std::env::args()
        .skip(1)
        .find(|argument| !argument.starts_with("--"));
    let from_environment = std::env::var("FLOCK_BOIDS").ok();
    match from_argument.or(from_environment) {
        Some(text) => text.trim().parse().unwrap_or_else(|_| {
            eprintln!("`{text}` is not a boid count; using {default}");
            default
        }),
        None => default,
    }
}

/// A reading smoothed so it can be read: 5 % of each new value (the first taken as it is).
pub fn blend(old: f32, new: f32) -> f32 {
    if old == 0.0 {
        new
    } else {
        old * 0.95 + new * 0.05
    }
}

/// The step's index and steering times and the frame time, smoothed so they can be read.
#[derive(Default)]
pub struct SmoothedTimings {
    index_ms: f32,
    steer_ms: f32,
    frame_seconds: f32,
}

impl SmoothedTimings {
    /// Blends in the last step's times and the last frame's, and says them in one line: the
    /// boids, their neighbours each, the index and steering times and the frame rate.
    pub fn update(&mut self, buffers: &FlockBuffers, frame_seconds: f32) -> String {
        let timings = buffers.timings();
        self.index_ms = blend(self.index_ms, timings.index.as_secs_f32() * 1e3);
        self.steer_ms = blend(self.steer_ms, timings.steer.as_secs_f32() * 1e3);
        self.frame_seconds = blend(self.frame_seconds, frame_seconds);
        let boids = buffers.entities().len();
        let neighbours = buffers.stats().neighbours as f32 / boids.max(1) as f32;
        format!(
            "{boids} boids, {neighbours:.0} neighbours each   step: index {:.2} ms + steer {:.2} \
             ms   {:.0} FPS",
            self.index_ms,
            self.steer_ms,
            1.0 / self.frame_seconds.max(1e-6)
        )
    }
}
