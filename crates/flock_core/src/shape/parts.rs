//! The pieces both dimensions' shapes are made of, written once for whichever [`Vector`] this
//! build has: balls, boxes (aligned, or turned by a [`Rotation`]), segments and capsules.
//! Each asks the same questions as [`Shape`](super::Shape): the nearest surface point, the way
//! out from inside, where a ray enters.

use crate::math::{DIMENSIONS, Rotation, Vector, cross_length};

/// Where a shape's outline is nearest a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Nearest {
    /// The outline's point nearest.
    pub point: Vector,
    /// The outward unit normal of the outline there (for a point outside a box, of the face it
    /// is farthest beyond).
    pub outward: Vector,
    /// Whether the point asked about is inside the shape.
    pub inside: bool,
}

/// Whether `value` is a size: finite and not negative.
pub(super) fn is_size(value: f32) -> bool {
    value.is_finite() && value >= 0.0
}

/// Whether a ball is one: a finite centre, a radius that is a size.
pub(super) fn ball_is_valid(centre: Vector, radius: f32) -> bool {
    centre.is_finite() && is_size(radius)
}

/// Whether a box is one: a finite centre, half sizes that are sizes.
pub(super) fn box_is_valid(centre: Vector, half_size: Vector) -> bool {
    centre.is_finite() && half_size.to_array().into_iter().all(is_size)
}

/// The axis along which `v` is largest (the first of a tie).
pub(super) fn largest_axis(v: Vector) -> usize {
    (1..DIMENSIONS).fold(0, |best, axis| if v[axis] > v[best] { axis } else { best })
}

/// The point of segment `a`-`b` nearest `point` (`a` for a segment of no length).
pub fn nearest_on_segment(point: Vector, a: Vector, b: Vector) -> Vector {
    let along = b - a;
    let length_squared = along.length_squared();
    if length_squared == 0.0 {
        return a;
    }
    a + along * ((point - a).dot(along) / length_squared).clamp(0.0, 1.0)
}

/// A ball's surface point nearest `point`, the outward normal there, and whether `point` is
/// inside. From the centre itself, the point along +x.
pub(super) fn ball_nearest(centre: Vector, radius: f32, point: Vector) -> Nearest {
    let offset = point - centre;
    let outward = offset.try_normalize().unwrap_or(Vector::X);
    let inside = offset.length_squared() < radius * radius;
    Nearest {
        point: centre + outward * radius,
        outward,
        inside,
    }
}

/// A box's surface point nearest `point`, the outward normal of the face it is on (for a point
/// outside, the face it is farthest beyond; the first axis of a tie), and whether `point` is
/// inside.
pub(super) fn box_nearest(centre: Vector, half_size: Vector, point: Vector) -> Nearest {
    let local = point - centre;
    let beyond = local.abs() - half_size;
    let axis = largest_axis(beyond);
    let mut outward = Vector::ZERO;
    outward[axis] = local[axis].signum();
    let inside = beyond.cmplt(Vector::ZERO).all();
    let nearest = if inside {
        // Out through the nearest face.
        let mut on_face = local;
        on_face[axis] = half_size[axis] * outward[axis];
        on_face
    } else {
        local.clamp(-half_size, half_size)
    };
    Nearest {
        point: centre + nearest,
        outward,
        inside,
    }
}

/// [`box_nearest`] for a box turned by `rotation` about its centre.
pub(super) fn turned_box_nearest(
    centre: Vector,
    half_size: Vector,
    rotation: Rotation,
    point: Vector,
) -> Nearest {
    let local = rotation.inverse() * (point - centre);
    let nearest = box_nearest(Vector::ZERO, half_size, local);
    Nearest {
        point: centre + rotation * nearest.point,
        outward: rotation * nearest.outward,
        inside: nearest.inside,
    }
}

/// The direction out of a ball for a point inside it (along +x from the centre itself), or
/// `None` for a point outside.
pub(super) fn ball_way_out(centre: Vector, radius: f32, point: Vector) -> Option<Vector> {
    let out = point - centre;
    (out.length_squared() < radius * radius).then(|| out.normalize_or(Vector::X))
}

/// The direction out of a box for a point inside it, through the nearest face (the last axis
/// of a tie), or `None` for a point outside.
pub(super) fn box_way_out(centre: Vector, half_size: Vector, point: Vector) -> Option<Vector> {
    let out = point - centre;
    let depth = half_size - out.abs();
    depth.cmpgt(Vector::ZERO).all().then(|| {
        let nearest = (1..DIMENSIONS).fold(0, |best, axis| {
            if depth[axis] <= depth[best] {
                axis
            } else {
                best
            }
        });
        let mut way = Vector::ZERO;
        way[nearest] = out[nearest].signum();
        way
    })
}

