//! Property tests: for random valid settings and random states, including coincident boids,
//! boids at rest, one boid and no boids, and extreme but valid radii, speeds and forces, every
//! step keeps every position and velocity finite, inside the bounds (wrap and bounce), within the
//! speed limits, and the boid count unchanged.
//!
//! A failure is shrunk to a minimal case, which proptest writes to
//! `tests/properties.proptest-regressions` beside this file and replays first on every later
//! run: commit that file with the fix. (None so far: the properties have held since they were
//! written; a deliberately broken wrap edge was caught and shrunk to one boid.)

use flock_core::{
    Bounds, EdgeMode, Flock, FlockConfig, ForceLimit, IndexKind, RuleWeights, ScopedThreads,
    SpeedMode, Vector,
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
        edges in prop_oneof![Just(EdgeMode::Wrap), Just(EdgeMode::Bounce), Just(EdgeMode::Free)],
        bounds in bounds(),
        wrap_neighbours in any::<bool>(),
        index in prop_oneof![Just(IndexKind::Grid), Just(IndexKind::KdTree), Just(IndexKind::BruteForce)],
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

/// What must hold after every step; `Err` says which boid broke what.
fn check(config: &FlockConfig, flock: &Flock, count: usize) -> Result<(), String> {
    if flock.len() != count {
        return Err(format!("{count} boids became {}", flock.len()));
    }
    // Speed limits hold to f32 rounding of a rescaled vector.
    let slack = 1e-5;
    for (i, (p, v)) in flock.positions().iter().zip(flock.velocities()).enumerate() {
        if !(p.is_finite() && v.is_finite()) {
            return Err(format!("boid {i}: position {p}, velocity {v}"));
        }
        if matches!(config.edges, EdgeMode::Wrap | EdgeMode::Bounce) && !config.bounds.contains(*p)
        {
            return Err(format!("boid {i} at {p} left {:?}", config.bounds));
        }
        let speed = v.length();
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
            flock.step_with(&config, dt, &executor);
            if let Err(problem) = check(&config, &flock, seeds.len()) {
                prop_assert!(false, "step {}: {}", step, problem);
            }
        }
    }
}
