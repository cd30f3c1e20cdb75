//! The ActionScript steering tutorial (chapter 10): one flock step of the document's
//! own rules, written as the document writes `flock()`, `inSight()` and `tooClose()`, equals
//! `steering::sight_flock` combined and integrated as the plugin does, in per-frame units.
//!
//! Not in the document, so the usual forms of its tutorial series: `seek` and `flee` are
//! Reynolds' (`desired - velocity` at max speed); `update` truncates the steering sum to the
//! max force once, divides by mass, adds it to the velocity, truncates that to the max speed and
//! moves. The distances and limits here are ours too (the document gives none).

use flock_core::steering::{SightParams, Vehicle, combine, sight_flock};
use flock_core::{FlockConfig, SpeedMode, Vector, limit_speed};

const IN_SIGHT: f32 = 200.0;
const TOO_CLOSE: f32 = 60.0;
const MAX_SPEED: f32 = 3.0;
const MAX_FORCE: f32 = 0.05;
const MASS: f32 = 1.0;

fn truncate(v: Vector, max: f32) -> Vector {
    if v.length() > max {
        v.normalize() * max
    } else {
        v
    }
}

fn seek(position: Vector, velocity: Vector, target: Vector) -> Vector {
    (target - position).normalize() * MAX_SPEED - velocity
}

fn flee(position: Vector, velocity: Vector, target: Vector) -> Vector {
    (position - target).normalize() * MAX_SPEED - velocity
}

/// `inSight(vehicle, distance)`.
fn in_sight(position: Vector, velocity: Vector, other: Vector, distance: f32) -> bool {
    if distance > IN_SIGHT {
        return false;
    }
    let heading = velocity.normalize();
    let difference = other - position;
    difference.dot(heading) >= 0.0
}

/// `flock(vehicles)` then `update()`, every vehicle reading the same snapshot.
fn document_step(positions: &[Vector], velocities: &[Vector]) -> Vec<(Vector, Vector)> {
    (0..positions.len())
        .map(|me| {
            let (position, velocity) = (positions[me], velocities[me]);
            let mut steer_force = Vector::ZERO;
            let mut average_velocity = velocity;
            let mut average_position = Vector::ZERO;
            let mut in_sight_count = 0;
            for i in 0..positions.len() {
                let dist = position.distance(positions[i]);
                if i != me && in_sight(position, velocity, positions[i], dist) {
                    average_velocity += velocities[i];
                    average_position += positions[i];
                    if dist < TOO_CLOSE {
                        steer_force += flee(position, velocity, positions[i]);
                    }
                    in_sight_count += 1;
                }
            }
            if in_sight_count > 0 {
                average_velocity /= in_sight_count as f32;
                average_position /= in_sight_count as f32;
                steer_force += seek(position, velocity, average_position);
                steer_force += average_velocity - velocity;
            }
            let velocity = truncate(
                velocity + truncate(steer_force, MAX_FORCE) / MASS,
                MAX_SPEED,
            );
            (position + velocity, velocity)
        })
        .collect()
}

/// A few vehicles in and out of each other's sight, some too close, one behind another, one
/// alone; velocities as the document draws them, each component in +-10 per frame.
fn hand_made_state() -> (Vec<Vector>, Vec<Vector>) {
    let positions = [
        (100.0, 100.0),
        (140.0, 110.0),
        (90.0, 250.0),
        (60.0, 95.0),
        (300.0, 160.0),
        (700.0, 500.0),
    ];
    let velocities = [
        (2.0, 0.5),
        (-9.5, 4.0),
        (1.0, -2.0),
        (0.5, 0.1),
        (-6.0, -7.5),
        (3.0, 8.0),
    ];
    let vectors = |pairs: [(f32, f32); 6]| pairs.map(Vector::from).to_vec();
    (vectors(positions), vectors(velocities))
}

#[test]
fn one_flock_step_matches_the_document() {
    let (positions, velocities) = hand_made_state();
    let expected = document_step(&positions, &velocities);
    let params = SightParams {
        in_sight: IN_SIGHT,
        too_close: TOO_CLOSE,
    };
    let config = FlockConfig {
        max_speed: MAX_SPEED,
        speed_mode: SpeedMode::Clamp { min_speed: 0.0 },
        ..FlockConfig::processing()
    };
    for me in 0..positions.len() {
        let vehicle = Vehicle {
            position: positions[me],
            velocity: velocities[me],
            max_speed: MAX_SPEED,
            response_time: 1.0,
        };
        let others = (0..positions.len())
            .filter(|&i| i != me)
            .map(|i| (positions[i], velocities[i]));
        let force = sight_flock(&vehicle, others, &params);
        let velocity = limit_speed(velocities[me] + combine(force, MAX_FORCE, MASS), &config);
        let position = positions[me] + velocity;
        let (expected_position, expected_velocity) = expected[me];
        assert!(
            (velocity - expected_velocity).length() < 1e-5,
            "{me}: {velocity} vs {expected_velocity}"
        );
        assert!(
            (position - expected_position).length() < 1e-4,
            "{me}: {position}"
        );
    }
    // The state exercises flee: vehicle 1 sees vehicle 0 ahead of it, 41 pixels away.
    let distance = positions[1].distance(positions[0]);
    assert!(in_sight(positions[1], velocities[1], positions[0], distance) && distance < TOO_CLOSE);
    // The loner has nobody in sight: its only change is the speed truncation.
    assert_eq!(expected[5].1, truncate(velocities[5], MAX_SPEED));
}

#[test]
fn the_average_velocity_counts_the_vehicle_itself_once_too_often() {
    // As written: the sum starts from the vehicle's own velocity, the divisor is the number of
    // others. One other moving the same way: the average is twice the velocity, so the steer
    // towards it is the velocity itself, not zero.
    let vehicle = Vehicle {
        position: Vector::ZERO,
        velocity: Vector::new(1.0, 0.0),
        max_speed: 1.0,
        response_time: 1.0,
    };
    let params = SightParams {
        in_sight: IN_SIGHT,
        too_close: 0.0,
    };
    // Seek (1, 0) - (1, 0) = 0 towards the other straight ahead; steer (2, 0) - (1, 0).
    let force = sight_flock(
        &vehicle,
        [(Vector::new(50.0, 0.0), Vector::new(1.0, 0.0))],
        &params,
    );
    assert_eq!(force, Vector::new(1.0, 0.0));
}
