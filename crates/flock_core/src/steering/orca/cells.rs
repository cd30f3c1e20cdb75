//! A uniform grid over agents for ORCA's neighbour search and the contact pass: the
//! agents sorted by their cell's bucket (a counting sort, no allocation once grown), each with
//! its cell, so a query visits every agent of a cell exactly once whatever the hash collides.
//! Hashing rather than a bounded array keeps the memory proportional to the agents, however far
//! apart they are.

use crate::math::{DIMENSIONS, Vector};

/// A cell's integer coordinates (the last unused in 2D).
pub(super) type CellKey = [i32; 3];

/// The most rings of cells a nearest-first query visits around its own: a reach of two cells,
/// and one more for rounding.
const MAX_RINGS: i32 = 3;

/// The most cells a nearest-first query visits: `(2 * MAX_RINGS + 1)` per axis.
const MAX_CELLS: usize = 7usize.pow(DIMENSIONS as u32);

/// A relative bound on the roundings between a position, its cell's coordinates and the
/// cell's bounds: the walk widens what it visits by this much of the coordinates involved.
const ROUNDING: f32 = 8.0 * f32::EPSILON;

/// How cells map to buckets.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// One bucket per cell of the agents' bounding box, row by row (neighbouring cells near in
    /// memory): where the box has few cells for the agents.
    Dense { origin: CellKey, extent: [usize; 3] },
    /// Buckets by a hash of the cell, `mask + 1` of them: agents spread far apart.
    Hashed { mask: usize },
}

/// The agents of a step, by cell.
#[derive(Clone, Debug)]
pub(super) struct Cells<T> {
    cell_size: f32,
    /// One over the cell size: a cell's coordinates by a multiplication.
    per_cell: f32,
    layout: Layout,
    /// Where each bucket's entries start in `entries` (one more than the buckets).
    starts: Vec<u32>,
    /// The entries, bucket by bucket; in the order given within a bucket.
    entries: Vec<T>,
    /// The entries in the order given, with their cells, before sorting.
    staged: Vec<(CellKey, T)>,
}

impl<T> Default for Cells<T> {
    fn default() -> Self {
        Self {
            cell_size: 1.0,
            per_cell: 1.0,
            layout: Layout::Hashed { mask: 0 },
            starts: Vec::new(),
            entries: Vec::new(),
            staged: Vec::new(),
        }
    }
}

impl<T: Copy> Cells<T> {
    /// Sorts `items` (a position and a value each; items whose position is not finite are left
    /// out) into cells of `cell_size` (a normal positive number, else one).
    pub fn build(&mut self, cell_size: f32, items: impl ExactSizeIterator<Item = (Vector, T)>) {
        self.cell_size = if cell_size.is_normal() && cell_size > 0.0 {
            cell_size
        } else {
            1.0
        };
        self.per_cell = self.cell_size.recip();
        self.staged.clear();
        let (mut low, mut high) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (position, value) in items {
            if !position.is_finite() {
                continue;
            }
            let key = self.key(position);
            for axis in 0..3 {
                low[axis] = low[axis].min(key[axis]);
                high[axis] = high[axis].max(key[axis]);
            }
            self.staged.push((key, value));
        }
        let count = self.staged.len();
        let room = (4 * count).max(16);
        let mut cells = 1_usize;
        let mut extent = [1_usize; 3];
        for axis in 0..DIMENSIONS {
            let span = (i64::from(high[axis]) - i64::from(low[axis]) + 1).max(1);
            extent[axis] = usize::try_from(span).unwrap_or(usize::MAX);
            cells = cells.saturating_mul(extent[axis]);
        }
        let buckets = if count > 0 && cells <= room {
            self.layout = Layout::Dense {
                origin: low,
                extent,
            };
            cells
        } else {
            let buckets = (2 * count).next_power_of_two().max(16);
            self.layout = Layout::Hashed { mask: buckets - 1 };
            buckets
        };
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for &(key, _) in &self.staged {
            if let Some(bucket) = self.bucket(key) {
                self.starts[bucket + 1] += 1;
            }
        }
        for bucket in 0..buckets {
            self.starts[bucket + 1] += self.starts[bucket];
        }
        // A counting sort, stable: each entry at its bucket's next free slot, `starts` used as
        // the cursors and moved back after.
        self.entries.clear();
        let Some(&(_, value)) = self.staged.first() else {
            return;
        };
        self.entries.resize(count, value);
        for &(key, value) in &self.staged {
            if let Some(bucket) = self.bucket(key) {
                let slot = &mut self.starts[bucket];
                self.entries[*slot as usize] = value;
                *slot += 1;
            }
        }
        // Each cursor now stands at the next bucket's start.
        for bucket in (0..buckets).rev() {
            self.starts[bucket + 1] = self.starts[bucket];
        }
        self.starts[0] = 0;
    }

