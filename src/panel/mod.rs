//! The tuning panel (feature `panel`): every flock setting live, run controls, presets saved as
//! RON, stats, live plots and debug drawing, in one egui window over the flock.
//!
//! ```no_run
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
mod metrics;
mod plots;
mod presets;
mod settings_ui;

use std::path::PathBuf;

use bevy::asset::io::file::FileAssetReader;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui::{self, Align2, ComboBox, DragValue, Ui};
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass};

use crate::clock::FlockClock;
use crate::components::Boid;
use crate::pointer::UiWantsInput;
use crate::prefab::{BoidColors, BoidPrefab};
use crate::rng::FlockRng;
use crate::settings::FlockSettings;
use crate::spawn::{Placement, SpawnBoids};
use crate::steer::FlockBuffers;

pub use debug_draw::{FlockDebugDraw, FlockDebugDrawPlugin, SelectedBoid};
pub use metrics::{FlockMetrics, FlockMetricsPlugin, MetricSample};
pub use presets::{
    Preset, PresetError, apply_preset, builtin_presets, load_into, load_settings, preset_files,
    save_settings,
};

/// The tuning panel: add it after [`BoidsPlugin`](crate::BoidsPlugin). It brings egui
/// (`EguiPlugin`, unless already added), [`FlockDebugDrawPlugin`] and [`FlockMetricsPlugin`]. F1 hides and shows the window.
///
/// Clicks and drags on the panel never reach the world: the panel keeps
/// [`UiWantsInput`] up to date, and click-to-spawn ignores clicks while egui has the pointer.
#[derive(Debug, Clone)]
pub struct FlockPanelPlugin {
    reset: SpawnBoids,
}

impl Default for FlockPanelPlugin {
    fn default() -> Self {
        Self {
            reset: SpawnBoids::new(150, Placement::RandomInBounds),
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
            .insert_resource(PanelState::new())
            .add_systems(Startup, offer_bundled_prefabs)
            .add_systems(Update, (toggle_panel, measure_frame_rate))
            .add_systems(EguiPrimaryContextPass, panel_ui)
            .add_systems(PreUpdate, share_egui_input);
    }
}

/// What the panel's Reset button spawns (with [`ResetFlock`]).
#[derive(Resource, Debug, Clone, Copy)]
pub struct PanelReset(pub SpawnBoids);

/// A command that clears the flock, restarts its RNG from the seed it was given and spawns
/// the flock again: the panel's Reset. With the same settings the run then replays.
#[derive(Debug, Clone, Copy)]
pub struct ResetFlock(pub SpawnBoids);

impl Command for ResetFlock {
    type Out = ();

