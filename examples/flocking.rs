//! Seed 002's flock: 150 boids from the centre, wrapping edges, click to add one (up to 600),
//! with the tuning panel (`--no-panel` to leave it out).

mod support;

use bevy::prelude::*;
use bevy_flock::UiWantsInput;
use bevy_flock::prelude::*;

/// Pixels per unit of seed 002's world: its 10-unit-high world fills a 720-pixel-high window.
const PIXELS_PER_UNIT: f32 = 72.0;

/// The flock at start, and what the panel's Reset respawns.
const START: SpawnBoids = SpawnBoids {
    count: 150,
    placement: Placement::At(Vec2::ZERO),
};

fn main() {
    let mut app = support::example_app("flocking");
    app.insert_resource(FlockSettings {
        config: FlockConfig::unity_port().scaled(PIXELS_PER_UNIT),
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 600,
    })
    .add_plugins(BoidsPlugin::default())
    .add_plugins(support::HelpLinePlugin(""))
    .add_systems(Startup, setup)
    .add_systems(Update, (pause_and_step, cycle_prefab, update_help));
    let panel = support::add_panel(&mut app, true, START);
    app.insert_resource(PanelKey(if panel { "   F1: panel" } else { "" }));
    app.run();
}

/// The sprite prefabs the P key cycles through.
#[derive(Resource)]
struct Prefabs {
    all: Vec<BoidPrefab>,
    current: usize,
}

/// The help line's mention of the panel's key, when there is a panel.
#[derive(Resource)]
struct PanelKey(&'static str);

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    let all = vec![
        BoidPrefab {
            image: assets.load("sprites/arrow.png"),
            size: Vec2::splat(22.0),
            colors: BoidColors::Single(Color::srgb(0.55, 0.85, 1.0)),
        },
        BoidPrefab {
            image: assets.load("sprites/fish.png"),
            size: Vec2::splat(26.0),
            colors: BoidColors::RandomHue {
                saturation: 0.75,
                lightness: 0.62,
            },
        },
        BoidPrefab {
            image: assets.load("sprites/bird.png"),
            size: Vec2::splat(28.0),
            colors: BoidColors::Single(Color::srgb(1.0, 0.78, 0.45)),
        },
    ];
    *prefab = all[0].clone();
    commands.insert_resource(Prefabs { all, current: 0 });
    commands.queue(START);
}

fn pause_and_step(
    keys: Res<ButtonInput<KeyCode>>,
    ui: Res<UiWantsInput>,
    mut clock: ResMut<FlockClock>,
) {
    // Typing in the panel's file name is not a shortcut.
    if ui.keyboard {
        return;
    }
    if keys.just_pressed(KeyCode::Space) {
        clock.toggle_pause();
    }
    if keys.just_pressed(KeyCode::KeyN) {
        clock.step_once();
    }
}

fn cycle_prefab(
    keys: Res<ButtonInput<KeyCode>>,
    ui: Res<UiWantsInput>,
    mut prefabs: ResMut<Prefabs>,
    mut prefab: ResMut<BoidPrefab>,
) {
    if keys.just_pressed(KeyCode::KeyP) && !ui.keyboard {
        prefabs.current = (prefabs.current + 1) % prefabs.all.len();
        *prefab = prefabs.all[prefabs.current].clone();
    }
}

/// The one-line help, with the boid count and whether the flock is paused.
fn update_help(
    settings: Res<FlockSettings>,
    clock: Res<FlockClock>,
    panel_key: Res<PanelKey>,
    boids: Query<(), With<Boid>>,
    mut help: ResMut<support::HelpLine>,
) {
    let state = if clock.is_paused() { "  [paused]" } else { "" };
    let text = format!(
        "click: add a boid ({}/{})   space: pause   N: one step   P: next sprite{}{state}",
        boids.iter().count(),
        settings.max_boids,
        panel_key.0
    );
    if help.0 != text {
        help.0 = text;
    }
}
