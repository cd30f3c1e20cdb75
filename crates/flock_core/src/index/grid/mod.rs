//! A uniform grid (of squares, or cubes in 3D) rebuilt every step by a counting sort, with the
//! boids reordered into cell order so that the boids of neighbouring cells lie next to each
//! other in memory.

#[cfg(target_arch = "x86_64")]
mod avx;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod pass;
mod sse;
mod steer;

#[doc(hidden)]
pub use steer::Lanes;

use std::marker::PhantomData;

use super::candidates::NeighbourIndex;
use crate::edges::wrap_point;
use crate::math::{DIMENSIONS, Vector, widen};
use crate::parallel::{Executor, chunk_len_for, fill};
use crate::space::Space;

/// The uniform-grid index.
///
/// Cells are at least one query radius wide, so every neighbour of a boid lies in its own cell
/// or one of the eight around it (26 in 3D). Building is a counting sort: count boids per cell,
/// prefix sums give each cell's start, then every boid is placed at its cell's next free slot
/// (stable, so boids keep their relative order inside a cell). Positions are stored again in
/// that order, one array per axis: a row of three cells is then one contiguous run, which the
/// steering loop reads in fixed-width lanes (see [`Grid::compute_forces`]).
///
/// Cells are numbered along x first, then y (then z): a row is the cells of one y (and z).
///
/// In a periodic space positions are stored wrapped into the bounds and every axis wraps
/// around; the world is cut into a whole number of cells so the seam falls on a cell edge.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    layout: Layout,
    /// `cell_start[c]..cell_start[c + 1]` are the sorted slots of cell `c`.
    cell_start: Vec<u32>,
    /// The original index of the boid in each sorted slot.
    order: Vec<u32>,
    /// The cell of each sorted slot.
    slot_cell: Vec<u32>,
    /// The sorted slot of each boid (the inverse of `order`).
    slot_of: Vec<u32>,
    /// Scratch of the build: each boid's record, in boid order and then in slot order, and
    /// the counting sort's parts.
    placed: Vec<Placed>,
    sorted: Vec<Placed>,
    parts: Vec<Part>,
    /// The sorted positions, one array per axis, then [`pass::PADDING`] NaN slots.
    coordinates: [Vec<f32>; DIMENSIONS],
    // Scratch of the steering pass, kept so a step allocates nothing once the flock is sized:
    // the sorted velocities, one array per axis, then `pass::PADDING` zeros.
    speeds: [Vec<f32>; DIMENSIONS],
    sorted_weights: Vec<crate::RuleWeights>,
    sorted_forces: Vec<Vector>,
}

/// One boid as the build sorts it.
#[derive(Clone, Copy, Debug, Default)]
struct Placed {
    position: Vector,
    boid: u32,
    cell: u32,
}

/// One thread's share of the build's counting sort: how many of its boids each cell holds,
/// then the slot in each cell where its next boid goes.
#[derive(Clone, Debug, Default)]
struct Part {
    cursor: Vec<u32>,
}

/// The most parts the counting sort splits the boids into (each has a counter per cell).
const MAX_PARTS: usize = 16;

