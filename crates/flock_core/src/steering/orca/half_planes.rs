//! ORCA's constraints (van den Berg, Guy, Lin and Manocha, "Reciprocal n-Body Collision
//! Avoidance", 2011, sections 4 and 5): for each neighbour, the half-plane (half-space in 3D) of
//! velocities that avoid it for the time horizon, given its share of the avoidance (a disc
//! obstacle is a neighbour at rest that takes no share); in 3D, for each static obstacle near
//! enough, one that keeps the agent on its side; and the nearest outline points of the shapes,
//! which the contact pass pushes agents out of.

use super::lines::HalfSpace;
use crate::math::{DIMENSIONS, Vector};
use crate::steering::Shape;
#[cfg(not(flock_3d))]
use crate::steering::polygon::nearest_on_segment;

/// Below this length (world units, or world units per second) a vector has no direction.
pub(super) const NO_DIRECTION: f32 = 1e-6;

/// The ORCA constraint for an agent against one neighbour.
///
/// `offset` is the neighbour's position minus the agent's, `relative_velocity` the agent's
/// velocity minus the neighbour's, `combined_radius` the sum of both radii, `horizon` the time
/// horizon and `time_step` the step (the horizon of agents already overlapping, which must part
/// within one step). `share` is the agent's part of the avoidance (1/2 in the paper's
/// reciprocal split). `tie_break` (+1 or -1, opposite for the two agents of a pair) picks the
/// direction two agents on one point part in.
///
/// The velocity obstacle truncated by the horizon is the cone from the origin around `offset`
/// cut off by the disc (ball) of radius `combined_radius / horizon` at `offset / horizon`.
/// `u` is the smallest change of the relative velocity that takes it to the obstacle's boundary
/// and `n` the boundary's outward normal there; the constraint is the half-space through
/// `velocity + share * u` with normal `n`.
#[allow(clippy::too_many_arguments)] // The paper's quantities, each named.
pub(super) fn agent_constraint(
    velocity: Vector,
    offset: Vector,
    relative_velocity: Vector,
    combined_radius: f32,
    horizon: f32,
    time_step: f32,
    share: f32,
    tie_break: f32,
) -> HalfSpace {
    let distance_squared = offset.length_squared();
    let radius_squared = combined_radius * combined_radius;
    let (change, normal) = if distance_squared > radius_squared {
        // From the cut-off disc's centre to the relative velocity (through the inverse, as
        // RVO2 computes it, for the same rounding).
        let from_centre = relative_velocity - offset * horizon.recip();
        let along_axis = from_centre.dot(offset);
        if along_axis < 0.0
            && along_axis * along_axis > radius_squared * from_centre.length_squared()
        {
            // Nearest the cut-off disc: push out of it radially.
            let length = from_centre.length();
            let normal = from_centre / length;
            (
                normal * (combined_radius * horizon.recip() - length),
                normal,
            )
        } else {
            nearest_leg(
                offset,
                relative_velocity,
                from_centre,
                combined_radius,
                distance_squared,
            )
        }
    } else {
        // Already overlapping: the obstacle for one step, whose disc holds the relative velocity
        // the agents must leave.
        let from_centre = relative_velocity - offset * time_step.recip();
        let length = from_centre.length();
        let normal = if length > NO_DIRECTION {
            from_centre / length
        } else if distance_squared > NO_DIRECTION * NO_DIRECTION {
            -offset.normalize()
        } else {
            // On one point at the same velocity: the pair parts along the first axis, each its
            // own way.
            first_axis() * tie_break
        };
        (
            normal * (combined_radius * time_step.recip() - length),
            normal,
        )
    };
    HalfSpace {
        point: velocity + change * share,
        normal,
    }
}

/// The change to the nearest point of the velocity obstacle's cone (its legs in 2D, its mantle
/// in 3D) and the outward normal there. The cone's half-angle has sine
/// `combined_radius / distance`; the nearest side is in the plane of the axis and the relative
/// velocity (`from_centre` is the relative velocity less the cut-off disc's centre).
fn nearest_leg(
    offset: Vector,
    relative_velocity: Vector,
    from_centre: Vector,
    combined_radius: f32,
    distance_squared: f32,
) -> (Vector, Vector) {
    let distance = distance_squared.sqrt();
    let axis = offset / distance;
    let side = leg_side(axis, offset, relative_velocity, from_centre);
    let sine = combined_radius / distance;
    let cosine = (distance_squared - combined_radius * combined_radius).sqrt() / distance;
    let leg = axis * cosine + side * sine;
    let normal = side * cosine - axis * sine;
    (leg * relative_velocity.dot(leg) - relative_velocity, normal)
}

