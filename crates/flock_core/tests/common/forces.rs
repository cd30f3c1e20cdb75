//! The index-equivalence harness: forces through every index and every lane width, checked
//! against brute force.

use kernel::index::Lanes;
use kernel::{
    AnyIndex, Executor, FlockConfig, ForceInputs, Grid, IndexKind, NeighbourIndex, NeighbourStats,
    RuleForces, RuleWeights, ScopedThreads, Serial, StepConstants, Vector, rule_forces,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Positions and velocities of a flock.
#[derive(Clone, Debug)]
pub struct State {
    pub positions: Vec<Vector>,
    pub velocities: Vec<Vector>,
}

/// An index of `kind` built over the state, and the step's constants.
pub fn built_index(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
) -> (AnyIndex, StepConstants) {
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

/// Every boid's rule forces (and neighbour count) from the candidates of an index of `kind`.
pub fn forces_with(kind: IndexKind, config: &FlockConfig, state: &State) -> Vec<RuleForces> {
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
pub fn weighted_force_scale(config: &FlockConfig) -> f32 {
    let weights = config.weights;
    config.max_force * (weights.separation.abs() + weights.alignment.abs() + weights.cohesion.abs())
}

/// Every boid's weighted force through the full path of an index of `kind` (the grid's
/// vectorised one for the grid).
pub fn weighted_forces(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
    executor: &impl Executor,
) -> (Vec<Vector>, NeighbourStats) {
    let weights = vec![config.weights; state.positions.len()];
    forces_with_weights(kind, config, state, &weights, executor)
}

/// [`weighted_forces`] with each boid's own `weights`.
pub fn forces_with_weights(
    kind: IndexKind,
    config: &FlockConfig,
    state: &State,
    weights: &[RuleWeights],
    executor: &impl Executor,
) -> (Vec<Vector>, NeighbourStats) {
    let (mut index, constants) = built_index(kind, config, state);
    let mut forces = vec![Vector::NAN; state.positions.len()];
    let stats = index.compute_forces(
        ForceInputs::new(&constants, &state.positions, &state.velocities, weights),
        &mut forces,
        executor,
    );
    (forces, stats)
}

/// The grid skips gathering the weights when every boid has the same: one boid with its own
/// must get its own force and every other boid the bits the shared weights gave, and boids
/// each with their own weights must get brute force's forces.
pub fn assert_own_weights_are_honoured(config: &FlockConfig, state: &State, seed: u64) {
    let count = state.positions.len();
    let grid = |weights: &[RuleWeights]| {
        forces_with_weights(IndexKind::Grid, config, state, weights, &ScopedThreads(2)).0
    };
    let shared = grid(&vec![config.weights; count]);
    let mut own = vec![config.weights; count];
    let odd_one = count / 3;
    own[odd_one].separation *= 3.0;
    own[odd_one].cohesion = -0.5;
    let forces = grid(&own);
    for (i, (shared, force)) in shared.iter().zip(&forces).enumerate() {
        if i != odd_one {
            assert_eq!(shared.to_array(), force.to_array(), "boid {i}");
        }
    }
    assert_ne!(forces[odd_one], shared[odd_one]);

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let own: Vec<RuleWeights> = (0..count)
        .map(|_| RuleWeights {
            separation: rng.random_range(0.0..3.0),
            alignment: rng.random_range(-1.0..2.0),
            cohesion: rng.random_range(0.0..2.0),
        })
        .collect();
    let forces = grid(&own);
    let (reference, _) = forces_with_weights(IndexKind::BruteForce, config, state, &own, &Serial);
    // Every rule at max force, with the largest weights drawn.
    let scale = config.max_force * 7.0;
    for (i, (r, f)) in reference.iter().zip(&forces).enumerate() {
        assert!(
            (*r - *f).length() <= 1e-5 * scale,
            "boid {i}: brute {r}, grid {f}"
        );
    }
}

/// The KD-tree's and the grid's candidates give brute force's neighbour sets and rule forces,
/// and their full paths (the grid's vectorised one included) its weighted forces, within
/// `relative_tolerance` of the force scale (max force for one rule, every rule at max force
/// for the weighted sum).
pub fn assert_same_forces(
    config: &FlockConfig,
    state: &State,
    case: &str,
    relative_tolerance: f32,
) {
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
        "{case}: too few boids with neighbours ({with_neighbours})"
    );
}

/// The grid built over `positions` with `config`'s space and query radius.
pub fn grid_over(config: &FlockConfig, positions: &[Vector]) -> Grid {
    let constants = StepConstants::new(config);
    let mut grid = Grid::default();
    grid.rebuild(positions, &constants.space, constants.query_radius, &Serial);
    grid
}

/// Every boid's weighted force through the grid's vectorised path on `lanes`, or `None` where
/// this processor lacks them.
pub fn lane_forces(
    lanes: Lanes,
    config: &FlockConfig,
    state: &State,
) -> Option<(Vec<Vector>, NeighbourStats)> {
    let constants = StepConstants::new(config);
    let mut grid = grid_over(config, &state.positions);
    let weights = vec![config.weights; state.positions.len()];
    let mut forces = vec![Vector::NAN; state.positions.len()];
    let stats = grid.compute_forces_on_lanes(
        lanes,
        ForceInputs::new(&constants, &state.positions, &state.velocities, &weights),
        &mut forces,
        &ScopedThreads(2),
    )?;
    Some((forces, stats))
}

/// The lane widths this processor has, which it checks (SSE and the one it picks must be
/// among them); the output names those it lacks, which can't run here.
pub fn available_lane_widths() -> Vec<Lanes> {
    let (ran, missing): (Vec<Lanes>, Vec<Lanes>) = [Lanes::Sse, Lanes::Avx, Lanes::Avx512]
        .into_iter()
        .partition(|lanes| lanes.available());
    eprintln!("lane widths checked: {ran:?}; not on this processor: {missing:?}");
    assert!(ran.contains(&Lanes::Sse) && ran.contains(&Lanes::detect()));
    ran
}

/// On every width in `ran`, the grid's vectorised forces are brute force's within 1e-5 of the
/// force scale, with its neighbour counts; and every width adds in the same order (lockstep):
/// the same bits, not just close ones.
pub fn assert_lanes_agree(case: &str, config: &FlockConfig, state: &State, ran: &[Lanes]) {
    let (reference, reference_stats) =
        weighted_forces(IndexKind::BruteForce, config, state, &Serial);
    let tolerance = 1e-5 * weighted_force_scale(config);
    let mut first_width: Option<Vec<u32>> = None;
    for &lanes in ran {
        let (forces, stats) = lane_forces(lanes, config, state).expect("available");
        assert_eq!(
            stats.neighbours, reference_stats.neighbours,
            "{case}: {lanes:?}: neighbours"
        );
        let bits: Vec<u32> = forces
            .iter()
            .flat_map(|force| force.to_array().map(f32::to_bits))
            .collect();
        let first = first_width.get_or_insert_with(|| bits.clone());
        assert!(
            *first == bits,
            "{case}: {lanes:?} differs from {:?}",
            ran[0]
        );
        for (i, (r, f)) in reference.iter().zip(&forces).enumerate() {
            assert!(
                f.is_finite() && (*r - *f).length() <= tolerance,
                "{case}: {lanes:?}: boid {i}: brute {r}, grid {f}"
            );
        }
    }
}
