//! Steering behaviours as components: add one to a boid and it steers that way, on top of (or
//! instead of) flocking.
//!
//! Each behaviour's system adds its weighted force to the boid's [`SteeringForce`]; then
//! [`combine_steering`] does what the cocos2d-x crowd demo does with the sum: truncate it to the
//! maximum force, divide by mass, and add it to the boid's [`Acceleration`](crate::Acceleration).
//! Wall avoidance adds its push to the acceleration as it is, after that truncation, as the demo
//! does; group members are driven (the Unity tank group's `Drive`): their group sets their
//! velocity. Flocking keeps its own per-rule limits (Processing's), so a plain flock is unchanged
//! by this module.
//! All of it runs in [`FlockSystems::Behaviours`](crate::FlockSystems::Behaviours), between
//! steering and integration, in a fixed order so a run replays bit for bit.

mod avoidance;
#[cfg(feature = "avian")]
mod colliders;
mod collision_avoidance;
mod combine;
mod containment;
mod context;
mod flee;
mod flow_field;
mod group;
mod limits;
mod orca;
mod priority;
mod pursuit;
mod queue;
mod seek;
mod sight_flock;
mod slicing;
mod species;
mod target;
mod wall_follow;
mod wander;

// Paths, leaders, offset pursuit and formations (Reynolds 1999, OpenSteer).
mod formation;
mod frame;
mod leader;
mod offset_pursuit;
mod path;
mod reported;

pub use crate::components::SteeringForce;
pub use avoidance::{AvoidObstacles, AvoidWalls, Obstacle};
#[cfg(feature = "avian")]
pub use colliders::AvoidColliders;
pub use collision_avoidance::AvoidCollisions;
pub use containment::{Pen, StayInside};
pub use context::ContextSteering;
pub use flee::Flee;
pub use flow_field::{FlockFlowField, FollowFlowField};
pub use group::{BoidGroup, GroupMember};
pub use limits::{MotionLimits, TurnRate};
pub use orca::Orca;
pub use priority::{SteeringCombination, SteeringPriority};
pub use pursuit::{Evade, Pursue};
pub use queue::Queue;
pub use seek::{Arrive, Seek};
pub use sight_flock::SightFlock;
pub use slicing::{SlicingFocus, TimeSlicing};
pub use species::{Hunt, SpeciesRelations};
pub use target::Target;
pub use wall_follow::FollowWall;
pub use wander::Wander;

pub use formation::{Formation, FormationMember};
pub use leader::FollowLeader;
pub use offset_pursuit::OffsetPursuit;
pub use path::{FlockPath, FollowPath};

// The snapshot reads a boid's species, so the component lives below, in `steer`.
pub use crate::components::Species;

pub(crate) use combine::{combine_steering, start_combinations};
pub(crate) use group::face_group_heading;
pub(crate) use limits::{SteererQuery, Steerers, add_forces, vehicle};
use target::steer_by_targets;

use bevy::prelude::*;

/// Registers the behaviour types and adds their systems, in order, to `set` of `schedule`.
pub(crate) fn add_behaviours(
    app: &mut App,
    schedule: impl bevy::ecs::schedule::ScheduleLabel + Clone,
    set: impl SystemSet + Clone,
) {
    app.register_type::<SteeringForce>()
        .register_type::<MotionLimits>()
        .register_type::<TurnRate>()
        .register_type::<SteeringCombination>()
        .register_type::<SteeringPriority>()
        .register_type::<Seek>()
        .register_type::<SightFlock>()
        .register_type::<Arrive>()
        .register_type::<Flee>()
        .register_type::<Wander>()
        .register_type::<Pursue>()
        .register_type::<Evade>()
        .register_type::<AvoidWalls>()
        .register_type::<AvoidObstacles>()
        .register_type::<Obstacle>()
        .register_type::<BoidGroup>()
        .register_type::<GroupMember>()
        .register_type::<Species>()
        .register_type::<SpeciesRelations>()
        .init_resource::<SpeciesRelations>()
        .register_type::<AvoidCollisions>()
        .register_type::<TimeSlicing>()
        .register_type::<SlicingFocus>()
        .init_resource::<TimeSlicing>()
        .register_type::<FollowFlowField>()
        .register_type::<FlockFlowField>()
        .register_type::<StayInside>()
        .register_type::<Pen>()
        .register_type::<FollowWall>()
        .register_type::<Queue>()
        .register_type::<FlockPath>()
        .register_type::<FollowPath>()
        .register_type::<FollowLeader>()
        .register_type::<OffsetPursuit>()
        .register_type::<Formation>()
        .register_type::<FormationMember>()
        .add_systems(
            schedule.clone(),
            (
                steer_by_targets::<Seek>,
                steer_by_targets::<Arrive>,
                steer_by_targets::<Flee>,
                sight_flock::flock_in_sight,
                wander::wander,
                steer_by_targets::<Pursue>,
                steer_by_targets::<Evade>,
                avoidance::avoid_walls,
                avoidance::avoid_obstacles,
                collision_avoidance::avoid_collisions,
                flow_field::follow_flow_field,
                // Reynolds' containment, wall following and queueing.
                (
                    containment::stay_inside,
                    wall_follow::follow_walls,
                    queue::queue_at_doors,
                )
                    .chain(),
                group::steer_groups,
                species::hunt_and_escape,
                path::follow_paths,
                leader::follow_leaders,
                offset_pursuit::pursue_offsets,
                formation::steer_formations,
                limits::report_invalid_limits,
                combine_steering,
            )
                .chain()
                .in_set(set.clone()),
        );
    // Context steering replaces the sum of every behaviour above, so it comes last.
    app.register_type::<ContextSteering>().add_systems(
        schedule.clone(),
        context::steer_by_context
            .after(limits::report_invalid_limits)
            .before(combine_steering)
            .in_set(set.clone()),
    );
    // ORCA replaces the combined acceleration with the one that reaches its velocity.
    app.register_type::<Orca>().add_systems(
        schedule.clone(),
        orca::avoid_agents
            .after(combine_steering)
            .in_set(set.clone()),
    );
    // Avian's colliders are dodged with the other obstacles, in the same fixed order.
    #[cfg(feature = "avian")]
    app.register_type::<AvoidColliders>().add_systems(
        schedule,
        colliders::avoid_colliders
            .after(avoidance::avoid_obstacles)
            .before(collision_avoidance::avoid_collisions)
            .in_set(set),
    );
}
