//! The 3D level of ORCA's program: the maximum-speed ball cut by half-spaces. When a half-space
//! cuts the current optimum off, the new optimum lies on its boundary plane, where the 2D
//! program of `lines.rs` runs over the earlier half-spaces (each meets the plane in a line).

use super::lines::{Goal, HalfSpace, in_ball, in_plane};
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
