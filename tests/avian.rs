//! `AvoidColliders` (feature `avian`) through the plugin, with avian's `PhysicsPlugins`, in a
//! headless `App`. `bevy_flock3d` runs the same cases in 3D with avian3d (`[[test]] path` in its
//! manifest), where every point is on the ground (x-z, through `steering::level`).
#![cfg(feature = "avian")]

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::avian::prelude::{Collider, CollisionLayers, LayerMask, PhysicsPlugins};
use bevy_flock::flock_core::Vector;
use bevy_flock::flock_core::steering::level;
use bevy_flock::prelude::*;

use common::*;

/// The ball obstacle's radius, and the room boids leave.
const RADIUS: f32 = 20.0;
const CLEARANCE: f32 = 10.0;
const LOOK_AHEAD: f32 = 120.0;

/// A flock whose boids ignore each other, with free edges, in an app with avian's physics (and
/// so its spatial queries), or without.
fn app(physics: bool) -> App {
    let config = FlockConfig {
        max_speed: AGILE.max_speed,
        ..no_flocking()
    };
    let settings = FlockSettings::from_config(config);
    if physics {
        let plugins = (
            MinimalPlugins,
            TransformPlugin,
            AssetPlugin::default(),
            PhysicsPlugins::default(),
        );
        create_finished_app(plugins, settings, 3)
    } else {
        create_app(settings, 3)
    }
}

/// A ball collider of this dimension (a circle in 2D, a sphere in 3D): the collider of
/// `ball_obstacle`.
fn ball(radius: f32) -> Collider {
    #[cfg(not(flock_3d))]
    return Collider::circle(radius);
    #[cfg(flock_3d)]
    return Collider::sphere(radius);
}

/// A static collider, in the spatial queries' tree from the next step on.
fn collider(app: &mut App, point: Vector, shape: Collider) -> Entity {
    let entity = app.world_mut().spawn((at(point), shape)).id();
    step(app, 1);
    entity
}

/// A boid at `point` moving along +ahead at full speed.
fn boid(app: &mut App, point: Vector, behaviour: impl Bundle) -> Entity {
    let velocity = Velocity(level(AGILE.max_speed, 0.0));
    spawn_boid(app, (AGILE, at(point), velocity, behaviour))
}

fn avoid() -> AvoidColliders {
    AvoidColliders::new(LOOK_AHEAD, CLEARANCE)
}

/// The boid's least distance from `centre` over `steps` steps.
fn closest_approach(app: &mut App, boid: Entity, centre: Vector, steps: usize) -> f32 {
    (0..steps)
        .map(|_| {
            step(app, 1);
            position(app, boid).distance(centre)
        })
        .fold(f32::INFINITY, f32::min)
}

#[test]
fn boids_steer_around_a_collider_in_their_path_and_pass_it() {
    // A ball just left of the path, 150 ahead: with the behaviour the boid goes round it (to
    // the right) keeping clear; without, it flies straight through.
    let centre = level(150.0, 5.0);
    for avoiding in [true, false] {
        let mut app = app(true);
        collider(&mut app, centre, ball(RADIUS));
        let boid = if avoiding {
            boid(&mut app, Vector::ZERO, avoid())
        } else {
            boid(&mut app, Vector::ZERO, ())
        };
        let closest = closest_approach(&mut app, boid, centre, 180);
        let beyond = position(&app, boid).dot(level(1.0, 0.0));
        if avoiding {
            assert!(closest > RADIUS, "it came within {closest} of the centre");
            assert!(beyond > 300.0, "it did not pass the ball: {beyond} along");
            let right = position(&app, boid).dot(level(0.0, -1.0));
            assert!(right > 0.0, "it went round on the ball's side: {right}");
        } else {
            assert!(
                closest < RADIUS,
                "without the behaviour it went round: {closest}"
            );
        }
        assert_sound(&mut app);
    }
}

#[test]
fn a_ball_collider_pushes_as_the_same_obstacle_does() {
    // The same ball as an avian collider and as an `Obstacle`, far apart, each with its own
    // boid: the cast ball meets the collider where the path grown by the clearance meets the
    // obstacle, and the hit point lies on the obstacle's side of the path, so one step turns
    // both boids alike (avian's time of impact is found to a tolerance).
    let mut app = app(true);
    let (near, far) = (level(60.0, 8.0), level(60.0, 8.0) + level(0.0, 5_000.0));
    collider(&mut app, near, ball(RADIUS));
    app.world_mut().spawn((at(far), ball_obstacle(RADIUS)));
    let by_collider = boid(&mut app, Vector::ZERO, avoid());
    let avoid_obstacles = AvoidObstacles {
        look_ahead: LOOK_AHEAD,
        clearance: CLEARANCE,
        weight: 1.0,
    };
    let by_obstacle = boid(&mut app, level(0.0, 5_000.0), avoid_obstacles);
    let start = velocity(&app, by_collider);
    step(&mut app, 1);
    let (turned, expected) = (velocity(&app, by_collider), velocity(&app, by_obstacle));
    assert!(
        (turned - start).length() > 1.0,
        "the collider did not push: {start} -> {turned}"
    );
    assert!(
        turned.distance(expected) < 1e-2 * expected.length(),
        "collider {turned}, obstacle {expected}"
    );
}

