//! The kernel's free functions given what other code might hand them: values that are not
//! finite, huge, negative or contradictory. None may panic, and none may return a value that
//! is not finite.

use flock_core::steering::limit_turn;
use flock_core::{SpeedMode, Vector, limit_speed_to};

const BAD_VECTORS: [Vector; 6] = [
    Vector::new(f32::NAN, 0.0),
    Vector::new(0.0, f32::NAN),
    Vector::new(f32::INFINITY, 1.0),
    Vector::new(1.0, f32::NEG_INFINITY),
    Vector::splat(f32::MAX),
    Vector::splat(-1e30),
];

const BAD_NUMBERS: [f32; 7] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -1.0,
    0.0,
    f32::MAX,
    1e-30,
];

#[test]
fn limit_turn_never_panics_and_stays_finite() {
    // `f32::clamp` with bounds from a NaN previous speed panicked: a `TurnRate` boid given
    // `Velocity(NaN)` brought the whole app down on the next step.
    let ordinary = [Vector::ZERO, Vector::new(3.0, 4.0), Vector::new(-1.0, 0.0)];
    let vectors: Vec<Vector> = ordinary.iter().chain(&BAD_VECTORS).copied().collect();
    let numbers: Vec<f32> = [1.0, 0.5].iter().chain(&BAD_NUMBERS).copied().collect();
    for &previous in &vectors {
        for &wanted in &vectors {
            for &rate in &numbers {
                for &acceleration in &numbers {
                    for &dt in &numbers {
                        let v = limit_turn(previous, wanted, rate, acceleration, dt);
                        assert!(
                            v.is_finite(),
                            "limit_turn({previous}, {wanted}, {rate}, {acceleration}, {dt}) = {v}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn limit_turn_treats_a_non_finite_previous_velocity_as_rest() {
    // From rest a vehicle may start off in any direction, at up to one step's acceleration.
    for previous in [Vector::new(f32::NAN, 0.0), Vector::new(f32::INFINITY, 1.0)] {
        let v = limit_turn(previous, Vector::new(0.0, 10.0), 1.0, 2.0, 0.5);
        assert_eq!(v, Vector::new(0.0, 1.0), "from {previous}");
    }
    // A wanted velocity that is not finite is a wish to stop: the heading stays, the speed
    // drops by at most one step's change.
    let v = limit_turn(
        Vector::new(3.0, 0.0),
        Vector::new(f32::NAN, 1.0),
        1.0,
        2.0,
        0.5,
    );
    assert_eq!(v, Vector::new(2.0, 0.0));
    // Limits that are NaN or negative allow no change at all.
    let v = limit_turn(
        Vector::new(3.0, 0.0),
        Vector::new(0.0, 5.0),
        f32::NAN,
        -1.0,
        0.5,
    );
    assert_eq!(v, Vector::new(3.0, 0.0));
}

#[test]
fn limit_speed_to_sanitises_like_the_flocks_speed_modes() {
    // `MotionLimits` clamps through this; `clamp_length_max` passed NaN through and turned an
    // infinite component into NaN.
    let clamp = SpeedMode::Clamp { min_speed: 0.0 };
    for velocity in BAD_VECTORS {
        for mode in [clamp, SpeedMode::Constant] {
            let limited = limit_speed_to(velocity, mode, 5.0);
            assert!(
                limited.is_finite() && limited.length() <= 5.0 * (1.0 + 1e-6),
                "{velocity} under {mode:?}: {limited}"
            );
        }
    }
    // A finite velocity too long for f32's squares keeps its heading.
    let huge = limit_speed_to(Vector::new(f32::MAX, 0.0), clamp, 5.0);
    assert_eq!(huge, Vector::new(5.0, 0.0));
    assert_eq!(
        limit_speed_to(Vector::new(f32::NAN, 1.0), clamp, 5.0),
        Vector::ZERO
    );
    assert_eq!(
        limit_speed_to(Vector::new(3.0, 0.0), clamp, 5.0),
        Vector::new(3.0, 0.0)
    );
}

#[test]
fn a_step_of_no_finite_length_moves_nothing() {
    use flock_core::{Flock, FlockConfig};
    let config = FlockConfig::default();
    for dt in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0] {
        let mut flock = Flock::random(50, &config, 3);
        let before = flock.positions().to_vec();
        flock.step(&config, dt);
        assert_eq!(flock.positions(), &before[..], "dt {dt}");
        assert!(flock.velocities().iter().all(|v| v.is_finite()), "dt {dt}");
    }
}

#[test]
fn neighbours_with_velocities_near_f32_max_give_no_nan_on_any_index() {
    use flock_core::{AnyIndex, FlockConfig, IndexKind, NeighbourIndex, Serial, StepConstants};
    // Other code may write a velocity that is finite but absurd: two of them summed overflow
    // f32, and the direction of an infinite sum is NaN.
    let config = FlockConfig::default();
    let constants = StepConstants::new(&config);
    let positions = [
        Vector::ZERO,
        Vector::new(3.0, 0.0),
        Vector::new(0.0, 3.0),
        Vector::new(-3.0, -3.0),
    ];
    let velocities = [
        Vector::X,
        Vector::splat(f32::MAX),
        Vector::splat(f32::MAX),
        Vector::new(-f32::MAX, 1.0),
    ];
    let weights = [config.weights; 4];
    for kind in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
        let mut index = AnyIndex::new(kind);
        index.rebuild(
            &positions,
            &constants.space,
            constants.query_radius,
            &Serial,
        );
        let mut forces = [Vector::NAN; 4];
        index.compute_forces(
            &constants,
            &positions,
            &velocities,
            &weights,
            &mut forces,
            &Serial,
        );
        for (i, force) in forces.iter().enumerate() {
            assert!(force.is_finite(), "{kind:?}: boid {i}: {force}");
        }
        // Separation and cohesion still act on the ordinary boid.
        assert_ne!(forces[0], Vector::ZERO, "{kind:?}");
    }
}

#[test]
fn candidate_queries_of_hostile_points_and_radii_do_not_panic() {
    use flock_core::{AnyIndex, Bounds, IndexKind, NeighbourIndex, Serial, Space};
    // Behaviours ask the step's index with their own radii (a group's keep distance, a hunt's
    // flee radius), which other code may set to anything.
    let positions = [
        Vector::ZERO,
        Vector::new(1.0, 0.0),
        Vector::new(f32::NAN, 0.0),
    ];
    for periodic in [false, true] {
        let space = Space {
            bounds: Bounds::centered(Vector::splat(10.0)),
            periodic,
        };
        for kind in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
            let mut index = AnyIndex::new(kind);
            index.rebuild(&positions, &space, 2.0, &Serial);
            let mut out = Vec::new();
            for point in [Vector::ZERO, Vector::splat(f32::NAN), Vector::splat(1e30)] {
                for radius in [f32::NAN, f32::INFINITY, -1.0, 0.0, 1e30, f32::MAX] {
                    index.candidates(point, radius, &mut out);
                    assert!(out.windows(2).all(|w| w[0] < w[1]), "{kind:?}");
                }
            }
            // An infinite radius from an ordinary point reaches every finite boid.
            index.candidates(Vector::ZERO, f32::INFINITY, &mut out);
            assert!(out.contains(&0) && out.contains(&1), "{kind:?}: {out:?}");
        }
    }
}

#[test]
fn the_group_drive_never_panics_and_recovers_from_a_broken_state() {
    use flock_core::steering::{DriveState, drive};
    // A NaN or negative rotate speed reached `f32::clamp` as a bound and panicked the app.
    let numbers: Vec<f32> = [1.0, 0.5].iter().chain(&BAD_NUMBERS).copied().collect();
    for &rotate_speed in &numbers {
        for &speed in &numbers {
            for direction in [Vector::new(-1.0, 0.1), Vector::ZERO, BAD_VECTORS[0]] {
                let mut state = DriveState::facing(Vector::new(f32::NAN, 0.0));
                let _ = drive(&mut state, direction, speed, rotate_speed, 1.0 / 60.0);
                // The next step starts from a finite state.
                assert!(
                    state.heading.is_finite(),
                    "{rotate_speed} {speed} {direction}"
                );
            }
        }
    }
}