/// A slice written from several threads at once, at indexes no two threads share. It holds
/// the slice's mutable borrow, so nothing else touches the slice while it lives.
struct Disjoint<'a, T> {
    first: *mut T,
    len: usize,
    borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: `Disjoint` only hands out writes to indexes that one thread alone writes (see
// `Disjoint::write`), so sharing it is sharing disjoint parts of one `&mut [T]`.
unsafe impl<T: Send> Sync for Disjoint<'_, T> {}

impl<'a, T> Disjoint<'a, T> {
    fn new(values: &'a mut [T]) -> Self {
        Self {
            first: values.as_mut_ptr(),
            len: values.len(),
            borrow: PhantomData,
        }
    }

    /// Stores `value` at `index`.
    ///
    /// # Safety
    /// No other thread reads or writes `index` while this `Disjoint` lives.
    unsafe fn write(&self, index: usize, value: T) {
        assert!(
            index < self.len,
            "index {index} outside {} values",
            self.len
        );
        // SAFETY: `index` is in bounds (checked above) and, by the caller's promise, written
        // by this thread alone; the slice is borrowed for as long as `self` lives.
        unsafe { self.first.add(index).write(value) };
    }
}

/// The sorted slots `start..end` of the cells `first..=last` of the row whose first cell is
/// `row_start`: adjacent cells of a row are adjacent in the sorted buffers, so they are one
/// range.
#[inline]
fn cell_run(cell_start: &[u32], row_start: u32, first: u32, last: u32) -> (usize, usize) {
    let start = cell_start[(row_start + first) as usize];
    let end = cell_start[(row_start + last) as usize + 1];
    (start as usize, end as usize)
}

/// Where the cells are.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Layout {
    /// The corner of cell (0, 0).
    origin: Vector,
    /// The size of one cell, per axis.
    cell_size: Vector,
    /// How many cells along each axis: columns, rows (and layers in 3D).
    cells: [u32; DIMENSIONS],
    /// Whether every axis wraps around, and the world size it wraps by.
    periodic: bool,
    world_size: Vector,
}

/// The most cells per boid: a sparse world gets bigger cells rather than a huge empty grid.
const MAX_CELLS_PER_BOID: usize = 4;

/// The fewest cells a grid may have, however few boids, so small flocks keep a useful grid.
const MIN_CELLS: usize = 16;

/// At most `max_cells` cells in all, from the cells per axis that cells one query radius wide
/// would need (any may be huge or infinite: boids spread along a line, or a tiny radius over a
/// wide world). Each axis is first capped on its own, so an extent along one axis alone can't
/// ask for billions of cells, then the axes shrink by the same factor so cells stay as cubic
/// as they can; an axis down to one cell stops, and the others shrink on for it.
fn fit_cells(wanted: [f64; DIMENSIONS], max_cells: usize) -> [u32; DIMENSIONS] {
    let max = max_cells as f64;
    let mut cells = wanted.map(|count| count.clamp(1.0, max));
    for _ in 0..DIMENSIONS {
        let product: f64 = cells.iter().product();
        if product <= max {
            break;
        }
        let shrinking = cells.iter().filter(|&&count| count > 1.0).count();
        let shrink = root(product / max, shrinking);
        cells = cells.map(|count| {
            if count > 1.0 {
                (count / shrink).floor().max(1.0)
            } else {
                count
            }
        });
    }
    cells.map(|count| count as u32)
}

/// The `n`th root of `value`, for n up to 3.
fn root(value: f64, n: usize) -> f64 {
    match n {
        0 | 1 => value,
        2 => value.sqrt(),
        // libm's, not the platform's: lockstep peers size their cells alike.
        _ => libm::cbrt(value),
    }
}

