//! The KD-tree and the grid (on every lane width this processor has) give brute force's
//! neighbour sets and forces: uniform, clustered, across the seams of a periodic world, with a
//! field of view, a radius wider than the world, free edges far from the bounds, boids on the
//! very edge of a radius or of the view, and the awkward states where the lanes' partial
//! batches and seams show. `flock_core3d` runs the same cases in 3D (`[[test]] path` in its
//! manifest), in a box whose seams are faces.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::*;
use kernel::index::Lanes;
use kernel::{
    AnyIndex, Bounds, DIMENSIONS, EdgeMode, FlockConfig, ForceInputs, IndexKind, NeighbourIndex,
    ScopedThreads, Serial, StepConstants, Vector, random_direction,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Uniform states agree within 1e-5 of the force scale.
const UNIFORM: f32 = 1e-5;
/// In a dense cluster (hundreds of neighbours each) the rule sums nearly cancel, so the force's
/// direction is ill-conditioned: f32 sums in another order (the grid's lanes against the
/// reference's f64 sums) differ by slightly more than 1e-5 of the force scale there.
const DENSE: f32 = 3e-5;

#[test]
fn uniform_states_with_and_without_seams() {
    for (seed, (name, edges, wrap_neighbours)) in [
        ("uniform, plain distance", EdgeMode::Bounce, false),
        ("uniform, across the seams", EdgeMode::Wrap, true),
        ("uniform, wrap with plain distance", EdgeMode::Wrap, false),
    ]
    .into_iter()
    .enumerate()
    {
        let config = FlockConfig {
            wrap_neighbours,
            ..in_world(edges)
        };
        let state = random_state(2_000, config.bounds, config.max_speed, seed as u64);
        assert_same_forces(&config, &state, name, UNIFORM);
    }
}

#[test]
fn a_cluster_in_a_corner_reaches_across_every_seam() {
    // Half the flock in the corner a tenth of the world wide where the seams meet, half in the
    // opposite corner: neighbours lie across each seam.
    let config = in_world(EdgeMode::Wrap);
    let world = config.bounds;
    let corner = Bounds {
        min: world.min,
        max: world.min + world.size() * 0.1,
    };
    let mut state = random_state(800, corner, config.max_speed, 7);
    for position in state.positions.iter_mut().skip(400) {
        *position += world.size() * 0.9;
    }
    assert_same_forces(&config, &state, "clustered at the seams' corner", DENSE);
    let plain = FlockConfig {
        wrap_neighbours: false,
        ..config
    };
    assert_same_forces(&plain, &state, "clustered, plain distance", DENSE);
}

#[test]
fn a_field_of_view_is_the_same_for_every_index() {
    for (seed, view) in [(20, 90.0), (21, 180.0), (22, 270.0)] {
        for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
            let config = FlockConfig {
                view_angle_degrees: view,
                ..in_world(edges)
            };
            let state = random_state(2_000, config.bounds, config.max_speed, seed);
            assert_same_forces(&config, &state, &format!("view {view}, {edges:?}"), UNIFORM);
        }
    }
}

