//! Wall avoidance by look-ahead (the cocos2d-x crowd demo's) and avoidance of obstacles.

use bevy::prelude::*;
use flock_core::Vector;
#[cfg(not(flock_3d))]
use flock_core::steering::Polygon;
use flock_core::steering::{Shape, avoid_obstacles as obstacle_force, avoid_walls as wall_force};

use crate::behaviours::limits::MotionLimits;
use crate::behaviours::steerers::{Steerers, add_forces, prioritised, vehicle};
use crate::components::{Acceleration, Velocity};
use crate::dimension::position_of;
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

/// The cocos2d-x crowd demo's wall avoidance: look `look_ahead` along the heading and, for
/// every wall of the flock's bounds that point is beyond, push straight inwards, changing the
/// velocity by `weight x max speed` in one response time (one frame by default). As in the demo
/// (`_velocity += wallAvoid()`), the push goes to the acceleration as it is, after the other
/// behaviours' sum is truncated: neither the max force nor mass limit it, so it wins at a wall.
/// The demo pushes at a node's `_speed` per frame, so its weight is `_speed / _maxSpeed` (1 for
/// the player, 3 for a crowd node). Pair it with [`EdgeMode::Free`](flock_core::EdgeMode) (or
/// `Bounce` as a backstop).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct AvoidWalls {
    /// How far ahead to look (the crowd demo: 50 pixels).
    pub look_ahead: f32,
    /// The push per wall, in max speeds per response time.
    pub weight: f32,
}

/// Steer around [`Obstacle`]s in the path: a corridor `clearance` wide on each side and
/// `look_ahead` long.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct AvoidObstacles {
    /// How far ahead to look.
    pub look_ahead: f32,
    /// Room to leave beside an obstacle.
    pub clearance: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

/// An obstacle at the entity's translation, for boids with [`AvoidObstacles`], named for its
/// dimension as Bevy's primitives are. In 2D (`bevy_flock`): a circle, a rectangle aligned
/// with the axes, a rectangle turned with the entity (its rotation about z), or a polygon
/// (turned with the entity). In 3D (`bevy_flock3d`): a sphere, a box aligned with the axes, a
/// box turned with the entity, or a capsule along the entity's local y axis (as Bevy's
/// `Capsule3d`). `Rect` and `Cuboid` keep to the axes whatever the entity's rotation.
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
pub enum Obstacle {
    /// A circle of this radius, world units.
    #[cfg(not(flock_3d))]
    Circle {
        /// Its radius.
        radius: f32,
    },
    /// A rectangle of this half width and half height.
    #[cfg(not(flock_3d))]
    Rect {
        /// Half its width and half its height.
        half_size: Vector,
    },
    /// A rectangle of this half width and half height, turned as the entity is.
    #[cfg(not(flock_3d))]
    RotatedRect {
        /// Half its width and half its height, before the rotation.
        half_size: Vector,
    },
    /// A polygon (convex or not), its vertices relative to the entity and turned as it is.
    #[cfg(not(flock_3d))]
    Polygon(Polygon),
    /// A sphere of this radius, world units.
    #[cfg(flock_3d)]
    Sphere {
        /// Its radius.
        radius: f32,
    },
    /// A box of this half width, height and depth.
    #[cfg(flock_3d)]
    Cuboid {
        /// Half its width, height and depth.
        half_size: Vector,
    },
    /// A box of this half width, height and depth, turned as the entity is.
    #[cfg(flock_3d)]
    OrientedCuboid {
        /// Half its width, height and depth, before the rotation.
        half_size: Vector,
    },
    /// A capsule along the entity's local y axis: `half_length` either side of the entity
    /// between the centres of its round ends, `radius` round.
    #[cfg(flock_3d)]
    Capsule {
        /// Half the length of its axis.
        half_length: f32,
        /// Its radius.
        radius: f32,
    },
}

impl Obstacle {
    /// A box along the axes, in the flock's dimension: `Obstacle::Rect` in 2D,
    /// `Obstacle::Cuboid` in 3D (for code that serves both).
    pub fn aligned_box(half_size: Vector) -> Self {
        #[cfg(not(flock_3d))]
        return Self::Rect { half_size };
        #[cfg(flock_3d)]
        return Self::Cuboid { half_size };
    }

