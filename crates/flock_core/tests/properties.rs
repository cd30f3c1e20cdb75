//! Property tests: for random valid settings and random states, including coincident boids,
//! boids at rest, one boid and no boids, and extreme but valid radii, speeds and forces, every
//! step keeps every position and velocity finite, inside the bounds (wrap and bounce), within the
//! speed limits (at rest only when integration asked for rest), the boid count unchanged, every
//! force finite and within the weighted force limit, and the neighbour count equal to brute
//! force's. A boid given a position or velocity that is not finite changes no other boid's force
//! and comes back finite.
//!
//! A failure is shrunk to a minimal case, which proptest writes to
//! `tests/properties.proptest-regressions` beside this file and replays first on every later
//! run: commit that file with the fix.

use flock_core::{
    AnyIndex, Bounds, EdgeMode, Flock, FlockConfig, ForceInputs, ForceLimit, IndexKind,
    NeighbourIndex, Neighbours, RuleWeights, ScopedThreads, Serial, SpeedMode, StepConstants,
    Vector, keep_nearest, rule_forces,
};
use proptest::prelude::*;

/// A positive number spread evenly over the decades `10^low ..= 10^high`, so tiny and huge
/// values are as likely as ordinary ones (kept inside the validation limits, which `powf`'s
/// rounding could overstep).
fn decades(low: f32, high: f32) -> impl Strategy<Value = f32> {
    (low..=high).prop_map(|exponent| {
        10f32
            .powf(exponent)
            .clamp(FlockConfig::MIN_TIME_AND_MASS, FlockConfig::MAX_MAGNITUDE)
    })
}

/// A rule radius: zero (the rule is off), or anything from a thousandth to the largest valid.
fn radius() -> impl Strategy<Value = f32> {
    prop_oneof![1 => Just(0.0), 4 => decades(-3.0, 9.0)]
}

/// A rule weight: mostly ordinary, sometimes as large as valid, either sign.
fn weight() -> impl Strategy<Value = f32> {
    let max = FlockConfig::MAX_WEIGHT;
    prop_oneof![4 => -5.0f32..5.0, 1 => -max..=max]
}

fn bounds() -> impl Strategy<Value = Bounds> {
    (
        -1e4f32..1e4,
        -1e4f32..1e4,
        // Up to the largest valid coordinate, 1e9, less the corner's 1e4.
        decades(-2.0, 8.99),
        decades(-2.0, 8.99),
    )
        .prop_map(|(x, y, width, height)| {
            let min = Vector::new(x, y);
            Bounds {
                min,
                max: min + Vector::new(width, height),
            }
        })
}

prop_compose! {
    fn valid_config()(
        separation_radius in radius(),
        alignment_radius in radius(),
        cohesion_radius in radius(),
        weights in (weight(), weight(), weight()),
        max_speed in decades(-3.0, 9.0),
        // None: constant speed; Some(f): clamped, with min_speed = f * max_speed.
        min_speed_fraction in prop::option::of(prop_oneof![Just(0.0f32), Just(1.0f32), 0.0f32..=1.0]),
        max_force in decades(-3.0, 9.0),
        rescale in any::<bool>(),
        response_time in decades(-6.0, 1.0),
        mass in decades(-6.0, 9.0),
        view_angle_degrees in prop_oneof![Just(360.0f32), 0.01f32..=360.0],
        edges in prop_oneof![Just(EdgeMode::Wrap), Just(EdgeMode::Jump), Just(EdgeMode::Bounce), Just(EdgeMode::Free)],
        bounds in bounds(),
        wrap_neighbours in any::<bool>(),
        index in prop_oneof![Just(IndexKind::Grid), Just(IndexKind::KdTree), Just(IndexKind::BruteForce)],
        neighbours in prop_oneof![Just(Neighbours::Metric), (1u32..=20).prop_map(|k| Neighbours::Nearest { k })],
    ) -> FlockConfig {
        let speed_mode = match min_speed_fraction {
            None => SpeedMode::Constant,
            Some(fraction) => SpeedMode::Clamp { min_speed: (fraction * max_speed).min(max_speed) },
        };
        FlockConfig {
            separation_radius,
            alignment_radius,
            cohesion_radius,
            weights: RuleWeights { separation: weights.0, alignment: weights.1, cohesion: weights.2 },
            max_speed,
            speed_mode,
            max_force,
            force_limit: if rescale { ForceLimit::Rescale } else { ForceLimit::Truncate },
            response_time,
            mass,
            view_angle_degrees,
            edges,
            bounds,
            wrap_neighbours,
            index,
            neighbours,
        }
    }
}

