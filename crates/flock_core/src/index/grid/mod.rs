//! A uniform grid rebuilt every step by a counting sort, with the boids reordered into cell
//! order so that the boids of neighbouring cells lie next to each other in memory.

#[cfg(target_arch = "x86_64")]
mod avx;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod sse;
mod steer;

#[doc(hidden)]
pub use steer::Lanes;

use super::NeighbourIndex;
use crate::edges::wrap_point;
use crate::math::Vector;
use crate::parallel::{Executor, chunk_len_for, fill};
use crate::space::Space;

/// The uniform-grid index.
///
/// Cells are at least one query radius wide, so every neighbour of a boid lies in its own cell
/// or one of the eight around it. Building is a counting sort: count boids per cell, prefix
/// sums give each cell's start, then every boid is placed at its cell's next free slot (stable,
/// so boids keep their relative order inside a cell). Positions are stored again in that
/// order (`xs`, `ys`): a row of three cells is then one contiguous run, which the steering loop
/// reads in fixed-width lanes the compiler vectorises (see [`Grid::compute_forces`]).
///
/// In a periodic space positions are stored wrapped into the bounds and the columns and rows
/// wrap around; the world is cut into a whole number of cells so the seam falls on a cell edge.
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
    /// each cell's next free slot.
    placed: Vec<Placed>,
    sorted: Vec<Placed>,
    cursor: Vec<u32>,
    xs: Vec<f32>,
    ys: Vec<f32>,
    // Scratch of the steering pass, kept so a step allocates nothing once the flock is sized.
    vxs: Vec<f32>,
    vys: Vec<f32>,
    sorted_weights: Vec<crate::RuleWeights>,
    sorted_forces: Vec<Vector>,
}

/// One boid as the build sorts it.
#[derive(Clone, Copy, Debug, Default)]
struct Placed {
    x: f32,
    y: f32,
    boid: u32,
    cell: u32,
}

/// The sorted slots `start..end` of the cells `first..=last` of one row: adjacent cells of a
/// row are adjacent in the sorted buffers, so they are one range.
#[inline]
fn cell_run(
    layout: &Layout,
    cell_start: &[u32],
    row: u32,
    first: u32,
    last: u32,
) -> (usize, usize) {
    let start = cell_start[layout.cell_index(first, row) as usize];
    let end = cell_start[layout.cell_index(last, row) as usize + 1];
    (start as usize, end as usize)
}

/// Where the cells are.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Layout {
    /// The corner of cell (0, 0).
    origin: Vector,
    /// The size of one cell, per axis.
    cell_size: Vector,
    /// Columns and rows.
    columns: u32,
    rows: u32,
    /// Whether columns and rows wrap around, and the world size they wrap by.
    periodic: bool,
    world_size: Vector,
}

/// The most cells per boid: a sparse world gets bigger cells rather than a huge empty grid.
const MAX_CELLS_PER_BOID: usize = 4;

/// The fewest cells a grid may have, however few boids, so small flocks keep a useful grid.
const MIN_CELLS: usize = 16;

