//! What every neighbour index answers: the candidates near a point, over one snapshot of
//! positions. On its own, below the indexes and the force pass that both use it.

use crate::math::Vector;
use crate::parallel::Executor;
use crate::space::Space;

/// A spatial index over one snapshot of positions.
pub trait NeighbourIndex {
    /// Rebuilds the index over `positions` (a boid's index is its position in the slice), for
    /// queries reaching up to `query_radius`.
    /// The executor may split the work over threads; the result must not depend on it.
    fn rebuild(
        &mut self,
        positions: &[Vector],
        space: &Space,
        query_radius: f32,
        executor: &impl Executor,
    );

    /// Replaces `out` with the indexes of every boid that may lie within `radius` of `point`
    /// (across the seams in a periodic space), in ascending order and without repeats.
    /// It may contain farther boids; it never misses a nearer one.
    fn candidates(&self, point: Vector, radius: f32, out: &mut Vec<u32>);
}
