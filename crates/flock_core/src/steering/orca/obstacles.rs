//! ORCA's static obstacles, built once and reused every step.
//!
//! In 2D, polygons are RVO2's (the authors' C++ library, `RVOSimulator::addObstacle`): each
//! vertex linked to the next and the previous, with the unit direction of the edge it starts and
//! whether the polygon is convex there, the vertices counter-clockwise (an open segment of two
//! vertices is linked both ways, so it has two sides). They go into RVO2's obstacle k-d tree
//! (`obstacle_tree.rs`), which an agent queries for the edges it can see within reach; the
//! lines come from `obstacle_lines.rs`. Rectangles (aligned or rotated) are polygons of four
//! vertices.
//!
//! Circles have no polygon form in RVO2. Each is kept as what it is exactly, a disc at rest: its
//! constraint is the agent-agent cone (`half_planes.rs`) with a neighbour of the disc's radius
//! that does not move and takes no share, over the obstacle horizon. A polygon standing in for
//! the disc would either cut into the agents' room or leave gaps, and the nearest-point
//! half-plane is only a linearisation of the cone; the cone is the disc's own velocity obstacle.
//!
//! In 3D (RVO2-3D has no obstacles) every shape gives one half-space per nearest point, as the
//! shapes' own geometry gives it (`half_planes.rs`).

use std::borrow::Borrow;

use super::obstacle_cells::ObstacleCells;
use super::obstacle_input::ObstacleError;
#[cfg(flock_3d)]
use super::obstacle_input::shape_fault;
#[cfg(not(flock_3d))]
use super::obstacle_input::{Outline, checked_outline, outline_of};
#[cfg(not(flock_3d))]
use super::obstacle_tree::ObstacleTree;
use crate::math::Vector;
use crate::steering::Shape;

/// One vertex of a linked polygon, and the edge from it to the next (RVO2's `Obstacle`).
#[cfg(not(flock_3d))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ObstacleVertex {
    pub point: Vector,
    /// The unit direction from this vertex to the next.
    pub direction: Vector,
    /// The next vertex's index (counter-clockwise).
    pub next: u32,
    /// The previous vertex's index.
    pub previous: u32,
    /// Whether the polygon is convex at this vertex (always, for a segment's ends and the
    /// vertices the tree adds where it splits an edge).
    pub convex: bool,
}

/// RVO2's `normalize`: the vector divided by its length, where RVO2 divides by multiplying with
/// the inverse (its `Vector2::operator/`), so that the bits match.
#[cfg(not(flock_3d))]
#[inline]
pub(super) fn rvo_normalize(vector: Vector) -> Vector {
    vector * (1.0 / vector.dot(vector).sqrt())
}

/// RVO2's `leftOf`: positive when `point` is to the left of the line from `a` to `b`.
#[cfg(not(flock_3d))]
#[inline]
pub(super) fn left_of(a: Vector, b: Vector, point: Vector) -> f32 {
    (a - point).perp_dot(b - a)
}

/// ORCA's static obstacles and their index: build them once (they are not cheap to build: the
/// tree chooses each split among all the edges left) and pass them to every step.
///
/// Obstacles that are not valid are left out, each with an [`ObstacleError`]
/// ([`problems`](Self::problems)) for a warning: a shape that is not finite, a coordinate beyond
/// [`MAX_OBSTACLE_COORDINATE`](super::MAX_OBSTACLE_COORDINATE), a zero-length edge, a polygon
/// whose edges cross or that has no area. A clockwise polygon is turned round: agents always
/// stay outside.
#[derive(Clone, Debug, Default)]
pub struct OrcaObstacles {
    /// The shapes as given, to tell whether [`update`](Self::update) must rebuild.
    given: Vec<Shape>,
    /// The valid obstacles as shapes and their bounding balls: the contact pass's (and in 3D,
    /// ORCA's) obstacles.
    solids: Vec<(Shape, Vector, f32)>,
    problems: Vec<ObstacleError>,
    /// The solids, then the open segments, by grid cell (for the contact pass).
    cells: ObstacleCells,
    /// Every polygon's vertices, linked, with those the tree added.
    #[cfg(not(flock_3d))]
    vertices: Vec<ObstacleVertex>,
    #[cfg(not(flock_3d))]
    tree: ObstacleTree,
    /// The circles: centre and radius.
    #[cfg(not(flock_3d))]
    discs: Vec<(Vector, f32)>,
    /// The open segments given as vertex lists of two, for the contact pass.
    #[cfg(not(flock_3d))]
    segments: Vec<(Vector, Vector)>,
}

impl OrcaObstacles {
    /// The obstacles of `shapes`; those that are not valid are left out (see
    /// [`problems`](Self::problems)).
    pub fn from_shapes(shapes: &[impl Borrow<Shape>]) -> Self {
        let mut obstacles = Self::default();
        obstacles.rebuild(shapes);
        obstacles
    }

