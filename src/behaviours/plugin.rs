//! `FlockBehavioursPlugin`: the behaviour types and their systems, in named sets that run in a
//! fixed order inside [`FlockSystems::Behaviours`].

use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use crate::behaviours::avoidance::{
    AvoidObstacles, AvoidWalls, Obstacle, avoid_obstacles, avoid_walls,
};
#[cfg(feature = "avian")]
use crate::behaviours::colliders::{AvoidColliders, avoid_colliders};
use crate::behaviours::collision_avoidance::{AvoidCollisions, avoid_collisions};
use crate::behaviours::combine::{combine_steering, start_combinations};
use crate::behaviours::containment::{Pen, StayInside, stay_inside};
use crate::behaviours::context::{ContextSteering, steer_by_context};
use crate::behaviours::flee::Flee;
use crate::behaviours::flow_field::{FlockFlowField, FollowFlowField, follow_flow_field};
use crate::behaviours::formation::{Formation, FormationMember, steer_formations};
use crate::behaviours::group::{BoidGroup, GroupMember, face_group_heading, steer_groups};
use crate::behaviours::leader::{FollowLeader, follow_leaders};
use crate::behaviours::limits::{MotionLimits, TurnRate, report_invalid_limits};
use crate::behaviours::offset_pursuit::{OffsetPursuit, pursue_offsets};
use crate::behaviours::orca::{Orca, avoid_agents};
use crate::behaviours::orca_contact::{OrcaContact, part_orca_contacts};
use crate::behaviours::orca_obstacles::{OrcaObstacleSet, update_orca_obstacles};
use crate::behaviours::path::{FlockPath, FollowPath, follow_paths};
use crate::behaviours::pursuit::{Evade, Pursue};
use crate::behaviours::queue::{Queue, queue_at_doors};
use crate::behaviours::seek::{Arrive, Seek};
use crate::behaviours::sight_flock::{SightFlock, flock_in_sight};
use crate::behaviours::slicing::{SlicingFocus, TimeSlicing};
use crate::behaviours::species::{SpeciesRelations, hunt_and_escape};
use crate::behaviours::target::steer_by_targets;
use crate::behaviours::wall_follow::{FollowWall, follow_walls};
use crate::behaviours::wander::{Wander, wander};
use crate::components::Species;
use crate::dimension::face_velocity;
use crate::schedule::{FlockSystems, register_types};
use crate::steer::steer_boids;
use crate::steering_force::{SteeringCombination, SteeringForce, SteeringPriority};

/// The behaviours' systems, in the order they run (chained) inside
/// [`FlockSystems::Behaviours`]: each set adds its behaviours' forces to the boids'
/// [`SteeringForce`], until [`Combine`](Self::Combine) turns them into acceleration. The order is
/// fixed so a run replays bit for bit. Order a system of your own between two of them to read
/// or change the forces there:
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// // Doubles whatever the target behaviours asked for, before any avoidance is added.
/// fn eager(mut boids: Query<&mut SteeringForce, With<Seek>>) {
///     for mut force in &mut boids {
///         let sum = force.sum();
///         force.add(SteeringPriority::Own, sum);
///     }
/// }
///
/// App::new().add_systems(
///     FixedUpdate,
///     eager
///         .after(BehaviourSystems::Targets)
///         .before(BehaviourSystems::Avoidance),
/// );
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BehaviourSystems {
    /// Towards or away from targets, and wandering: [`Seek`], [`Arrive`], [`Flee`],
    /// [`SightFlock`], [`Wander`], [`Pursue`] and [`Evade`].
    Targets,
    /// Keeping clear: [`AvoidWalls`] (its push goes to the acceleration as it is, after the
    /// combination's truncation), [`AvoidObstacles`], `AvoidColliders` (feature `avian`) and
    /// [`AvoidCollisions`].
    Avoidance,
    /// Moving through a level as a crowd: [`FollowFlowField`], [`StayInside`], [`FollowWall`]
    /// and [`Queue`].
    Crowds,
    /// Groups and species: each [`BoidGroup`] drives its members' velocities, and
    /// [`Hunt`](crate::Hunt)ers chase while the hunted escape.
    Groups,
    /// Following others: [`FollowPath`], [`FollowLeader`], [`OffsetPursuit`] and
    /// [`FormationMember`]; then, with the `navmesh` feature, the navigation mesh rebuilt if
    /// the level changed and agents with a `Destination` planning and following their paths.
    Following,
    /// Reports invalid [`MotionLimits`] and [`TurnRate`]s, lets [`ContextSteering`] replace a
    /// boid's forces with its one decision, then combines each boid's [`SteeringForce`] into
    /// its [`Acceleration`](crate::Acceleration) (as its [`SteeringCombination`] says) and empties
    /// it.
    Combine,
    /// [`Orca`]: replaces the combined acceleration with the one that reaches a collision-free
    /// velocity.
    Orca,
}

/// The steering behaviours: registers their components and resources and runs their systems in
/// [`BehaviourSystems`], inside [`FlockSystems::Behaviours`] of the flock's schedule. Part of
/// [`FlockPlugins`](crate::FlockPlugins) and [`BoidsPlugin`](crate::BoidsPlugin); a flock
/// without it only flocks.
#[derive(Debug, Clone)]
pub struct FlockBehavioursPlugin {
    schedule: Interned<dyn ScheduleLabel>,
}

