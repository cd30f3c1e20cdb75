//! Topological neighbours ([`Neighbours::Nearest`]): the grid, the KD-tree and brute force pick
//! the same `k` nearest (nearer first, then lower index) and give the same forces to the bit,
//! equal to a plain sort of every boid by distance; ties, seams, a field of view, thread counts,
//! boids that are not finite, and the settings refused. `flock_core3d` runs the same cases in
//! 3D (`[[test]] path` in its manifest).

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::*;
use kernel::{
    DIMENSIONS, EdgeMode, FlockConfig, IndexKind, Neighbours, ScopedThreads, Serial, StepConstants,
    Vector, rule_forces,
};

const INDEXES: [IndexKind; 3] = [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce];

fn nearest(config: FlockConfig, k: u32) -> FlockConfig {
    FlockConfig {
        neighbours: Neighbours::Nearest { k },
        ..config
    }
}

fn bits(forces: &[Vector]) -> Vec<Vec<u32>> {
    let bits = |force: &Vector| force.to_array().map(f32::to_bits).to_vec();
    forces.iter().map(bits).collect()
}

/// Every boid's weighted force from its `k` nearest, chosen by sorting every other boid it sees
/// within the largest radius by distance, then index: the definition, without any index.
fn by_sorting_everyone(config: &FlockConfig, state: &State, k: usize) -> Vec<Vector> {
    let constants = StepConstants::new(config);
    let reach = config.max_radius() * config.max_radius();
    let count = state.positions.len();
    (0..count)
        .map(|me| {
            let position = state.positions[me];
            let heading = state.velocities[me].normalize_or_zero();
            let cos_half_view = (config.view_angle_degrees / 2.0).to_radians().cos();
            let mut seen: Vec<(f32, u32)> = (0..count)
                .filter(|&other| other != me)
                .filter_map(|other| {
                    let offset = constants.space.delta(position, state.positions[other]);
                    let distance_squared = offset.length_squared();
                    let in_view = config.view_angle_degrees >= 360.0
                        || heading == Vector::ZERO
                        || offset.dot(heading) >= cos_half_view * distance_squared.sqrt();
                    (distance_squared > 0.0 && distance_squared < reach && in_view)
                        .then_some((distance_squared, other as u32))
                })
                .collect();
            seen.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut chosen: Vec<u32> = seen.iter().take(k).map(|&(_, other)| other).collect();
            chosen.sort_unstable();
            let forces = rule_forces(me, &state.positions, &state.velocities, &chosen, &constants);
            forces.weighted(&config.weights)
        })
        .collect()
}

/// Every index gives the same forces to the bit, equal to [`by_sorting_everyone`].
fn assert_every_index_picks_the_nearest(config: &FlockConfig, state: &State, case: &str) {
    let Neighbours::Nearest { k } = config.neighbours else {
        panic!("{case}: not topological");
    };
    let expected = bits(&by_sorting_everyone(config, state, k as usize));
    for kind in INDEXES {
        let (forces, stats) = weighted_forces(kind, config, state, &Serial);
        assert_eq!(bits(&forces), expected, "{case}: {kind:?}");
        assert!(
            stats.neighbours <= u64::from(k) * state.positions.len() as u64,
            "{case}: {kind:?} counted {} neighbours",
            stats.neighbours
        );
    }
}

#[test]
fn every_index_picks_the_same_nearest_as_sorting_everyone() {
    for (seed, edges) in [EdgeMode::Wrap, EdgeMode::Bounce].into_iter().enumerate() {
        for k in [1, 6, 7, 40] {
            let config = nearest(in_world(edges), k);
            let state = random_state(1_500, config.bounds, config.max_speed, seed as u64);
            assert_every_index_picks_the_nearest(&config, &state, &format!("{edges:?}, k {k}"));
        }
    }
}

#[test]
fn with_a_field_of_view_the_nearest_are_among_those_in_view() {
    for view in [90.0, 270.0] {
        let config = FlockConfig {
            view_angle_degrees: view,
            ..nearest(in_world(EdgeMode::Wrap), 7)
        };
        let state = random_state(1_500, config.bounds, config.max_speed, 31);
        assert_every_index_picks_the_nearest(&config, &state, &format!("view {view}"));
    }
}

