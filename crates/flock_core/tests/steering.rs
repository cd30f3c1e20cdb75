//! Steering behaviours over many steps: each test would fail if its behaviour broke.
//! `flock_core3d` runs the same cases in 3D (`[[test]] path` in its manifest), where targets,
//! threats and homes lie off the plane z = 0 and a group drives on the ground (x-z).

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::*;
use kernel::steering::{
    DriveState, GroupParams, WanderHome, WanderParams, WanderState, arrive, avoid_obstacles,
    avoid_walls, combine, drive, flee, group_direction, group_speed, level, limit_turn, pursue,
    seek, wander, wander_jitter,
};
use kernel::{Bounds, DIMENSIONS, Vector, random_direction, random_point, world_size};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

#[test]
fn arrive_stops_at_the_target_without_overshooting() {
    let target = xyz(300.0, 0.0, 150.0);
    let direction = target.normalize();
    let mut v = vehicle(Vector::ZERO, Vector::ZERO, 200.0);
    let mut furthest = f32::MIN;
    for _ in 0..600 {
        let force = arrive(&v, target, 150.0);
        step(&mut v, force);
        furthest = furthest.max(v.position.dot(direction));
    }
    assert!((v.position - target).length() < 0.5, "{}", v.position);
    assert!(v.velocity.length() < 0.5, "still moving at {}", v.velocity);
    assert!(furthest <= target.length() + 0.5, "overshot to {furthest}");

    // Plain seek overshoots the same target: the slow radius is what stops it.
    let mut seeker = vehicle(Vector::ZERO, Vector::ZERO, 200.0);
    let mut seek_furthest = f32::MIN;
    for _ in 0..600 {
        let force = seek(&seeker, target);
        step(&mut seeker, force);
        seek_furthest = seek_furthest.max(seeker.position.dot(direction));
    }
    assert!(
        seek_furthest > target.length() + 1.0,
        "seek reached only {seek_furthest}"
    );
}

#[test]
fn flee_increases_the_distance_from_the_threat() {
    let threat = xyz(10.0, 5.0, 8.0);
    let mut v = vehicle(Vector::ZERO, Vector::ZERO, 100.0);
    let mut distance = (v.position - threat).length();
    for _ in 0..30 {
        let force = flee(&v, threat, 100.0);
        step(&mut v, force);
        let now = (v.position - threat).length();
        assert!(now > distance - 1e-3, "{now} after {distance}");
        distance = now;
    }
    assert!(distance > 40.0, "only {distance} away");
}

