//! Unaligned collision avoidance, flow fields, containment and the new obstacle shapes through
//! the plugin, in a headless 2D `App`. Each test would fail if its behaviour (or its wiring
//! into the schedule) broke; the crossing scene also gives the collision numbers in the README.

use bevy::prelude::*;
use bevy_flock::flock_core::steering::Polygon;
use bevy_flock::prelude::*;
use common::*;

mod common;

fn app_with(config: FlockConfig) -> App {
    create_app(FlockSettings::from_config(config), 14)
}

const WALKER: MotionLimits = MotionLimits {
    max_speed: 100.0,
    max_force: 800.0,
    mass: 1.0,
};

/// Two bodies collide when their centres are closer than this.
const BODY: f32 = 12.0;

/// Avoidance keeps a margin: it steers to pass half a body farther apart than a collision.
const AVOID: AvoidCollisions = AvoidCollisions {
    params: CollisionParams {
        min_distance: 1.5 * BODY,
        horizon: 1.0,
    },
    weight: 3.0,
};

/// A crowd walking right along five lanes 30 apart and another walking up along five lanes,
/// crossing in the middle (each lane has a walker every 75 units, at 100 units a second); a
/// walker past the far side comes back in at the near one. Returns the collisions in 1,000
/// steps.
fn crossing(avoid: bool) -> usize {
    let mut app = app_with(no_flocking());
    let lanes = [-60.0, -30.0, 0.0, 30.0, 60.0];
    for (i, lane) in lanes.into_iter().enumerate() {
        for k in 0..8 {
            // Staggered per lane, so the crowds meet all along the run.
            let along = -300.0 + 75.0 * k as f32 + 11.0 * i as f32;
            let walkers = [
                (Vec2::new(along, lane), Vec2::new(1e6, lane)),
                (Vec2::new(lane, along), Vec2::new(lane, 1e6)),
            ];
            for (start, goal) in walkers {
                let mut walker = app.world_mut().spawn((
                    Boid,
                    WALKER,
                    Transform::from_translation(start.extend(0.0)),
                    Velocity((goal - start).normalize() * 100.0),
                    Seek {
                        target: Target::Point(goal),
                        weight: 1.0,
                    },
                ));
                if avoid {
                    walker.insert(AVOID);
                }
            }
        }
    }
    let come_back = |app: &mut App| {
        let mut walkers = app.world_mut().query::<&mut Transform>();
        for mut transform in walkers.iter_mut(app.world_mut()) {
            for axis in 0..2 {
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

/// The measurement: collisions per 1,000 steps in the crossing scene, with and
/// without predictive avoidance. Avoidance must cut them at least tenfold (measured: 290
/// without, 1 with).
#[test]
fn avoidance_cuts_collisions_in_a_crossing_at_least_tenfold() {
    let without = crossing(false);
    let with = crossing(true);
    println!("2D crossing, collisions per 1,000 steps: {without} without, {with} with avoidance");
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
            app.world_mut().spawn((
                Boid,
                WALKER,
                Transform::from_xyz(x, 0.0, 0.0),
                Velocity(Vec2::new(-x, 0.0)),
                AvoidCollisions {
                    params: CollisionParams {
                        min_distance: bad,
                        horizon: 1.0,
                    },
                    weight: 1.0,
                },
            ));
        }
    }
    step(&mut app, 30);
    assert_sound(&mut app);
    // Nobody dodged: every boid still moves along x.
    for (_, _, velocity) in boid_states(&mut app) {
        assert_eq!(velocity.y, 0.0, "{velocity}");
    }
}

/// Counter-clockwise circulation around the origin, at full speed.
fn swirl(point: Vec2) -> Vec2 {
    point.perp().normalize_or_zero()
}

#[test]
fn a_boid_follows_an_analytic_flow_field() {
    let mut app = app_with(no_flocking());
    let field = FlowField::from_fn(Vec2::splat(-400.0), 10.0, [80, 80], swirl).unwrap();
    app.insert_resource(FlockFlowField(field));
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            WALKER,
            Transform::from_xyz(200.0, 0.0, 0.0),
            Velocity(Vec2::new(-100.0, 0.0)),
            FollowFlowField {
                look_ahead: 0.1,
                weight: 1.0,
            },
        ))
        .id();
    // Half a second to turn onto the field, then it must keep to it.
    step(&mut app, 30);
    for _ in 0..300 {
        step(&mut app, 1);
        let (position, velocity) = boid_state(&mut app, boid);
        let wanted = swirl(position) * 100.0;
        assert!(
            velocity.angle_to(wanted).abs() < 0.1,
            "at {position}: {velocity}, the field says {wanted}"
        );
        assert!((velocity.length() - 100.0).abs() < 5.0, "{velocity}");
    }
    // Circling, not drifting off (a follower cutting a circle's curve spirals in slowly).
    let (position, _) = boid_state(&mut app, boid);
    assert!((position.length() - 200.0).abs() < 50.0, "{position}");
}

