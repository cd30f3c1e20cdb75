//! Flow-field following (Reynolds 1999): a grid of desired velocities, sampled where the
//! vehicle will be.
//!
//! A [`FlowField`] is built from a function, from an image's pixels, or as the shortest way to
//! a goal around blocked cells; its constructors check what they are given and return an
//! error rather than a field that could steer anyone to NaN.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

use super::Vehicle;
use crate::math::{DIMENSIONS, Vector};

/// A cell's coordinates in a [`FlowField`]: column, row (and layer in 3D).
pub type Cell = [usize; DIMENSIONS];

/// A grid of desired velocities over a box of the world, in units of the vehicle's top speed
/// (a vector of length 1 asks for full speed; longer ones are shortened to it). Cells are
/// `cell_size` wide; cell `[0, 0]` has its lower corner at `origin`; x varies fastest in
/// [`velocities`](Self::velocities), then y (then z).
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq)]
pub struct FlowField {
    origin: Vector,
    cell_size: f32,
    cells: Cell,
    velocities: Vec<Vector>,
}

/// Why a [`FlowField`] could not be built.
#[derive(Clone, Debug, PartialEq)]
pub enum FlowFieldError {
    /// An axis has no cells.
    NoCells,
    /// More cells than [`FlowField::MAX_CELLS`].
    TooManyCells,
    /// The cell size is not a finite positive number.
    CellSize(f32),
    /// The origin is not finite.
    Origin,
    /// Not one value per cell.
    WrongLength {
        /// Cells in the grid.
        expected: usize,
        /// Values given.
        found: usize,
    },
    /// A cell's velocity is not finite.
    NotFinite(Cell),
    /// The goal is not inside the grid.
    GoalOutside,
    /// The goal's cell is blocked.
    GoalBlocked,
}

impl fmt::Display for FlowFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoCells => write!(f, "a flow field needs at least one cell along every axis"),
            Self::TooManyCells => write!(
                f,
                "a flow field may have at most {} cells",
                FlowField::MAX_CELLS
            ),
            Self::CellSize(size) => write!(f, "cell size {size} is not finite and positive"),
            Self::Origin => write!(f, "the flow field's origin is not finite"),
            Self::WrongLength { expected, found } => {
                write!(f, "{found} values for a flow field of {expected} cells")
            }
            Self::NotFinite(cell) => write!(f, "cell {cell:?}'s velocity is not finite"),
            Self::GoalOutside => write!(f, "the goal is outside the flow field"),
            Self::GoalBlocked => write!(f, "the goal's cell is blocked"),
        }
    }
}

impl std::error::Error for FlowFieldError {}

impl FlowField {
    /// The most cells a field may have (16 million: 256 MiB of 3D vectors).
    pub const MAX_CELLS: usize = 1 << 24;

    /// A field with the given velocities, one per cell in [`velocities`](Self::velocities)'
    /// order; every one must be finite.
    pub fn from_velocities(
        origin: Vector,
        cell_size: f32,
        cells: Cell,
        velocities: Vec<Vector>,
    ) -> Result<Self, FlowFieldError> {
        cell_count_matching(origin, cell_size, cells, velocities.len())?;
        let field = Self {
            origin,
            cell_size,
            cells,
            velocities,
        };
        if let Some(bad) = field.velocities.iter().position(|v| !v.is_finite()) {
            return Err(FlowFieldError::NotFinite(field.cell_of_index(bad)));
        }
        Ok(field)
    }

    /// A field whose every cell holds `velocity` at the cell's centre.
    pub fn from_fn(
        origin: Vector,
        cell_size: f32,
        cells: Cell,
        mut velocity: impl FnMut(Vector) -> Vector,
    ) -> Result<Self, FlowFieldError> {
        let count = cell_count(origin, cell_size, cells)?;
        let mut field = Self {
            origin,
            cell_size,
            cells,
            velocities: Vec::new(),
        };
        field.velocities = (0..count)
            .map(|index| velocity(field.centre(field.cell_of_index(index))))
            .collect();
        Self::from_velocities(origin, cell_size, cells, field.velocities)
    }

