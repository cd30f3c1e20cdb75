//! A flock streaming through a level of rotated boxes and polygons. 300 boids flock (Reynolds'
//! rules) and follow a gentle flow to the right; the world wraps, so they come round again.
//! Each one looks ahead and dodges the obstacles: plank-like rectangles at angles, triangles, a
//! hexagon, a concave arrowhead. With the `avian` feature (on in this repository's builds) the
//! level also has avian colliders, drawn in blue: a capsule, a convex hull and a ball, which
//! boids dodge through avian's spatial queries (`AvoidColliders`). O switches obstacle
//! avoidance off and on.

mod support;

use bevy::ecs::system::EntityCommands;
use bevy::prelude::*;
#[cfg(feature = "avian")]
use bevy_flock::avian::prelude::{Collider, PhysicsPlugins};
use bevy_flock::flock_core::steering::{FlowField, Polygon};
use bevy_flock::prelude::*;
use support::Avoiding;

const AVOID: AvoidObstacles = AvoidObstacles {
    look_ahead: 100.0,
    clearance: 12.0,
    weight: 4.0,
};

/// The same reach and room for avian's colliders.
#[cfg(feature = "avian")]
const AVOID_COLLIDERS: AvoidColliders = AvoidColliders {
    look_ahead: AVOID.look_ahead,
    clearance: AVOID.clearance,
    weight: AVOID.weight,
    layers: bevy_flock::avian::prelude::LayerMask::ALL,
};

/// What the level draws of an obstacle: its outline in world coordinates, and its colour.
#[derive(Component)]
struct Outline(Vec<Vec2>, Color);

/// The colour of the level's own obstacles, and of avian's colliders.
const LEVEL: Color = Color::srgb(0.95, 0.75, 0.35);
#[cfg(feature = "avian")]
const AVIAN: Color = Color::srgb(0.45, 0.7, 1.0);

fn main() {
    let world = support::window_world(1_000, FlockConfig::processing());
    let mut app = support::flock_app("obstacles", world, 15);
    app.insert_resource(ClickToSpawn::ON)
        // To the right at half speed everywhere: the stream.
        .insert_resource(FlockFlowField(
            FlowField::from_fn(Vec2::splat(-1.0), 2.0, [1, 1], |_| Vec2::new(0.5, 0.0))
                .expect("a one-cell field is valid"),
        ))
        // Whether boids avoid the obstacles (O switches it).
        .insert_resource(Avoiding(true))
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                steer_new_boids,
                support::switch_avoidance::<With<Boid>>(KeyCode::KeyO, set_avoidance),
                draw_obstacles,
                update_help,
            )
                .chain(),
        );
    // Avian's colliders, in the spatial queries' tree its plugins keep.
    #[cfg(feature = "avian")]
    app.add_plugins(PhysicsPlugins::default())
        .add_systems(Startup, spawn_colliders);
    let reset = SpawnBoids::new(300, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = support::sprite_prefab(&assets, BoidSprite::Fish, 18.0, support::SOFT_HUES);
    // Planks: centre, half size, angle in degrees.
    let planks = [
        (Vec2::new(-330.0, 120.0), Vec2::new(90.0, 14.0), 35.0),
        (Vec2::new(-250.0, -170.0), Vec2::new(70.0, 18.0), -60.0),
        (Vec2::new(120.0, 200.0), Vec2::new(110.0, 12.0), -20.0),
        (Vec2::new(380.0, -40.0), Vec2::new(80.0, 16.0), 75.0),
    ];
    for (centre, half_size, degrees) in planks {
        let rotation = Quat::from_rotation_z(f32::to_radians(degrees));
        let outline = Polygon::rectangle(half_size)
            .expect("a plank has an area")
            .placed(centre, Vec2::from_angle(f32::to_radians(degrees)));
        commands.spawn((
            Obstacle::RotatedRect { half_size },
            Transform::from_translation(centre.extend(0.0)).with_rotation(rotation),
            Outline(outline.vertices().to_vec(), LEVEL),
        ));
    }
    let p = Vec2::new;
    let hexagon = (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 6.0) * 60.0);
    let polygons = [
        (
            p(-60.0, 40.0),
            vec![p(-50.0, -45.0), p(55.0, -30.0), p(0.0, 60.0)],
        ),
        (p(180.0, -200.0), hexagon.collect()),
        // A concave arrowhead pointing against the stream.
        (
            p(-10.0, -120.0),
            vec![p(-60.0, 0.0), p(40.0, -55.0), p(10.0, 0.0), p(40.0, 55.0)],
        ),
        (
            p(500.0, 230.0),
            vec![
                p(-40.0, -50.0),
                p(50.0, -20.0),
                p(20.0, 60.0),
                p(-50.0, 30.0),
            ],
        ),
    ];
    for (centre, vertices) in polygons {
        let polygon = Polygon::new(vertices).expect("the level's polygons are simple");
        commands.spawn((
            Outline(polygon.placed(centre, Vec2::X).vertices().to_vec(), LEVEL),
            Obstacle::Polygon(polygon),
            Transform::from_translation(centre.extend(0.0)),
        ));
    }
    commands.queue(SpawnBoids::new(300, Placement::RandomInBounds));
}

