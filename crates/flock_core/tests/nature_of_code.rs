//! *The Nature of Code* (6.11, `separate()`): the kernel's separation equals the
//! document's formula on a small hand-made state, in the sketch's per-frame units.
//!
//! The document: for every other vehicle at a distance `0 < d < desiredseparation`, the unit
//! vector away from it divided by `d`, summed and averaged; the average set to `maxspeed` (the
//! desired velocity); `steer = desired - velocity`, limited to `maxforce`; applied as a force.
//! The vehicle's `update()` (not in the document) is Processing's usual one: velocity plus
//! acceleration, limited to `maxspeed`, then position plus velocity.

use flock_core::{Bounds, EdgeMode, Flock, FlockConfig, IndexKind, RuleWeights, Vector};

/// The document's first `desiredseparation`, pixels.
const DESIRED_SEPARATION: f32 = 20.0;
/// *The Nature of Code*'s vehicle (not numbers of this document).
const MAX_SPEED: f32 = 3.0;
const MAX_FORCE: f32 = 0.2;

/// Processing's `PVector.limit`.
fn limit(v: Vector, max: f32) -> Vector {
    if v.length_squared() > max * max {
        v.normalize() * max
    } else {
        v
    }
}

/// `separate(vehicles)` as the document writes it (example 6-7).
fn separate(me: usize, positions: &[Vector], velocity: Vector) -> Vector {
    let mut sum = Vector::ZERO;
    let mut count = 0;
    for other in positions {
        let d = positions[me].distance(*other);
        if d > 0.0 && d < DESIRED_SEPARATION {
            let diff = (positions[me] - *other).normalize() / d;
            sum += diff;
            count += 1;
        }
    }
    if count == 0 {
        return Vector::ZERO;
    }
    sum /= count as f32;
    // `sum.normalize(); sum.mult(maxspeed)`.
    let desired = sum.normalize() * MAX_SPEED;
    limit(desired - velocity, MAX_FORCE)
}

/// *The Nature of Code*'s flock in per-frame units (used with `dt = 1`): separation only, truncated.
fn config(index: IndexKind) -> FlockConfig {
    FlockConfig {
        separation_radius: DESIRED_SEPARATION,
        alignment_radius: DESIRED_SEPARATION,
        cohesion_radius: DESIRED_SEPARATION,
        weights: RuleWeights {
            separation: 1.0,
            alignment: 0.0,
            cohesion: 0.0,
        },
        max_speed: MAX_SPEED,
        max_force: MAX_FORCE,
        response_time: 1.0,
        edges: EdgeMode::Free,
        bounds: Bounds::centered(Vector::new(320.0, 240.0)),
        wrap_neighbours: false,
        index,
        ..FlockConfig::processing()
    }
}

/// A knot of five vehicles, a pair, and a loner, in the sketch's pixels.
fn hand_made_state() -> (Vec<Vector>, Vec<Vector>) {
    let knot = [
        (0.0, 0.0),
        (6.0, 2.0),
        (-4.0, 7.0),
        (3.0, -9.0),
        (-12.0, -3.0),
    ];
    let (pair, loner) = ([(60.0, 40.0), (75.0, 38.0)], (-100.0, 90.0));
    let positions = knot
        .into_iter()
        .chain(pair)
        .chain([loner])
        .map(Vector::from)
        .collect();
    let velocities = [0.3f32, 2.0, -1.1, 2.9, -2.4, 1.0, 0.0, 1.7]
        .iter()
        .enumerate()
        .map(|(i, angle)| Vector::from_angle(*angle) * (0.5 + 0.3 * i as f32))
        .collect();
    (positions, velocities)
}

#[test]
fn one_step_of_separation_matches_the_document() {
    let (positions, velocities) = hand_made_state();
    let forces: Vec<Vector> = (0..positions.len())
        .map(|me| separate(me, &positions, velocities[me]))
        .collect();
    // The state exercises the rule: every vehicle but the loner is pushed, some to the limit.
    assert!(forces[..7].iter().all(|f| *f != Vector::ZERO));
    assert_eq!(forces[7], Vector::ZERO);
    assert!(forces.iter().any(|f| (f.length() - MAX_FORCE).abs() < 1e-6));
    for index in [IndexKind::BruteForce, IndexKind::KdTree, IndexKind::Grid] {
        let config = config(index);
        let mut flock = Flock::new(positions.clone(), velocities.clone(), &config);
        flock.step(&config, 1.0);
        for me in 0..positions.len() {
            let velocity = limit(velocities[me] + forces[me], MAX_SPEED);
            let position = positions[me] + velocity;
            let (v, p) = (flock.velocities()[me], flock.positions()[me]);
            let off = (v - velocity).length().max((p - position).length());
            assert!(
                off < 1e-5,
                "{index:?} {me}: {v} at {p}, not {velocity} at {position}"
            );
        }
    }
}

#[test]
fn the_scene_preset_is_the_document_in_seconds() {
    // The scene shows the 320 x 240 sketch three times as large, at 60 steps a second.
    let scene = FlockConfig::nature_of_code(3.0);
    assert_eq!(scene.bounds.size(), Vector::new(960.0, 720.0));
    assert!((scene.separation_radius - DESIRED_SEPARATION * 3.0).abs() < 1e-4);
    assert!((scene.max_speed - MAX_SPEED * 60.0 * 3.0).abs() < 1e-3);
    assert!((scene.max_force - MAX_FORCE * 3600.0 * 3.0).abs() < 1e-2);
    assert!((scene.response_time - 1.0 / 60.0).abs() < 1e-9);
}
