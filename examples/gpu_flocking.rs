//! A million boids simulated and drawn on the GPU, in 2D: no boid is an entity and a frame does
//! no work per boid on the CPU. `cargo run --release --example gpu_flocking -- 200000` (or
//! `FLOCK_BOIDS`; default 1,000,000); space pauses, R starts a new flock, `--panel` opens the
//! tuning panel, whose settings and boid look the GPU flock follows.
//!
//! The world grows with the count so every boid keeps about a dozen neighbours, and the camera
//! zooms out to show all of it.

mod support;

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy_flock::flock_core::Bounds;
use bevy_flock::gpu::GpuFlockPlugin;
use bevy_flock::prelude::*;

const DEFAULT_BOIDS: usize = 1_000_000;
/// What software rendering (the screenshots CI takes) draws in time.
const SCREENSHOT_BOIDS: usize = 10_000;
/// World area per boid: with the radii below, about a dozen neighbours each.
const AREA_PER_BOID: f32 = 16.0;
/// The window's shape, which the world takes.
const ASPECT: f32 = 16.0 / 9.0;

fn main() -> AppExit {
    let count = support::gpu::boid_count(DEFAULT_BOIDS, SCREENSHOT_BOIDS);
    let height = (count.max(1) as f32 * AREA_PER_BOID / ASPECT).sqrt();
    let size = Vec2::new(height * ASPECT, height);
    let spacing = AREA_PER_BOID.sqrt();
    // Processing's flock scaled down to the spacing: radii, speed and force alike.
    let processing = FlockConfig::processing();
    let scale = 3.0 * spacing / processing.alignment_radius;
    let mut app = support::example_app("gpu_flocking");
    app.insert_resource(ClearColor(Color::srgb(0.03, 0.04, 0.07)))
        .insert_resource(FlockSettings {
            config: FlockConfig {
                separation_radius: processing.separation_radius * scale,
                alignment_radius: processing.alignment_radius * scale,
                cohesion_radius: processing.cohesion_radius * scale,
                max_speed: processing.max_speed * scale,
                max_force: processing.max_force * scale,
                bounds: Bounds::centered(size),
                ..processing
            },
            bounds_source: BoundsSource::Fixed,
            // The CPU flock stays empty: its settings are the panel's, for the GPU flock.
            max_boids: 1,
        })
        .insert_resource(ClickToSpawn::OFF)
        .insert_resource(WorldSize(size, spacing))
        .add_plugins((BoidsPlugin::default(), GpuFlockPlugin))
        .add_plugins(support::ScreenHelpPlugin(""))
        .add_plugins(support::gpu::GpuSceneControls { count })
        .add_systems(Startup, setup);
    app.run()
}

/// The world's size and the boids' mean spacing.
#[derive(Resource)]
struct WorldSize(Vec2, f32);

fn setup(mut commands: Commands, world: Res<WorldSize>, assets: Res<AssetServer>) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: world.0.x,
                min_height: world.0.y,
            },
            ..OrthographicProjection::default_2d()
        }),
    ));
    // Arrows about a spacing and a half long: at a million they are a few pixels, so the
    // flock reads as streams of colour.
    commands.insert_resource(BoidPrefab {
        image: assets.load(BoidSprite::Arrow.asset_path()),
        size: Vec2::splat(1.6 * world.1),
        colors: BoidColors::RandomHue {
            saturation: 0.7,
            lightness: 0.62,
        },
    });
}
