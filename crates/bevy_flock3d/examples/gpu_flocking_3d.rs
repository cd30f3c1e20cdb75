//! A million boids simulated and drawn on the GPU, in 3D: birds drawn instanced straight from
//! the GPU's boid buffer, no boid an entity. `cargo run --release -p bevy_flock3d --example
//! gpu_flocking_3d -- 200000` (or `FLOCK_BOIDS`; default 1,000,000); drag to orbit, scroll
//! to zoom, space pauses, R starts a new flock, `--panel` opens the tuning panel, whose
//! settings and boid look the GPU flock follows.

// The shared example support says `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../examples/support/mod.rs"]
mod support;
mod support3d;

use bevy::prelude::*;
use bevy_flock3d::gpu::GpuFlockPlugin;
use bevy_flock3d::prelude::*;

const DEFAULT_BOIDS: usize = 1_000_000;
/// What software rendering (the screenshots CI takes) draws in time.
const SCREENSHOT_BOIDS: usize = 8_000;

fn main() -> AppExit {
    let count = support::gpu::boid_count(DEFAULT_BOIDS, SCREENSHOT_BOIDS);
    let (config, side) = support3d::cube_world(count);
    let background = Color::srgb(0.04, 0.05, 0.08);
    let mut app = support::example_app("gpu_flocking_3d");
    app.insert_resource(ClearColor(background))
        .insert_resource(FlockSettings {
            config,
            // The CPU flock stays empty: its settings are the panel's, for the GPU flock.
            max_boids: 1,
            ..default()
        })
        .insert_resource(ClickToSpawn::OFF)
        .insert_resource(CubeSide(side))
        .add_plugins((BoidsPlugin::default(), GpuFlockPlugin))
        .add_plugins(support3d::Scene3dPlugin(""))
        .add_plugins(support::gpu::GpuSceneControls { count })
        .add_systems(Startup, setup);
    app.run()
}

/// The side of the cube the boids fly in.
#[derive(Resource)]
struct CubeSide(f32);

fn setup(
    mut commands: Commands,
    side: Res<CubeSide>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut prefab: ResMut<BoidPrefab>,
) {
    let side = side.0;
    support3d::spawn_cube_view(&mut commands, side);
    *prefab = support3d::small_birds(&mut meshes);
}
