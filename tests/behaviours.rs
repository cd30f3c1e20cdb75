//! Steering behaviours through the plugin, in a headless `App`: each test would fail if its
//! behaviour (or its wiring into the schedule) broke. `bevy_flock3d` runs the same cases in 3D
//! (`[[test]] path` in its manifest), where what matters lies off the plane z = 0: targets in
//! depth (`xyz`) or scenes on the ground (x-z, through `steering::level`), so a behaviour that
//! only worked in a plane would fail.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::Bounds;
use bevy_flock::prelude::*;
use common::*;

#[test]
fn arrive_stops_at_an_entity_or_a_point_without_overshoot() {
    let mut app = app_with(no_flocking());
    let target = xyz(250.0, 100.0, 200.0);
    let marker = app.world_mut().spawn(at(target)).id();
    let arrive = |target| Arrive {
        target,
        slow_radius: 150.0,
        weight: 1.0,
        speed: None,
    };
    let boids = [Target::Entity(marker), Target::Point(target)]
        .map(|target| spawn_boid(&mut app, (VEHICLE, arrive(target))));
    let direction = target.normalize();
    let mut furthest = [0.0f32; 2];
    for _ in 0..300 {
        step(&mut app, 1);
        for (furthest, &boid) in furthest.iter_mut().zip(&boids) {
            *furthest = furthest.max(position(&app, boid).dot(direction));
        }
    }
    for (boid, furthest) in boids.into_iter().zip(furthest) {
        let (at, moving) = (position(&app, boid), velocity(&app, boid));
        assert!(at.distance(target) < 1.0, "{at}");
        assert!(moving.length() < 1.0, "{moving}");
        assert!(furthest <= target.length() + 1.0, "overshot to {furthest}");
    }
}

#[test]
fn seek_heads_straight_for_its_point_and_flee_runs_from_every_threat() {
    let mut app = app_with(no_flocking());
    let goal = level(0.0, 300.0);
    let seek = Seek {
        target: Target::Point(goal),
        weight: 1.0,
    };
    let seeker = spawn_boid(&mut app, (VEHICLE, seek));
    let threat = app.world_mut().spawn(at(level(20.0, 0.0))).id();
    let flee = Flee {
        threats: vec![Target::Entity(threat), Target::Point(level(0.0, 30.0))],
        radius: 100.0,
        weight: 1.0,
    };
    let fleer = spawn_boid(&mut app, (VEHICLE, flee));
    step(&mut app, 30);
    let seeking = velocity(&app, seeker);
    let towards = goal.normalize();
    assert!(seeking.dot(towards) > 150.0, "{seeking}");
    assert!(
        (seeking - towards * seeking.dot(towards)).length() < 1.0,
        "{seeking} strays from the way"
    );
    // Away from the threat ahead and from the one to the left (in 3D: in front, in depth).
    let away = position(&app, fleer);
    assert!(
        away.dot(level(1.0, 0.0)) < -10.0 && away.dot(level(0.0, 1.0)) < -10.0,
        "fled to {away}"
    );
}

/// A quarry at `place` climbing (+y) at `climb`, and a hunter at the origin pursuing it.
fn quarry_and_hunter(app: &mut App, place: Vector, climb: f32) -> (Entity, Entity) {
    let quarry = spawn_boid(app, (VEHICLE, at(place), Velocity(Vector::Y * climb)));
    let pursue = Pursue {
        target: quarry,
        max_look_ahead: 1.0,
        weight: 1.0,
    };
    (quarry, spawn_boid(app, (VEHICLE, pursue)))
}

#[test]
fn a_despawned_pursuit_target_stops_the_pursuit_without_losing_the_pursuer() {
    let mut app = app_with(no_flocking());
    let (quarry, hunter) = quarry_and_hunter(&mut app, xyz(100.0, 0.0, 50.0), 50.0);
    step(&mut app, 10);
    assert!(
        velocity(&app, hunter).x > 50.0,
        "{}",
        velocity(&app, hunter)
    );
    app.world_mut().despawn(quarry);
    // A new entity may reuse the index; the generation tells them apart.
    let newcomer = app.world_mut().spawn(at(xyz(-500.0, 0.0, 0.0))).id();
    step(&mut app, 30);
    assert_eq!(boid_count(&mut app), 1);
    let after = velocity(&app, hunter);
    assert!(after.is_finite());
    assert_eq!(
        app.world().get::<SteeringForce>(hunter).unwrap().sum(),
        Vector::ZERO,
        "the force is used up each step"
    );
    // No force any more: it keeps going the way it went rather than turning to the newcomer.
    assert!(after.x > 50.0, "{after} after {newcomer} appeared");
}

