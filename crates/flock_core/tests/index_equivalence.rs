//! The KD-tree gives the same neighbour sets and forces as brute force, the reference.

use flock_core::index::Lanes;
use flock_core::{
    AnyIndex, Bounds, EdgeMode, FlockConfig, IndexKind, NeighbourIndex, ScopedThreads, Serial,
    StepConstants, Vector,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use flock_core as kernel;
#[path = "common/forces.rs"]
mod forces;
use forces::*;

/// `count` boids uniformly in `area`, with random velocities up to `max_speed`.
fn random_state(count: usize, area: Bounds, max_speed: f32, seed: u64) -> State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let positions = (0..count)
        .map(|_| {
            Vector::new(
                rng.random_range(area.min.x..=area.max.x),
                rng.random_range(area.min.y..=area.max.y),
            )
        })
        .collect();
    let velocities = (0..count)
        .map(|_| Vector::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..max_speed))
        .collect();
    State {
        positions,
        velocities,
    }
}

struct Case {
    name: &'static str,
    count: usize,
    area: Bounds,
    edges: EdgeMode,
    wrap_neighbours: bool,
    view_angle_degrees: f32,
    relative_tolerance: f32,
}

#[test]
fn grid_and_kd_tree_match_brute_force_on_random_states() {
    let base = FlockConfig::default();
    let world = base.bounds;
    let corner = Bounds {
        min: world.min,
        max: world.min + world.size() * 0.1,
    };
    // In a dense cluster (hundreds of neighbours each) the rule sums nearly cancel, so the
    // force's direction is ill-conditioned: f32 sums in another order (the grid's lanes against
    // the reference's f64 sums) differ by slightly more than 1e-5 of the force scale there.
    // Uniform states agree within 1e-5.
    const UNIFORM: f32 = 1e-5;
    const DENSE: f32 = 3e-5;
    let case =
        |name, count, area, edges, wrap_neighbours, view_angle_degrees, relative_tolerance| Case {
            name,
            count,
            area,
            edges,
            wrap_neighbours,
            view_angle_degrees,
            relative_tolerance,
        };
    let cases = [
        case(
            "uniform, plain distance",
            2_000,
            world,
            EdgeMode::Bounce,
            false,
            360.0,
            UNIFORM,
        ),
        case(
            "uniform, across the seams",
            2_000,
            world,
            EdgeMode::Wrap,
            true,
            360.0,
            UNIFORM,
        ),
        case(
            "clustered in a corner, across the seams",
            800,
            corner,
            EdgeMode::Wrap,
            true,
            360.0,
            DENSE,
        ),
        case(
            "clustered in a corner, plain",
            800,
            corner,
            EdgeMode::Wrap,
            false,
            360.0,
            DENSE,
        ),
        case(
            "field of view 180",
            2_000,
            world,
            EdgeMode::Wrap,
            true,
            180.0,
            UNIFORM,
        ),
        case(
            "field of view 270, bounce",
            2_000,
            world,
            EdgeMode::Bounce,
            true,
            270.0,
            UNIFORM,
        ),
    ];
    for (seed, case) in cases.into_iter().enumerate() {
        let config = FlockConfig {
            edges: case.edges,
            wrap_neighbours: case.wrap_neighbours,
            view_angle_degrees: case.view_angle_degrees,
            ..base
        };
        let state = random_state(case.count, case.area, config.max_speed, seed as u64);
        assert_same_forces(&config, &state, case.name, case.relative_tolerance);
    }
}

#[test]
fn indexes_match_brute_force_when_the_radius_spans_the_world() {
    let config = FlockConfig {
        bounds: Bounds::centered(Vector::new(60.0, 40.0)),
        alignment_radius: 45.0,
        cohesion_radius: 70.0,
        ..FlockConfig::default()
    };
    let state = random_state(300, config.bounds, config.max_speed, 99);
    assert_same_forces(&config, &state, "radius wider than the world", 1e-5);
}

