//! Steering behaviours over many steps: each test would fail if its behaviour broke.

use flock_core::steering::{
    DriveState, GroupParams, Polygon, Shape, Vehicle, WanderHome, WanderParams, arrive,
    avoid_obstacles, avoid_walls, combine, drive, flee, group_direction, group_speed, limit_turn,
    pursue, seek, wander,
};
use flock_core::{Bounds, Vector};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const DT: f32 = 1.0 / 60.0;
const MAX_FORCE: f32 = 400.0;
const MASS: f32 = 1.0;

fn vehicle(position: Vector, velocity: Vector, max_speed: f32) -> Vehicle {
    Vehicle {
        position,
        velocity,
        max_speed,
        // One frame, the default: arrive is then critically damped or better (see `arrive`).
        response_time: DT,
    }
}

/// One Euler step as the plugin takes it: combine, `v += a dt`, clamp to max speed, move.
fn step(vehicle: &mut Vehicle, force: Vector) {
    let acceleration = combine(force, MAX_FORCE, MASS);
    vehicle.velocity = (vehicle.velocity + acceleration * DT).clamp_length_max(vehicle.max_speed);
    vehicle.position += vehicle.velocity * DT;
}

#[test]
fn arrive_stops_at_the_target_without_overshooting() {
    let target = Vector::new(300.0, 0.0);
    let mut v = vehicle(Vector::ZERO, Vector::ZERO, 200.0);
    let mut furthest = f32::MIN;
    for _ in 0..600 {
        let force = arrive(&v, target, 150.0);
        step(&mut v, force);
        furthest = furthest.max(v.position.x);
    }
    assert!((v.position - target).length() < 0.5, "{}", v.position);
    assert!(v.velocity.length() < 0.5, "still moving at {}", v.velocity);
    assert!(furthest <= target.x + 0.5, "overshot to {furthest}");

    // Plain seek overshoots the same target: the slow radius is what stops it.
    let mut seeker = vehicle(Vector::ZERO, Vector::ZERO, 200.0);
    let mut seek_furthest = f32::MIN;
    for _ in 0..600 {
        let force = seek(&seeker, target);
        step(&mut seeker, force);
        seek_furthest = seek_furthest.max(seeker.position.x);
    }
    assert!(
        seek_furthest > target.x + 1.0,
        "seek reached only {seek_furthest}"
    );
}

