//! Seed 000 (*The Nature of Code*, 6.11): 100 vehicles that keep apart (separation only) and
//! seek the mouse. Shiffman's numbers (max speed 3 and max force 0.2 per frame, separation at
//! twice the vehicle's size, separation weighted 1.5 and seek 0.5), per second at 60 fps and
//! doubled for a 1280x720 window.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;

/// Shiffman's sketch is 640 pixels wide; this window is twice that.
const SCALE: f32 = 2.0;
const FPS: f32 = 60.0;
const VEHICLES: usize = 100;

fn main() {
    let config = FlockConfig {
        separation_radius: 2.0 * 6.0 * SCALE,
        weights: RuleWeights {
            separation: 1.5,
            alignment: 0.0,
            cohesion: 0.0,
        },
        max_speed: 3.0 * FPS * SCALE,
        max_force: 0.2 * FPS * FPS * SCALE,
        speed_mode: SpeedMode::Clamp { min_speed: 0.0 },
        // The sketch has no walls: seeking keeps the vehicles on screen; bounce is a backstop.
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let mut app = support::example_app("nature_of_code");
    app.insert_resource(FlockSettings {
        config,
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 100,
    })
    .insert_resource(ClickToSpawn {
        enabled: false,
        ..default()
    })
    .add_plugins(BoidsPlugin::default())
    .add_plugins(support::HelpLinePlugin(
        "move the mouse: 100 vehicles seek it and keep apart (separation + seek)",
    ))
    .add_systems(Startup, setup)
    .add_systems(Update, (seek_with_new_vehicles, follow_the_mouse).chain());
    let reset = SpawnBoids::new(VEHICLES, Placement::RandomInBounds);
    support::add_panel(&mut app, false, reset);
    app.run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = BoidPrefab {
        image: assets.load("sprites/arrow.png"),
        size: Vec2::splat(24.0),
        colors: BoidColors::Single(Color::srgb(0.75, 0.75, 0.78)),
    };
    commands.queue(SpawnBoids::new(VEHICLES, Placement::RandomInBounds));
}

/// Every vehicle gets the sketch's seek on top of the flock's separation (also those the
/// panel's Reset spawns).
fn seek_with_new_vehicles(
    mut commands: Commands,
    new: Query<Entity, (Added<Boid>, Without<Seek>)>,
) {
    for vehicle in &new {
        commands.entity(vehicle).insert(Seek {
            target: Target::Point(Vec2::ZERO),
            weight: 0.5,
        });
    }
}

/// Seek the mouse; before the mouse is over the window, the centre.
fn follow_the_mouse(cursor: Res<CursorWorldPosition>, mut seekers: Query<&mut Seek>) {
    let target = cursor.0.unwrap_or(Vec2::ZERO);
    for mut seek in &mut seekers {
        seek.target = Target::Point(target);
    }
}