#[test]
fn boids_on_the_edge_of_the_view_or_the_reach_are_counted_alike_by_every_index() {
    // Pairs too far apart to see each other's pair: a watcher, and a boid placed within a
    // rounding or two of the edge of the watcher's view cone or of its reach, which arithmetic
    // rounded otherwise than brute force's (a fused multiply-add, a distance taken from another
    // image) would count otherwise. The boid heads back at its watcher, so it has a neighbour.
    let reach = 1.0;
    let spacing = 3.0 * reach;
    let pairs_per_row = 40;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(41);
    let lattice = Bounds {
        min: xyz(-20.0, -25.0, 0.0) * spacing,
        max: xyz(20.0, 25.0, 7.0) * spacing,
    };
    for (view, periodic) in [
        (90.0f32, false),
        (200.0, false),
        (338.5, false),
        (338.5, true),
        (200.0, true),
    ] {
        let config = FlockConfig {
            separation_radius: reach / 4.0,
            alignment_radius: reach,
            cohesion_radius: reach,
            view_angle_degrees: view,
            edges: if periodic {
                EdgeMode::Wrap
            } else {
                EdgeMode::Free
            },
            wrap_neighbours: periodic,
            bounds: lattice,
            max_speed: 1.0,
            ..FlockConfig::default()
        };
        let half_view = f64::from(view / 2.0).to_radians();
        let mut state = State {
            positions: Vec::new(),
            velocities: Vec::new(),
        };
        for pair in 0..2_000 {
            let centre = xyz(
                (pair % pairs_per_row) as f32 - pairs_per_row as f32 / 2.0,
                (pair / pairs_per_row) as f32 - 25.0,
                (pair % 7) as f32,
            ) * spacing;
            let heading = random_direction(&mut rng);
            let side = perpendicular(heading);
            let (angle, distance) = if pair % 2 == 0 {
                let edge = if rng.random_bool(0.5) {
                    half_view
                } else {
                    -half_view
                };
                (edge, rng.random_range(0.05..0.99) * f64::from(reach))
            } else {
                let ulps = f64::from(rng.random_range(-4i8..=4)) * f64::from(f32::EPSILON);
                (
                    rng.random_range(-0.9..0.9) * half_view,
                    f64::from(reach) * (1.0 + ulps),
                )
            };
            let offset =
                heading * (angle.cos() * distance) as f32 + side * (angle.sin() * distance) as f32;
            let mut other = centre + offset;
            if periodic {
                // Back inside by one world size. (`wrap_point`'s remainder rounds these boids
                // to places both subtractions happen to agree on; with this rounding the case
                // fails without `Space::delta`'s image subtraction.)
                let size = lattice.size();
                for axis in 0..DIMENSIONS {
                    if other[axis] < lattice.min[axis] {
                        other[axis] += size[axis];
                    }
                    if other[axis] >= lattice.max[axis] {
                        other[axis] -= size[axis];
                    }
                }
            }
            state.positions.extend([centre, other]);
            state
                .velocities
                .extend([heading, (centre - other).normalize()]);
        }
        let case = format!("on the edges, view {view}, periodic {periodic}");
        assert_same_forces(&config, &state, &case, UNIFORM);
        assert_lanes_agree(&case, &config, &state, &available_lane_widths());
    }
}

#[test]
fn indexes_match_brute_force_when_the_radius_spans_the_world() {
    let config = FlockConfig {
        bounds: Bounds::centered(xyz(60.0, 40.0, 50.0)),
        alignment_radius: 45.0,
        cohesion_radius: 70.0,
        ..FlockConfig::default()
    };
    let state = random_state(300, config.bounds, config.max_speed, 99);
    assert_same_forces(&config, &state, "radius wider than the world", UNIFORM);
}

#[test]
fn kd_tree_and_grid_candidates_hold_every_true_neighbour() {
    let config = in_world(EdgeMode::Wrap);
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
fn an_empty_flock_has_no_candidates() {
    let constants = StepConstants::new(&FlockConfig::default());
    let mut candidates = vec![7];
    for kind in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
        let mut index = AnyIndex::new(kind);
        index.rebuild(&[], &constants.space, constants.query_radius, &Serial);
        index.candidates(Vector::ZERO, 100.0, &mut candidates);
        assert!(candidates.is_empty());
    }
}

#[test]
fn free_edges_with_boids_far_outside_the_bounds() {
    // With free edges the grid covers where the boids are, not the bounds.
    let config = in_world(EdgeMode::Free);
    let far = Bounds {
        min: xyz(5_000.0, -3_000.0, 9_000.0),
        max: xyz(5_600.0, -2_700.0, 9_250.0),
    };
    let state = random_state(1_500, far, config.max_speed, 11);
    assert_same_forces(&config, &state, "free edges, far away", UNIFORM);
}

#[test]
fn the_thread_count_does_not_change_a_single_bit() {
    let config = in_world(EdgeMode::Wrap);
    let state = random_state(5_000, config.bounds, config.max_speed, 21);
    let bits = |forces: &[Vector]| -> Vec<[u32; DIMENSIONS]> {
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
                "{kind:?} with {threads} threads"
            );
        }
    }
}