impl Default for FlockBehavioursPlugin {
    fn default() -> Self {
        Self::new(FixedUpdate)
    }
}

impl FlockBehavioursPlugin {
    /// The behaviours in `schedule`, the schedule the flock steps in (`FixedUpdate` by default).
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Plugin for FlockBehavioursPlugin {
    fn build(&self, app: &mut App) {
        register_behaviour_types(app);
        app.init_resource::<SpeciesRelations>()
            .init_resource::<TimeSlicing>();

        let schedule = self.schedule;
        app.configure_sets(
            schedule,
            (
                BehaviourSystems::Targets,
                BehaviourSystems::Avoidance,
                BehaviourSystems::Crowds,
                BehaviourSystems::Groups,
                BehaviourSystems::Following,
                BehaviourSystems::Combine,
                BehaviourSystems::Orca,
            )
                .chain()
                .in_set(FlockSystems::Behaviours),
        );
        app.add_systems(
            schedule,
            (
                (
                    steer_by_targets::<Seek>,
                    steer_by_targets::<Arrive>,
                    steer_by_targets::<Flee>,
                    flock_in_sight,
                    wander,
                    steer_by_targets::<Pursue>,
                    steer_by_targets::<Evade>,
                )
                    .chain()
                    .in_set(BehaviourSystems::Targets),
                (avoid_walls, avoid_obstacles, avoid_collisions)
                    .chain()
                    .in_set(BehaviourSystems::Avoidance),
                (follow_flow_field, stay_inside, follow_walls, queue_at_doors)
                    .chain()
                    .in_set(BehaviourSystems::Crowds),
                (steer_groups, hunt_and_escape)
                    .chain()
                    .in_set(BehaviourSystems::Groups),
                (
                    follow_paths,
                    follow_leaders,
                    pursue_offsets,
                    steer_formations,
                )
                    .chain()
                    .in_set(BehaviourSystems::Following),
                // Context steering replaces the sum of every behaviour before it.
                (report_invalid_limits, steer_by_context, combine_steering)
                    .chain()
                    .in_set(BehaviourSystems::Combine),
                // ORCA replaces the combined acceleration with the one that reaches its velocity,
                // among the obstacles as they are this step.
                (
                    update_orca_obstacles.run_if(any_with_component::<Orca>),
                    avoid_agents,
                )
                    .chain()
                    .in_set(BehaviourSystems::Orca),
            ),
        );
        // Agents with a destination plan on the level's navigation mesh (rebuilt first if the
        // level changed) and follow their paths, after the other ways of following.
        #[cfg(feature = "navmesh")]
        {
            use crate::navigation::{
                Destination, FlockNavMesh, NavMeshSettings, follow_nav_paths, plan_paths,
                rebuild_navmesh,
            };
            app.init_resource::<NavMeshSettings>()
                .init_resource::<FlockNavMesh>()
                .add_systems(
                    schedule,
                    (
                        rebuild_navmesh.run_if(any_with_component::<Destination>),
                        plan_paths,
                        follow_nav_paths,
                    )
                        .chain()
                        .after(steer_formations)
                        .in_set(BehaviourSystems::Following),
                );
        }
        // Avian's colliders are dodged with the other obstacles, in the same fixed order.
        #[cfg(feature = "avian")]
        app.add_systems(
            schedule,
            avoid_colliders
                .after(avoid_obstacles)
                .before(avoid_collisions)
                .in_set(BehaviourSystems::Avoidance),
        );

        // ORCA's contact pass parts what still overlaps once the boids have moved, before the
        // edges wrap or bounce them.
        app.init_resource::<OrcaContact>()
            .init_resource::<OrcaObstacleSet>()
            .add_systems(
                schedule,
                part_orca_contacts
                    .after(FlockSystems::Integrate)
                    .before(FlockSystems::Edges),
            );

        // A prioritised boid's forces start before the flocking force joins them.
        app.add_systems(
            schedule,
            (
                start_combinations
                    .before(steer_boids)
                    .in_set(FlockSystems::Steer),
                face_group_heading
                    .after(face_velocity)
                    .in_set(FlockSystems::TransformSync),
            ),
        );
    }
}

fn register_behaviour_types(app: &mut App) {
    register_types! { app =>
        SteeringForce, MotionLimits, TurnRate, SteeringCombination, SteeringPriority, Seek,
        SightFlock, Arrive, Flee, Wander, Pursue, Evade, AvoidWalls, AvoidObstacles, Obstacle,
        BoidGroup, GroupMember, Species, SpeciesRelations, AvoidCollisions, TimeSlicing,
        SlicingFocus, FollowFlowField, FlockFlowField, StayInside, Pen, FollowWall, Queue,
        FlockPath, FollowPath, FollowLeader, OffsetPursuit, Formation, FormationMember,
        ContextSteering, Orca
    }
    #[cfg(feature = "avian")]
    app.register_type::<AvoidColliders>();
    #[cfg(feature = "navmesh")]
    register_types! { app =>
        crate::navigation::Destination, crate::navigation::NavPath,
        crate::navigation::NavMeshSettings
    }
}
