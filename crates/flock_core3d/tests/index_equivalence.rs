//! In 3D, the KD-tree and the grid (on every lane width this processor has) give brute
//! force's neighbour sets and forces: uniform, clustered, across the seams of a periodic box,
//! with a field-of-view cone, a radius wider than the world, free edges far from the bounds,
//! and the awkward states where the lanes' partial batches and seams show.

mod common;

use common::{
    State, assert_lanes_agree, assert_own_weights_are_honoured, assert_same_forces,
    available_lane_widths, built_index, cube, forces_with, random_state, weighted_forces,
};
use flock_core3d::{
    Bounds, EdgeMode, FlockConfig, Grid, IndexKind, NeighbourIndex, ScopedThreads, Serial,
    StepConstants, Vector,
};

/// The default settings (radii 25 / 50 / 50) in a cube `side` wide.
fn in_cube(side: f32, edges: EdgeMode) -> FlockConfig {
    FlockConfig {
        bounds: cube(side),
        edges,
        wrap_neighbours: true,
        ..FlockConfig::default()
    }
}

/// Uniform states in a 400-wide box: about 17 neighbours each within 50.
const SIDE: f32 = 400.0;
const UNIFORM: f32 = 1e-5;
/// Dense clusters nearly cancel their sums, so f32 sums in another order differ more.
const DENSE: f32 = 3e-5;

#[test]
fn uniform_states_with_and_without_seams() {
    for (seed, (name, edges, wrap_neighbours)) in [
        ("uniform, bounce", EdgeMode::Bounce, false),
        ("uniform, across the seams", EdgeMode::Wrap, true),
        ("uniform, wrap with plain distance", EdgeMode::Wrap, false),
    ]
    .into_iter()
    .enumerate()
    {
        let config = FlockConfig {
            wrap_neighbours,
            ..in_cube(SIDE, edges)
        };
        let state = random_state(2_000, config.bounds, config.max_speed, seed as u64);
        assert_same_forces(&config, &state, name, UNIFORM);
    }
}

#[test]
fn a_cluster_in_a_corner_reaches_across_every_seam() {
    // A cube at the corner where all three seams meet: neighbours lie across each of them.
    let config = in_cube(SIDE, EdgeMode::Wrap);
    let corner = Bounds {
        min: config.bounds.min,
        max: config.bounds.min + Vector::splat(40.0),
    };
    let mut state = random_state(800, corner, config.max_speed, 7);
    // Half of them in the opposite corner's cube: 10 to 50 away across the seams.
    for position in state.positions.iter_mut().skip(400) {
        *position += config.bounds.size() - Vector::splat(40.0);
    }
    assert_same_forces(&config, &state, "clustered at the seams' corner", DENSE);
    let plain = FlockConfig {
        wrap_neighbours: false,
        ..config
    };
    assert_same_forces(&plain, &state, "clustered, plain distance", DENSE);
}

#[test]
fn a_field_of_view_cone_is_the_same_for_every_index() {
    for (seed, view) in [(20, 90.0), (21, 180.0), (22, 270.0)] {
        for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
            let config = FlockConfig {
                view_angle_degrees: view,
                ..in_cube(SIDE, edges)
            };
            let state = random_state(2_000, config.bounds, config.max_speed, seed);
            assert_same_forces(&config, &state, &format!("view {view}, {edges:?}"), UNIFORM);
        }
    }
}

#[test]
fn a_cone_sees_what_is_ahead_not_what_is_behind_or_beside() {
    // One boid flying along +z with a 90 degree cone: a neighbour 40 ahead counts, one 40
    // behind or 40 to the side does not, one ahead at 30 degrees off the heading does.
    let config = FlockConfig {
        view_angle_degrees: 90.0,
        ..in_cube(SIDE, EdgeMode::Bounce)
    };
    let ahead_at_30 = Vector::new(0.0, 40.0 * 0.5, 40.0 * 0.75f32.sqrt());
    for (other, seen) in [
        (Vector::new(0.0, 0.0, 40.0), true),
        (Vector::new(0.0, 0.0, -40.0), false),
        (Vector::new(40.0, 0.0, 0.0), false),
        (Vector::new(0.0, -40.0, 0.0), false),
        (ahead_at_30, true),
    ] {
        let state = State {
            positions: vec![Vector::ZERO, other],
            velocities: vec![Vector::Z * 10.0, Vector::X],
        };
        for kind in [IndexKind::BruteForce, IndexKind::KdTree, IndexKind::Grid] {
            let forces = forces_with(kind, &config, &state);
            assert_eq!(forces[0].neighbours, u32::from(seen), "{kind:?}: {other}");
            let (_, stats) = weighted_forces(kind, &config, &state, &Serial);
            // The other boid flies along +x, so it sees all around it only if 90 degrees
            // around x reaches back to the origin: it does not for any of these.
            assert!(stats.neighbours <= 1, "{kind:?}: {other}");
        }
    }
}

