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
        // The cells' coordinates in reach, along each axis, at most `MAX_RINGS` from home.
        let span = |axis: usize| {
            (
                low[axis].max(home[axis].saturating_sub(MAX_RINGS)),
                high[axis].min(home[axis].saturating_add(MAX_RINGS)),
            )
        };
        let ((x_low, x_high), (y_low, y_high)) = (span(0), span(1));
        let (z_low, z_high) = if DIMENSIONS == 3 { span(2) } else { (0, 0) };
        let rings = (1..DIMENSIONS)
            .map(|axis| (home[axis] - low[axis]).max(high[axis] - home[axis]))
            .max()
            .unwrap_or(0)
            .clamp(0, MAX_RINGS);
        let mut range_squared = reach * reach;
        // Only the hashed layout needs to remember the buckets it has visited.
        let mut visited: Option<[u32; MAX_CELLS]> = None;
        let mut visited_count = 0;
        let mut row = |y: i32, z: i32, gap_squared: f32, range_squared: &mut f32| {
            // The half chord the range leaves of the row along the first axis (widened by the
            // roundings of the coordinates).
            let half_chord = (*range_squared - gap_squared).sqrt();
            let slack = (centre[0].abs() + half_chord + self.cell_size) * ROUNDING;
            let first = self.axis_key(centre[0] - half_chord - slack).max(x_low);
            let last = self.axis_key(centre[0] + half_chord + slack).min(x_high);
            match self.layout {
                Layout::Dense { origin, extent } => {
                    // The row's cells are neighbouring buckets: one run of entries.
                    let offset = |axis: usize, at: i32| i64::from(at) - i64::from(origin[axis]);
                    let (y_at, z_at) = (offset(1, y), offset(2, z));
                    let first = offset(0, first).max(0);
                    let last = offset(0, last).min(extent[0] as i64 - 1);
                    if y_at < 0
                        || y_at >= extent[1] as i64
                        || z_at < 0
                        || z_at >= extent[2] as i64
                        || last < first
                    {
                        return;
                    }
                    let row = (z_at as usize * extent[1] + y_at as usize) * extent[0];
                    let start = self.starts[row + first as usize];
                    let end = self.starts[row + last as usize + 1];
                    if start < end {
                        let run = &self.entries[start as usize..end as usize];
                        *range_squared = each(start, run).min(*range_squared);
                    }
                }
                Layout::Hashed { .. } => {
                    let visited = visited.get_or_insert([u32::MAX; MAX_CELLS]);
                    for x in first..=last {
                        let Some(bucket) = self.bucket([x, y, z]) else {
                            continue;
                        };
                        // Hashed cells may share a bucket: each bucket once.
                        if visited[..visited_count].contains(&(bucket as u32)) {
                            continue;
                        }
                        if visited_count < MAX_CELLS {
                            visited[visited_count] = bucket as u32;
                            visited_count += 1;
                        }
                        let (start, end) = (self.starts[bucket], self.starts[bucket + 1]);
                        if start < end {
                            let run = &self.entries[start as usize..end as usize];
                            *range_squared = each(start, run).min(*range_squared);
                        }
                    }
                }
            }
        };
        for ring in 0..=rings {
            let z_from = (home[2] - ring).max(z_low);
            let z_to = (home[2] + ring).min(z_high);
            for z in z_from..=z_to {
                let z_gap_squared = if DIMENSIONS == 3 {
                    self.axis_gap_squared(2, z, centre)
                } else {
                    0.0
                };
                // On a face of the ring every row across it is on the ring; elsewhere only the
                // two at the ring's distance along the second axis.
                let whole = ring == 0 || (DIMENSIONS == 3 && (z - home[2]).abs() == ring);
                let y_from = (home[1] - ring).max(y_low);
                let y_to = (home[1] + ring).min(y_high);
                let mut visit = |y: i32| {
                    let gap_squared = z_gap_squared + self.axis_gap_squared(1, y, centre);
                    if gap_squared < range_squared {
                        row(y, z, gap_squared, &mut range_squared);
                    }
                };
                if whole {
                    (y_from..=y_to).for_each(&mut visit);
                } else {
                    for y in [home[1] - ring, home[1] + ring] {
                        if (y_from..=y_to).contains(&y) {
                            visit(y);
                        }
                    }
                }
            }
        }
    }

    /// The squared distance from `point` to the nearest point of the slab of cells at
    /// coordinate `at` along `axis`, less the roundings of the cells' bounds and of the point's
    /// coordinate (so never more than an entry's true distance along it).
    #[inline]
    fn axis_gap_squared(&self, axis: usize, at: i32, point: Vector) -> f32 {
        let low = at as f32 * self.cell_size;
        let slack = (point[axis].abs() + self.cell_size) * ROUNDING;
        let gap = ((low - point[axis]).max(point[axis] - (low + self.cell_size)) - slack).max(0.0);
        gap * gap
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