/// At most `max_cells` columns and rows together, from the `columns` x `rows` that cells one
/// query radius wide would need (either may be huge or infinite: boids spread along a line, or
/// a tiny radius over a wide world). Each axis is first capped on its own, so an extent along
/// one axis alone can't ask for billions of cells, then both shrink by the same factor so cells
/// stay as square as they can.
fn fit_cells(columns: f64, rows: f64, max_cells: usize) -> (u32, u32) {
    let max = max_cells as f64;
    let columns = columns.clamp(1.0, max);
    let rows = rows.clamp(1.0, max);
    let shrink = (columns * rows / max).sqrt();
    let (columns, rows) = if shrink > 1.0 {
        ((columns / shrink).floor(), (rows / shrink).floor())
    } else {
        (columns, rows)
    };
    (columns.max(1.0) as u32, rows.max(1.0) as u32)
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
            let (columns, rows) = fit_cells(
                (f64::from(size.x) / radius_f64).floor(),
                (f64::from(size.y) / radius_f64).floor(),
                max_cells,
            );
            Self {
                origin: space.bounds.min,
                cell_size: size / Vector::new(columns as f32, rows as f32),
                columns,
                rows,
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
                    columns: 1,
                    rows: 1,
                    ..Self::default()
                };
            }
            // In f64: the extent of boids near both ends of f32's range overflows f32.
            let extent = max.as_dvec2() - min.as_dvec2();
            let (columns, rows) = fit_cells(
                (extent.x / radius_f64).ceil(),
                (extent.y / radius_f64).ceil(),
                max_cells,
            );
            // Fewer cells than the radius asks for are wider than it; boids past the last
            // cell (rounding) are clamped into the border cells, which only adds candidates.
            let cell_size = Vector::new(
                ((extent.x / f64::from(columns)) as f32).max(radius),
                ((extent.y / f64::from(rows)) as f32).max(radius),
            );
            Self {
                origin: min,
                cell_size,
                columns,
                rows,
                periodic: false,
                world_size: Vector::ZERO,
            }
        }
    }

    fn cell_count(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    /// The column and row of a (wrapped, in a periodic space) position. Positions outside
    /// the grid are clamped to its border cells, which keeps every neighbour within one cell.
    #[inline]
    fn cell_coordinates(&self, position: Vector) -> (u32, u32) {
        let cell = (position - self.origin) / self.cell_size;
        // Truncating a non-negative number is flooring it, without a call to `floorf`; `as`
        // saturates and maps NaN to 0, so a bad position can't index out of the grid.
        let column = (cell.x.max(0.0) as u32).min(self.columns - 1);
        let row = (cell.y.max(0.0) as u32).min(self.rows - 1);
        (column, row)
    }

    #[inline]
    fn cell_index(&self, column: u32, row: u32) -> u32 {
        row * self.columns + column
    }

    /// Whether the fast steering pass applies: it walks 3 x 3 cells with one offset per run,
    /// which needs at least three distinct columns and rows when the space wraps.
    fn supports_runs(&self) -> bool {
        !self.periodic || (self.columns >= 3 && self.rows >= 3)
    }
}

impl Grid {
    /// The number of columns and rows of the last build.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.layout.columns, self.layout.rows)
    }

    /// The size of one cell, per axis, of the last build.
    pub fn cell_size(&self) -> Vector {
        self.layout.cell_size
    }

    /// The corner of cell (0, 0) of the last build.
    pub fn origin(&self) -> Vector {
        self.layout.origin
    }

    /// The sorted slots `start..end` of the cells `first..=last` of one row.
    #[inline]
    fn run(&self, row: u32, first: u32, last: u32) -> (usize, usize) {
        cell_run(&self.layout, &self.cell_start, row, first, last)
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
                let (column, row) = layout.cell_coordinates(position);
                *placed = Placed {
                    x: position.x,
                    y: position.y,
                    boid: boid as u32,
                    cell: layout.cell_index(column, row),
                };
            }
        });

        // Count boids per cell, then prefix sums: cell_start[c] is where cell c begins.
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for placed in &self.placed {
            self.cell_start[placed.cell as usize + 1] += 1;
        }
        for cell in 0..cells {
            self.cell_start[cell + 1] += self.cell_start[cell];
        }

        // Place every boid at its cell's next free slot; walking boids in order makes the sort
        // stable. One packed record per slot keeps this scattered write to one cache line.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.cell_start[..cells]);
        self.sorted.resize(count, Placed::default());
        self.slot_of.resize(count, 0);
        for (placed, slot_of) in self.placed.iter().zip(&mut self.slot_of) {
            let cursor = &mut self.cursor[placed.cell as usize];
            self.sorted[*cursor as usize] = *placed;
            *slot_of = *cursor;
            *cursor += 1;
        }

        // Unpack the sorted records into the arrays the steering pass reads.
        let sorted = &self.sorted;
        self.xs.resize(count, 0.0);
        self.ys.resize(count, 0.0);
        self.order.resize(count, 0);
        self.slot_cell.resize(count, 0);
        fill(executor, &mut self.xs, chunk_len, |slot| sorted[slot].x);
        fill(executor, &mut self.ys, chunk_len, |slot| sorted[slot].y);
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
        let (column, row) = layout.cell_coordinates(point);
        // How many cells either side the radius can reach.
        let reach = (radius / layout.cell_size).ceil();
        let reach_columns = reach.x.clamp(1.0, layout.columns as f32) as i64;
        let reach_rows = reach.y.clamp(1.0, layout.rows as f32) as i64;
        let span = |centre: u32, reach: i64, count: u32| -> Vec<u32> {
            let count = i64::from(count);
            let (low, high) = (i64::from(centre) - reach, i64::from(centre) + reach);
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
        let columns = span(column, reach_columns, layout.columns);
        for row in span(row, reach_rows, layout.rows) {
            for &column in &columns {
                let (start, end) = self.run(row, column, column);
                out.extend_from_slice(&self.order[start..end]);
            }
        }
        out.sort_unstable();
    }
}
