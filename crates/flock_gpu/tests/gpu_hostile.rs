//! The GPU kernel given what a caller might hand it: invalid settings, values that are not
//! finite, huge worlds and speeds, every boid on one point, no boids, a flock that grows and
//! shrinks between steps. Each is a clear error before anything reaches the device, or steps
//! that stay finite and inside the bounds: never a lost device, a hang or NaN.
//! `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use common::{all_finite, device, gpu_flock};
use flock_core::{Bounds, EdgeMode, Flock, FlockConfig, Neighbours, SpeedMode, Vector};
use flock_gpu::{DeviceFlock, GpuError};

/// Steps `flock` and reads it back: every value finite, and inside the bounds unless the edges
/// are free.
fn step_and_check(
    flock: &mut DeviceFlock,
    steps: usize,
    dt: f32,
    case: &str,
) -> (Vec<Vector>, Vec<Vector>) {
    for _ in 0..steps {
        flock.step(dt).unwrap();
    }
    let (positions, velocities) = flock.read_back().unwrap();
    assert!(all_finite(&positions), "{case}: positions not finite");
    assert!(all_finite(&velocities), "{case}: velocities not finite");
    let config = flock.config();
    if config.edges != EdgeMode::Free {
        assert!(
            positions.iter().all(|p| config.bounds.contains(*p)),
            "{case}: a boid left the bounds"
        );
    }
    (positions, velocities)
}

#[test]
fn invalid_settings_are_refused_and_the_old_ones_kept() {
    let Some((device, queue)) = device() else {
        return;
    };
    let invalid = [
        FlockConfig {
            max_speed: f32::NAN,
            ..FlockConfig::default()
        },
        FlockConfig {
            separation_radius: -1.0,
            ..FlockConfig::default()
        },
        FlockConfig {
            mass: 0.0,
            ..FlockConfig::default()
        },
        FlockConfig {
            bounds: Bounds {
                min: Vector::ZERO,
                max: Vector::ZERO,
            },
            ..FlockConfig::default()
        },
        FlockConfig {
            cohesion_radius: 1e12,
            ..FlockConfig::default()
        },
        FlockConfig {
            view_angle_degrees: f32::INFINITY,
            ..FlockConfig::default()
        },
        // Valid for the CPU kernel, which alone runs topological neighbours.
        FlockConfig {
            neighbours: Neighbours::Nearest { k: 7 },
            ..FlockConfig::default()
        },
    ];
    let mut flock = DeviceFlock::new(device, queue, FlockConfig::default(), 16).unwrap();
    for config in invalid {
        let error = DeviceFlock::new(device, queue, config, 16)
            .err()
            .expect("refused");
        assert!(matches!(error, GpuError::Config(_)), "{error}");
        assert!(
            error.to_string().contains("invalid flock setting"),
            "{error}"
        );
        assert!(matches!(flock.set_config(config), Err(GpuError::Config(_))));
        assert_eq!(*flock.config(), FlockConfig::default());
    }
}

#[test]
fn bad_boids_and_time_steps_are_refused_with_the_flock_unchanged() {
    let config = FlockConfig::default();
    let start = Flock::random(100, &config, 1);
    let Some(mut flock) = gpu_flock(config, start.positions(), start.velocities()) else {
        return;
    };
    let mut positions = start.positions().to_vec();
    positions[7].x = f32::NAN;
    let error = flock.upload(&positions, start.velocities()).unwrap_err();
    assert_eq!(
        error,
        GpuError::NotFinite {
            boid: 7,
            what: "position"
        }
    );
    let mut velocities = start.velocities().to_vec();
    velocities[3].y = f32::NEG_INFINITY;
    assert!(matches!(
        flock.upload(start.positions(), &velocities),
        Err(GpuError::NotFinite {
            boid: 3,
            what: "velocity"
        })
    ));
    assert!(matches!(
        flock.upload(start.positions(), &start.velocities()[1..]),
        Err(GpuError::LengthMismatch { .. })
    ));
    for dt in [f32::NAN, f32::INFINITY, -0.5] {
        let error = flock.step(dt).unwrap_err();
        assert!(matches!(error, GpuError::InvalidTimeStep(_)), "{error}");
        assert!(error.to_string().contains("time step"), "{error}");
    }
    let (read_positions, _) = flock.read_back().unwrap();
    assert_eq!(
        read_positions,
        start.positions(),
        "the refused calls changed nothing"
    );
    let (device, queue) = device().unwrap();
    let error = DeviceFlock::new(device, queue, config, usize::MAX)
        .err()
        .expect("too many boids");
    assert!(matches!(error, GpuError::TooManyBoids { .. }), "{error}");
}

