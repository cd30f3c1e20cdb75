//! The 3D level of ORCA's program: the maximum-speed ball cut by half-spaces. When a half-space
//! cuts the current optimum off, the new optimum lies on its boundary plane, where the 2D
//! program of `program.rs` runs over the earlier half-spaces (each meets the plane in a line).

use super::program::{Goal, HalfSpace, Line, PARALLEL, TOLERANCE, in_ball, in_plane};
use crate::math::Vector;

/// The incremental program in the whole space, from `velocity` (the optimum in the ball): on
/// failure the index of the half-space whose plane held no feasible point, with `velocity` at
/// the optimum before it.
pub(super) fn in_space(
    constraints: &[HalfSpace],
    radius: f32,
    goal: Goal,
    velocity: &mut Vector,
) -> Result<(), usize> {
    for (index, constraint) in constraints.iter().enumerate() {
        if constraint.violation(*velocity) <= 0.0 {
            continue;
        }
        let plane_centre = constraint.normal * constraint.offset();
        let mut on_plane =
            in_ball(Some((plane_centre, constraint.normal)), radius, goal).ok_or(index)?;
        in_plane(
            Some(*constraint),
            &constraints[..index],
            radius,
            goal,
            &mut on_plane,
        )
        .map_err(|_| index)?;
        *velocity = on_plane;
    }
    Ok(())
}

/// Where the boundary of `constraint` meets the boundary plane of `plane`: a line; `None` if
/// they are parallel and the whole plane satisfies the constraint; an error if they are parallel
/// and the plane lies wholly outside it.
pub(super) fn planes_meet(plane: HalfSpace, constraint: HalfSpace) -> Result<Option<Line>, ()> {
    let direction = plane.normal.cross(constraint.normal);
    let sine = direction.length();
    if sine <= PARALLEL {
        let on_plane = plane.normal * plane.offset();
        return if constraint.violation(on_plane) > TOLERANCE {
            Err(())
        } else {
            Ok(None)
        };
    }
    // The point of both planes nearest the origin: a combination of the two normals.
    let cosine = plane.normal.dot(constraint.normal);
    let (first, second) = (plane.offset(), constraint.offset());
    let origin = (plane.normal * (first - second * cosine)
        + constraint.normal * (second - first * cosine))
        / (sine * sine);
    Ok(Some(Line {
        origin,
        direction: direction / sine,
    }))
}
