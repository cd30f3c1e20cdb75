//! A 3D flock whose boids all lie in the plane z = 0 moves as the 2D flock with the same state
//! and settings: the same neighbours, the same forces within float tolerance, over 100 steps.
//! Both kernels are compiled from one source; this checks the 3D build did not change what the
//! shared code means.

use flock_core::{Flock as Flock2, FlockConfig as Config2, Vector as V2};
use flock_core3d::{
    AnyIndex, Bounds, EdgeMode, Flock, FlockConfig, ForceInputs, IndexKind, NeighbourIndex,
    Neighbours, Serial, StepConstants, Vector,
};

/// The 3D settings of a 2D flock's: the same numbers, the bounds given a depth of `depth`
/// around z = 0.
fn lifted_config(config: &Config2, depth: f32) -> FlockConfig {
    let lift = |v: V2, z: f32| Vector::new(v.x, v.y, z);
    FlockConfig {
        separation_radius: config.separation_radius,
        alignment_radius: config.alignment_radius,
        cohesion_radius: config.cohesion_radius,
        weights: flock_core3d::RuleWeights {
            separation: config.weights.separation,
            alignment: config.weights.alignment,
            cohesion: config.weights.cohesion,
        },
        max_speed: config.max_speed,
        speed_mode: match config.speed_mode {
            flock_core::SpeedMode::Constant => flock_core3d::SpeedMode::Constant,
            flock_core::SpeedMode::Clamp { min_speed } => {
                flock_core3d::SpeedMode::Clamp { min_speed }
            }
        },
        max_force: config.max_force,
        force_limit: match config.force_limit {
            flock_core::ForceLimit::Truncate => flock_core3d::ForceLimit::Truncate,
            flock_core::ForceLimit::Rescale => flock_core3d::ForceLimit::Rescale,
        },
        response_time: config.response_time,
        mass: config.mass,
        view_angle_degrees: config.view_angle_degrees,
        bounds: Bounds {
            min: lift(config.bounds.min, -depth / 2.0),
            max: lift(config.bounds.max, depth / 2.0),
        },
        wrap_neighbours: config.wrap_neighbours,
        edges: match config.edges {
            flock_core::EdgeMode::Wrap => EdgeMode::Wrap,
            flock_core::EdgeMode::Jump => EdgeMode::Jump,
            flock_core::EdgeMode::Bounce => EdgeMode::Bounce,
            flock_core::EdgeMode::Free => EdgeMode::Free,
        },
        index: match config.index {
            flock_core::IndexKind::Grid => IndexKind::Grid,
            flock_core::IndexKind::KdTree => IndexKind::KdTree,
            flock_core::IndexKind::BruteForce => IndexKind::BruteForce,
        },
        neighbours: match config.neighbours {
            flock_core::Neighbours::Metric => Neighbours::Metric,
            flock_core::Neighbours::Nearest { k } => Neighbours::Nearest { k },
        },
    }
}

fn lift(points: &[V2]) -> Vec<Vector> {
    points.iter().map(|p| p.extend(0.0)).collect()
}

/// The settings the planar runs use: Processing's radii, a world of 1000 boids with about
/// 10 neighbours each, a 270 degree field of view, each edge mode.
fn settings(edges: flock_core::EdgeMode, index: flock_core::IndexKind) -> Config2 {
    Config2 {
        bounds: flock_core::Bounds::centered(V2::new(500.0, 400.0)),
        view_angle_degrees: 270.0,
        edges,
        wrap_neighbours: true,
        index,
        ..Config2::default()
    }
}

const EDGES: [flock_core::EdgeMode; 4] = [
    flock_core::EdgeMode::Wrap,
    flock_core::EdgeMode::Jump,
    flock_core::EdgeMode::Bounce,
    flock_core::EdgeMode::Free,
];