/// The states the lane widths are checked on, where their partial batches and seams show:
/// (name, settings, state).
fn lane_cases() -> Vec<(String, FlockConfig, State)> {
    let base = FlockConfig {
        view_angle_degrees: 270.0,
        ..in_world(EdgeMode::Wrap)
    };
    let mut cases = vec![(
        "3000 uniform".to_string(),
        base,
        random_state(3_000, base.bounds, base.max_speed, 31),
    )];
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
    // Fewer boids than the widest lanes: every batch is partial, and there are fewer slots in
    // the whole flock than lanes.
    for count in [1, 2, 3, 5, 7, 9, 15] {
        let area = Bounds::centered(Vector::splat(60.0));
        cases.push((
            format!("{count} boids"),
            base,
            random_state(count, area, base.max_speed, count as u64),
        ));
    }
    // Boids on a line: long runs in one row, partial batches of every length.
    let collinear = FlockConfig {
        edges: EdgeMode::Free,
        ..base
    };
    // Uneven gaps: evenly spaced neighbours cancel exactly in brute force's f64 sums, and the
    // direction of a near-zero f32 sum is noise, not a difference worth a test.
    let mut line = random_state(200, Bounds::centered(Vector::splat(1.0)), 50.0, 32);
    let mut x = 0.0;
    for (i, position) in line.positions.iter_mut().enumerate() {
        x += 4.0 + (i * 37 % 11) as f32 * 0.7;
        *position = xyz(x, 0.0, 0.0);
    }
    cases.push(("collinear".to_string(), collinear, line));
    // A periodic world exactly 3 cells along every axis: every row wraps on both sides.
    let three = FlockConfig {
        bounds: Bounds::centered(xyz(310.0, 330.0, 320.0)),
        separation_radius: 30.0,
        alignment_radius: 100.0,
        cohesion_radius: 100.0,
        ..base
    };
    for count in [12, 40, 60] {
        cases.push((
            format!("periodic, 3 cells an axis, {count} boids"),
            three,
            random_state(count, three.bounds, three.max_speed, 33 + count as u64),
        ));
    }
    // Non-finite slots among ordinary boids, small and large flocks, plain and periodic.
    for (count, edges) in [(10, EdgeMode::Bounce), (300, EdgeMode::Wrap)] {
        let config = FlockConfig { edges, ..base };
        let area = Bounds::centered(Vector::splat(if count < 16 { 40.0 } else { 200.0 }));
        let mut state = random_state(count, area, config.max_speed, 34 + count as u64);
        poison(&mut state);
        cases.push((format!("non-finite slots, {count} boids"), config, state));
    }
    cases
}

/// Gives the first boids of `state` every kind of non-finite position and velocity; the first
/// four positions are not finite.
fn poison(state: &mut State) {
    let bad = [
        (xyz(f32::NAN, 0.0, 0.0), Vector::X),
        (on_last_axis(f32::INFINITY), Vector::X),
        (xyz(-1.0, f32::NEG_INFINITY, 1.0), Vector::X),
        (Vector::splat(f32::INFINITY), Vector::X),
        (xyz(1.0, 1.0, 1.0), on_last_axis(f32::NAN)),
        (xyz(-2.0, 1.0, 0.5), xyz(f32::INFINITY, 0.0, 0.0)),
    ];
    for (i, (position, velocity)) in bad.into_iter().enumerate() {
        state.positions[i] = position;
        state.velocities[i] = velocity;
    }
}

#[test]
fn every_lane_width_matches_brute_force_on_awkward_states() {
    // The processor picks the widest lanes it has; every width it has must agree with brute
    // force, partial batches (fewer boids than lanes, runs of every length), a periodic grid
    // only three cells across and non-finite slots included. Widths this processor lacks
    // can't run here: the output names which ran and which did not.
    let ran = available_lane_widths();
    for (name, config, state) in lane_cases() {
        assert_lanes_agree(&name, &config, &state, &ran);
        // The periodic case must really be three cells across, or it tests nothing new.
        if name.starts_with("periodic") {
            let cells = cells_per_axis(&grid_over(&config, &state.positions));
            assert_eq!(cells, [3; DIMENSIONS], "{name}");
        }
    }
}

#[test]
fn periodic_worlds_under_three_cells_an_axis_fall_back_and_agree() {
    // Two cells along y (the query radius is more than a third of the height): the stencil
    // would visit a row twice, so the grid takes its candidate path.
    let config = FlockConfig {
        bounds: Bounds::centered(xyz(400.0, 120.0, 400.0)),
        ..in_world(EdgeMode::Wrap)
    };
    let state = random_state(1_000, config.bounds, config.max_speed, 50);
    let cells = cells_per_axis(&grid_over(&config, &state.positions));
    assert_eq!(cells, [8, 2, 8][..DIMENSIONS]);
    assert_same_forces(&config, &state, "2 rows, periodic", UNIFORM);
}

