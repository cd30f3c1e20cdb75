//! Steering behaviours through the plugin, in a headless `App`: each test would fail if its
//! behaviour (or its wiring into the schedule) broke.

use bevy::prelude::*;
use bevy_flock::prelude::*;
use common::*;

mod common;

fn app_with(config: FlockConfig) -> App {
    create_app(FlockSettings::from_config(config), 11)
}

const VEHICLE: MotionLimits = MotionLimits {
    max_speed: 200.0,
    max_force: 2_000.0,
    mass: 1.0,
};

#[test]
fn arrive_at_an_entity_stops_there_without_overshoot() {
    let mut app = app_with(no_flocking());
    let marker = app
        .world_mut()
        .spawn(Transform::from_xyz(250.0, 100.0, 0.0))
        .id();
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Arrive {
                target: Target::Entity(marker),
                slow_radius: 150.0,
                weight: 1.0,
                speed: None,
            },
        ))
        .id();
    let target = Vec2::new(250.0, 100.0);
    let direction = target.normalize();
    let mut furthest = 0.0f32;
    for _ in 0..300 {
        step(&mut app, 1);
        furthest = furthest.max(position(&app, boid).dot(direction));
    }
    assert!(
        position(&app, boid).distance(target) < 1.0,
        "{}",
        position(&app, boid)
    );
    assert!(velocity(&app, boid).length() < 1.0);
    assert!(furthest <= target.length() + 1.0, "overshot to {furthest}");
}

#[test]
fn seek_follows_a_moved_point_and_flee_runs_from_a_threat() {
    let mut app = app_with(no_flocking());
    let seeker = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Seek {
                target: Target::Point(Vec2::new(0.0, 300.0)),
                weight: 1.0,
            },
        ))
        .id();
    let threat = app
        .world_mut()
        .spawn(Transform::from_xyz(20.0, 0.0, 0.0))
        .id();
    let fleer = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Transform::from_xyz(0.0, 0.0, 0.0),
            Flee {
                threats: vec![Target::Entity(threat), Target::Point(Vec2::new(0.0, 30.0))],
                radius: 100.0,
                weight: 1.0,
            },
        ))
        .id();
    step(&mut app, 30);
    assert!(
        velocity(&app, seeker).y > 150.0,
        "{}",
        velocity(&app, seeker)
    );
    let away = position(&app, fleer);
    assert!(away.x < -10.0 && away.y < -10.0, "fled to {away}");
}

#[test]
fn a_despawned_pursuit_target_stops_the_pursuit_without_losing_the_pursuer() {
    let mut app = app_with(no_flocking());
    let quarry = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Transform::from_xyz(100.0, 0.0, 0.0),
            Velocity(Vec2::Y * 50.0),
        ))
        .id();
    let hunter = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Pursue {
                target: quarry,
                max_look_ahead: 1.0,
                weight: 1.0,
            },
        ))
        .id();
    step(&mut app, 10);
    assert!(
        velocity(&app, hunter).x > 50.0,
        "{}",
        velocity(&app, hunter)
    );
    app.world_mut().despawn(quarry);
    // A new entity may reuse the index; the generation tells them apart.
    let newcomer = app
        .world_mut()
        .spawn(Transform::from_xyz(-500.0, 0.0, 0.0))
        .id();
    step(&mut app, 30);
    assert_eq!(boid_count(&mut app), 1);
    let after = velocity(&app, hunter);
    assert!(after.is_finite());
    assert_eq!(
        app.world().get::<SteeringForce>(hunter).unwrap().0,
        Vec2::ZERO,
        "the force is used up each step"
    );
    // No force any more: it keeps going the way it went rather than turning to the newcomer.
    assert!(after.x > 50.0, "{after} after {newcomer} appeared");
}

#[test]
fn behaviours_can_be_removed_and_added_again() {
    let mut app = app_with(no_flocking());
    let seek = Seek {
        target: Target::Point(Vec2::new(300.0, 0.0)),
        weight: 1.0,
    };
    let boid = app.world_mut().spawn((Boid, VEHICLE, seek)).id();
    step(&mut app, 20);
    let speed = velocity(&app, boid).x;
    assert!(speed > 100.0);
    app.world_mut().entity_mut(boid).remove::<Seek>();
    app.world_mut()
        .entity_mut(boid)
        .insert(Velocity(Vec2::ZERO));
    step(&mut app, 10);
    assert_eq!(
        velocity(&app, boid),
        Vec2::ZERO,
        "no seek, no flocking: at rest"
    );
    app.world_mut().entity_mut(boid).insert(seek);
    step(&mut app, 20);
    assert!(velocity(&app, boid).x > 100.0);
    assert_eq!(boid_count(&mut app), 1);
}

