//! The step's settings as the shaders' `Params` uniform (shaders/common.wgsl) lays them out:
//! five `vec4`s, then scalars, padded to a multiple of 16 bytes (176 in all).

use flock_core::{DIMENSIONS, EdgeMode, FlockConfig, ForceLimit, RESCALE_DEAD_ZONE, SpeedMode};

use crate::grid::GridShape;
use crate::layout::to_bytes;

/// The uniform's bytes for one step of `count` boids, `dt` seconds, on `grid`.
pub(crate) fn params_bytes(config: &FlockConfig, grid: &GridShape, count: u32, dt: f32) -> Vec<u8> {
    let padded = |v: flock_core::Vector| {
        let mut out = [0.0f32; 4];
        out[..DIMENSIONS].copy_from_slice(&v.to_array()[..DIMENSIONS]);
        out
    };
    let (speed_mode, min_speed) = match config.speed_mode {
        SpeedMode::Constant => (0, 0.0),
        SpeedMode::Clamp { min_speed } => (1, min_speed),
    };
    let edges = match config.edges {
        EdgeMode::Wrap => 0,
        EdgeMode::Jump => 1,
        EdgeMode::Bounce => 2,
        EdgeMode::Free => 3,
    };
    let force_limit = match config.force_limit {
        ForceLimit::Truncate => 0,
        ForceLimit::Rescale => 1,
    };
    let view_limited = config.view_angle_degrees < 360.0;
    // As flock_core's `StepConstants::new`, with its sine and cosine.
    let cos_half_view = flock_core::lockstep::cos((config.view_angle_degrees / 2.0).to_radians());
    let dead_zone_squared = (RESCALE_DEAD_ZONE * config.max_speed / config.response_time).powi(2);

    let mut words: Vec<[u8; 4]> = Vec::with_capacity(48);
    for vector in [
        padded(config.bounds.min),
        padded(config.bounds.max),
        padded(config.bounds.size()),
    ] {
        words.extend(vector.map(f32::to_le_bytes));
    }
    let cells = [grid.cells[0], grid.cells[1], grid.cells[2], grid.total()];
    words.extend(cells.map(u32::to_le_bytes));
    words.extend(
        [
            grid.cells_per_unit[0],
            grid.cells_per_unit[1],
            grid.cells_per_unit[2],
            0.0,
        ]
        .map(f32::to_le_bytes),
    );
    let integers = [
        count,
        edges,
        u32::from(config.neighbours_wrap()),
        speed_mode,
        force_limit,
        u32::from(view_limited),
    ];
    words.extend(integers.map(u32::to_le_bytes));
    let floats = [
        dt,
        config.max_speed,
        min_speed,
        config.max_force,
        config.response_time.recip(),
        config.mass,
        config.separation_radius * config.separation_radius,
        config.alignment_radius * config.alignment_radius,
        config.cohesion_radius * config.cohesion_radius,
        config.weights.separation,
        config.weights.alignment,
        config.weights.cohesion,
        cos_half_view,
        dead_zone_squared,
        config.response_time,
    ];
    words.extend(floats.map(f32::to_le_bytes));
    while !words.len().is_multiple_of(4) {
        words.push([0; 4]);
    }
    to_bytes(words)
}
