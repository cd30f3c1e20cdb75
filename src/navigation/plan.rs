//! The floor plan the navigation mesh lies in: the plane itself in 2D, the ground (x, z) in
//! 3D. Here: points to and from the plan, the plan's outline of an obstacle (its footprint),
//! and the outline's walls as obstacles for ORCA and the contact pass.

use bevy::math::Vec2;
use flock_core::steering::Shape;
use flock_core::{Bounds, Vector};

/// How many sides a round obstacle's footprint has. Its corners lie outside the circle, so the
/// footprint holds all of it.
const ROUND_SIDES: usize = 16;

/// A point of the world on the plan: itself in 2D, its x and z in 3D.
#[inline]
pub(crate) fn to_plan(point: Vector) -> Vec2 {
    #[cfg(not(flock_3d))]
    return point;
    #[cfg(flock_3d)]
    return Vec2::new(point.x, point.z);
}

/// A point of the plan in the world, at the height of `level` in 3D (ignored in 2D).
#[inline]
pub(crate) fn from_plan(point: Vec2, level: Vector) -> Vector {
    #[cfg(not(flock_3d))]
    {
        let _ = level;
        point
    }
    #[cfg(flock_3d)]
    return Vector::new(point.x, level.y, point.y);
}

/// `vector` without its height in 3D (itself in 2D): the part of a motion the plan sees.
#[inline]
pub(crate) fn flatten(vector: Vector) -> Vector {
    from_plan(to_plan(vector), Vector::ZERO)
}

/// The bounds' rectangle on the plan, counter-clockwise.
pub(crate) fn bounds_outline(bounds: &Bounds) -> Vec<Vec2> {
    let (min, max) = (to_plan(bounds.min), to_plan(bounds.max));
    vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)]
}

/// The outline on the plan of what `shape` covers, or `None` for a shape that is not valid:
/// a circle or sphere as a polygon around it, a box by its corners, a capsule (3D) or a turned
/// box by the hull of its corners on the ground.
pub(crate) fn footprint(shape: &Shape) -> Option<Vec<Vec2>> {
    if !shape.is_valid() {
        return None;
    }
    #[cfg(not(flock_3d))]
    let outline = match shape {
        &Shape::Circle { centre, radius } => round(centre, radius),
        &Shape::Rect { centre, half_size } => box_corners(centre, half_size, |v| v),
        &Shape::RotatedRect {
            centre,
            half_size,
            rotation,
        } => box_corners(centre, half_size, |v| rotation * v),
        Shape::Polygon(polygon) => polygon.vertices().to_vec(),
    };
    #[cfg(flock_3d)]
    let outline = match *shape {
        Shape::Sphere { centre, radius } => round(to_plan(centre), radius),
        Shape::Cuboid { centre, half_size } => {
            box_corners(to_plan(centre), to_plan(half_size), |v| v)
        }
        Shape::OrientedCuboid {
            centre,
            half_size,
            rotation,
        } => {
            let corners = (0..8).map(|corner: u32| {
                let sign = |bit: u32| if corner >> bit & 1 == 1 { 1.0 } else { -1.0 };
                let local = half_size * Vector::new(sign(0), sign(1), sign(2));
                to_plan(centre + rotation * local)
            });
            convex_hull(corners.collect())
        }
        Shape::Capsule { start, end, radius } => {
            let mut ends = round(to_plan(start), radius);
            ends.extend(round(to_plan(end), radius));
            convex_hull(ends)
        }
    };
    Some(outline)
}

/// A polygon of [`ROUND_SIDES`] around the circle of `radius` about `centre`.
fn round(centre: Vec2, radius: f32) -> Vec<Vec2> {
    // The corners' distance that puts each side's middle on the circle.
    let corner = radius / (std::f32::consts::PI / ROUND_SIDES as f32).cos();
    (0..ROUND_SIDES)
        .map(|side| {
            let angle = std::f32::consts::TAU * side as f32 / ROUND_SIDES as f32;
            centre + corner * Vec2::from_angle(angle)
        })
        .collect()
}

/// A box's four corners on the plan, counter-clockwise, each offset turned by `turn`.
fn box_corners(centre: Vec2, half_size: Vec2, turn: impl Fn(Vec2) -> Vec2) -> Vec<Vec2> {
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .into_iter()
        .map(|(x, y)| centre + turn(half_size * Vec2::new(x, y)))
        .collect()
}

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain).
#[cfg(flock_3d)]
fn convex_hull(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let turns_left = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o) > 0.0;
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() * 2);
    for pass in [
        &points[..],
        &points.iter().rev().copied().collect::<Vec<_>>()[..],
    ] {
        let start = hull.len();
        for &point in pass {
            while hull.len() >= start + 2
                && !turns_left(hull[hull.len() - 2], hull[hull.len() - 1], point)
            {
                hull.pop();
            }
            hull.push(point);
        }
        hull.pop();
    }
    hull
}

