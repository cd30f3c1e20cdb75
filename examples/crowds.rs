//! Two crowds crossing through a corridor. Blue walkers follow a flow field (the arrows) along the
//! shortest way around the walls to the goal on the right; orange walkers seek the corridor, then
//! the left side, dodging the walls as obstacles. Both predict when they would bump into each other
//! (unaligned collision avoidance) and dodge or brake; A switches that off and on, and the help
//! line counts collisions per second. A walker that reaches its side starts again.

mod support;

use std::collections::{BTreeSet, VecDeque};

use bevy::ecs::system::EntityCommands;
use bevy::prelude::*;
use bevy_flock::FlockRng;
use bevy_flock::flock_core::steering::FlowField;
use bevy_flock::prelude::*;
use rand::RngExt;
use support::Avoiding;

/// Walkers per crowd.
const CROWD: usize = 90;
/// Two walkers whose centres come closer than this collide.
const BODY: f32 = 14.0;
const WALKER: MotionLimits = support::limits(90.0, 600.0);
/// The world the scene is laid out in (the window's 1280 x 720).
const HALF_WIDTH: f32 = 640.0;
const HALF_HEIGHT: f32 = 360.0;
/// The flow field's cells.
const CELL: f32 = 40.0;
const COLUMNS: usize = 32;
const ROWS: usize = 18;
/// The goal of the blue crowd.
const GOAL: Vec2 = Vec2::new(560.0, -200.0);

/// The walls: centre and half size. Between them, the corridor.
const WALLS: [(Vec2, Vec2); 2] = [
    (Vec2::new(0.0, 220.0), Vec2::new(120.0, 140.0)),
    (Vec2::new(0.0, -220.0), Vec2::new(120.0, 140.0)),
];

/// The corridor's right end (the walls' right side, plus a little).
const CORRIDOR_END: f32 = 130.0;

#[derive(Component)]
enum Crowd {
    /// Follows the flow field to [`GOAL`].
    Blue,
    /// Seeks the left side.
    Orange,
}

/// Collisions in the last second: the time of each.
#[derive(Resource, Default)]
struct Collisions {
    times: VecDeque<f32>,
    touching: BTreeSet<(Entity, Entity)>,
}

const AVOID: AvoidCollisions = AvoidCollisions {
    params: CollisionParams {
        // Half a body of margin.
        min_distance: 1.5 * BODY,
        horizon: 1.5,
    },
    weight: 3.0,
};

fn main() {
    // Walkers do not flock: they only steer.
    let config = FlockConfig {
        weights: RuleWeights::NONE,
        edges: EdgeMode::Free,
        max_speed: WALKER.max_speed,
        ..FlockConfig::default()
    };
    let max_boids = FlockSettings::default().max_boids;
    let world = support::window_world(max_boids, config);
    let mut app = support::flock_app("crowds", world, 14);
    app.insert_resource(FlockFlowField(flow_field()))
        // Whether walkers avoid each other (A switches it).
        .insert_resource(Avoiding(true))
        .init_resource::<Collisions>()
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                support::switch_avoidance::<With<Crowd>>(KeyCode::KeyA, set_avoidance),
                start_again,
                guide_orange,
                count_collisions,
                draw_level,
                update_help,
            )
                .chain(),
        );
    let reset = SpawnBoids::new(CROWD, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
}

/// The field over the whole view: the shortest way to [`GOAL`] around the walls' cells.
fn flow_field() -> FlowField {
    let origin = Vec2::new(-HALF_WIDTH, -HALF_HEIGHT);
    let blocked: Vec<bool> = (0..COLUMNS * ROWS)
        .map(|index| {
            let centre = origin
                + (Vec2::new((index % COLUMNS) as f32, (index / COLUMNS) as f32) + 0.5) * CELL;
            // A cell is blocked when it overlaps a wall.
            WALLS.iter().any(|(wall, half)| {
                ((centre - *wall).abs() - *half - Vec2::splat(CELL / 2.0)).max_element() < 0.0
            })
        })
        .collect();
    FlowField::towards_goal(origin, CELL, [COLUMNS, ROWS], &blocked, GOAL)
        .expect("the level's field is valid")
}

fn setup(mut commands: Commands) {
    commands.spawn(Camera2d);
    for (centre, half_size) in WALLS {
        commands.spawn((
            Obstacle::Rect { half_size },
            Transform::from_translation(centre.extend(-1.0)),
            Sprite::from_color(Color::srgb(0.22, 0.25, 0.32), half_size * 2.0),
        ));
    }
    // At first the walkers are everywhere on the way, so the crowds meet at once; later each
    // starts again at its side.
    commands.queue(|world: &mut World| {
        for i in 0..CROWD * 2 {
            let crowd = if i % 2 == 0 {
                Crowd::Blue
            } else {
                Crowd::Orange
            };
            let start = loop {
                let mut rng = world.resource_mut::<FlockRng>();
                let x = rng
                    .rng()
                    .random_range(-HALF_WIDTH + 40.0..HALF_WIDTH - 40.0);
                let y = rng
                    .rng()
                    .random_range(-HALF_HEIGHT + 30.0..HALF_HEIGHT - 30.0);
                let point = Vec2::new(x, y);
                let in_a_wall = WALLS.iter().any(|(wall, half)| {
                    ((point - *wall).abs() - *half - Vec2::splat(BODY)).max_element() < 0.0
                });
                if !in_a_wall {
                    break point;
                }
            };
            spawn_walker(world, crowd, start);
        }
    });
}

