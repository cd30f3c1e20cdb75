//! Obstacle avoidance: circles and rectangles (2D), spheres and boxes (3D) in the path.

use super::Vehicle;
use crate::math::{DIMENSIONS, Vector, cross_length, sideways_away};

/// An obstacle's outline: a circle or a rectangle aligned with the axes in 2D; a sphere or a
/// box aligned with the axes in 3D. The variants are named for their dimension, as Bevy's
/// primitives are; the code below reads them as `Round` and `Aligned` in both.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A round obstacle.
    #[cfg(not(flock_3d))]
    Circle {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A rectangular obstacle.
    #[cfg(not(flock_3d))]
    Rect {
        /// Its centre.
        centre: Vector,
        /// Half its width and half its height.
        half_size: Vector,
    },
    /// A round obstacle.
    #[cfg(flock_3d)]
    Sphere {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A box-shaped obstacle.
    #[cfg(flock_3d)]
    Cuboid {
        /// Its centre.
        centre: Vector,
        /// Half its width, height and depth.
        half_size: Vector,
    },
}

#[cfg(not(flock_3d))]
use Shape::{Circle as Round, Rect as Aligned};
#[cfg(flock_3d)]
use Shape::{Cuboid as Aligned, Sphere as Round};

impl Shape {
    fn centre(&self) -> Vector {
        match *self {
            Round { centre, .. } | Aligned { centre, .. } => centre,
        }
    }

    /// How far along `heading` from `position` the path first meets this shape grown by
    /// `clearance` (zero if it starts inside the grown shape), or `None` if it never does.
    fn path_entry(&self, position: Vector, heading: Vector, clearance: f32) -> Option<f32> {
        match *self {
            Round { centre, radius } => {
                let offset = centre - position;
                let reach = radius + clearance;
                let lateral = cross_length(offset, heading);
                let half_chord_squared = reach * reach - lateral * lateral;
                (half_chord_squared > 0.0)
                    .then(|| (offset.dot(heading) - half_chord_squared.sqrt()).max(0.0))
            }
            Aligned { centre, half_size } => {
                // The slab method: the ray is inside the box between the last entry and the
                // first exit over both axes.
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
        }
    }

    /// The direction out of this shape for a point inside it, or `None` for a point outside.
    fn way_out(&self, point: Vector) -> Option<Vector> {
        match *self {
            Round { centre, radius } => {
                let out = point - centre;
                (out.length_squared() < radius * radius).then(|| out.normalize_or(Vector::X))
            }
            Aligned { centre, half_size } => {
                let out = point - centre;
                let depth = half_size - out.abs();
                // Out through the nearest side (the last axis of a tie).
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
        }
    }
}

/// Reynolds' obstacle avoidance: of the obstacles ahead that the vehicle's path (a corridor
/// `clearance` wide on each side) meets within `look_ahead`, the nearest pushes the vehicle
/// sideways, away from its centre and harder the closer it is; an obstacle the vehicle is
/// already inside pushes it straight out.
pub fn avoid_obstacles(
    vehicle: &Vehicle,
    obstacles: impl IntoIterator<Item = Shape>,
    look_ahead: f32,
    clearance: f32,
) -> Vector {
    let heading = vehicle.heading();
    let mut nearest: Option<(f32, Vector)> = None;
    for obstacle in obstacles {
        if let Some(out) = obstacle.way_out(vehicle.position) {
            // Inside: out, as urgent as it gets.
            return vehicle.steer_to(out * vehicle.max_speed);
        }
        let offset = obstacle.centre() - vehicle.position;
        if heading == Vector::ZERO || offset.dot(heading) <= 0.0 {
            continue;
        }
        let Some(entry) = obstacle.path_entry(vehicle.position, heading, clearance) else {
            continue;
        };
        if entry <= look_ahead && nearest.is_none_or(|(distance, _)| entry < distance) {
            let push = sideways_away(heading, offset);
            nearest = Some((entry, push * (1.0 - entry / look_ahead)));
        }
    }
    match nearest {
        // Sideways only: dodging does not brake the vehicle.
        Some((_, push)) => push * vehicle.max_speed / vehicle.response_time,
        None => Vector::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{planar, world_size};
    use crate::steering::test_support::vehicle;

    #[test]
    fn obstacles_push_sideways_only_when_in_the_path() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let circle = |x, y| Round {
            centre: planar(x, y),
            radius: 1.0,
        };
        let force = avoid_obstacles(&v, [circle(5.0, 0.5)], 10.0, 0.2);
        assert!(force.x == 0.0 && force.y < 0.0, "{force}");
        // Behind, beside the path, beyond the look-ahead: no force.
        let missed = [circle(-5.0, 0.0), circle(5.0, 3.0), circle(20.0, 0.0)];
        assert_eq!(avoid_obstacles(&v, missed, 10.0, 0.2), Vector::ZERO);
        let out = avoid_obstacles(&v, [circle(0.5, 0.0)], 10.0, 0.2);
        assert!(out.x < 0.0, "{out}");

        let wall = |y| Aligned {
            centre: planar(6.0, y),
            // In 3D as deep as it is high.
            half_size: world_size(1.0, 3.0),
        };
        // Its lower part is in the path, its centre above: pushed down.
        let force = avoid_obstacles(&v, [wall(2.5)], 10.0, 0.2);
        assert!(force.x == 0.0 && force.y < 0.0, "{force}");
        assert_eq!(avoid_obstacles(&v, [wall(3.5)], 10.0, 0.2), Vector::ZERO);
        // The nearer of two pushes; a nearer one pushes harder.
        let near = avoid_obstacles(&v, [wall(2.5), circle(3.0, -0.5)], 10.0, 0.2);
        assert!(near.y > 0.0, "{near}");
        let far = avoid_obstacles(&v, [circle(8.0, -0.5)], 10.0, 0.2);
        assert!(near.length() > far.length());
        // Inside a rectangle: out through the nearest side.
        let inside = vehicle(planar(6.0, 2.0), planar(2.0, 0.0));
        let out = avoid_obstacles(&inside, [wall(0.0)], 10.0, 0.2);
        assert!(out.y > 0.0, "{out}");
    }
}
