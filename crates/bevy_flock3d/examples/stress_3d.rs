//! Many boids in 3D, with the step time and frame rate on screen:
//! `cargo run --release -p bevy_flock3d --example stress_3d -- 50000` (or `FLOCK_BOIDS=50000`;
//! default 20000); drag to orbit, scroll to zoom, space pauses; `--panel` for the tuning panel.

// The shared example support says `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../examples/support/mod.rs"]
mod support;
mod support3d;

use bevy::prelude::*;
use bevy_flock3d::FlockBuffers;
use bevy_flock3d::prelude::*;

const DEFAULT_BOIDS: usize = 20_000;

fn main() {
    let count = support::stress::boid_count(DEFAULT_BOIDS);
    let (config, side) = support3d::cube_world(count);
    let mut app = support::example_app("stress_3d");
    let background = Color::srgb(0.04, 0.05, 0.08);
    app.insert_resource(ClearColor(background))
        .insert_resource(FlockSettings {
            config,
            max_boids: count,
            ..default()
        })
        .insert_resource(StressCount(count, side))
        .add_plugins(BoidsPlugin::default())
        .add_plugins(support3d::Scene3dPlugin(""))
        .add_plugins(support::stress::StressControls { count })
        .add_systems(Startup, setup)
        .add_systems(Update, show_timings);
    app.run();
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
    support3d::spawn_cube_view(&mut commands, side);
    *prefab = support3d::small_birds(&mut meshes);
    commands.queue(SpawnBoids::new(count.0, Placement::RandomInBounds));
}

/// Step times and frame rate in the help line, smoothed so they can be read.
fn show_timings(
    time: Res<Time<Real>>,
    buffers: Res<FlockBuffers>,
    mut smoothed: Local<support::stress::SmoothedTimings>,
    mut help: ResMut<support::HelpLine>,
) {
    let timings = smoothed.update(&buffers, time.delta_secs());
    help.0 = format!(
        "{timings}\ndrag: orbit   scroll: zoom   space: pause   boid count: first argument or \
         FLOCK_BOIDS"
    );
}