/// One boid: where it is (`None`: on the shared spot every such boid shares, so coincident
/// positions are common; else a fraction of the bounds) and how it moves (`None`: at rest; else
/// an angle and a fraction of max speed, up to twice it, so the first step must clamp).
type BoidSeed = (Option<(f32, f32)>, Option<(f32, f32)>);

fn boid_seeds() -> impl Strategy<Value = Vec<BoidSeed>> {
    let place = prop::option::weighted(0.7, (0.0f32..=1.0, 0.0f32..=1.0));
    let motion = prop::option::weighted(0.8, (0.0f32..std::f32::consts::TAU, 0.0f32..=2.0));
    prop_oneof![
        1 => Just(Vec::new()),
        1 => prop::collection::vec((place.clone(), motion.clone()), 1),
        6 => prop::collection::vec((place, motion), 2..40),
    ]
}

fn flock_from(config: &FlockConfig, seeds: &[BoidSeed]) -> Flock {
    let bounds = config.bounds;
    let spot = bounds.min + bounds.size() * 0.25;
    let (positions, velocities) = seeds
        .iter()
        .map(|(place, motion)| {
            let position = place.map_or(spot, |(fx, fy)| {
                (bounds.min + bounds.size() * Vector::new(fx, fy)).clamp(bounds.min, bounds.max)
            });
            let velocity = motion.map_or(Vector::ZERO, |(angle, fraction)| {
                Vector::from_angle(angle) * (fraction * config.max_speed)
            });
            (position, velocity)
        })
        .unzip();
    Flock::new(positions, velocities, config)
}

/// What must hold after every step; `Err` says which boid broke what. `before` are the
/// velocities before the step, so a boid at rest can be told from one the speed mode stopped.
fn check(
    config: &FlockConfig,
    flock: &Flock,
    count: usize,
    before: &[Vector],
    dt: f32,
) -> Result<(), String> {
    if flock.len() != count {
        return Err(format!("{count} boids became {}", flock.len()));
    }
    // Speed limits hold to f32 rounding of a rescaled vector.
    let slack = 1e-5;
    let force_limit = weighted_force_limit(config) * (1.0 + slack);
    for (i, (p, v)) in flock.positions().iter().zip(flock.velocities()).enumerate() {
        if !(p.is_finite() && v.is_finite()) {
            return Err(format!("boid {i}: position {p}, velocity {v}"));
        }
        if matches!(
            config.edges,
            EdgeMode::Wrap | EdgeMode::Jump | EdgeMode::Bounce
        ) && !config.bounds.contains(*p)
        {
            return Err(format!("boid {i} at {p} left {:?}", config.bounds));
        }
        let force = flock.forces()[i];
        if !(force.is_finite() && force.length() <= force_limit) {
            return Err(format!(
                "boid {i}: force {force} (length {}) beyond the limit {force_limit}",
                force.length()
            ));
        }
        // Integration's wish, as `integrate` computes it: the speed mode stops a boid only
        // when this is zero (a zero force on a boid at rest), in either mode.
        let wanted = before[i] + force / config.mass * dt;
        let speed = v.length();
        if (speed == 0.0) != (wanted == Vector::ZERO) {
            return Err(format!(
                "boid {i}: speed {speed} where integration wanted velocity {wanted}"
            ));
        }
        let max = config.max_speed;
        let in_range = match config.speed_mode {
            SpeedMode::Constant => speed == 0.0 || (speed - max).abs() <= max * slack,
            SpeedMode::Clamp { min_speed } => {
                speed <= max * (1.0 + slack) && (speed == 0.0 || speed >= min_speed * (1.0 - slack))
            }
        };
        if !in_range {
            return Err(format!(
                "boid {i}: speed {speed} outside the limits of {:?} (max {max})",
                config.speed_mode
            ));
        }
    }
    Ok(())
}

