//! The tuning panel (feature `panel`): every flock setting live, run controls, presets saved as
//! RON, stats, live plots and debug drawing, in one egui window over the flock.
//!
//! ```no_run
//! # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
//! use bevy::prelude::*;
//! use bevy_flock::panel::FlockPanelPlugin;
//! use bevy_flock::prelude::*;
//!
//! let start = SpawnBoids::new(200, Placement::RandomInBounds);
//! App::new()
//!     .add_plugins(DefaultPlugins)
//!     .add_plugins(BoidsPlugin::default())
//!     // The panel's Reset button clears the flock, reseeds it and spawns `start` again.
//!     .add_plugins(FlockPanelPlugin::default().with_reset(start))
//!     .add_systems(Startup, move |mut commands: Commands| {
//!         commands.spawn(Camera2d);
//!         commands.queue(start);
//!     })
//!     .run();
//! ```

mod debug_draw;
mod driven;
mod input;
mod look_ui;
mod metrics;
mod plots;
mod presets;
mod reset;
mod run_ui;
mod settings_ui;
mod state;
mod stats_ui;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui::{self, Align2};
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass};

use crate::render::pointer::UiWantsInput;
use crate::spawn::{Placement, SpawnBoids};
use state::{PanelState, Shown, Tuning};

pub use debug_draw::{FlockDebugDraw, FlockDebugDrawPlugin, SelectedBoid};
pub use driven::PanelFlock;
pub use metrics::{FlockMetrics, FlockMetricsPlugin, MetricSample};
pub use presets::{
    Preset, PresetError, apply_preset, builtin_presets, default_presets_folder, load_into,
    load_settings, preset_files, save_settings,
};
pub use reset::{FlockWasReset, PanelReset, ResetFlock};
pub use state::PrefabChoices;

/// The tuning panel: add it after [`BoidsPlugin`](crate::BoidsPlugin), or turn it on in
/// [`FlockPlugins`](crate::FlockPlugins) with `.build().enable::<FlockPanelPlugin>()`. It brings
/// egui (`EguiPlugin`, unless already added), [`FlockDebugDrawPlugin`] and
/// [`FlockMetricsPlugin`]. F1 hides and shows the window.
///
/// Clicks and drags on the panel never reach the world: the panel keeps
/// [`UiWantsInput`] up to date, and click-to-spawn ignores clicks while egui has the pointer.
#[derive(Debug, Clone)]
pub struct FlockPanelPlugin {
    reset: SpawnBoids,
    presets_folder: Option<PathBuf>,
}

impl Default for FlockPanelPlugin {
    fn default() -> Self {
        Self {
            reset: SpawnBoids::new(150, Placement::RandomInBounds),
            presets_folder: None,
        }
    }
}

impl FlockPanelPlugin {
    /// The flock the panel's Reset button respawns (after clearing and reseeding); 150 boids
    /// at random in the bounds by default.
    pub fn with_reset(mut self, reset: SpawnBoids) -> Self {
        self.reset = reset;
        self
    }

    /// The folder the presets section saves to and loads from; [`default_presets_folder`] by
    /// default (the app's `assets/presets/` when run from its project, else the user's data
    /// folder).
    pub fn with_presets_folder(mut self, folder: impl Into<PathBuf>) -> Self {
        self.presets_folder = Some(folder.into());
        self
    }
}

impl Plugin for FlockPanelPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<EguiPlugin>() {
            app.add_plugins(EguiPlugin::default());
        }
        if !app.is_plugin_added::<FlockDebugDrawPlugin>() {
            app.add_plugins(FlockDebugDrawPlugin);
        }
        if !app.is_plugin_added::<FlockMetricsPlugin>() {
            app.add_plugins(FlockMetricsPlugin);
        }
        app.insert_resource(PanelReset(self.reset))
            .init_resource::<PrefabChoices>()
            .insert_resource(PanelState::new(self.presets_folder.clone().unwrap_or_else(
                || default_presets_folder(|name| std::env::var(name).ok()),
            )))
            .register_type::<PanelFlock>()
            .add_systems(
                Startup,
                (look_ui::offer_bundled_prefabs, driven::choose_panel_flock),
            )
            .add_systems(Update, (toggle_panel, stats_ui::measure_frame_rate))
            .add_systems(EguiPrimaryContextPass, panel_ui)
            .add_systems(PreUpdate, input::share_egui_input);
    }
}

fn toggle_panel(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    ui: Res<UiWantsInput>,
    mut state: ResMut<PanelState>,
) {
    if keys.is_some_and(|keys| keys.just_pressed(KeyCode::F1)) && !ui.keyboard {
        state.visible = !state.visible;
    }
}

fn panel_ui(
    mut contexts: EguiContexts,
    mut commands: Commands,
    mut state: ResMut<PanelState>,
    mut tuning: Tuning,
    shown: Shown,
    mut choice: ResMut<PanelFlock>,
    gpu: driven::GpuView,
) -> Result {
    if !state.visible {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    // As tall as the window allows, scrolling beyond that.
    let height = ctx.content_rect().height() - 24.0;
    let shown_at = egui::Window::new("Flock")
        .anchor(Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(330.0)
        .default_height(height)
        .max_height(height)
        .vscroll(true)
        .show(ctx, |ui| {
            run_ui::run_section(
                ui,
                &mut commands,
                &mut state,
                &mut tuning,
                &shown,
                &mut choice,
                &gpu,
            );
            egui::CollapsingHeader::new("Presets")
                .default_open(true)
                .show(ui, |ui| {
                    presets::presets_section(ui, &mut state.presets, &mut tuning.settings)
                });
            egui::CollapsingHeader::new("Settings")
                .default_open(false)
                .show(ui, |ui| {
                    let mut edited = tuning.settings.clone();
                    settings_ui::settings_ui(ui, &mut edited);
                    tuning.settings.set_if_neq(edited);
                });
            egui::CollapsingHeader::new("Look and debug drawing")
                .default_open(false)
                .show(ui, |ui| {
                    look_ui::look_section(ui, &mut tuning, &shown.choices)
                });
            egui::CollapsingHeader::new("Stats")
                .default_open(true)
                .show(ui, |ui| {
                    stats_ui::stats_section(ui, &state, &shown, *choice, &gpu)
                });
            egui::CollapsingHeader::new("Plots")
                .default_open(true)
                .show(ui, |ui| plots::plots_ui(ui, &tuning.metrics));
        });
    state.panel_area = shown_at.map(|shown| (shown.response.rect, ctx.pixels_per_point()));
    Ok(())
}