    /// Every entry, bucket by bucket (the agents of a cell together, and in the dense layout
    /// neighbouring cells near each other).
    pub fn entries(&self) -> &[T] {
        &self.entries
    }

    /// Calls `each` with every entry of the cells that meet the ball of `reach` about
    /// `centre`, each entry once, in runs (slices of [`entries`](Self::entries), with the
    /// first one's slot there), row by row along the first axis: the centre's own row, then
    /// ring by ring across the others. `each` returns the squared distance beyond which nothing
    /// is wanted any more (a nearest-k search's shrinking range); each row is cut to the chord
    /// the ball of that range leaves of it, so cells wholly beyond it are skipped. In the dense
    /// layout a row's cells are one run; in the hashed layout each cell's bucket is one.
    /// Entries of other cells that share a visited cell's bucket come too (the caller filters
    /// by distance).
    pub fn nearest_first(
        &self,
        centre: Vector,
        reach: f32,
        mut each: impl FnMut(u32, &[T]) -> f32,
    ) {
        if self.entries.is_empty() || !centre.is_finite() || reach.is_nan() {
            return;
        }
        let low = self.key(centre - Vector::splat(reach));
        let high = self.key(centre + Vector::splat(reach));
        let home = self.key(centre);
        let rings = (1..DIMENSIONS)
            .map(|axis| (home[axis] - low[axis]).max(high[axis] - home[axis]))
            .max()
            .unwrap_or(0)
            .clamp(0, MAX_RINGS);
        let (x_low, x_high) = (
            low[0].max(home[0].saturating_sub(MAX_RINGS)),
            high[0].min(home[0].saturating_add(MAX_RINGS)),
        );
        let mut range_squared = reach * reach;
        let mut visited = [usize::MAX; MAX_CELLS];
        let mut visited_count = 0;
        for ring in 0..=rings {
            let from = |axis: usize| (home[axis] - ring).max(low[axis]);
            let to = |axis: usize| (home[axis] + ring).min(high[axis]);
            let (z_from, z_to) = if DIMENSIONS == 3 {
                (from(2), to(2))
            } else {
                (0, 0)
            };
            for z in z_from..=z_to {
                for y in from(1)..=to(1) {
                    let on_ring = (y - home[1]).abs() == ring
                        || (DIMENSIONS == 3 && (z - home[2]).abs() == ring);
                    if !on_ring {
                        continue;
                    }
                    // The row's distance across it, and the half chord the range leaves of
                    // it along the first axis (widened by the rounding of the coordinates).
                    let row_gap_squared = self.gap_squared_across([0, y, z], centre);
                    if row_gap_squared >= range_squared {
                        continue;
                    }
                    let half_chord = (range_squared - row_gap_squared).sqrt();
                    let slack = (centre[0].abs() + half_chord + self.cell_size) * ROUNDING;
                    let first = self.axis_key(centre[0] - half_chord - slack).max(x_low);
                    let last = self.axis_key(centre[0] + half_chord + slack).min(x_high);
                    match self.layout {
                        Layout::Dense { origin, extent } => {
                            // The row's cells are neighbouring buckets: one run of entries.
                            let Some(row) = self.bucket([origin[0], y, z]) else {
                                continue;
                            };
                            let offset = |x: i32| i64::from(x) - i64::from(origin[0]);
                            let first = offset(first).max(0) as usize;
                            let last = offset(last).min(extent[0] as i64 - 1);
                            if last < first as i64 {
                                continue;
                            }
                            let (first, last) = (row + first, row + last as usize);
                            let (start, end) = (self.starts[first], self.starts[last + 1]);
                            if start < end {
                                let run = &self.entries[start as usize..end as usize];
                                range_squared = each(start, run).min(range_squared);
                            }
                        }
                        Layout::Hashed { .. } => {
                            for x in first..=last {
                                let Some(bucket) = self.bucket([x, y, z]) else {
                                    continue;
                                };
                                // Hashed cells may share a bucket: each bucket once.
                                if visited[..visited_count].contains(&bucket) {
                                    continue;
                                }
                                if visited_count < MAX_CELLS {
                                    visited[visited_count] = bucket;
                                    visited_count += 1;
                                }
                                let (start, end) = (self.starts[bucket], self.starts[bucket + 1]);
                                if start < end {
                                    let run = &self.entries[start as usize..end as usize];
                                    range_squared = each(start, run).min(range_squared);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The squared distance from `point` to the nearest point of the row of cells through
    /// `key` along the first axis (the first axis left out), less the roundings of the cells'
    /// bounds and of the point's coordinates (so never more than an entry's true distance).
    #[inline]
    fn gap_squared_across(&self, key: CellKey, point: Vector) -> f32 {
        let mut gap_squared = 0.0;
        for axis in 1..DIMENSIONS {
            let low = key[axis] as f32 * self.cell_size;
            let slack = (point[axis].abs() + self.cell_size) * ROUNDING;
            let gap = ((low - point[axis]).max(point[axis] - (low + self.cell_size)) - slack)
                .max(0.0);
            gap_squared += gap * gap;
        }
        gap_squared
    }

    /// The cell coordinate of `coordinate` along any axis: `floor(coordinate / cell_size)`
    /// (through the inverse, so a cell's bounds may be off by a rounding: the walk allows for
    /// it), saturating at `i32`'s range (and 0 for not a number), as `floor() as i32` gives it
    /// but without a call into the maths library (baseline x86-64 has no rounding instruction).
    #[inline]
    fn axis_key(&self, coordinate: f32) -> i32 {
        let quotient = coordinate * self.per_cell;
        let truncated = quotient as i32;
        if truncated as f32 > quotient {
            truncated.saturating_sub(1)
        } else {
            truncated
        }
    }

    fn key(&self, position: Vector) -> CellKey {
        let mut key = [0; 3];
        for (axis, slot) in key.iter_mut().enumerate().take(DIMENSIONS) {
            // Saturating: agents beyond i32's range share the outermost cells.
            *slot = self.axis_key(position[axis]);
        }
        key
    }

    /// The bucket of cell `key`: `None` for a cell outside the dense layout's box (empty).
    fn bucket(&self, key: CellKey) -> Option<usize> {
        match self.layout {
            Layout::Dense { origin, extent } => {
                let mut index = 0;
                for axis in (0..DIMENSIONS).rev() {
                    let offset = usize::try_from(i64::from(key[axis]) - i64::from(origin[axis]))
                        .ok()
                        .filter(|&offset| offset < extent[axis])?;
                    index = index * extent[axis] + offset;
                }
                Some(index)
            }
            Layout::Hashed { mask } => {
                let hash = (key[0] as u32).wrapping_mul(73_856_093)
                    ^ (key[1] as u32).wrapping_mul(19_349_663)
                    ^ (key[2] as u32).wrapping_mul(83_492_791);
                Some(hash as usize & mask)
            }
        }
    }
}
