//! A KD-tree index on kiddo (K = 2, or 3 in 3D), rebuilt from scratch every step.

use kiddo::{ImmutableKdTree, SquaredEuclidean};

use super::candidates::NeighbourIndex;
use crate::edges::wrap_point;
use crate::math::{DIMENSIONS, Vector};
use crate::parallel::Executor;
use crate::space::{MAX_IMAGES, Space};

/// A KD-tree (kiddo's immutable tree) over the snapshot. Periodic spaces are searched by
/// querying the images of the query point that the radius reaches across the seams; points and
/// queries are wrapped into the bounds first, so that one world either way is enough however far
/// outside a position is (as in the grid).
#[derive(Default)]
pub struct KdTree {
    tree: Option<ImmutableKdTree<f32, DIMENSIONS>>,
    space: Option<Space>,
    points: Vec<[f32; DIMENSIONS]>,
}

impl std::fmt::Debug for KdTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KdTree")
            .field("len", &self.points.len())
            .field("space", &self.space)
            .finish()
    }
}

impl NeighbourIndex for KdTree {
    fn rebuild(
        &mut self,
        positions: &[Vector],
        space: &Space,
        _query_radius: f32,
        _executor: &impl Executor,
    ) {
        self.points.clear();
        self.points
            .extend(positions.iter().map(|&p| tree_point(p, space).to_array()));
        self.space = Some(*space);
        // kiddo refuses to build over no points; an empty flock simply has no tree.
        self.tree = if self.points.is_empty() {
            None
        } else {
            ImmutableKdTree::new_from_slice(&self.points).ok()
        };
    }

    fn candidates(&self, point: Vector, radius: f32, out: &mut Vec<u32>) {
        out.clear();
        let (Some(tree), Some(space)) = (&self.tree, &self.space) else {
            return;
        };
        if !point.is_finite() || radius.is_nan() {
            // Nothing is at a finite distance from such a point, or within such a radius.
            return;
        }
        let mut images = [Vector::ZERO; MAX_IMAGES];
        let image_count = space.query_images(tree_point(point, space), radius, &mut images);
        for image in &images[..image_count] {
            tree.query(&image.to_array())
                .within::<SquaredEuclidean<f32>>(radius * radius)
                .unsorted()
                .visit(|found| out.push(found.item));
        }
        // Sorted candidates make the sum of forces independent of the tree's traversal order;
        // dedup drops a boid reached through two images in a world smaller than the radius.
        out.sort_unstable();
        out.dedup();
    }
}

/// Where the tree keeps a position: wrapped into the bounds in a periodic space. One that is
/// not finite, which is nobody's neighbour, is kept at the origin instead of handing kiddo a
/// NaN: the kernel measures every candidate, so it is only ever a candidate that is skipped.
fn tree_point(position: Vector, space: &Space) -> Vector {
    if !position.is_finite() {
        Vector::ZERO
    } else if space.periodic {
        wrap_point(position, &space.bounds)
    } else {
        position
    }
}
