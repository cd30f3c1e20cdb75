//! Steering behaviours as components: add one to a boid and it steers that way, on top of (or
//! instead of) flocking.
//!
//! Each behaviour's system adds its weighted force to the boid's
//! [`SteeringForce`](crate::SteeringForce); then the combination does what the cocos2d-x crowd demo does with the sum: truncate it to the
//! maximum force, divide by mass, and add it to the boid's [`Acceleration`](crate::Acceleration).
//! Wall avoidance adds its push to the acceleration as it is, after that truncation, as the demo
//! does; group members are driven (the Unity tank group's `Drive`): their group sets their
//! velocity. Flocking keeps its own per-rule limits (Processing's), so a plain flock is unchanged
//! by this module.
//! All of it runs in [`FlockSystems::Behaviours`](crate::FlockSystems::Behaviours), between
//! steering and integration, in the fixed order of [`BehaviourSystems`] so a run replays bit for
//! bit; [`FlockBehavioursPlugin`] adds it.

mod avoidance;
#[cfg(feature = "avian")]
mod collider_outlines;
#[cfg(feature = "avian")]
mod colliders;
mod collision_avoidance;
mod combine;
mod containment;
mod context;
mod flee;
mod flow_field;
mod group;
pub(crate) mod level;
pub(crate) mod limits;
mod orca;
mod orca_contact;
mod orca_obstacles;
mod plugin;
mod priority;
mod pursuit;
mod queue;
mod seek;
mod sight_flock;
pub(crate) mod slicing;
mod species;
pub(crate) mod steerers;
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

#[cfg(feature = "gpu")]
pub(crate) use avoidance::gather_obstacles;
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
pub use orca_contact::OrcaContact;
pub use plugin::{BehaviourSystems, FlockBehavioursPlugin};
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
