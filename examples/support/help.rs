//! A one-line help in the top-left corner of the view, kept there as the window resizes.

use bevy::camera::visibility::RenderLayers;
use bevy::ecs::system::{ScheduleSystem, SystemParam};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_flock::{Boid, FlockClock, FlockSettings};

/// The help line's text; examples update it (e.g. with the current mode), through
/// `set_if_neq` so it reads as changed only when it is.
#[derive(Resource, Default, PartialEq)]
pub struct HelpLine(pub String);

/// Shows [`HelpLine`] in the top-left corner of the flock's bounds.
pub struct HelpLinePlugin(pub &'static str);

impl Plugin for HelpLinePlugin {
    fn build(&self, app: &mut App) {
        add_help(app, self.0, spawn_help, show_help);
    }
}

/// Starts the help line at `line`, spawned by `spawn` and kept up to date by `show`.
fn add_help<S, T>(
    app: &mut App,
    line: &str,
    spawn: impl IntoScheduleConfigs<ScheduleSystem, S>,
    show: impl IntoScheduleConfigs<ScheduleSystem, T>,
) {
    app.insert_resource(HelpLine(line.to_owned()))
        .add_systems(Startup, spawn)
        .add_systems(Update, show);
}

/// Shows [`HelpLine`] in the window's top-left corner at a fixed size, whatever the main
/// camera does: drawn by a 2D overlay camera of its own (a 3D scene, a 2D scene that zooms).
pub struct ScreenHelpPlugin(pub &'static str);

impl Plugin for ScreenHelpPlugin {
    fn build(&self, app: &mut App) {
        add_help(app, self.0, spawn_screen_help, show_screen_help);
    }
}

/// The layer of the overlay: the help text and the 2D camera that draws it over the view
/// (and nothing else: the flock and its gizmos stay on layer 0).
const OVERLAY: usize = 1;

fn spawn_screen_help(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        RenderLayers::layer(OVERLAY),
    ));
    commands.spawn((
        HelpText,
        overlay_text(Color::srgb(0.9, 0.92, 0.97)),
        RenderLayers::layer(OVERLAY),
    ));
}

/// Keeps the help text in the window's top-left corner.
fn show_screen_help(
    line: Res<HelpLine>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut help: Single<(&mut Text2d, &mut Transform), With<HelpText>>,
) {
    let (text, transform) = &mut *help;
    if let Ok(window) = windows.single() {
        let corner = Vec2::new(-window.width(), window.height()) / 2.0;
        transform.translation = (corner + Vec2::new(12.0, -10.0)).extend(0.0);
    }
    if text.0 != line.0 {
        text.0.clone_from(&line.0);
    }
}

/// Marks the text that shows the [`HelpLine`].
#[derive(Component)]
pub struct HelpText;

/// A line of on-screen text in `color`, hung from its top-left corner: the help line, or a
/// readout like it.
pub fn overlay_text(color: Color) -> impl Bundle {
    (
        Text2d::default(),
        TextFont {
            font_size: FontSize::Px(18.0),
            ..default()
        },
        TextColor(color),
        bevy::sprite::Anchor::TOP_LEFT,
    )
}

/// Where on-screen text starts in a 2D view: a little in from the top-left corner of the
/// flock's bounds, in front of the flock.
pub fn top_left_of_bounds(settings: &FlockSettings) -> Vec3 {
    let corner = Vec2::new(settings.config.bounds.min.x, settings.config.bounds.max.y);
    (corner + Vec2::new(12.0, -10.0)).extend(10.0)
}

fn spawn_help(mut commands: Commands) {
    commands.spawn((HelpText, corner_text()));
}

/// A line of text in the help's colour, over the flock: place it with its `Transform`.
pub fn corner_text() -> impl Bundle {
    (
        overlay_text(Color::srgb(0.85, 0.88, 0.95)),
        Transform::from_xyz(0.0, 0.0, 10.0),
    )
}

fn show_help(
    line: Res<HelpLine>,
    settings: Res<FlockSettings>,
    mut help: Single<(&mut Text2d, &mut Transform), With<HelpText>>,
) {
    let (text, transform) = &mut *help;
    transform.translation = top_left_of_bounds(&settings);
    if text.0 != line.0 {
        text.0.clone_from(&line.0);
    }
}

/// The help line's mention of the panel's key, where there is a panel (see [`FlockStatus`]).
#[derive(Resource)]
pub struct PanelKey(pub &'static str);

/// What the help line of an example that adds and pauses boids tells: how many boids there are
/// of the most there may be, the panel's key, and whether the flock is paused.
#[derive(SystemParam)]
pub struct FlockStatus<'w, 's> {
    settings: Res<'w, FlockSettings>,
    clock: Res<'w, FlockClock>,
    panel_key: Res<'w, PanelKey>,
    boids: Query<'w, 's, (), With<Boid>>,
}

impl FlockStatus<'_, '_> {
    /// The boids there are of the most there may be, as "(150/600)".
    pub fn boids_of_max(&self) -> String {
        format!(
            "({}/{})",
            self.boids.iter().count(),
            self.settings.max_boids
        )
    }

    /// The end of the help line: the panel's key, and "[paused]" while paused.
    pub fn ending(&self) -> String {
        let paused = if self.clock.is_paused() {
            "  [paused]"
        } else {
            ""
        };
        format!("{}{paused}", self.panel_key.0)
    }
}
