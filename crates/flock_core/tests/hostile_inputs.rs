//! The kernel given what other code might hand it: values that are not finite, huge, negative
//! or contradictory, positions far out. None of its functions may panic or return a value that
//! is not finite, and bad positions come back (or are wrapped in) on every axis.
//! `flock_core3d` runs the same cases in 3D (`[[test]] path` in its manifest).

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::{on_last_axis, xyz};
use kernel::steering::{DriveState, drive, level, limit_turn};
use kernel::{
    AnyIndex, Bounds, DIMENSIONS, EdgeMode, Flock, FlockConfig, ForceInputs, IndexKind,
    NeighbourIndex, ScopedThreads, Serial, Space, SpeedMode, StepConstants, Vector, apply_edge,
    jump_point, limit_speed_to, wrap_point,
};

/// Vectors other code might hand over: NaN or an infinity on each axis in turn, and huge ones.
fn bad_vectors() -> Vec<Vector> {
    let mut bad = Vec::new();
    for axis in 0..DIMENSIONS {
        for value in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let mut v = Vector::ONE;
            v[axis] = value;
            bad.push(v);
        }
    }
    bad.extend([Vector::splat(f32::MAX), Vector::splat(-1e30)]);
    bad
}

const BAD_NUMBERS: [f32; 7] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -1.0,
    0.0,
    f32::MAX,
    1e-30,
];

const EDGE_MODES: [EdgeMode; 4] = [
    EdgeMode::Wrap,
    EdgeMode::Jump,
    EdgeMode::Bounce,
    EdgeMode::Free,
];

#[test]
fn limit_turn_never_panics_and_stays_finite() {
    // `f32::clamp` with bounds from a NaN previous speed panicked: a `TurnRate` boid given
    // `Velocity(NaN)` brought the whole app down on the next step.
    let ordinary = [Vector::ZERO, xyz(3.0, 4.0, 5.0), xyz(-1.0, 0.0, 0.0)];
    let vectors: Vec<Vector> = ordinary.into_iter().chain(bad_vectors()).collect();
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
    let wanted = xyz(0.0, 6.0, 8.0);
    for previous in [xyz(f32::NAN, 0.0, 0.0), on_last_axis(f32::INFINITY)] {
        let v = limit_turn(previous, wanted, 1.0, 2.0, 0.5);
        assert!(
            (v - wanted.normalize()).length() < 1e-6,
            "from {previous}: {v}"
        );
    }
    // A wanted velocity that is not finite is a wish to stop: the heading stays, the speed
    // drops by at most one step's change.
    let v = limit_turn(Vector::X * 3.0, on_last_axis(f32::NAN), 1.0, 2.0, 0.5);
    assert_eq!(v, Vector::X * 2.0);
    // Limits that are NaN or negative allow no change at all.
    let v = limit_turn(Vector::X * 3.0, wanted, f32::NAN, -1.0, 0.5);
    assert_eq!(v, Vector::X * 3.0);
}

#[test]
fn limit_speed_to_sanitises_like_the_flocks_speed_modes() {
    // `MotionLimits` clamps through this; `clamp_length_max` passed NaN through and turned an
    // infinite component into NaN.
    let clamp = SpeedMode::Clamp { min_speed: 0.0 };
    for velocity in bad_vectors() {
        for mode in [clamp, SpeedMode::Constant] {
            let limited = limit_speed_to(velocity, mode, 5.0);
            assert!(
                limited.is_finite() && limited.length() <= 5.0 * (1.0 + 1e-6),
                "{velocity} under {mode:?}: {limited}"
            );
        }
    }
    // A finite velocity too long for f32's squares keeps its heading.
    let huge = limit_speed_to(on_last_axis(f32::MAX), clamp, 5.0);
    assert_eq!(huge, on_last_axis(5.0));
    assert_eq!(
        limit_speed_to(xyz(f32::NAN, 1.0, 1.0), clamp, 5.0),
        Vector::ZERO
    );
    assert_eq!(
        limit_speed_to(xyz(3.0, 0.0, 0.0), clamp, 5.0),
        xyz(3.0, 0.0, 0.0)
    );
}

