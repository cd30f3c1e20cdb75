//! The lower levels of ORCA's linear program (see `program.rs`): the constraints, the
//! maximum-speed ball, the best point on a line, and the incremental program in a plane (2D, or
//! one boundary plane in 3D). Everything works on full [`Vector`]s, so the line and the plane
//! steps are the same code in both dimensions; only how a boundary meets the current subspace
//! differs ([`planes_meet`] in 3D).

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
pub(super) const RVO_EPSILON: f32 = 1e-5;

/// The sine of the angle between two unit vectors.
#[inline]
pub(super) fn sine_between(a: Vector, b: Vector) -> f32 {
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

/// Where the boundary of `constraint` meets the boundary plane of `plane` (3D): a line; `None` if
/// they are parallel and the whole plane satisfies the constraint; an error if they are parallel
/// and the plane lies wholly outside it.
#[cfg(flock_3d)]
fn planes_meet(plane: HalfSpace, constraint: HalfSpace) -> Result<Option<Line>, ()> {
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

// In 2D the program never restricts itself to a plane: `in_plane` runs with `plane` `None`.
#[cfg(not(flock_3d))]
fn planes_meet(_plane: HalfSpace, _constraint: HalfSpace) -> Result<Option<Line>, ()> {
    unreachable!("2D programs have no plane to restrict to")
}