#[test]
fn pursuit_leads_a_target_climbing_away_and_evasion_dodges_it() {
    let mut app = app_with(no_flocking());
    let (quarry, hunter) = quarry_and_hunter(&mut app, xyz(100.0, 0.0, 40.0), 150.0);
    let evade = Evade {
        threat: quarry,
        max_look_ahead: 1.0,
        radius: 200.0,
        weight: 1.0,
    };
    let evader = spawn_boid(&mut app, (VEHICLE, at(xyz(100.0, 60.0, 40.0)), evade));
    step(&mut app, 5);
    // Aims ahead of the quarry (up, where it will be), not at it.
    let chase = velocity(&app, hunter);
    assert!(chase.x > 20.0 && chase.y > 20.0, "{chase}");
    // The evader is ahead of the climbing quarry: it runs on up, away from its path.
    let dodge = velocity(&app, evader);
    assert!(dodge.y > 20.0, "{dodge}");
}

#[test]
fn behaviours_can_be_removed_and_added_again() {
    let mut app = app_with(no_flocking());
    let seek = Seek {
        target: Target::Point(xyz(300.0, 0.0, 100.0)),
        weight: 1.0,
    };
    let boid = spawn_boid(&mut app, (VEHICLE, seek));
    step(&mut app, 20);
    assert!(velocity(&app, boid).x > 100.0);
    app.world_mut().entity_mut(boid).remove::<Seek>();
    app.world_mut()
        .entity_mut(boid)
        .insert(Velocity(Vector::ZERO));
    step(&mut app, 10);
    assert_eq!(
        velocity(&app, boid),
        Vector::ZERO,
        "no seek, no flocking: at rest"
    );
    app.world_mut().entity_mut(boid).insert(seek);
    step(&mut app, 20);
    assert!(velocity(&app, boid).x > 100.0);
    assert_eq!(boid_count(&mut app), 1);
}

/// An app whose boids ignore each other, with free edges, and its flock's bounds.
fn app_and_bounds() -> (App, Bounds) {
    let app = app_with(no_flocking());
    let bounds = app.world().resource::<FlockSettings>().config.bounds;
    (app, bounds)
}

#[test]
fn wall_avoidance_keeps_boids_inside_free_bounds_on_every_axis() {
    let (mut app, bounds) = app_and_bounds();
    let walls = AvoidWalls {
        look_ahead: 80.0,
        weight: 1.0,
    };
    let boids: Vec<Entity> = headings()
        .into_iter()
        .map(|heading| {
            let start = at(bounds.center() + heading * 50.0);
            // Wandering keeps them cruising: something must push them at the walls.
            let cruise = (Velocity(heading * 200.0), Wander::default());
            spawn_boid(&mut app, (VEHICLE, start, cruise, walls))
        })
        .collect();
    for _ in 0..600 {
        step(&mut app, 1);
        for &boid in &boids {
            let at = position(&app, boid);
            assert!(bounds.contains(at), "left at {at}");
        }
    }
}

#[test]
fn wall_avoidance_pushes_at_its_speed_past_the_force_limit() {
    // Seed 003 adds the wall push to the velocity after truncating the other steering: a
    // vehicle whose max force is tiny still turns at a wall within a frame or two.
    let (mut app, bounds) = app_and_bounds();
    let weak = MotionLimits {
        max_force: 1.0,
        ..VEHICLE
    };
    let walls = AvoidWalls {
        look_ahead: 50.0,
        weight: 1.0,
    };
    // One boid 30 from the high wall of each axis, flying at it.
    let boids: Vec<Entity> = Vector::AXES
        .into_iter()
        .enumerate()
        .map(|(axis, heading)| {
            let mut start = bounds.center();
            start[axis] = bounds.max[axis] - 30.0;
            spawn_boid(
                &mut app,
                (weak, at(start), Velocity(heading * 200.0), walls),
            )
        })
        .collect();
    step(&mut app, 1);
    // The probe 50 ahead is past the wall: one frame's push of max speed (200) cancels the
    // 200 units a second towards the wall.
    for (axis, boid) in boids.into_iter().enumerate() {
        let moving = velocity(&app, boid);
        assert!(moving[axis].abs() < 1e-3, "axis {axis}: {moving}");
    }
}