#[test]
fn following_a_missing_flow_field_gives_no_force() {
    let mut app = app_with(no_flocking());
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            WALKER,
            Velocity(Vec2::new(50.0, 0.0)),
            FollowFlowField {
                look_ahead: f32::NAN,
                weight: 1.0,
            },
        ))
        .id();
    step(&mut app, 10);
    assert_eq!(boid_state(&mut app, boid).1, Vec2::new(50.0, 0.0));
}

/// An L-shaped pen's outline.
fn l_shaped_pen() -> Polygon {
    let outline = [
        (-200.0, -200.0),
        (200.0, -200.0),
        (200.0, 0.0),
        (0.0, 0.0),
        (0.0, 200.0),
        (-200.0, 200.0),
    ];
    Polygon::new(outline.map(|(x, y)| Vec2::new(x, y))).unwrap()
}

/// Forty walkers in a block in the pen's lower left, heading every way; with `stay`, they
/// stay inside the pen. Returns the pen's outline.
fn walkers_in_a_pen(app: &mut App, stay: bool) -> Polygon {
    let polygon = l_shaped_pen();
    let pen = app
        .world_mut()
        .spawn(Pen(Enclosure::Polygon(polygon.clone())))
        .id();
    for i in 0..40 {
        let (column, row) = ((i % 5) as f32, (i / 5) as f32);
        let mut walker = app.world_mut().spawn((
            Boid,
            WALKER,
            Transform::from_xyz(-100.0 + column * 10.0, -100.0 + row * 10.0, 0.0),
            Velocity(Vec2::from_angle(i as f32 * 0.9) * 100.0),
        ));
        if stay {
            walker.insert(StayInside {
                pen,
                look_ahead: 40.0,
                weight: 1.0,
            });
        }
    }
    polygon
}

#[test]
fn boids_stay_inside_a_concave_pen() {
    let mut app = app_with(no_flocking());
    let polygon = walkers_in_a_pen(&mut app, true);
    for _ in 0..1_200 {
        step(&mut app, 1);
        for (entity, position, _) in boid_states(&mut app) {
            assert!(
                polygon.contains(position),
                "{entity} left the pen at {position}"
            );
        }
    }
    assert_sound(&mut app);
    // Without the behaviour they all walk out.
    let mut app = app_with(no_flocking());
    let polygon = walkers_in_a_pen(&mut app, false);
    step(&mut app, 600);
    let states = boid_states(&mut app);
    let inside = states.iter().filter(|(_, p, _)| polygon.contains(*p));
    assert_eq!(inside.count(), 0);
}

#[test]
fn a_pen_far_away_pulls_boids_back_and_a_missing_pen_gives_no_force() {
    let mut app = app_with(no_flocking());
    let pen = app
        .world_mut()
        .spawn(Pen(Enclosure::Polygon(l_shaped_pen())))
        .id();
    let gone = app.world_mut().spawn_empty().id();
    app.world_mut().despawn(gone);
    let stay = |pen| StayInside {
        pen,
        look_ahead: f32::NAN,
        weight: 1.0,
    };
    let outside = app
        .world_mut()
        .spawn((
            Boid,
            WALKER,
            Transform::from_xyz(500.0, 500.0, 0.0),
            stay(pen),
        ))
        .id();
    let orphan = app
        .world_mut()
        .spawn((Boid, WALKER, Velocity(Vec2::new(50.0, 0.0)), stay(gone)))
        .id();
    step(&mut app, 600);
    assert!(l_shaped_pen().contains(boid_state(&mut app, outside).0));
    assert_eq!(boid_state(&mut app, orphan).1, Vec2::new(50.0, 0.0));
}