impl Layout {
    fn new(positions: &[Vector], space: &Space, query_radius: f32) -> Self {
        let radius = if query_radius.is_finite() && query_radius > 0.0 {
            query_radius
        } else {
            // No rule reaches anywhere; any cell size is correct.
            1.0
        };
        let max_cells = positions
            .len()
            .saturating_mul(MAX_CELLS_PER_BOID)
            .clamp(MIN_CELLS, u32::MAX as usize / 2);
        let radius_f64 = f64::from(radius);
        if space.periodic {
            // The world is cut into whole cells, each at least the radius wide, so the seam
            // falls on a cell edge.
            let size = space.bounds.size();
            let cells = fit_cells(
                std::array::from_fn(|axis| (f64::from(size[axis]) / radius_f64).floor()),
                max_cells,
            );
            let mut cell_size = size;
            for axis in 0..DIMENSIONS {
                cell_size[axis] /= cells[axis] as f32;
            }
            Self {
                origin: space.bounds.min,
                cell_size,
                cells,
                periodic: true,
                world_size: size,
            }
        } else {
            // Cover where the boids are, not the bounds: with free edges they may be anywhere.
            let (min, max) = positions
                .iter()
                .filter(|p| p.is_finite())
                .fold((Vector::MAX, Vector::MIN), |(lo, hi), p| {
                    (lo.min(*p), hi.max(*p))
                });
            if min.x > max.x {
                return Self {
                    cell_size: Vector::splat(radius),
                    cells: [1; DIMENSIONS],
                    ..Self::default()
                };
            }
            // In f64: the extent of boids near both ends of f32's range overflows f32.
            let extent = widen(max) - widen(min);
            let cells = fit_cells(
                std::array::from_fn(|axis| (extent[axis] / radius_f64).ceil()),
                max_cells,
            );
            // Fewer cells than the radius asks for are wider than it; boids past the last
            // cell (rounding) are clamped into the border cells, which only adds candidates.
            let mut cell_size = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                cell_size[axis] = ((extent[axis] / f64::from(cells[axis])) as f32).max(radius);
            }
            Self {
                origin: min,
                cell_size,
                cells,
                periodic: false,
                world_size: Vector::ZERO,
            }
        }
    }

    fn cell_count(&self) -> usize {
        self.cells.iter().map(|&count| count as usize).product()
    }

    /// The cell coordinates (column, row, and layer in 3D) of a (wrapped, in a periodic space)
    /// position. Positions outside the grid are clamped to its border cells, which keeps every
    /// neighbour within one cell.
    #[inline]
    fn cell_coordinates(&self, position: Vector) -> [u32; DIMENSIONS] {
        let cell = (position - self.origin) / self.cell_size;
        // Truncating a non-negative number is flooring it, without a call to `floorf`; `as`
        // saturates and maps NaN to 0, so a bad position can't index out of the grid.
        std::array::from_fn(|axis| (cell[axis].max(0.0) as u32).min(self.cells[axis] - 1))
    }

    /// The number of the cell at `coordinates`: x first, then y (then z).
    #[inline]
    fn cell_index(&self, coordinates: [u32; DIMENSIONS]) -> u32 {
        (0..DIMENSIONS - 1)
            .rev()
            .fold(coordinates[DIMENSIONS - 1], |index, axis| {
                index * self.cells[axis] + coordinates[axis]
            })
    }

    /// The coordinates of cell number `cell`.
    #[inline]
    fn coordinates_of(&self, mut cell: u32) -> [u32; DIMENSIONS] {
        std::array::from_fn(|axis| {
            let coordinate = cell % self.cells[axis];
            cell /= self.cells[axis];
            coordinate
        })
    }

    /// Whether the fast steering pass applies: it walks 3 x 3 (x 3) cells with one offset per
    /// run, which needs at least three distinct cells along every axis when the space wraps.
    fn supports_runs(&self) -> bool {
        !self.periodic || self.cells.iter().all(|&count| count >= 3)
    }
}

impl Grid {
    /// The number of columns and rows of the last build.
    #[cfg(not(flock_3d))]
    pub fn dimensions(&self) -> (u32, u32) {
        let [columns, rows] = self.layout.cells;
        (columns, rows)
    }

    /// The number of columns, rows and layers of the last build.
    #[cfg(flock_3d)]
    pub fn dimensions(&self) -> (u32, u32, u32) {
        let [columns, rows, layers] = self.layout.cells;
        (columns, rows, layers)
    }

    /// The size of one cell, per axis, of the last build.
    pub fn cell_size(&self) -> Vector {
        self.layout.cell_size
    }

    /// The corner of cell (0, 0) of the last build.
    pub fn origin(&self) -> Vector {
        self.layout.origin
    }
}

