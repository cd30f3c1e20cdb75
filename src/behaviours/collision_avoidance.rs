//! Unaligned collision avoidance: dodge the soonest predicted collision with another boid,
//! found through the flock's neighbour index.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use flock_core::steering::{CollisionParams, avoid_collisions as collision_force};
use flock_core::{NeighbourIndex, Space};

use crate::behaviours::{MotionLimits, SteeringForce, vehicle};
use crate::components::Velocity;
use crate::settings::ActiveFlockSettings;
use crate::steer::FlockBuffers;

/// Predict when each nearby boid will pass closest and steer (or brake) to avoid the soonest
/// pass closer than `params.min_distance` within `params.horizon` seconds (Reynolds'
/// unaligned collision avoidance, for crowds that do not move together). Neighbours are the
/// flock index's candidates within reach (see [`CollisionParams::query_radius`]; the others
/// are assumed no faster than the flock's `max_speed` or this boid's own), so the cost grows
/// with the crowd's density, not its size. Parameters that are not finite and positive are
/// reported once and steer nobody.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct AvoidCollisions {
    /// What counts as a collision, and how far ahead to look.
    pub params: CollisionParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn avoid_collisions(
    settings: Res<ActiveFlockSettings>,
    buffers: Res<FlockBuffers>,
    mut candidates: Local<Vec<u32>>,
    mut reported: Local<EntityHashSet>,
    mut boids: Query<(
        Entity,
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &AvoidCollisions,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    // Positions wrap in a periodic world: each neighbour is taken at its nearest image.
    let space = Space::of(config);
    for (entity, transform, velocity, limits, behaviour, mut force) in &mut boids {
        if !behaviour.params.is_valid() {
            if reported.insert(entity) {
                warn!(
                    "bevy_flock: {entity} has invalid AvoidCollisions params {:?} (both must be \
                     finite and positive); it avoids no collisions",
                    behaviour.params
                );
            }
            continue;
        }
        reported.remove(&entity);
        let me = vehicle(transform, velocity, limits, config);
        let others_speed = config.max_speed.max(me.max_speed);
        let radius = behaviour
            .params
            .query_radius(me.velocity.length(), others_speed);
        buffers
            .index()
            .candidates(me.position, radius, &mut candidates);
        let others = candidates.iter().filter_map(|&other| {
            let other = other as usize;
            (*buffers.entities().get(other)? != entity).then(|| {
                let position = buffers.positions()[other];
                let nearest_image = me.position + space.delta(me.position, position);
                (nearest_image, buffers.velocities()[other])
            })
        });
        force.0 += behaviour.weight * collision_force(&me, others, &behaviour.params);
    }
}
