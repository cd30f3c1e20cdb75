//! One synchronous step of the kernel equals seed 002's formulas (the Unity port of Processing's
//! *Flocking*, second version) applied to the same snapshot, in the seed's per-frame units.

use flock_core::{
    Bounds, EdgeMode, Flock, FlockConfig, ForceLimit, IndexKind, RuleWeights, SpeedMode, Vector,
};

const MAX_SPEED: f32 = 0.02;
const MAX_FORCE: f32 = 0.001;
const DESIRED_SEPARATION: f32 = 0.4;
const NEIGHBOUR_DISTANCE: f32 = 0.8;

/// Seed 002, second version, in per-frame units: used with `dt = 1`.
fn seed_config(index: IndexKind) -> FlockConfig {
    FlockConfig {
        separation_radius: DESIRED_SEPARATION,
        alignment_radius: NEIGHBOUR_DISTANCE,
        cohesion_radius: NEIGHBOUR_DISTANCE,
        weights: RuleWeights {
            separation: 1.5,
            alignment: 1.0,
            cohesion: 1.0,
        },
        max_speed: MAX_SPEED,
        speed_mode: SpeedMode::Constant,
        max_force: MAX_FORCE,
        force_limit: ForceLimit::Rescale,
        // Per-tick units: the force is `desired - velocity`, as in the source documents.
        response_time: 1.0,
        mass: 1.0,
        view_angle_degrees: 360.0,
        edges: EdgeMode::Wrap,
        bounds: Bounds::centered(Vector::new(20.0, 10.0)),
        wrap_neighbours: false,
        index,
    }
}

/// Unity's `Vector3.normalized`: zero stays zero.
fn normalized(v: Vector) -> Vector {
    let length = v.length();
    if length > 1e-5 {
        v / length
    } else {
        Vector::ZERO
    }
}

/// `Boid.seek` of the seed.
fn seek(position: Vector, velocity: Vector, target: Vector) -> Vector {
    let desired = normalized(target - position) * MAX_SPEED;
    normalized(desired - velocity) * MAX_FORCE
}

/// `Boid.action` of the seed, written the way the seed writes it: absolute positions,
/// `diff.normalized / d`, one loop over every boid.
fn seed_action(me: usize, positions: &[Vector], velocities: &[Vector]) -> [Vector; 3] {
    let position = positions[me];
    let velocity = velocities[me];
    let mut steer = Vector::ZERO;
    let mut separation_count = 0;
    let mut alignment_sum = Vector::ZERO;
    let mut cohesion_sum = Vector::ZERO;
    let mut count = 0;
    for (other_position, other_velocity) in positions.iter().zip(velocities) {
        let d = position.distance(*other_position);
        if d > 0.0 && d < DESIRED_SEPARATION {
            steer += normalized(position - *other_position) / d;
            separation_count += 1;
        }
        if d > 0.0 && d < NEIGHBOUR_DISTANCE {
            alignment_sum += *other_velocity;
            cohesion_sum += *other_position;
            count += 1;
        }
    }
    if separation_count > 0 {
        steer /= separation_count as f32;
    }
    if steer.length() > 0.0 {
        steer = normalized(steer) * MAX_SPEED;
        steer -= velocity;
        steer = normalized(steer) * MAX_FORCE;
    }
    if count == 0 {
        return [steer, Vector::ZERO, Vector::ZERO];
    }
    alignment_sum /= count as f32;
    let alignment = normalized(normalized(alignment_sum) * MAX_SPEED - velocity) * MAX_FORCE;
    cohesion_sum /= count as f32;
    [steer, alignment, seek(position, velocity, cohesion_sum)]
}

/// `Boid.flock` + `update` + `borders` of the seed, every boid reading the same snapshot.
fn seed_step(positions: &[Vector], velocities: &[Vector]) -> (Vec<Vector>, Vec<Vector>) {
    let mut new_positions = Vec::new();
    let mut new_velocities = Vec::new();
    for me in 0..positions.len() {
        let [separation, alignment, cohesion] = seed_action(me, positions, velocities);
        let acceleration = separation * 1.5 + alignment + cohesion;
        let velocity = normalized(velocities[me] + acceleration) * MAX_SPEED;
        let mut position = positions[me] + velocity;
        if position.x < -10.0 {
            position.x = 10.0;
        }
        if position.y < -5.0 {
            position.y = 5.0;
        }
        if position.x > 10.0 {
            position.x = -10.0;
        }
        if position.y > 5.0 {
            position.y = -5.0;
        }
        new_positions.push(position);
        new_velocities.push(velocity);
    }
    (new_positions, new_velocities)
}

/// A small hand-made flock: a tight knot (separation), a looser ring (alignment and
/// cohesion only), two coincident boids, and a loner out of everyone's reach.
fn hand_made_state() -> (Vec<Vector>, Vec<Vector>) {
    let positions = vec![
        Vector::new(0.0, 0.0),
        Vector::new(0.25, 0.1),
        Vector::new(-0.2, 0.3),
        Vector::new(0.6, -0.3),
        Vector::new(-0.5, -0.5),
        Vector::new(-0.5, -0.5),
        Vector::new(1.0, 0.6),
        Vector::new(7.0, 3.0),
    ];
    let headings = [0.0f32, 0.4, 1.9, -2.5, 3.0, 0.7, 1.2, -0.3];
    let velocities = headings
        .iter()
        .map(|angle| Vector::from_angle(*angle) * MAX_SPEED)
        .collect();
    (positions, velocities)
}

fn assert_close(actual: &[Vector], expected: &[Vector], what: &str) {
    assert_eq!(actual.len(), expected.len());
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (*a - *e).length() <= 1e-7,
            "{what} of boid {i}: kernel {a}, seed {e}"
        );
    }
}

#[test]
fn one_step_matches_seed_002_with_every_index() {
    let (positions, velocities) = hand_made_state();
    let (expected_positions, expected_velocities) = seed_step(&positions, &velocities);
    for index in [IndexKind::BruteForce, IndexKind::KdTree, IndexKind::Grid] {
        let config = seed_config(index);
        let mut flock = Flock::new(positions.clone(), velocities.clone(), &config);
        flock.step(&config, 1.0);
        assert_close(flock.velocities(), &expected_velocities, "velocity");
        assert_close(flock.positions(), &expected_positions, "position");
    }
}

#[test]
fn the_hand_made_state_exercises_every_rule() {
    // Guards the test above against a state where some rule never fires.
    let (positions, velocities) = hand_made_state();
    let forces: Vec<[Vector; 3]> = (0..positions.len())
        .map(|me| seed_action(me, &positions, &velocities))
        .collect();
    for rule in 0..3 {
        assert!(
            forces.iter().any(|f| f[rule] != Vector::ZERO),
            "rule {rule} never fires"
        );
    }
    assert!(
        forces[7].iter().all(|f| *f == Vector::ZERO),
        "the loner has neighbours"
    );
}

#[test]
fn many_steps_stay_on_the_seed_trajectory() {
    // Thirty synchronous steps; small float differences must not grow into a different flock.
    let (mut positions, mut velocities) = hand_made_state();
    let config = seed_config(IndexKind::KdTree);
    let mut flock = Flock::new(positions.clone(), velocities.clone(), &config);
    for _ in 0..30 {
        (positions, velocities) = seed_step(&positions, &velocities);
        flock.step(&config, 1.0);
    }
    for (a, e) in flock.positions().iter().zip(&positions) {
        assert!((*a - *e).length() < 1e-5, "kernel {a}, seed {e}");
    }
}