    /// A field read from an image's pixels (RGBA, 8 bits a channel), one pixel per cell: red
    /// is x and green is y (blue is z in 3D), 0 meaning -1, 128 nothing and 255 +1. Rows go
    /// from the top of the image down, as images are stored, so the top row is the field's
    /// highest y; in 3D the layers follow each other along z.
    pub fn from_pixels(
        origin: Vector,
        cell_size: f32,
        cells: Cell,
        pixels: &[[u8; 4]],
    ) -> Result<Self, FlowFieldError> {
        let expected = cell_count_matching(origin, cell_size, cells, pixels.len())?;
        let channel = |value: u8| ((f32::from(value) - 128.0) / 127.0).max(-1.0);
        let (width, height) = (cells[0], cells[1]);
        let velocities = (0..expected)
            .map(|index| {
                // The pixel of cell `index`: the same column and layer, the row flipped.
                let (column, row, layer) = (
                    index % width,
                    index / width % height,
                    index / (width * height),
                );
                let pixel = pixels[(layer * height + height - 1 - row) * width + column];
                let mut velocity = Vector::ZERO;
                for axis in 0..DIMENSIONS {
                    velocity[axis] = channel(pixel[axis]);
                }
                velocity
            })
            .collect();
        Self::from_velocities(origin, cell_size, cells, velocities)
    }

    /// A field pointing, at full speed, along the shortest way to `goal` around the cells
    /// `blocked` marks (one flag per cell, in [`velocities`](Self::velocities)' order), moving
    /// between neighbouring cells, diagonals included, without cutting a blocked corner. The
    /// goal's own cell points at the goal (slower within a cell of it); blocked cells and cells
    /// that cannot reach the goal hold zero.
    pub fn towards_goal(
        origin: Vector,
        cell_size: f32,
        cells: Cell,
        blocked: &[bool],
        goal: Vector,
    ) -> Result<Self, FlowFieldError> {
        let expected = cell_count_matching(origin, cell_size, cells, blocked.len())?;
        let mut field = Self {
            origin,
            cell_size,
            cells,
            velocities: vec![Vector::ZERO; expected],
        };
        let goal_cell = field.cell_at(goal).ok_or(FlowFieldError::GoalOutside)?;
        let goal_index = field.index_of(goal_cell);
        if blocked[goal_index] {
            return Err(FlowFieldError::GoalBlocked);
        }
        let moves = field.moves();
        let free =
            |cell: Option<Cell>, field: &Self| cell.is_some_and(|c| !blocked[field.index_of(c)]);
        // Dijkstra from the goal in integer costs (a step across a face costs 1000), so the
        // order of equal costs, and the field, does not depend on float rounding.
        let mut cost = vec![u32::MAX; expected];
        cost[goal_index] = 0;
        let mut queue = BinaryHeap::from([Reverse((0u32, goal_index))]);
        while let Some(Reverse((here_cost, here))) = queue.pop() {
            if here_cost > cost[here] {
                continue;
            }
            let cell = field.cell_of_index(here);
            for step in &moves {
                let Some(next) = field.step(cell, step.offset) else {
                    continue;
                };
                if !field.can_move(cell, step.offset, &|c| free(Some(c), &field)) {
                    continue;
                }
                let next_index = field.index_of(next);
                let next_cost = here_cost + step.cost;
                if next_cost < cost[next_index] {
                    cost[next_index] = next_cost;
                    queue.push(Reverse((next_cost, next_index)));
                }
            }
        }
        // Every reachable cell points to its cheapest neighbour (the first of a tie).
        for index in 0..expected {
            if cost[index] == u32::MAX {
                continue;
            }
            let cell = field.cell_of_index(index);
            if index == goal_index {
                let to_goal = (goal - field.centre(cell)) / cell_size;
                field.velocities[index] = to_goal.clamp_length_max(1.0);
                continue;
            }
            let best = moves
                .iter()
                .filter_map(|step| {
                    let next = field.step(cell, step.offset)?;
                    let reachable = field.can_move(cell, step.offset, &|c| free(Some(c), &field));
                    (reachable && cost[field.index_of(next)] < cost[index])
                        .then(|| (cost[field.index_of(next)] + step.cost, step.direction))
                })
                .min_by_key(|(total, _)| *total);
            if let Some((_, direction)) = best {
                field.velocities[index] = direction;
            }
        }
        Ok(field)
    }

    /// The lower corner of cell `[0, 0]`.
    pub fn origin(&self) -> Vector {
        self.origin
    }

    /// The width of a cell.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Cells along each axis.
    pub fn cells(&self) -> Cell {
        self.cells
    }

    /// Every cell's velocity, x fastest.
    pub fn velocities(&self) -> &[Vector] {
        &self.velocities
    }

    /// The centre of `cell`.
    pub fn centre(&self, cell: Cell) -> Vector {
        let mut centre = self.origin;
        for axis in 0..DIMENSIONS {
            centre[axis] += (cell[axis] as f32 + 0.5) * self.cell_size;
        }
        centre
    }