/// Six tanks of `group` in two rows of three on the ground, `spacing` apart from `corner`,
/// facing `facing`; their motion limits let the group drive them.
fn tanks(
    app: &mut App,
    (group, drive): (Entity, DriveParams),
    corner: Vector,
    spacing: f32,
    facing: Vector,
) -> Vec<Entity> {
    // Reversing reaches up to 8 times the speed.
    let limits = MotionLimits {
        max_speed: 8.0 * drive.move_speed,
        ..VEHICLE
    };
    (0..6)
        .map(|i| {
            let place = corner + level((i % 3) as f32, (i / 3) as f32) * spacing;
            let member = GroupMember::new(group, drive).facing(facing);
            spawn_boid(app, (limits, member, at(place)))
        })
        .collect()
}

/// Steps `app` `steps` times, checking at every step that each tank stays on the ground,
/// upright and facing its heading (also when it drives backwards), and that no heading turns
/// faster than `drive.rotate_speed`. Whether any tank ever drove backwards.
fn drive_tanks(app: &mut App, tanks: &[Entity], drive: DriveParams, steps: usize) -> bool {
    let heading = |app: &App, tank| app.world().get::<GroupMember>(tank).unwrap().state.heading;
    let mut reversed = false;
    for _ in 0..steps {
        let before: Vec<Vector> = tanks.iter().map(|&tank| heading(app, tank)).collect();
        let steps_before = app.world().resource::<FlockClock>().steps_taken();
        step(app, 1);
        // The fixed clock may fit two steps (or none) into one update now and then.
        let steps = app.world().resource::<FlockClock>().steps_taken() - steps_before;
        let max_turn = drive.rotate_speed / HZ as f32 * steps as f32 + 1e-4;
        for (&tank, previous) in tanks.iter().zip(before) {
            let now = heading(app, tank);
            if previous.length() > 1e-3 && now.length() > 1e-3 {
                let turned = angle_between(previous, now);
                assert!(turned <= max_turn, "turned {turned} in {steps} steps");
            }
            let place = position(app, tank);
            assert_eq!(on_the_ground(place), place, "off the ground");
            assert!(is_upright(app, tank), "{tank} tipped over");
            let faces = facing(app, tank);
            assert!(
                now.length() < 1e-3 || (faces - now).length() < 1e-3,
                "faces {faces}, heads {now}"
            );
            let member = app.world().get::<GroupMember>(tank).unwrap();
            reversed |= member.state.current_speed < 0.0 && velocity(app, tank).dot(now) < 0.0;
        }
    }
    reversed
}

/// Every tank within `within` of `target`, slower than `speed`, and no two piled up.
fn assert_stopped_apart(
    app: &App,
    tanks: &[Entity],
    target: Vector,
    within: f32,
    speed: f32,
    keep_distance: f32,
) {
    let positions: Vec<Vector> = tanks.iter().map(|&tank| position(app, tank)).collect();
    for (&tank, at) in tanks.iter().zip(&positions) {
        assert!(at.distance(target) < within, "{at}");
        let moving = velocity(app, tank);
        assert!(moving.length() < speed, "{moving}");
    }
    for (i, a) in positions.iter().enumerate() {
        for b in &positions[i + 1..] {
            assert!(a.distance(*b) > keep_distance * 0.2, "{a} and {b} piled up");
        }
    }
}

#[test]
fn tanks_drive_turning_no_faster_than_their_rate_and_the_group_stops_at_its_target() {
    let mut app = app_with(no_flocking());
    let target = level(200.0, 100.0);
    let params = GroupParams {
        keep_distance: 40.0,
        target_close_distance: 120.0,
        // Room for six tanks 40 apart inside the stop circle.
        stop_distance: 100.0,
        ..GroupParams::default()
    };
    let group = app.world_mut().spawn(BoidGroup { target, params }).id();
    let drive = DriveParams {
        move_speed: 80.0,
        rotate_speed: 2.0,
    };
    // Facing away from the target: they turn (at the full rate) and reverse first.
    let tanks = tanks(
        &mut app,
        (group, drive),
        level(-200.0, -100.0),
        25.0,
        level(-1.0, -0.2),
    );
    assert!(
        drive_tanks(&mut app, &tanks, drive, 1_800),
        "no tank ever reversed"
    );
    let within = params.stop_distance + params.keep_distance;
    assert_stopped_apart(&app, &tanks, target, within, 1.0, params.keep_distance);
}

