//! What only the 3D indexes have: a field of view that is a cone around the heading, and a
//! grid of cells along all three axes. The cases both dimensions share are in `flock_core`'s
//! `tests/index_equivalence.rs`, which this crate runs too.

extern crate flock_core3d as kernel;

#[path = "../../flock_core/tests/common/mod.rs"]
mod common;

use common::{
    State, assert_same_forces, forces_with, grid_over, in_world, random_state, weighted_forces,
};
use kernel::{Bounds, EdgeMode, FlockConfig, IndexKind, Serial, Vector};

#[test]
fn a_cone_sees_what_is_ahead_not_what_is_behind_or_beside() {
    // One boid flying along +z with a 90 degree cone: a neighbour 40 ahead counts, one 40
    // behind or 40 to the side does not, one ahead at 30 degrees off the heading does.
    let config = FlockConfig {
        view_angle_degrees: 90.0,
        ..in_world(EdgeMode::Bounce)
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
fn the_grid_is_a_3d_grid_with_its_cell_budget() {
    // 32 neighbours on average in a periodic box: cells one radius wide along every axis.
    let config = FlockConfig {
        bounds: Bounds::centered(Vector::splat(500.0)),
        ..FlockConfig::default()
    };
    let state = random_state(5_000, config.bounds, config.max_speed, 40);
    assert_eq!(
        grid_over(&config, &state.positions).dimensions(),
        (10, 10, 10)
    );
    // Pairs of boids 10 apart spread far along x and z (free edges): the budget of four
    // cells per boid caps the grid in all, whatever the extent.
    let mut line = random_state(100, Bounds::centered(Vector::ONE), 1.0, 41);
    for (i, position) in line.positions.iter_mut().enumerate() {
        let pair = (i / 2) as f32;
        *position = Vector::new(pair * 1e6 + (i % 2) as f32 * 10.0, 0.0, pair % 3.0 * 1e5);
    }
    let free = FlockConfig {
        edges: EdgeMode::Free,
        ..config
    };
    let (columns, rows, layers) = grid_over(&free, &line.positions).dimensions();
    let cells = u64::from(columns) * u64::from(rows) * u64::from(layers);
    assert!(cells <= 400, "{columns} x {rows} x {layers}");
    assert!(columns > 1 && layers > 1, "{columns} x {rows} x {layers}");
    assert_same_forces(&free, &line, "spread along a line", 1e-5);
}
