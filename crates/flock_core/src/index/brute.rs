//! The reference index: every boid is a candidate for every query.

use super::candidates::NeighbourIndex;
use crate::math::Vector;
use crate::parallel::Executor;
use crate::space::Space;

/// Every boid against every other, O(N^2) per step: the reference the other indexes are
/// checked against, and the fastest choice for a handful of boids.
#[derive(Clone, Debug, Default)]
pub struct BruteForce {
    len: u32,
}

impl NeighbourIndex for BruteForce {
    fn rebuild(
        &mut self,
        positions: &[Vector],
        _space: &Space,
        _query_radius: f32,
        _executor: &impl Executor,
    ) {
        self.len = u32::try_from(positions.len()).expect("more than u32::MAX boids");
    }

    fn candidates(&self, _point: Vector, _radius: f32, out: &mut Vec<u32>) {
        out.clear();
        out.extend(0..self.len);
    }
}
