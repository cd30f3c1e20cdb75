//! The shapes only 3D has, through the plugin in a headless `App`: a box pen that is not one,
//! and a turned box and a leaning capsule in the way. (The crowd cases both dimensions share
//! are bevy_flock's `tests/crowds.rs`, which this crate runs too.)

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../tests/common/mod.rs"]
mod common;

use bevy::prelude::*;
use bevy_flock3d::prelude::*;
use common::*;

#[test]
fn an_invalid_box_pen_is_ignored_without_nan() {
    let mut app = app_with(no_flocking());
    let pen = app
        .world_mut()
        .spawn(Pen(Enclosure::Cuboid {
            centre: Vec3::ZERO,
            half_size: Vec3::new(f32::NAN, -1.0, 10.0),
        }))
        .id();
    let stay = StayInside {
        pen,
        look_ahead: 40.0,
        weight: 1.0,
    };
    let boid = spawn_boid(
        &mut app,
        (WALKER, Velocity(Vec3::new(0.0, 0.0, 50.0)), stay),
    );
    step(&mut app, 60);
    assert_eq!(velocity(&app, boid), Vec3::new(0.0, 0.0, 50.0));
    assert_sound(&mut app);
}

#[test]
fn fliers_go_around_rotated_boxes_and_capsules() {
    let mut app = app_with(no_flocking());
    let tilt = Quat::from_euler(EulerRot::XYZ, 0.4, 0.7, 0.5);
    let box_half_size = Vec3::new(15.0, 60.0, 20.0);
    app.world_mut().spawn((
        Obstacle::OrientedCuboid {
            half_size: box_half_size,
        },
        Transform::from_xyz(0.0, 10.0, 5.0).with_rotation(tilt),
    ));
    // A pole leaning across the second flier's way in depth.
    let lean = Quat::from_rotation_x(1.2);
    app.world_mut().spawn((
        Obstacle::Capsule {
            half_length: 60.0,
            radius: 15.0,
        },
        Transform::from_xyz(0.0, 0.0, 200.0).with_rotation(lean),
    ));
    let in_box = |p: Vec3| {
        let local = tilt.inverse() * (p - Vec3::new(0.0, 10.0, 5.0));
        (local.abs() - box_half_size).max_element() < 0.0
    };
    let axis = lean * Vec3::Y * 60.0;
    let (low, high) = (
        Vec3::new(0.0, 0.0, 200.0) - axis,
        Vec3::new(0.0, 0.0, 200.0) + axis,
    );
    let in_capsule = |p: Vec3| {
        let along = ((p - low).dot(high - low) / (high - low).length_squared()).clamp(0.0, 1.0);
        p.distance(low + (high - low) * along) < 15.0
    };
    let mut fliers = Vec::new();
    for (start, goal) in [
        (Vec3::new(-300.0, 0.0, 0.0), Vec3::new(400.0, 0.0, 0.0)),
        (Vec3::new(-300.0, 0.0, 200.0), Vec3::new(400.0, 0.0, 200.0)),
    ] {
        // Without avoidance the straight way goes through the obstacle.
        assert!((0..=700).any(|x| {
            let p = start + Vec3::X * x as f32;
            in_box(p) || in_capsule(p)
        }));
        let moving = Velocity(Vec3::X * 100.0);
        let behaviours = seek_around_obstacles(goal);
        fliers.push(spawn_boid(
            &mut app,
            (WALKER, at(start), moving, behaviours),
        ));
    }
    for _ in 0..480 {
        step(&mut app, 1);
        for &flier in &fliers {
            let at = position(&app, flier);
            assert!(
                !in_box(at) && !in_capsule(at),
                "{flier} went into an obstacle at {at}"
            );
        }
    }
    for flier in fliers {
        assert!(position(&app, flier).x > 300.0, "{flier} is stuck");
    }
}
