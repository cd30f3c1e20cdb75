//! Processing's *Flocking* as ported to Unity: its 20 x 10 world with borders that jump to the
//! opposite edge, 150 boids from the centre, click to add one (up to 600); V switches to the port's
//! first version (50 boids, up to 200) and back (`--first` starts there). With the tuning panel
//! (`--no-panel` to leave it out).

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use support::scenes::{UNITY_PIXELS_PER_UNIT, unity_port, unity_port_first};

/// The port's boids start at one unit per frame (50 times max speed) until their first step.
const START_SPEED: f32 = 60.0 * UNITY_PIXELS_PER_UNIT;

/// The second version's flock at start, and what the panel's Reset respawns: 150 at the origin.
const START: SpawnBoids = SpawnBoids::new(150, Placement::At(Vec2::ZERO)).with_speed(START_SPEED);

/// The first version's: 50 at random in x +-9.5, y +-4.5.
fn first_start() -> SpawnBoids {
    let corner = Vec2::new(9.5, 4.5) * UNITY_PIXELS_PER_UNIT;
    SpawnBoids::new(50, Placement::InRect(Rect::from_corners(-corner, corner)))
        .with_speed(START_SPEED)
}

fn main() {
    let version = if std::env::args().any(|argument| argument == "--first") {
        Version::First
    } else {
        Version::Second
    };
    let settings = match version {
        Version::First => unity_port_first(),
        Version::Second => unity_port(),
    };
    let mut app = support::flock_app("flocking", settings, 0);
    app.insert_resource(ClickToSpawn {
        speed: Some(START_SPEED),
        ..ClickToSpawn::ON
    })
    .insert_resource(version)
    .add_systems(Startup, setup)
    .add_systems(
        Update,
        (
            support::pause_on_space,
            support::step_on_n,
            cycle_prefab,
            switch_version,
            update_help,
        ),
    );
    let panel = support::add_panel(&mut app, true, START);
    app.insert_resource(support::PanelKey(if panel { "   F1: panel" } else { "" }));
    app.run();
}

/// Which of the Unity port's two versions runs.
#[derive(Resource, Clone, Copy, PartialEq, Eq)]
enum Version {
    First,
    Second,
}

/// The sprite prefabs the P key cycles through.
#[derive(Resource)]
struct Prefabs {
    all: Vec<BoidPrefab>,
    current: usize,
}

fn setup(
    mut commands: Commands,
    assets: Res<AssetServer>,
    version: Res<Version>,
    mut prefab: ResMut<BoidPrefab>,
) {
    commands.spawn(Camera2d);
    // The three sprites bundled with the crate, each in its own colours.
    let all: Vec<BoidPrefab> = BoidSprite::ALL
        .iter()
        .map(|sprite| sprite.prefab(&assets))
        .collect();
    *prefab = all[0].clone();
    commands.insert_resource(Prefabs { all, current: 0 });
    commands.queue(match *version {
        Version::First => first_start(),
        Version::Second => START,
    });
}

/// V: the other version, from its own start.
fn switch_version(
    mut commands: Commands,
    shortcuts: support::Shortcuts,
    mut version: ResMut<Version>,
    mut settings: ResMut<FlockSettings>,
    boids: Query<Entity, With<Boid>>,
) {
    if !shortcuts.pressed(KeyCode::KeyV) {
        return;
    }
    for boid in &boids {
        commands.entity(boid).despawn();
    }
    *version = match *version {
        Version::First => Version::Second,
        Version::Second => Version::First,
    };
    let (new_settings, start) = match *version {
        Version::First => (unity_port_first(), first_start()),
        Version::Second => (unity_port(), START),
    };
    *settings = new_settings;
    commands.queue(start);
}

fn cycle_prefab(
    shortcuts: support::Shortcuts,
    mut prefabs: ResMut<Prefabs>,
    mut prefab: ResMut<BoidPrefab>,
) {
    if shortcuts.pressed(KeyCode::KeyP) {
        prefabs.current = (prefabs.current + 1) % prefabs.all.len();
        *prefab = prefabs.all[prefabs.current].clone();
    }
}

/// The one-line help, with the boid count and whether the flock is paused.
fn update_help(
    version: Res<Version>,
    status: support::FlockStatus,
    mut help: ResMut<support::HelpLine>,
) {
    let version = match *version {
        Version::First => 1,
        Version::Second => 2,
    };
    let text = format!(
        "V: version {version}   click: add {}   space: pause   N: step   P: sprite{}",
        status.boids_of_max(),
        status.ending()
    );
    help.set_if_neq(support::HelpLine(text));
}
