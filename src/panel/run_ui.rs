//! The panel's run controls: pause, step, reset, spawn and clear, the boid count and cap, and
//! whether the settings are valid.

use bevy::prelude::*;
use bevy_egui::egui::{self, DragValue, Ui};

use super::driven::{
    ClearPanelFlock, GpuView, PanelFlock, SpawnInPanelFlock, count_and_spawn_limit, gpu_refusal,
    switch_ui,
};
use super::reset::ResetFlock;
use super::settings_ui;
use super::state::{PanelState, Shown, Tuning};

/// Pause, step, reset, spawn, clear; the count and cap; the settings' validity. Spawn, Clear
/// and the count are the driven flock's (`choice`).
pub(super) fn run_section(
    ui: &mut Ui,
    commands: &mut Commands,
    state: &mut PanelState,
    tuning: &mut Tuning,
    shown: &Shown,
    choice: &mut PanelFlock,
    gpu: &GpuView,
) {
    switch_ui(ui, choice, gpu);
    let (count, spawn_limit) = count_and_spawn_limit(*choice, shown.boids.iter().len(), gpu);
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
            commands.queue(ClearPanelFlock);
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Spawn").clicked() {
            commands.queue(SpawnInPanelFlock(state.spawn_count));
        }
        ui.add(
            DragValue::new(&mut state.spawn_count)
                .range(1..=spawn_limit)
                .speed(5.0),
        );
        ui.label(format!("boids: {count}"));
        // The cap is the CPU flock's; the GPU flock's is the device's, shown in the stats.
        if *choice == PanelFlock::Cpu {
            let mut cap = tuning.settings.max_boids;
            settings_ui::cap_ui(ui, &mut cap);
            if cap != tuning.settings.max_boids {
                tuning.settings.max_boids = cap;
            }
        }
    });
    let error = match tuning.settings.validate() {
        Err(error) => Some(error.to_string()),
        Ok(()) => gpu_refusal(*choice, &tuning.settings.config),
    };
    settings_ui::error_line(ui, error.as_deref());
}
