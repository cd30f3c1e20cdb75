//! Wall avoidance by look-ahead (seed 003) and avoidance of round obstacles.

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Shape, avoid_obstacles as obstacle_force, avoid_walls as wall_force};

use crate::behaviours::{Steerers, SteeringForce, add_forces};
use crate::dimension::position_of;
use crate::settings::ActiveFlockSettings;

/// Look `look_ahead` along the heading and steer inwards when that point is outside the
/// flock's bounds. Pair it with [`EdgeMode::Free`](flock_core::EdgeMode) (or `Bounce` as a
/// backstop); the look-ahead must exceed the braking distance to keep a boid inside.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct AvoidWalls {
    /// How far ahead to look.
    pub look_ahead: f32,
    /// How much this force counts in the boid's sum.
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

pub(crate) fn avoid_walls(settings: Res<ActiveFlockSettings>, mut boids: Steerers<AvoidWalls>) {
    let config = &settings.0.config;
    add_forces(&mut boids, config, |me, behaviour| {
        Some(behaviour.weight * wall_force(me, &config.bounds, behaviour.look_ahead))
    });
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
