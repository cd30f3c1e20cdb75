//! The static obstacles by grid cell, for the contact pass: each obstacle's bounding ball is
//! entered in every cell its bounding box meets, so an agent finds the few obstacles it may
//! touch from the cells around it instead of testing every obstacle. Built once with the
//! obstacles (they do not move).

use crate::math::{DIMENSIONS, Vector};

/// A cell's integer coordinates (the last unused in 2D).
type Key = [i32; 3];

/// An obstacle meeting more cells than this is kept apart and tested by every query (a wall
/// across the world would otherwise fill the grid).
const MAX_CELLS_PER_OBSTACLE: i64 = 64;

/// A query meeting more cells than this tests every obstacle (an agent far larger than the
/// cells).
const MAX_CELLS_PER_QUERY: i64 = 64;

/// The obstacles' indexes by cell.
#[derive(Clone, Debug, Default)]
pub(super) struct ObstacleCells {
    /// One over the cell size.
    inverse_size: f32,
    /// (cell, obstacle), sorted.
    entries: Vec<(Key, u32)>,
    /// The obstacles kept apart (too large for the cells, or not finite), sorted.
    everywhere: Vec<u32>,
    /// How many obstacles there are.
    count: u32,
}

/// The cell coordinates of the box from `low` to `high`, and how many cells it meets.
fn cell_box(inverse_size: f32, low: Vector, high: Vector) -> (Key, Key, i64) {
    let (mut first, mut last) = ([0; 3], [0; 3]);
    let mut cells = 1_i64;
    for axis in 0..DIMENSIONS {
        // `as` saturates (and gives 0 for NaN): monotone, so overlapping boxes keep a shared
        // cell whatever their coordinates.
        first[axis] = (low[axis] * inverse_size).floor() as i32;
        last[axis] = (high[axis] * inverse_size).floor() as i32;
        let span = i64::from(last[axis]) - i64::from(first[axis]) + 1;
        cells = cells.saturating_mul(span.max(1));
    }
    (first, last, cells)
}

/// Calls `each` with every cell from `first` to `last`.
fn for_each_cell(first: Key, last: Key, mut each: impl FnMut(Key)) {
    for x in first[0]..=last[0] {
        for y in first[1]..=last[1] {
            for z in first[2]..=last[2] {
                each([x, y, z]);
            }
        }
    }
}

impl ObstacleCells {
    /// The cells of the obstacles bounded by `balls` (centre, radius), in index order: cells as
    /// wide as the median ball's diameter (at least a thousandth of a unit), so a typical
    /// obstacle meets a few.
    pub fn build(balls: &[(Vector, f32)]) -> Self {
        let mut diameters: Vec<f32> = (balls.iter())
            .map(|(_, radius)| 2.0 * radius)
            .filter(|diameter| diameter.is_finite())
            .collect();
        diameters.sort_by(f32::total_cmp);
        let size = diameters
            .get(diameters.len() / 2)
            .copied()
            .unwrap_or(1.0)
            .max(1e-3);
        let mut cells = Self {
            inverse_size: 1.0 / size,
            entries: Vec::new(),
            everywhere: Vec::new(),
            count: balls.len() as u32,
        };
        for (index, &(centre, radius)) in balls.iter().enumerate() {
            let index = index as u32;
            let reach = Vector::splat(radius);
            let (first, last, count) = cell_box(cells.inverse_size, centre - reach, centre + reach);
            if !(centre.is_finite() && radius.is_finite()) || count > MAX_CELLS_PER_OBSTACLE {
                cells.everywhere.push(index);
            } else {
                for_each_cell(first, last, |key| cells.entries.push((key, index)));
            }
        }
        cells.entries.sort_unstable();
        cells
    }

    /// Into `found` (cleared first): the indexes of the obstacles whose cells meet the box of
    /// half-size `reach` about `point`, ascending, each once; every obstacle where that box
    /// meets too many cells.
    pub fn near(&self, point: Vector, reach: f32, found: &mut Vec<u32>) {
        found.clear();
        let half = Vector::splat(reach);
        let (first, last, count) = cell_box(self.inverse_size, point - half, point + half);
        if count > MAX_CELLS_PER_QUERY || !point.is_finite() {
            found.extend(0..self.count);
            return;
        }
        found.extend_from_slice(&self.everywhere);
        for_each_cell(first, last, |key| {
            let start = self.entries.partition_point(|(other, _)| *other < key);
            found.extend(
                self.entries[start..]
                    .iter()
                    .take_while(|(other, _)| *other == key)
                    .map(|&(_, index)| index),
            );
        });
        found.sort_unstable();
        found.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::steering::orca::test_random::unit;

    fn point(state: &mut u64, side: f32) -> Vector {
        let mut point = Vector::ZERO;
        for axis in 0..DIMENSIONS {
            point[axis] = (unit(state) - 0.5) * side;
        }
        point
    }

    #[test]
    fn a_query_finds_every_obstacle_whose_ball_meets_its_box_once_in_order() {
        let mut state = 3;
        let mut balls: Vec<(Vector, f32)> = (0..300)
            .map(|_| (point(&mut state, 200.0), 0.5 + 4.0 * unit(&mut state)))
            .collect();
        // One across the world, one not finite: kept apart, found by every query.
        balls.push((Vector::ZERO, 1000.0));
        balls.push((Vector::splat(f32::NAN), 1.0));
        let cells = ObstacleCells::build(&balls);
        let mut found = Vec::new();
        let mut total = 0;
        for _ in 0..500 {
            let at = point(&mut state, 220.0);
            let reach = 0.5 + 3.0 * unit(&mut state);
            cells.near(at, reach, &mut found);
            assert!(
                found.windows(2).all(|pair| pair[0] < pair[1]),
                "ascending, once"
            );
            for (index, &(centre, radius)) in balls.iter().enumerate() {
                let apart = (centre - at).abs() - Vector::splat(radius + reach);
                if apart.max_element() <= 0.0 || !centre.is_finite() {
                    assert!(found.contains(&(index as u32)), "{index} from {at}");
                }
            }
            total += found.len();
        }
        // The cells spare most of the tests.
        assert!(total < 500 * 30, "{total} found");
        // A query far larger than the cells, or from nowhere: every obstacle.
        cells.near(Vector::ZERO, 1e6, &mut found);
        assert_eq!(found.len(), balls.len());
        cells.near(Vector::splat(f32::NAN), 1.0, &mut found);
        assert_eq!(found.len(), balls.len());
    }
}
