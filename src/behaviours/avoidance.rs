//! Wall avoidance by look-ahead (seed 003) and avoidance of round obstacles.

use bevy::prelude::*;
use flock_core::steering::{Circle, avoid_circles, avoid_walls as wall_force};

use crate::behaviours::{Steerers, SteeringForce, add_forces};
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

/// A round obstacle at the entity's translation, for boids with [`AvoidObstacles`].
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
pub struct Obstacle {
    /// Its radius, world units.
    pub radius: f32,
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
    mut circles: Local<Vec<Circle>>,
    mut boids: Steerers<AvoidObstacles>,
) {
    circles.clear();
    circles.extend(obstacles.iter().map(|(transform, obstacle)| Circle {
        centre: transform.translation.truncate(),
        radius: obstacle.radius,
    }));
    add_forces(&mut boids, &settings.0.config, |me, behaviour| {
        let (look_ahead, clearance) = (behaviour.look_ahead, behaviour.clearance);
        let force = avoid_circles(me, circles.iter().copied(), look_ahead, clearance);
        Some(behaviour.weight * force)
    });
}
