//! Measures of a flock's state, for plots and tests: how aligned it is and how closely packed.

use crate::index::candidates::NeighbourIndex;
use crate::math::Vector;
use crate::space::Space;

/// The length of the mean unit heading: 1 when every boid flies the same way, near 0 when
/// headings cancel out (disorder, or opposite streams). Boids at rest have no heading and are
/// left out; with no moving boid the result is 0.
///
/// ```
/// # #[cfg(flock_3d)] extern crate flock_core3d as flock_core;
/// use flock_core::{Vector, metrics::polarisation};
///
/// let aligned = [Vector::X, Vector::X * 3.0];
/// assert!((polarisation(&aligned) - 1.0).abs() < 1e-6);
/// let opposite = [Vector::X, Vector::X * -2.0];
/// assert!(polarisation(&opposite) < 1e-6);
/// ```
pub fn polarisation(velocities: &[Vector]) -> f32 {
    let (sum, moving) = velocities
        .iter()
        .filter_map(|velocity| velocity.try_normalize())
        .fold((Vector::ZERO, 0u32), |(sum, count), heading| {
            (sum + heading, count + 1)
        });
    if moving == 0 {
        0.0
    } else {
        (sum / moving as f32).length()
    }
}

/// The mean distance from a boid to its nearest other boid, over at most `samples` boids taken
/// at an even stride through `positions` (all of them when there are fewer), measured in
/// `space` (across the seam when it wraps). `None` with fewer than two boids.
///
/// `index` must have been rebuilt over `positions`. Each sampled boid asks it for candidates
/// within `search_radius` (normally the flock's largest rule radius, which the index was built
/// for), doubling the radius until some other boid lies within it; only past the world's
/// diagonal is every boid measured. So the cost is about `samples` neighbour queries, whatever
/// the flock's size.
pub fn mean_nearest_neighbour_distance(
    positions: &[Vector],
    space: &Space,
    index: &impl NeighbourIndex,
    search_radius: f32,
    samples: usize,
) -> Option<f32> {
    if positions.len() < 2 || samples == 0 {
        return None;
    }
    let stride = positions.len().div_ceil(samples).max(1);
    let diagonal = space.bounds.size().length();
    let mut candidates = Vec::new();
    let mut total = 0.0f64;
    let mut measured = 0u32;
    for boid in (0..positions.len()).step_by(stride) {
        let here = positions[boid];
        let mut radius = search_radius.max(f32::MIN_POSITIVE);
        let mut near = None;
        while near.is_none() && radius <= diagonal {
            index.candidates(here, radius, &mut candidates);
            let others = candidates.iter().map(|&other| other as usize);
            // Exact only within the radius: a farther candidate may not be the nearest.
            near = nearest(here, boid, others, positions, space)
                .filter(|&distance| distance <= radius);
            radius *= 2.0;
        }
        // Isolated beyond the world's size (or outside it): look at every boid.
        let distance = near.or_else(|| nearest(here, boid, 0..positions.len(), positions, space));
        if let Some(distance) = distance {
            total += f64::from(distance);
            measured += 1;
        }
    }
    (measured > 0).then(|| (total / f64::from(measured)) as f32)
}