/// The largest weighted flocking force: every rule at max force.
fn weighted_force_limit(config: &FlockConfig) -> f32 {
    let w = config.weights;
    config.max_force * (w.separation.abs() + w.alignment.abs() + w.cohesion.abs())
}

/// Every boid's rule forces by brute force (the f64 reference), each boid against all (or its
/// nearest, for topological neighbours).
fn brute_forces(
    config: &FlockConfig,
    positions: &[Vector],
    velocities: &[Vector],
) -> Vec<flock_core::RuleForces> {
    let constants = StepConstants::new(config);
    let everyone: Vec<u32> = (0..positions.len() as u32).collect();
    let (mut chosen, mut ranked) = (Vec::new(), Vec::new());
    (0..positions.len())
        .map(|me| {
            chosen.clone_from(&everyone);
            if let Some(k) = config.neighbours.nearest() {
                keep_nearest(
                    me,
                    positions,
                    velocities,
                    &constants,
                    k,
                    &mut chosen,
                    &mut ranked,
                );
            }
            rule_forces(me, positions, velocities, &chosen, &constants)
        })
        .collect()
}

/// Every boid's weighted force through the full path of an index of `kind`, and the step's
/// neighbour count.
fn index_forces(
    kind: IndexKind,
    config: &FlockConfig,
    positions: &[Vector],
    velocities: &[Vector],
) -> (Vec<Vector>, u64) {
    let constants = StepConstants::new(config);
    let mut index = AnyIndex::new(kind);
    index.rebuild(positions, &constants.space, constants.query_radius, &Serial);
    let weights = vec![config.weights; positions.len()];
    let mut forces = vec![Vector::NAN; positions.len()];
    let stats = index.compute_forces(
        ForceInputs::new(&constants, positions, velocities, &weights),
        &mut forces,
        &ScopedThreads(2),
    );
    (forces, stats.neighbours)
}

/// The ways other code can break one boid.
#[derive(Clone, Copy, Debug)]
enum Breakage {
    NanPosition,
    InfinitePosition,
    NanVelocity,
    InfiniteVelocity,
}

