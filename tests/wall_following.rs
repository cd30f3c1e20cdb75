//! Wall following through the plugin: boids going round an obstacle and round the inside of a
//! pen on the side asked for, at the distance asked for; and hostile values. `bevy_flock3d`
//! runs the same cases in 3D (`[[test]] path` in its manifest), on the ground (x-z).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::f32::consts::{PI, TAU};

use bevy::prelude::*;
use bevy_flock::flock_core::Vector;
use bevy_flock::prelude::*;
use common::{
    assert_refused_and_kept, assert_sound, at, ball_obstacle, no_flocking, position, spawn_boid,
    step,
};

const WALKER: MotionLimits = MotionLimits {
    max_speed: 60.0,
    max_force: 2_000.0,
    mass: 1.0,
};

/// The angle of `v` on the ground, anticlockwise from +x (seen from above).
fn ground_angle(v: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return v.y.atan2(v.x);
    #[cfg(flock_3d)]
    return (-v.z).atan2(v.x);
}

/// A square pen on the ground, 600 wide (in 3D, 200 high).
fn square_pen() -> Enclosure {
    #[cfg(not(flock_3d))]
    return Enclosure::Polygon(
        bevy_flock::flock_core::steering::Polygon::rectangle(Vec2::splat(300.0)).unwrap(),
    );
    #[cfg(flock_3d)]
    return Enclosure::Cuboid {
        centre: Vec3::ZERO,
        half_size: Vec3::new(300.0, 100.0, 300.0),
    };
}

/// How far a point on the ground is from the square pen's walls.
fn from_pen_walls(point: Vector) -> f32 {
    let on_ground = level(point.x, ground_left(point));
    300.0 - on_ground.abs().max_element()
}

/// How far to the left of +x (on the ground) a point is.
fn ground_left(v: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return v.y;
    #[cfg(flock_3d)]
    return -v.z;
}

fn follow(wall: Entity, side: WallSide, distance: f32) -> FollowWall {
    FollowWall {
        wall,
        params: WallFollowParams {
            side,
            distance,
            look_ahead: 30.0,
        },
        weight: 1.0,
    }
}

#[test]
fn boids_lap_an_obstacle_and_a_pen_at_their_distance_on_their_side() {
    let mut app = common::app_with(no_flocking());
    let world = app.world_mut();
    let post = world.spawn((ball_obstacle(100.0), at(Vector::ZERO))).id();
    let pen = world.spawn(Pen(square_pen())).id();
    let left = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(130.0, 0.0)),
            follow(post, WallSide::Left, 30.0),
        ),
    );
    let right = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-130.0, 0.0)),
            follow(post, WallSide::Right, 30.0),
        ),
    );
    // Inside a pen the right hand goes anticlockwise.
    let inside = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(0.0, -270.0)),
            follow(pen, WallSide::Right, 30.0),
        ),
    );
    let boids = [left, right, inside];
    let mut swept = [0.0f32; 3];
    let mut nearest = [f32::MAX; 3];
    let mut farthest = [f32::MIN; 3];
    // A lap round the post is 817 units (13.6 s at 60 a second); round the pen 2160 (36 s).
    for step_number in 0..(40 * 60) {
        let before = boids.map(|boid| ground_angle(position(&app, boid)));
        step(&mut app, 1);
        for (i, &boid) in boids.iter().enumerate() {
            let here = position(&app, boid);
            let turn = ground_angle(here) - before[i];
            swept[i] += (turn + PI).rem_euclid(TAU) - PI;
            let distance = if i < 2 {
                here.length() - 100.0
            } else {
                from_pen_walls(here)
            };
            if step_number >= 60 {
                nearest[i] = nearest[i].min(distance);
                farthest[i] = farthest[i].max(distance);
            }
        }
    }
    assert!(swept[0] > 2.0 * TAU, "{swept:?}");
    assert!(swept[1] < -2.0 * TAU, "{swept:?}");
    assert!(swept[2] > TAU, "{swept:?}");
    // Round the post within a unit of the distance; in the pen's square corners a little
    // farther from the walls, turning before the corner.
    for i in 0..2 {
        assert!(
            nearest[i] > 29.0 && farthest[i] < 31.0,
            "{nearest:?} {farthest:?}"
        );
    }
    assert!(
        nearest[2] > 27.0 && farthest[2] < 36.0,
        "{nearest:?} {farthest:?}"
    );
    assert_sound(&mut app);
}

#[test]
fn bad_follow_wall_values_steer_no_one_and_break_nothing() {
    let mut app = common::app_with(no_flocking());
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let world = app.world_mut();
    let post = world.spawn((ball_obstacle(50.0), at(Vector::ZERO))).id();
    let broken_post = world.spawn((ball_obstacle(nan), at(Vector::ZERO))).id();
    let far_post = world.spawn((ball_obstacle(50.0), at(level(inf, 0.0)))).id();
    let no_wall = world.spawn(Transform::default()).id();
    let gone = world.spawn_empty().id();
    world.despawn(gone);
    let moving = Velocity(level(30.0, 0.0));
    let start = at(level(100.0, 0.0));
    let mut idle = Vec::new();
    for behaviour in [
        follow(post, WallSide::Left, nan),
        follow(post, WallSide::Left, -1.0),
        follow(post, WallSide::Left, 1e30),
        FollowWall {
            params: WallFollowParams {
                look_ahead: 0.0,
                ..follow(post, WallSide::Left, 10.0).params
            },
            ..follow(post, WallSide::Left, 10.0)
        },
        follow(broken_post, WallSide::Left, 10.0),
        follow(far_post, WallSide::Left, 10.0),
        follow(no_wall, WallSide::Right, 10.0),
        follow(gone, WallSide::Right, 10.0),
        FollowWall {
            weight: nan,
            ..follow(post, WallSide::Left, 10.0)
        },
    ] {
        idle.push(spawn_boid(&mut app, (WALKER, start, moving, behaviour)));
    }
    // Valid but extreme: at the post's centre, a distance of 1e9, on the outline, a weight of
    // a billion. They move, and stay finite.
    let extreme = [
        (at(Vector::ZERO), follow(post, WallSide::Left, 10.0)),
        (start, follow(post, WallSide::Right, 1e9)),
        (at(level(50.0, 0.0)), follow(post, WallSide::Right, 0.0)),
        (
            start,
            FollowWall {
                weight: 1e9,
                ..follow(post, WallSide::Left, 10.0)
            },
        ),
    ];
    for (place, behaviour) in extreme {
        spawn_boid(&mut app, (WALKER, place, behaviour));
    }
    assert_refused_and_kept(&mut app, &idle, moving.0);
}