#[test]
fn wander_stays_near_home_and_roams_it_along_every_axis() {
    let home = WanderHome {
        centre: xyz(50.0, -20.0, 30.0),
        radius: 200.0,
        pull_back_speed: 3000.0,
    };
    let params = WanderParams {
        home: Some(home),
        ..WanderParams::COCOS2D_DEMO
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut v = vehicle(home.centre, Vector::X * 100.0, 100.0);
    let mut state = WanderState::default();
    let (mut furthest, mut travelled, mut turned) = (0.0f32, 0.0, 0);
    let (mut lowest, mut highest) = (Vector::ZERO, Vector::ZERO);
    for _ in 0..20_000 {
        let force = wander(&v, &mut state, &params, wander_jitter(&mut rng));
        let (before, heading) = (v.position, v.velocity);
        step(&mut v, force);
        travelled += (v.position - before).length();
        let offset = v.position - home.centre;
        furthest = furthest.max(offset.length());
        (lowest, highest) = (lowest.min(offset), highest.max(offset));
        if angle_between(heading, v.velocity) > 1e-3 {
            turned += 1;
        }
    }
    // The margin is what full speed covers while turning back (a fraction of a second).
    assert!(
        furthest < home.radius + 60.0,
        "wandered {furthest} from home"
    );
    // It does wander: it leaves the middle and keeps moving in changing directions...
    assert!(furthest > home.radius * 0.8, "stayed within {furthest}");
    assert!(
        travelled > 20_000.0 * DT * 50.0,
        "travelled only {travelled}"
    );
    assert!(turned > 10_000, "turned in only {turned} steps");
    // ...both ways along every axis, not in a plane.
    let quarter = home.radius / 4.0;
    assert!(
        lowest.max_element() < -quarter && highest.min_element() > quarter,
        "{lowest} to {highest}"
    );
}

/// Steps until `chaser` is within `catch` of a target moving straight, or `None`.
fn steps_to_catch(use_prediction: bool) -> Option<usize> {
    let mut chaser = vehicle(xyz(0.0, -300.0, -150.0), Vector::ZERO, 150.0);
    let (mut target, target_velocity) = (xyz(-200.0, 0.0, 100.0), Vector::X * 100.0);
    for n in 0..2_000 {
        if (chaser.position - target).length() < 5.0 {
            return Some(n);
        }
        let force = if use_prediction {
            pursue(&chaser, target, target_velocity, 2.0)
        } else {
            seek(&chaser, target)
        };
        step(&mut chaser, force);
        target += target_velocity * DT;
    }
    None
}

#[test]
fn pursuit_closes_on_a_straight_moving_target_faster_than_seek() {
    let pursued = steps_to_catch(true).expect("pursuit never caught the target");
    let sought = steps_to_catch(false).expect("seek never caught the target");
    assert!(pursued < sought, "pursuit {pursued} steps, seek {sought}");
}

#[test]
fn wall_avoidance_keeps_vehicles_inside() {
    let bounds = Bounds::centered(world_size(800.0, 600.0));
    let start_area = Bounds::centered(world_size(700.0, 500.0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for _ in 0..20 {
        let position = random_point(&start_area, &mut rng);
        let velocity = random_direction(&mut rng) * 200.0;
        let mut v = vehicle(position, velocity, 200.0);
        for _ in 0..1_000 {
            // Cruising at full speed, only the walls turn it. The cocos2d-x crowd demo adds the walls' push to
            // the velocity after the rest of the steering is truncated.
            let walls = avoid_walls(&v, &bounds, 50.0, v.max_speed);
            let acceleration = combine(seek(&v, v.position + v.velocity), MAX_FORCE, MASS) + walls;
            v.velocity = (v.velocity + acceleration * DT).clamp_length_max(v.max_speed);
            v.position += v.velocity * DT;
            assert!(
                bounds.contains(v.position),
                "left the bounds at {}",
                v.position
            );
        }
    }
}

#[test]
fn walls_push_inwards_along_every_axis() {
    let bounds = Bounds::centered(Vector::splat(20.0));
    for axis in 0..DIMENSIONS {
        for sign in [1.0, -1.0] {
            let mut heading = Vector::ZERO;
            heading[axis] = sign;
            let me = vehicle(heading * 8.0, heading * 5.0, 10.0);
            let force = avoid_walls(&me, &bounds, 4.0, 3.0);
            assert!(
                force[axis] * sign < 0.0,
                "axis {axis}, sign {sign}: {force}"
            );
            assert_eq!(avoid_walls(&me, &bounds, 1.0, 3.0), Vector::ZERO);
        }
    }
}

#[test]
fn obstacle_avoidance_goes_around_balls_and_boxes() {
    let centre = xyz(200.0, 3.0, 3.0);
    let target = Vector::X * 400.0;
    let (closest, end) = seek_past(ball(centre, 40.0), |p| (p - centre).length() - 40.0);
    assert!(closest > 0.0, "came {closest} inside the ball");
    assert!((end - target).length() < 30.0, "ended at {end}");

    let half_size = xyz(20.0, 60.0, 60.0);
    let outside = |p: Vector| {
        let gap = (p - centre).abs() - half_size;
        gap.max(Vector::ZERO).length() + gap.max_element().min(0.0)
    };
    let (closest, end) = seek_past(aligned_box(centre, half_size), outside);
    assert!(closest > 0.0, "came {closest} inside the box");
    assert!((end - target).length() < 30.0, "ended at {end}");

    // Without avoidance the same path goes through both.
    let mut v = vehicle(Vector::ZERO, Vector::X * 100.0, 100.0);
    let mut crossed = false;
    for _ in 0..600 {
        let force = seek(&v, target);
        step(&mut v, force);
        crossed |= outside(v.position) < 0.0;
    }
    assert!(crossed);
    // And an obstacle beside the path pushes nobody.
    let aside = ball(centre + on_last_axis(100.0), 40.0);
    let me = vehicle(Vector::ZERO, Vector::X * 100.0, 100.0);
    assert_eq!(avoid_obstacles(&me, [&aside], 300.0, 10.0), Vector::ZERO);
}

#[test]
fn the_turn_rate_is_never_exceeded() {
    let (max_turn_rate, max_acceleration) = (1.5, 80.0);
    let most_per_step = max_turn_rate * DT;
    let wishes = Bounds::centered(Vector::splat(400.0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut velocity = Vector::X * 50.0;
    for step in 0..5_000 {
        // Wanting anywhere, often nearly straight back.
        let wanted = random_point(&wishes, &mut rng);
        let next = limit_turn(velocity, wanted, max_turn_rate, max_acceleration, DT);
        assert!(next.is_finite());
        if velocity != Vector::ZERO && next != Vector::ZERO {
            let turned = angle_between(velocity, next);
            assert!(
                turned <= most_per_step + 1e-5,
                "step {step}: turned {turned} rad"
            );
            // Within reach it turns all the way.
            if angle_between(velocity, wanted) <= most_per_step {
                assert!(angle_between(next, wanted) < 1e-3, "step {step}");
            }
        }
        let speed_change = (next.length() - velocity.length()).abs();
        assert!(
            speed_change <= max_acceleration * DT + 1e-3,
            "speed changed by {speed_change}"
        );
        velocity = next;
    }
    // Exactly opposite headings still turn, by the limit, one way or another.
    for axis in Vector::AXES {
        let turned = limit_turn(axis, -axis, max_turn_rate, 100.0, 0.1);
        assert!(
            (angle_between(axis, turned) - max_turn_rate * 0.1).abs() < 1e-4,
            "{axis}: {turned}"
        );
    }
}

#[test]
fn a_group_reaches_its_target_and_stops_apart() {
    let params = GroupParams {
        keep_distance: 40.0,
        target_close_distance: 120.0,
        // Room for eight tanks 40 apart inside the stop circle.
        stop_distance: 100.0,
        ..GroupParams::default()
    };
    let (move_speed, rotate_speed) = (80.0, 1.0);
    let target = level(500.0, 200.0);
    let mut positions: Vec<Vector> = (0..8)
        .map(|i| level((i % 4) as f32 * 30.0, (i / 4) as f32 * 30.0))
        .collect();
    // Facing away from the target: they must turn (and reverse) first.
    let mut states = vec![DriveState::facing(level(-1.0, 0.0)); positions.len()];
    let mut velocities = vec![Vector::ZERO; positions.len()];
    let mut slowest = 0.0f32;
    for _ in 0..3_600 {
        let (before_positions, before_states) = (positions.clone(), states.clone());
        for i in 0..positions.len() {
            // Every tank, itself included, as Unity's overlap query finds them.
            let tanks =
                (0..positions.len()).map(|j| (before_positions[j], before_states[j].movement));
            let direction = group_direction(before_positions[i], target, tanks, &params);
            let distance = (target - before_positions[i]).length();
            let state = &mut states[i];
            state.speed = group_speed(state.speed, distance, move_speed, &params, DT);
            let speed = state.speed;
            velocities[i] = drive(state, direction, speed, rotate_speed, DT);
            slowest = slowest.min(state.current_speed);
            positions[i] += velocities[i] * DT;
        }
    }
    for (position, velocity) in positions.iter().zip(&velocities) {
        assert!(
            (*position - target).length() < params.stop_distance + params.keep_distance,
            "{position}"
        );
        assert!(velocity.length() < 1.0, "still moving at {velocity}");
        assert_eq!(on_the_ground(*position), *position, "off the ground");
    }
    let closest_pair = (0..positions.len())
        .flat_map(|i| (i + 1..positions.len()).map(move |j| (i, j)))
        .map(|(i, j)| (positions[i] - positions[j]).length())
        .fold(f32::MAX, f32::min);
    // The seed's tanks stop wherever they are inside the stop circle (the speed eases to zero
    // whatever the push apart says), so they end apart, but not a keep distance apart.
    assert!(
        closest_pair > params.keep_distance * 0.2,
        "two members {closest_pair} apart"
    );
    assert!(slowest < 0.0, "no tank ever reversed");
}

#[test]
fn a_tank_drives_on_the_ground_and_turns_at_its_rate() {
    // Facing ahead on the ground (-z in 3D, Bevy's forward), the target ahead and to the right.
    let mut state = DriveState::facing(level(0.0, 1.0));
    let (rotate_speed, dt) = (20f32.to_radians(), 0.1);
    let target = level(30.0, 10.0);
    let mut position = Vector::ZERO;
    for _ in 0..300 {
        let before = state.heading;
        let velocity = drive(&mut state, target - position, 5.0, rotate_speed, dt);
        position += velocity * dt;
        assert_eq!(
            on_the_ground(state.heading),
            state.heading,
            "the heading stays on the ground"
        );
        assert!((state.heading.length() - 1.0).abs() < 1e-5);
        assert!(angle_between(before, state.heading) <= rotate_speed * dt + 1e-5);
    }
    assert!(position.distance(target) < 2.0, "{position}");
    assert!(on_the_ground(position).distance(position) < 1e-6);
}