proptest! {
    // Each case is at most 40 boids for 100 steps: the whole test takes a few seconds in release.
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn steps_keep_boids_finite_bounded_and_within_limits(
        config in valid_config(),
        seeds in boid_seeds(),
        dt in prop_oneof![Just(1.0f32 / 60.0), decades(-4.0, -0.3)],
        threads in 1usize..=2,
    ) {
        prop_assert_eq!(config.validate(), Ok(()), "the strategy makes valid settings only");
        let mut flock = flock_from(&config, &seeds);
        let executor = ScopedThreads(threads);
        for step in 1..=100 {
            let before = flock.velocities().to_vec();
            let brute_neighbours: u64 = brute_forces(&config, flock.positions(), &before)
                .iter()
                .map(|forces| u64::from(forces.neighbours))
                .sum();
            let stats = flock.step_with(&config, dt, &executor);
            prop_assert_eq!(
                stats.neighbours, brute_neighbours,
                "step {}: {:?} found other neighbours than brute force", step, config.index
            );
            if let Err(problem) = check(&config, &flock, seeds.len(), &before, dt) {
                prop_assert!(false, "step {}: {}", step, problem);
            }
        }
    }

    #[test]
    fn a_boid_broken_by_other_code_changes_no_other_boids_force_and_comes_back(
        config in valid_config(),
        seeds in boid_seeds(),
        broken in any::<prop::sample::Index>(),
        breakage in prop_oneof![
            Just(Breakage::NanPosition),
            Just(Breakage::InfinitePosition),
            Just(Breakage::NanVelocity),
            Just(Breakage::InfiniteVelocity),
        ],
    ) {
        prop_assume!(!seeds.is_empty());
        let flock = flock_from(&config, &seeds);
        let mut positions = flock.positions().to_vec();
        let mut velocities = flock.velocities().to_vec();
        let bad = broken.index(positions.len());
        // What every other boid must see: a bad position is nobody's neighbour (as if the boid
        // were gone), a bad velocity counts as rest.
        let (clean_positions, clean_velocities, others): (Vec<Vector>, Vec<Vector>, Vec<usize>) =
            match breakage {
                Breakage::NanPosition | Breakage::InfinitePosition => {
                    positions[bad] = match breakage {
                        Breakage::NanPosition => Vector::new(positions[bad].x, f32::NAN),
                        _ => Vector::new(f32::NEG_INFINITY, positions[bad].y),
                    };
                    let others: Vec<usize> = (0..positions.len()).filter(|&i| i != bad).collect();
                    (
                        others.iter().map(|&i| positions[i]).collect(),
                        others.iter().map(|&i| velocities[i]).collect(),
                        others,
                    )
                }
                Breakage::NanVelocity | Breakage::InfiniteVelocity => {
                    let mut clean = velocities.clone();
                    clean[bad] = Vector::ZERO;
                    velocities[bad] = match breakage {
                        Breakage::NanVelocity => Vector::new(f32::NAN, 1.0),
                        _ => Vector::new(1.0, f32::INFINITY),
                    };
                    (positions.clone(), clean, (0..positions.len()).collect())
                }
            };
        let clean = brute_forces(&config, &clean_positions, &clean_velocities);
        let clean_weighted: Vec<Vector> =
            clean.iter().map(|forces| forces.weighted(&config.weights)).collect();
        let clean_neighbours: u64 = clean.iter().map(|forces| u64::from(forces.neighbours)).sum();
        let limit = weighted_force_limit(&config) * (1.0 + 1e-5);
        for kind in [IndexKind::BruteForce, IndexKind::KdTree, IndexKind::Grid] {
            let (forces, neighbours) = index_forces(kind, &config, &positions, &velocities);
            for (i, force) in forces.iter().enumerate() {
                prop_assert!(
                    force.is_finite() && force.length() <= limit,
                    "{:?}, {:?} boid {}: boid {}'s force {}", kind, breakage, bad, i, force
                );
            }
            prop_assert_eq!(neighbours, clean_neighbours, "{:?}, {:?}", kind, breakage);
            // The candidate path sums in f64 over the same boids in the same order as the
            // clean brute force: the same bits. (The grid's f32 lanes are compared with brute
            // force on such states in tests/index_equivalence.rs.)
            if kind != IndexKind::Grid {
                for (clean_index, &i) in others.iter().enumerate() {
                    prop_assert_eq!(
                        forces[i], clean_weighted[clean_index],
                        "{:?}, {:?} boid {}: boid {}", kind, breakage, bad, i
                    );
                }
            }
        }
        // Stepping brings it back: everything finite again, nothing lost.
        let mut broken_flock = Flock::new(positions, velocities, &config);
        for _ in 0..3 {
            broken_flock.step(&config, 1.0 / 60.0);
            let all_finite = broken_flock.positions().iter().chain(broken_flock.velocities())
                .all(|v| v.is_finite());
            prop_assert!(all_finite, "{:?}: {:?}", breakage, broken_flock.positions());
            prop_assert_eq!(broken_flock.len(), seeds.len());
        }
    }
}