    /// A round obstacle, in the flock's dimension: `Obstacle::Circle` in 2D, `Obstacle::Sphere`
    /// in 3D.
    pub fn ball(radius: f32) -> Self {
        #[cfg(not(flock_3d))]
        return Self::Circle { radius };
        #[cfg(flock_3d)]
        return Self::Sphere { radius };
    }

    /// Its outline where `transform` puts it (what the behaviours, ORCA and the navigation
    /// mesh avoid).
    pub fn at(&self, transform: &Transform) -> Shape {
        let centre = position_of(transform.translation);
        match self {
            #[cfg(not(flock_3d))]
            &Self::Circle { radius } => Shape::Circle { centre, radius },
            #[cfg(not(flock_3d))]
            &Self::Rect { half_size } => Shape::Rect { centre, half_size },
            #[cfg(not(flock_3d))]
            &Self::RotatedRect { half_size } => Shape::RotatedRect {
                centre,
                half_size,
                rotation: Mat2::from_cols(turn_of(transform), turn_of(transform).perp()),
            },
            #[cfg(not(flock_3d))]
            Self::Polygon(polygon) => Shape::Polygon(polygon.placed(centre, turn_of(transform))),
            #[cfg(flock_3d)]
            &Self::Sphere { radius } => Shape::Sphere { centre, radius },
            #[cfg(flock_3d)]
            &Self::Cuboid { half_size } => Shape::Cuboid { centre, half_size },
            #[cfg(flock_3d)]
            &Self::OrientedCuboid { half_size } => Shape::OrientedCuboid {
                centre,
                half_size,
                rotation: transform.rotation,
            },
            #[cfg(flock_3d)]
            &Self::Capsule {
                half_length,
                radius,
            } => {
                let axis = transform.rotation * Vec3::Y * half_length;
                Shape::Capsule {
                    start: centre - axis,
                    end: centre + axis,
                    radius,
                }
            }
        }
    }
}

/// The entity's turn about z as a unit vector (cos, sin): where its local x axis points in the
/// plane, x itself for a rotation that is not finite.
#[cfg(not(flock_3d))]
fn turn_of(transform: &Transform) -> Vec2 {
    (transform.rotation * Vec3::X)
        .truncate()
        .try_normalize()
        .unwrap_or(Vec2::X)
}

pub(crate) fn avoid_walls(
    settings: Res<ActiveFlockSettings>,
    mut boids: Query<(
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &AvoidWalls,
        &mut Acceleration,
    )>,
) {
    let config = &settings.0.config;
    for (transform, velocity, limits, walls, mut acceleration) in &mut boids {
        let me = vehicle(transform, velocity, limits, config);
        let speed = walls.weight * me.max_speed;
        acceleration.0 += wall_force(&me, &config.bounds, walls.look_ahead, speed);
    }
}

/// Every obstacle's shape, into `shapes`, in an order of their own (by bounding ball), not the
/// query's: a lockstep peer that draws some obstacles (a sprite on them changes the query's
/// order) still adds their forces and constraints in the same order as the others.
pub(crate) fn gather_obstacles(
    obstacles: &Query<(&Transform, &Obstacle)>,
    shapes: &mut Vec<Shape>,
) {
    shapes.clear();
    shapes.extend(
        obstacles
            .iter()
            .map(|(transform, obstacle)| obstacle.at(transform)),
    );
    sort_shapes(shapes);
}

/// Shapes in a fixed order whatever order they were found in (by their bounding balls), so a
/// step's result never depends on the order entities are visited.
pub(crate) fn sort_shapes(shapes: &mut [Shape]) {
    shapes.sort_by_cached_key(|shape| {
        shape
            .bounding_ball()
            .map(|(centre, radius)| (centre.to_array().map(sortable), sortable(radius)))
    });
}

/// `x`'s bits, ordered as the numbers are (negative below positive).
fn sortable(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

pub(crate) fn avoid_obstacles(
    settings: Res<ActiveFlockSettings>,
    obstacles: Query<(&Transform, &Obstacle)>,
    mut shapes: Local<Vec<Shape>>,
    mut boids: Steerers<AvoidObstacles>,
) {
    gather_obstacles(&obstacles, &mut shapes);
    add_forces(&mut boids, &settings.0.config, |_, me, behaviour| {
        let (look_ahead, clearance) = (behaviour.look_ahead, behaviour.clearance);
        let force = obstacle_force(me, shapes.iter(), look_ahead, clearance);
        Some(behaviour.weight * force)
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(AvoidObstacles => AvoidObstacles);
