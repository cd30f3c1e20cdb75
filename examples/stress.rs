//! Many boids at once, with the step time and frame rate on screen:
//! `cargo run --release --example stress -- 50000` (or `FLOCK_BOIDS=50000`; default 20000);
//! add `--panel` for the tuning panel.

mod support;

use bevy::prelude::*;
use bevy_flock::FlockBuffers;
use bevy_flock::prelude::*;

const DEFAULT_BOIDS: usize = 20_000;

fn main() {
    let count = support::stress::boid_count(DEFAULT_BOIDS);
    let mut app = support::example_app("stress");
    app.insert_resource(ClearColor(Color::srgb(0.04, 0.05, 0.08)))
        .insert_resource(FlockSettings {
            // Processing's flock with radii scaled down, so a window full of boids keeps
            // about twenty neighbours each.
            config: FlockConfig {
                separation_radius: 6.0,
                alignment_radius: 12.0,
                cohesion_radius: 12.0,
                ..FlockConfig::processing()
            },
            bounds_source: BoundsSource::FollowCamera,
            max_boids: count,
        })
        .insert_resource(BoidPrefab {
            size: Vec2::new(5.0, 2.5),
            colors: BoidColors::RandomHue {
                saturation: 0.65,
                lightness: 0.65,
            },
            ..default()
        })
        .insert_resource(StressCount(count))
        .add_plugins(BoidsPlugin::default())
        .add_plugins(support::stress::StressControls { count })
        .add_systems(Startup, setup)
        .add_systems(Update, show_timings);
    app.run();
}

#[derive(Resource)]
struct StressCount(usize);

#[derive(Component)]
struct Readout;

fn setup(mut commands: Commands, count: Res<StressCount>) {
    commands.spawn(Camera2d);
    commands.queue(SpawnBoids::new(count.0, Placement::RandomInBounds));
    commands.spawn((
        Readout,
        support::overlay_text(Color::WHITE),
        Transform::from_xyz(0.0, 0.0, 10.0),
    ));
}

/// Step times and frame rate in the top-left corner, smoothed so they can be read.
fn show_timings(
    time: Res<Time<Real>>,
    settings: Res<FlockSettings>,
    buffers: Res<FlockBuffers>,
    mut smoothed: Local<support::stress::SmoothedTimings>,
    mut readout: Single<(&mut Text2d, &mut Transform), With<Readout>>,
) {
    let timings = smoothed.update(&buffers, time.delta_secs());
    let (text, transform) = &mut *readout;
    transform.translation = support::top_left_of_bounds(&settings);
    text.0 = format!("{timings}\nspace: pause   boid count: first argument or FLOCK_BOIDS");
}
