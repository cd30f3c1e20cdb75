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
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "bevy_flock: flocking".into(),
                    resolution: (1280, 720).into(),
                    ..default()
                }),
                ..default()
            })
            .set(bevy_flock::all_cores_for_compute()),
    )
    .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.12)))
    .insert_resource(FlockSettings {
        config: FlockConfig::unity_port().scaled(PIXELS_PER_UNIT),
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 600,
    })
    .add_plugins(BoidsPlugin::default())
    .add_plugins(support::ScreenshotsOnRequest {
        example: "flocking",
    })
    .add_systems(Startup, setup)
    .add_systems(Update, (pause_and_step, cycle_prefab, update_help));
    support::add_panel(&mut app, true, START);
    app.run();
}

/// The sprite prefabs the P key cycles through.
#[derive(Resource)]
struct Prefabs {
    all: Vec<BoidPrefab>,
    current: usize,
}

#[derive(Component)]
struct HelpText;

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
    commands.spawn((
        HelpText,
        Text2d::default(),
        TextFont {
            font_size: FontSize::Px(18.0),
            ..default()
        },
        TextColor(Color::srgb(0.85, 0.88, 0.95)),
        bevy::sprite::Anchor::TOP_LEFT,
        Transform::from_xyz(0.0, 0.0, 10.0),
    ));
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

/// Keeps the one-line help in the top-left corner of the view, with the boid count.
fn update_help(
    settings: Res<FlockSettings>,
    clock: Res<FlockClock>,
    boids: Query<(), With<Boid>>,
    mut help: Single<(&mut Text2d, &mut Transform), With<HelpText>>,
) {
    let (text, transform) = &mut *help;
    let corner = Vec2::new(settings.config.bounds.min.x, settings.config.bounds.max.y);
    transform.translation = (corner + Vec2::new(12.0, -10.0)).extend(10.0);
    let state = if clock.is_paused() { "  [paused]" } else { "" };
    text.0 = format!(
        "click: add a boid ({}/{})   space: pause   N: one step   P: next sprite   F1: panel{state}",
        boids.iter().count(),
        settings.max_boids
    );
}