#[test]
fn extreme_but_valid_settings_stay_finite_and_inside() {
    let limits = FlockConfig {
        separation_radius: 0.0,
        alignment_radius: FlockConfig::MAX_MAGNITUDE,
        cohesion_radius: 1.0,
        max_speed: FlockConfig::MAX_MAGNITUDE,
        speed_mode: SpeedMode::Clamp {
            min_speed: FlockConfig::MAX_MAGNITUDE,
        },
        max_force: FlockConfig::MAX_MAGNITUDE,
        response_time: FlockConfig::MIN_TIME_AND_MASS,
        mass: FlockConfig::MIN_TIME_AND_MASS,
        ..FlockConfig::default()
    };
    let huge_world = FlockConfig {
        bounds: Bounds::centered(Vector::splat(2.0 * FlockConfig::MAX_MAGNITUDE)),
        ..FlockConfig::default()
    };
    for edges in [
        EdgeMode::Wrap,
        EdgeMode::Jump,
        EdgeMode::Bounce,
        EdgeMode::Free,
    ] {
        for (name, config) in [("limits", limits), ("huge world", huge_world)] {
            let config = FlockConfig { edges, ..config };
            let start = Flock::random(500, &config, 5);
            let Some(mut flock) = gpu_flock(config, start.positions(), start.velocities()) else {
                return;
            };
            let case = format!("{name}, {edges:?}");
            step_and_check(&mut flock, 5, 1.0 / 60.0, &case);
            // A step so long that positions would leave f32.
            step_and_check(&mut flock, 2, 1e30, &case);
        }
    }
}

#[test]
fn every_boid_on_one_point_stays_finite() {
    for edges in [
        EdgeMode::Wrap,
        EdgeMode::Jump,
        EdgeMode::Bounce,
        EdgeMode::Free,
    ] {
        for velocity in [Vector::ZERO, Vector::X * 50.0] {
            let config = FlockConfig {
                edges,
                view_angle_degrees: 180.0,
                ..FlockConfig::default()
            };
            let positions = vec![config.bounds.center(); 2000];
            let velocities = vec![velocity; 2000];
            let Some(mut flock) = gpu_flock(config, &positions, &velocities) else {
                return;
            };
            step_and_check(
                &mut flock,
                10,
                1.0 / 60.0,
                &format!("{edges:?}, {velocity}"),
            );
        }
    }
}

#[test]
fn far_out_positions_come_back_or_stay_finite() {
    for edges in [
        EdgeMode::Wrap,
        EdgeMode::Jump,
        EdgeMode::Bounce,
        EdgeMode::Free,
    ] {
        let config = FlockConfig {
            edges,
            ..FlockConfig::default()
        };
        let far = [
            Vector::splat(3e38),
            Vector::splat(-3e38),
            Vector::splat(1e20),
            config.bounds.center(),
        ];
        let velocities = [Vector::splat(1e30), Vector::ZERO, Vector::X, Vector::Y];
        let Some(mut flock) = gpu_flock(config, &far, &velocities) else {
            return;
        };
        step_and_check(&mut flock, 3, 1.0 / 60.0, &format!("{edges:?}"));
    }
}

#[test]
fn no_boids_and_a_flock_that_grows_and_shrinks() {
    let config = FlockConfig::default();
    let Some(mut flock) = gpu_flock(config, &[], &[]) else {
        return;
    };
    assert!(flock.is_empty());
    flock.step(1.0 / 60.0).unwrap();
    assert_eq!(flock.read_back().unwrap(), (Vec::new(), Vec::new()));
    for count in [1, 5000, 3, 20_000, 0, 2] {
        let start = Flock::random(count, &config, count as u64);
        flock.upload(start.positions(), start.velocities()).unwrap();
        assert_eq!(flock.len(), count);
        assert!(flock.capacity() >= count);
        let (positions, _) = step_and_check(&mut flock, 2, 1.0 / 60.0, &format!("{count} boids"));
        assert_eq!(positions.len(), count);
    }
}

#[test]
fn counts_past_the_device_limit_are_refused_before_anything_is_allocated() {
    let Some((device, queue)) = device() else {
        return;
    };
    let limits = device.limits();
    assert_eq!(flock_gpu::check_limits(&limits), Ok(()));
    let limit = flock_gpu::max_boids(&limits);
    assert!(limit >= 1_000_000, "a device limit of {limit} boids");
    println!("this device holds at most {limit} boids");
    let mut flock = DeviceFlock::new(device, queue, FlockConfig::default(), 0).unwrap();
    assert_eq!(flock.max_capacity(), limit);
    for capacity in [limit + 1, usize::MAX, 1_000_000_000_000] {
        let error = DeviceFlock::new(device, queue, FlockConfig::default(), capacity)
            .err()
            .expect("refused");
        assert_eq!(
            error,
            GpuError::TooManyBoids {
                requested: capacity,
                limit
            }
        );
    }
    // The refusals changed nothing: the flock still takes boids.
    let start = Flock::random(10, flock.config(), 1);
    flock.append(start.positions(), start.velocities()).unwrap();
    let (positions, _) = flock.read_back().unwrap();
    assert_eq!(positions, start.positions());
}
