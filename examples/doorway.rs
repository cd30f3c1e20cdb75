//! Reynolds' queueing at a doorway: a crowd of 120 in a room heads for the door in its right
//! wall (the wall is two `Obstacle` rectangles). Each one brakes for whoever is just ahead of it
//! on the way to the door and, blocked for a second, steps aside (`Queue`); they keep apart
//! (separation) and off the walls (`AvoidObstacles`). Through the door they walk on to the
//! right; off the screen they come back into the room and queue again.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::Bounds;
use bevy_flock::prelude::*;

const HALF_WIDTH: f32 = 640.0;
const HALF_HEIGHT: f32 = 360.0;

/// The wall along x = 0, `WALL_HALF_THICKNESS` either side, with a door `DOOR_HALF_WIDTH` either
/// side of y = 0.
const WALL_HALF_THICKNESS: f32 = 10.0;
const DOOR_HALF_WIDTH: f32 = 28.0;

/// Where queueing boids head: just beyond the opening, so one that gets there is through.
const DOOR: Vec2 = Vec2::new(30.0, 0.0);

const CROWD: usize = 120;

/// Bodies 14 px across: slow down from 40 px behind the one ahead, stop at 18.
const QUEUE: QueueParams = QueueParams {
    look_ahead: 40.0,
    stop_distance: 18.0,
    lane_half_width: 14.0,
    patience: 1.0,
};

const WALKER: MotionLimits = MotionLimits {
    max_speed: 90.0,
    max_force: 900.0,
    mass: 1.0,
};

const WALL_COLOUR: Color = Color::srgb(0.95, 0.75, 0.35);
const DOOR_COLOUR: Color = Color::srgb(0.4, 1.0, 0.5);

fn main() {
    let mut app = support::example_app("doorway");
    let mut settings = support::behaviours_only(16.0);
    settings.config.weights.separation = 2.0;
    settings.config.bounds = Bounds {
        min: Vec2::new(-HALF_WIDTH, -HALF_HEIGHT),
        max: Vec2::new(HALF_WIDTH, HALF_HEIGHT),
    };
    settings.bounds_source = BoundsSource::Fixed;
    app.insert_resource(settings)
        .add_plugins(BoidsPlugin::default().with_seed(27))
        .add_plugins(support::HelpLinePlugin(""))
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                queue_new_boids,
                walk_on_through_the_door,
                draw_walls,
                update_help,
            ),
        );
    let reset = SpawnBoids::new(CROWD, Placement::InRect(room()));
    support::add_panel(&mut app, false, reset);
    app.run();
}

/// Where the crowd starts, and comes back to.
fn room() -> Rect {
    Rect::new(
        -HALF_WIDTH + 40.0,
        -HALF_HEIGHT + 40.0,
        -120.0,
        HALF_HEIGHT - 40.0,
    )
}

/// The two pieces of wall above and below the door: centre and half size.
fn wall_pieces() -> [(Vec2, Vec2); 2] {
    let half_length = (HALF_HEIGHT - DOOR_HALF_WIDTH) / 2.0;
    let offset = DOOR_HALF_WIDTH + half_length;
    [-1.0, 1.0].map(|side| {
        (
            Vec2::new(0.0, side * offset),
            Vec2::new(WALL_HALF_THICKNESS, half_length),
        )
    })
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = support::sprite_prefab(&assets, BoidSprite::Arrow, 14.0, support::SOFT_HUES);
    for (centre, half_size) in wall_pieces() {
        commands.spawn((
            Obstacle::Rect { half_size },
            Transform::from_translation(centre.extend(0.0)),
        ));
    }
    commands.queue(SpawnBoids::new(CROWD, Placement::InRect(room())).with_speed(0.0));
}

/// Every new boid (the first ones, the panel's Reset, a click) joins the queue.
fn queue_new_boids(mut commands: Commands, new_boids: Query<Entity, Added<Boid>>) {
    for boid in &new_boids {
        commands
            .entity(boid)
            .insert((WALKER, queueing(), keep_off_the_walls()));
    }
}

fn queueing() -> Queue {
    Queue {
        params: QUEUE,
        ..Queue::for_door(DOOR)
    }
}

fn keep_off_the_walls() -> AvoidObstacles {
    AvoidObstacles {
        look_ahead: 40.0,
        clearance: 8.0,
        weight: 3.0,
    }
}

/// Through the door, a boid stops queueing and walks on to the right; off the screen, it is
/// back in the room (at the same height) and queues again.
fn walk_on_through_the_door(
    mut commands: Commands,
    mut boids: Query<(Entity, &mut Transform, Has<Queue>), With<Boid>>,
) {
    for (boid, mut transform, queueing_now) in &mut boids {
        let position = transform.translation.truncate();
        if queueing_now && position.x > DOOR.x {
            commands.entity(boid).remove::<Queue>().insert(Seek {
                target: Target::Point(Vec2::new(2.0 * HALF_WIDTH, position.y * 4.0)),
                weight: 1.0,
            });
        } else if !queueing_now && position.x > HALF_WIDTH + 20.0 {
            let height = position.y.clamp(room().min.y, room().max.y);
            transform.translation = Vec3::new(room().min.x, height, 0.0);
            commands.entity(boid).remove::<Seek>().insert(queueing());
        }
    }
}

fn draw_walls(mut gizmos: Gizmos) {
    for (centre, half_size) in wall_pieces() {
        gizmos.rect_2d(
            Isometry2d::from_translation(centre),
            half_size * 2.0,
            WALL_COLOUR,
        );
    }
    let door = Vec2::new(0.0, DOOR_HALF_WIDTH);
    gizmos.line_2d(-door, door, DOOR_COLOUR);
}

fn update_help(boids: Query<Has<Queue>, With<Boid>>, mut help: ResMut<support::HelpLine>) {
    let waiting = boids.iter().filter(|&queueing| queueing).count();
    let text = format!(
        "{waiting} queueing for the green door: brake for the one ahead, step aside when \
         blocked"
    );
    help.set_if_neq(support::HelpLine(text));
}
