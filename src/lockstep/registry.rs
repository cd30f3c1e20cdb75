//! The simulation's own types in a snapshot, and the game's through [`LockstepAppExt`].

use bevy::prelude::*;
use bevy::reflect::{FromReflect, GetTypeRegistration, TypePath};

use super::snapshot::LockstepRegistry;
use crate::behaviours::slicing::SlicedAnswer;
use crate::behaviours::{
    Arrive, AvoidCollisions, AvoidObstacles, AvoidWalls, BoidGroup, ContextSteering, Evade, Flee,
    FlockFlowField, FlockPath, FollowFlowField, FollowLeader, FollowPath, FollowWall, Formation,
    FormationMember, GroupMember, MotionLimits, Obstacle, OffsetPursuit, Orca, Pen, Pursue, Queue,
    Seek, SightFlock, SlicingFocus, SpeciesRelations, StayInside, TimeSlicing, TurnRate, Wander,
};
use crate::clock::FlockClock;
use crate::components::{Acceleration, Boid, Species, SteeringWeights, Velocity};
use crate::identity::{BoidId, BoidIds};
use crate::settings::FlockSettings;
use crate::steering_force::SteeringCombination;

/// Adds a game's own simulation types to the lockstep's snapshot (see
/// [`FlockSnapshot`](super::FlockSnapshot)): what a late joiner must receive to play on in step.
/// Register them on every peer, in the same order (the [`Fingerprint`](super::Fingerprint)
/// checks it).
pub trait LockstepAppExt {
    /// A component of the game's simulation: entities with it take part in the snapshot.
    fn add_lockstep_component<C>(&mut self) -> &mut Self
    where
        C: Component + Reflect + FromReflect + TypePath + GetTypeRegistration;

    /// A resource of the game's simulation.
    fn add_lockstep_resource<R>(&mut self) -> &mut Self
    where
        R: Resource + Reflect + FromReflect + TypePath + GetTypeRegistration;
}

impl LockstepAppExt for App {
    fn add_lockstep_component<C>(&mut self) -> &mut Self
    where
        C: Component + Reflect + FromReflect + TypePath + GetTypeRegistration,
    {
        self.register_type::<C>();
        let mut registry = self.world_mut().get_resource_or_init::<LockstepRegistry>();
        registry.add_component::<C>(true);
        self
    }

    fn add_lockstep_resource<R>(&mut self) -> &mut Self
    where
        R: Resource + Reflect + FromReflect + TypePath + GetTypeRegistration,
    {
        self.register_type::<R>();
        let mut registry = self.world_mut().get_resource_or_init::<LockstepRegistry>();
        registry.add_resource::<R>();
        self
    }
}

/// The plugin's components and resources that hold simulation state.
pub(super) fn register_simulation(app: &mut App) {
    // What every drawn thing has, or what a behaviour keeps between steps: saved with an
    // entity that takes part, but no reason on its own to take part.
    app.register_type::<Transform>()
        .register_type::<SlicedAnswer<AvoidCollisions>>();
    let mut registry = app.world_mut().get_resource_or_init::<LockstepRegistry>();
    registry.add_component::<Transform>(false);
    registry.add_component::<SlicedAnswer<AvoidCollisions>>(false);
    app.add_lockstep_component::<BoidId>()
        .add_lockstep_component::<Boid>()
        .add_lockstep_component::<Velocity>()
        .add_lockstep_component::<Acceleration>()
        .add_lockstep_component::<SteeringWeights>()
        .add_lockstep_component::<SteeringCombination>()
        .add_lockstep_component::<Species>()
        .add_lockstep_component::<Seek>()
        .add_lockstep_component::<Arrive>()
        .add_lockstep_component::<Flee>()
        .add_lockstep_component::<Pursue>()
        .add_lockstep_component::<Evade>()
        .add_lockstep_component::<Wander>()
        .add_lockstep_component::<MotionLimits>()
        .add_lockstep_component::<TurnRate>()
        .add_lockstep_component::<Obstacle>()
        .add_lockstep_component::<AvoidObstacles>()
        .add_lockstep_component::<AvoidWalls>()
        .add_lockstep_component::<AvoidCollisions>()
        .add_lockstep_component::<Pen>()
        .add_lockstep_component::<StayInside>()
        .add_lockstep_component::<FlockPath>()
        .add_lockstep_component::<FollowPath>()
        .add_lockstep_component::<FollowLeader>()
        .add_lockstep_component::<OffsetPursuit>()
        .add_lockstep_component::<Formation>()
        .add_lockstep_component::<FormationMember>()
        .add_lockstep_component::<BoidGroup>()
        .add_lockstep_component::<GroupMember>()
        .add_lockstep_component::<FollowFlowField>()
        .add_lockstep_component::<FollowWall>()
        .add_lockstep_component::<Queue>()
        .add_lockstep_component::<SightFlock>()
        .add_lockstep_component::<ContextSteering>()
        .add_lockstep_component::<Orca>()
        .add_lockstep_component::<SlicingFocus>()
        .add_lockstep_resource::<FlockSettings>()
        .add_lockstep_resource::<FlockClock>()
        .add_lockstep_resource::<BoidIds>()
        .add_lockstep_resource::<SpeciesRelations>()
        .add_lockstep_resource::<TimeSlicing>()
        .add_lockstep_resource::<FlockFlowField>();
    #[cfg(flock_3d)]
    app.add_lockstep_component::<crate::Banking>();
    #[cfg(feature = "avian")]
    app.add_lockstep_component::<crate::AvoidColliders>();
    #[cfg(feature = "navmesh")]
    register_navigation(app);
}

/// Where each agent is going, the path it planned (saved with it: the agent takes part for its
/// `Destination`), and how the level's mesh is built. The mesh itself is built again from the
/// level on a peer that joins.
#[cfg(feature = "navmesh")]
fn register_navigation(app: &mut App) {
    app.register_type::<crate::NavPath>();
    app.world_mut()
        .get_resource_or_init::<LockstepRegistry>()
        .add_component::<crate::NavPath>(false);
    app.add_lockstep_component::<crate::Destination>()
        .add_lockstep_resource::<crate::NavMeshSettings>();
}