#[test]
fn wall_avoidance_keeps_boids_inside_free_bounds() {
    let mut app = app_with(no_flocking());
    let bounds = app.world().resource::<FlockSettings>().config.bounds;
    let mut boids = Vec::new();
    for i in 0..16 {
        let angle = i as f32 * std::f32::consts::TAU / 16.0;
        boids.push(
            app.world_mut()
                .spawn((
                    Boid,
                    VEHICLE,
                    Transform::from_translation(
                        (bounds.center() + Vec2::from_angle(angle) * 50.0).extend(0.0),
                    ),
                    Velocity(Vec2::from_angle(angle) * 200.0),
                    AvoidWalls {
                        look_ahead: 80.0,
                        weight: 1.0,
                    },
                    // Keep cruising: something must push them at the walls.
                    Wander::default(),
                ))
                .id(),
        );
    }
    for _ in 0..600 {
        step(&mut app, 1);
        for &boid in &boids {
            assert!(
                bounds.contains(position(&app, boid)),
                "left at {}",
                position(&app, boid)
            );
        }
    }
}

#[test]
fn tanks_drive_turning_no_faster_than_their_rate_and_the_group_stops_at_its_target() {
    let mut app = app_with(no_flocking());
    let target = Vec2::new(200.0, 100.0);
    let params = GroupParams {
        keep_distance: 40.0,
        keep_weight: 1.0,
        target_close_distance: 120.0,
        target_weight: 1.25,
        move_weight: 0.8,
        // Room for six tanks 40 apart inside the stop circle.
        stop_distance: 100.0,
    };
    let group = app.world_mut().spawn(BoidGroup { target, params }).id();
    let drive = DriveParams {
        move_speed: 80.0,
        rotate_speed: 2.0,
    };
    // Facing away from the target: they turn (at the full rate) and reverse first.
    let tanks: Vec<Entity> = (0..6)
        .map(|i| {
            app.world_mut()
                .spawn((
                    Boid,
                    MotionLimits {
                        max_speed: 8.0 * drive.move_speed,
                        ..VEHICLE
                    },
                    GroupMember::new(group, drive).facing(Vec2::new(-1.0, -0.2)),
                    Transform::from_xyz(
                        -200.0 + (i % 3) as f32 * 25.0,
                        -100.0 + (i / 3) as f32 * 25.0,
                        0.0,
                    ),
                ))
                .id()
        })
        .collect();
    let heading =
        |app: &App, tank: Entity| app.world().get::<GroupMember>(tank).unwrap().state.heading;
    let mut reversed = false;
    for _ in 0..1_800 {
        let before: Vec<Vec2> = tanks.iter().map(|&tank| heading(&app, tank)).collect();
        let steps_before = app.world().resource::<FlockClock>().steps_taken();
        step(&mut app, 1);
        // The fixed clock may fit two steps (or none) into one update now and then.
        let steps = app.world().resource::<FlockClock>().steps_taken() - steps_before;
        let max_turn = drive.rotate_speed / HZ as f32 * steps as f32 + 1e-4;
        for (&tank, previous) in tanks.iter().zip(before) {
            let now = heading(&app, tank);
            let turned = previous.angle_to(now).abs();
            assert!(turned <= max_turn, "turned {turned} in {steps} steps");
            // The sprite faces the heading, also when the tank drives backwards.
            let facing = app.world().get::<Transform>(tank).unwrap().rotation * Vec3::X;
            assert!(
                (facing.truncate() - now).length() < 1e-3,
                "faces {facing}, heads {now}"
            );
            let member = app.world().get::<GroupMember>(tank).unwrap();
            reversed |= member.state.current_speed < 0.0 && velocity(&app, tank).dot(now) < 0.0;
        }
    }
    assert!(reversed, "no tank ever reversed");
    let positions: Vec<Vec2> = tanks.iter().map(|&tank| position(&app, tank)).collect();
    for (&tank, at) in tanks.iter().zip(&positions) {
        assert!(
            at.distance(target) < params.stop_distance + params.keep_distance,
            "{at}"
        );
        assert!(
            velocity(&app, tank).length() < 1.0,
            "{}",
            velocity(&app, tank)
        );
    }
    for (i, a) in positions.iter().enumerate() {
        for b in &positions[i + 1..] {
            assert!(
                a.distance(*b) > params.keep_distance * 0.2,
                "{a} and {b} piled up"
            );
        }
    }
}

