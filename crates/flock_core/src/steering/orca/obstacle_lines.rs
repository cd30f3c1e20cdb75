//! ORCA's constraints for static polygon edges, as RVO2 (the authors' C++ library,
//! `Agent::computeNewVelocity`) builds them: for each edge the agent sees, nearest first, the
//! half-plane that keeps the agent's velocity out of the edge's velocity obstacle truncated by
//! the obstacle horizon, unless the lines so far already keep it out (the edge's cut-off points,
//! grown by the radius, lie beyond one of them).
//!
//! The velocity obstacle of an edge is bounded by the cut-off segment (the edge scaled by the
//! inverse horizon), the cut-off circles at its ends and two legs: tangents from the agent to
//! the discs of its radius at the ends, or, at a vertex where the polygon is not convex, the
//! edge's own line (the neighbouring edge takes over there). A leg that would point into the
//! neighbouring edge is replaced by that edge's direction and is "foreign": the neighbouring
//! edge's own line covers it, so a velocity nearest it adds nothing. The agent's current
//! velocity is projected on the nearest part of that boundary, and the line is the boundary's
//! tangent there. An agent already touching the edge (or one of its convex ends) gets a line
//! through the zero velocity that forbids moving further in.
//!
//! Every expression is RVO2's own, in its order, so that the lines are the same bits.

use super::lines::{HalfSpace, RVO_EPSILON};
use super::obstacles::{ObstacleVertex, rvo_normalize};
use crate::math::Vector;

/// RVO2's `Line`: the allowed velocities are to the left of `direction` through `point`.
#[derive(Clone, Copy)]
struct Line {
    point: Vector,
    direction: Vector,
}

impl Line {
    /// As a half-plane: its normal is the direction turned a quarter to the left (exact).
    fn half_plane(self) -> HalfSpace {
        HalfSpace {
            point: self.point,
            normal: self.direction.perp(),
        }
    }

    /// From a half-plane made by [`half_plane`](Self::half_plane) (exact).
    fn of(half_plane: &HalfSpace) -> Self {
        Self {
            point: half_plane.point,
            direction: Vector::new(half_plane.normal.y, -half_plane.normal.x),
        }
    }
}

/// RVO2's leg from the agent past the disc of `radius` at `relative` (a vertex less the agent's
/// position, `distance_squared` its squared length): the left tangent with `side` 1, the right
/// with -1.
#[inline]
fn leg(relative: Vector, distance_squared: f32, radius: f32, side: f32) -> Vector {
    let length = (distance_squared - radius * radius).sqrt();
    let leg = if side > 0.0 {
        Vector::new(
            relative.x * length - relative.y * radius,
            relative.x * radius + relative.y * length,
        )
    } else {
        Vector::new(
            relative.x * length + relative.y * radius,
            -relative.x * radius + relative.y * length,
        )
    };
    leg * (1.0 / distance_squared)
}

