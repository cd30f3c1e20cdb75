//! Each flocking rule on a hand-computed case, and the edge cases around them.

use flock_core::{
    Bounds, EdgeMode, Flock, FlockConfig, ForceLimit, IndexKind, RuleWeights, SpeedMode,
    StepConstants, Vector, rule_forces,
};

/// Max speed 2, max force 10 (large, so no force is truncated), truncating, one radius per rule.
fn config(separation: f32, alignment: f32, cohesion: f32) -> FlockConfig {
    FlockConfig {
        separation_radius: separation,
        alignment_radius: alignment,
        cohesion_radius: cohesion,
        max_speed: 2.0,
        max_force: 10.0,
        force_limit: ForceLimit::Truncate,
        // Per-tick units: the force is `desired - velocity`, as in the source documents.
        response_time: 1.0,
        edges: EdgeMode::Free,
        bounds: Bounds::centered(Vector::splat(100.0)),
        ..FlockConfig::default()
    }
}

/// Rule forces on boid 0, every other boid a candidate.
fn forces_on_first(
    config: &FlockConfig,
    positions: &[Vector],
    velocities: &[Vector],
) -> flock_core::RuleForces {
    let candidates: Vec<u32> = (0..positions.len() as u32).collect();
    rule_forces(
        0,
        positions,
        velocities,
        &candidates,
        &StepConstants::new(config),
    )
}

fn assert_near(actual: Vector, expected: Vector) {
    assert!(
        (actual - expected).length() < 1e-5,
        "got {actual}, expected {expected}"
    );
}

#[test]
fn separation_steers_away_at_max_speed() {
    // Neighbours at (1, 0) and (0, 2): away vectors (-1, 0) / 1 and (0, -1) / 2, averaged:
    // (-0.5, -0.25); desired = that direction at speed 2; steer = desired - velocity.
    let positions = [Vector::ZERO, Vector::new(1.0, 0.0), Vector::new(0.0, 2.0)];
    let velocities = [Vector::new(1.0, 0.0), Vector::ZERO, Vector::ZERO];
    let forces = forces_on_first(&config(3.0, 0.0, 0.0), &positions, &velocities);
    let desired = Vector::new(-0.5, -0.25).normalize() * 2.0;
    assert_near(forces.separation, desired - Vector::new(1.0, 0.0));
    assert_eq!(forces.alignment, Vector::ZERO);
    assert_eq!(forces.cohesion, Vector::ZERO);
    assert_eq!(forces.neighbours, 2);
}

#[test]
fn alignment_steers_towards_the_average_heading() {
    // Neighbour velocities (0, 1) and (0, 3): average (0, 2), at max speed (0, 2),
    // minus own velocity (1, 0).
    let positions = [Vector::ZERO, Vector::new(1.0, 1.0), Vector::new(-1.0, 1.0)];
    let velocities = [
        Vector::new(1.0, 0.0),
        Vector::new(0.0, 1.0),
        Vector::new(0.0, 3.0),
    ];
    let forces = forces_on_first(&config(0.0, 5.0, 0.0), &positions, &velocities);
    assert_near(forces.alignment, Vector::new(-1.0, 2.0));
    assert_eq!(forces.separation, Vector::ZERO);
}

#[test]
fn cohesion_seeks_the_average_position() {
    // Neighbours at (2, 0) and (0, 2): centre (1, 1); desired (sqrt 2, sqrt 2).
    let positions = [Vector::ZERO, Vector::new(2.0, 0.0), Vector::new(0.0, 2.0)];
    let velocities = [Vector::new(1.0, 0.0), Vector::ZERO, Vector::ZERO];
    let forces = forces_on_first(&config(0.0, 0.0, 5.0), &positions, &velocities);
    let root_two = 2.0f32.sqrt();
    assert_near(forces.cohesion, Vector::new(root_two - 1.0, root_two));
}

#[test]
fn radii_are_strict_and_per_rule() {
    // A neighbour at exactly the separation radius does not count for it (d < radius).
    let positions = [Vector::ZERO, Vector::new(3.0, 0.0)];
    let velocities = [Vector::new(1.0, 0.0), Vector::new(0.0, 1.0)];
    let forces = forces_on_first(&config(3.0, 4.0, 2.0), &positions, &velocities);
    assert_eq!(forces.separation, Vector::ZERO);
    assert_ne!(forces.alignment, Vector::ZERO);
    assert_eq!(forces.cohesion, Vector::ZERO);
}

#[test]
fn weights_scale_each_rule() {
    let positions = [Vector::ZERO, Vector::new(1.0, 0.0)];
    let velocities = [Vector::new(0.0, 1.0), Vector::new(0.0, -1.0)];
    let forces = forces_on_first(&config(5.0, 5.0, 5.0), &positions, &velocities);
    let weights = RuleWeights {
        separation: 2.0,
        alignment: 0.0,
        cohesion: 0.5,
    };
    assert_near(
        forces.weighted(&weights),
        forces.separation * 2.0 + forces.cohesion * 0.5,
    );
}

#[test]
fn force_limits_apply_per_rule() {
    let positions = [Vector::ZERO, Vector::new(1.0, 0.0)];
    let velocities = [Vector::new(1.0, 0.0), Vector::ZERO];
    let mut truncated = config(0.0, 0.0, 5.0);
    truncated.max_force = 0.5;
    // Desired (2, 0) - velocity (1, 0) = (1, 0), truncated to 0.5.
    assert_near(
        forces_on_first(&truncated, &positions, &velocities).cohesion,
        Vector::new(0.5, 0.0),
    );
    let mut rescaled = truncated;
    rescaled.max_force = 3.0;
    rescaled.force_limit = ForceLimit::Rescale;
    // Rescale lengthens the short force to exactly 3.
    assert_near(
        forces_on_first(&rescaled, &positions, &velocities).cohesion,
        Vector::new(3.0, 0.0),
    );
}