#[test]
fn unity_tank_group_tanks_reach_the_target_and_stop_apart_turning_at_most_20_degrees_a_second() {
    // Seed 004's tank group in its own units: moveSpeed 5, rotateSpeed 20 degrees a second,
    // keepDistance 10, targetCloseDistance 20, weights 1.25 (target), 1 (keep), 0.8 (move), and
    // our stop distance of 15 (the seed's is lost).
    let params = GroupParams::default();
    let tank_group = (10.0, 1.0, 20.0, 1.25, 0.8, 15.0);
    assert_eq!(
        (
            params.keep_distance,
            params.keep_weight,
            params.target_close_distance,
            params.target_weight,
            params.move_weight,
            params.stop_distance
        ),
        tank_group
    );
    let drive = DriveParams::default();
    assert_eq!(drive.rotate_speed, 20f32.to_radians());
    let mut app = app_with(FlockConfig {
        separation_radius: 10.0,
        alignment_radius: 10.0,
        cohesion_radius: 10.0,
        ..no_flocking()
    });
    let target = level(40.0, 30.0);
    let group = app.world_mut().spawn(BoidGroup { target, params }).id();
    // Facing away from the target.
    let corner = level(-20.0, -20.0);
    let tanks = tanks(&mut app, (group, drive), corner, 6.0, level(0.0, -1.0));
    // After a minute: every tank inside the stop circle, at rest, and no two piled up.
    drive_tanks(&mut app, &tanks, drive, 60 * 60);
    assert_stopped_apart(
        &app,
        &tanks,
        target,
        params.stop_distance,
        0.1,
        params.keep_distance,
    );
}

#[test]
fn arrive_seeks_at_its_own_speed_below_the_max() {
    // Seed 003 seeks at `_speed` and caps at `_maxSpeed`: far from the target, an arriver with
    // its own speed cruises at it, not at its max speed.
    let mut app = app_with(no_flocking());
    let arriver = |speed| {
        let arrive = Arrive {
            target: Target::Point(xyz(5_000.0, 0.0, 5_000.0)),
            slow_radius: 100.0,
            weight: 1.0,
            speed,
        };
        (VEHICLE, arrive)
    };
    let slow = spawn_boid(&mut app, arriver(Some(50.0)));
    let fast = spawn_boid(&mut app, arriver(None));
    step(&mut app, 120);
    let slow_speed = velocity(&app, slow).length();
    assert!((slow_speed - 50.0).abs() < 1e-3, "{slow_speed}");
    assert!((velocity(&app, fast).length() - VEHICLE.max_speed).abs() < 1e-3);
}

#[test]
fn sight_flock_follows_the_document_through_the_plugin() {
    // Two boids; the one behind sees the one in front, which sees nothing. Zero flocking
    // weights: only seed 001's rules act.
    let mut app = app_with(no_flocking());
    let sight = SightFlock {
        params: SightParams {
            in_sight: 200.0,
            too_close: 60.0,
        },
        weight: 1.0,
    };
    let limits = MotionLimits {
        max_speed: 100.0,
        max_force: 1e6,
        mass: 1.0,
    };
    let (behind_velocity, ahead, ahead_velocity) = (
        xyz(50.0, 0.0, 0.0),
        xyz(100.0, 30.0, 40.0),
        xyz(0.0, 50.0, 20.0),
    );
    let behind = spawn_boid(&mut app, (limits, Velocity(behind_velocity), sight));
    let front = spawn_boid(
        &mut app,
        (limits, at(ahead), Velocity(ahead_velocity), sight),
    );
    step(&mut app, 1);
    // The front boid saw nobody: it keeps its velocity.
    assert_eq!(velocity(&app, front), ahead_velocity);
    // The one behind: seek the other at 100 units a second, and steer by the two velocities'
    // sum less its own, both as velocity changes per response time; one frame of it, then
    // the speed limit.
    let seek = ahead.normalize() * 100.0 - behind_velocity;
    let align = ahead_velocity;
    let expected = (behind_velocity + seek + align).clamp_length_max(100.0);
    let got = velocity(&app, behind);
    assert!((got - expected).length() < 1e-2, "{got} vs {expected}");
}