#[test]
fn a_boid_inside_a_collider_heads_straight_out() {
    // Inside a ball, right of its centre, heading in: out to the right, fast.
    let mut app = app(true);
    let centre = level(0.0, 0.0);
    collider(&mut app, centre, ball(RADIUS));
    let boid = boid(&mut app, level(-10.0, 0.0), avoid());
    app.world_mut().get_mut::<Velocity>(boid).unwrap().0 = level(30.0, 0.0);
    step(&mut app, 1);
    let turned = velocity(&app, boid);
    assert!(
        turned.dot(level(1.0, 0.0)) < 0.0,
        "it still heads in: {turned}"
    );
    step(&mut app, 60);
    assert!(position(&app, boid).distance(centre) > RADIUS);
}

#[test]
fn only_colliders_on_the_chosen_layers_count_and_never_the_boids_own() {
    let centre = level(150.0, 5.0);
    let on_layer_two = CollisionLayers::new(LayerMask(0b10), LayerMask::ALL);
    for (mask, avoided) in [(LayerMask(0b01), false), (LayerMask(0b10), true)] {
        let mut app = app(true);
        let wall = app
            .world_mut()
            .spawn((at(centre), ball(RADIUS), on_layer_two))
            .id();
        assert!(app.world().get::<Collider>(wall).is_some());
        step(&mut app, 1);
        // The boid has a collider of its own, which it must not take for an obstacle it is in.
        let boid = boid(
            &mut app,
            Vector::ZERO,
            (avoid().with_layers(mask), ball(3.0)),
        );
        let start = velocity(&app, boid);
        step(&mut app, 1);
        assert_eq!(velocity(&app, boid), start, "its own collider pushed it");
        let closest = closest_approach(&mut app, boid, centre, 180);
        assert_eq!(
            closest > RADIUS,
            avoided,
            "mask {mask:?}: closest {closest}"
        );
    }
}

#[test]
fn hostile_numbers_or_no_physics_steer_nobody_and_make_no_nan() {
    let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, 0.0];
    let mut hostile: Vec<AvoidColliders> = Vec::new();
    for value in bad {
        hostile.push(AvoidColliders {
            look_ahead: value,
            ..avoid()
        });
        hostile.push(AvoidColliders {
            clearance: value,
            ..avoid()
        });
    }
    for weight in [f32::NAN, f32::INFINITY] {
        hostile.push(AvoidColliders { weight, ..avoid() });
    }
    for physics in [true, false] {
        let mut app = app(physics);
        if physics {
            collider(&mut app, level(60.0, 0.0), ball(RADIUS));
        }
        let boids: Vec<Entity> = hostile
            .iter()
            .map(|&behaviour| boid(&mut app, Vector::ZERO, behaviour))
            .collect();
        // Without avian's plugins even valid numbers steer nobody.
        let valid = (!physics).then(|| boid(&mut app, Vector::ZERO, avoid()));
        step(&mut app, 5);
        for &boid in boids.iter().chain(&valid) {
            assert_eq!(velocity(&app, boid), level(AGILE.max_speed, 0.0));
        }
        assert_sound(&mut app);
    }
    // Far-out but valid numbers: a huge ball, a huge reach, a boid far away. Finite forces.
    let mut app = app(true);
    collider(&mut app, level(60.0, 0.0), ball(RADIUS));
    for behaviour in [
        AvoidColliders::new(1e30, CLEARANCE),
        AvoidColliders::new(LOOK_AHEAD, 1e30),
        AvoidColliders::new(f32::MAX, f32::MAX),
        AvoidColliders {
            weight: -1e30,
            ..avoid()
        },
    ] {
        boid(&mut app, Vector::ZERO, behaviour);
        boid(&mut app, level(1e30, -1e30), behaviour);
    }
    step(&mut app, 5);
    assert_sound(&mut app);
}

/// A box collider of this dimension with half size `half` on every axis.
fn cube(half: f32) -> Collider {
    #[cfg(not(flock_3d))]
    return Collider::rectangle(2.0 * half, 2.0 * half);
    #[cfg(flock_3d)]
    return Collider::cuboid(2.0 * half, 2.0 * half, 2.0 * half);
}

#[test]
fn orca_walkers_keep_out_of_a_static_colliders_outline() {
    let mut app = app(true);
    let half = 30.0;
    let body = 6.0;
    collider(&mut app, level(0.0, 0.0), cube(half));
    let orca = Orca {
        params: OrcaParams {
            radius: body,
            clearance: 0.0,
            ..OrcaParams::default()
        },
    };
    let walkers: Vec<Entity> = (0..5)
        .map(|i| {
            let y = -20.0 + 10.0 * i as f32;
            let arrive = Arrive {
                target: Target::Point(level(200.0, y)),
                slow_radius: 40.0,
                weight: 1.0,
                speed: None,
            };
            boid(&mut app, level(-200.0, y), (arrive, orca))
        })
        .collect();
    let mut nearest = f32::MAX;
    for _ in 0..500 {
        step(&mut app, 1);
        for &walker in &walkers {
            // The distance from the box's outline (its square around the ground's axes).
            let p = position(&app, walker);
            let [x, y] = [p.x, if cfg!(flock_3d) { p[2] } else { p.y }];
            let outside = Vec2::new(x.abs() - half, y.abs() - half);
            let distance = outside.max(Vec2::ZERO).length() + outside.max_element().min(0.0);
            nearest = nearest.min(distance);
        }
    }
    assert!(
        nearest >= body - 1e-2,
        "a walker came {nearest} from the collider's outline"
    );
    assert!(
        nearest < body + 5.0,
        "the walkers passed close by: {nearest}"
    );
}