#[test]
fn ties_go_to_the_lower_index_in_every_index() {
    // A lattice 10 apart: each boid has 2 * DIMENSIONS neighbours at exactly 10, and more at
    // exactly 10 * sqrt(2): k = 3 and 5 must break ties, the same way everywhere.
    let side: usize = 12;
    let count = side.pow(DIMENSIONS as u32);
    let positions: Vec<Vector> = (0..count)
        .map(|i| {
            let mut point = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                let step = (i / side.pow(axis as u32)) % side;
                point[axis] = step as f32 * 10.0 - 55.0;
            }
            point
        })
        .collect();
    let velocities = (0..count)
        .map(|i| xyz((i % 7) as f32, (i % 5) as f32 - 2.0, 1.0))
        .collect();
    let state = State {
        positions,
        velocities,
    };
    for k in [1, 3, 5] {
        for edges in [EdgeMode::Bounce, EdgeMode::Wrap] {
            let config = nearest(in_world(edges), k);
            assert_every_index_picks_the_nearest(&config, &state, &format!("lattice, k {k}"));
        }
    }
}

#[test]
fn a_k_above_every_neighbour_count_is_the_metric_flock() {
    let config = in_world(EdgeMode::Wrap);
    let state = random_state(800, config.bounds, config.max_speed, 8);
    for kind in [IndexKind::KdTree, IndexKind::BruteForce] {
        let (metric, _) = weighted_forces(kind, &config, &state, &Serial);
        let (all, _) = weighted_forces(
            kind,
            &nearest(config, Neighbours::MAX_NEAREST),
            &state,
            &Serial,
        );
        assert_eq!(bits(&all), bits(&metric), "{kind:?}");
    }
    // A small k does change the flock.
    let (metric, _) = weighted_forces(IndexKind::BruteForce, &config, &state, &Serial);
    let (few, _) = weighted_forces(IndexKind::BruteForce, &nearest(config, 2), &state, &Serial);
    assert_ne!(bits(&few), bits(&metric));
}

#[test]
fn the_thread_count_does_not_change_a_single_bit() {
    let config = nearest(in_world(EdgeMode::Wrap), 7);
    let state = random_state(3_000, config.bounds, config.max_speed, 12);
    for kind in INDEXES {
        let (serial, _) = weighted_forces(kind, &config, &state, &Serial);
        for threads in [2, 3, 8] {
            let (threaded, _) = weighted_forces(kind, &config, &state, &ScopedThreads(threads));
            assert_eq!(
                bits(&threaded),
                bits(&serial),
                "{kind:?}, {threads} threads"
            );
        }
    }
}

#[test]
fn boids_that_are_not_finite_take_no_ones_place() {
    let config = nearest(in_world(EdgeMode::Wrap), 3);
    let state = random_state(600, config.bounds, config.max_speed, 4);
    let mut poisoned = state.clone();
    poisoned.positions.push(Vector::splat(f32::NAN));
    poisoned.velocities.push(Vector::ZERO);
    poisoned.positions.push(Vector::splat(f32::INFINITY));
    poisoned.velocities.push(Vector::X);
    let (clean, _) = weighted_forces(IndexKind::BruteForce, &config, &state, &Serial);
    for kind in INDEXES {
        let (forces, _) = weighted_forces(kind, &config, &poisoned, &Serial);
        assert!(forces.iter().all(|force| force.is_finite()), "{kind:?}");
        // Neither newcomer is anyone's neighbour: every other force is unchanged.
        let changed = (bits(&forces[..clean.len()]).iter())
            .zip(&bits(&clean))
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(changed, 0, "{kind:?}");
    }
}

#[test]
fn a_k_of_zero_or_beyond_the_maximum_is_refused() {
    let config = in_world(EdgeMode::Wrap);
    for k in [0, Neighbours::MAX_NEAREST + 1, u32::MAX] {
        let error = nearest(config, k).validate().unwrap_err();
        assert_eq!(error.field, "neighbours.k", "{k}");
    }
    for k in [1, 7, Neighbours::MAX_NEAREST] {
        assert_eq!(nearest(config, k).validate(), Ok(()), "{k}");
    }
    assert_eq!(FlockConfig::default().neighbours, Neighbours::Metric);
}