impl NeighbourIndex for Grid {
    fn rebuild(
        &mut self,
        positions: &[Vector],
        space: &Space,
        query_radius: f32,
        executor: &impl Executor,
    ) {
        let layout = Layout::new(positions, space, query_radius);
        self.layout = layout;
        let cells = layout.cell_count();
        let count = positions.len();
        let chunk_len = chunk_len_for(count, executor.threads());

        // Each boid's cell and the position it is stored at (wrapped in a periodic space).
        self.placed.resize(count, Placed::default());
        executor.for_each_chunk(&mut self.placed, chunk_len, |start, chunk| {
            for (placed, (boid, position)) in chunk
                .iter_mut()
                .zip(positions.iter().enumerate().skip(start))
            {
                // A position that is not finite stays so: wrapping would move it to an edge,
                // where the lanes would count it as a neighbour.
                let position = if layout.periodic && position.is_finite() {
                    wrap_point(*position, &space.bounds)
                } else {
                    *position
                };
                *placed = Placed {
                    position,
                    boid: boid as u32,
                    cell: layout.cell_index(layout.cell_coordinates(position)),
                };
            }
        });

        // A counting sort in parts, one per thread: each part counts its own boids per cell;
        // the counts give each part its own slots in every cell (earlier parts first), and all
        // parts then place their boids at once. Every boid lands where one pass over all boids
        // in order would put it, so the sort is stable and the same for any number of threads.
        let parts = executor.threads().clamp(1, MAX_PARTS);
        let part_len = count.div_ceil(parts).max(1);
        self.parts.resize_with(parts, Part::default);
        for part in &mut self.parts {
            // Sized here rather than in the tasks, so no worker thread allocates.
            part.cursor.resize(cells, 0);
        }
        let placed = &self.placed;
        let boids_of = |part: usize| {
            placed
                .iter()
                .enumerate()
                .skip(part * part_len)
                .take(part_len)
        };
        executor.for_each_chunk(&mut self.parts, 1, |part, chunk| {
            let counts = &mut chunk[0].cursor;
            counts.fill(0);
            for (_, placed) in boids_of(part) {
                counts[placed.cell as usize] += 1;
            }
        });

        // Prefix sums over cells, and over parts within a cell: cell_start[c] is where cell c
        // begins, and each part's cursor where its first boid of the cell goes.
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        let mut next = 0;
        for cell in 0..cells {
            self.cell_start[cell] = next;
            for part in &mut self.parts {
                let counted = part.cursor[cell];
                part.cursor[cell] = next;
                next += counted;
            }
        }
        self.cell_start[cells] = next;

        // Place every boid at its part's next free slot of its cell. One packed record per slot
        // keeps this scattered write to one cache line.
        self.sorted.resize(count, Placed::default());
        self.slot_of.resize(count, 0);
        let (sorted, slot_of) = (
            Disjoint::new(&mut self.sorted),
            Disjoint::new(&mut self.slot_of),
        );
        executor.for_each_chunk(&mut self.parts, 1, |part, chunk| {
            let cursor = &mut chunk[0].cursor;
            for (boid, placed) in boids_of(part) {
                let slot = &mut cursor[placed.cell as usize];
                // SAFETY: the parts' cursors of a cell cover disjoint slots (the prefix sums
                // above), and a boid belongs to one part, so no two threads write one slot or
                // one boid's entry.
                unsafe {
                    sorted.write(*slot as usize, *placed);
                    slot_of.write(boid, *slot);
                }
                *slot += 1;
            }
        });

        // Unpack the sorted records into the arrays the steering pass reads.
        let sorted = &self.sorted;
        self.order.resize(count, 0);
        self.slot_cell.resize(count, 0);
        for (axis, coordinates) in self.coordinates.iter_mut().enumerate() {
            coordinates.resize(count + pass::PADDING, f32::NAN);
            coordinates[count..].fill(f32::NAN);
            fill(executor, &mut coordinates[..count], chunk_len, |slot| {
                sorted[slot].position[axis]
            });
        }
        fill(executor, &mut self.order, chunk_len, |slot| {
            sorted[slot].boid
        });
        fill(executor, &mut self.slot_cell, chunk_len, |slot| {
            sorted[slot].cell
        });
    }