/// The walls outside `outline` (counter-clockwise on the plan): one slab `thickness` thick
/// along each edge, on its outer side, as obstacles that ORCA and the contact pass keep agents
/// off. In 3D they stand from below `bounds` to above it.
pub(crate) fn outline_walls(outline: &[Vec2], thickness: f32, bounds: &Bounds) -> Vec<Shape> {
    let _ = bounds;
    let mut walls = Vec::with_capacity(outline.len());
    for (index, &start) in outline.iter().enumerate() {
        let end = outline[(index + 1) % outline.len()];
        let along = end - start;
        let length = along.length();
        if length <= 0.0 {
            continue;
        }
        let direction = along / length;
        // Counter-clockwise: the outside is on the right of each edge.
        let outward = -direction.perp();
        let centre = (start + end) / 2.0 + outward * (thickness / 2.0);
        // Long enough to close the corners with the neighbouring walls.
        let half_length = length / 2.0 + thickness;
        let half_thickness = thickness / 2.0;
        let aligned = direction.x == 0.0 || direction.y == 0.0;
        #[cfg(not(flock_3d))]
        walls.push(if aligned {
            let half_size = if direction.x == 0.0 {
                Vec2::new(half_thickness, half_length)
            } else {
                Vec2::new(half_length, half_thickness)
            };
            Shape::Rect { centre, half_size }
        } else {
            Shape::RotatedRect {
                centre,
                half_size: Vec2::new(half_length, half_thickness),
                rotation: bevy::math::Mat2::from_cols(direction, direction.perp()),
            }
        });
        #[cfg(flock_3d)]
        {
            let height = (bounds.max.y - bounds.min.y).abs() + 2.0 * thickness;
            let centre = Vector::new(centre.x, (bounds.min.y + bounds.max.y) / 2.0, centre.y);
            walls.push(if aligned {
                let half_size = if direction.x == 0.0 {
                    Vector::new(half_thickness, height / 2.0, half_length)
                } else {
                    Vector::new(half_length, height / 2.0, half_thickness)
                };
                Shape::Cuboid { centre, half_size }
            } else {
                // The turn about y that takes x to the edge's direction on the ground (x, z).
                let angle = (-direction.y).atan2(direction.x);
                Shape::OrientedCuboid {
                    centre,
                    half_size: Vector::new(half_length, height / 2.0, half_thickness),
                    rotation: bevy::math::Quat::from_rotation_y(angle),
                }
            });
        }
    }
    walls
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprints_hold_their_shapes() {
        #[cfg(not(flock_3d))]
        let circle = Shape::Circle {
            centre: Vec2::new(3.0, -2.0),
            radius: 5.0,
        };
        #[cfg(flock_3d)]
        let circle = Shape::Sphere {
            centre: Vector::new(3.0, 40.0, -2.0),
            radius: 5.0,
        };
        let outline = footprint(&circle).unwrap();
        assert_eq!(outline.len(), ROUND_SIDES);
        for side in 0..ROUND_SIDES {
            let (a, b) = (outline[side], outline[(side + 1) % ROUND_SIDES]);
            // Every side's line passes at least the radius from the centre.
            let distance = (Vec2::new(3.0, -2.0) - a)
                .perp_dot((b - a).normalize())
                .abs();
            assert!(distance >= 5.0 - 1e-4, "{distance}");
        }
        #[cfg(not(flock_3d))]
        let bad = Shape::Circle {
            centre: Vec2::NAN,
            radius: 1.0,
        };
        #[cfg(flock_3d)]
        let bad = Shape::Sphere {
            centre: Vector::NAN,
            radius: 1.0,
        };
        assert_eq!(footprint(&bad), None);
    }

    #[cfg(flock_3d)]
    #[test]
    fn a_turned_box_and_a_capsule_lie_on_the_ground_as_hulls() {
        let turned = Shape::OrientedCuboid {
            centre: Vector::new(10.0, 5.0, 0.0),
            half_size: Vector::new(2.0, 1.0, 1.0),
            rotation: bevy::math::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        };
        let mut hull = footprint(&turned).unwrap();
        assert_eq!(hull.len(), 4);
        hull.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        // Turned a quarter about y: 2 across z, 1 across x.
        assert!((hull[0] - Vec2::new(9.0, -2.0)).length() < 1e-5, "{hull:?}");
        assert!((hull[3] - Vec2::new(11.0, 2.0)).length() < 1e-5, "{hull:?}");
        let capsule = Shape::Capsule {
            start: Vector::new(0.0, 0.0, 0.0),
            end: Vector::new(10.0, 3.0, 0.0),
            radius: 1.0,
        };
        let hull = footprint(&capsule).unwrap();
        let xs = hull.iter().map(|p| p.x);
        assert!(xs.clone().fold(f32::MAX, f32::min) < -0.99);
        assert!(xs.fold(f32::MIN, f32::max) > 10.99);
    }

    #[test]
    fn walls_close_the_outline_from_outside() {
        let bounds = Bounds {
            min: Vector::splat(-10.0),
            max: Vector::splat(10.0),
        };
        let outline = bounds_outline(&bounds);
        let walls = outline_walls(&outline, 2.0, &bounds);
        assert_eq!(walls.len(), 4);
        // Inside stays clear; just outside each side is walled.
        let inside = from_plan(Vec2::new(9.5, 0.0), Vector::ZERO);
        assert!(walls.iter().all(|wall| !wall.nearest(inside).inside));
        for outside in [
            (10.5, 0.0),
            (-10.5, 3.0),
            (0.0, 10.5),
            (4.0, -10.5),
            (10.5, 10.5),
        ] {
            let point = from_plan(Vec2::new(outside.0, outside.1), Vector::ZERO);
            assert!(
                walls.iter().any(|wall| wall.nearest(point).inside),
                "{outside:?}"
            );
        }
        // A slanted edge: a turned slab.
        let triangle = [Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)];
        let walls = outline_walls(&triangle, 2.0, &bounds);
        let beyond_slant = from_plan(Vec2::new(5.5, 5.5), Vector::ZERO);
        let before_slant = from_plan(Vec2::new(4.5, 4.5), Vector::ZERO);
        assert!(walls.iter().any(|wall| wall.nearest(beyond_slant).inside));
        assert!(walls.iter().all(|wall| !wall.nearest(before_slant).inside));
    }
}
