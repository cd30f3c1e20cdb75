//! Every steering behaviour acts in 3D, through the plugin in a headless `App`: each test puts
//! what matters off the plane z = 0 (or off y = 0), so a behaviour that only worked in a plane
//! would fail it.

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock3d::prelude::*;
use common::*;

#[test]
fn seek_reaches_into_depth_and_flee_runs_from_a_threat_in_front() {
    let mut app = app_with(no_flocking());
    let seeker = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Seek {
                target: Target::Point(Vec3::new(0.0, 0.0, 300.0)),
                weight: 1.0,
            },
        ))
        .id();
    let threat = app
        .world_mut()
        .spawn(Transform::from_xyz(0.0, 0.0, -20.0))
        .id();
    let fleer = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Flee {
                threats: vec![
                    Target::Entity(threat),
                    Target::Point(Vec3::new(0.0, 30.0, 0.0)),
                ],
                radius: 100.0,
                weight: 1.0,
            },
        ))
        .id();
    step(&mut app, 30);
    let seeking = velocity(&app, seeker);
    assert!(
        seeking.z > 150.0 && seeking.x.abs() + seeking.y.abs() < 1.0,
        "{seeking}"
    );
    let away = position(&app, fleer);
    assert!(away.z > 10.0 && away.y < -10.0, "fled to {away}");
}

#[test]
fn arrive_stops_at_a_point_off_every_plane_without_overshoot() {
    let mut app = app_with(no_flocking());
    let target = Vec3::new(150.0, -100.0, 200.0);
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Arrive {
                target: Target::Point(target),
                slow_radius: 150.0,
                weight: 1.0,
                speed: None,
            },
        ))
        .id();
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
fn pursuit_leads_a_target_climbing_away_and_evasion_dodges_it() {
    let mut app = app_with(no_flocking());
    let quarry = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Transform::from_xyz(100.0, 0.0, 0.0),
            Velocity(Vec3::Y * 150.0),
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
    let evader = app
        .world_mut()
        .spawn((
            Boid,
            VEHICLE,
            Transform::from_xyz(100.0, 60.0, 0.0),
            Evade {
                threat: quarry,
                max_look_ahead: 1.0,
                radius: 200.0,
                weight: 1.0,
            },
        ))
        .id();
    step(&mut app, 5);
    // Aims ahead of the quarry (up, where it will be), not at it.
    let chase = velocity(&app, hunter);
    assert!(chase.x > 20.0 && chase.y > 20.0, "{chase}");
    // The evader is ahead of the climbing quarry: it runs on up, away from its path.
    let dodge = velocity(&app, evader);
    assert!(dodge.y > 20.0, "{dodge}");
}

#[test]
fn wander_leaves_the_plane_and_keeps_its_point_on_the_sphere() {
    let mut app = app_with(no_flocking());
    let wanderer = app
        .world_mut()
        .spawn((Boid, VEHICLE, Velocity(Vec3::X * 100.0), Wander::default()))
        .id();
    let mut left_the_plane = false;
    let mut turned_up_or_down = false;
    for _ in 0..240 {
        step(&mut app, 1);
        let at = position(&app, wanderer);
        left_the_plane |= at.z.abs() > 20.0;
        turned_up_or_down |= velocity(&app, wanderer).normalize().y.abs() > 0.3;
        let point = app.world().get::<Wander>(wanderer).unwrap().angle;
        assert!((point.length() - 1.0).abs() < 1e-4, "wander point {point}");
    }
    assert!(left_the_plane && turned_up_or_down);
}