    fn candidates(&self, point: Vector, radius: f32, out: &mut Vec<u32>) {
        out.clear();
        let layout = &self.layout;
        if self.order.is_empty() || radius.is_nan() {
            // Nobody is within a NaN radius.
            return;
        }
        let point = if layout.periodic {
            let bounds = crate::Bounds {
                min: layout.origin,
                max: layout.origin + layout.world_size,
            };
            wrap_point(point, &bounds)
        } else {
            point
        };
        let centre = layout.cell_coordinates(point);
        // How many cells either side the radius can reach, per axis.
        let reach = (radius / layout.cell_size).ceil();
        let span = |axis: usize| -> Vec<u32> {
            let count = i64::from(layout.cells[axis]);
            let reach = reach[axis].clamp(1.0, count as f32) as i64;
            let (low, high) = (
                i64::from(centre[axis]) - reach,
                i64::from(centre[axis]) + reach,
            );
            if layout.periodic {
                if high - low + 1 >= count {
                    (0..count as u32).collect()
                } else {
                    (low..=high).map(|c| c.rem_euclid(count) as u32).collect()
                }
            } else {
                (low.max(0)..=high.min(count - 1))
                    .map(|c| c as u32)
                    .collect()
            }
        };
        // The first cell of every row in reach: the axes above x, outermost first.
        let mut row_starts = vec![0u32];
        for axis in (1..DIMENSIONS).rev() {
            let cells = layout.cells[axis];
            let span = span(axis);
            row_starts = row_starts
                .iter()
                .flat_map(|&outer| span.iter().map(move |&c| outer * cells + c))
                .collect();
        }
        let columns = span(0);
        for row in row_starts {
            let row_start = row * layout.cells[0];
            for &column in &columns {
                let (start, end) = cell_run(&self.cell_start, row_start, column, column);
                out.extend_from_slice(&self.order[start..end]);
            }
        }
        out.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bounds;
    use crate::parallel::{ScopedThreads, Serial};

    /// Positions crowded into a few cells of a small world, from a fixed seed.
    fn crowded(count: usize) -> Vec<Vector> {
        let mut state = 0x9e37_79b9_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state % 1000) as f32 / 1000.0
        };
        (0..count)
            .map(|_| Vector::from_array(std::array::from_fn(|_| 40.0 * next() * next())))
            .collect()
    }

    #[test]
    fn the_build_sorts_stably_and_the_same_on_any_number_of_threads() {
        // Counts that no number of parts divides, fewer boids than parts, and none at all.
        for count in [0, 1, 5, 1001, 4099] {
            let positions = crowded(count);
            for periodic in [false, true] {
                let space = Space {
                    bounds: Bounds {
                        min: Vector::ZERO,
                        max: Vector::splat(40.0),
                    },
                    periodic,
                };
                let mut serial = Grid::default();
                serial.rebuild(&positions, &space, 5.0, &Serial);
                // Stable: within a cell, boids keep their order.
                for cell in serial.cell_start.windows(2) {
                    let boids = &serial.order[cell[0] as usize..cell[1] as usize];
                    assert!(boids.is_sorted(), "{count} boids: {boids:?}");
                }
                for threads in [2, 3, 16, 40] {
                    let mut parallel = Grid::default();
                    parallel.rebuild(&positions, &space, 5.0, &ScopedThreads(threads));
                    let case = format!("{count} boids, periodic {periodic}, {threads} threads");
                    assert_eq!(parallel.cell_start, serial.cell_start, "{case}");
                    assert_eq!(parallel.order, serial.order, "{case}");
                    assert_eq!(parallel.slot_of, serial.slot_of, "{case}");
                    assert_eq!(parallel.slot_cell, serial.slot_cell, "{case}");
                }
            }
        }
    }
}