/// Mean unit heading of the boids of one species.
fn mean_heading(app: &mut App, kind: u32) -> Vector {
    let headings: Vec<Vector> = app
        .world_mut()
        .query::<(&Species, &Velocity)>()
        .iter(app.world())
        .filter(|(species, _)| species.0 == kind)
        .map(|(_, velocity)| velocity.0.normalize_or_zero())
        .collect();
    headings.iter().sum::<Vector>() / headings.len() as f32
}

/// The two kinds' headings: +x, and up (in 3D, up and in depth).
fn kind_headings() -> [Vector; 2] {
    [Vector::X, xyz(0.0, 1.0, 1.0).normalize()]
}

/// Two kinds interleaved on one spot, heading different ways, flocking by alignment only.
fn two_kinds(same_species: bool) -> App {
    let mut app = app_with(FlockConfig {
        weights: RuleWeights {
            separation: 0.0,
            alignment: 1.0,
            cohesion: 0.0,
        },
        ..FlockConfig::default()
    });
    let headings = kind_headings();
    for i in 0..40 {
        let kind = if same_species { 0 } else { i % 2 };
        let place = xyz((i % 8) as f32, (i / 8) as f32, (i % 3) as f32) * 4.0;
        let velocity = Velocity(headings[i as usize % 2] * 100.0);
        spawn_boid(&mut app, (Species(kind), at(place), velocity));
    }
    step(&mut app, 30);
    app
}

#[test]
fn species_do_not_flock_across_kinds() {
    let headings = kind_headings();
    let mut apart = two_kinds(false);
    for (kind, heading) in headings.into_iter().enumerate() {
        let mean = mean_heading(&mut apart, kind as u32);
        assert!(mean.dot(heading) > 0.99, "kind {kind}: {mean}");
    }
    // The same boids as one species align with each other: the test can tell the difference.
    let mut together = two_kinds(true);
    let mixed = mean_heading(&mut together, 0);
    let between = (headings[0] + headings[1]).normalize();
    assert!(mixed.normalize().dot(between) > 0.99, "{mixed}");
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
    // The prey on a spiral on the ground, the predator beside it (in 3D: in depth).
    let prey: Vec<Entity> = (0..12)
        .map(|i| {
            let (sin, cos) = (i as f32 * 0.5).sin_cos();
            let place = level(cos, sin) * (40.0 + i as f32 * 5.0);
            spawn_boid(&mut app, (Species(0), VEHICLE, at(place)))
        })
        .collect();
    let slower = MotionLimits {
        max_speed: 100.0,
        ..VEHICLE
    };
    let predator = spawn_boid(&mut app, (Species(1), slower, at(level(0.0, -150.0))));
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
    let chasing = velocity(&app, predator);
    assert!(chasing.dot(level(0.0, 1.0)) > 50.0, "{chasing}");
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
    let seek = Seek {
        target: Target::Point(xyz(0.0, 100.0, 100.0)),
        weight: f32::NAN,
    };
    let boid = spawn_boid(&mut app, (VEHICLE, Velocity(Vector::X * 10.0), seek));
    step(&mut app, 10);
    assert_eq!(velocity(&app, boid), Vector::X * 10.0);
    assert_eq!(boid_count(&mut app), 1);
}

#[test]
fn boids_steer_around_obstacle_entities() {
    // A box and a ball across the way along +x (in 3D off centre in depth).
    let mut app = app_with(no_flocking());
    let (box_centre, half_size) = (level(150.0, 5.0), xyz(20.0, 50.0, 30.0));
    let (ball_centre, radius) = (level(300.0, -5.0), 30.0);
    app.world_mut()
        .spawn((box_obstacle(half_size), at(box_centre)));
    app.world_mut()
        .spawn((ball_obstacle(radius), at(ball_centre)));
    let limits = MotionLimits {
        max_speed: 100.0,
        ..VEHICLE
    };
    let behaviours = seek_around_obstacles(Vector::X * 450.0);
    let boid = spawn_boid(&mut app, (limits, Velocity(Vector::X * 100.0), behaviours));
    let mut dodged = 0.0f32;
    for _ in 0..300 {
        step(&mut app, 1);
        let at = position(&app, boid);
        let in_box = ((at - box_centre).abs() - half_size).max_element() < 0.0;
        let in_ball = at.distance(ball_centre) < radius;
        assert!(!in_box && !in_ball, "went through an obstacle at {at}");
        dodged = dodged.max(at.with_x(0.0).length());
    }
    let end = position(&app, boid);
    assert!(end.x > 400.0, "stuck at {end}");
    assert!(dodged > 20.0, "never left the straight line");
}
