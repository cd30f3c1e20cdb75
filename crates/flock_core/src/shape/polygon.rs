//! Simple polygons (2D only): pens to stay in and obstacles of any outline.

use std::fmt;

use glam::Vec2;

use super::parts::{Nearest, nearest_on_segment};

/// A simple polygon (its edges do not cross), convex or not, its vertices counter-clockwise.
/// Built by [`Polygon::new`], which checks it.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    vertices: Vec<Vec2>,
}

/// Why a [`Polygon`] could not be built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PolygonError {
    /// Fewer than three distinct vertices.
    TooFewVertices,
    /// More than [`Polygon::MAX_VERTICES`].
    TooManyVertices,
    /// A vertex is not finite.
    NotFinite,
    /// All vertices on one line: no inside.
    NoArea,
    /// Two edges cross.
    SelfIntersecting,
}

impl fmt::Display for PolygonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::TooFewVertices => "a polygon needs at least three distinct vertices",
            Self::TooManyVertices => "a polygon may have at most 1024 vertices",
            Self::NotFinite => "a polygon's vertex is not finite",
            Self::NoArea => "the polygon's vertices are on one line",
            Self::SelfIntersecting => "the polygon's edges cross",
        })
    }
}

impl std::error::Error for PolygonError {}

impl Polygon {
    /// The most vertices a polygon may have (checking that edges do not cross takes time
    /// growing with the square of this).
    pub const MAX_VERTICES: usize = 1024;

    /// The polygon through `vertices` in order (either way round; repeated consecutive
    /// vertices are merged), or why it is not one.
    pub fn new(vertices: impl IntoIterator<Item = Vec2>) -> Result<Self, PolygonError> {
        let mut points: Vec<Vec2> = Vec::new();
        for vertex in vertices {
            if !vertex.is_finite() {
                return Err(PolygonError::NotFinite);
            }
            if points.last() != Some(&vertex) {
                points.push(vertex);
            }
            if points.len() > Self::MAX_VERTICES {
                return Err(PolygonError::TooManyVertices);
            }
        }
        while points.len() > 1 && points.first() == points.last() {
            points.pop();
        }
        if points.len() < 3 {
            return Err(PolygonError::TooFewVertices);
        }
        let mut polygon = Self { vertices: points };
        if polygon.has_crossing_edges() {
            return Err(PolygonError::SelfIntersecting);
        }
        let area = polygon.signed_area();
        // Relative to the polygon's size, so a tiny but real polygon is kept.
        let extent = polygon.edges().map(|(a, b)| a.distance(b)).sum::<f32>();
        if area.abs() <= 1e-6 * extent * extent || !area.is_finite() {
            return Err(PolygonError::NoArea);
        }
        if area < 0.0 {
            polygon.vertices.reverse();
        }
        Ok(polygon)
    }

    /// An axis-aligned rectangle around the origin.
    pub fn rectangle(half_size: Vec2) -> Result<Self, PolygonError> {
        let (x, y) = (half_size.x, half_size.y);
        Self::new([
            Vec2::new(-x, -y),
            Vec2::new(x, -y),
            Vec2::new(x, y),
            Vec2::new(-x, y),
        ])
    }

    /// Its vertices, counter-clockwise.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Each edge, from one vertex to the next.
    pub fn edges(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let count = self.vertices.len();
        (0..count).map(move |i| (self.vertices[i], self.vertices[(i + 1) % count]))
    }

    /// The mean of its vertices: inside a convex polygon.
    pub fn centre(&self) -> Vec2 {
        self.vertices.iter().sum::<Vec2>() / self.vertices.len().max(1) as f32
    }

    /// This polygon rotated by `rotation` (a unit vector: cos and sin of the angle), then
    /// moved by `translation`.
    pub fn placed(&self, translation: Vec2, rotation: Vec2) -> Self {
        Self {
            vertices: (self.vertices.iter())
                .map(|&vertex| translation + rotation.rotate(vertex))
                .collect(),
        }
    }