/// The distance from `here` (boid `me`) to the nearest of `others`, skipping itself.
fn nearest(
    here: Vector,
    me: usize,
    others: impl Iterator<Item = usize>,
    positions: &[Vector],
    space: &Space,
) -> Option<f32> {
    others
        .filter(|&other| other != me)
        .map(|other| space.delta(here, positions[other]).length_squared())
        .min_by(f32::total_cmp)
        .map(f32::sqrt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Bounds, EdgeMode, FlockConfig};
    use crate::index::{AnyIndex, BruteForce, Grid};
    use crate::math::{planar, world_size};
    use crate::parallel::Serial;

    fn space(wrap: bool) -> Space {
        Space::of(&FlockConfig {
            bounds: Bounds::centered(world_size(200.0, 200.0)),
            edges: if wrap {
                EdgeMode::Wrap
            } else {
                EdgeMode::Bounce
            },
            wrap_neighbours: true,
            ..FlockConfig::default()
        })
    }

    fn built<I: NeighbourIndex + Default>(positions: &[Vector], space: &Space, radius: f32) -> I {
        let mut index = I::default();
        index.rebuild(positions, space, radius, &Serial);
        index
    }

    /// A `side` x `side` lattice of boids `spacing` apart, centred on the origin.
    fn lattice(side: usize, spacing: f32) -> Vec<Vector> {
        let offset = (side as f32 - 1.0) * spacing / 2.0;
        (0..side * side)
            .map(|i| {
                planar(
                    (i % side) as f32 * spacing - offset,
                    (i / side) as f32 * spacing - offset,
                )
            })
            .collect()
    }

    #[test]
    fn aligned_flock_is_fully_polarised() {
        let velocities: Vec<_> = (1..50)
            .map(|speed| planar(0.6, 0.8) * speed as f32)
            .collect();
        assert!((polarisation(&velocities) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn opposite_pairs_cancel() {
        let velocities: Vec<_> = (0..40)
            .flat_map(|i| {
                let angle = i as f32 * 0.3;
                let heading = planar(angle.cos(), angle.sin()) * (1.0 + i as f32);
                [heading, -heading * 2.0]
            })
            .collect();
        assert!(polarisation(&velocities) < 1e-5);
    }

    #[test]
    fn half_aligned_and_at_rest() {
        // Two boids east, one north: mean heading (2, 1) / 3.
        let velocities = [
            Vector::X,
            Vector::X * 5.0,
            Vector::Y,
            Vector::ZERO, // at rest: no heading, not counted
        ];
        let expected = planar(2.0, 1.0).length() / 3.0;
        assert!((polarisation(&velocities) - expected).abs() < 1e-6);
        assert_eq!(polarisation(&[Vector::ZERO]), 0.0);
        assert_eq!(polarisation(&[]), 0.0);
    }

    #[test]
    fn lattice_nearest_neighbour_is_the_spacing() {
        let positions = lattice(10, 7.0);
        let space = space(false);
        let grid: Grid = built(&positions, &space, 20.0);
        let brute: BruteForce = built(&positions, &space, 20.0);
        for samples in [1, 7, 100, 1000] {
            let from_grid =
                mean_nearest_neighbour_distance(&positions, &space, &grid, 20.0, samples);
            let from_brute =
                mean_nearest_neighbour_distance(&positions, &space, &brute, 20.0, samples);
            assert!((from_grid.unwrap() - 7.0).abs() < 1e-4, "{from_grid:?}");
            assert_eq!(from_grid, from_brute);
        }
    }

    #[test]
    fn far_neighbours_are_found_beyond_the_search_radius() {
        // Two boids 60 apart, searched with a radius of 10: the fallback measures them.
        let positions = [planar(-30.0, 0.0), planar(30.0, 0.0)];
        let space = space(false);
        let index = AnyIndex::Grid(built(&positions, &space, 10.0));
        let distance = mean_nearest_neighbour_distance(&positions, &space, &index, 10.0, 10);
        assert!((distance.unwrap() - 60.0).abs() < 1e-4);
    }

    #[test]
    fn widening_finds_the_same_as_brute_force() {
        // A dense cluster and scattered loners: loners need radii well past the search radius.
        let mut positions = lattice(8, 3.0);
        positions.extend([
            planar(90.0, 90.0),
            planar(-90.0, 80.0),
            planar(60.0, -95.0),
            planar(-40.0, -40.0),
        ]);
        let space = space(false);
        let grid = AnyIndex::Grid(built(&positions, &space, 5.0));
        let brute: BruteForce = built(&positions, &space, 5.0);
        let from_grid = mean_nearest_neighbour_distance(&positions, &space, &grid, 5.0, 1000);
        let from_brute = mean_nearest_neighbour_distance(&positions, &space, &brute, 500.0, 1000);
        assert!((from_grid.unwrap() - from_brute.unwrap()).abs() < 1e-4);
    }

    #[test]
    fn wrapped_distance_crosses_the_seam() {
        // 190 apart inside a 200-wide wrapping world: 10 apart across the seam.
        let positions = [planar(-95.0, 0.0), planar(95.0, 0.0)];
        let space = space(true);
        let grid: Grid = built(&positions, &space, 20.0);
        let distance = mean_nearest_neighbour_distance(&positions, &space, &grid, 20.0, 10);
        assert!((distance.unwrap() - 10.0).abs() < 1e-4);
    }

    #[test]
    fn too_few_boids_have_no_distance() {
        let space = space(false);
        let one = [Vector::ZERO];
        let index: BruteForce = built(&one, &space, 10.0);
        assert_eq!(
            mean_nearest_neighbour_distance(&one, &space, &index, 10.0, 10),
            None
        );
    }
}