#[test]
fn wall_avoidance_keeps_boids_inside_free_bounds_on_every_axis() {
    let mut app = app_with(no_flocking());
    let bounds = app.world().resource::<FlockSettings>().config.bounds;
    let headings = [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
        Vec3::ONE.normalize(),
        Vec3::new(-1.0, 1.0, -1.0).normalize(),
    ];
    let boids: Vec<Entity> = headings
        .iter()
        .map(|&heading| {
            app.world_mut()
                .spawn((
                    Boid,
                    VEHICLE,
                    Transform::from_translation(bounds.center() + heading * 50.0),
                    Velocity(heading * 200.0),
                    AvoidWalls {
                        look_ahead: 80.0,
                        weight: 1.0,
                    },
                    Wander::default(),
                ))
                .id()
        })
        .collect();
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
fn boids_steer_around_spheres_and_boxes() {
    let mut app = app_with(no_flocking());
    let (box_centre, half_size) = (Vec3::new(150.0, 5.0, -5.0), Vec3::new(20.0, 30.0, 30.0));
    let sphere_centre = Vec3::new(300.0, -5.0, 5.0);
    app.world_mut().spawn((
        Obstacle::Cuboid { half_size },
        Transform::from_translation(box_centre),
    ));
    app.world_mut().spawn((
        Obstacle::Sphere { radius: 30.0 },
        Transform::from_translation(sphere_centre),
    ));
    let boid = app
        .world_mut()
        .spawn((
            Boid,
            MotionLimits {
                max_speed: 100.0,
                ..VEHICLE
            },
            Velocity(Vec3::X * 100.0),
            Seek {
                target: Target::Point(Vec3::new(450.0, 0.0, 0.0)),
                weight: 1.0,
            },
            AvoidObstacles {
                look_ahead: 120.0,
                clearance: 10.0,
                weight: 3.0,
            },
        ))
        .id();
    let mut dodged = 0.0f32;
    for _ in 0..300 {
        step(&mut app, 1);
        let at = position(&app, boid);
        let in_box = ((at - box_centre).abs() - half_size).max_element() < 0.0;
        let in_sphere = at.distance(sphere_centre) < 30.0;
        assert!(!in_box && !in_sphere, "went through an obstacle at {at}");
        dodged = dodged.max(at.with_x(0.0).length());
    }
    assert!(
        position(&app, boid).x > 400.0,
        "stuck at {}",
        position(&app, boid)
    );
    assert!(dodged > 20.0, "never left the straight line");
}

/// Mean unit heading of the boids of one species.
fn mean_heading(app: &mut App, kind: u32) -> Vec3 {
    let headings: Vec<Vec3> = app
        .world_mut()
        .query::<(&Species, &Velocity)>()
        .iter(app.world())
        .filter(|(species, _)| species.0 == kind)
        .map(|(_, velocity)| velocity.0.normalize_or_zero())
        .collect();
    headings.iter().sum::<Vec3>() / headings.len() as f32
}

/// Two kinds interleaved in a small cube, one heading +x and one +z, aligning only.
fn two_kinds(same_species: bool) -> App {
    let mut app = app_with(FlockConfig {
        weights: RuleWeights {
            separation: 0.0,
            alignment: 1.0,
            cohesion: 0.0,
        },
        ..FlockConfig::default()
    });
    for i in 0..64 {
        let kind = if same_species { 0 } else { i % 2 };
        let heading = if i % 2 == 0 { Vec3::X } else { Vec3::Z };
        let at = Vec3::new((i % 4) as f32, ((i / 4) % 4) as f32, (i / 16) as f32) * 4.0;
        app.world_mut().spawn((
            Boid,
            Species(kind),
            Transform::from_translation(at),
            Velocity(heading * 100.0),
        ));
    }
    step(&mut app, 30);
    app
}

#[test]
fn species_flock_only_with_their_kind() {
    let mut apart = two_kinds(false);
    assert!(mean_heading(&mut apart, 0).dot(Vec3::X) > 0.99);
    assert!(mean_heading(&mut apart, 1).dot(Vec3::Z) > 0.99);
    let mut together = two_kinds(true);
    let mixed = mean_heading(&mut together, 0);
    assert!(
        mixed.normalize().dot(Vec3::new(1.0, 0.0, 1.0).normalize()) > 0.99,
        "{mixed}"
    );
}

#[test]
fn prey_flee_a_predator_that_chases_them_in_depth() {
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
    // The prey on a ring in the y-z plane; the predator below them along z.
    let prey: Vec<Entity> = (0..12)
        .map(|i| {
            let angle = i as f32 * 0.5;
            let at = Vec3::new(0.0, angle.sin(), angle.cos()) * 40.0;
            app.world_mut()
                .spawn((Boid, Species(0), VEHICLE, Transform::from_translation(at)))
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
            Transform::from_xyz(0.0, 0.0, -150.0),
        ))
        .id();
    step(&mut app, 20);
    assert!(
        velocity(&app, predator).z > 50.0,
        "{}",
        velocity(&app, predator)
    );
    step(&mut app, 40);
    let hunter = position(&app, predator);
    let mut fled = 0;
    for &p in &prey {
        let away = velocity(&app, p);
        if away.length() > 50.0 {
            fled += 1;
            assert!(
                away.dot(position(&app, p) - hunter) > 0.0,
                "prey runs {away}"
            );
        }
    }
    assert!(fled >= 3, "only {fled} prey fled");
}

/// Seed 004's tank group in its own units: moveSpeed 5, rotateSpeed 20 degrees a second,
/// keepDistance 10, targetCloseDistance 20, weights 1.25 (target), 1 (keep), 0.8 (move), and
/// our stop distance of 15 (the seed's is lost): `GroupParams::default()`.
const SEED_004: GroupParams = GroupParams {
    keep_distance: 10.0,
    keep_weight: 1.0,
    target_close_distance: 20.0,
    target_weight: 1.25,
    move_weight: 0.8,
    stop_distance: 15.0,
};

#[test]
fn seed_004_tanks_reach_the_target_and_stop_apart_on_the_ground_turning_at_most_20_degrees_a_second()
 {
    assert_eq!(SEED_004, GroupParams::default());
    let mut app = app_with(FlockConfig {
        separation_radius: 10.0,
        alignment_radius: 10.0,
        cohesion_radius: 10.0,
        ..no_flocking()
    });
    let target = Vec3::new(40.0, 0.0, -30.0);
    let group = app
        .world_mut()
        .spawn(BoidGroup {
            target,
            params: SEED_004,
        })
        .id();
    // Seed 004's Drive: moveSpeed 5, rotateSpeed 20 degrees a second.
    let drive = DriveParams::default();
    assert_eq!(drive.rotate_speed, 20f32.to_radians());
    // Six tanks on the ground plane y = 0, facing away from the target (+z).
    let tanks: Vec<Entity> = (0..6)
        .map(|i| {
            app.world_mut()
                .spawn((
                    Boid,
                    // The group drives the tank; reversing reaches up to 8 times the speed.
                    MotionLimits {
                        max_speed: 8.0 * drive.move_speed,
                        max_force: 1.0,
                        mass: 1.0,
                    },
                    GroupMember::new(group, drive).facing(Vec3::Z),
                    Transform::from_xyz(
                        -20.0 + (i % 3) as f32 * 6.0,
                        0.0,
                        20.0 + (i / 3) as f32 * 6.0,
                    ),
                ))
                .id()
        })
        .collect();
    for _ in 0..60 * 60 {
        // The heading turns at most rotateSpeed; the velocity flips when a tank reverses.
        let heading = |app: &App, tank| app.world().get::<GroupMember>(tank).unwrap().state.heading;
        let before: Vec<Vec3> = tanks.iter().map(|&tank| heading(&app, tank)).collect();
        let steps_before = app.world().resource::<FlockClock>().steps_taken();
        step(&mut app, 1);
        let steps = app.world().resource::<FlockClock>().steps_taken() - steps_before;
        let max_turn = drive.rotate_speed / HZ as f32 * steps as f32 + 1e-4;
        for (&tank, previous) in tanks.iter().zip(before) {
            let now = heading(&app, tank);
            // On the ground, always.
            assert_eq!(position(&app, tank).y, 0.0);
            if previous.length() > 1e-3 && now.length() > 1e-3 {
                let turned = previous.angle_between(now);
                assert!(turned <= max_turn, "turned {turned} in {steps} steps");
            }
        }
    }
    // After a minute: every tank inside the stop circle, at rest, and no two piled up.
    let positions: Vec<Vec3> = tanks.iter().map(|&tank| position(&app, tank)).collect();
    for (&tank, at) in tanks.iter().zip(&positions) {
        assert!(at.distance(target) < SEED_004.stop_distance, "{at}");
        assert!(
            velocity(&app, tank).length() < 0.1,
            "{}",
            velocity(&app, tank)
        );
    }
    for (i, a) in positions.iter().enumerate() {
        for b in &positions[i + 1..] {
            assert!(
                a.distance(*b) > SEED_004.keep_distance * 0.2,
                "{a} and {b} piled up"
            );
        }
    }
    for &tank in &tanks {
        // Facing its heading, upright on the ground.
        let top = app.world().get::<Transform>(tank).unwrap().rotation * Vec3::Y;
        assert!(top.distance(Vec3::Y) < 1e-3, "{top}");
    }
}