    /// Whether `point` is inside (by the crossing number).
    pub fn contains(&self, point: Vec2) -> bool {
        let mut inside = false;
        for (a, b) in self.edges() {
            if (a.y > point.y) != (b.y > point.y) {
                let x = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if point.x < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Whether it is still a polygon: at least three vertices, all finite (as [`Polygon::new`]
    /// makes it; a value built otherwise, by reflection, may not be).
    pub fn is_valid(&self) -> bool {
        self.vertices.len() >= 3 && self.vertices.iter().all(|v| v.is_finite())
    }

    /// The point of its outline nearest `point`, the outward unit normal of that edge, and
    /// whether `point` is inside.
    pub fn nearest(&self, point: Vec2) -> Nearest {
        let (nearest, outward) = self.nearest_edge(point);
        Nearest {
            point: nearest,
            outward,
            inside: self.contains(point),
        }
    }

    /// The point of its outline nearest `point`, and the outward unit normal of that edge.
    pub fn nearest_edge(&self, point: Vec2) -> (Vec2, Vec2) {
        let mut best = (f32::INFINITY, Vec2::ZERO, Vec2::X);
        for (a, b) in self.edges() {
            let nearest = nearest_on_segment(point, a, b);
            let distance = nearest.distance_squared(point);
            if distance < best.0 {
                // Counter-clockwise: the outside is on the right of each edge.
                let outward = (b - a).perp().normalize_or(Vec2::X) * -1.0;
                best = (distance, nearest, outward);
            }
        }
        (best.1, best.2)
    }

    fn signed_area(&self) -> f32 {
        self.edges().map(|(a, b)| a.perp_dot(b)).sum::<f32>() / 2.0
    }

    fn has_crossing_edges(&self) -> bool {
        let edges: Vec<(Vec2, Vec2)> = self.edges().collect();
        let count = edges.len();
        (0..count).any(|i| {
            // Neighbouring edges share a vertex; every other pair must not touch.
            (i + 2..count)
                .filter(|&j| !(i == 0 && j == count - 1))
                .any(|j| segments_cross(edges[i], edges[j]))
        })
    }
}

/// Whether two segments touch or cross.
fn segments_cross((a, b): (Vec2, Vec2), (c, d): (Vec2, Vec2)) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return true;
    }
    let on = |p: Vec2, q: Vec2, r: Vec2, s: f32| {
        s == 0.0 && r.cmpge(p.min(q)).all() && r.cmple(p.max(q)).all()
    };
    on(c, d, a, d1) || on(c, d, b, d2) || on(a, b, c, d3) || on(a, b, d, d4)
}

/// How far along unit `heading` from `origin` the ray first crosses segment `a`-`b`.
pub(crate) fn ray_crosses_segment(origin: Vec2, heading: Vec2, a: Vec2, b: Vec2) -> Option<f32> {
    let edge = b - a;
    let denominator = heading.perp_dot(edge);
    if denominator == 0.0 {
        return None;
    }
    let to_a = a - origin;
    let distance = to_a.perp_dot(edge) / denominator;
    let along_edge = to_a.perp_dot(heading) / denominator;
    (distance >= 0.0 && (0.0..=1.0).contains(&along_edge)).then_some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l_shape() -> Polygon {
        // Clockwise on purpose.
        Polygon::new([
            Vec2::new(0.0, 0.0),
            Vec2::new(0.0, 4.0),
            Vec2::new(2.0, 4.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(4.0, 2.0),
            Vec2::new(4.0, 0.0),
        ])
        .unwrap()
    }

    #[test]
    fn a_concave_polygon_knows_its_inside_and_nearest_edge() {
        let l = l_shape();
        assert!(l.signed_area() > 0.0, "stored counter-clockwise");
        assert!(l.contains(Vec2::new(1.0, 3.0)) && l.contains(Vec2::new(3.0, 1.0)));
        assert!(!l.contains(Vec2::new(3.0, 3.0)) && !l.contains(Vec2::new(-1.0, 1.0)));
        let (nearest, outward) = l.nearest_edge(Vec2::new(3.0, 2.5));
        assert_eq!((nearest, outward), (Vec2::new(3.0, 2.0), Vec2::Y));
        let (_, outward) = l.nearest_edge(Vec2::new(0.2, 1.0));
        assert_eq!(outward, -Vec2::X);
    }

    #[test]
    fn degenerate_polygons_are_errors() {
        let p = Vec2::new;
        assert_eq!(
            Polygon::new([p(0.0, 0.0), p(1.0, 0.0), p(1.0, 0.0)]),
            Err(PolygonError::TooFewVertices)
        );
        assert_eq!(
            Polygon::new([p(0.0, 0.0), p(1.0, 0.0), p(2.0, 0.0)]),
            Err(PolygonError::NoArea)
        );
        assert_eq!(
            Polygon::new([p(0.0, 0.0), p(f32::NAN, 0.0), p(2.0, 1.0)]),
            Err(PolygonError::NotFinite)
        );
        // A bow tie.
        assert_eq!(
            Polygon::new([p(0.0, 0.0), p(2.0, 2.0), p(2.0, 0.0), p(0.0, 2.0)]),
            Err(PolygonError::SelfIntersecting)
        );
        let many = (0..2000).map(|i| Vec2::from_angle(i as f32 * 0.003));
        assert_eq!(Polygon::new(many), Err(PolygonError::TooManyVertices));
        assert_eq!(Polygon::new([]), Err(PolygonError::TooFewVertices));
        assert!(Polygon::rectangle(Vec2::new(1.0, 0.0)).is_err());
    }

    #[test]
    fn rays_cross_segments_ahead_only() {
        let (a, b) = (Vec2::new(3.0, -1.0), Vec2::new(3.0, 1.0));
        assert_eq!(ray_crosses_segment(Vec2::ZERO, Vec2::X, a, b), Some(3.0));
        assert_eq!(ray_crosses_segment(Vec2::ZERO, -Vec2::X, a, b), None);
        assert_eq!(
            ray_crosses_segment(Vec2::new(0.0, 2.0), Vec2::X, a, b),
            None
        );
    }
}
