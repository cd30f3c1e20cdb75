//! Context steering through the plugin, in a headless `App`. `bevy_flock3d` runs the same
//! cases in 3D (`[[test]] path` in its manifest), where the targets lie off the plane z = 0.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::Vector;
use bevy_flock::prelude::*;
use common::*;

/// A boid of `VEHICLE`'s limits at `start`, arriving at `goal` by context steering.
fn context_boid(start: Vector, goal: Vector, params: ContextParams) -> impl Bundle {
    let arrive = Arrive {
        target: Target::Point(goal),
        slow_radius: 80.0,
        weight: 1.0,
        speed: None,
    };
    let context = ContextSteering {
        params,
        walls: true,
    };
    (VEHICLE, at(start), arrive, context)
}

/// How far `point` is outside the box of `half_size` at `centre` (negative inside).
fn outside_box(point: Vector, centre: Vector, half_size: Vector) -> f32 {
    ((point - centre).abs() - half_size).max_element()
}

#[test]
fn a_boid_reaches_a_target_behind_a_wall_without_entering_it() {
    let mut app = app_with(no_flocking());
    let (wall_centre, wall_half) = (xyz(150.0, 0.0, 0.0), xyz(15.0, 120.0, 120.0));
    app.world_mut()
        .spawn((box_obstacle(wall_half), at(wall_centre)));
    let goal = xyz(350.0, 20.0, 40.0);
    let params = ContextParams {
        look_ahead: 120.0,
        clearance: 12.0,
        ..ContextParams::default()
    };
    let boid = spawn_boid(&mut app, context_boid(xyz(-100.0, 0.0, 0.0), goal, params));
    let mut closest = f32::INFINITY;
    for _ in 0..900 {
        step(&mut app, 1);
        closest = closest.min(outside_box(position(&app, boid), wall_centre, wall_half));
    }
    assert!(closest > 0.0, "entered the wall ({closest})");
    let end = position(&app, boid);
    assert!(end.distance(goal) < 3.0, "ended at {end}, short of {goal}");
    assert!(velocity(&app, boid).length() < 5.0, "still moving");

    // The same boid with only its weighted sum (arrive, no avoidance) goes straight through.
    let mut plain = app_with(no_flocking());
    plain
        .world_mut()
        .spawn((box_obstacle(wall_half), at(wall_centre)));
    let arrive = Arrive {
        target: Target::Point(goal),
        slow_radius: 80.0,
        weight: 1.0,
        speed: None,
    };
    let straight = spawn_boid(&mut plain, (VEHICLE, at(xyz(-100.0, 0.0, 0.0)), arrive));
    let mut entered = false;
    for _ in 0..300 {
        step(&mut plain, 1);
        entered |= outside_box(position(&plain, straight), wall_centre, wall_half) < 0.0;
    }
    assert!(entered, "the case needs a wall in the way");
}

#[test]
fn context_boids_crossing_keep_apart_and_replay_bit_for_bit() {
    let run = || {
        let mut app = app_with(no_flocking());
        let params = ContextParams {
            separation: 50.0,
            ..ContextParams::default()
        };
        // Two lines of boids walking through each other to the other side.
        for i in 0..8 {
            let y = -140.0 + 40.0 * i as f32;
            let (left, right) = (xyz(-250.0, y, 10.0), xyz(250.0, y, -10.0));
            spawn_boid(&mut app, context_boid(left, right, params));
            spawn_boid(&mut app, context_boid(right, left, params));
        }
        let collisions = count_collisions(&mut app, 600, 10.0, |_| {});
        assert_sound(&mut app);
        (collisions, state_bits(&boid_states(&mut app)))
    };
    let (collisions, bits) = run();
    assert_eq!(collisions, 0, "boids came within 10 of each other");
    assert_eq!(run().1, bits, "a second run differs");
}

#[test]
fn invalid_params_of_every_class_change_nothing() {
    let good = ContextParams::default();
    let bad = [
        ContextParams { slots: 0, ..good },
        ContextParams { slots: 3, ..good },
        ContextParams {
            slots: 100_000,
            ..good
        },
        ContextParams {
            look_ahead: 0.0,
            ..good
        },
        ContextParams {
            look_ahead: f32::NAN,
            ..good
        },
        ContextParams {
            look_ahead: f32::INFINITY,
            ..good
        },
        ContextParams {
            clearance: -1.0,
            ..good
        },
        ContextParams {
            clearance: f32::NAN,
            ..good
        },
        ContextParams {
            separation: f32::NEG_INFINITY,
            ..good
        },
        ContextParams {
            danger_threshold: 2.0,
            ..good
        },
        ContextParams {
            danger_threshold: f32::NAN,
            ..good
        },
        ContextParams {
            momentum: -0.5,
            ..good
        },
        ContextParams {
            momentum: f32::INFINITY,
            ..good
        },
    ];
    let (start, goal) = (xyz(-100.0, 30.0, 0.0), xyz(200.0, -50.0, 80.0));
    let seek = Seek {
        target: Target::Point(goal),
        weight: 1.0,
    };
    // The reference: a boid that only seeks.
    let mut reference = app_with(no_flocking());
    let plain = spawn_boid(&mut reference, (VEHICLE, at(start), seek));
    // Boids that seek with context steering that cannot steer: each seeks as the reference.
    let mut app = app_with(no_flocking());
    let hostile: Vec<Entity> = (bad.iter())
        .map(|&params| {
            let context = ContextSteering {
                params,
                walls: true,
            };
            spawn_boid(&mut app, (VEHICLE, at(start), seek, context))
        })
        .collect();
    for _ in 0..120 {
        step(&mut reference, 1);
        step(&mut app, 1);
        let expected = (position(&reference, plain), velocity(&reference, plain));
        for (&boid, params) in hostile.iter().zip(&bad) {
            let got = (position(&app, boid), velocity(&app, boid));
            assert_eq!(got, expected, "{params:?}");
        }
    }
}

#[test]
fn extreme_valid_params_and_boids_on_one_point_stay_finite() {
    let mut app = app_with(no_flocking());
    app.world_mut()
        .spawn((ball_obstacle(30.0), at(xyz(0.0, 0.0, 0.0))));
    let extremes = [
        ContextParams {
            slots: ContextParams::MIN_SLOTS,
            look_ahead: f32::MAX,
            clearance: f32::MAX,
            separation: f32::MAX,
            danger_threshold: 1.0,
            momentum: 1.0,
        },
        ContextParams {
            slots: ContextParams::MAX_SLOTS,
            look_ahead: f32::MIN_POSITIVE,
            clearance: 0.0,
            separation: 0.0,
            danger_threshold: 0.0,
            momentum: 0.0,
        },
        ContextParams {
            separation: 1e30,
            ..ContextParams::default()
        },
    ];
    // Every boid on one point, inside the obstacle, its target on the same point too.
    let here = xyz(5.0, 5.0, 5.0);
    for params in extremes {
        for _ in 0..4 {
            spawn_boid(&mut app, context_boid(here, here, params));
            spawn_boid(&mut app, context_boid(here, xyz(300.0, 0.0, 0.0), params));
        }
    }
    step(&mut app, 240);
    assert_eq!(boid_count(&mut app), 24);
    for (boid, at, moving) in boid_states(&mut app) {
        assert!(
            at.is_finite() && moving.is_finite(),
            "{boid}: {at} {moving}"
        );
        assert!(
            moving.length() <= VEHICLE.max_speed * (1.0 + 1e-5),
            "{boid}: {moving}"
        );
    }
}