#[test]
fn indexes_match_brute_force_when_the_radius_spans_the_world() {
    let config = FlockConfig {
        bounds: Bounds::centered(Vector::new(60.0, 40.0, 50.0)),
        alignment_radius: 45.0,
        cohesion_radius: 70.0,
        ..FlockConfig::default()
    };
    let state = random_state(300, config.bounds, config.max_speed, 99);
    assert_same_forces(&config, &state, "radius wider than the world", UNIFORM);
}

#[test]
fn free_edges_with_boids_far_outside_the_bounds() {
    // With free edges the grid covers where the boids are, not the bounds.
    let config = in_cube(SIDE, EdgeMode::Free);
    let far = Bounds {
        min: Vector::new(5_000.0, -3_000.0, 9_000.0),
        max: Vector::new(5_300.0, -2_750.0, 9_250.0),
    };
    let state = random_state(1_500, far, config.max_speed, 11);
    assert_same_forces(&config, &state, "free edges, far away", UNIFORM);
}

#[test]
fn kd_tree_and_grid_candidates_hold_every_true_neighbour() {
    let config = in_cube(300.0, EdgeMode::Wrap);
    let state = random_state(1_000, config.bounds, config.max_speed, 5);
    for kind in [IndexKind::KdTree, IndexKind::Grid] {
        let (index, constants) = built_index(kind, &config, &state);
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
                        "{kind:?}: boid {me} misses {other}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_thread_count_does_not_change_a_single_bit() {
    let config = in_cube(SIDE, EdgeMode::Wrap);
    let state = random_state(4_000, config.bounds, config.max_speed, 21);
    let bits = |forces: &[Vector]| -> Vec<[u32; 3]> {
        forces
            .iter()
            .map(|f| f.to_array().map(f32::to_bits))
            .collect()
    };
    for kind in [IndexKind::Grid, IndexKind::KdTree] {
        let (serial, _) = weighted_forces(kind, &config, &state, &Serial);
        for threads in [2, 3, 7] {
            let (parallel, _) = weighted_forces(kind, &config, &state, &ScopedThreads(threads));
            assert_eq!(
                bits(&serial),
                bits(&parallel),
                "{kind:?}, {threads} threads"
            );
        }
    }
}

#[test]
fn the_grid_is_a_3d_grid_with_its_cell_budget() {
    // 32 neighbours on average in a periodic box: cells one radius wide along every axis.
    let config = in_cube(500.0, EdgeMode::Wrap);
    let state = random_state(5_000, config.bounds, config.max_speed, 40);
    let constants = StepConstants::new(&config);
    let mut grid = Grid::default();
    grid.rebuild(
        &state.positions,
        &constants.space,
        constants.query_radius,
        &Serial,
    );
    assert_eq!(grid.dimensions(), (10, 10, 10));
    // Pairs of boids 10 apart spread far along x and z (free edges): the budget of four
    // cells per boid caps the grid in all, whatever the extent.
    let mut line = random_state(100, cube(1.0), 1.0, 41);
    for (i, position) in line.positions.iter_mut().enumerate() {
        let pair = (i / 2) as f32;
        *position = Vector::new(pair * 1e6 + (i % 2) as f32 * 10.0, 0.0, pair % 3.0 * 1e5);
    }
    let free = in_cube(500.0, EdgeMode::Free);
    let constants = StepConstants::new(&free);
    grid.rebuild(
        &line.positions,
        &constants.space,
        constants.query_radius,
        &Serial,
    );
    let (columns, rows, layers) = grid.dimensions();
    let cells = u64::from(columns) * u64::from(rows) * u64::from(layers);
    assert!(cells <= 400, "{columns} x {rows} x {layers}");
    assert!(columns > 1 && layers > 1, "{columns} x {rows} x {layers}");
    assert_same_forces(&free, &line, "spread along a line", UNIFORM);
}

/// Gives the first boids of `state` every kind of non-finite position and velocity.
fn poison(state: &mut State) {
    let bad = [
        (Vector::new(f32::NAN, 0.0, 0.0), Vector::X),
        (Vector::new(0.0, 0.0, f32::INFINITY), Vector::X),
        (Vector::new(-1.0, f32::NEG_INFINITY, 1.0), Vector::X),
        (Vector::splat(f32::INFINITY), Vector::X),
        (Vector::new(1.0, 1.0, 1.0), Vector::new(0.0, 0.0, f32::NAN)),
        (
            Vector::new(-2.0, 1.0, 0.5),
            Vector::new(f32::INFINITY, 0.0, 0.0),
        ),
    ];
    for (i, (position, velocity)) in bad.into_iter().enumerate() {
        state.positions[i] = position;
        state.velocities[i] = velocity;
    }
}

#[test]
fn every_lane_width_matches_brute_force_on_awkward_states() {
    let ran = available_lane_widths();

    let base = FlockConfig {
        view_angle_degrees: 270.0,
        ..in_cube(SIDE, EdgeMode::Wrap)
    };
    let mut cases = vec![(
        "3000 uniform".to_string(),
        base,
        random_state(3_000, base.bounds, base.max_speed, 31),
    )];
    // Fewer boids than the widest lanes: every batch is partial.
    for count in [1, 2, 3, 5, 7, 9, 15] {
        cases.push((
            format!("{count} boids"),
            base,
            random_state(count, cube(60.0), base.max_speed, count as u64),
        ));
    }
    // Three different radii: alignment and cohesion no longer share one set of lanes.
    let apart = FlockConfig {
        separation_radius: 20.0,
        alignment_radius: 35.0,
        cohesion_radius: 50.0,
        ..base
    };
    cases.push((
        "three different radii".to_string(),
        apart,
        random_state(3_000, apart.bounds, apart.max_speed, 35),
    ));
    // A periodic box exactly 3 cells along every axis: every row wraps on both sides, and
    // rows wrap along y and z.
    let three = FlockConfig {
        bounds: Bounds::centered(Vector::new(310.0, 330.0, 320.0)),
        separation_radius: 30.0,
        alignment_radius: 100.0,
        cohesion_radius: 100.0,
        ..base
    };
    for count in [12, 60] {
        cases.push((
            format!("periodic, 3 cells an axis, {count} boids"),
            three,
            random_state(count, three.bounds, three.max_speed, 33 + count as u64),
        ));
    }
    // Non-finite slots among ordinary boids, small and large flocks, plain and periodic.
    for (count, edges) in [(10, EdgeMode::Bounce), (300, EdgeMode::Wrap)] {
        let config = FlockConfig { edges, ..base };
        let area = cube(if count < 16 { 40.0 } else { 150.0 });
        let mut state = random_state(count, area, config.max_speed, 34 + count as u64);
        poison(&mut state);
        cases.push((format!("non-finite slots, {count} boids"), config, state));
    }
    for (case, config, state) in cases {
        assert_lanes_agree(&case, &config, &state, &ran);
        if case.starts_with("periodic") {
            let constants = StepConstants::new(&config);
            let mut grid = Grid::default();
            grid.rebuild(
                &state.positions,
                &constants.space,
                constants.query_radius,
                &Serial,
            );
            assert_eq!(grid.dimensions(), (3, 3, 3), "{case}");
        }
    }
}

#[test]
fn periodic_boxes_under_three_cells_an_axis_fall_back_and_agree() {
    // Two cells along z (the query radius is more than a third of the depth): the stencil
    // would visit a layer twice, so the grid takes its candidate path.
    let config = FlockConfig {
        bounds: Bounds::centered(Vector::new(400.0, 400.0, 120.0)),
        ..in_cube(SIDE, EdgeMode::Wrap)
    };
    let state = random_state(1_000, config.bounds, config.max_speed, 50);
    let constants = StepConstants::new(&config);
    let mut grid = Grid::default();
    grid.rebuild(
        &state.positions,
        &constants.space,
        constants.query_radius,
        &Serial,
    );
    assert_eq!(grid.dimensions(), (8, 8, 2));
    assert_same_forces(&config, &state, "2 layers, periodic", UNIFORM);
}

#[test]
fn boids_with_their_own_weights_get_their_own_forces_across_the_seams() {
    let config = in_cube(SIDE, EdgeMode::Wrap);
    let state = random_state(2_000, config.bounds, config.max_speed, 92);
    assert_own_weights_are_honoured(&config, &state, 93);
}
