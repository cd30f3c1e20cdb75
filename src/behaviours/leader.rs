//! Leader following: boids that trail another entity, out of its way and apart.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Leader, LeaderFollowParams, follow_leader};

use crate::behaviours::frame::OtherFrames;
use crate::behaviours::steerers::{Steerers, add_forces, prioritised};
use crate::dimension::position_of;
use crate::identity::BoidId;
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

/// Follow `leader` (Reynolds' leader following, see [`follow_leader`]): arrive at a point
/// behind it, step sideways out of its way when in front of it, and keep apart from the other
/// boids following the same leader. The leader heads along its velocity, or the way it faces
/// when at rest. A leader that is despawned gives no force and a warning, once.
///
/// Mates are found by leader, not through the neighbour index: each follower looks at every
/// other follower of its leader, which suits escorts and squads (tens), not thousands.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct FollowLeader {
    /// The entity to follow: any entity with a `Transform` (and a `Velocity` if it moves).
    #[entities]
    pub leader: Entity,
    /// How far behind, the leader's way, the separation between followers.
    pub params: LeaderFollowParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

impl FollowLeader {
    /// Follow `leader` with the default distances, at weight 1.
    pub fn new(leader: Entity) -> Self {
        Self {
            leader,
            params: LeaderFollowParams::default(),
            weight: 1.0,
        }
    }
}

pub(crate) fn follow_leaders(
    settings: Res<ActiveFlockSettings>,
    mut leaders: OtherFrames,
    mut by_leader: Local<EntityHashMap<Vec<(BoidId, Entity, Vector)>>>,
    ids: Query<&BoidId>,
    mut followers: Steerers<FollowLeader>,
) {
    // Every follower's position before this step's forces, grouped by leader, in id order:
    // the separation sums over mates in that order on every peer.
    by_leader.values_mut().for_each(Vec::clear);
    for (entity, transform, .., follow, _) in &followers {
        let position = position_of(transform.translation);
        let id = ids.get(entity).copied().unwrap_or(BoidId::UNASSIGNED);
        by_leader
            .entry(follow.leader)
            .or_default()
            .push((id, entity, position));
    }
    by_leader.retain(|_, mates| !mates.is_empty());
    for mates in by_leader.values_mut() {
        mates.sort_unstable_by_key(|&(id, entity, _)| (id, entity));
    }
    add_forces(&mut followers, &settings.0.config, |entity, me, follow| {
        let frame = leaders.of(entity, follow.leader, "follows the leader")?;
        let leader = Leader {
            position: frame.position,
            heading: frame.heading,
        };
        // Every follower was grouped above, so its leader has an entry.
        let mates = (by_leader.get(&follow.leader).into_iter().flatten())
            .filter(|(_, mate, _)| *mate != entity)
            .map(|&(.., position)| position);
        Some(follow.weight * follow_leader(me, &leader, mates, &follow.params))
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(FollowLeader => FollowLeader);
