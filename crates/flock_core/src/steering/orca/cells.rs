//! A hashed uniform grid over agents for ORCA's neighbour search and the contact pass: the
//! agents sorted by their cell's bucket (a counting sort, no allocation once grown), each with
//! its cell, so a query visits every agent of a cell exactly once whatever the hash collides.
//! Hashing rather than a bounded array keeps the memory proportional to the agents, however far
//! apart they are.

use crate::math::{DIMENSIONS, Vector};

/// A cell's integer coordinates (the last unused in 2D).
pub(super) type CellKey = [i32; 3];

/// The agents of a step, by cell.
#[derive(Clone, Debug)]
pub(super) struct Cells<T> {
    cell_size: f32,
    mask: usize,
    /// Where each bucket's entries start in `entries` (one more than the buckets).
    starts: Vec<u32>,
    /// The entries, bucket by bucket, each with its cell; in the order given within a bucket.
    entries: Vec<(CellKey, T)>,
    /// The entries in the order given, with their buckets, before sorting.
    staged: Vec<(usize, CellKey, T)>,
}

impl<T> Default for Cells<T> {
    fn default() -> Self {
        Self {
            cell_size: 1.0,
            mask: 0,
            starts: Vec::new(),
            entries: Vec::new(),
            staged: Vec::new(),
        }
    }
}

impl<T: Copy> Cells<T> {
    /// Sorts `items` (a position and a value each; items whose position is not finite are left
    /// out) into cells of `cell_size` (a normal positive number, else one). Queries must reach
    /// no farther than a cell.
    pub fn build(&mut self, cell_size: f32, items: impl ExactSizeIterator<Item = (Vector, T)>) {
        self.cell_size = if cell_size.is_normal() && cell_size > 0.0 {
            cell_size
        } else {
            1.0
        };
        let buckets = (2 * items.len()).next_power_of_two().max(16);
        self.mask = buckets - 1;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        self.staged.clear();
        for (position, value) in items {
            if !position.is_finite() {
                continue;
            }
            let key = self.key(position);
            let bucket = self.bucket(key);
            self.starts[bucket + 1] += 1;
            self.staged.push((bucket, key, value));
        }
        for bucket in 0..buckets {
            self.starts[bucket + 1] += self.starts[bucket];
        }
        // A counting sort, stable: each entry at its bucket's next free slot, `starts` used as
        // the cursors and moved back after.
        self.entries.clear();
        let Some(&(_, key, value)) = self.staged.first() else {
            return;
        };
        self.entries.resize(self.staged.len(), (key, value));
        for &(bucket, key, value) in &self.staged {
            let slot = &mut self.starts[bucket];
            self.entries[*slot as usize] = (key, value);
            *slot += 1;
        }
        // Each cursor now stands at the next bucket's start.
        for bucket in (0..buckets).rev() {
            self.starts[bucket + 1] = self.starts[bucket];
        }
        self.starts[0] = 0;
    }

    /// Calls `each` with every entry whose cell meets the cube of half-side `reach` about
    /// `centre`, cell by cell.
    pub fn around(&self, centre: Vector, reach: f32, mut each: impl FnMut(&T)) {
        if self.entries.is_empty() || !centre.is_finite() || reach.is_nan() {
            return;
        }
        debug_assert!(reach <= self.cell_size * 1.0001, "a query beyond one cell");
        let low = self.key(centre - Vector::splat(reach));
        let high = self.key(centre + Vector::splat(reach));
        let z_range = if DIMENSIONS == 3 {
            low[2]..=high[2]
        } else {
            0..=0
        };
        for z in z_range {
            for y in low[1]..=high[1] {
                for x in low[0]..=high[0] {
                    let key = [x, y, z];
                    let bucket = self.bucket(key);
                    let (start, end) = (self.starts[bucket], self.starts[bucket + 1]);
                    for (cell, value) in &self.entries[start as usize..end as usize] {
                        if *cell == key {
                            each(value);
                        }
                    }
                }
            }
        }
    }

    fn key(&self, position: Vector) -> CellKey {
        let mut key = [0; 3];
        for (axis, slot) in key.iter_mut().enumerate().take(DIMENSIONS) {
            // `as` saturates: agents beyond i32's range share the outermost cells.
            *slot = (position[axis] / self.cell_size).floor() as i32;
        }
        key
    }

    fn bucket(&self, key: CellKey) -> usize {
        let hash = (key[0] as u32).wrapping_mul(73_856_093)
            ^ (key[1] as u32).wrapping_mul(19_349_663)
            ^ (key[2] as u32).wrapping_mul(83_492_791);
        hash as usize & self.mask
    }
}
