//! The KD-tree gives the same neighbour sets and forces as brute force, the reference.

use flock_core::{
    AnyIndex, Bounds, EdgeMode, Executor, FlockConfig, IndexKind, NeighbourIndex, NeighbourStats,
    ScopedThreads, Serial, StepConstants, Vector, rule_forces,
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

/// An index of `kind` built over the state, and the step's constants.
fn built_index(kind: IndexKind, config: &FlockConfig, state: &State) -> (AnyIndex, StepConstants) {
    let constants = StepConstants::new(config);
    let mut index = AnyIndex::new(kind);
    index.rebuild(
        &state.positions,
        &constants.space,
        constants.query_radius,
        &Serial,
    );
    (index, constants)
}

/// Every boid's rule forces (and neighbour count) through an index of `kind`.
fn forces_with(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
) -> Vec<flock_core::RuleForces> {
    let (index, constants) = built_index(kind, config, state);
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

/// The largest weighted force a boid can feel: every rule at max force.
fn weighted_force_scale(config: &FlockConfig) -> f32 {
    let weights = config.weights;
    config.max_force * (weights.separation.abs() + weights.alignment.abs() + weights.cohesion.abs())
}

/// Every boid's weighted force through the full path of an index of `kind`.
fn weighted_forces(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
    executor: &impl Executor,
) -> (Vec<Vector>, NeighbourStats) {
    let (mut index, constants) = built_index(kind, config, state);
    let weights = vec![config.weights; state.positions.len()];
    let mut forces = vec![Vector::NAN; state.positions.len()];
    let stats = index.compute_forces(
        &constants,
        &state.positions,
        &state.velocities,
        &weights,
        &mut forces,
        executor,
    );
    (forces, stats)
}

/// The KD-tree's and the grid's candidates give brute force's neighbour sets and rule forces,
/// and their full paths (the grid's vectorised one included) its weighted forces, within
/// `relative_tolerance` of the force scale (max force for one rule, every rule at max force
/// for the weighted sum).
fn assert_same_forces(config: &FlockConfig, state: &State, case: &str, relative_tolerance: f32) {
    let tolerance = relative_tolerance * config.max_force;
    let weighted_tolerance = relative_tolerance * weighted_force_scale(config);
    let brute = forces_with(IndexKind::BruteForce, config, state);
    for kind in [IndexKind::KdTree, IndexKind::Grid] {
        let other = forces_with(kind, config, state);
        for (i, (b, o)) in brute.iter().zip(&other).enumerate() {
            assert_eq!(
                b.neighbours, o.neighbours,
                "{case}: {kind:?}: neighbours of boid {i}"
            );
            for (rule, bf, of) in [
                ("separation", b.separation, o.separation),
                ("alignment", b.alignment, o.alignment),
                ("cohesion", b.cohesion, o.cohesion),
            ] {
                assert!(
                    (bf - of).length() <= tolerance,
                    "{case}: {kind:?}: {rule} of boid {i}: brute {bf}, other {of}"
                );
            }
        }
    }

    let (reference, reference_stats) =
        weighted_forces(IndexKind::BruteForce, config, state, &Serial);
    for kind in [IndexKind::KdTree, IndexKind::Grid] {
        let (forces, stats) = weighted_forces(kind, config, state, &ScopedThreads(2));
        assert_eq!(
            stats.neighbours, reference_stats.neighbours,
            "{case}: {kind:?}"
        );
        for (i, (r, f)) in reference.iter().zip(&forces).enumerate() {
            assert!(
                (*r - *f).length() <= weighted_tolerance,
                "{case}: {kind:?}: force of boid {i}: brute {r}, other {f}"
            );
        }
    }

    // A test where nobody has neighbours would compare zeros with zeros.
    let with_neighbours = brute.iter().filter(|b| b.neighbours > 0).count();
    assert!(
        with_neighbours > state.positions.len() / 2,
        "{case}: too few boids with neighbours"
    );
}

struct Case {
    name: &'static str,
    count: usize,
    area: Bounds,
    edges: EdgeMode,
    wrap_neighbours: bool,
    view_angle_degrees: f32,
    relative_tolerance: f32,
}

#[test]
fn grid_and_kd_tree_match_brute_force_on_random_states() {
    let base = FlockConfig::default();
    let world = base.bounds;
    let corner = Bounds {
        min: world.min,
        max: world.min + world.size() * 0.1,
    };
    // In a dense cluster (hundreds of neighbours each) the rule sums nearly cancel, so the
    // force's direction is ill-conditioned: f32 sums in another order (the grid's lanes against
    // the reference's f64 sums) differ by slightly more than 1e-5 of the force scale there.
    // Uniform states agree within 1e-5.
    const UNIFORM: f32 = 1e-5;
    const DENSE: f32 = 3e-5;
    let case =
        |name, count, area, edges, wrap_neighbours, view_angle_degrees, relative_tolerance| Case {
            name,
            count,
            area,
            edges,
            wrap_neighbours,
            view_angle_degrees,
            relative_tolerance,
        };
    let cases = [
        case(
            "uniform, plain distance",
            2_000,
            world,
            EdgeMode::Bounce,
            false,
            360.0,
            UNIFORM,
        ),
        case(
            "uniform, across the seams",
            2_000,
            world,
            EdgeMode::Wrap,
            true,
            360.0,
            UNIFORM,
        ),
        case(
            "clustered in a corner, across the seams",
            800,
            corner,
            EdgeMode::Wrap,
            true,
            360.0,
            DENSE,
        ),
        case(
            "clustered in a corner, plain",
            800,
            corner,
            EdgeMode::Wrap,
            false,
            360.0,
            DENSE,
        ),
        case(
            "field of view 180",
            2_000,
            world,
            EdgeMode::Wrap,
            true,
            180.0,
            UNIFORM,
        ),
        case(
            "field of view 270, bounce",
            2_000,
            world,
            EdgeMode::Bounce,
            true,
            270.0,
            UNIFORM,
        ),
    ];
    for (seed, case) in cases.into_iter().enumerate() {
        let config = FlockConfig {
            edges: case.edges,
            wrap_neighbours: case.wrap_neighbours,
            view_angle_degrees: case.view_angle_degrees,
            ..base
        };
        let state = random_state(case.count, case.area, config.max_speed, seed as u64);
        assert_same_forces(&config, &state, case.name, case.relative_tolerance);
    }
}

#[test]
fn indexes_match_brute_force_when_the_radius_spans_the_world() {
    let config = FlockConfig {
        bounds: Bounds::centered(Vector::new(60.0, 40.0)),
        alignment_radius: 45.0,
        cohesion_radius: 70.0,
        ..FlockConfig::default()
    };
    let state = random_state(300, config.bounds, config.max_speed, 99);
    assert_same_forces(&config, &state, "radius wider than the world", 1e-5);
}

#[test]
fn kd_tree_candidates_are_a_superset_of_the_true_neighbours() {
    let config = FlockConfig::default();
    let constants = StepConstants::new(&config);
    let state = random_state(1_000, config.bounds, config.max_speed, 5);
    let mut index = AnyIndex::new(IndexKind::KdTree);
    index.rebuild(
        &state.positions,
        &constants.space,
        constants.query_radius,
        &Serial,
    );
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
    for kind in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
        let mut index = AnyIndex::new(kind);
        index.rebuild(&[], &constants.space, constants.query_radius, &Serial);
        index.candidates(Vector::ZERO, 100.0, &mut candidates);
        assert!(candidates.is_empty());
    }
}

#[test]
fn free_edges_with_boids_far_outside_the_bounds() {
    // With free edges the grid covers where the boids are, not the bounds.
    let config = FlockConfig {
        edges: EdgeMode::Free,
        ..FlockConfig::default()
    };
    let far = Bounds {
        min: Vector::new(5_000.0, -3_000.0),
        max: Vector::new(5_600.0, -2_700.0),
    };
    let state = random_state(1_500, far, config.max_speed, 11);
    assert_same_forces(&config, &state, "free edges, far away", 1e-5);
}

#[test]
fn the_thread_count_does_not_change_a_single_bit() {
    let config = FlockConfig::default();
    let state = random_state(5_000, config.bounds, config.max_speed, 21);
    for kind in [IndexKind::Grid, IndexKind::KdTree] {
        let (serial, _) = weighted_forces(kind, &config, &state, &Serial);
        for threads in [2, 3, 7] {
            let (parallel, _) = weighted_forces(kind, &config, &state, &ScopedThreads(threads));
            let bits = |forces: &[Vector]| -> Vec<[u32; 2]> {
                forces
                    .iter()
                    .map(|f| [f.x.to_bits(), f.y.to_bits()])
                    .collect()
            };
            assert_eq!(
                bits(&serial),
                bits(&parallel),
                "{kind:?} with {threads} threads"
            );
        }
    }
}

#[test]
fn every_lane_width_gives_the_same_forces() {
    use flock_core::index::{Grid, Lanes};
    // The processor picks the widest lanes it has; the narrower ones must agree with them and
    // with brute force. (Lanes this processor lacks are skipped and named.)
    let config = FlockConfig {
        view_angle_degrees: 270.0,
        ..FlockConfig::default()
    };
    let state = random_state(3_000, config.bounds, config.max_speed, 31);
    let constants = StepConstants::new(&config);
    let weights = vec![config.weights; state.positions.len()];
    let (reference, reference_stats) =
        weighted_forces(IndexKind::BruteForce, &config, &state, &Serial);
    let mut grid = Grid::default();
    grid.rebuild(
        &state.positions,
        &constants.space,
        constants.query_radius,
        &Serial,
    );
    let mut checked = Vec::new();
    for lanes in [Lanes::Sse, Lanes::Avx, Lanes::Avx512] {
        let mut forces = vec![Vector::NAN; state.positions.len()];
        let Some(stats) = grid.compute_forces_on_lanes(
            lanes,
            &constants,
            &state.positions,
            &state.velocities,
            &weights,
            &mut forces,
            &ScopedThreads(2),
        ) else {
            eprintln!("{lanes:?} lanes: not on this processor, not checked");
            continue;
        };
        assert_eq!(stats.neighbours, reference_stats.neighbours, "{lanes:?}");
        for (i, (r, f)) in reference.iter().zip(&forces).enumerate() {
            assert!(
                (*r - *f).length() <= 1e-5 * weighted_force_scale(&config),
                "{lanes:?}: boid {i}: brute {r}, grid {f}"
            );
        }
        checked.push(lanes);
    }
    assert!(checked.contains(&Lanes::Sse));
}

#[test]
fn a_grid_rebuilt_over_another_flock_matches_brute_force() {
    // A rebuild lists boids in the previous build's order; it must not matter what that was.
    let config = FlockConfig::default();
    let constants = StepConstants::new(&config);
    let mut grid = AnyIndex::new(IndexKind::Grid);
    for (seed, count) in [(41, 2_000), (42, 2_000), (43, 1_500), (44, 1_500)] {
        let state = random_state(count, config.bounds, config.max_speed, seed);
        grid.rebuild(
            &state.positions,
            &constants.space,
            constants.query_radius,
            &Serial,
        );
        let weights = vec![config.weights; count];
        let mut forces = vec![Vector::NAN; count];
        grid.compute_forces(
            &constants,
            &state.positions,
            &state.velocities,
            &weights,
            &mut forces,
            &Serial,
        );
        let (reference, _) = weighted_forces(IndexKind::BruteForce, &config, &state, &Serial);
        for (i, (r, f)) in reference.iter().zip(&forces).enumerate() {
            assert!(
                (*r - *f).length() <= 1e-5 * weighted_force_scale(&config),
                "seed {seed}: boid {i}: brute {r}, grid {f}"
            );
        }
    }
}