#[test]
fn kd_tree_candidates_are_a_superset_of_the_true_neighbours() {
    let config = FlockConfig::default();
    let state = random_state(1_000, config.bounds, config.max_speed, 5);
    let (index, constants) = built_index(IndexKind::KdTree, &config, &state);
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
                    "boid {me} misses {other}"
                );
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
    let config = FlockConfig {
        edges: EdgeMode::Free,
        ..FlockConfig::default()
    };
    let far = Bounds {
        min: Vector::new(5_000.0, -3_000.0),
        max: Vector::new(5_600.0, -2_700.0),
    };
    let state = random_state(1_500, far, config.max_speed, 11);
    assert_same_forces(&config, &state, "free edges, far away", 1e-5);
}

#[test]
fn the_thread_count_does_not_change_a_single_bit() {
    let config = FlockConfig::default();
    let state = random_state(5_000, config.bounds, config.max_speed, 21);
    for kind in [IndexKind::Grid, IndexKind::KdTree] {
        let (serial, _) = weighted_forces(kind, &config, &state, &Serial);
        for threads in [2, 3, 7] {
            let (parallel, _) = weighted_forces(kind, &config, &state, &ScopedThreads(threads));
            let bits = |forces: &[Vector]| -> Vec<[u32; 2]> {
                forces
                    .iter()
                    .map(|f| [f.x.to_bits(), f.y.to_bits()])
                    .collect()
            };
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
fn lane_cases() -> Vec<(&'static str, FlockConfig, State)> {
    let base = FlockConfig {
        view_angle_degrees: 270.0,
        ..FlockConfig::default()
    };
    let mut cases = vec![(
        "3000 uniform",
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
        "three different radii",
        apart,
        random_state(3_000, apart.bounds, apart.max_speed, 35),
    ));
    // Fewer boids than the widest lanes: every batch is partial, and there are fewer slots in
    // the whole flock than lanes.
    for count in [1, 2, 3, 5, 7, 9, 15] {
        let area = Bounds::centered(Vector::splat(60.0));
        cases.push((
            "fewer than 16 boids",
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
        *position = Vector::new(x, 0.0);
    }
    cases.push(("collinear", collinear, line));
    // A wrapping world exactly 3 cells across: every row wraps on both sides.
    let three = FlockConfig {
        bounds: Bounds::centered(Vector::new(310.0, 330.0)),
        separation_radius: 30.0,
        alignment_radius: 100.0,
        cohesion_radius: 100.0,
        edges: EdgeMode::Wrap,
        wrap_neighbours: true,
        ..base
    };
    for count in [12, 40] {
        cases.push((
            "periodic, 3 columns",
            three,
            random_state(count, three.bounds, three.max_speed, 33 + count as u64),
        ));
    }
    // Non-finite slots among ordinary boids, small and large flocks, plain and periodic.
    for (count, edges) in [(10, EdgeMode::Bounce), (300, EdgeMode::Wrap)] {
        let config = FlockConfig {
            edges,
            wrap_neighbours: true,
            ..base
        };
        let area = Bounds::centered(Vector::splat(if count < 16 { 40.0 } else { 300.0 }));
        let mut state = random_state(count, area, config.max_speed, 34 + count as u64);
        poison(&mut state);
        cases.push(("non-finite slots", config, state));
    }
    cases
}

/// Gives the first boids of `state` every kind of non-finite position and velocity.
fn poison(state: &mut State) {
    let bad = [
        (Vector::new(f32::NAN, 0.0), Vector::X),
        (Vector::new(f32::INFINITY, 1.0), Vector::X),
        (Vector::new(-1.0, f32::NEG_INFINITY), Vector::X),
        (Vector::splat(f32::INFINITY), Vector::X),
        (Vector::new(1.0, 1.0), Vector::new(f32::NAN, 1.0)),
        (Vector::new(-2.0, 1.0), Vector::new(f32::INFINITY, 0.0)),
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
        let case = format!("{name} ({} boids)", state.positions.len());
        assert_lanes_agree(&case, &config, &state, &ran);
        // The periodic case must really be three cells across, or it tests nothing new.
        if name == "periodic, 3 columns" {
            let constants = StepConstants::new(&config);
            let mut grid = flock_core::Grid::default();
            grid.rebuild(
                &state.positions,
                &constants.space,
                constants.query_radius,
                &Serial,
            );
            assert_eq!(grid.dimensions(), (3, 3), "{case}");
        }
    }
}

#[test]
fn a_non_finite_boid_changes_no_neighbours_force_on_any_lane_width() {
    // Boids with a position that is not finite are nobody's neighbour: every other boid's
    // force is what it would be without them. (Before the lanes masked their products, one
    // such slot gave NaN to every boid around it.)
    let config = FlockConfig {
        edges: EdgeMode::Bounce,
        ..FlockConfig::default()
    };
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
    let config = FlockConfig::default();
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
            &constants,
            &state.positions,
            &state.velocities,
            &weights,
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
        let shift = Vector::new(
            rng.random_range(-5i32..=5) as f32,
            rng.random_range(-5i32..=5) as f32,
        );
        *position = (*position * 1024.0).round() / 1024.0 + shift * 128.0;
    }
    assert!(
        state
            .positions
            .iter()
            .filter(|p| !config.bounds.contains(**p))
            .count()
            > 300
    );
    assert_same_forces(&config, &state, "many worlds outside", 1e-5);
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
            state.positions[2 * i + 1] = first + Vector::new(radius / 2.0, 0.0);
        }
        state
    };
    let line = |from: f32, to: f32| Bounds {
        min: Vector::new(from, 0.0),
        max: Vector::new(to, 0.0),
    };
    let square = |half: f32| Bounds::centered(Vector::splat(2.0 * half));
    let cases = [
        (
            "two boids 1e20 apart, radius 100",
            with_radius(100.0, EdgeMode::Free, world),
            State {
                positions: vec![Vector::ZERO, Vector::new(1e20, 0.0)],
                velocities: vec![Vector::X; 2],
            },
        ),
        (
            "two boids 1e9 apart, radius 1e-9",
            with_radius(1e-9, EdgeMode::Bounce, world),
            State {
                positions: vec![Vector::ZERO, Vector::new(1e9, 0.0)],
                velocities: vec![Vector::X; 2],
            },
        ),
        (
            "near both ends of f32",
            with_radius(1.0, EdgeMode::Free, world),
            State {
                positions: vec![Vector::new(-3e38, -3e38), Vector::new(3e38, 3e38)],
                velocities: vec![Vector::X; 2],
            },
        ),
        // (Pairs stay many f32 steps apart at these coordinates, so they don't coincide.)
        (
            "collinear pairs over 1e8, radius 100",
            with_radius(100.0, EdgeMode::Free, world),
            pairs(1_000, 100.0, line(-5e7, 5e7), 80),
        ),
        (
            "elongated: 1e8 by 1e4, radius 100",
            with_radius(100.0, EdgeMode::Free, world),
            pairs(
                1_000,
                100.0,
                Bounds {
                    min: Vector::new(0.0, 0.0),
                    max: Vector::new(1e8, 1e4),
                },
                81,
            ),
        ),
        (
            "far apart both ways: 1e15, radius 1e9",
            with_radius(1e9, EdgeMode::Free, world),
            pairs(200, 1e9, square(1e15), 82),
        ),
        (
            "wrapping world 2e9 by 1e-3, radius 1e-6",
            with_radius(
                1e-6,
                EdgeMode::Wrap,
                Bounds {
                    min: Vector::new(-1e9, 0.0),
                    max: Vector::new(1e9, 1e-3),
                },
            ),
            pairs(
                200,
                1e-6,
                Bounds {
                    min: Vector::new(-1.0, 0.0),
                    max: Vector::new(1.0, 1e-3),
                },
                83,
            ),
        ),
        (
            "wrapping world 2e9 square, radius 1e-3",
            with_radius(1e-3, EdgeMode::Wrap, Bounds::centered(Vector::splat(2e9))),
            pairs(200, 1e-3, square(10.0), 84),
        ),
    ];
    for (name, config, state) in cases {
        assert_eq!(config.validate(), Ok(()), "{name}");
        let count = state.positions.len();
        let constants = StepConstants::new(&config);
        let mut grid = flock_core::Grid::default();
        grid.rebuild(
            &state.positions,
            &constants.space,
            constants.query_radius,
            &Serial,
        );
        let (columns, rows) = grid.dimensions();
        let budget = (4 * count).max(16) as u64;
        assert!(
            u64::from(columns) * u64::from(rows) <= budget,
            "{name}: {columns} x {rows} cells for {count} boids"
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
    let config = FlockConfig::default();
    let state = random_state(3_000, config.bounds, config.max_speed, 90);
    assert_own_weights_are_honoured(&config, &state, 91);
}