#[test]
fn a_step_of_no_finite_length_moves_nothing() {
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
    // Other code may write a velocity that is finite but absurd: two of them summed overflow
    // f32, and the direction of an infinite sum is NaN.
    let config = FlockConfig::default();
    let constants = StepConstants::new(&config);
    let positions = [
        Vector::ZERO,
        xyz(3.0, 0.0, 0.0),
        xyz(0.0, 3.0, 1.0),
        xyz(-3.0, -3.0, -1.0),
    ];
    let velocities = [
        Vector::X,
        Vector::splat(f32::MAX),
        Vector::splat(f32::MAX),
        xyz(-f32::MAX, 1.0, 0.0),
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
            ForceInputs::new(&constants, &positions, &velocities, &weights),
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
    // Behaviours ask the step's index with their own radii (a group's keep distance, a hunt's
    // flee radius), which other code may set to anything.
    let positions = [Vector::ZERO, Vector::X, on_last_axis(f32::NAN)];
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
    // A NaN or negative rotate speed reached `f32::clamp` as a bound and panicked the app.
    let numbers: Vec<f32> = [1.0, 0.5].iter().chain(&BAD_NUMBERS).copied().collect();
    for &rotate_speed in &numbers {
        for &speed in &numbers {
            for direction in [level(-1.0, 0.1), Vector::ZERO, bad_vectors()[0]] {
                let mut state = DriveState::facing(xyz(f32::NAN, 0.0, 0.0));
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

/// A world 20 wide, 10 high and (in 3D) 30 deep.
fn bounds() -> Bounds {
    Bounds::centered(xyz(20.0, 10.0, 30.0))
}

#[test]
fn non_finite_coordinates_come_back_to_the_centre_on_every_axis_in_every_mode() {
    // Each coordinate in turn not finite: that one comes back to the centre's, the others stay.
    let inside = xyz(1.0, 2.0, 3.0);
    for mode in EDGE_MODES {
        for axis in 0..DIMENSIONS {
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let (mut position, mut velocity, mut expected) = (inside, Vector::X, inside);
                position[axis] = bad;
                expected[axis] = 0.0;
                apply_edge(mode, &bounds(), &mut position, &mut velocity);
                assert_eq!(position, expected, "{mode:?}: axis {axis} at {bad}");
            }
        }
        // Every coordinate at once.
        let (mut position, mut velocity) = (Vector::splat(f32::NAN), Vector::X);
        apply_edge(mode, &bounds(), &mut position, &mut velocity);
        assert_eq!(position, Vector::ZERO, "{mode:?}");
    }
}

#[test]
fn far_out_points_wrap_into_the_bounds_and_bounces_reflect_every_axis() {
    let bounds = bounds();
    for point in [
        xyz(1e6, -1e6, 1e7),
        on_last_axis(-bounds.max[DIMENSIONS - 1] - 1e-6),
        bounds.max + Vector::splat(1e-6),
        Vector::splat(-3e38),
    ] {
        assert!(bounds.contains(wrap_point(point, &bounds)), "{point}");
    }
    let just_past = on_last_axis(bounds.max[DIMENSIONS - 1] + 1.0);
    let wrapped = wrap_point(just_past, &bounds);
    assert!((wrapped - (just_past - bounds.size() * on_last_axis(1.0))).length() < 1e-5);
    // The Unity port of *Flocking*'s jump: past an edge, to the opposite edge, on every axis.
    let jumped = jump_point(xyz(10.5, -5.5, 16.0), &bounds);
    assert_eq!(jumped, xyz(-10.0, 5.0, -15.0));
    let mut position = xyz(10.5, -5.5, 15.5);
    let mut velocity = xyz(2.0, -1.0, 3.0);
    apply_edge(EdgeMode::Bounce, &bounds, &mut position, &mut velocity);
    assert!((position - xyz(9.5, -4.5, 14.5)).length() < 1e-5);
    assert_eq!(velocity, -xyz(2.0, -1.0, 3.0));
    // An overshoot bigger than the world lands on its side, not beyond.
    let mut position = on_last_axis(-1e9);
    apply_edge(EdgeMode::Bounce, &bounds, &mut position, &mut velocity);
    assert!(bounds.contains(position), "{position}");
}

#[test]
fn hostile_boids_never_break_a_step() {
    for edges in EDGE_MODES {
        for index in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
            let config = FlockConfig {
                bounds: Bounds::centered(Vector::splat(300.0)),
                edges,
                index,
                ..FlockConfig::default()
            };
            let mut positions = vec![
                xyz(f32::NAN, 0.0, 0.0),
                on_last_axis(f32::INFINITY),
                Vector::splat(3e38),
                xyz(1e9, -1e9, 1e9),
                Vector::ZERO,
                Vector::ZERO,
            ];
            let mut velocities = vec![
                Vector::X,
                on_last_axis(f32::NAN),
                Vector::splat(f32::MAX),
                Vector::ZERO,
                xyz(1.0, 2.0, 3.0),
                -Vector::X,
            ];
            for i in 0..200 {
                let t = i as f32;
                positions.push(xyz(
                    (t * 7.3) % 280.0 - 140.0,
                    (t * 3.1) % 280.0 - 140.0,
                    (t * 5.7) % 280.0 - 140.0,
                ));
                velocities.push(xyz(t.sin(), t.cos(), (t * 0.3).sin()) * 50.0);
            }
            let mut flock = Flock::new(positions, velocities, &config);
            for _ in 0..5 {
                flock.step_with(&config, 1.0 / 60.0, &ScopedThreads(2));
            }
            assert!(
                flock.positions().iter().all(|p| p.is_finite())
                    && flock.velocities().iter().all(|v| v.is_finite()),
                "{edges:?} {index:?}"
            );
            if edges != EdgeMode::Free {
                assert!(
                    flock.positions().iter().all(|p| config.bounds.contains(*p)),
                    "{edges:?} {index:?}"
                );
            }
        }
    }
}
