//! One synchronous step of the kernel equals the formulas of the Unity port of Processing's
//! *Flocking* (both versions) applied to the same snapshot, in the port's per-frame units:
//! Unity's `normalized` (zero at a magnitude of 1e-5 or less), the unit initial velocity, and
//! borders that jump to the opposite edge.

use flock_core::{
    Bounds, EdgeMode, Flock, FlockConfig, ForceLimit, IndexKind, Neighbours, RuleWeights,
    SpeedMode, Vector,
};

const MAX_SPEED: f32 = 0.02;
const MAX_FORCE: f32 = 0.001;
const DESIRED_SEPARATION: f32 = 0.4;
const NEIGHBOUR_DISTANCE: f32 = 0.8;

/// The Unity port's second version, in per-frame units: used with `dt = 1`.
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
        edges: EdgeMode::Jump,
        bounds: Bounds::centered(Vector::new(20.0, 10.0)),
        wrap_neighbours: false,
        index,
        neighbours: Neighbours::Metric,
    }
}

/// The kernel's own preset for the second version, in per-frame units, is the same flock.
#[test]
fn the_preset_is_the_seed_in_seconds() {
    let preset = FlockConfig::unity_port();
    let seed = seed_config(preset.index);
    assert_eq!(
        FlockConfig {
            max_speed: preset.max_speed / 60.0,
            max_force: preset.max_force / 3600.0,
            response_time: 1.0,
            ..preset
        },
        seed
    );
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

/// `Boid.borders` of the seed.
fn borders(mut position: Vector) -> Vector {
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
    position
}

/// `Boid.flock` + `update` + `borders` of the seed, every boid reading the same snapshot.
fn seed_step(positions: &[Vector], velocities: &[Vector]) -> (Vec<Vector>, Vec<Vector>) {
    let mut new_positions = Vec::new();
    let mut new_velocities = Vec::new();
    for me in 0..positions.len() {
        let [separation, alignment, cohesion] = seed_action(me, positions, velocities);
        let acceleration = separation * 1.5 + alignment + cohesion;
        let velocity = normalized(velocities[me] + acceleration) * MAX_SPEED;
        new_positions.push(borders(positions[me] + velocity));
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
fn one_step_matches_the_unity_port_with_every_index() {
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

/// The seed's first version: `separate`, `align` and `cohesion` each in a loop of their own,
/// max force 0.003, radii 0.75 / 1.1 / 1.1, weights 0.15 / 0.1 / 0.1.
mod first_version {
    use super::*;

    pub const MAX_FORCE: f32 = 0.003;

    fn seek(position: Vector, velocity: Vector, target: Vector) -> Vector {
        let desired = normalized(target - position) * MAX_SPEED;
        normalized(desired - velocity) * MAX_FORCE
    }

    fn separate(me: usize, positions: &[Vector], velocity: Vector) -> Vector {
        let mut steer = Vector::ZERO;
        let mut count = 0;
        for other in positions {
            let d = positions[me].distance(*other);
            if d > 0.0 && d < 0.75 {
                steer += normalized(positions[me] - *other) / d;
                count += 1;
            }
        }
        if count > 0 {
            steer /= count as f32;
        }
        if steer.length() > 0.0 {
            steer = normalized(steer) * MAX_SPEED - velocity;
            steer = normalized(steer) * MAX_FORCE;
        }
        steer
    }

    /// The mean of `values` over the boids less than `radius` from `me` (not on top of it),
    /// summed in the seed's order; `None` with no such boid.
    fn mean_within(
        me: usize,
        positions: &[Vector],
        values: &[Vector],
        radius: f32,
    ) -> Option<Vector> {
        let mut sum = Vector::ZERO;
        let mut count = 0;
        for (other, value) in positions.iter().zip(values) {
            let d = positions[me].distance(*other);
            if d > 0.0 && d < radius {
                sum += *value;
                count += 1;
            }
        }
        (count > 0).then(|| sum / count as f32)
    }

    fn align(me: usize, positions: &[Vector], velocities: &[Vector]) -> Vector {
        let Some(mean) = mean_within(me, positions, velocities, 1.1) else {
            return Vector::ZERO;
        };
        normalized(normalized(mean) * MAX_SPEED - velocities[me]) * MAX_FORCE
    }

    fn cohesion(me: usize, positions: &[Vector], velocity: Vector) -> Vector {
        mean_within(me, positions, positions, 1.1)
            .map_or(Vector::ZERO, |centre| seek(positions[me], velocity, centre))
    }

    pub fn step(positions: &[Vector], velocities: &[Vector]) -> (Vec<Vector>, Vec<Vector>) {
        let mut new_positions = Vec::new();
        let mut new_velocities = Vec::new();
        for me in 0..positions.len() {
            let acceleration = separate(me, positions, velocities[me]) * 0.15
                + align(me, positions, velocities) * 0.1
                + cohesion(me, positions, velocities[me]) * 0.1;
            let velocity = normalized(velocities[me] + acceleration) * MAX_SPEED;
            new_positions.push(borders(positions[me] + velocity));
            new_velocities.push(velocity);
        }
        (new_positions, new_velocities)
    }
}

#[test]
fn one_step_matches_the_first_version() {
    let preset = FlockConfig::unity_port_first();
    let config = FlockConfig {
        max_speed: MAX_SPEED,
        max_force: first_version::MAX_FORCE,
        response_time: 1.0,
        ..preset
    };
    assert!((preset.max_speed - MAX_SPEED * 60.0).abs() < 1e-6);
    assert!((preset.max_force - first_version::MAX_FORCE * 3600.0).abs() < 1e-4);
    let (positions, velocities) = hand_made_state();
    let (mut expected_positions, mut expected_velocities) = (positions.clone(), velocities.clone());
    let mut flock = Flock::new(positions, velocities, &config);
    for _ in 0..10 {
        (expected_positions, expected_velocities) =
            first_version::step(&expected_positions, &expected_velocities);
        flock.step(&config, 1.0);
    }
    assert_close(flock.velocities(), &expected_velocities, "velocity");
    for (a, e) in flock.positions().iter().zip(&expected_positions) {
        assert!((*a - *e).length() < 1e-6, "kernel {a}, seed {e}");
    }
}

#[test]
fn the_first_step_from_a_unit_velocity_matches_the_seed() {
    // The seed's `Boid` starts with `new Vector3(cos, sin)`: one unit per frame, 50 times max
    // speed, until the first `update` renormalises it. The forces of that first step see it.
    let (positions, velocities) = hand_made_state();
    let velocities: Vec<Vector> = velocities.iter().map(|v| *v / MAX_SPEED).collect();
    let (expected_positions, expected_velocities) = seed_step(&positions, &velocities);
    let config = seed_config(IndexKind::Grid);
    let mut flock = Flock::new(positions, velocities, &config);
    flock.step(&config, 1.0);
    assert_close(flock.velocities(), &expected_velocities, "velocity");
    assert_close(flock.positions(), &expected_positions, "position");
}

#[test]
fn a_nearly_satisfied_rule_gives_no_force_as_unity_normalized_does() {
    // Two boids 0.6 apart (alignment and cohesion, no separation) flying almost the same way:
    // `desired - velocity` for alignment is 0.02 * 1e-4 = 2e-6 < 1e-5, so Unity's `normalized`
    // gives zero and alignment adds nothing. Without the dead zone it would be a full-size force
    // (0.001, half of the speed change a step may make) in a near-random direction.
    let positions = vec![Vector::new(0.0, 0.0), Vector::new(0.0, 0.6)];
    let velocities = vec![
        Vector::from_angle(0.0) * MAX_SPEED,
        Vector::from_angle(1e-4) * MAX_SPEED,
    ];
    let [_, alignment, cohesion] = seed_action(0, &positions, &velocities);
    assert_eq!(alignment, Vector::ZERO);
    assert!(cohesion != Vector::ZERO);
    let (expected_positions, expected_velocities) = seed_step(&positions, &velocities);
    for index in [IndexKind::BruteForce, IndexKind::Grid] {
        let config = seed_config(index);
        let mut flock = Flock::new(positions.clone(), velocities.clone(), &config);
        flock.step(&config, 1.0);
        assert_close(flock.velocities(), &expected_velocities, "velocity");
        assert_close(flock.positions(), &expected_positions, "position");
    }
    // Over the dead zone's edge (2e-5 > 1e-5) the force is full size again.
    let turned = vec![velocities[0], Vector::from_angle(1e-3) * MAX_SPEED];
    let [_, alignment, _] = seed_action(0, &positions, &turned);
    assert!((alignment.length() - MAX_FORCE).abs() < 1e-9);
}

#[test]
fn borders_jump_to_the_opposite_edge() {
    // Boids about to cross each edge; far apart, so they have no neighbours.
    let positions = vec![
        Vector::new(9.995, 0.0),
        Vector::new(-9.995, 3.0),
        Vector::new(4.0, 4.995),
        Vector::new(-4.0, -4.995),
    ];
    let headings = [0.0f32, std::f32::consts::PI, 1.4, -1.7];
    let velocities: Vec<Vector> = headings
        .iter()
        .map(|angle| Vector::from_angle(*angle) * MAX_SPEED)
        .collect();
    let (expected_positions, _) = seed_step(&positions, &velocities);
    assert_eq!(expected_positions[0].x, -10.0);
    let config = seed_config(IndexKind::KdTree);
    let mut flock = Flock::new(positions, velocities, &config);
    flock.step(&config, 1.0);
    assert_close(flock.positions(), &expected_positions, "position");
}
