//! Groups moving to a shared target (seed 002's tank group).

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use flock_core::NeighbourIndex;
use flock_core::Vector;
use flock_core::steering::{GroupParams, group_direction, group_speed};

use crate::behaviours::{MotionLimits, SteeringForce, vehicle};
use crate::components::Velocity;
use crate::settings::ActiveFlockSettings;
use crate::steer::FlockBuffers;

/// A group whose members move together to `target`: put it on an entity of its own and give
/// each member a [`GroupMember`] naming that entity. Moving the target moves the group.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct BoidGroup {
    /// Where the group is going.
    pub target: Vector,
    /// Keep-distance, target and movement weights, and where to stop.
    pub params: GroupParams,
}

/// Membership of a [`BoidGroup`]. A member heads for the group's target, keeps its distance
/// from mates, moves with them, and brakes to a stop near the target. Mates are found through
/// the plugin's neighbour index. A member of a despawned group gets no force.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct GroupMember {
    /// The entity holding the [`BoidGroup`].
    pub group: Entity,
    /// The speed the member is easing towards its wanted one: its own state.
    pub speed: f32,
}

impl GroupMember {
    /// A member of `group`, at rest.
    pub fn new(group: Entity) -> Self {
        Self { group, speed: 0.0 }
    }
}

pub(crate) fn steer_groups(
    time: Res<Time>,
    settings: Res<ActiveFlockSettings>,
    buffers: Res<FlockBuffers>,
    groups: Query<&BoidGroup>,
    mut membership: Local<EntityHashMap<Entity>>,
    mut candidates: Local<Vec<u32>>,
    mut members: Query<(
        Entity,
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &mut GroupMember,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    let dt = time.delta_secs();
    membership.clear();
    membership.extend(
        members
            .iter()
            .map(|(entity, .., member, _)| (entity, member.group)),
    );
    for (entity, transform, velocity, limits, mut member, mut force) in &mut members {
        let Ok(group) = groups.get(member.group) else {
            continue;
        };
        let me = vehicle(transform, velocity, limits, config);
        buffers
            .index()
            .candidates(me.position, group.params.keep_distance, &mut candidates);
        let mates = candidates.iter().filter_map(|&other| {
            let other = other as usize;
            let mate = *buffers.entities().get(other)?;
            (mate != entity && membership.get(&mate) == Some(&member.group))
                .then(|| (buffers.positions()[other], buffers.velocities()[other]))
        });
        let direction = group_direction(me.position, group.target, mates, &group.params);
        let distance = (group.target - me.position).length();
        member.speed = group_speed(member.speed, distance, me.max_speed, &group.params, dt);
        // Seed 002's `Clamp01(direction.magnitude)`: a weak wish moves the member slowly.
        let wanted = direction.normalize_or_zero() * member.speed * direction.length().min(1.0);
        force.0 += me.steer_to(wanted);
    }
}
