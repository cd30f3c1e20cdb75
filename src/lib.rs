// The crate's front page is its README: the root one in 2D, bevy_flock3d's own in 3D
// (`tools/stage-packages.sh` rewrites that path for the 3D package, where it is `../README.md`).
#![cfg_attr(not(flock_3d), doc = include_str!("../README.md"))]
#![cfg_attr(flock_3d, doc = include_str!("../crates/bevy_flock3d/README.md"))]
#![warn(missing_docs)]

mod behaviours;
mod clock;
mod components;
mod dimension;
#[cfg(feature = "gpu")]
pub mod gpu;
mod identity;
pub mod lockstep;
mod motion;
#[cfg(feature = "navmesh")]
mod navigation;
#[cfg(feature = "panel")]
pub mod panel;
mod parallel;
mod plugin;
mod plugin_group;
pub mod presets;
#[cfg(feature = "render")]
mod render;
mod rng;
mod schedule;
mod settings;
mod spawn;
mod steer;
mod steering_force;

#[cfg(feature = "avian")]
pub use behaviours::AvoidColliders;
pub use behaviours::ContextSteering;
pub use behaviours::{
    Arrive, AvoidObstacles, AvoidWalls, BoidGroup, Evade, Flee, GroupMember, Hunt, MotionLimits,
    Obstacle, Pursue, Seek, SightFlock, SpeciesRelations, Target, TurnRate, Wander,
};
pub use behaviours::{AvoidCollisions, FlockFlowField, FollowFlowField, Pen, StayInside};
pub use behaviours::{BehaviourSystems, FlockBehavioursPlugin};
pub use behaviours::{
    FlockPath, FollowLeader, FollowPath, Formation, FormationMember, OffsetPursuit,
};
pub use behaviours::{FollowWall, Queue};
pub use behaviours::{Orca, OrcaContact};
pub use behaviours::{SlicingFocus, TimeSlicing};
pub use clock::FlockClock;
pub use components::{Acceleration, Boid, Species, SteeringWeights, Velocity};
#[cfg(flock_3d)]
pub use dimension::{Banking, MAX_ROLL_RATE};
pub use identity::{BoidId, BoidIds};
pub use lockstep::FlockStateHash;
#[cfg(feature = "navmesh")]
pub use navigation::{
    Destination, FlockNavMesh, MAX_NAVMESH_COORDINATE, MAX_OUTLINE_CORNERS, MeshPath, NavMeshError,
    NavMeshSettings, NavPath, NavStatus, PathFailure,
};
pub use parallel::{TaskPoolExecutor, all_cores_for_compute};
pub use plugin::FlockCorePlugin;
pub use plugin_group::{BoidsPlugin, FlockPlugins};
#[cfg(feature = "render")]
pub use render::FlockRenderPlugin;
#[cfg(all(feature = "render", flock_3d))]
pub use render::meshes::{bird_mesh, fish_mesh};
#[cfg(feature = "render")]
pub use render::pointer::{ClickToSpawn, CursorWorldPosition, UiWantsInput};
#[cfg(feature = "render")]
pub use render::prefab::{BoidColors, BoidPrefab, PrefabStyled};
#[cfg(all(feature = "render", not(flock_3d)))]
pub use render::sprites::BoidSprite;
pub use rng::{FlockRng, FlockRngState, SimulationRng};
pub use schedule::FlockSystems;
#[cfg(all(feature = "render", not(flock_3d)))]
pub use settings::FlockCamera;
pub use settings::{ActiveFlockSettings, BoundsSource, FlockSettings};
pub use spawn::{Placement, SpawnBoids, spawn_boids};
pub use steer::{FlockBuffers, StepTimings};
pub use steering_force::{SteeringCombination, SteeringForce, SteeringPriority};

/// The kernel, re-exported: settings types, indexes and the step functions.
pub use flock_core;

/// The avian crate of this dimension (avian2d in `bevy_flock`, avian3d in `bevy_flock3d`),
/// re-exported with the `avian` feature: the version whose colliders [`AvoidColliders`]
/// reads.
#[cfg(feature = "avian")]
pub use avian;

/// Everything a typical app needs: `use bevy_flock::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "avian")]
    pub use crate::AvoidColliders;
    #[cfg(flock_3d)]
    pub use crate::Banking;
    pub use crate::ContextSteering;
    pub use crate::{
        Acceleration, Arrive, AvoidObstacles, AvoidWalls, BehaviourSystems, Boid, BoidGroup,
        BoidId, BoidsPlugin, BoundsSource, Evade, Flee, FlockBehavioursPlugin, FlockClock,
        FlockCorePlugin, FlockPlugins, FlockRng, FlockSettings, FlockSystems, GroupMember, Hunt,
        MotionLimits, Obstacle, Placement, Pursue, Seek, SightFlock, SpawnBoids, Species,
        SpeciesRelations, SteeringForce, SteeringWeights, Target, TurnRate, Velocity, Wander,
    };
    pub use crate::{AvoidCollisions, FlockFlowField, FollowFlowField, Pen, StayInside};
    #[cfg(feature = "render")]
    pub use crate::{BoidColors, BoidPrefab, ClickToSpawn, CursorWorldPosition, FlockRenderPlugin};
    #[cfg(all(feature = "render", not(flock_3d)))]
    pub use crate::{BoidSprite, FlockCamera};
    #[cfg(feature = "navmesh")]
    pub use crate::{Destination, FlockNavMesh, NavMeshSettings, NavPath, NavStatus};
    pub use crate::{
        FlockPath, FollowLeader, FollowPath, Formation, FormationMember, OffsetPursuit,
    };
    pub use crate::{FollowWall, Queue};
    pub use crate::{Orca, OrcaContact};
    pub use crate::{SlicingFocus, TimeSlicing};
    pub use crate::{SteeringCombination, SteeringPriority};
    #[cfg(all(feature = "render", flock_3d))]
    pub use crate::{bird_mesh, fish_mesh};
    pub use flock_core::Vector;
    pub use flock_core::steering::OrcaParams;
    #[cfg(not(flock_3d))]
    pub use flock_core::steering::Polygon;
    pub use flock_core::steering::context::ContextParams;
    pub use flock_core::steering::{CollisionParams, Enclosure, FlowField};
    pub use flock_core::steering::{
        DriveParams, GroupParams, SightParams, WanderHome, WanderParams,
    };
    pub use flock_core::steering::{
        FormationShape, LeaderFollowParams, PathDirection, PathFollowParams, level,
    };
    pub use flock_core::steering::{QueueParams, WallFollowParams, WallSide};
    pub use flock_core::{EdgeMode, FlockConfig, ForceLimit, IndexKind, RuleWeights, SpeedMode};
}