    /// The cell `point` lies in, or `None` outside the grid.
    pub fn cell_at(&self, point: Vector) -> Option<Cell> {
        let mut cell = [0; DIMENSIONS];
        for axis in 0..DIMENSIONS {
            let at = ((point[axis] - self.origin[axis]) / self.cell_size).floor();
            // Also false for NaN.
            if !(at >= 0.0 && at < self.cells[axis] as f32) {
                return None;
            }
            cell[axis] = at as usize;
        }
        Some(cell)
    }

    /// The velocity at `point`, interpolated (bilinearly in 2D, trilinearly in 3D) between the
    /// four (eight) nearest cell centres; beyond the outer centres, the edge's values. Zero for
    /// a point that is not finite.
    pub fn sample(&self, point: Vector) -> Vector {
        if !point.is_finite() {
            return Vector::ZERO;
        }
        // Per axis: the lower of the two centres around the point, and the weight of the upper.
        let mut lower = [0usize; DIMENSIONS];
        let mut upper_weight = [0.0f32; DIMENSIONS];
        for axis in 0..DIMENSIONS {
            let last = (self.cells[axis] - 1) as f32;
            let at = ((point[axis] - self.origin[axis]) / self.cell_size - 0.5).clamp(0.0, last);
            let floor = at.floor().min((last - 1.0).max(0.0));
            lower[axis] = floor as usize;
            upper_weight[axis] = if last > 0.0 { at - floor } else { 0.0 };
        }
        let mut sum = Vector::ZERO;
        for corner in 0..1usize << DIMENSIONS {
            let mut cell = lower;
            let mut weight = 1.0;
            for axis in 0..DIMENSIONS {
                let upper = corner >> axis & 1 == 1;
                let axis_weight = if upper {
                    upper_weight[axis]
                } else {
                    1.0 - upper_weight[axis]
                };
                if axis_weight == 0.0 {
                    weight = 0.0;
                    break;
                }
                cell[axis] += usize::from(upper);
                weight *= axis_weight;
            }
            if weight > 0.0 {
                // `get`: a field changed through reflection to the wrong length steers by
                // what it has instead of panicking.
                if let Some(velocity) = self.velocities.get(self.index_of(cell)) {
                    sum += *velocity * weight;
                }
            }
        }
        sum
    }

    fn index_of(&self, cell: Cell) -> usize {
        (0..DIMENSIONS)
            .rev()
            .fold(0, |index, axis| index * self.cells[axis] + cell[axis])
    }

    fn cell_of_index(&self, mut index: usize) -> Cell {
        self.cells.map(|count| {
            let coordinate = index % count;
            index /= count;
            coordinate
        })
    }

    /// `cell` moved by `offset` (each axis -1, 0 or 1), or `None` off the grid.
    fn step(&self, cell: Cell, offset: [i8; DIMENSIONS]) -> Option<Cell> {
        let mut next = cell;
        for axis in 0..DIMENSIONS {
            let moved = cell[axis].checked_add_signed(isize::from(offset[axis]))?;
            if moved >= self.cells[axis] {
                return None;
            }
            next[axis] = moved;
        }
        Some(next)
    }

    /// Whether a move from `cell` by `offset` stays on free cells: its end and, for a
    /// diagonal, every cell it passes the corner of (the offset with some axes left out).
    fn can_move(&self, cell: Cell, offset: [i8; DIMENSIONS], free: &dyn Fn(Cell) -> bool) -> bool {
        let moving: Vec<usize> = (0..DIMENSIONS).filter(|&axis| offset[axis] != 0).collect();
        (1..1usize << moving.len()).all(|subset| {
            let mut part = [0i8; DIMENSIONS];
            for (bit, &axis) in moving.iter().enumerate() {
                if subset >> bit & 1 == 1 {
                    part[axis] = offset[axis];
                }
            }
            self.step(cell, part).is_some_and(free)
        })
    }

    /// The moves to the 8 (26 in 3D) neighbouring cells, with their costs and directions.
    fn moves(&self) -> Vec<Move> {
        (0..3usize.pow(DIMENSIONS as u32))
            .filter_map(|code| {
                let mut offset = [0i8; DIMENSIONS];
                let mut direction = Vector::ZERO;
                let mut rest = code;
                for axis in 0..DIMENSIONS {
                    offset[axis] = (rest % 3) as i8 - 1;
                    direction[axis] = f32::from(offset[axis]);
                    rest /= 3;
                }
                let axes = offset.iter().filter(|&&step| step != 0).count();
                // 1000 times the step's length: 1, sqrt 2 or sqrt 3.
                let cost = [0, 1000, 1414, 1732][axes];
                (axes > 0).then(|| Move {
                    offset,
                    cost,
                    direction: direction.normalize(),
                })
            })
            .collect()
    }
}

