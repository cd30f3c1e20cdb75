//! Wall following: go along an obstacle's outline or a pen's boundary at a distance, on a
//! chosen side.

use bevy::prelude::*;
use flock_core::steering::{Wall, WallFollowParams, follow_wall};

use crate::behaviours::avoidance::Obstacle;
use crate::behaviours::containment::Pen;
use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::steerers::{Steerers, add_forces, prioritised};
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

/// Follow the wall of entity `wall` (Reynolds' wall following): round the outside of its
/// [`Obstacle`], or round the inside of its [`Pen`], keeping `params.distance` from it with the
/// wall on the hand `params.side` says (in 3D the boid's own left or right, up being +y; see
/// [`follow_wall`]). A boid away from the wall closes in on it first. Parameters that are
/// not valid ([`WallFollowParams::is_valid`]), a wall entity with neither component (or
/// despawned) and a wall with numbers that are not finite are reported once and steer nobody.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct FollowWall {
    /// The entity with the [`Obstacle`] or the [`Pen`].
    #[entities]
    pub wall: Entity,
    /// The side, the distance kept and how far ahead to look.
    pub params: WallFollowParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn follow_walls(
    settings: Res<ActiveFlockSettings>,
    obstacles: Query<(&Transform, &Obstacle)>,
    pens: Query<&Pen>,
    mut reported_params: Local<ReportedOnce>,
    mut reported_walls: Local<ReportedOnce>,
    mut boids: Steerers<FollowWall>,
) {
    add_forces(&mut boids, &settings.0.config, |entity, me, behaviour| {
        let params = &behaviour.params;
        let valid = reported_params.check(entity, params.is_valid(), || {
            format!(
                "{entity} has invalid FollowWall params {params:?} (a distance finite and not \
                 negative, a look-ahead finite and positive); it follows no wall"
            )
        });
        if !valid {
            return None;
        }
        let wall_entity = behaviour.wall;
        let shape = obstacles
            .get(wall_entity)
            .ok()
            .map(|(transform, obstacle)| obstacle.at(transform));
        let wall = match (&shape, pens.get(wall_entity)) {
            (Some(shape), _) => Some(Wall::Outside(shape)),
            (None, Ok(pen)) => Some(Wall::Inside(&pen.0)),
            (None, Err(_)) => None,
        };
        let wall = wall.filter(Wall::is_valid);
        let wall = reported_walls.warn_if_missing(entity, wall, || {
            format!(
                "{entity} follows the wall of {wall_entity}, which has no valid Obstacle or Pen; \
                 it follows no wall"
            )
        })?;
        Some(behaviour.weight * follow_wall(me, wall, params))
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(FollowWall => FollowWall);