    fn apply(self, world: &mut World) {
        let boids: Vec<Entity> = world
            .query_filtered::<Entity, With<Boid>>()
            .iter(world)
            .collect();
        for boid in boids {
            world.despawn(boid);
        }
        if let Some(mut rng) = world.get_resource_mut::<FlockRng>() {
            let seed = rng.seed();
            rng.reseed(seed);
        }
        if let Some(mut metrics) = world.get_resource_mut::<FlockMetrics>() {
            metrics.clear();
        }
        self.0.apply(world);
    }
}

/// The prefabs the panel offers, by name. Filled at start-up, unless the app filled it first,
/// with the bundled sprites (square, arrow, fish, bird) in 2D and the meshes built in code
/// (bird, fish, big bird) in 3D.
#[derive(Resource, Debug, Clone, Default)]
pub struct PrefabChoices(pub Vec<(String, BoidPrefab)>);

/// The panel's own state between frames.
#[derive(Resource, Debug)]
struct PanelState {
    visible: bool,
    spawn_count: usize,
    /// Where presets are saved and loaded: `assets/presets/` of the app.
    folder: PathBuf,
    file_name: String,
    files: Vec<String>,
    /// The outcome of the last save or load: (text, is an error).
    message: Option<(String, bool)>,
    /// Frame time, smoothed over about a second.
    frame_seconds: f32,
    /// Where the window was last drawn (egui points) and egui's pixels per point.
    panel_area: Option<(egui::Rect, f32)>,
}

impl PanelState {
    fn new() -> Self {
        let folder = FileAssetReader::get_base_path().join("assets/presets");
        Self {
            visible: true,
            spawn_count: 50,
            files: preset_files(&folder),
            folder,
            file_name: "my_flock.ron".into(),
            message: None,
            frame_seconds: 0.0,
            panel_area: None,
        }
    }
}

/// Tells the core when the pointer or keyboard belongs to egui ([`UiWantsInput`]), for
/// click-to-spawn and apps' own shortcuts.
///
/// Egui's own answer ([`EguiWantsInput`]) is from the last frame, so a pointer that jumps onto
/// the panel and clicks in one frame would get through: the cursor is also tested, this frame,
/// against where the panel was drawn.
fn share_egui_input(
    last_frame: Res<EguiWantsInput>,
    state: Res<PanelState>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut ui: ResMut<UiWantsInput>,
) {
    let over_panel = windows
        .single()
        .ok()
        .and_then(|window| {
            let cursor = window.cursor_position()?;
            let (rect, pixels_per_point) = state.panel_area.filter(|_| state.visible)?;
            let points = cursor * window.scale_factor() / pixels_per_point;
            Some(rect.contains(egui::pos2(points.x, points.y)))
        })
        .unwrap_or(false);
    let wants = UiWantsInput {
        pointer: over_panel || last_frame.wants_any_pointer_input(),
        keyboard: last_frame.wants_any_keyboard_input(),
    };
    if *ui != wants {
        *ui = wants;
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

fn measure_frame_rate(time: Res<Time<Real>>, mut state: ResMut<PanelState>) {
    let delta = time.delta_secs();
    // Smoothed so the number can be read: mostly the last second or so of frames.
    state.frame_seconds = if state.frame_seconds == 0.0 {
        delta
    } else {
        state.frame_seconds * 0.95 + delta * 0.05
    };
}

#[cfg(not(flock_3d))]
fn offer_bundled_prefabs(mut choices: ResMut<PrefabChoices>, assets: Option<Res<AssetServer>>) {
    if !choices.0.is_empty() {
        return;
    }
    choices.0.push(("square".into(), BoidPrefab::default()));
    let Some(assets) = assets else { return };
    let sprite = |file: &str, size: f32, colors: BoidColors| BoidPrefab {
        image: assets.load(format!("sprites/{file}.png")),
        size: Vec2::splat(size),
        colors,
    };
    choices.0.extend([
        (
            "arrow".into(),
            sprite(
                "arrow",
                22.0,
                BoidColors::Single(Color::srgb(0.55, 0.85, 1.0)),
            ),
        ),
        (
            "fish".into(),
            sprite(
                "fish",
                26.0,
                BoidColors::RandomHue {
                    saturation: 0.75,
                    lightness: 0.62,
                },
            ),
        ),
        (
            "bird".into(),
            sprite(
                "bird",
                28.0,
                BoidColors::Single(Color::srgb(1.0, 0.78, 0.45)),
            ),
        ),
    ]);
}

/// The meshes the panel offers in 3D: the default bird, a fish and a larger bird, built in
/// code.
#[cfg(flock_3d)]
fn offer_bundled_prefabs(mut choices: ResMut<PrefabChoices>, meshes: Option<ResMut<Assets<Mesh>>>) {
    if !choices.0.is_empty() {
        return;
    }
    choices.0.push(("bird".into(), BoidPrefab::default()));
    let Some(mut meshes) = meshes else { return };
    choices.0.extend([
        (
            "fish".into(),
            BoidPrefab {
                mesh: meshes.add(crate::meshes::fish_mesh(14.0)),
                colors: BoidColors::RandomHue {
                    saturation: 0.75,
                    lightness: 0.6,
                },
            },
        ),
        (
            "big bird".into(),
            BoidPrefab {
                mesh: meshes.add(crate::meshes::bird_mesh(24.0)),
                colors: BoidColors::Single(Color::srgb(1.0, 0.78, 0.45)),
            },
        ),
    ]);
}

/// The resources the panel changes.
#[derive(bevy::ecs::system::SystemParam)]
struct Tuning<'w> {
    settings: ResMut<'w, FlockSettings>,
    clock: ResMut<'w, FlockClock>,
    prefab: ResMut<'w, BoidPrefab>,
    draw: ResMut<'w, FlockDebugDraw>,
    metrics: ResMut<'w, FlockMetrics>,
}

/// The resources the panel only shows.
#[derive(bevy::ecs::system::SystemParam)]
struct Shown<'w, 's> {
    buffers: Res<'w, FlockBuffers>,
    choices: Res<'w, PrefabChoices>,
    reset: Res<'w, PanelReset>,
    boids: Query<'w, 's, Entity, With<Boid>>,
}

fn panel_ui(
    mut contexts: EguiContexts,
    mut commands: Commands,
    mut state: ResMut<PanelState>,
    mut tuning: Tuning,
    shown: Shown,
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
            run_section(ui, &mut commands, &mut state, &mut tuning, &shown);
            egui::CollapsingHeader::new("Presets")
                .default_open(true)
                .show(ui, |ui| {
                    presets_section(ui, &mut state, &mut tuning.settings)
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
                .show(ui, |ui| look_section(ui, &mut tuning, &shown.choices));
            egui::CollapsingHeader::new("Stats")
                .default_open(true)
                .show(ui, |ui| stats_section(ui, &state, &shown));
            egui::CollapsingHeader::new("Plots")
                .default_open(true)
                .show(ui, |ui| plots::plots_ui(ui, &tuning.metrics));
        });
    state.panel_area = shown_at.map(|shown| (shown.response.rect, ctx.pixels_per_point()));
    Ok(())
}

/// Pause, step, reset, spawn, clear; the count and cap; the settings' validity.
fn run_section(
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

/// The built-in presets, and saving and loading the current settings as RON.
fn presets_section(ui: &mut Ui, state: &mut PanelState, settings: &mut ResMut<FlockSettings>) {
    ComboBox::from_label("preset")
        .selected_text("choose to apply")
        .show_ui(ui, |ui| {
            for preset in builtin_presets() {
                if ui
                    .selectable_label(false, preset.name)
                    .on_hover_text(preset.about)
                    .clicked()
                {
                    apply_preset(settings, (preset.settings)().config);
                    state.message = Some((format!("applied {}", preset.name), false));
                }
            }
        });
    ui.horizontal(|ui| {
        ui.label("file");
        ui.text_edit_singleline(&mut state.file_name);
    });
    ui.horizontal(|ui| {
        let path = state.folder.join(&state.file_name);
        if ui.button("Save").clicked() {
            state.message = Some(match save_settings(&path, settings) {
                Ok(()) => {
                    info!("flock settings saved to {}", path.display());
                    state.files = preset_files(&state.folder);
                    (format!("saved {}", state.file_name), false)
                }
                Err(error) => {
                    error!("{error}");
                    (error.to_string(), true)
                }
            });
        }
        if ui.button("Load").clicked() {
            // Loaded into a copy, so the resource is only touched when a setting changes.
            let mut loaded = (**settings).clone();
            state.message = Some(match load_into(&path, &mut loaded) {
                Ok(()) => {
                    info!("flock settings loaded from {}", path.display());
                    settings.set_if_neq(loaded);
                    (format!("loaded {}", state.file_name), false)
                }
                Err(error) => {
                    error!("{error}; keeping the current settings");
                    (format!("{error}; settings unchanged"), true)
                }
            });
        }
        ComboBox::from_id_salt("preset files")
            .selected_text("files")
            .show_ui(ui, |ui| {
                for name in &state.files {
                    if ui.selectable_label(false, name).clicked() {
                        state.file_name = name.clone();
                    }
                }
            });
        if ui
            .small_button("⟳")
            .on_hover_text("list the folder again")
            .clicked()
        {
            state.files = preset_files(&state.folder);
        }
    });
    ui.small(format!("in {}", state.folder.display()));
    if let Some((text, is_error)) = &state.message {
        if *is_error {
            settings_ui::error_line(ui, Some(text));
        } else {
            ui.label(text);
        }
    }
}

/// The sprite prefab, and which debug drawings are on.
fn look_section(ui: &mut Ui, tuning: &mut Tuning, choices: &PrefabChoices) {
    let current = choices
        .0
        .iter()
        .find(|(_, prefab)| *prefab == *tuning.prefab)
        .map_or("custom", |(name, _)| name.as_str());
    ComboBox::from_label(if cfg!(flock_3d) { "mesh" } else { "sprite" })
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (name, prefab) in &choices.0 {
                if ui.selectable_label(current == name, name).clicked() {
                    tuning.prefab.set_if_neq(prefab.clone());
                }
            }
        });
    ui.separator();
    let mut draw = *tuning.draw;
    ui.checkbox(
        &mut draw.selected,
        "selected boid (hover): radii, view, neighbours",
    );
    ui.checkbox(&mut draw.velocities, "velocity arrows");
    ui.checkbox(&mut draw.forces, "steering force arrows");
    ui.checkbox(&mut draw.grid, "grid cells");
    ui.checkbox(&mut draw.bounds, "bounds");
    tuning.draw.set_if_neq(draw);
}

fn stats_section(ui: &mut Ui, state: &PanelState, shown: &Shown) {
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
        ui.label("frame rate");
        let fps = if state.frame_seconds > 0.0 {
            1.0 / state.frame_seconds
        } else {
            0.0
        };
        ui.label(format!("{fps:.0} fps"));
        ui.end_row();
        ui.label("neighbours per boid");
        ui.label(format!("{:.1}", per_boid(stats.neighbours)));
        ui.end_row();
    });
}