#[test]
fn a_non_finite_boid_changes_no_neighbours_force_on_any_lane_width() {
    // Boids with a position that is not finite are nobody's neighbour: every other boid's
    // force is what it would be without them. (Before the lanes masked their products, one
    // such slot gave NaN to every boid around it.)
    let config = in_world(EdgeMode::Bounce);
    for count in [12, 500] {
        let area = Bounds::centered(Vector::splat(if count < 16 { 40.0 } else { 200.0 }));
        let mut state = random_state(count, area, config.max_speed, 60 + count as u64);
        poison(&mut state);
        // The same flock without the four boids whose position is bad.
        let clean = State {
            positions: state.positions[4..].to_vec(),
            velocities: state.velocities[4..].to_vec(),
        };
        let tolerance = 1e-5 * weighted_force_scale(&config);
        for lanes in [Lanes::Sse, Lanes::Avx, Lanes::Avx512] {
            let (Some((forces, _)), Some((clean_forces, _))) = (
                lane_forces(lanes, &config, &state),
                lane_forces(lanes, &config, &clean),
            ) else {
                continue;
            };
            assert!(
                forces.iter().all(|f| f.is_finite()),
                "{lanes:?}: {forces:?}"
            );
            for (i, (f, c)) in forces[4..].iter().zip(&clean_forces).enumerate() {
                assert!(
                    (*f - *c).length() <= tolerance,
                    "{count} boids, {lanes:?}: boid {}: {f} with the bad boids, {c} without",
                    i + 4
                );
            }
            // A boid that counts as a neighbour does change someone's force.
            assert!(clean_forces.iter().any(|f| *f != Vector::ZERO));
        }
    }
}

#[test]
fn a_grid_rebuilt_over_another_flock_matches_brute_force() {
    // A rebuild lists boids in the previous build's order; it must not matter what that was.
    let config = in_world(EdgeMode::Wrap);
    let constants = StepConstants::new(&config);
    let mut grid = AnyIndex::new(IndexKind::Grid);
    for (seed, count) in [(41, 2_000), (42, 2_000), (43, 1_500), (44, 1_500)] {
        let state = random_state(count, config.bounds, config.max_speed, seed);
        grid.rebuild(
            &state.positions,
            &constants.space,
            constants.query_radius,
            &Serial,
        );
        let weights = vec![config.weights; count];
        let mut forces = vec![Vector::NAN; count];
        grid.compute_forces(
            ForceInputs::new(&constants, &state.positions, &state.velocities, &weights),
            &mut forces,
            &Serial,
        );
        let (reference, _) = weighted_forces(IndexKind::BruteForce, &config, &state, &Serial);
        for (i, (r, f)) in reference.iter().zip(&forces).enumerate() {
            assert!(
                (*r - *f).length() <= 1e-5 * weighted_force_scale(&config),
                "seed {seed}: boid {i}: brute {r}, grid {f}"
            );
        }
    }
}

#[test]
fn indexes_find_neighbours_of_boids_many_worlds_outside_periodic_bounds() {
    // Other code may place boids anywhere; in a wrapping world a boid five worlds to the left
    // is where it would be wrapped to. (The KD-tree shifted queries by one world only.)
    let config = FlockConfig {
        bounds: Bounds::centered(Vector::splat(128.0)),
        separation_radius: 5.0,
        alignment_radius: 10.0,
        cohesion_radius: 10.0,
        edges: EdgeMode::Wrap,
        wrap_neighbours: true,
        ..FlockConfig::default()
    };
    let mut state = random_state(400, config.bounds, config.max_speed, 70);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(71);
    for position in &mut state.positions {
        // Multiples of 1/1024 and whole worlds: every shift and wrap is exact in f32, so the
        // indexes must agree with brute force exactly.
        let worlds = [0.0; DIMENSIONS].map(|_| rng.random_range(-5i32..=5) as f32);
        *position = (*position * 1024.0).round() / 1024.0 + Vector::from_array(worlds) * 128.0;
    }
    assert!(
        state
            .positions
            .iter()
            .filter(|p| !config.bounds.contains(**p))
            .count()
            > 300
    );
    assert_same_forces(&config, &state, "many worlds outside", UNIFORM);
}