#[test]
fn brute_force_in_the_plane_follows_the_2d_trajectory_for_100_steps() {
    // Brute force sums every boid in index order in f64 in both builds, and every z term is
    // an exact zero: the two trajectories are the same bit for bit, step after step.
    for edges in EDGES {
        let config = settings(edges, flock_core::IndexKind::BruteForce);
        // Deeper than twice the query radius: no image of the plane across the z seam is a
        // neighbour.
        let config3 = lifted_config(&config, 400.0);
        let mut flat = Flock2::random(400, &config, 3);
        let mut deep = Flock::new(lift(flat.positions()), lift(flat.velocities()), &config3);
        for step in 0..100 {
            let stats = flat.step(&config, 1.0 / 60.0);
            let stats3 = deep.step(&config3, 1.0 / 60.0);
            assert_eq!(
                stats.neighbours, stats3.neighbours,
                "{edges:?}: step {step}"
            );
            for (i, (p2, p3)) in flat.positions().iter().zip(deep.positions()).enumerate() {
                assert_eq!(p3.z, 0.0, "{edges:?}: step {step}: boid {i} left the plane");
                assert_eq!(p3.truncate(), *p2, "{edges:?}: step {step}: boid {i}");
            }
            for (v2, v3) in flat.velocities().iter().zip(deep.velocities()) {
                assert_eq!(*v3, v2.extend(0.0), "{edges:?}: step {step}");
            }
        }
    }
}

#[test]
fn every_3d_index_gives_the_2d_neighbours_and_forces_on_each_of_100_steps() {
    // The grid's lanes and the tree sum in their own orders, so trajectories part by rounding
    // over many steps; each step is compared from the same state instead: the 2D flock's,
    // lifted into the plane z = 0.
    for edges in EDGES {
        for index in [flock_core::IndexKind::Grid, flock_core::IndexKind::KdTree] {
            let config = settings(edges, index);
            let config3 = lifted_config(&config, 400.0);
            let constants = StepConstants::new(&config3);
            let scale = config.max_force
                * (config.weights.separation + config.weights.alignment + config.weights.cohesion);
            let mut flat = Flock2::random(1_000, &config, 4);
            let mut index3 = AnyIndex::new(config3.index);
            let mut forces3 = vec![Vector::NAN; flat.len()];
            let weights = vec![config3.weights; flat.len()];
            let mut with_neighbours = 0;
            for step in 0..100 {
                let (positions, velocities) = (lift(flat.positions()), lift(flat.velocities()));
                index3.rebuild(
                    &positions,
                    &constants.space,
                    constants.query_radius,
                    &Serial,
                );
                let stats3 = index3.compute_forces(
                    ForceInputs::new(&constants, &positions, &velocities, &weights),
                    &mut forces3,
                    &Serial,
                );
                let stats = flat.step(&config, 1.0 / 60.0);
                assert_eq!(
                    stats.neighbours, stats3.neighbours,
                    "{edges:?} {index:?}: step {step}"
                );
                for (i, (f2, f3)) in flat.forces().iter().zip(&forces3).enumerate() {
                    assert_eq!(f3.z, 0.0, "{edges:?} {index:?}: step {step}: boid {i}");
                    assert!(
                        (f3.truncate() - *f2).length() <= 1e-5 * scale,
                        "{edges:?} {index:?}: step {step}: boid {i}: 2D {f2}, 3D {f3}"
                    );
                }
                with_neighbours += usize::from(stats.neighbours > flat.len() as u64);
            }
            assert!(
                with_neighbours > 50,
                "{edges:?} {index:?}: a flock without neighbours"
            );
        }
    }
}

#[test]
fn the_grid_steps_a_planar_flock_in_the_plane() {
    // Stepped by its own grid for 100 steps, the 3D flock never leaves z = 0, and its
    // polarisation follows the 2D flock's within a few percent.
    let config = settings(flock_core::EdgeMode::Wrap, flock_core::IndexKind::Grid);
    let config3 = lifted_config(&config, 400.0);
    let mut flat = Flock2::random(1_000, &config, 5);
    let mut deep = Flock::new(lift(flat.positions()), lift(flat.velocities()), &config3);
    for _ in 0..100 {
        flat.step(&config, 1.0 / 60.0);
        deep.step(&config3, 1.0 / 60.0);
    }
    assert!(deep.positions().iter().all(|p| p.z == 0.0));
    assert!(deep.velocities().iter().all(|v| v.z == 0.0));
    let polarisation2 = flock_core::metrics::polarisation(flat.velocities());
    let polarisation3 = flock_core3d::metrics::polarisation(deep.velocities());
    assert!(
        (polarisation2 - polarisation3).abs() < 0.05,
        "2D {polarisation2}, 3D {polarisation3}"
    );
}
