//! Neighbour indexes: who might be within a radius of a point.
//!
//! An index answers with *candidates*, a superset of the boids within the radius; the kernel
//! measures each candidate itself, so every index yields exactly the same neighbour sets and,
//! because candidates come sorted, the same forces bit for bit.

mod brute;
pub(crate) mod candidates;
mod grid;
mod kdtree;

pub use brute::BruteForce;
pub use candidates::NeighbourIndex;
pub use grid::{Grid, Lanes};
pub use kdtree::KdTree;

use crate::config::IndexKind;
use crate::math::Vector;
use crate::parallel::Executor;
use crate::rules::{ForceInputs, NeighbourStats, compute_forces};
use crate::space::Space;

/// One of the built-in indexes, chosen at run time by [`IndexKind`].
// A flock holds one index, so the grid's size (its per-axis buffers, larger in 3D) costs
// nothing worth a box, and the hot variant stays without an indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum AnyIndex {
    /// See [`Grid`].
    Grid(Grid),
    /// See [`KdTree`].
    KdTree(KdTree),
    /// See [`BruteForce`].
    BruteForce(BruteForce),
}

impl AnyIndex {
    /// An empty index of the given kind.
    pub fn new(kind: IndexKind) -> Self {
        match kind {
            IndexKind::Grid => Self::Grid(Grid::default()),
            IndexKind::KdTree => Self::KdTree(KdTree::default()),
            IndexKind::BruteForce => Self::BruteForce(BruteForce::default()),
        }
    }

    /// Which kind this is.
    pub fn kind(&self) -> IndexKind {
        match self {
            Self::Grid(_) => IndexKind::Grid,
            Self::KdTree(_) => IndexKind::KdTree,
            Self::BruteForce(_) => IndexKind::BruteForce,
        }
    }

    /// Every boid's weighted flocking force into `forces` (see [`compute_forces`]), through the
    /// grid's vectorised path when this is a grid.
    ///
    /// [`compute_forces`]: crate::compute_forces
    pub fn compute_forces(
        &mut self,
        inputs: ForceInputs,
        forces: &mut [Vector],
        executor: &impl Executor,
    ) -> NeighbourStats {
        match self {
            Self::Grid(grid) => grid.compute_forces(inputs, forces, executor),
            other => compute_forces(&*other, inputs, forces, executor),
        }
    }

    /// Switches to `kind` if it differs (the next rebuild fills the new one).
    pub fn set_kind(&mut self, kind: IndexKind) {
        if self.kind() != kind {
            *self = Self::new(kind);
        }
    }
}

impl Default for AnyIndex {
    fn default() -> Self {
        Self::new(IndexKind::default())
    }
}

impl NeighbourIndex for AnyIndex {
    fn rebuild(
        &mut self,
        positions: &[Vector],
        space: &Space,
        query_radius: f32,
        executor: &impl Executor,
    ) {
        match self {
            Self::Grid(index) => index.rebuild(positions, space, query_radius, executor),
            Self::KdTree(index) => index.rebuild(positions, space, query_radius, executor),
            Self::BruteForce(index) => index.rebuild(positions, space, query_radius, executor),
        }
    }

    fn candidates(&self, point: Vector, radius: f32, out: &mut Vec<u32>) {
        match self {
            Self::Grid(index) => index.candidates(point, radius, out),
            Self::KdTree(index) => index.candidates(point, radius, out),
            Self::BruteForce(index) => index.candidates(point, radius, out),
        }
    }
}
