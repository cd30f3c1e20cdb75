//! A 3D flock: 2,000 low-poly birds (built in code) wrapping round a box over the ground, lit
//! and fogged; drag to orbit, scroll to zoom, B adds 200 boids, P switches birds and fish, with
//! the tuning panel (`--no-panel` to leave it out).

// The shared example support says `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../examples/support/mod.rs"]
mod support;
mod support3d;

use bevy::color::palettes::css;
use bevy::prelude::*;
use bevy_flock3d::flock_core::Bounds;
use bevy_flock3d::prelude::*;
use support3d::OrbitCamera;

/// The box the flock flies in: wide and deep, half as high.
const BOX: Vec3 = Vec3::new(900.0, 450.0, 900.0);

/// The flock at start, and what the panel's Reset respawns.
const START: SpawnBoids = SpawnBoids {
    count: 2_000,
    placement: Placement::RandomInBounds,
    speed: None,
};

const SKY: Color = Color::srgb(0.55, 0.68, 0.82);

fn main() {
    let mut app = support::example_app("flocking_3d");
    app.insert_resource(ClearColor(SKY))
        .insert_resource(FlockSettings {
            // Processing's flock (pixels and seconds) in a box, wrapping on every axis and
            // finding neighbours across the seams so flocks stay whole; wider radii than
            // Processing's, so 2,000 boids in the box see about ten neighbours each.
            config: FlockConfig {
                separation_radius: 30.0,
                alignment_radius: 80.0,
                cohesion_radius: 80.0,
                bounds: Bounds::centered(BOX),
                edges: EdgeMode::Wrap,
                wrap_neighbours: true,
                ..FlockConfig::processing()
            },
            max_boids: 8_000,
            ..default()
        })
        .add_plugins(BoidsPlugin::default())
        .add_plugins(support3d::Scene3dPlugin(""))
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                keys,
                support::pause_on_space,
                support::step_on_n,
                draw_box,
                update_help,
            ),
        );
    let panel = support::add_panel(&mut app, true, START);
    app.insert_resource(support::PanelKey(if panel { "  F1: panel" } else { "" }));
    app.run();
}

/// The two looks the P key switches between.
#[derive(Resource)]
struct Looks([BoidPrefab; 2]);

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut prefab: ResMut<BoidPrefab>,
) {
    commands.spawn(support3d::camera(
        OrbitCamera {
            focus: Vec3::ZERO,
            distance: 1_250.0,
            yaw: 0.5,
            elevation: 0.35,
            button: MouseButton::Left,
        },
        SKY,
        900.0,
        3_200.0,
    ));
    support3d::spawn_lights(&mut commands);
    // The ground, a little below the box.
    commands.spawn((
        Mesh3d(meshes.add(Plane3d::default().mesh().size(6_000.0, 6_000.0))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.32, 0.42, 0.3),
            perceptual_roughness: 1.0,
            ..default()
        })),
        Transform::from_xyz(0.0, -BOX.y / 2.0 - 40.0, 0.0),
    ));
    let birds = BoidPrefab {
        mesh: meshes.add(bird_mesh(16.0)),
        colors: BoidColors::RandomHue {
            saturation: 0.55,
            lightness: 0.45,
        },
    };
    let fish = BoidPrefab {
        mesh: meshes.add(fish_mesh(18.0)),
        colors: BoidColors::RandomHue {
            saturation: 0.75,
            lightness: 0.55,
        },
    };
    *prefab = birds.clone();
    commands.insert_resource(Looks([birds, fish]));
    commands.queue(START);
}

/// B adds 200 boids; P switches birds and fish.
fn keys(
    mut commands: Commands,
    shortcuts: support::Shortcuts,
    looks: Res<Looks>,
    mut prefab: ResMut<BoidPrefab>,
) {
    if shortcuts.pressed(KeyCode::KeyB) {
        commands.queue(SpawnBoids::new(200, Placement::RandomInBounds));
    }
    if shortcuts.pressed(KeyCode::KeyP) {
        let next = if *prefab == looks.0[0] { 1 } else { 0 };
        *prefab = looks.0[next].clone();
    }
}

/// The box's edges, so the volume the flock wraps round reads.
fn draw_box(settings: Res<FlockSettings>, mut gizmos: Gizmos) {
    let bounds = settings.config.bounds;
    gizmos.cube(
        Transform::from_translation(bounds.center()).with_scale(bounds.size()),
        css::WHITE.with_alpha(0.35),
    );
}

/// The one-line help, with the boid count and whether the flock is paused.
fn update_help(status: support::FlockStatus, mut help: ResMut<support::HelpLine>) {
    let text = format!(
        "drag: orbit  B: +200 {}  P: bird/fish  space: pause  N: step{}",
        status.boids_of_max(),
        status.ending()
    );
    help.set_if_neq(support::HelpLine(text));
}
