//! The shape of the uniform grid the device rebuilds every step: cells at least one query
//! radius wide, so every neighbour of a boid lies in its own cell or the ones next to it.

use flock_core::{DIMENSIONS, FlockConfig};

/// The most cells the grid has (one scan block of 1024 counts per workgroup, and at most 1024
/// blocks, less the entry that ends the last cell). With a small radius in a large world the
/// cells grow wider than the radius instead: still correct, with more candidates per cell.
pub const MAX_CELLS: u32 = 1024 * 1024 - 1;

/// The fewest cells the grid may be capped to for a small flock: fewer cells than boids would
/// make cells crowded, many more would make clearing and scanning them the larger cost.
const MIN_CELL_CAP: u64 = 4096;

/// Cells per axis (1 on axes the dimension lacks) and cells per world unit on each axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GridShape {
    pub cells: [u32; 3],
    pub cells_per_unit: [f32; 3],
}

impl GridShape {
    /// The grid for `count` boids under `config` (already valid) whose farthest look is
    /// `reach` (at least the config's largest radius; species and hunts may look farther).
    pub fn new(config: &FlockConfig, reach: f32, count: usize) -> Self {
        let size = config.bounds.size();
        let cap = (2 * count as u64).clamp(MIN_CELL_CAP, u64::from(MAX_CELLS));
        // A hair wider than the radius, so f32 rounding of `size / cells` on the device never
        // makes a cell narrower than it.
        let radius = f64::from(reach.max(config.max_radius())) * (1.0 + 1e-5);
        let largest = (0..DIMENSIONS)
            .map(|axis| f64::from(size[axis]))
            .fold(0.0, f64::max);
        let mut width = radius.max(largest / 4096.0);
        let cells_for = |width: f64| -> [u64; 3] {
            let mut cells = [1; 3];
            for (axis, cell) in cells.iter_mut().enumerate().take(DIMENSIONS) {
                *cell = ((f64::from(size[axis]) / width).floor() as u64).max(1);
            }
            cells
        };
        let mut cells = cells_for(width);
        while cells.iter().product::<u64>() > cap {
            width *= 2.0;
            cells = cells_for(width);
        }
        let mut cells_per_unit = [0.0; 3];
        for axis in 0..DIMENSIONS {
            cells_per_unit[axis] = (cells[axis] as f64 / f64::from(size[axis])) as f32;
        }
        Self {
            cells: cells.map(|cells| cells as u32),
            cells_per_unit,
        }
    }

    /// How many cells in all.
    pub fn total(&self) -> u32 {
        self.cells.iter().product()
    }
}
