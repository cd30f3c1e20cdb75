//! What ORCA accepts as a static obstacle, and why it refuses the rest: every shape and vertex
//! list is checked before it joins an [`OrcaObstacles`](super::OrcaObstacles), so that nothing
//! in it can give a NaN, a panic or an agent lost inside a broken outline later.

use std::fmt;

use crate::math::Vector;
use crate::steering::Shape;

/// The largest coordinate (and circle radius) an obstacle may have, world units: beyond it the
/// squared distances and cross products ORCA's obstacle lines and index compute no longer fit
/// in an `f32` (and an `f32` no longer resolves a tenth of a unit there anyway).
pub const MAX_OBSTACLE_COORDINATE: f32 = 1.0e9;

/// Why an obstacle was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObstacleFault {
    /// A vertex list with fewer than two vertices (RVO2 needs at least a segment).
    TooFewVertices,
    /// A vertex, centre, size or rotation that is not finite, or a negative size.
    NotFinite,
    /// A coordinate or size beyond [`MAX_OBSTACLE_COORDINATE`].
    TooLarge,
    /// Two consecutive vertices on one point (or so near that the edge has no direction): RVO2
    /// would divide by the edge's zero length.
    ZeroLengthEdge,
    /// Two edges of a polygon cross.
    SelfIntersecting,
    /// A polygon's vertices all on one line.
    NoArea,
    /// More vertices than a polygon may have (1024, a 2D `Polygon`'s limit).
    TooManyVertices,
}

impl fmt::Display for ObstacleFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::TooFewVertices => "fewer than two vertices",
            Self::NotFinite => "a value that is not finite, or a negative size",
            Self::TooLarge => "a coordinate or size beyond 1e9",
            Self::ZeroLengthEdge => "two consecutive vertices on one point (a zero-length edge)",
            Self::SelfIntersecting => "edges that cross",
            Self::NoArea => "all its vertices on one line",
            Self::TooManyVertices => "more than 1024 vertices",
        })
    }
}

/// An obstacle that was refused: which one (its index in what was given) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObstacleError {
    /// Its index among the shapes or vertex lists given.
    pub obstacle: usize,
    /// Why it was refused.
    pub fault: ObstacleFault,
}

impl fmt::Display for ObstacleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ORCA obstacle {} ignored: {}", self.obstacle, self.fault)
    }
}

impl std::error::Error for ObstacleError {}

/// Whether every coordinate of `point` is within [`MAX_OBSTACLE_COORDINATE`].
fn within_bounds(point: Vector) -> bool {
    point.abs().max_element() <= MAX_OBSTACLE_COORDINATE
}

/// The fault of a shape as a whole (finite, sizes not negative, within bounds), if any.
pub(super) fn shape_fault(shape: &Shape) -> Option<ObstacleFault> {
    if !shape.is_valid() {
        return Some(ObstacleFault::NotFinite);
    }
    let (centre, extent) = shape.bounding_ball()?;
    (!(within_bounds(centre) && extent <= MAX_OBSTACLE_COORDINATE))
        .then_some(ObstacleFault::TooLarge)
}

/// What a valid 2D shape is to ORCA: a disc (RVO2 has no round obstacles), or an outline of
/// vertices counter-clockwise (a closed polygon from three on, a two-sided segment of two).
#[cfg(not(flock_3d))]
pub(super) enum Outline {
    Disc { centre: Vector, radius: f32 },
    Vertices(Vec<Vector>),
}

/// `shape` as ORCA sees it, or why it is refused. Rectangles become their four corners
/// counter-clockwise; one of no height (or width) the segment it is; of neither, a point, is
/// refused.
#[cfg(not(flock_3d))]
pub(super) fn outline_of(shape: &Shape) -> Result<Outline, ObstacleFault> {
    if let Some(fault) = shape_fault(shape) {
        return Err(fault);
    }
    let corners = |centre: Vector, half_size: Vector, rotation: crate::math::Rotation| {
        let corner = |x: f32, y: f32| centre + rotation * Vector::new(x, y);
        let (x, y) = (half_size.x, half_size.y);
        match (x > 0.0, y > 0.0) {
            (true, true) => Ok(vec![
                corner(-x, -y),
                corner(x, -y),
                corner(x, y),
                corner(-x, y),
            ]),
            (true, false) => Ok(vec![corner(-x, 0.0), corner(x, 0.0)]),
            (false, true) => Ok(vec![corner(0.0, -y), corner(0.0, y)]),
            (false, false) => Err(ObstacleFault::ZeroLengthEdge),
        }
    };
    let vertices = match shape {
        &Shape::Circle { centre, radius } => return Ok(Outline::Disc { centre, radius }),
        &Shape::Rect { centre, half_size } => {
            corners(centre, half_size, crate::math::Rotation::IDENTITY)?
        }
        &Shape::RotatedRect {
            centre,
            half_size,
            rotation,
        } => corners(centre, half_size, rotation)?,
        Shape::Polygon(polygon) => polygon.vertices().to_vec(),
    };
    checked_outline(&vertices).map(Outline::Vertices)
}

/// RVO2's vertex list for an obstacle (`RVOSimulator::addObstacle`): at least two vertices,
/// finite, within bounds, no zero-length edge; three or more must make a simple polygon with an
/// inside, given counter-clockwise (RVO2's order) or clockwise, which is turned round (RVO2 would
/// take a clockwise list as a region to stay in; ORCA here always keeps agents outside). Returns
/// the vertices counter-clockwise.
#[cfg(not(flock_3d))]
pub(super) fn checked_outline(vertices: &[Vector]) -> Result<Vec<Vector>, ObstacleFault> {
    use crate::steering::{Polygon, PolygonError};
    if vertices.len() < 2 {
        return Err(ObstacleFault::TooFewVertices);
    }
    if !vertices.iter().all(|vertex| vertex.is_finite()) {
        return Err(ObstacleFault::NotFinite);
    }
    if !vertices.iter().all(|&vertex| within_bounds(vertex)) {
        return Err(ObstacleFault::TooLarge);
    }
    if vertices.len() > Polygon::MAX_VERTICES {
        return Err(ObstacleFault::TooManyVertices);
    }
    let count = vertices.len();
    // A two-vertex segment has one edge (walked both ways).
    let edges = if count == 2 { 1 } else { count };
    for index in 0..edges {
        let along = vertices[(index + 1) % count] - vertices[index];
        if !super::obstacles::rvo_normalize(along).is_finite() {
            return Err(ObstacleFault::ZeroLengthEdge);
        }
    }
    if count == 2 {
        return Ok(vertices.to_vec());
    }
    // The polygon's own checks: edges that cross, no area; it turns a clockwise list round.
    let polygon = Polygon::new(vertices.iter().copied()).map_err(|error| match error {
        PolygonError::TooFewVertices => ObstacleFault::ZeroLengthEdge,
        PolygonError::TooManyVertices => ObstacleFault::TooManyVertices,
        PolygonError::NotFinite => ObstacleFault::NotFinite,
        PolygonError::NoArea => ObstacleFault::NoArea,
        PolygonError::SelfIntersecting => ObstacleFault::SelfIntersecting,
    })?;
    Ok(polygon.vertices().to_vec())
}