    /// RVO2's obstacles from vertex lists, as `RVOSimulator::addObstacle` takes them (then
    /// `processObstacles`): each a polygon counter-clockwise (a clockwise one is turned round),
    /// or an open segment of two vertices that agents avoid from both sides. The first list
    /// refused, if any, is the error.
    #[cfg(not(flock_3d))]
    pub fn from_polygons(polygons: &[impl AsRef<[Vector]>]) -> Result<Self, ObstacleError> {
        let mut obstacles = Self::default();
        for (index, vertices) in polygons.iter().enumerate() {
            let outline = checked_outline(vertices.as_ref()).map_err(|fault| ObstacleError {
                obstacle: index,
                fault,
            })?;
            if let [a, b] = outline[..] {
                obstacles.segments.push((a, b));
            } else {
                let polygon = crate::steering::Polygon::new(outline.iter().copied())
                    .expect("checked_outline made it a polygon");
                obstacles.push_solid(Shape::Polygon(polygon));
            }
            obstacles.link(&outline);
        }
        obstacles.index();
        Ok(obstacles)
    }

    /// Rebuilds these obstacles from `shapes` if they differ from the shapes they were built
    /// from; returns whether it did (so a caller warns about [`problems`](Self::problems) once
    /// per change). Buffers are reused. A shape holding a NaN never equals itself, so a set
    /// with one is rebuilt every time.
    pub fn update(&mut self, shapes: &[impl Borrow<Shape>]) -> bool {
        let same = self.given.len() == shapes.len()
            && (self.given.iter())
                .zip(shapes)
                .all(|(given, shape)| given == shape.borrow());
        if !same {
            self.rebuild(shapes);
        }
        !same
    }

    fn rebuild(&mut self, shapes: &[impl Borrow<Shape>]) {
        self.given.clear();
        self.given
            .extend(shapes.iter().map(|shape| shape.borrow().clone()));
        self.solids.clear();
        self.problems.clear();
        #[cfg(not(flock_3d))]
        {
            self.vertices.clear();
            self.discs.clear();
            self.segments.clear();
        }
        for (index, shape) in shapes.iter().enumerate() {
            let shape = shape.borrow();
            if let Err(fault) = self.add_shape(shape) {
                self.problems.push(ObstacleError {
                    obstacle: index,
                    fault,
                });
            }
        }
        self.index();
    }

    /// Builds the indexes: the polygons' tree (2D), the cells.
    fn index(&mut self) {
        #[cfg(not(flock_3d))]
        {
            self.tree = ObstacleTree::build(&mut self.vertices);
        }
        #[cfg_attr(flock_3d, allow(unused_mut))]
        let mut balls: Vec<(Vector, f32)> = (self.solids.iter())
            .map(|&(_, centre, radius)| (centre, radius))
            .collect();
        #[cfg(not(flock_3d))]
        balls.extend((self.segments.iter()).map(|&(a, b)| ((a + b) / 2.0, a.distance(b) / 2.0)));
        self.cells = ObstacleCells::build(&balls);
    }

    #[cfg(not(flock_3d))]
    fn add_shape(&mut self, shape: &Shape) -> Result<(), super::ObstacleFault> {
        match outline_of(shape)? {
            Outline::Disc { centre, radius } => self.discs.push((centre, radius)),
            Outline::Vertices(outline) => self.link(&outline),
        }
        self.push_solid(shape.clone());
        Ok(())
    }

    #[cfg(flock_3d)]
    fn add_shape(&mut self, shape: &Shape) -> Result<(), super::ObstacleFault> {
        if let Some(fault) = shape_fault(shape) {
            return Err(fault);
        }
        self.push_solid(shape.clone());
        Ok(())
    }

    fn push_solid(&mut self, shape: Shape) {
        // Valid shapes have a finite bounding ball.
        let (centre, radius) = shape
            .bounding_ball()
            .unwrap_or((Vector::ZERO, f32::INFINITY));
        self.solids.push((shape, centre, radius));
    }

    /// Links `outline` (checked, counter-clockwise) as RVO2's `addObstacle` does.
    #[cfg(not(flock_3d))]
    fn link(&mut self, outline: &[Vector]) {
        let first = self.vertices.len() as u32;
        let count = outline.len();
        for (index, &point) in outline.iter().enumerate() {
            let next = outline[(index + 1) % count];
            let previous = outline[(index + count - 1) % count];
            self.vertices.push(ObstacleVertex {
                point,
                direction: rvo_normalize(next - point),
                next: first + ((index + 1) % count) as u32,
                previous: first + ((index + count - 1) % count) as u32,
                convex: count == 2 || left_of(previous, point, next) >= 0.0,
            });
        }
    }

    /// The obstacles refused when these were built, in the order given.
    pub fn problems(&self) -> &[ObstacleError] {
        &self.problems
    }