/// Avian colliders in the gaps of the level: a capsule at an angle, a convex hull and a ball.
#[cfg(feature = "avian")]
fn spawn_colliders(mut commands: Commands) {
    let p = Vec2::new;
    let (radius, half_length, degrees) = (22.0, 60.0, 70.0);
    let angle = f32::to_radians(degrees);
    let centre = p(-470.0, -40.0);
    // A capsule along its local y axis, as avian's (and Bevy's) are.
    let axis = Vec2::from_angle(angle).rotate(Vec2::Y) * half_length;
    let outline = (0..=32)
        .map(|i| {
            let turn = i as f32 / 32.0 * std::f32::consts::TAU;
            let end = if turn < std::f32::consts::PI {
                axis
            } else {
                -axis
            };
            centre + end + Vec2::from_angle(turn + angle) * radius
        })
        .collect();
    commands.spawn((
        Collider::capsule(radius, 2.0 * half_length),
        Transform::from_translation(centre.extend(0.0)).with_rotation(Quat::from_rotation_z(angle)),
        Outline(outline, AVIAN),
    ));
    let hull = vec![
        p(-45.0, -35.0),
        p(40.0, -50.0),
        p(60.0, 20.0),
        p(-10.0, 55.0),
        p(-55.0, 15.0),
    ];
    let centre = p(300.0, 90.0);
    commands.spawn((
        Collider::convex_hull(hull.clone()).expect("the hull has an area"),
        Transform::from_translation(centre.extend(0.0)),
        Outline(hull.iter().map(|&v| centre + v).collect(), AVIAN),
    ));
    let (centre, radius) = (p(-180.0, 250.0), 45.0);
    let circle = (0..32)
        .map(|i| centre + Vec2::from_angle(i as f32 / 32.0 * std::f32::consts::TAU) * radius);
    commands.spawn((
        Collider::circle(radius),
        Transform::from_translation(centre.extend(0.0)),
        Outline(circle.collect(), AVIAN),
    ));
}

/// Every new boid (the first ones, the panel's Reset, a click) joins the stream.
fn steer_new_boids(
    mut commands: Commands,
    avoiding: Res<Avoiding>,
    new_boids: Query<Entity, Added<Boid>>,
) {
    for boid in &new_boids {
        let mut boid = commands.entity(boid);
        boid.insert((
            FollowFlowField {
                look_ahead: 0.0,
                weight: 0.3,
            },
            // Processing's force limit turns a boid in a circle of 130 px; dodging needs a
            // tighter turn than that.
            MotionLimits {
                max_speed: 120.0,
                max_force: 700.0,
                mass: 1.0,
            },
        ));
        set_avoidance(&mut boid, avoiding.0);
    }
}

/// Obstacle avoidance (and with avian, collider avoidance) on or off for one boid.
fn set_avoidance(boid: &mut EntityCommands, on: bool) {
    if on {
        boid.insert(AVOID);
        #[cfg(feature = "avian")]
        boid.insert(AVOID_COLLIDERS);
    } else {
        boid.remove::<AvoidObstacles>();
        #[cfg(feature = "avian")]
        boid.remove::<AvoidColliders>();
    }
}

fn draw_obstacles(obstacles: Query<&Outline>, mut gizmos: Gizmos) {
    for outline in &obstacles {
        let closed = outline.0.iter().chain(outline.0.first()).copied();
        gizmos.linestrip_2d(closed, outline.1);
    }
}

fn update_help(
    avoiding: Res<Avoiding>,
    boids: Query<(), With<Boid>>,
    mut help: ResMut<support::HelpLine>,
) {
    let text = format!(
        "O: avoidance {}   {} boids stream through rotated boxes, polygons{}   click: add boids",
        if avoiding.0 { "on" } else { "off" },
        boids.iter().count(),
        if cfg!(feature = "avian") {
            ", avian colliders (blue)"
        } else {
            ""
        }
    );
    help.set_if_neq(support::HelpLine(text));
}
