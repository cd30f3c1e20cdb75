//! Bad 3D input gets what bad 2D input gets: non-finite and far-out positions come back or
//! are wrapped in on every axis, invalid bounds are named by field, hostile values never make
//! a step panic or produce a non-finite boid.

use flock_core3d::steering::limit_turn;
use flock_core3d::{
    Bounds, EdgeMode, Flock, FlockConfig, IndexKind, ScopedThreads, Vector, apply_edge, jump_point,
    wrap_point,
};

fn bounds() -> Bounds {
    Bounds::centered(Vector::new(20.0, 10.0, 30.0))
}

#[test]
fn non_finite_coordinates_come_back_to_the_centre_on_every_axis_in_every_mode() {
    for mode in [
        EdgeMode::Wrap,
        EdgeMode::Jump,
        EdgeMode::Bounce,
        EdgeMode::Free,
    ] {
        for (bad, expected) in [
            (Vector::new(1.0, 2.0, f32::NAN), Vector::new(1.0, 2.0, 0.0)),
            (
                Vector::new(f32::INFINITY, 2.0, 3.0),
                Vector::new(0.0, 2.0, 3.0),
            ),
            (
                Vector::new(1.0, f32::NEG_INFINITY, -3.0),
                Vector::new(1.0, 0.0, -3.0),
            ),
            (Vector::splat(f32::NAN), Vector::ZERO),
        ] {
            let mut position = bad;
            let mut velocity = Vector::X;
            apply_edge(mode, &bounds(), &mut position, &mut velocity);
            assert_eq!(position, expected, "{mode:?}: {bad}");
        }
    }
}

#[test]
fn far_out_points_wrap_into_the_box_and_bounces_reflect_every_axis() {
    for point in [
        Vector::new(1e6, -1e6, 1e7),
        Vector::new(0.0, 0.0, -15.0 - 1e-6),
        Vector::new(10.0 + 1e-6, 5.0 + 1e-6, 15.0 + 1e-6),
        Vector::splat(-3e38),
    ] {
        assert!(bounds().contains(wrap_point(point, &bounds())), "{point}");
    }
    let wrapped = wrap_point(Vector::new(0.0, 0.0, 16.0), &bounds());
    assert!((wrapped - Vector::new(0.0, 0.0, -14.0)).length() < 1e-5);
    // Seed 002's jump: past an edge, to the opposite edge, on every axis.
    let jumped = jump_point(Vector::new(10.5, -5.5, 16.0), &bounds());
    assert_eq!(jumped, Vector::new(-10.0, 5.0, -15.0));
    let mut position = Vector::new(10.5, -5.5, 15.5);
    let mut velocity = Vector::new(2.0, -1.0, 3.0);
    apply_edge(EdgeMode::Bounce, &bounds(), &mut position, &mut velocity);
    assert!((position - Vector::new(9.5, -4.5, 14.5)).length() < 1e-5);
    assert_eq!(velocity, Vector::new(-2.0, 1.0, -3.0));
    // An overshoot bigger than the box lands on its side, not beyond.
    let mut position = Vector::new(0.0, 0.0, -1e9);
    apply_edge(EdgeMode::Bounce, &bounds(), &mut position, &mut velocity);
    assert!(bounds().contains(position), "{position}");
}

#[test]
fn invalid_bounds_name_the_z_field() {
    type Change = fn(&mut FlockConfig);
    let cases: [(Change, &str, &str); 4] = [
        (|c| c.bounds.min.z = f32::NAN, "bounds.min.z", "finite"),
        (|c| c.bounds.max.z = f32::INFINITY, "bounds.max.z", "finite"),
        (|c| c.bounds.min.z = -1e10, "bounds.min.z", "too large"),
        (|c| c.bounds.max.z = c.bounds.min.z, "bounds", "no depth"),
    ];
    for (change, field, reason) in cases {
        let mut config = FlockConfig::default();
        change(&mut config);
        let error = config.validate().expect_err(field);
        assert_eq!(error.field, field, "{error}");
        assert!(error.to_string().contains(reason), "{error}");
    }
    // The presets are boxes as deep as they are high.
    for preset in [
        FlockConfig::processing(),
        FlockConfig::unity_port(),
        FlockConfig::crowd(),
    ] {
        assert_eq!(preset.validate(), Ok(()));
        assert_eq!(preset.bounds.size().z, preset.bounds.size().y);
    }
}

#[test]
fn hostile_boids_never_break_a_step() {
    for edges in [
        EdgeMode::Wrap,
        EdgeMode::Jump,
        EdgeMode::Bounce,
        EdgeMode::Free,
    ] {
        for index in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
            let config = FlockConfig {
                bounds: Bounds::centered(Vector::splat(300.0)),
                edges,
                index,
                ..FlockConfig::default()
            };
            let mut positions = vec![
                Vector::new(f32::NAN, 0.0, 0.0),
                Vector::new(0.0, 0.0, f32::INFINITY),
                Vector::splat(3e38),
                Vector::new(1e9, -1e9, 1e9),
                Vector::ZERO,
                Vector::ZERO,
            ];
            let mut velocities = vec![
                Vector::X,
                Vector::new(0.0, 0.0, f32::NAN),
                Vector::splat(f32::MAX),
                Vector::ZERO,
                Vector::new(1.0, 2.0, 3.0),
                Vector::new(-1.0, 0.0, 0.0),
            ];
            for i in 0..200 {
                let t = i as f32;
                positions.push(Vector::new(
                    (t * 7.3) % 280.0 - 140.0,
                    (t * 3.1) % 280.0 - 140.0,
                    (t * 5.7) % 280.0 - 140.0,
                ));
                velocities.push(Vector::new(t.sin(), t.cos(), (t * 0.3).sin()) * 50.0);
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

#[test]
fn limit_turn_never_panics_and_stays_finite_in_3d() {
    let vectors = [
        Vector::ZERO,
        Vector::new(3.0, 4.0, 5.0),
        Vector::new(-1.0, 0.0, 0.0),
        Vector::new(0.0, 0.0, f32::NAN),
        Vector::new(f32::INFINITY, 1.0, 0.0),
        Vector::splat(f32::MAX),
        Vector::splat(-1e30),
    ];
    let numbers = [1.0, 0.5, f32::NAN, f32::INFINITY, -1.0, 0.0, f32::MAX];
    for &previous in &vectors {
        for &wanted in &vectors {
            for &rate in &numbers {
                for &dt in &numbers {
                    let v = limit_turn(previous, wanted, rate, 2.0, dt);
                    assert!(
                        v.is_finite(),
                        "limit_turn({previous}, {wanted}, {rate}, 2, {dt}) = {v}"
                    );
                }
            }
        }
    }
}
