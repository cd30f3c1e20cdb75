//! *The Nature of Code*, 6.11: 100 vehicles in the document's 320 x 240 sketch, shown three times
//! as large (the frame), keeping apart (the document's `separate()`, within its 20 pixels) and
//! seeking the mouse. Max speed 3 and max force 0.2 per frame and the weights 1.5 (separation) and
//! 0.5 (seek) are *The Nature of Code*'s, not this document's.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use support::scenes::nature_of_code;

const VEHICLES: usize = 100;

fn main() {
    let mut app = support::flock_app("nature_of_code", nature_of_code(), 0);
    app.insert_resource(support::HelpLine(
        "move the mouse: 100 vehicles seek it and keep apart (separation + seek)".into(),
    ))
    .add_systems(Startup, setup)
    .add_systems(
        Update,
        (
            (seek_with_new_vehicles, follow_the_mouse).chain(),
            draw_sketch_frame,
        ),
    );
    let reset = SpawnBoids::new(VEHICLES, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    let grey = BoidColors::Single(Color::srgb(0.75, 0.75, 0.78));
    *prefab = support::sprite_prefab(&assets, BoidSprite::Arrow, 24.0, grey);
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

/// The sketch's 320 x 240 frame: the vehicles bounce off it.
fn draw_sketch_frame(settings: Res<FlockSettings>, mut gizmos: Gizmos) {
    let bounds = settings.config.bounds;
    gizmos.rect_2d(
        Isometry2d::from_translation(bounds.center()),
        bounds.size(),
        Color::srgba(1.0, 1.0, 1.0, 0.25),
    );
}