#[test]
fn arrive_seeks_at_its_own_speed_below_the_max() {
    // Seed 003 seeks at `_speed` and caps at `_maxSpeed`: far from the target, an arriver with
    // its own speed cruises at it, not at its max speed.
    let mut app = app_with(no_flocking());
    let arriver = |speed| {
        (
            Boid,
            VEHICLE,
            Arrive {
                target: Target::Point(Vec2::new(5_000.0, 0.0)),
                slow_radius: 100.0,
                weight: 1.0,
                speed,
            },
        )
    };
    let slow = app.world_mut().spawn(arriver(Some(50.0))).id();
    let fast = app.world_mut().spawn(arriver(None)).id();
    step(&mut app, 120);
    assert!(
        (velocity(&app, slow).length() - 50.0).abs() < 1e-3,
        "{}",
        velocity(&app, slow)
    );
    assert!((velocity(&app, fast).length() - VEHICLE.max_speed).abs() < 1e-3);
}

#[test]
fn wall_avoidance_pushes_at_its_speed_past_the_force_limit() {
    // Seed 003 adds the wall push to the velocity after truncating the other steering: a
    // vehicle whose max force is tiny still turns at a wall within a frame or two.
    let mut app = app_with(no_flocking());
    let bounds = app.world().resource::<FlockSettings>().config.bounds;
    let start = Vec2::new(bounds.max.x - 30.0, 0.0);
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            MotionLimits {
                max_force: 1.0,
                ..VEHICLE
            },
            Transform::from_translation(start.extend(0.0)),
            Velocity(Vec2::new(200.0, 0.0)),
            AvoidWalls {
                look_ahead: 50.0,
                weight: 1.0,
            },
        ))
        .id();
    step(&mut app, 1);
    // The probe 50 ahead is past the wall: one frame's push of max speed (200) cancels the
    // 200 px/s towards the wall.
    assert!(
        velocity(&app, boid).x.abs() < 1e-3,
        "{}",
        velocity(&app, boid)
    );
}

#[test]
fn sight_flock_follows_the_document_through_the_plugin() {
    // Two boids; the one behind sees the one in front, which sees nothing. Zero flocking
    // weights: only seed 001's rules act.
    let mut app = app_with(no_flocking());
    let params = SightParams {
        in_sight: 200.0,
        too_close: 60.0,
    };
    let limits = MotionLimits {
        max_speed: 100.0,
        max_force: 1e6,
        mass: 1.0,
    };
    let spawn = |app: &mut App, at: Vec2, velocity: Vec2| {
        app.world_mut()
            .spawn((
                Boid,
                limits,
                Transform::from_translation(at.extend(0.0)),
                Velocity(velocity),
                SightFlock {
                    params,
                    weight: 1.0,
                },
            ))
            .id()
    };
    let behind = spawn(&mut app, Vec2::ZERO, Vec2::new(50.0, 0.0));
    let front = spawn(&mut app, Vec2::new(100.0, 30.0), Vec2::new(0.0, 50.0));
    step(&mut app, 1);
    // The front boid saw nobody: it keeps its velocity.
    assert_eq!(velocity(&app, front), Vec2::new(0.0, 50.0));
    // The one behind: seek (100, 30) at 100 px/s, and steer by ((50, 0) + (0, 50)) - (50, 0),
    // both as velocity changes per response time; one frame of it, then the speed limit.
    let seek = Vec2::new(100.0, 30.0).normalize() * 100.0 - Vec2::new(50.0, 0.0);
    let align = Vec2::new(0.0, 50.0);
    let expected = (Vec2::new(50.0, 0.0) + seek + align).clamp_length_max(100.0);
    assert!(
        (velocity(&app, behind) - expected).length() < 1e-2,
        "{} vs {expected}",
        velocity(&app, behind)
    );
}

/// Mean unit heading of the boids of one species.
fn mean_heading(app: &mut App, kind: u32) -> Vec2 {
    let headings: Vec<Vec2> = app
        .world_mut()
        .query::<(&Species, &Velocity)>()
        .iter(app.world())
        .filter(|(species, _)| species.0 == kind)
        .map(|(_, velocity)| velocity.0.normalize_or_zero())
        .collect();
    headings.iter().sum::<Vec2>() / headings.len() as f32
}

/// Two kinds interleaved on one spot, one heading +x and one +y, flocking by alignment only.
fn two_kinds(same_species: bool) -> App {
    let mut app = app_with(FlockConfig {
        weights: RuleWeights {
            separation: 0.0,
            alignment: 1.0,
            cohesion: 0.0,
        },
        ..FlockConfig::default()
    });
    for i in 0..40 {
        let kind = if same_species { 0 } else { i % 2 };
        let heading = if i % 2 == 0 { Vec2::X } else { Vec2::Y };
        let at = Vec2::new((i % 8) as f32 * 4.0, (i / 8) as f32 * 4.0);
        app.world_mut().spawn((
            Boid,
            Species(kind),
            Transform::from_translation(at.extend(0.0)),
            Velocity(heading * 100.0),
        ));
    }
    step(&mut app, 30);
    app
}