/// Somewhere in a crowd's starting strip (a quarter of the view at its side), from two numbers
/// in [0, 1).
fn start_point(crowd: &Crowd, along: f32, across: f32) -> Vec2 {
    let x = HALF_WIDTH - 40.0 - along * 260.0;
    let y = (across * 2.0 - 1.0) * (HALF_HEIGHT - 30.0);
    match crowd {
        Crowd::Blue => Vec2::new(-x, y),
        Crowd::Orange => Vec2::new(x, y),
    }
}

fn spawn_walker(world: &mut World, crowd: Crowd, start: Vec2) {
    let (colour, heading) = match crowd {
        Crowd::Blue => (Color::srgb(0.35, 0.65, 1.0), Vec2::X),
        Crowd::Orange => (Color::srgb(1.0, 0.6, 0.25), -Vec2::X),
    };
    let avoiding = world.resource::<Avoiding>().0;
    let mut walker = world.spawn((
        Boid,
        WALKER,
        Transform::from_translation(start.extend(0.0)),
        Velocity(heading * WALKER.max_speed * 0.5),
        Sprite::from_color(colour, Vec2::new(BODY, BODY * 0.6)),
        AvoidObstacles {
            look_ahead: 60.0,
            clearance: BODY,
            weight: 2.0,
        },
    ));
    match crowd {
        Crowd::Blue => walker.insert(FollowFlowField {
            look_ahead: 0.3,
            weight: 1.0,
        }),
        Crowd::Orange => walker.insert(Seek {
            target: Target::Point(Vec2::new(-HALF_WIDTH - 200.0, 0.0)),
            weight: 1.0,
        }),
    };
    if avoiding {
        walker.insert(AVOID);
    }
    walker.insert(crowd);
}

/// Predictive avoidance on or off for one walker.
fn set_avoidance(walker: &mut EntityCommands, on: bool) {
    if on {
        walker.insert(AVOID);
    } else {
        walker.remove::<AvoidCollisions>();
    }
}

/// A blue walker at the goal, or an orange one at the left side, starts again at its side.
fn start_again(
    mut rng: ResMut<FlockRng>,
    mut walkers: Query<(&Crowd, &mut Transform, &mut Velocity)>,
) {
    for (crowd, mut transform, mut velocity) in &mut walkers {
        let at = transform.translation.truncate();
        let arrived = match crowd {
            Crowd::Blue => at.distance(GOAL) < 40.0,
            Crowd::Orange => at.x < -HALF_WIDTH + 20.0,
        };
        if arrived {
            let start = start_point(
                crowd,
                rng.rng().random_range(0.0..1.0),
                rng.rng().random_range(0.0..1.0),
            );
            transform.translation = start.extend(0.0);
            velocity.0 = Vec2::ZERO;
        }
    }
}

/// Orange walkers seek the corridor's mouth (at their height, within the corridor) until
/// they reach it, then the left side straight ahead.
fn guide_orange(mut walkers: Query<(&Crowd, &Transform, &mut Seek)>) {
    for (crowd, transform, mut seek) in &mut walkers {
        if !matches!(crowd, Crowd::Orange) {
            continue;
        }
        let at = transform.translation.truncate();
        let target = if at.x > CORRIDOR_END {
            Vec2::new(CORRIDOR_END - 40.0, at.y.clamp(-50.0, 50.0))
        } else {
            Vec2::new(-HALF_WIDTH - 200.0, at.y)
        };
        seek.target = Target::Point(target);
    }
}

fn count_collisions(
    time: Res<Time>,
    mut primed: Local<bool>,
    mut collisions: ResMut<Collisions>,
    walkers: Query<(Entity, &Transform), With<Crowd>>,
) {
    let walkers: Vec<(Entity, Vec2)> = walkers
        .iter()
        .map(|(entity, transform)| (entity, transform.translation.truncate()))
        .collect();
    let mut touching = BTreeSet::new();
    for (i, (a, p)) in walkers.iter().enumerate() {
        for (b, q) in &walkers[i + 1..] {
            if p.distance(*q) < BODY {
                touching.insert((*a, *b));
            }
        }
    }
    let now = time.elapsed_secs();
    // The first frame only learns who touches: walkers placed at random may start touching.
    let new = if std::mem::replace(&mut *primed, true) {
        touching.difference(&collisions.touching).count()
    } else {
        0
    };
    collisions.times.extend(std::iter::repeat_n(now, new));
    while collisions.times.front().is_some_and(|&at| at < now - 1.0) {
        collisions.times.pop_front();
    }
    collisions.touching = touching;
}

/// The flow field as arrows, and the goal.
fn draw_level(field: Res<FlockFlowField>, mut gizmos: Gizmos) {
    let field = &field.0;
    for row in 0..ROWS {
        for column in 0..COLUMNS {
            let centre = field.centre([column, row]);
            let velocity = field.sample(centre);
            if velocity != Vec2::ZERO {
                let tip = centre + velocity * CELL * 0.4;
                gizmos.arrow_2d(
                    centre - velocity * CELL * 0.2,
                    tip,
                    Color::srgba(0.5, 0.7, 1.0, 0.3),
                );
            }
        }
    }
    gizmos.circle_2d(GOAL, 40.0, Color::srgb(0.4, 1.0, 0.5));
}

fn update_help(
    avoiding: Res<Avoiding>,
    collisions: Res<Collisions>,
    mut help: ResMut<support::HelpLine>,
) {
    let text = format!(
        "A: predictive avoidance {}, {} collisions/s   blue: flow field to the green goal   \
         orange: seek the left",
        if avoiding.0 { "on" } else { "off" },
        collisions.times.len()
    );
    help.set_if_neq(support::HelpLine(text));
}