/// The unit vector across the cone's `axis` towards the leg nearest the relative velocity.
///
/// In 2D, RVO2's choice: the left leg when the cut-off disc's centre-to-velocity vector lies to
/// the left of the offset, else the right one (also straight at the neighbour, so the two of a
/// pair pass each other on the same hand).
#[cfg(not(flock_3d))]
fn leg_side(
    axis: Vector,
    offset: Vector,
    _relative_velocity: Vector,
    from_centre: Vector,
) -> Vector {
    if offset.perp_dot(from_centre) > 0.0 {
        axis.perp()
    } else {
        -axis.perp()
    }
}

/// The unit vector across the cone's `axis` towards the side nearest the relative velocity:
/// the relative velocity's part across the axis, or, straight at the neighbour, a side fixed by
/// the axis that turns to its opposite for the opposite axis, so the two of a pair pass each
/// other on the same hand.
#[cfg(flock_3d)]
fn leg_side(
    axis: Vector,
    _offset: Vector,
    relative_velocity: Vector,
    _from_centre: Vector,
) -> Vector {
    let across = relative_velocity - axis * relative_velocity.dot(axis);
    let across_length = across.length();
    if across_length > NO_DIRECTION * relative_velocity.length().max(1.0) {
        across / across_length
    } else {
        // Across the coordinate axis least aligned with `axis` (the same for its opposite), so
        // the cross product flips with it.
        let magnitudes = axis.abs();
        let least = (1..DIMENSIONS).fold(0, |best, index| {
            if magnitudes[index] < magnitudes[best] {
                index
            } else {
                best
            }
        });
        let mut coordinate = Vector::ZERO;
        coordinate[least] = 1.0;
        axis.cross(coordinate).normalize()
    }
}

/// The unit vector along the first axis.
fn first_axis() -> Vector {
    let mut axis = Vector::ZERO;
    axis[0] = 1.0;
    debug_assert_eq!(axis.length(), 1.0, "{DIMENSIONS} axes");
    axis
}

/// The constraint that keeps an agent of `radius` at `position` clear of a static obstacle for
/// `horizon` seconds, or `None` if the obstacle is beyond `reach` (where no velocity the agent
/// may take meets it within the horizon).
///
/// The obstacle's point nearest the agent gives the line (plane) that separates them: the
/// obstacle lies wholly beyond it (for a convex obstacle, or a polygon's single edge). Moving
/// towards it at `gap / horizon` would take the whole clearance `gap` within the horizon, so the
/// constraint caps the speed towards it there: the truncated velocity obstacle of that line.
/// An agent already too close (or inside) must be out within one `time_step`. This is a
/// linearisation of the paper's obstacle velocity obstacle that errs on the safe side at
/// corners (it does not let an agent aim past a corner at speed). In 3D only: 2D obstacles are
/// RVO2's (`obstacle_lines.rs`).
#[cfg(flock_3d)]
pub(super) fn obstacle_constraint(
    position: Vector,
    radius: f32,
    nearest: Nearest,
    horizon: f32,
    time_step: f32,
    reach: f32,
) -> Option<HalfSpace> {
    let away = position - nearest.point;
    let distance = away.length();
    let (normal, clearance) = if distance > NO_DIRECTION {
        let out = away / distance;
        if nearest.inside {
            (-out, -distance)
        } else {
            (out, distance)
        }
    } else {
        (nearest.outward, 0.0)
    };
    let gap = clearance - radius;
    if gap.is_nan() || gap > reach {
        return None;
    }
    let slowest_out = if gap > 0.0 {
        -gap / horizon
    } else {
        -gap / time_step
    };
    let constraint = HalfSpace {
        point: normal * slowest_out,
        normal,
    };
    (constraint.point.is_finite() && constraint.normal.is_finite()).then_some(constraint)
}

