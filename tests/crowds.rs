//! Unaligned collision avoidance, flow fields, containment and the obstacles that turn with
//! their entity, through the plugin in a headless `App`. Each test would fail if its behaviour
//! (or its wiring into the schedule) broke; the crossing scene also gives the collision numbers
//! in `docs/behaviours.md`. `bevy_flock3d` runs the same cases in 3D (`[[test]] path` in its manifest),
//! where the crowds cross on the ground (x-z) and the pen is a box.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::DIMENSIONS;
use bevy_flock::prelude::*;
use common::*;

/// A crowd walking ahead (+x) along five lanes 30 apart and another walking left along five
/// lanes, crossing in the middle (each lane has a walker every 75 units, at 100 units a
/// second); a walker past the far side comes back in at the near one. Returns the collisions in
/// 1,000 steps.
fn crossing(avoid: bool) -> usize {
    let mut app = app_with(no_flocking());
    let lanes = [-60.0, -30.0, 0.0, 30.0, 60.0];
    for (i, lane) in lanes.into_iter().enumerate() {
        for k in 0..8 {
            // Staggered per lane, so the crowds meet all along the run.
            let along = -300.0 + 75.0 * k as f32 + 11.0 * i as f32;
            let walkers = [
                (level(along, lane), level(1e6, lane)),
                (level(lane, along), level(lane, 1e6)),
            ];
            for (start, goal) in walkers {
                let seek = Seek {
                    target: Target::Point(goal),
                    weight: 1.0,
                };
                let heading = Velocity((goal - start).normalize() * 100.0);
                let walker = spawn_boid(&mut app, (WALKER, at(start), heading, seek));
                if avoid {
                    app.world_mut().entity_mut(walker).insert(AVOID);
                }
            }
        }
    }
    let come_back = |app: &mut App| {
        let ways = [level(1.0, 0.0), level(0.0, 1.0)].map(|way| at(way).translation);
        let mut walkers = app.world_mut().query::<&mut Transform>();
        for mut transform in walkers.iter_mut(app.world_mut()) {
            for way in ways {
                if transform.translation.dot(way) > 300.0 {
                    transform.translation -= way * 600.0;
                }
            }
        }
    };
    let collisions = count_collisions(&mut app, 1_000, BODY, come_back);
    assert_sound(&mut app);
    collisions
}

/// The measurement: collisions per 1,000 steps in the crossing scene, with and
/// without predictive avoidance. Avoidance must cut them at least tenfold (measured in 2D: 290
/// without, 1 with).
#[test]
fn avoidance_cuts_collisions_in_a_crossing_at_least_tenfold() {
    let without = crossing(false);
    let with = crossing(true);
    println!(
        "{DIMENSIONS}D crossing, collisions per 1,000 steps: {without} without, {with} with \
         avoidance"
    );
    assert!(
        without >= 50,
        "the scene must collide without avoidance: {without}"
    );
    assert!(
        with * 10 <= without,
        "{with} with avoidance, {without} without"
    );
}

#[test]
fn invalid_collision_params_steer_nobody_and_break_nothing() {
    let mut app = app_with(no_flocking());
    for bad in [f32::NAN, -1.0, 0.0, f32::INFINITY] {
        for x in [-40.0, 40.0] {
            let avoid = AvoidCollisions {
                params: CollisionParams {
                    min_distance: bad,
                    horizon: 1.0,
                },
                weight: 1.0,
            };
            let towards_each_other = Velocity(Vector::X * -x);
            spawn_boid(
                &mut app,
                (WALKER, at(Vector::X * x), towards_each_other, avoid),
            );
        }
    }
    step(&mut app, 30);
    assert_sound(&mut app);
    // Nobody dodged: every boid still moves along x.
    for (_, _, velocity) in boid_states(&mut app) {
        assert_eq!(velocity.with_x(0.0), Vector::ZERO, "{velocity}");
    }
}

/// Circulation around the origin on the ground, at full speed: counter-clockwise in 2D.
fn swirl(point: Vector) -> Vector {
    let (ahead, left) = (point.dot(level(1.0, 0.0)), point.dot(level(0.0, 1.0)));
    level(-left, ahead).normalize_or_zero()
}

#[test]
fn a_boid_follows_an_analytic_flow_field() {
    let mut app = app_with(no_flocking());
    let field = FlowField::from_fn(Vector::splat(-400.0), 10.0, [80; DIMENSIONS], swirl).unwrap();
    app.insert_resource(FlockFlowField(field));
    // In 3D 40 above the ground, where it must stay.
    let start = above(level(200.0, 0.0), 40.0);
    let follow = FollowFlowField {
        look_ahead: 0.1,
        weight: 1.0,
    };
    let against = Velocity(level(-100.0, 0.0));
    let boid = spawn_boid(&mut app, (WALKER, at(start), against, follow));
    // Half a second to turn onto the field, then it must keep to it.
    step(&mut app, 30);
    for _ in 0..300 {
        step(&mut app, 1);
        let (position, velocity) = (position(&app, boid), velocity(&app, boid));
        let wanted = swirl(position) * 100.0;
        assert!(
            angle_between(velocity, wanted) < 0.1,
            "at {position}: {velocity}, the field says {wanted}"
        );
        assert!((velocity.length() - 100.0).abs() < 5.0, "{velocity}");
    }
    // Circling at its own height, not drifting off (a follower cutting a circle's curve
    // spirals in slowly).
    let end = position(&app, boid);
    let height = |p: Vector| p - on_the_ground(p);
    assert!(height(end).distance(height(start)) < 1.0, "{end}");
    assert!((on_the_ground(end).length() - 200.0).abs() < 50.0, "{end}");
}