    /// Whether there is no obstacle at all.
    pub fn is_empty(&self) -> bool {
        self.solids.is_empty() && self.segments_are_empty()
    }

    #[cfg(not(flock_3d))]
    fn segments_are_empty(&self) -> bool {
        self.segments.is_empty()
    }

    #[cfg(flock_3d)]
    fn segments_are_empty(&self) -> bool {
        true
    }

    /// The solids (by their index in [`solids`](Self::solids)) and then the open segments (by
    /// the number of solids plus theirs in [`segments`](Self::segments)), by grid cell.
    pub(super) fn cells(&self) -> &ObstacleCells {
        &self.cells
    }

    /// The valid obstacles as shapes, each with a ball around it (centre, radius).
    pub(super) fn solids(&self) -> &[(Shape, Vector, f32)] {
        &self.solids
    }

    /// Every edge of the linked polygons, after the tree's splits, as (start, end): a polygon of
    /// `n` vertices gives `n` edges, a segment two (one each way). For drawing and tests.
    #[cfg(not(flock_3d))]
    pub fn edges(&self) -> impl Iterator<Item = (Vector, Vector)> + '_ {
        (self.vertices.iter())
            .map(|vertex| (vertex.point, self.vertices[vertex.next as usize].point))
    }

    #[cfg(not(flock_3d))]
    pub(super) fn vertices(&self) -> &[ObstacleVertex] {
        &self.vertices
    }

    #[cfg(not(flock_3d))]
    pub(super) fn tree(&self) -> &ObstacleTree {
        &self.tree
    }

    #[cfg(not(flock_3d))]
    pub(super) fn discs(&self) -> &[(Vector, f32)] {
        &self.discs
    }

    #[cfg(not(flock_3d))]
    pub(super) fn segments(&self) -> &[(Vector, Vector)] {
        &self.segments
    }
}

/// What ORCA's steps take as their static obstacles: an [`OrcaObstacles`] built once (the
/// fast way), or a slice, array or `Vec` of [`Shape`]s, which the step builds into the
/// [`OrcaObstacles`] its buffers keep ([`OrcaCrowd`](super::OrcaCrowd),
/// [`OrcaScratch`](super::OrcaScratch), [`ContactScratch`](super::ContactScratch)), rebuilt
/// only when the shapes differ from the last call's (see [`OrcaObstacles::update`]):
/// comparing them costs a pass over the shapes each call, rebuilding the tree much more.
pub trait AsOrcaObstacles {
    /// Calls `with` with these obstacles as [`OrcaObstacles`]; shapes are built into `kept`
    /// (if they differ from what it was built from).
    fn with_orca_obstacles<R>(
        &self,
        kept: &mut OrcaObstacles,
        with: impl FnOnce(&OrcaObstacles) -> R,
    ) -> R;
}

impl AsOrcaObstacles for OrcaObstacles {
    fn with_orca_obstacles<R>(
        &self,
        _kept: &mut OrcaObstacles,
        with: impl FnOnce(&OrcaObstacles) -> R,
    ) -> R {
        with(self)
    }
}

impl<T: AsOrcaObstacles + ?Sized> AsOrcaObstacles for &T {
    fn with_orca_obstacles<R>(
        &self,
        kept: &mut OrcaObstacles,
        with: impl FnOnce(&OrcaObstacles) -> R,
    ) -> R {
        (**self).with_orca_obstacles(kept, with)
    }
}

impl<T: AsOrcaObstacles + ?Sized> AsOrcaObstacles for &mut T {
    fn with_orca_obstacles<R>(
        &self,
        kept: &mut OrcaObstacles,
        with: impl FnOnce(&OrcaObstacles) -> R,
    ) -> R {
        (**self).with_orca_obstacles(kept, with)
    }
}

impl<S: Borrow<Shape>> AsOrcaObstacles for [S] {
    fn with_orca_obstacles<R>(
        &self,
        kept: &mut OrcaObstacles,
        with: impl FnOnce(&OrcaObstacles) -> R,
    ) -> R {
        kept.update(self);
        with(kept)
    }
}

impl<S: Borrow<Shape>, const N: usize> AsOrcaObstacles for [S; N] {
    fn with_orca_obstacles<R>(
        &self,
        kept: &mut OrcaObstacles,
        with: impl FnOnce(&OrcaObstacles) -> R,
    ) -> R {
        self.as_slice().with_orca_obstacles(kept, with)
    }
}

impl<S: Borrow<Shape>> AsOrcaObstacles for Vec<S> {
    fn with_orca_obstacles<R>(
        &self,
        kept: &mut OrcaObstacles,
        with: impl FnOnce(&OrcaObstacles) -> R,
    ) -> R {
        self.as_slice().with_orca_obstacles(kept, with)
    }
}