/// An obstacle's outline point nearest an agent's centre (for the contact pass, and in 3D for
/// ORCA's constraints).
#[derive(Clone, Copy, Debug)]
pub(super) struct Nearest {
    /// The point.
    pub point: Vector,
    /// The outline's outward unit normal there (used when the agent's centre is on it).
    pub outward: Vector,
    /// Whether the centre is inside the obstacle.
    pub inside: bool,
}

/// The outline points of `shape` that each give a constraint for a centre at `point`: the
/// nearest point of a convex shape; for a polygon, the nearest point of each edge (any polygon
/// lies beyond each of its edges' separating lines only edge by edge), or the nearest point of
/// its outline for a centre inside it.
pub(super) fn nearest_points(shape: &Shape, point: Vector, mut each: impl FnMut(Nearest)) {
    #[cfg(not(flock_3d))]
    if let Shape::Polygon(polygon) = shape {
        if polygon.contains(point) {
            let (nearest, outward) = polygon.nearest_edge(point);
            each(Nearest {
                point: nearest,
                outward,
                inside: true,
            });
        } else {
            for (a, b) in polygon.edges() {
                each(Nearest {
                    point: nearest_on_segment(point, a, b),
                    outward: -(b - a).perp().normalize_or(Vector::X),
                    inside: false,
                });
            }
        }
        return;
    }
    if let Some(nearest) = nearest_on_convex(shape, point) {
        each(nearest);
    }
}

/// The nearest outline point of a convex shape (circle, rectangle; sphere, box, capsule).
fn nearest_on_convex(shape: &Shape, point: Vector) -> Option<Nearest> {
    #[cfg(not(flock_3d))]
    use Shape::{Circle as Round, Rect as Aligned, RotatedRect as Oriented};
    #[cfg(flock_3d)]
    use Shape::{Cuboid as Aligned, OrientedCuboid as Oriented, Sphere as Round};
    match *shape {
        Round { centre, radius } => Some(nearest_on_ball(centre, radius, point)),
        Aligned { centre, half_size } => {
            Some(nearest_on_box(point - centre, half_size)).map(|local| Nearest {
                point: local.point + centre,
                ..local
            })
        }
        Oriented {
            centre,
            half_size,
            rotation,
        } => {
            let local = nearest_on_box(rotation.inverse() * (point - centre), half_size);
            Some(Nearest {
                point: centre + rotation * local.point,
                outward: rotation * local.outward,
                inside: local.inside,
            })
        }
        #[cfg(flock_3d)]
        Shape::Capsule { start, end, radius } => {
            let along = end - start;
            let t = if along.length_squared() > 0.0 {
                ((point - start).dot(along) / along.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            Some(nearest_on_ball(start + along * t, radius, point))
        }
        #[cfg(not(flock_3d))]
        Shape::Polygon(_) => None,
    }
}

/// The nearest point of the sphere (circle) of `radius` about `centre`.
fn nearest_on_ball(centre: Vector, radius: f32, point: Vector) -> Nearest {
    let out = (point - centre).normalize_or(first_axis());
    Nearest {
        point: centre + out * radius,
        outward: out,
        inside: point.distance_squared(centre) < radius * radius,
    }
}

/// The nearest outline point of the box of `half_size` about the origin, for `point` in its
/// frame.
fn nearest_on_box(point: Vector, half_size: Vector) -> Nearest {
    let clamped = point.clamp(-half_size, half_size);
    if clamped != point {
        let outward = (point - clamped).normalize_or(first_axis());
        return Nearest {
            point: clamped,
            outward,
            inside: false,
        };
    }
    // Inside (or on it): out through the nearest face.
    let depth = half_size - point.abs();
    let face = (1..DIMENSIONS).fold(0, |best, axis| {
        if depth[axis] < depth[best] {
            axis
        } else {
            best
        }
    });
    let mut outward = Vector::ZERO;
    outward[face] = if point[face] < 0.0 { -1.0 } else { 1.0 };
    let mut on_face = point;
    on_face[face] = half_size[face] * outward[face];
    Nearest {
        point: on_face,
        outward,
        inside: depth.cmpgt(Vector::ZERO).all(),
    }
}