/// A move to a neighbouring cell.
struct Move {
    offset: [i8; DIMENSIONS],
    cost: u32,
    direction: Vector,
}

/// [`cell_count`], checked against the `found` values given for the cells: one per cell.
fn cell_count_matching(
    origin: Vector,
    cell_size: f32,
    cells: Cell,
    found: usize,
) -> Result<usize, FlowFieldError> {
    let expected = cell_count(origin, cell_size, cells)?;
    if found == expected {
        Ok(expected)
    } else {
        Err(FlowFieldError::WrongLength { expected, found })
    }
}

/// How many cells a grid of `cells` has, after checking the grid is usable.
fn cell_count(origin: Vector, cell_size: f32, cells: Cell) -> Result<usize, FlowFieldError> {
    if !(cell_size.is_finite() && cell_size > 0.0) {
        return Err(FlowFieldError::CellSize(cell_size));
    }
    if !origin.is_finite() {
        return Err(FlowFieldError::Origin);
    }
    if cells.contains(&0) {
        return Err(FlowFieldError::NoCells);
    }
    cells
        .iter()
        .try_fold(1usize, |count, &axis| count.checked_mul(axis))
        .filter(|&count| count <= FlowField::MAX_CELLS)
        .ok_or(FlowFieldError::TooManyCells)
}