#[test]
fn boids_go_around_rotated_rectangles_and_polygons() {
    let mut app = app_with(no_flocking());
    // A plank turned 60 degrees and a concave arrowhead, both across the way.
    let turn = Quat::from_rotation_z(60f32.to_radians());
    let plank_half_size = Vec2::new(60.0, 15.0);
    app.world_mut().spawn((
        Obstacle::RotatedRect {
            half_size: plank_half_size,
        },
        Transform::from_xyz(0.0, 0.0, 0.0).with_rotation(turn),
    ));
    let arrowhead = Polygon::new([
        Vec2::new(-30.0, 0.0),
        Vec2::new(40.0, -50.0),
        Vec2::new(15.0, 0.0),
        Vec2::new(40.0, 50.0),
    ])
    .unwrap();
    app.world_mut().spawn((
        Obstacle::Polygon(arrowhead.clone()),
        // Turned a half turn: the arrowhead points right, away from the walkers.
        Transform::from_xyz(0.0, 300.0, 0.0)
            .with_rotation(Quat::from_rotation_z(std::f32::consts::PI)),
    ));
    let plank = Polygon::rectangle(plank_half_size)
        .unwrap()
        .placed(Vec2::ZERO, Vec2::from_angle(60f32.to_radians()));
    let arrow = arrowhead.placed(
        Vec2::new(0.0, 300.0),
        Vec2::from_angle(std::f32::consts::PI),
    );
    let mut walkers = Vec::new();
    for (y, goal) in [
        (0.0, Vec2::new(400.0, 5.0)),
        (300.0, Vec2::new(400.0, 295.0)),
    ] {
        walkers.push(
            app.world_mut()
                .spawn((
                    Boid,
                    WALKER,
                    Transform::from_xyz(-300.0, y, 0.0),
                    Velocity(Vec2::new(100.0, 0.0)),
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
        for (entity, position, _) in boid_states(&mut app) {
            assert!(
                !plank.contains(position) && !arrow.contains(position),
                "{entity} went into an obstacle at {position}"
            );
        }
    }
    for walker in walkers {
        let (position, _) = boid_state(&mut app, walker);
        assert!(position.x > 300.0, "{walker} is stuck at {position}");
    }
}

fn boid_state(app: &mut App, boid: Entity) -> (Vec2, Vec2) {
    let (_, position, velocity) = boid_states(app)
        .into_iter()
        .find(|(entity, _, _)| *entity == boid)
        .unwrap();
    (position, velocity)
}

/// Numbers that are not finite, or huge, in every new component and obstacle: no panic, no
/// NaN, no boid lost.
#[test]
fn hostile_numbers_in_the_new_behaviours_break_nothing() {
    let mut app = app_with(no_flocking());
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let triangle = Polygon::new([Vec2::ZERO, Vec2::new(30.0, 0.0), Vec2::new(0.0, 30.0)]).unwrap();
    let broken_turn = Quat::from_xyzw(nan, 0.0, 0.0, 1.0);
    let obstacles = [
        (
            Obstacle::RotatedRect {
                half_size: Vec2::new(nan, inf),
            },
            Transform::from_xyz(40.0, 0.0, 0.0),
        ),
        (
            Obstacle::RotatedRect {
                half_size: Vec2::new(20.0, 20.0),
            },
            Transform::from_xyz(60.0, 0.0, 0.0).with_rotation(broken_turn),
        ),
        (
            Obstacle::Polygon(triangle.clone()),
            Transform::from_xyz(nan, 0.0, 0.0),
        ),
        (
            Obstacle::Polygon(triangle),
            Transform::from_xyz(80.0, -10.0, 0.0).with_rotation(broken_turn),
        ),
    ];
    for obstacle in obstacles {
        app.world_mut().spawn(obstacle);
    }
    let field = FlowField::from_fn(Vec2::splat(-1e30), 1e29, [20, 20], |_| Vec2::X).unwrap();
    app.insert_resource(FlockFlowField(field));
    let pen = app
        .world_mut()
        .spawn(Pen(Enclosure::Polygon(l_shaped_pen())))
        .id();
    for i in 0..20 {
        app.world_mut().spawn((
            Boid,
            WALKER,
            Transform::from_xyz(i as f32 * 5.0 - 50.0, (i % 3) as f32, 0.0),
            Velocity(Vec2::new(100.0, 0.0)),
            AvoidObstacles {
                look_ahead: inf,
                clearance: nan,
                weight: 1.0,
            },
            AvoidCollisions {
                params: CollisionParams {
                    min_distance: 1e30,
                    horizon: f32::MAX,
                },
                weight: 1e30,
            },
            FollowFlowField {
                look_ahead: 1e30,
                weight: 1.0,
            },
            StayInside {
                pen,
                look_ahead: 1e30,
                weight: 1.0,
            },
        ));
    }
    step(&mut app, 120);
    assert_sound(&mut app);
    assert_eq!(boid_count(&mut app), 20);
}
