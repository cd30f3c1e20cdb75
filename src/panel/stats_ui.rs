//! The panel's stats: boids stepped, the step's timings, the frame rate and neighbours per boid.

use bevy::prelude::*;
use bevy_egui::egui::{self, Ui};

use super::driven::{GpuView, PanelFlock, gpu_stats_ui};
use super::state::{PanelState, Shown};

pub(super) fn measure_frame_rate(time: Res<Time<Real>>, mut state: ResMut<PanelState>) {
    let delta = time.delta_secs();
    // Smoothed so the number can be read: mostly the last second or so of frames.
    state.frame_seconds = if state.frame_seconds == 0.0 {
        delta
    } else {
        state.frame_seconds * 0.95 + delta * 0.05
    };
}

/// The driven flock's step (the CPU flock's, or the GPU flock's where the panel drives it) and
/// the frame rate.
pub(super) fn stats_section(
    ui: &mut Ui,
    state: &PanelState,
    shown: &Shown,
    choice: PanelFlock,
    gpu: &GpuView,
) {
    if gpu_stats_ui(ui, choice, gpu) {
        egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
            frame_rate_row(ui, state);
        });
        return;
    }
    let timings = shown.buffers.timings();
    let boids = shown.buffers.entities().len();
    let stats = shown.buffers.stats();
    let per_boid = |total: u64| {
        if boids == 0 {
            0.0
        } else {
            total as f64 / boids as f64
        }
    };
    egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
        ui.label("boids stepped");
        ui.label(boids.to_string());
        ui.end_row();
        ui.label("index build");
        ui.label(format!("{:.3} ms", timings.index.as_secs_f64() * 1e3));
        ui.end_row();
        ui.label("steering");
        ui.label(format!("{:.3} ms", timings.steer.as_secs_f64() * 1e3));
        ui.end_row();
        frame_rate_row(ui, state);
        ui.label("neighbours per boid");
        ui.label(format!("{:.1}", per_boid(stats.neighbours)));
        ui.end_row();
    });
}

fn frame_rate_row(ui: &mut Ui, state: &PanelState) {
    ui.label("frame rate");
    let fps = if state.frame_seconds > 0.0 {
        1.0 / state.frame_seconds
    } else {
        0.0
    };
    ui.label(format!("{fps:.0} fps"));
    ui.end_row();
}
