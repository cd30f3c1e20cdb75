//! Wall avoidance by look-ahead (seed 003) and avoidance of obstacles.

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Shape, avoid_obstacles as obstacle_force, avoid_walls as wall_force};

use crate::behaviours::{MotionLimits, Steerers, SteeringForce, add_forces, vehicle};
use crate::components::{Acceleration, Velocity};
use crate::dimension::position_of;
use crate::settings::ActiveFlockSettings;

/// Seed 003's wall avoidance: look `look_ahead` along the heading and, for every wall of the
/// flock's bounds that point is beyond, push straight inwards, changing the velocity by
/// `weight x max speed` in one response time (one frame by default). As in seed 003
/// (`_velocity += wallAvoid()`), the push goes to the acceleration as it is, after the other
/// behaviours' sum is truncated: neither the max force nor mass limit it, so it wins at a wall.
/// Seed 003 pushes at its `_speed` per frame, so its weight is `_speed / _maxSpeed` (1 for the
/// player, 3 for a crowd node). Pair it with [`EdgeMode::Free`](flock_core::EdgeMode) (or
/// `Bounce` as a backstop).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct AvoidWalls {
    /// How far ahead to look (seed 003: 50 pixels).
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

/// An obstacle at the entity's translation, for boids with [`AvoidObstacles`]: a circle or a
/// rectangle in 2D (`bevy_flock`), a sphere or a box in 3D (`bevy_flock3d`), named for their
/// dimension as Bevy's primitives are. Rectangles and boxes stay aligned with the axes (the
/// entity's rotation is not used).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
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
}

impl Obstacle {
    /// Its outline with its centre at `centre`.
    fn at(self, centre: Vector) -> Shape {
        match self {
            #[cfg(not(flock_3d))]
            Self::Circle { radius } => Shape::Circle { centre, radius },
            #[cfg(not(flock_3d))]
            Self::Rect { half_size } => Shape::Rect { centre, half_size },
            #[cfg(flock_3d)]
            Self::Sphere { radius } => Shape::Sphere { centre, radius },
            #[cfg(flock_3d)]
            Self::Cuboid { half_size } => Shape::Cuboid { centre, half_size },
        }
    }
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

pub(crate) fn avoid_obstacles(
    settings: Res<ActiveFlockSettings>,
    obstacles: Query<(&Transform, &Obstacle)>,
    mut shapes: Local<Vec<Shape>>,
    mut boids: Steerers<AvoidObstacles>,
) {
    shapes.clear();
    shapes.extend(
        obstacles
            .iter()
            .map(|(transform, obstacle)| obstacle.at(position_of(transform.translation))),
    );
    add_forces(&mut boids, &settings.0.config, |me, behaviour| {
        let (look_ahead, clearance) = (behaviour.look_ahead, behaviour.clearance);
        let force = obstacle_force(me, shapes.iter().copied(), look_ahead, clearance);
        Some(behaviour.weight * force)
    });
}
