//! The shape of the uniform grid the device rebuilds every step: cells at least one query
//! radius wide, so every neighbour of a boid lies in its own cell or the ones next to it.

use flock_core::{DIMENSIONS, FlockConfig};

/// Grid counts one scan workgroup handles (`SCAN_BLOCK` in shaders/grid.wgsl).
pub(crate) const SCAN_BLOCK: u32 = 1024;

/// The most cells a grid has on any device: the scan has three levels of 1024 (blocks of
/// cells, blocks of block totals, and the top block), less the entry that ends the last cell.
/// A device whose storage buffers hold fewer cell starts has fewer.
pub const MAX_CELLS: u32 = SCAN_BLOCK * SCAN_BLOCK * SCAN_BLOCK - 1;

/// Cells the grid may have per boid: about one boid in two cells keeps a boid's neighbours in
/// few, short cells; many more cells would make clearing and scanning them the larger cost.
pub(crate) const CELLS_PER_BOID: u64 = 2;

/// The fewest cells the grid may be capped to for a small flock.
pub(crate) const MIN_CELL_CAP: u64 = 4096;

/// The most cells along one axis, however small the radius: cell coordinates stay far within
/// f32's exact integers.
const MAX_CELLS_PER_AXIS: f64 = 65536.0;

/// How many cells a grid for `count` boids may have, `per_boid` cells a boid, on a device
/// whose buffers hold `device_cells` cells.
pub(crate) fn cell_cap(count: usize, per_boid: u64, device_cells: u64) -> u64 {
    let limit = device_cells.min(u64::from(MAX_CELLS));
    (per_boid.saturating_mul(count as u64))
        .max(MIN_CELL_CAP)
        .min(limit)
}

/// The entries of the scan's block totals for a grid of `entries` cell starts: one per block
/// of 1024 entries, then one per block of 1024 of those (shaders/grid.wgsl).
pub(crate) fn block_sum_entries(entries: u64) -> u64 {
    let blocks = entries.div_ceil(u64::from(SCAN_BLOCK));
    blocks + blocks.div_ceil(u64::from(SCAN_BLOCK))
}

/// Cells per axis (1 on axes the dimension lacks) and cells per world unit on each axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GridShape {
    pub cells: [u32; 3],
    pub cells_per_unit: [f32; 3],
}

impl GridShape {
    /// The grid of at most `cap` cells under `config` (already valid) for boids whose
    /// farthest look is `reach` (at least the config's largest radius; species and hunts may
    /// look farther). Cells are as narrow as the reach allows; when that would make more than
    /// `cap` of them, they widen only as far as the cap needs, so the candidates per boid grow
    /// smoothly with the flock instead of doubling on every axis at a threshold.
    pub fn new(config: &FlockConfig, reach: f32, cap: u64) -> Self {
        let size = config.bounds.size();
        let cap = cap.max(1);
        // A hair wider than the radius, so f32 rounding of `size / cells` on the device never
        // makes a cell narrower than it.
        let radius = f64::from(reach.max(config.max_radius())) * (1.0 + 1e-5);
        let largest = (0..DIMENSIONS)
            .map(|axis| f64::from(size[axis]))
            .fold(0.0, f64::max);
        let cells_for = |width: f64| -> [u64; 3] {
            let mut cells = [1; 3];
            for (axis, cell) in cells.iter_mut().enumerate().take(DIMENSIONS) {
                *cell = ((f64::from(size[axis]) / width).floor() as u64).max(1);
            }
            cells
        };
        let mut width = radius.max(largest / MAX_CELLS_PER_AXIS);
        let mut cells = cells_for(width);
        // Each round widens by the root of the excess over the axes still split (an axis of
        // one cell does not shrink), which lands at the cap or just under it in a round or two.
        for _ in 0..64 {
            let total: u64 = cells.iter().product();
            if total <= cap {
                break;
            }
            let split = cells.iter().filter(|&&cells| cells > 1).count().max(1);
            width *= (total as f64 / cap as f64).powf(1.0 / split as f64) * (1.0 + 1e-9);
            cells = cells_for(width);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn config(side: f32, radius: f32) -> FlockConfig {
        let mut config = FlockConfig {
            separation_radius: radius,
            alignment_radius: radius,
            cohesion_radius: radius,
            ..FlockConfig::default()
        };
        config.bounds.min = flock_core::Vector::ZERO;
        config.bounds.max = flock_core::Vector::splat(side);
        config
    }

    #[test]
    fn cells_are_the_radius_wide_while_the_cap_allows() {
        let grid = GridShape::new(&config(1000.0, 10.0), 0.0, u64::MAX);
        for axis in 0..DIMENSIONS {
            assert_eq!(grid.cells[axis], 99, "{grid:?}");
        }
    }

    #[test]
    fn capped_cells_widen_only_as_far_as_the_cap_needs() {
        // Cells a radius wide would be 999 a side; the cap takes the grid to just under it,
        // not to a power of two under it.
        let config = config(10_000.0, 10.0);
        for cap in [5_000, 100_000, 3_000_000, 20_000_000] {
            let grid = GridShape::new(&config, 0.0, cap);
            let total = u64::from(grid.total());
            assert!(total <= cap, "{total} cells over a cap of {cap}");
            let per_axis = (cap as f64).powf(1.0 / DIMENSIONS as f64);
            let fewest = (per_axis * 0.97).floor().powi(DIMENSIONS as i32) as u64;
            assert!(
                total >= fewest.min(999u64.pow(DIMENSIONS as u32)),
                "{total} cells for a cap of {cap}: widened further than needed"
            );
        }
    }

    #[test]
    fn a_thin_world_keeps_its_cells_within_the_cap() {
        // One long axis: the others stay one cell thick and the long one takes the whole cap.
        let mut config = config(1.0e6, 1.0);
        for axis in 1..DIMENSIONS {
            config.bounds.max[axis] = 1.0;
        }
        let grid = GridShape::new(&config, 0.0, 4096);
        assert!(grid.total() <= 4096 && grid.total() >= 4000, "{grid:?}");
    }

    #[test]
    fn the_cap_follows_the_flock_up_to_the_scan_and_the_device() {
        assert_eq!(cell_cap(0, CELLS_PER_BOID, u64::MAX), MIN_CELL_CAP);
        assert_eq!(cell_cap(10_000_000, CELLS_PER_BOID, u64::MAX), 20_000_000);
        assert_eq!(
            cell_cap(usize::MAX, CELLS_PER_BOID, u64::MAX),
            u64::from(MAX_CELLS)
        );
        assert_eq!(cell_cap(10_000_000, CELLS_PER_BOID, 1 << 24), 1 << 24);
        assert_eq!(block_sum_entries(1), 2);
        assert_eq!(block_sum_entries(1 << 30), (1 << 20) + 1024);
    }
}