#[test]
fn following_a_missing_flow_field_gives_no_force() {
    let mut app = app_with(no_flocking());
    let follow = FollowFlowField {
        look_ahead: f32::NAN,
        weight: 1.0,
    };
    let moving = Velocity(level(50.0, 0.0));
    let boid = spawn_boid(&mut app, (WALKER, moving, follow));
    step(&mut app, 10);
    assert_eq!(velocity(&app, boid), moving.0);
}

/// Forty walkers in a block in the pen's lower left quarter, heading every way (in 3D up and
/// down too); with `stay`, they stay inside the pen. Returns the pen.
fn walkers_in_a_pen(app: &mut App, stay: bool) -> Enclosure {
    let enclosure = pen();
    let pen = app.world_mut().spawn(Pen(enclosure.clone())).id();
    for i in 0..40 {
        let (column, row, layer) = ((i % 5) as f32, (i / 5) as f32, (i % 3) as f32);
        let start = xyz(
            -100.0 + column * 10.0,
            -100.0 + row * 10.0,
            layer * 10.0 - 10.0,
        );
        let turn = i as f32 * 0.9;
        let heading = xyz(turn.cos(), turn.sin(), (i as f32 * 1.3).sin()).normalize();
        let walker = spawn_boid(app, (WALKER, at(start), Velocity(heading * 100.0)));
        if stay {
            app.world_mut().entity_mut(walker).insert(StayInside {
                pen,
                look_ahead: 40.0,
                weight: 1.0,
            });
        }
    }
    enclosure
}

#[test]
fn boids_stay_inside_a_pen() {
    let mut app = app_with(no_flocking());
    let pen = walkers_in_a_pen(&mut app, true);
    for _ in 0..1_200 {
        step(&mut app, 1);
        for (entity, position, _) in boid_states(&mut app) {
            assert!(
                pen.contains(position),
                "{entity} left the pen at {position}"
            );
        }
    }
    assert_sound(&mut app);
    // Without the behaviour they all walk out.
    let mut app = app_with(no_flocking());
    let pen = walkers_in_a_pen(&mut app, false);
    step(&mut app, 600);
    let states = boid_states(&mut app);
    let inside = states.iter().filter(|(_, p, _)| pen.contains(*p));
    assert_eq!(inside.count(), 0);
}

#[test]
fn a_pen_far_away_pulls_boids_back_and_a_missing_pen_gives_no_force() {
    let mut app = app_with(no_flocking());
    let pen = app.world_mut().spawn(Pen(common::pen())).id();
    let gone = app.world_mut().spawn_empty().id();
    app.world_mut().despawn(gone);
    let stay = |pen| StayInside {
        pen,
        look_ahead: f32::NAN,
        weight: 1.0,
    };
    let far = at(xyz(500.0, 500.0, 300.0));
    let outside = spawn_boid(&mut app, (WALKER, far, stay(pen)));
    let moving = Velocity(level(50.0, 0.0));
    let orphan = spawn_boid(&mut app, (WALKER, moving, stay(gone)));
    step(&mut app, 600);
    assert!(common::pen().contains(position(&app, outside)));
    assert_eq!(velocity(&app, orphan), moving.0);
}

/// Numbers that are not finite, or huge, in every crowd behaviour and in the obstacles that
/// turn with their entity: no panic, no NaN, no boid lost.
#[test]
fn hostile_numbers_in_the_crowd_behaviours_break_nothing() {
    let mut app = app_with(no_flocking());
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let broken_turn = Quat::from_xyzw(nan, 0.0, 0.0, 1.0);
    let obstacles = [
        (turned_box(xyz(nan, inf, inf)), at(xyz(40.0, 0.0, 0.0))),
        (
            turned_box(Vector::splat(20.0)),
            at(xyz(60.0, 0.0, 0.0)).with_rotation(broken_turn),
        ),
        (polygon_or_capsule(), at(xyz(nan, 0.0, 0.0))),
        (
            polygon_or_capsule(),
            at(xyz(80.0, -10.0, 0.0)).with_rotation(broken_turn),
        ),
    ];
    for obstacle in obstacles {
        app.world_mut().spawn(obstacle);
    }
    let field = FlowField::from_fn(Vector::splat(-1e30), 1e29, [20; DIMENSIONS], |_| Vector::X);
    app.insert_resource(FlockFlowField(field.unwrap()));
    let pen = app.world_mut().spawn(Pen(common::pen())).id();
    for i in 0..20 {
        let start = at(xyz(i as f32 * 5.0 - 50.0, (i % 3) as f32, 0.0));
        let avoid = AvoidObstacles {
            look_ahead: inf,
            clearance: nan,
            weight: 1.0,
        };
        let crowd = AvoidCollisions {
            params: CollisionParams {
                min_distance: 1e30,
                horizon: f32::MAX,
            },
            weight: 1e30,
        };
        let follow = FollowFlowField {
            look_ahead: 1e30,
            weight: 1.0,
        };
        let stay = StayInside {
            pen,
            look_ahead: 1e30,
            weight: 1.0,
        };
        let moving = Velocity(Vector::X * 100.0);
        spawn_boid(
            &mut app,
            (WALKER, start, moving, (avoid, crowd, follow, stay)),
        );
    }
    step(&mut app, 120);
    assert_sound(&mut app);
    assert_eq!(boid_count(&mut app), 20);
}