/// Appends to `lines` the constraints of the edges `neighbours` (squared distance and first
/// vertex, nearest first, from the obstacle tree) for an agent at `position` moving at
/// `velocity` with `radius`, over `horizon` seconds. The lines already in `lines` count as
/// obstacle lines for the pruning (pass only obstacle lines). Lines that are not finite (an
/// agent exactly on a vertex can make one) are left out.
pub(super) fn obstacle_lines(
    vertices: &[ObstacleVertex],
    neighbours: &[(f32, u32)],
    position: Vector,
    velocity: Vector,
    radius: f32,
    horizon: f32,
    lines: &mut Vec<HalfSpace>,
) {
    let inverse_horizon = 1.0 / horizon;
    let push = |lines: &mut Vec<HalfSpace>, line: Line| {
        let half_plane = line.half_plane();
        if half_plane.point.is_finite() && half_plane.normal.is_finite() {
            lines.push(half_plane);
        }
    };
    for &(_, first) in neighbours {
        let mut obstacle1 = vertices[first as usize];
        let mut obstacle2 = vertices[obstacle1.next as usize];
        let mut single_vertex = false;
        let relative1 = obstacle1.point - position;
        let relative2 = obstacle2.point - position;

        // Already kept out by an earlier line: both ends, grown by the radius, beyond it.
        let covered = lines.iter().any(|line| {
            let line = Line::of(line);
            (relative1 * inverse_horizon - line.point).perp_dot(line.direction)
                - inverse_horizon * radius
                >= -RVO_EPSILON
                && (relative2 * inverse_horizon - line.point).perp_dot(line.direction)
                    - inverse_horizon * radius
                    >= -RVO_EPSILON
        });
        if covered {
            continue;
        }

        let distance_squared1 = relative1.length_squared();
        let distance_squared2 = relative2.length_squared();
        let radius_squared = radius * radius;
        let obstacle_vector = obstacle2.point - obstacle1.point;
        let s = (-relative1).dot(obstacle_vector) / obstacle_vector.length_squared();
        let distance_squared_line = (-relative1 - obstacle_vector * s).length_squared();

        // Touching already: no velocity further in.
        if s < 0.0 && distance_squared1 <= radius_squared {
            // The left vertex; a concave one is left to its other edge.
            if obstacle1.convex {
                push(
                    lines,
                    Line {
                        point: Vector::ZERO,
                        direction: rvo_normalize(Vector::new(-relative1.y, relative1.x)),
                    },
                );
            }
            continue;
        }
        if s > 1.0 && distance_squared2 <= radius_squared {
            // The right vertex, unless concave or the next edge takes care of it.
            if obstacle2.convex && relative2.perp_dot(obstacle2.direction) >= 0.0 {
                push(
                    lines,
                    Line {
                        point: Vector::ZERO,
                        direction: rvo_normalize(Vector::new(-relative2.y, relative2.x)),
                    },
                );
            }
            continue;
        }
        if (0.0..=1.0).contains(&s) && distance_squared_line <= radius_squared {
            // The edge itself.
            push(
                lines,
                Line {
                    point: Vector::ZERO,
                    direction: -obstacle1.direction,
                },
            );
            continue;
        }

        // The legs. Seen obliquely, both come from one vertex; at a concave vertex a leg goes
        // on along the cut-off line.
        let (mut left_leg, mut right_leg);
        if s < 0.0 && distance_squared_line <= radius_squared {
            // The left vertex bounds the velocity obstacle.
            if !obstacle1.convex {
                continue;
            }
            obstacle2 = obstacle1;
            single_vertex = true;
            left_leg = leg(relative1, distance_squared1, radius, 1.0);
            right_leg = leg(relative1, distance_squared1, radius, -1.0);
        } else if s > 1.0 && distance_squared_line <= radius_squared {
            // The right vertex bounds it.
            if !obstacle2.convex {
                continue;
            }
            obstacle1 = obstacle2;
            single_vertex = true;
            left_leg = leg(relative2, distance_squared2, radius, 1.0);
            right_leg = leg(relative2, distance_squared2, radius, -1.0);
        } else {
            left_leg = if obstacle1.convex {
                leg(relative1, distance_squared1, radius, 1.0)
            } else {
                -obstacle1.direction
            };
            right_leg = if obstacle2.convex {
                leg(relative2, distance_squared2, radius, -1.0)
            } else {
                obstacle1.direction
            };
        }

        // A leg pointing into the neighbouring edge at a convex vertex is that edge's
        // direction instead, and foreign: a velocity nearest it gets no line here.
        let left_neighbour = vertices[obstacle1.previous as usize];
        let mut left_foreign = false;
        let mut right_foreign = false;
        if obstacle1.convex && left_leg.perp_dot(-left_neighbour.direction) >= 0.0 {
            left_leg = -left_neighbour.direction;
            left_foreign = true;
        }
        if obstacle2.convex && right_leg.perp_dot(obstacle2.direction) <= 0.0 {
            right_leg = obstacle2.direction;
            right_foreign = true;
        }

        // The cut-off centres, and the velocity's place along the cut-off segment and legs.
        let left_cutoff = (obstacle1.point - position) * inverse_horizon;
        let right_cutoff = (obstacle2.point - position) * inverse_horizon;
        let cutoff_vector = right_cutoff - left_cutoff;
        let t = if single_vertex {
            0.5
        } else {
            (velocity - left_cutoff).dot(cutoff_vector) / cutoff_vector.length_squared()
        };
        let t_left = (velocity - left_cutoff).dot(left_leg);
        let t_right = (velocity - right_cutoff).dot(right_leg);

        let grown = radius * inverse_horizon;
        if (t < 0.0 && t_left < 0.0) || (single_vertex && t_left < 0.0 && t_right < 0.0) {
            // Nearest the left cut-off circle.
            let unit_w = rvo_normalize(velocity - left_cutoff);
            push(
                lines,
                Line {
                    direction: Vector::new(unit_w.y, -unit_w.x),
                    point: left_cutoff + unit_w * grown,
                },
            );
            continue;
        }
        if t > 1.0 && t_right < 0.0 {
            // Nearest the right cut-off circle.
            let unit_w = rvo_normalize(velocity - right_cutoff);
            push(
                lines,
                Line {
                    direction: Vector::new(unit_w.y, -unit_w.x),
                    point: right_cutoff + unit_w * grown,
                },
            );
            continue;
        }

        // Nearest the cut-off segment, the left leg or the right leg.
        let distance_squared_cutoff = if !(0.0..=1.0).contains(&t) || single_vertex {
            f32::INFINITY
        } else {
            (velocity - (left_cutoff + cutoff_vector * t)).length_squared()
        };
        let distance_squared_left = if t_left < 0.0 {
            f32::INFINITY
        } else {
            (velocity - (left_cutoff + left_leg * t_left)).length_squared()
        };
        let distance_squared_right = if t_right < 0.0 {
            f32::INFINITY
        } else {
            (velocity - (right_cutoff + right_leg * t_right)).length_squared()
        };
        // The line through the boundary point a radius (over the horizon) to the left of the
        // chosen direction's start.
        let along = |start: Vector, direction: Vector| Line {
            direction,
            point: start + Vector::new(-direction.y, direction.x) * grown,
        };
        if distance_squared_cutoff <= distance_squared_left
            && distance_squared_cutoff <= distance_squared_right
        {
            push(lines, along(left_cutoff, -obstacle1.direction));
        } else if distance_squared_left <= distance_squared_right {
            if !left_foreign {
                push(lines, along(left_cutoff, left_leg));
            }
        } else if !right_foreign {
            push(lines, along(right_cutoff, -right_leg));
        }
    }
}
