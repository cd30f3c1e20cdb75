//! What happens at the bounds: wrap around, jump to the opposite edge, or bounce back, on
//! every axis.

use crate::config::{Bounds, EdgeMode};
use crate::math::{DIMENSIONS, Vector};

/// Applies the edge rule to one boid. A coordinate that is not finite (written by other code;
/// valid settings never make one) goes to the centre of the bounds whatever the mode, so the
/// boid comes back rather than staying lost, even without edges.
#[inline]
pub fn apply_edge(mode: EdgeMode, bounds: &Bounds, position: &mut Vector, velocity: &mut Vector) {
    if !position.is_finite() {
        *position = bring_back(*position, bounds);
    }
    match mode {
        EdgeMode::Wrap => *position = wrap_point(*position, bounds),
        EdgeMode::Jump => *position = jump_point(*position, bounds),
        EdgeMode::Bounce => bounce(position, velocity, bounds),
        EdgeMode::Free => {}
    }
}

/// The point inside `bounds` that `point` stands for in a wrapping world.
///
/// Uses the remainder, so a boid that moved past an edge keeps its overshoot and a far-out point
/// still lands inside; [`jump_point`] is the way of Processing's *Flocking* as ported to Unity,
/// which drops the overshoot.
#[inline]
pub fn wrap_point(point: Vector, bounds: &Bounds) -> Vector {
    // Almost every boid is inside: one comparison per axis, inlined into the callers' loops
    // (the grid's build, the edges pass), and the remainder only for the few outside.
    if bounds.contains(point) {
        point
    } else {
        wrap_outside(point, bounds)
    }
}

/// [`wrap_point`] for a point outside (or not finite).
///
/// Inlined, with the rare path marked by `cold_path` rather than `#[cold]` on a function of
/// its own: a `Vec3` goes to a call through memory, so an out-of-line call here (or in
/// [`bring_back`], or the speed limit's) made the callers keep every boid's position and
/// velocity on the stack, where writing a vector in parts and reading it whole stalls the
/// store forwarding. The 3D move pass took 3.3 times as long (BENCHMARKS.md, "What made it fast").
#[inline(always)]
fn wrap_outside(point: Vector, bounds: &Bounds) -> Vector {
    std::hint::cold_path();
    let mut wrapped = point;
    for axis in 0..DIMENSIONS {
        wrapped[axis] = wrap_coordinate(point[axis], bounds.min[axis], bounds.max[axis]);
    }
    wrapped
}

fn wrap_coordinate(value: f32, min: f32, max: f32) -> f32 {
    if (min..=max).contains(&value) {
        return value;
    }
    let size = max - min;
    let offset = (value - min).rem_euclid(size);
    // `rem_euclid` of a tiny negative number rounds up to `size` itself.
    if offset >= size {
        min
    } else {
        (min + offset).min(max)
    }
}

/// `position` with each coordinate that is not finite replaced by the bounds' centre's.
/// Inlined, the path marked cold, for the reason [`wrap_outside`] gives.
#[inline(always)]
fn bring_back(position: Vector, bounds: &Bounds) -> Vector {
    std::hint::cold_path();
    let centre = bounds.center();
    Vector::select(position.is_finite_mask(), position, centre)
}

/// The `borders()` of Processing's *Flocking* as ported to Unity: a coordinate past an edge is set
/// to the opposite edge (the overshoot is lost), each axis on its own. Always inside `bounds`.
pub fn jump_point(point: Vector, bounds: &Bounds) -> Vector {
    let mut jumped = point;
    for axis in 0..DIMENSIONS {
        jumped[axis] = jump_coordinate(point[axis], bounds.min[axis], bounds.max[axis]);
    }
    jumped
}

fn jump_coordinate(value: f32, min: f32, max: f32) -> f32 {
    if value < min {
        max
    } else if value > max {
        min
    } else {
        value
    }
}

/// Reflects a boid that left the bounds back in, pointing its velocity inwards (the ActionScript
/// flocking tutorial's BOUNCE).
fn bounce(position: &mut Vector, velocity: &mut Vector, bounds: &Bounds) {
    for axis in 0..DIMENSIONS {
        let (min, max) = (bounds.min[axis], bounds.max[axis]);
        if position[axis] < min {
            position[axis] = 2.0 * min - position[axis];
            velocity[axis] = velocity[axis].abs();
        } else if position[axis] > max {
            position[axis] = 2.0 * max - position[axis];
            velocity[axis] = -velocity[axis].abs();
        }
    }
    // An overshoot larger than the whole world would reflect out the other side.
    *position = position.clamp(bounds.min, bounds.max);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{planar, world_size};

    fn bounds() -> Bounds {
        Bounds::centered(world_size(20.0, 10.0))
    }

    #[test]
    fn wrap_keeps_the_overshoot() {
        let wrapped = wrap_point(planar(10.5, -5.25), &bounds());
        assert!((wrapped - planar(-9.5, 4.75)).length() < 1e-5);
    }

    #[test]
    fn wrap_lands_inside_for_tiny_and_huge_overshoots() {
        for point in [
            planar(-10.0 - 1e-7, 0.0),
            planar(1e6, -1e6),
            planar(10.0 + 1e-6, 5.0 + 1e-6),
        ] {
            assert!(bounds().contains(wrap_point(point, &bounds())), "{point}");
        }
    }

    #[test]
    fn jump_goes_to_the_opposite_edge_and_loses_the_overshoot() {
        // The Unity port: `if (position.x < -10f) position.x = 10f;` and so on, axis by axis.
        let mut position = planar(10.5, -5.25);
        let mut velocity = planar(1.0, -1.0);
        apply_edge(EdgeMode::Jump, &bounds(), &mut position, &mut velocity);
        assert_eq!(position, planar(-10.0, 5.0));
        assert_eq!(velocity, planar(1.0, -1.0));
        let inside = planar(9.99, -4.0);
        assert_eq!(jump_point(inside, &bounds()), inside);
        assert!(bounds().contains(jump_point(planar(-1e9, 1e9), &bounds())));
    }

    #[test]
    fn bounce_reflects_position_and_velocity() {
        let mut position = planar(10.5, -5.5);
        let mut velocity = planar(2.0, -1.0);
        apply_edge(EdgeMode::Bounce, &bounds(), &mut position, &mut velocity);
        assert!((position - planar(9.5, -4.5)).length() < 1e-5);
        assert_eq!(velocity, planar(-2.0, 1.0));
    }

    #[test]
    fn a_coordinate_that_is_not_finite_comes_back_to_the_centre_in_every_mode() {
        for mode in [
            EdgeMode::Wrap,
            EdgeMode::Jump,
            EdgeMode::Bounce,
            EdgeMode::Free,
        ] {
            for (bad, expected) in [
                (planar(f32::NAN, 3.0), planar(0.0, 3.0)),
                (planar(2.0, f32::INFINITY), planar(2.0, 0.0)),
                (Vector::splat(f32::NEG_INFINITY), Vector::ZERO),
            ] {
                let mut position = bad;
                let mut velocity = Vector::X;
                apply_edge(mode, &bounds(), &mut position, &mut velocity);
                assert_eq!(position, expected, "{mode:?}: {bad}");
            }
        }
    }

    #[test]
    fn free_edges_change_nothing() {
        let mut position = planar(50.0, 50.0);
        let mut velocity = planar(1.0, 1.0);
        apply_edge(EdgeMode::Free, &bounds(), &mut position, &mut velocity);
        assert_eq!((position, velocity), (planar(50.0, 50.0), planar(1.0, 1.0)));
    }
}