#[test]
fn field_of_view_ignores_neighbours_behind() {
    // Heading +x; one neighbour ahead-left at 45 degrees, one behind.
    let positions = [Vector::ZERO, Vector::new(1.0, 1.0), Vector::new(-1.0, 0.0)];
    let velocities = [Vector::new(1.0, 0.0), Vector::ZERO, Vector::ZERO];
    let mut half_plane = config(0.0, 0.0, 5.0);
    half_plane.view_angle_degrees = 180.0;
    let forces = forces_on_first(&half_plane, &positions, &velocities);
    assert_eq!(forces.neighbours, 1);
    let root_two = 2.0f32.sqrt();
    assert_near(forces.cohesion, Vector::new(root_two - 1.0, root_two));

    let mut narrow = half_plane;
    narrow.view_angle_degrees = 60.0;
    assert_eq!(
        forces_on_first(&narrow, &positions, &velocities).neighbours,
        0
    );

    let mut all_round = half_plane;
    all_round.view_angle_degrees = 360.0;
    assert_eq!(
        forces_on_first(&all_round, &positions, &velocities).neighbours,
        2
    );
}

#[test]
fn coincident_boids_give_finite_forces() {
    // The Unity port of Processing's *Flocking*, second version, spawns every boid at the same point.
    for index in [IndexKind::BruteForce, IndexKind::KdTree, IndexKind::Grid] {
        let config = FlockConfig {
            index,
            ..FlockConfig::unity_port()
        };
        let velocities: Vec<Vector> = (0..50)
            .map(|i| Vector::from_angle(i as f32) * config.max_speed)
            .collect();
        let mut flock = Flock::new(vec![Vector::ZERO; 50], velocities, &config);
        flock.step(&config, 1.0 / 60.0);
        assert!(flock.forces().iter().all(|f| f.is_finite()));
        for _ in 0..100 {
            flock.step(&config, 1.0 / 60.0);
        }
        assert!(flock.positions().iter().all(|p| p.is_finite()));
        assert!(flock.velocities().iter().all(|v| v.is_finite()));
        // Once they have moved apart, separation pushes them further apart.
        let spread = flock
            .positions()
            .iter()
            .map(|p| p.length())
            .fold(0.0, f32::max);
        assert!(spread > 0.1, "boids stayed piled up: {spread}");
    }
}

#[test]
fn a_flock_crossing_the_seam_stays_one_flock() {
    // Two boids one unit apart across the right edge of a 20 x 10 world.
    let positions = [Vector::new(9.5, 0.0), Vector::new(-9.5, 0.0)];
    let velocities = [Vector::new(0.0, 1.0), Vector::new(0.0, 1.0)];
    let mut wrapped = config(0.0, 0.0, 2.0);
    wrapped.edges = EdgeMode::Wrap;
    wrapped.bounds = Bounds::centered(Vector::new(20.0, 10.0));
    wrapped.wrap_neighbours = true;
    let forces = forces_on_first(&wrapped, &positions, &velocities);
    assert_eq!(forces.neighbours, 1);
    // Cohesion pulls towards +x, across the seam, not back across the whole world.
    assert!(forces.cohesion.x > 0.0, "{}", forces.cohesion);

    let mut seeds_way = wrapped;
    seeds_way.wrap_neighbours = false;
    assert_eq!(
        forces_on_first(&seeds_way, &positions, &velocities).neighbours,
        0
    );
}

#[test]
fn mass_divides_the_force() {
    let positions = vec![Vector::ZERO, Vector::new(1.0, 0.0)];
    let velocities = vec![Vector::new(0.0, 1.0), Vector::new(0.0, 1.0)];
    let mut light = config(0.0, 0.0, 5.0);
    light.speed_mode = SpeedMode::Clamp { min_speed: 0.0 };
    let heavy = FlockConfig { mass: 4.0, ..light };
    let mut a = Flock::new(positions.clone(), velocities.clone(), &light);
    let mut b = Flock::new(positions, velocities, &heavy);
    a.step(&light, 0.1);
    b.step(&heavy, 0.1);
    let change_light = a.velocities()[0] - Vector::new(0.0, 1.0);
    let change_heavy = b.velocities()[0] - Vector::new(0.0, 1.0);
    assert!(change_light.length() > 0.0);
    assert_near(change_heavy * 4.0, change_light);
}

#[test]
fn steps_keep_boids_in_bounds_and_speeds_in_range() {
    for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
        let config = FlockConfig {
            edges,
            speed_mode: SpeedMode::Clamp { min_speed: 30.0 },
            ..FlockConfig::default()
        };
        let mut flock = Flock::random(500, &config, 3);
        for _ in 0..300 {
            flock.step(&config, 1.0 / 30.0);
        }
        for (p, v) in flock.positions().iter().zip(flock.velocities()) {
            assert!(config.bounds.contains(*p), "{edges:?}: {p} left the bounds");
            let speed = v.length();
            assert!(
                (29.99..=config.max_speed + 1e-3).contains(&speed),
                "speed {speed}"
            );
        }
    }
}
