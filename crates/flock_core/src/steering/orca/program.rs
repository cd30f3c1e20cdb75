//! The linear programs of ORCA (van den Berg, Guy, Lin and Manocha, "Reciprocal n-Body
//! Collision Avoidance", 2011, section 5.2): the velocity closest to the preferred one within
//! the maximum-speed disc (ball) and every half-plane (half-space), solved incrementally as in
//! de Berg et al.'s *Computational Geometry* (chapter 4), and the fallback that, when no such
//! velocity exists, minimises the largest violation of the neighbours' constraints.
//!
//! The incremental algorithm keeps the optimum of the constraints seen so far; when the next one
//! cuts it off, the new optimum lies on that constraint's boundary, so the program drops one
//! dimension there (a line in 2D; a plane, then a line, in 3D). The constraints are visited in
//! the order given (the paper shuffles them for its expected running time; ORCA's few
//! constraints do not need it, and a fixed order keeps the result deterministic).
//!
//! This file is the top level ([`solve`] and the fallback); the levels below it are in
//! `lines.rs` (a line, a plane: the same code in both dimensions) and, in 3D, `program_3d.rs`
//! (the whole space).

#[cfg(not(flock_3d))]
use super::lines::in_plane;
use super::lines::{Goal, HalfSpace, RVO_EPSILON, in_ball, sine_between};
use crate::math::Vector;

/// The velocity within the ball of `radius` and every constraint that is best for `goal`,
/// written into `velocity`; on failure the index of the constraint that left nothing, with
/// `velocity` at the best point found before it.
pub(super) fn solve(
    constraints: &[HalfSpace],
    radius: f32,
    goal: Goal,
    velocity: &mut Vector,
) -> Result<(), usize> {
    // The ball always holds its own optimum (the radius is checked finite and non-negative).
    *velocity = in_ball(None, radius, goal).unwrap_or(Vector::ZERO);
    #[cfg(not(flock_3d))]
    return in_plane(None, constraints, radius, goal, velocity);
    #[cfg(flock_3d)]
    return super::program_3d::in_space(constraints, radius, goal, velocity);
}

/// The paper's fallback when [`solve`] fails at `first_failure`: the velocity within the ball
/// that minimises the largest violation of the constraints from `hard` on, keeping the first
/// `hard` (the static obstacles') as they are. A linear program one dimension up (velocity and
/// violation), solved incrementally too: when constraint `i` is violated more than the largest
/// violation so far, the new optimum has `i` as the worst, so every earlier constraint `j` may
/// be violated at most as much as `i` (`v · (n_j - n_i) >= c_j - c_i`, a half-space through
/// their bisector), and the program in the velocity's own dimension maximises progress along
/// `n_i` over those. `projected` is scratch space.
pub(super) fn least_violation(
    constraints: &[HalfSpace],
    hard: usize,
    first_failure: usize,
    radius: f32,
    velocity: &mut Vector,
    projected: &mut Vec<HalfSpace>,
) {
    let mut worst = 0.0_f32;
    for (index, constraint) in constraints.iter().enumerate().skip(first_failure) {
        let violation = constraint.violation(*velocity);
        if violation.is_nan() || violation <= worst {
            continue;
        }
        projected.clear();
        projected.extend_from_slice(&constraints[..hard]);
        // (None for a hard constraint that failed itself: RVO2 then keeps the hard ones only.)
        for earlier in constraints.get(hard..index).unwrap_or(&[]) {
            if sine_between(earlier.normal, constraint.normal) <= RVO_EPSILON
                && earlier.normal.dot(constraint.normal) > 0.0
            {
                // Same direction (RVO2's test): the earlier one is the weaker here (it is
                // violated less).
                continue;
            }
            let normal = earlier.normal - constraint.normal;
            let length = normal.length();
            let offset = (earlier.offset() - constraint.offset()) / length;
            let normal = normal / length;
            projected.push(HalfSpace {
                point: normal * offset,
                normal,
            });
        }
        let before = *velocity;
        if solve(
            projected,
            radius,
            Goal::Furthest(constraint.normal),
            velocity,
        )
        .is_err()
        {
            // Only rounding can empty this program (its optimum exists by construction); keep
            // the last good velocity.
            *velocity = before;
        }
        worst = constraint.violation(*velocity);
    }
}
