//! The panel's run controls: pause, step, reset, spawn and clear, the boid count and cap, and
//! whether the settings are valid.

use bevy::prelude::*;
use bevy_egui::egui::{self, DragValue, Ui};

use super::reset::ResetFlock;
use super::settings_ui;
use super::state::{PanelState, Shown, Tuning};
use crate::spawn::{Placement, SpawnBoids};

/// Pause, step, reset, spawn, clear; the count and cap; the settings' validity.
pub(super) fn run_section(
    ui: &mut Ui,
    commands: &mut Commands,
    state: &mut PanelState,
    tuning: &mut Tuning,
    shown: &Shown,
) {
    ui.horizontal(|ui| {
        let paused = tuning.clock.is_paused();
        if ui.button(if paused { "Run" } else { "Pause" }).clicked() {
            tuning.clock.toggle_pause();
        }
        if ui.add_enabled(paused, egui::Button::new("Step")).clicked() {
            tuning.clock.step_once();
        }
        if ui
            .button("Reset")
            .on_hover_text("clear, reseed the RNG, respawn the starting flock")
            .clicked()
        {
            commands.queue(ResetFlock(shown.reset.0));
        }
        if ui.button("Clear").clicked() {
            despawn_all(commands, shown);
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Spawn").clicked() {
            commands.queue(SpawnBoids::new(
                state.spawn_count,
                Placement::RandomInBounds,
            ));
        }
        ui.add(
            DragValue::new(&mut state.spawn_count)
                .range(1..=100_000)
                .speed(5.0),
        );
        ui.label(format!("boids: {}", shown.boids.iter().len()));
        let mut cap = tuning.settings.max_boids;
        settings_ui::cap_ui(ui, &mut cap);
        if cap != tuning.settings.max_boids {
            tuning.settings.max_boids = cap;
        }
    });
    let error = tuning
        .settings
        .validate()
        .err()
        .map(|error| error.to_string());
    settings_ui::error_line(ui, error.as_deref());
}

fn despawn_all(commands: &mut Commands, shown: &Shown) {
    for boid in &shown.boids {
        commands.entity(boid).despawn();
    }
}
