//! Unaligned collision avoidance, flow fields, containment and the new obstacle shapes in 3D,
//! through the plugin in a headless `App`: what matters is off the plane z = 0, so a behaviour
//! that only worked in a plane would fail.

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock3d::prelude::*;
use common::*;

const WALKER: MotionLimits = MotionLimits {
    max_speed: 100.0,
    max_force: 800.0,
    mass: 1.0,
};

/// Two bodies collide when their centres are closer than this.
const BODY: f32 = 12.0;

/// A swarm flying along x in a 3 x 3 grid of lanes (in y and z) and another flying along z in
/// a 3 x 3 grid of lanes (in x and y), crossing around the origin; a flier past the far side
/// comes back in at the near one. Returns the collisions in 1,000 steps.
fn crossing(avoid: bool) -> usize {
    let mut app = app_with(no_flocking());
    let lanes = [-25.0, 0.0, 25.0];
    for (i, a) in lanes.into_iter().enumerate() {
        for (j, b) in lanes.into_iter().enumerate() {
            for k in 0..8 {
                let along = -300.0 + 75.0 * k as f32 + 9.0 * (3 * i + j) as f32;
                let fliers = [
                    (Vec3::new(along, a, b), Vec3::new(1e6, a, b)),
                    (Vec3::new(a, b, along), Vec3::new(a, b, 1e6)),
                ];
                for (start, goal) in fliers {
                    let mut flier = app.world_mut().spawn((
                        Boid,
                        WALKER,
                        Transform::from_translation(start),
                        Velocity((goal - start).normalize() * 100.0),
                        Seek {
                            target: Target::Point(goal),
                            weight: 1.0,
                        },
                    ));
                    if avoid {
                        flier.insert(AvoidCollisions {
                            params: CollisionParams {
                                min_distance: 1.5 * BODY,
                                horizon: 1.0,
                            },
                            weight: 3.0,
                        });
                    }
                }
            }
        }
    }
    let come_back = |app: &mut App| {
        let mut fliers = app.world_mut().query::<&mut Transform>();
        for mut transform in fliers.iter_mut(app.world_mut()) {
            for axis in [0, 2] {
                if transform.translation[axis] > 300.0 {
                    transform.translation[axis] -= 600.0;
                }
            }
        }
    };
    let collisions = count_collisions(&mut app, 1_000, BODY, come_back);
    assert_sound(&mut app);
    collisions
}

/// Collisions per 1,000 steps in the 3D crossing, with and without predictive avoidance:
/// avoidance must cut them at least tenfold.
#[test]
fn avoidance_cuts_collisions_in_a_3d_crossing_at_least_tenfold() {
    let without = crossing(false);
    let with = crossing(true);
    println!("3D crossing, collisions per 1,000 steps: {without} without, {with} with avoidance");
    assert!(
        without >= 50,
        "the scene must collide without avoidance: {without}"
    );
    assert!(
        with * 10 <= without,
        "{with} with avoidance, {without} without"
    );
}

/// Circulation around the vertical axis (+y), at full speed.
fn swirl(point: Vec3) -> Vec3 {
    Vec3::new(-point.z, 0.0, point.x).normalize_or_zero()
}

#[test]
fn a_boid_follows_an_analytic_flow_field_in_the_horizontal_plane() {
    let mut app = app_with(no_flocking());
    let field = FlowField::from_fn(Vec3::splat(-300.0), 15.0, [40, 40, 40], swirl).unwrap();
    app.insert_resource(FlockFlowField(field));
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            WALKER,
            Transform::from_xyz(150.0, 40.0, 0.0),
            Velocity(Vec3::new(0.0, 0.0, -100.0)),
            FollowFlowField {
                look_ahead: 0.1,
                weight: 1.0,
            },
        ))
        .id();
    step(&mut app, 30);
    for _ in 0..300 {
        step(&mut app, 1);
        let (position, velocity) = (position(&app, boid), velocity(&app, boid));
        let wanted = swirl(position) * 100.0;
        assert!(
            velocity.angle_between(wanted) < 0.1,
            "at {position}: {velocity}, the field says {wanted}"
        );
    }
    // It circles at its own height.
    let at = position(&app, boid);
    assert!(
        (at.y - 40.0).abs() < 1.0 && (at.xz().length() - 150.0).abs() < 40.0,
        "{at}"
    );
}

#[test]
fn boids_stay_inside_a_box_pen() {
    let (centre, half_size) = (Vec3::new(0.0, 50.0, -30.0), Vec3::new(150.0, 80.0, 120.0));
    let inside = |p: Vec3| ((p - centre).abs() - half_size).max_element() < 0.0;
    for stay in [true, false] {
        let mut app = app_with(no_flocking());
        let pen = app
            .world_mut()
            .spawn(Pen(Enclosure::Cuboid { centre, half_size }))
            .id();
        for i in 0..30 {
            let direction = Vec3::new(
                (i as f32 * 0.7).cos(),
                (i as f32 * 1.3).sin(),
                (i as f32 * 0.7).sin(),
            );
            let mut boid = app.world_mut().spawn((
                Boid,
                WALKER,
                Transform::from_translation(centre + Vec3::splat(i as f32 - 15.0)),
                Velocity(direction.normalize() * 100.0),
            ));
            if stay {
                boid.insert(StayInside {
                    pen,
                    look_ahead: 40.0,
                    weight: 1.0,
                });
            }
        }
        let mut left = 0;
        for _ in 0..900 {
            step(&mut app, 1);
            left = boid_states(&mut app)
                .iter()
                .filter(|(_, p, _)| !inside(*p))
                .count();
            assert!(!stay || left == 0, "{left} left the pen");
        }
        assert!(
            stay || left == 30,
            "without the behaviour all leave: {left} did"
        );
    }
}

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
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            WALKER,
            Velocity(Vec3::new(0.0, 0.0, 50.0)),
            StayInside {
                pen,
                look_ahead: 40.0,
                weight: 1.0,
            },
        ))
        .id();
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
        fliers.push(
            app.world_mut()
                .spawn((
                    Boid,
                    WALKER,
                    Transform::from_translation(start),
                    Velocity(Vec3::X * 100.0),
                    Seek {
                        target: Target::Point(goal),
                        weight: 1.0,
                    },
                    AvoidObstacles {
                        look_ahead: 120.0,
                        clearance: 10.0,
                        weight: 3.0,
                    },
                ))
                .id(),
        );
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
