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
//! Everything here works on full [`Vector`]s, so the line and the plane steps are the same code in
//! both dimensions; only how a boundary meets the current subspace differs (see
//! [`solve`], and `program_3d.rs` in 3D).

use crate::math::Vector;

/// The half-plane (2D) or half-space (3D) of velocities `v` with `(v - point) · normal >= 0`;
/// `normal` is a unit vector.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HalfSpace {
    /// A point on its boundary.
    pub point: Vector,
    /// Its unit normal, pointing into the allowed side.
    pub normal: Vector,
}

impl HalfSpace {
    /// How far `velocity` lies outside (positive) or inside (negative) it.
    #[inline]
    pub fn violation(&self, velocity: Vector) -> f32 {
        (self.point - velocity).dot(self.normal)
    }

    /// Whether `velocity` is inside it, up to rounding.
    #[inline]
    pub fn contains(&self, velocity: Vector) -> bool {
        self.violation(velocity) <= TOLERANCE
    }

    /// `c` in the form `v · normal >= c`.
    #[inline]
    pub(super) fn offset(&self) -> f32 {
        self.point.dot(self.normal)
    }
}

/// Below this, two unit directions count as parallel (their dot product with a normal, or the
/// sine of their angle).
pub(super) const PARALLEL: f32 = 1e-6;

/// How far outside a constraint (world units per second) rounding may leave a velocity.
pub(super) const TOLERANCE: f32 = 1e-4;

/// RVO2's `RVO_EPSILON`: below this sine two constraints count as parallel in its fallback.
const RVO_EPSILON: f32 = 1e-5;

/// The sine of the angle between two unit vectors.
#[inline]
fn sine_between(a: Vector, b: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return a.perp_dot(b).abs();
    #[cfg(flock_3d)]
    return a.cross(b).length();
}

/// What a program optimises.
#[derive(Clone, Copy, Debug)]
pub(super) enum Goal {
    /// The feasible velocity nearest this one.
    Nearest(Vector),
    /// The feasible velocity furthest along this unit direction.
    Furthest(Vector),
}

/// A line of velocities, `origin + t * direction` with `direction` a unit vector.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line {
    pub origin: Vector,
    pub direction: Vector,
}

/// The best velocity on `line` within the ball of `radius` and every one of `constraints`, or
/// `None` where they leave nothing of it.
pub(super) fn on_line(
    line: Line,
    constraints: &[HalfSpace],
    radius: f32,
    goal: Goal,
) -> Option<Vector> {
    let Line { origin, direction } = line;
    // |origin + t direction|^2 <= radius^2, a quadratic in t.
    let along = origin.dot(direction);
    let discriminant = along * along + radius * radius - origin.length_squared();
    if discriminant.is_nan() || discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    let (mut low, mut high) = (-along - root, -along + root);
    for constraint in constraints {
        // (origin + t direction - point) · normal >= 0, i.e. t * slope >= needed.
        let slope = direction.dot(constraint.normal);
        let needed = (constraint.point - origin).dot(constraint.normal);
        if slope.abs() <= PARALLEL {
            // Parallel boundaries: the line is wholly inside or wholly outside.
            if needed > TOLERANCE {
                return None;
            }
            continue;
        }
        let bound = needed / slope;
        if slope > 0.0 {
            low = low.max(bound);
        } else {
            high = high.min(bound);
        }
        if low.is_nan() || high.is_nan() || low > high {
            return None;
        }
    }
    let t = match goal {
        Goal::Nearest(target) => (target - origin).dot(direction).clamp(low, high),
        Goal::Furthest(towards) => {
            if towards.dot(direction) >= 0.0 {
                high
            } else {
                low
            }
        }
    };
    Some(origin + direction * t)
}

/// The best velocity in the ball of `radius` alone, on the plane through `centre` (the point of
/// the plane nearest the origin) with unit normal `normal` when there is one (3D), else in the
/// whole space. `None` if the plane misses the ball.
pub(super) fn in_ball(plane: Option<(Vector, Vector)>, radius: f32, goal: Goal) -> Option<Vector> {
    let (centre, normal) = plane.unwrap_or((Vector::ZERO, Vector::ZERO));
    let height_squared = centre.length_squared();
    if height_squared.is_nan() || height_squared > radius * radius {
        return None;
    }
    // The disc where the plane meets the ball (the ball itself without a plane).
    let disc_radius = (radius * radius - height_squared).sqrt();
    let flatten = |v: Vector| v - normal * v.dot(normal);
    Some(match goal {
        Goal::Nearest(target) => {
            let offset = flatten(target - centre);
            centre + offset.clamp_length_max(disc_radius)
        }
        Goal::Furthest(towards) => centre + flatten(towards).normalize_or_zero() * disc_radius,
    })
}

/// The incremental program over `constraints` in the subspace that `plane` leaves (a plane in
/// 3D; the whole plane in 2D, with `plane` `None`), starting from `velocity` (the optimum
/// without constraints there). Each constraint that cuts the current optimum off moves it onto
/// that constraint's boundary, where the best point is found on a line. On failure, the index of
/// the constraint that emptied the subspace, with `velocity` left at the optimum before it.
pub(super) fn in_plane(
    plane: Option<HalfSpace>,
    constraints: &[HalfSpace],
    radius: f32,
    goal: Goal,
    velocity: &mut Vector,
) -> Result<(), usize> {
    for (index, constraint) in constraints.iter().enumerate() {
        if constraint.violation(*velocity) <= 0.0 {
            continue;
        }
        let line = match plane {
            None => Some(Line {
                origin: constraint.normal * constraint.offset(),
                direction: perpendicular_in_plane(constraint.normal),
            }),
            Some(plane) => planes_meet(plane, *constraint).map_err(|()| index)?,
        };
        // A boundary parallel to the plane that keeps all of it: nothing to do.
        let Some(line) = line else { continue };
        *velocity = on_line(line, &constraints[..index], radius, goal).ok_or(index)?;
    }
    Ok(())
}

/// The unit direction of a boundary line with unit `normal` in 2D (a quarter turn); unused in 3D,
/// where lines come from two planes.
#[inline]
fn perpendicular_in_plane(normal: Vector) -> Vector {
    #[cfg(not(flock_3d))]
    return normal.perp();
    #[cfg(flock_3d)]
    return normal.any_orthonormal_vector();
}

/// Where the boundary of `constraint` meets the boundary plane of `plane` (3D): a line; `None`
/// if they are parallel and the whole plane satisfies the constraint; an error if they are
/// parallel and the plane lies wholly outside it.
#[cfg(flock_3d)]
fn planes_meet(plane: HalfSpace, constraint: HalfSpace) -> Result<Option<Line>, ()> {
    super::program_3d::planes_meet(plane, constraint)
}

#[cfg(not(flock_3d))]
fn planes_meet(_plane: HalfSpace, _constraint: HalfSpace) -> Result<Option<Line>, ()> {
    unreachable!("2D programs have no plane to restrict to")
}

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
