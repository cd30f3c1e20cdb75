//! Many boids in 3D, with the step time and frame rate on screen:
//! `cargo run --release -p bevy_flock3d --example stress_3d -- 50000` (or `FLOCK_BOIDS=50000`;
//! default 20000); drag to orbit, scroll to zoom, space pauses; `--panel` for the tuning panel.

// The shared example support says `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../examples/support/mod.rs"]
mod support;
mod support3d;

use bevy::prelude::*;
use bevy_flock3d::flock_core::Bounds;
use bevy_flock3d::prelude::*;
use bevy_flock3d::{FlockBuffers, UiWantsInput};
use support3d::OrbitCamera;

const DEFAULT_BOIDS: usize = 20_000;

/// Boids per cubic world unit: with the radii below, about thirty neighbours each.
const DENSITY: f32 = 2e-3;

fn main() {
    let count = boid_count();
    // A cube that holds `count` boids at `DENSITY`, so any count keeps the same neighbours.
    let side = (count.max(1) as f32 / DENSITY).cbrt();
    let mut app = support::example_app("stress_3d");
    let background = Color::srgb(0.04, 0.05, 0.08);
    app.insert_resource(ClearColor(background))
        .insert_resource(FlockSettings {
            config: FlockConfig {
                separation_radius: 6.0,
                alignment_radius: 13.0,
                cohesion_radius: 13.0,
                bounds: Bounds::centered(Vec3::splat(side)),
                edges: EdgeMode::Wrap,
                wrap_neighbours: true,
                ..FlockConfig::processing()
            },
            max_boids: count,
            ..default()
        })
        .insert_resource(ClickToSpawn {
            enabled: false,
            ..default()
        })
        .insert_resource(StressCount(count, side))
        .add_plugins(BoidsPlugin::default())
        .add_plugins(support3d::Scene3dPlugin(""))
        .add_systems(Startup, setup)
        .add_systems(Update, (toggle_pause, show_timings));
    support3d::add_panel(
        &mut app,
        false,
        SpawnBoids::new(count, Placement::RandomInBounds),
    );
    app.run();
}

/// The boid count from the first argument that is not a `--flag`, else `FLOCK_BOIDS`, else
/// the default.
fn boid_count() -> usize {
    let from_argument = std::env::args()
        .skip(1)
        .find(|argument| !argument.starts_with("--"));
    let from_environment = std::env::var("FLOCK_BOIDS").ok();
    match from_argument.or(from_environment) {
        Some(text) => text.trim().parse().unwrap_or_else(|_| {
            eprintln!("`{text}` is not a boid count; using {DEFAULT_BOIDS}");
            DEFAULT_BOIDS
        }),
        None => DEFAULT_BOIDS,
    }
}

/// The boid count and the side of the cube they fly in.
#[derive(Resource)]
struct StressCount(usize, f32);

fn setup(
    mut commands: Commands,
    count: Res<StressCount>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut prefab: ResMut<BoidPrefab>,
) {
    let side = count.1;
    commands.spawn(support3d::camera(
        OrbitCamera {
            focus: Vec3::ZERO,
            distance: side * 1.6,
            yaw: 0.6,
            elevation: 0.4,
            button: MouseButton::Left,
        },
        Color::srgb(0.04, 0.05, 0.08),
        side,
        side * 3.0,
    ));
    support3d::spawn_lights(&mut commands);
    *prefab = BoidPrefab {
        mesh: meshes.add(bird_mesh(3.0)),
        colors: BoidColors::RandomHue {
            saturation: 0.65,
            lightness: 0.6,
        },
    };
    commands.queue(SpawnBoids::new(count.0, Placement::RandomInBounds));
}

fn toggle_pause(
    keys: Res<ButtonInput<KeyCode>>,
    ui: Res<UiWantsInput>,
    mut clock: ResMut<FlockClock>,
) {
    // Typing in the panel is not a shortcut.
    if keys.just_pressed(KeyCode::Space) && !ui.keyboard {
        clock.toggle_pause();
    }
}

/// Step times and frame rate in the help line, smoothed so they can be read.
fn show_timings(
    time: Res<Time<Real>>,
    buffers: Res<FlockBuffers>,
    mut smoothed: Local<(f32, f32, f32)>,
    mut help: ResMut<support::HelpLine>,
) {
    let timings = buffers.timings();
    let blend = |old: f32, new: f32| {
        if old == 0.0 {
            new
        } else {
            old * 0.95 + new * 0.05
        }
    };
    let (index, steer, frame) = &mut *smoothed;
    *index = blend(*index, timings.index.as_secs_f32() * 1e3);
    *steer = blend(*steer, timings.steer.as_secs_f32() * 1e3);
    *frame = blend(*frame, time.delta_secs());
    let boids = buffers.entities().len();
    let neighbours = buffers.stats().neighbours as f32 / boids.max(1) as f32;
    help.0 = format!(
        "{boids} boids, {neighbours:.0} neighbours each   step: index {index:.2} ms + steer \
         {steer:.2} ms   {:.0} FPS\ndrag: orbit   scroll: zoom   space: pause   boid count: \
         first argument or FLOCK_BOIDS",
        1.0 / frame.max(1e-6)
    );
}
