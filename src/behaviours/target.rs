//! What a behaviour steers towards or away from: a point, or another entity.

use bevy::prelude::*;
use flock_core::Vector;

use flock_core::steering::Vehicle;

use crate::behaviours::steerers::{Prioritised, Steerers, add_forces};
use crate::components::Velocity;
use crate::dimension::position_of;
use crate::settings::ActiveFlockSettings;

/// A fixed point in the world, or an entity followed wherever it goes.
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Debug, PartialEq)]
pub enum Target {
    /// A world position.
    Point(Vector),
    /// An entity's position (its `Transform` translation) and, if it has one, its
    /// [`Velocity`]. A despawned entity is no target: the behaviour gives no force.
    Entity(Entity),
}

impl bevy::ecs::entity::MapEntities for Target {
    fn map_entities<E: bevy::ecs::entity::EntityMapper>(&mut self, mapper: &mut E) {
        if let Self::Entity(entity) = self {
            *entity = mapper.get_mapped(*entity);
        }
    }
}

impl Default for Target {
    fn default() -> Self {
        Self::Point(Vector::ZERO)
    }
}

/// Reads where targets are: every entity's position and velocity.
pub(crate) type Bodies<'w, 's> = Query<'w, 's, (&'static Transform, Option<&'static Velocity>)>;

impl Target {
    /// Where the target is and how it moves now, or `None` if it is an entity that is gone.
    pub(crate) fn locate(&self, bodies: &Bodies) -> Option<(Vector, Vector)> {
        match *self {
            Self::Point(point) => Some((point, Vector::ZERO)),
            Self::Entity(entity) => bodies.get(entity).ok().map(|(transform, velocity)| {
                (
                    position_of(transform.translation),
                    velocity.map_or(Vector::ZERO, |velocity| velocity.0),
                )
            }),
        }
    }
}

/// A behaviour whose force needs only the boid and where its targets are (seek, arrive, flee,
/// pursue, evade): [`steer_by_targets`] steers every boid that has it.
pub(crate) trait TargetBehaviour: Component {
    /// The weighted force on `me`, or `None` when there is none this step (a target is gone).
    fn force(&self, me: &Vehicle, bodies: &Bodies) -> Option<Vector>;
}

/// Adds the force of behaviour `B` to each boid that has it.
pub(crate) fn steer_by_targets<B: TargetBehaviour + Prioritised>(
    settings: Res<ActiveFlockSettings>,
    bodies: Bodies,
    mut steerers: Steerers<B>,
) {
    add_forces(&mut steerers, &settings.0.config, |_, me, behaviour| {
        behaviour.force(me, &bodies)
    });
}