/// [`box_way_out`] for a box turned by `rotation` about its centre.
pub(super) fn turned_box_way_out(
    centre: Vector,
    half_size: Vector,
    rotation: Rotation,
    point: Vector,
) -> Option<Vector> {
    let local = rotation.inverse() * (point - centre);
    box_way_out(Vector::ZERO, half_size, local).map(|way| rotation * way)
}

/// How far along unit `heading` from `position` the path first meets the ball grown by
/// `clearance` (zero if it starts inside), or `None` if it never does.
pub(super) fn ball_entry(
    centre: Vector,
    radius: f32,
    position: Vector,
    heading: Vector,
    clearance: f32,
) -> Option<f32> {
    let offset = centre - position;
    let reach = radius + clearance;
    let lateral = cross_length(offset, heading);
    let half_chord_squared = reach * reach - lateral * lateral;
    (half_chord_squared > 0.0).then(|| (offset.dot(heading) - half_chord_squared.sqrt()).max(0.0))
}

/// How far along unit `heading` from `position` the path first meets the box grown by
/// `clearance` (zero if it starts inside), or `None` if it never does: the slab method, the
/// ray inside the box between the last entry and the first exit over every axis.
pub(super) fn box_entry(
    centre: Vector,
    half_size: Vector,
    position: Vector,
    heading: Vector,
    clearance: f32,
) -> Option<f32> {
    let grown = half_size + Vector::splat(clearance);
    let (low, high) = (centre - grown - position, centre + grown - position);
    let mut entry = f32::NEG_INFINITY;
    let mut exit = f32::INFINITY;
    for axis in 0..DIMENSIONS {
        if heading[axis] == 0.0 {
            if low[axis] > 0.0 || high[axis] < 0.0 {
                return None;
            }
            continue;
        }
        let (a, b) = (low[axis] / heading[axis], high[axis] / heading[axis]);
        entry = entry.max(a.min(b));
        exit = exit.min(a.max(b));
    }
    (exit >= entry.max(0.0)).then(|| entry.max(0.0))
}

/// [`box_entry`] for a box turned by `rotation` about its centre.
pub(super) fn turned_box_entry(
    centre: Vector,
    half_size: Vector,
    rotation: Rotation,
    position: Vector,
    heading: Vector,
    clearance: f32,
) -> Option<f32> {
    let inverse = rotation.inverse();
    let local = |point: Vector| inverse * point;
    box_entry(
        Vector::ZERO,
        half_size,
        local(position - centre),
        local(heading),
        clearance,
    )
}

/// The point a turned box is dodged away from, for a vehicle at `position` whose path meets it
/// at `hit`: its centre while that is ahead of the vehicle, then its point nearest the hit (a
/// long box can still be in the way when its middle is behind).
pub(super) fn turned_box_dodge_point(
    centre: Vector,
    half_size: Vector,
    rotation: Rotation,
    position: Vector,
    hit: Vector,
) -> Vector {
    if (centre - position).dot(hit - position) > 0.0 {
        centre
    } else {
        let local = rotation.inverse() * (hit - centre);
        centre + rotation * local.clamp(-half_size, half_size)
    }
}

/// How far along unit `heading` from `origin` the ray first comes within `radius` of the
/// segment `a`-`b` (zero if it starts that close), or `None` if it never does: the ray against
/// a capsule, in either dimension (Inigo Quilez's formulation, with dot products only).
pub(super) fn capsule_entry(
    origin: Vector,
    heading: Vector,
    a: Vector,
    b: Vector,
    radius: f32,
) -> Option<f32> {
    if origin.distance_squared(nearest_on_segment(origin, a, b)) <= radius * radius {
        return Some(0.0);
    }
    let (axis, from_a) = (b - a, origin - a);
    let axis_squared = axis.dot(axis);
    let axis_heading = axis.dot(heading);
    let axis_from_a = axis.dot(from_a);
    // Against the infinite cylinder (slab, in 2D) around the axis...
    let k2 = axis_squared - axis_heading * axis_heading;
    let k1 = axis_squared * heading.dot(from_a) - axis_from_a * axis_heading;
    let k0 = axis_squared * from_a.dot(from_a)
        - axis_from_a * axis_from_a
        - radius * radius * axis_squared;
    let discriminant = k1 * k1 - k2 * k0;
    if discriminant < 0.0 {
        return None;
    }
    if k2 > 0.0 {
        let t = (-k1 - discriminant.sqrt()) / k2;
        let along = axis_from_a + t * axis_heading;
        if t >= 0.0 && along > 0.0 && along < axis_squared {
            return Some(t);
        }
    }
    // ...else against the balls at its ends.
    [a, b]
        .into_iter()
        .filter_map(|end| {
            let to_origin = origin - end;
            let half_b = heading.dot(to_origin);
            let h = half_b * half_b - (to_origin.dot(to_origin) - radius * radius);
            let t = -half_b - h.max(0.0).sqrt();
            (h >= 0.0 && t >= 0.0).then_some(t)
        })
        .reduce(f32::min)
}
