//! The KD-tree gives the same neighbour sets and forces as brute force, the reference.

use flock_core::{
    AnyIndex, Bounds, EdgeMode, FlockConfig, IndexKind, NeighbourIndex, StepConstants, Vector,
    rule_forces,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

struct State {
    positions: Vec<Vector>,
    velocities: Vec<Vector>,
}

/// `count` boids uniformly in `area`, with random velocities up to `max_speed`.
fn random_state(count: usize, area: Bounds, max_speed: f32, seed: u64) -> State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let positions = (0..count)
        .map(|_| {
            Vector::new(
                rng.random_range(area.min.x..=area.max.x),
                rng.random_range(area.min.y..=area.max.y),
            )
        })
        .collect();
    let velocities = (0..count)
        .map(|_| Vector::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..max_speed))
        .collect();
    State {
        positions,
        velocities,
    }
}

/// Every boid's rule forces (and neighbour count) through an index of `kind`.
fn forces_with(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
) -> Vec<flock_core::RuleForces> {
    let constants = StepConstants::new(config);
    let mut index = AnyIndex::new(kind);
    index.rebuild(&state.positions, &constants.space);
    let mut candidates = Vec::new();
    (0..state.positions.len())
        .map(|me| {
            index.candidates(state.positions[me], constants.query_radius, &mut candidates);
            rule_forces(
                me,
                &state.positions,
                &state.velocities,
                &candidates,
                &constants,
            )
        })
        .collect()
}

fn assert_same_forces(config: &FlockConfig, state: &State, case: &str) {
    let brute = forces_with(IndexKind::BruteForce, config, state);
    let tree = forces_with(IndexKind::KdTree, config, state);
    let mut with_neighbours = 0;
    for (i, (b, t)) in brute.iter().zip(&tree).enumerate() {
        assert_eq!(
            b.neighbours, t.neighbours,
            "{case}: neighbour count of boid {i}"
        );
        for (rule, bf, tf) in [
            ("separation", b.separation, t.separation),
            ("alignment", b.alignment, t.alignment),
            ("cohesion", b.cohesion, t.cohesion),
        ] {
            assert!(
                (bf - tf).length() <= 1e-5 * config.max_force.max(1.0),
                "{case}: {rule} of boid {i}: brute {bf}, kd-tree {tf}"
            );
        }
        with_neighbours += usize::from(b.neighbours > 0);
    }
    // A test where nobody has neighbours would compare zeros with zeros.
    assert!(
        with_neighbours > state.positions.len() / 2,
        "{case}: too few boids with neighbours"
    );
}

#[test]
fn kd_tree_matches_brute_force_on_random_states() {
    let base = FlockConfig::default();
    let world = base.bounds;
    let corner = Bounds {
        min: world.min,
        max: world.min + world.size() * 0.1,
    };
    let cases = [
        (
            "uniform, plain distance",
            2_000,
            world,
            EdgeMode::Bounce,
            false,
            360.0,
        ),
        (
            "uniform, across the seams",
            2_000,
            world,
            EdgeMode::Wrap,
            true,
            360.0,
        ),
        (
            "clustered in a corner, across the seams",
            800,
            corner,
            EdgeMode::Wrap,
            true,
            360.0,
        ),
        (
            "clustered in a corner, plain",
            800,
            corner,
            EdgeMode::Wrap,
            false,
            360.0,
        ),
        (
            "field of view 180",
            2_000,
            world,
            EdgeMode::Wrap,
            true,
            180.0,
        ),
        (
            "field of view 270, bounce",
            2_000,
            world,
            EdgeMode::Bounce,
            true,
            270.0,
        ),
    ];
    for (seed, (case, count, area, edges, wrap_neighbours, view)) in cases.into_iter().enumerate() {
        let config = FlockConfig {
            edges,
            wrap_neighbours,
            view_angle_degrees: view,
            ..base
        };
        let state = random_state(count, area, config.max_speed, seed as u64);
        assert_same_forces(&config, &state, case);
    }
}

#[test]
fn kd_tree_matches_brute_force_when_the_radius_spans_the_world() {
    let config = FlockConfig {
        bounds: Bounds::centered(Vector::new(60.0, 40.0)),
        alignment_radius: 45.0,
        cohesion_radius: 70.0,
        ..FlockConfig::default()
    };
    let state = random_state(300, config.bounds, config.max_speed, 99);
    assert_same_forces(&config, &state, "radius wider than the world");
}

#[test]
fn kd_tree_candidates_are_a_superset_of_the_true_neighbours() {
    let config = FlockConfig::default();
    let constants = StepConstants::new(&config);
    let state = random_state(1_000, config.bounds, config.max_speed, 5);
    let mut index = AnyIndex::new(IndexKind::KdTree);
    index.rebuild(&state.positions, &constants.space);
    let mut candidates = Vec::new();
    for (me, position) in state.positions.iter().enumerate() {
        index.candidates(*position, constants.query_radius, &mut candidates);
        assert!(
            candidates.windows(2).all(|w| w[0] < w[1]),
            "sorted, no repeats"
        );
        for (other, other_position) in state.positions.iter().enumerate() {
            let distance = constants.space.delta(*position, *other_position).length();
            if distance < constants.query_radius {
                assert!(
                    candidates.contains(&(other as u32)),
                    "boid {me} misses {other}"
                );
            }
        }
    }
}

#[test]
fn an_empty_flock_has_no_candidates() {
    let constants = StepConstants::new(&FlockConfig::default());
    let mut candidates = vec![7];
    for kind in [IndexKind::KdTree, IndexKind::BruteForce] {
        let mut index = AnyIndex::new(kind);
        index.rebuild(&[], &constants.space);
        index.candidates(Vector::ZERO, 100.0, &mut candidates);
        assert!(candidates.is_empty());
    }
}