#[test]
fn species_do_not_flock_across_kinds() {
    let mut apart = two_kinds(false);
    assert!(
        mean_heading(&mut apart, 0).dot(Vec2::X) > 0.99,
        "{}",
        mean_heading(&mut apart, 0)
    );
    assert!(
        mean_heading(&mut apart, 1).dot(Vec2::Y) > 0.99,
        "{}",
        mean_heading(&mut apart, 1)
    );
    // The same boids as one species align with each other: the test can tell the difference.
    let mut together = two_kinds(true);
    let mixed = mean_heading(&mut together, 0);
    assert!(
        mixed.normalize().dot(Vec2::new(1.0, 1.0).normalize()) > 0.99,
        "{mixed}"
    );
    assert!(mixed.length() > 0.9, "{mixed}");
}

#[test]
fn prey_flee_a_predator_that_chases_the_nearest() {
    let mut app = app_with(no_flocking());
    app.insert_resource(SpeciesRelations {
        hunts: vec![Hunt {
            predator: 1,
            prey: 0,
            flee_radius: 120.0,
            flee_weight: 1.0,
            chase_radius: 400.0,
            chase_weight: 1.0,
            max_look_ahead: 1.0,
        }],
    });
    let prey: Vec<Entity> = (0..12)
        .map(|i| {
            let at = Vec2::from_angle(i as f32 * 0.5) * (40.0 + i as f32 * 5.0);
            app.world_mut()
                .spawn((
                    Boid,
                    Species(0),
                    VEHICLE,
                    Transform::from_translation(at.extend(0.0)),
                ))
                .id()
        })
        .collect();
    let predator = app
        .world_mut()
        .spawn((
            Boid,
            Species(1),
            MotionLimits {
                max_speed: 100.0,
                ..VEHICLE
            },
            Transform::from_xyz(-150.0, 0.0, 0.0),
        ))
        .id();
    let mean_distance = |app: &App| {
        let hunter = position(app, predator);
        prey.iter()
            .map(|&p| position(app, p).distance(hunter))
            .sum::<f32>()
            / prey.len() as f32
    };
    let before = mean_distance(&app);
    step(&mut app, 20);
    // The predator heads for the prey, and the prey it comes near run.
    assert!(
        velocity(&app, predator).x > 50.0,
        "{}",
        velocity(&app, predator)
    );
    step(&mut app, 40);
    let fled: Vec<f32> = prey.iter().map(|&p| velocity(&app, p).length()).collect();
    assert!(
        fled.iter().filter(|&&speed| speed > 50.0).count() >= 3,
        "{fled:?}"
    );
    assert!(mean_distance(&app) > before * 0.5);
    for &p in &prey {
        let away = velocity(&app, p);
        let from_hunter = position(&app, p) - position(&app, predator);
        if away.length() > 50.0 {
            assert!(
                away.dot(from_hunter) > 0.0,
                "prey at {from_hunter} runs {away}"
            );
        }
    }
}

#[test]
fn a_nan_weight_never_reaches_a_velocity() {
    let mut app = app_with(no_flocking());
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Velocity(Vec2::X * 10.0),
            Seek {
                target: Target::Point(Vec2::Y * 100.0),
                weight: f32::NAN,
            },
        ))
        .id();
    step(&mut app, 10);
    assert_eq!(velocity(&app, boid), Vec2::X * 10.0);
    assert_eq!(boid_count(&mut app), 1);
}

#[test]
fn boids_steer_around_obstacle_entities() {
    let mut app = app_with(no_flocking());
    let (centre, half_size) = (Vec2::new(150.0, 5.0), Vec2::new(20.0, 50.0));
    app.world_mut().spawn((
        Obstacle::Rect { half_size },
        Transform::from_translation(centre.extend(0.0)),
    ));
    app.world_mut().spawn((
        Obstacle::Circle { radius: 30.0 },
        Transform::from_xyz(300.0, -5.0, 0.0),
    ));
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            MotionLimits {
                max_speed: 100.0,
                ..VEHICLE
            },
            Velocity(Vec2::X * 100.0),
            Seek {
                target: Target::Point(Vec2::new(450.0, 0.0)),
                weight: 1.0,
            },
            AvoidObstacles {
                look_ahead: 120.0,
                clearance: 10.0,
                weight: 3.0,
            },
        ))
        .id();
    for _ in 0..300 {
        step(&mut app, 1);
        let at = position(&app, boid);
        let in_rect = ((at - centre).abs() - half_size).max_element() < 0.0;
        let in_circle = at.distance(Vec2::new(300.0, -5.0)) < 30.0;
        assert!(!in_rect && !in_circle, "went through an obstacle at {at}");
    }
    assert!(
        position(&app, boid).x > 400.0,
        "stuck at {}",
        position(&app, boid)
    );
}
