//! Groups driving to a shared target (the Unity tank group: `TankGroup`, `TankBehaviour`).

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use flock_core::NeighbourIndex;
use flock_core::Vector;
use flock_core::steering::{
    DriveParams, DriveState, GroupParams, drive, group_direction, group_speed,
};

use crate::components::{Boid, Velocity};
use crate::dimension::{heading_rotation, position_of};
use crate::steer::FlockBuffers;

/// A group whose members drive together to `target`: put it on an entity of its own and give
/// each member a [`GroupMember`] naming that entity. Moving the target moves the group.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct BoidGroup {
    /// Where the group is going.
    pub target: Vector,
    /// Keep-distance, target and movement weights, and where to stop.
    pub params: GroupParams,
}

/// A tank of a [`BoidGroup`], driven as the Unity tank group's `TankBehaviour` drives: it heads for
/// the group's target, keeps apart from the members near it (found through the plugin's neighbour
/// index) and moves with them, eases its speed to zero near the target, and `Drive`s: it turns at
/// most `drive.rotate_speed`, slows while turning, and reverses when the way it wants to go is well
/// behind it.
///
/// Each step the group sets the member's [`Velocity`] (its heading times the speed it drives
/// at, negative when reversing) and its rotation faces its heading, not its velocity. Flocking
/// and other behaviours still add their forces to that velocity; a member of a despawned group
/// is left alone.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct GroupMember {
    /// The entity holding the [`BoidGroup`].
    #[entities]
    pub group: Entity,
    /// Its cruising speed and fastest turn.
    pub drive: DriveParams,
    /// Its heading, speeds and movement: its own state, carried from step to step.
    pub state: DriveState,
}

impl GroupMember {
    /// A member of `group` driving with `drive`, at rest, facing +x.
    pub fn new(group: Entity, drive: DriveParams) -> Self {
        Self {
            group,
            drive,
            state: DriveState::default(),
        }
    }

    /// The same member facing `heading` instead.
    pub fn facing(mut self, heading: Vector) -> Self {
        self.state = DriveState::facing(heading);
        self
    }
}

pub(crate) fn steer_groups(
    time: Res<Time>,
    buffers: Res<FlockBuffers>,
    groups: Query<&BoidGroup>,
    mut snapshot: Local<EntityHashMap<(Entity, Vector)>>,
    mut candidates: Local<Vec<u32>>,
    mut members: Query<(Entity, &Transform, &mut Velocity, &mut GroupMember), With<Boid>>,
) {
    let dt = time.delta_secs();
    // Every member reads the others' movement from before this step, whatever the query order.
    snapshot.clear();
    snapshot.extend(
        members
            .iter()
            .map(|(entity, .., member)| (entity, (member.group, member.state.movement))),
    );
    for (entity, transform, mut velocity, mut member) in &mut members {
        let Ok(group) = groups.get(member.group) else {
            continue;
        };
        let position = position_of(transform.translation);
        buffers
            .index()
            .candidates(position, group.params.keep_distance, &mut candidates);
        // The members near this one, itself included (Unity's overlap query finds its own
        // collider): their positions and movements. A member spawned this step is not in the
        // index yet; it still counts itself.
        let mut counted_itself = false;
        let near: Vec<(Vector, Vector)> = candidates
            .iter()
            .filter_map(|&other| {
                let other = other as usize;
                let mate = *buffers.entities().get(other)?;
                let (mate_group, movement) = *snapshot.get(&mate)?;
                counted_itself |= mate == entity;
                (mate_group == member.group).then_some((buffers.positions()[other], movement))
            })
            .collect();
        let own = (!counted_itself).then_some((position, member.state.movement));
        let direction = group_direction(
            position,
            group.target,
            near.into_iter().chain(own),
            &group.params,
        );
        let distance = (group.target - position).length();
        let GroupMember {
            drive: params,
            state,
            ..
        } = &mut *member;
        state.speed = group_speed(state.speed, distance, params.move_speed, &group.params, dt);
        let speed = state.speed;
        velocity.0 = drive(state, direction, speed, params.rotate_speed, dt);
    }
}

/// Turns each member to face its heading (after `face_velocity`, which faces the velocity: a
/// reversing tank drives backwards, it does not turn round).
pub(crate) fn face_group_heading(mut members: Query<(&mut Transform, &GroupMember), With<Boid>>) {
    for (mut transform, member) in &mut members {
        if let Some(rotation) = heading_rotation(member.state.heading) {
            transform.rotation = rotation;
        }
    }
}