#[test]
fn flee_increases_the_distance_from_the_threat() {
    let threat = Vector::new(10.0, 5.0);
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
fn wander_stays_near_home() {
    let home = WanderHome {
        centre: Vector::new(50.0, -20.0),
        radius: 200.0,
        pull_back_speed: 3000.0,
    };
    let params = WanderParams {
        home: Some(home),
        ..WanderParams::SEED_003
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut v = vehicle(home.centre, Vector::new(100.0, 0.0), 100.0);
    let mut angle = 0.0;
    let (mut furthest, mut travelled) = (0.0f32, 0.0);
    let mut headings = Vec::new();
    for _ in 0..20_000 {
        let force = wander(&v, &mut angle, &params, rng.random_range(-0.5..=0.5));
        let before = v.position;
        step(&mut v, force);
        travelled += (v.position - before).length();
        furthest = furthest.max((v.position - home.centre).length());
        headings.push(v.velocity.to_angle());
    }
    // The margin is what full speed covers while turning back (a fraction of a second).
    assert!(
        furthest < home.radius + 60.0,
        "wandered {furthest} from home"
    );
    // It does wander: it leaves the middle and keeps moving in changing directions.
    assert!(furthest > home.radius * 0.8, "stayed within {furthest}");
    assert!(
        travelled > 20_000.0 * DT * 50.0,
        "travelled only {travelled}"
    );
    let turned = headings
        .windows(2)
        .filter(|w| (w[1] - w[0]).abs() > 1e-3)
        .count();
    assert!(turned > 10_000, "turned in only {turned} steps");
}

/// Steps until `chaser` is within `catch` of a target moving straight, or `None`.
fn steps_to_catch(use_prediction: bool) -> Option<usize> {
    let mut chaser = vehicle(Vector::new(0.0, -300.0), Vector::ZERO, 150.0);
    let (mut target, target_velocity) = (Vector::new(-200.0, 0.0), Vector::new(100.0, 0.0));
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
    let bounds = Bounds::centered(Vector::new(800.0, 600.0));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for _ in 0..20 {
        let position = Vector::new(
            rng.random_range(-350.0..350.0),
            rng.random_range(-250.0..250.0),
        );
        let velocity = Vector::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * 200.0;
        let mut v = vehicle(position, velocity, 200.0);
        for _ in 0..1_000 {
            // Cruising at full speed, only the walls turn it. Seed 003 adds the walls' push to
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

/// The closest a vehicle seeking past `obstacle` comes to its outline (negative: inside), and
/// where it ends.
fn seek_past(obstacle: Shape, outline_distance: impl Fn(Vector) -> f32) -> (f32, Vector) {
    let target = Vector::new(400.0, 0.0);
    let mut v = vehicle(Vector::ZERO, Vector::new(100.0, 0.0), 100.0);
    let mut closest = f32::MAX;
    for _ in 0..600 {
        let force = seek(&v, target) + 3.0 * avoid_obstacles(&v, [&obstacle], 120.0, 10.0);
        step(&mut v, force);
        closest = closest.min(outline_distance(v.position));
    }
    (closest, v.position)
}

#[test]
fn obstacle_avoidance_goes_around_circles_and_rectangles() {
    let centre = Vector::new(200.0, 3.0);
    let circle = Shape::Circle {
        centre,
        radius: 40.0,
    };
    let (closest, end) = seek_past(circle, |p| (p - centre).length() - 40.0);
    assert!(closest > 0.0, "came {closest} inside the circle");
    assert!(
        (end - Vector::new(400.0, 0.0)).length() < 30.0,
        "ended at {end}"
    );

    let half_size = Vector::new(20.0, 60.0);
    let rect = Shape::Rect { centre, half_size };
    let outside = |p: Vector| {
        let gap = (p - centre).abs() - half_size;
        gap.max(Vector::ZERO).length() + gap.max_element().min(0.0)
    };
    let (closest, end) = seek_past(rect, outside);
    assert!(closest > 0.0, "came {closest} inside the rectangle");
    assert!(
        (end - Vector::new(400.0, 0.0)).length() < 30.0,
        "ended at {end}"
    );

    // Without avoidance the same path goes through both.
    let mut v = vehicle(Vector::ZERO, Vector::new(100.0, 0.0), 100.0);
    let mut crossed = false;
    for _ in 0..600 {
        let force = seek(&v, Vector::new(400.0, 0.0));
        step(&mut v, force);
        crossed |= outside(v.position) < 0.0;
    }
    assert!(crossed);
}

#[test]
fn obstacle_avoidance_goes_around_rotated_rectangles_and_polygons() {
    // A 120 x 40 plank turned 60 degrees, across the path.
    let centre = Vector::new(200.0, 3.0);
    let rotation = glam::Mat2::from_angle(60f32.to_radians());
    let half_size = Vector::new(60.0, 20.0);
    let plank = Shape::RotatedRect {
        centre,
        half_size,
        rotation,
    };
    let outline = Polygon::rectangle(half_size)
        .unwrap()
        .placed(centre, Vector::from_angle(60f32.to_radians()));
    // Inside or not, by the polygon of the same outline; the distance to it from its edges.
    let distance = |outline: &Polygon| {
        let outline = outline.clone();
        move |p: Vector| {
            let gap = outline.nearest_edge(p).0.distance(p);
            if outline.contains(p) { -gap } else { gap }
        }
    };
    let (closest, end) = seek_past(plank, distance(&outline));
    assert!(closest > 0.0, "came {closest} inside the plank");
    assert!(
        (end - Vector::new(400.0, 0.0)).length() < 30.0,
        "ended at {end}"
    );

    // A concave arrowhead pointing at the vehicle.
    let arrow = Polygon::new([
        Vector::new(170.0, 0.0),
        Vector::new(240.0, -50.0),
        Vector::new(215.0, 0.0),
        Vector::new(240.0, 50.0),
    ])
    .unwrap();
    let (closest, end) = seek_past(Shape::Polygon(arrow.clone()), distance(&arrow));
    assert!(closest > 0.0, "came {closest} inside the arrowhead");
    assert!(
        (end - Vector::new(400.0, 0.0)).length() < 30.0,
        "ended at {end}"
    );
}

#[test]
fn the_turn_rate_is_never_exceeded() {
    let (max_turn_rate, max_acceleration) = (1.5, 80.0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut velocity = Vector::new(50.0, 0.0);
    for _ in 0..5_000 {
        let wanted = Vector::new(
            rng.random_range(-200.0..200.0),
            rng.random_range(-200.0..200.0),
        );
        let next = limit_turn(velocity, wanted, max_turn_rate, max_acceleration, DT);
        if velocity != Vector::ZERO && next != Vector::ZERO {
            let turned = velocity.angle_to(next).abs();
            assert!(
                turned <= max_turn_rate * DT + 1e-5,
                "turned {turned} rad in one step"
            );
        }
        let speed_change = (next.length() - velocity.length()).abs();
        assert!(
            speed_change <= max_acceleration * DT + 1e-3,
            "speed changed by {speed_change}"
        );
        velocity = next;
    }
}

#[test]
fn a_group_reaches_its_target_and_stops_apart() {
    let params = GroupParams {
        keep_distance: 40.0,
        keep_weight: 1.0,
        target_close_distance: 120.0,
        target_weight: 1.25,
        move_weight: 0.8,
        // Room for eight tanks 40 apart inside the stop circle.
        stop_distance: 100.0,
    };
    let (move_speed, rotate_speed) = (80.0, 1.0);
    let target = Vector::new(500.0, 200.0);
    let mut positions: Vec<Vector> = (0..8)
        .map(|i| Vector::new((i % 4) as f32 * 30.0, (i / 4) as f32 * 30.0))
        .collect();
    // Facing away from the target: they must turn (and reverse) first.
    let mut states = vec![DriveState::facing(Vector::new(-1.0, 0.0)); positions.len()];
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