/// Reynolds' flow-field following: steer towards the field's velocity (times the top speed)
/// where the vehicle will be in `look_ahead` seconds.
pub fn follow_flow(vehicle: &Vehicle, field: &FlowField, look_ahead: f32) -> Vector {
    let look_ahead = if look_ahead.is_finite() {
        look_ahead.max(0.0)
    } else {
        0.0
    };
    let predicted = vehicle.position + vehicle.velocity * look_ahead;
    let desired = field.sample(predicted).clamp_length_max(1.0) * vehicle.max_speed;
    vehicle.steer_to(desired)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    /// A grid of `columns` x `rows` cells (in 3D one layer deep) of size 1 from the origin.
    fn flat(columns: usize, rows: usize) -> Cell {
        let mut cells = [1; DIMENSIONS];
        cells[0] = columns;
        cells[1] = rows;
        cells
    }

    /// The cell at column `x`, row `y` (in 3D in layer 0).
    fn cell(x: usize, y: usize) -> Cell {
        let mut cell = [0; DIMENSIONS];
        cell[0] = x;
        cell[1] = y;
        cell
    }

    /// An origin that puts a one-layer field's cell centres on the plane z = 0 in 3D.
    fn layer_origin() -> Vector {
        Vector::ZERO - (Vector::splat(0.5) - planar(0.5, 0.5))
    }

    #[test]
    fn sampling_interpolates_a_linear_field_exactly() {
        // A linear field is reproduced exactly by multilinear interpolation between centres.
        let linear = |p: Vector| planar(0.1 * p.x - 0.05 * p.y, 0.02 * p.x + 0.03 * p.y);
        let field = FlowField::from_fn(Vector::ZERO, 1.0, flat(20, 10), linear).unwrap();
        for point in [
            planar(3.3, 4.7),
            planar(10.0, 5.0),
            planar(0.5, 0.5),
            planar(17.9, 2.2),
        ] {
            let sampled = field.sample(point);
            assert!(
                (sampled - linear(point)).length() < 1e-5,
                "{point}: {sampled}"
            );
        }
        // Beyond the outer centres: the edge's value.
        assert_eq!(
            field.sample(planar(-5.0, 0.5)),
            field.sample(planar(0.5, 0.5))
        );
        assert_eq!(field.sample(planar(f32::NAN, 0.5)), Vector::ZERO);
    }

    #[test]
    fn following_a_circular_field_turns_the_vehicle_along_it() {
        // Counter-clockwise circulation around (10, 10).
        let centre = planar(10.0, 10.0);
        let swirl = |p: Vector| {
            let r = p - centre;
            planar(-r.y, r.x).normalize_or_zero()
        };
        let field = FlowField::from_fn(Vector::ZERO, 0.5, flat(40, 40), swirl).unwrap();
        let me = vehicle(planar(15.0, 10.0), Vector::ZERO);
        let force = follow_flow(&me, &field, 0.0);
        // Desired: up at full speed (2); from rest over 0.5 s: 4 upwards.
        assert!((force - planar(0.0, 4.0)).length() < 0.05, "{force}");
    }

    #[test]
    fn pixels_map_to_directions_with_the_top_row_highest() {
        let right = [255, 128, 128, 255];
        let down = [128, 0, 128, 255];
        // Two rows of one pixel: the top one points right, the bottom one down.
        let field = FlowField::from_pixels(Vector::ZERO, 1.0, flat(1, 2), &[right, down]).unwrap();
        let below = field.sample(planar(0.5, 0.5));
        let above = field.sample(planar(0.5, 1.5));
        assert!((above - planar(1.0, 0.0)).length() < 1e-6, "{above}");
        assert!((below - planar(0.0, -1.0)).length() < 1e-6, "{below}");
    }

    #[test]
    fn the_way_to_a_goal_goes_around_a_wall() {
        // A wall at x = 5 from y = 0 to y = 7 of a 10 x 10 grid; the goal is behind it.
        let cells = flat(10, 10);
        let blocked: Vec<bool> = (0..100).map(|i| i % 10 == 5 && i / 10 < 8).collect();
        let goal = planar(8.5, 1.5);
        let field = FlowField::towards_goal(layer_origin(), 1.0, cells, &blocked, goal).unwrap();
        // Left of the wall the way is up and over it, not through.
        let at_foot = field.sample(planar(3.5, 1.5));
        assert!(at_foot.y > 0.5, "{at_foot}");
        // Following the field from there gets to the goal.
        let mut point = planar(3.5, 1.5);
        for _ in 0..200 {
            point += field.sample(point).normalize_or_zero() * 0.1;
            let cell = field.cell_at(point).expect("stays in the grid");
            assert!(
                !blocked[field.index_of(cell)],
                "walked into the wall at {point}"
            );
        }
        assert!(point.distance(goal) < 0.6, "ended at {point}");
        // The wall itself holds zero.
        assert_eq!(field.velocities()[field.index_of(cell(5, 2))], Vector::ZERO);
    }

    #[test]
    fn bad_input_is_an_error_not_a_field() {
        let ok = |_| planar(1.0, 0.0);
        let none = flat(0, 4);
        assert_eq!(
            FlowField::from_fn(Vector::ZERO, 1.0, none, ok),
            Err(FlowFieldError::NoCells)
        );
        for size in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let result = FlowField::from_fn(Vector::ZERO, size, flat(2, 2), ok);
            assert!(matches!(result, Err(FlowFieldError::CellSize(_))));
        }
        let huge = [usize::MAX / 2; DIMENSIONS];
        assert_eq!(
            FlowField::from_fn(Vector::ZERO, 1.0, huge, ok),
            Err(FlowFieldError::TooManyCells)
        );
        let nan = FlowField::from_fn(Vector::ZERO, 1.0, flat(3, 2), |p| {
            if p.x > 2.0 { planar(f32::NAN, 0.0) } else { p }
        });
        assert_eq!(nan, Err(FlowFieldError::NotFinite(cell(2, 0))));
        assert_eq!(
            FlowField::from_fn(Vector::splat(f32::INFINITY), 1.0, flat(2, 2), ok),
            Err(FlowFieldError::Origin)
        );
        let short = FlowField::from_pixels(Vector::ZERO, 1.0, flat(2, 2), &[[0; 4]; 3]);
        assert!(matches!(short, Err(FlowFieldError::WrongLength { .. })));
        let blocked = vec![true; 4];
        let goal = |at| FlowField::towards_goal(Vector::ZERO, 1.0, flat(2, 2), &blocked, at);
        assert_eq!(goal(planar(0.5, 0.5)), Err(FlowFieldError::GoalBlocked));
        assert_eq!(goal(planar(9.0, 0.5)), Err(FlowFieldError::GoalOutside));
        assert_eq!(
            goal(planar(f32::NAN, 0.5)),
            Err(FlowFieldError::GoalOutside)
        );
    }

    #[test]
    fn a_single_cell_field_is_uniform() {
        let field = FlowField::from_fn(Vector::ZERO, 4.0, [1; DIMENSIONS], |_| planar(0.5, 0.0));
        let field = field.unwrap();
        assert_eq!(field.sample(planar(100.0, -3.0)), planar(0.5, 0.0));
        let look_ahead_nan = follow_flow(&vehicle(Vector::ZERO, Vector::X), &field, f32::NAN);
        assert!(look_ahead_nan.is_finite());
    }
}