#[test]
fn the_grid_stays_within_its_cell_budget_whatever_the_extent() {
    // Cells one radius wide over where the boids are (or over the world, when it wraps) could
    // number billions: boids on a line, far apart, or a tiny radius in a wide world. The grid
    // has at most four cells per boid (at least 16) whatever the extent, in both layouts, and
    // still finds brute force's neighbours. (Before, the first two cases asked for about 4e9
    // columns: 16 GiB of cell starts.)
    let with_radius = |radius: f32, edges: EdgeMode, bounds: Bounds| FlockConfig {
        separation_radius: radius / 2.0,
        alignment_radius: radius,
        cohesion_radius: radius,
        edges,
        wrap_neighbours: true,
        bounds,
        ..FlockConfig::default()
    };
    let world = Bounds::default();
    // Pairs of boids half a radius apart, the pairs spread over `spread`: every boid has exactly
    // one neighbour, so the check has something to find.
    let pairs = |count: usize, radius: f32, spread: Bounds, seed: u64| {
        let mut state = random_state(count, spread, 1.0, seed);
        let firsts: Vec<Vector> = state.positions.iter().step_by(2).copied().collect();
        for (i, first) in firsts.into_iter().enumerate() {
            state.positions[2 * i] = first;
            state.positions[2 * i + 1] = first + Vector::X * (radius / 2.0);
        }
        state
    };
    // From `min` to `max`, the lowest corner and the highest.
    let span = |min: Vector, max: Vector| Bounds { min, max };
    let square = |half: f32| Bounds::centered(Vector::splat(2.0 * half));
    let two_boids = |far: Vector| State {
        positions: vec![Vector::ZERO, far],
        velocities: vec![Vector::X; 2],
    };
    let cases = [
        (
            "two boids 1e20 apart, radius 100",
            with_radius(100.0, EdgeMode::Free, world),
            two_boids(xyz(1e20, 0.0, 0.0)),
        ),
        (
            "two boids 1e9 apart, radius 1e-9",
            with_radius(1e-9, EdgeMode::Bounce, world),
            two_boids(xyz(1e9, 0.0, 0.0)),
        ),
        (
            "near both ends of f32",
            with_radius(1.0, EdgeMode::Free, world),
            State {
                positions: vec![Vector::splat(-3e38), Vector::splat(3e38)],
                velocities: vec![Vector::X; 2],
            },
        ),
        // (Pairs stay many f32 steps apart at these coordinates, so they don't coincide.)
        (
            "collinear pairs over 1e8, radius 100",
            with_radius(100.0, EdgeMode::Free, world),
            pairs(
                1_000,
                100.0,
                span(xyz(-5e7, 0.0, 0.0), xyz(5e7, 0.0, 0.0)),
                80,
            ),
        ),
        (
            "elongated: 1e8 by 1e4, radius 100",
            with_radius(100.0, EdgeMode::Free, world),
            pairs(1_000, 100.0, span(Vector::ZERO, xyz(1e8, 1e4, 1e4)), 81),
        ),
        (
            "far apart every way: 1e15, radius 1e9",
            with_radius(1e9, EdgeMode::Free, world),
            pairs(200, 1e9, square(1e15), 82),
        ),
        (
            "wrapping world 2e9 by 1e-3, radius 1e-6",
            with_radius(
                1e-6,
                EdgeMode::Wrap,
                span(xyz(-1e9, 0.0, 0.0), xyz(1e9, 1e-3, 1e-3)),
            ),
            pairs(
                200,
                1e-6,
                span(xyz(-1.0, 0.0, 0.0), xyz(1.0, 1e-3, 1e-3)),
                83,
            ),
        ),
        (
            "wrapping world 2e9 wide every way, radius 1e-3",
            with_radius(1e-3, EdgeMode::Wrap, Bounds::centered(Vector::splat(2e9))),
            pairs(200, 1e-3, square(10.0), 84),
        ),
    ];
    for (name, config, state) in cases {
        assert_eq!(config.validate(), Ok(()), "{name}");
        let count = state.positions.len();
        let cells = cells_per_axis(&grid_over(&config, &state.positions));
        let budget = (4 * count).max(16) as u64;
        assert!(
            cells.iter().map(|&n| u64::from(n)).product::<u64>() <= budget,
            "{name}: {cells:?} cells for {count} boids"
        );
        let (reference, reference_stats) =
            weighted_forces(IndexKind::BruteForce, &config, &state, &Serial);
        let (forces, stats) = weighted_forces(IndexKind::Grid, &config, &state, &Serial);
        assert_eq!(stats.neighbours, reference_stats.neighbours, "{name}");
        if count > 2 {
            assert_eq!(stats.neighbours, count as u64, "{name}: one neighbour each");
        }
        let tolerance = 1e-5 * weighted_force_scale(&config);
        for (i, (r, f)) in reference.iter().zip(&forces).enumerate() {
            assert!(
                f.is_finite() && (*r - *f).length() <= tolerance,
                "{name}: boid {i}: brute {r}, grid {f}"
            );
        }
    }
}

#[test]
fn boids_with_their_own_weights_get_their_own_forces_and_leave_the_rest_to_the_bit() {
    let config = in_world(EdgeMode::Bounce);
    let state = random_state(3_000, config.bounds, config.max_speed, 90);
    assert_own_weights_are_honoured(&config, &state, 91);
}

#[test]
fn boids_with_their_own_weights_get_their_own_forces_across_the_seams() {
    let config = in_world(EdgeMode::Wrap);
    let state = random_state(2_000, config.bounds, config.max_speed, 92);
    assert_own_weights_are_honoured(&config, &state, 93);
}
