//! Many boids at once, with the step time and frame rate on screen:
//! `cargo run --release --example stress -- 50000` (or `FLOCK_BOIDS=50000`; default 20000);
//! add `--panel` for the tuning panel.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use bevy_flock::{FlockBuffers, UiWantsInput};

const DEFAULT_BOIDS: usize = 20_000;

fn main() {
    let count = boid_count();
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
        .add_systems(Startup, setup)
        .add_systems(Update, (toggle_pause, show_timings));
    support::add_panel(
        &mut app,
        false,
        SpawnBoids::new(count, Placement::RandomInBounds),
    );
    app.run();
}

/// The boid count from the first argument that is not a `--flag`, else `FLOCK_BOIDS`, else the
/// default.
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

#[derive(Resource)]
struct StressCount(usize);

#[derive(Component)]
struct Readout;

fn setup(mut commands: Commands, count: Res<StressCount>) {
    commands.spawn(Camera2d);
    commands.queue(SpawnBoids::new(count.0, Placement::RandomInBounds));
    commands.spawn((
        Readout,
        Text2d::default(),
        TextFont {
            font_size: FontSize::Px(18.0),
            ..default()
        },
        TextColor(Color::WHITE),
        bevy::sprite::Anchor::TOP_LEFT,
        Transform::from_xyz(0.0, 0.0, 10.0),
    ));
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

/// Step times and frame rate in the top-left corner, smoothed so they can be read.
fn show_timings(
    time: Res<Time<Real>>,
    settings: Res<FlockSettings>,
    buffers: Res<FlockBuffers>,
    mut smoothed: Local<(f32, f32, f32)>,
    mut readout: Single<(&mut Text2d, &mut Transform), With<Readout>>,
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
    let (text, transform) = &mut *readout;
    let corner = Vec2::new(settings.config.bounds.min.x, settings.config.bounds.max.y);
    transform.translation = (corner + Vec2::new(12.0, -10.0)).extend(10.0);
    let boids = buffers.entities().len();
    let neighbours = buffers.stats().neighbours as f32 / boids.max(1) as f32;
    text.0 = format!(
        "{boids} boids, {neighbours:.0} neighbours each   step: index {index:.2} ms + steer {steer:.2} ms   \
         {:.0} FPS\nspace: pause   boid count: first argument or FLOCK_BOIDS",
        1.0 / frame.max(1e-6)
    );
}
