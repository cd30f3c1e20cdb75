//! An agent's side of navigation: where it is going ([`Destination`]), and the path it
//! planned there with how it is doing ([`NavPath`], [`NavStatus`]).

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{PathFollowParams, Polyline};

use crate::steering_force::SteeringForce;

/// Go to `point` through the level: the agent plans a path on the level's navigation mesh
/// ([`FlockNavMesh`](crate::FlockNavMesh), built from the app's obstacles and colliders),
/// follows it as a corridor (Reynolds' path following, as [`FollowPath`](crate::FollowPath))
/// and arrives at the end. It plans again when `point` changes, when the mesh is rebuilt (an
/// obstacle added, moved or removed), when it is pushed more than
/// [`NavMeshSettings::replan_distance`](crate::NavMeshSettings) off its path, and when it has
/// not got closer for [`NavMeshSettings::stuck_after`](crate::NavMeshSettings) seconds. Its
/// [`NavPath`] tells how it is doing. Pair it with [`Orca`](crate::Orca) for a crowd: ORCA and
/// its contact pass also keep it off the mesh's outer walls.
///
/// A point that is not finite, off the mesh (it goes to the nearest walkable point instead),
/// or out of reach is reported once per agent, with its [`NavStatus`].
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce, NavPath)]
pub struct Destination {
    /// Where to go (in 3D on the floor plan: its height is not used).
    pub point: Vector,
    /// Within this distance of the destination the agent has arrived.
    pub arrival_radius: f32,
    /// Over the last `slow_radius` of the way the agent slows down to stop at the destination
    /// ([`Arrive`](crate::Arrive)'s slowing radius).
    pub slow_radius: f32,
    /// How it follows its corridor: prediction time and look-ahead.
    pub follow: PathFollowParams,
    /// How much this force counts in the agent's sum.
    pub weight: f32,
}

impl Destination {
    /// Go to `point`, arriving within 2 units and slowing down over the last 20, at weight 1.
    pub fn new(point: Vector) -> Self {
        Self {
            point,
            arrival_radius: 2.0,
            slow_radius: 20.0,
            follow: PathFollowParams::default(),
            weight: 1.0,
        }
    }
}

/// How an agent with a [`Destination`] is doing.
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NavStatus {
    /// Waiting for its first plan (the mesh is built once any agent has a destination).
    #[default]
    Planning,
    /// On its way, following its path.
    Moving,
    /// Within its arrival radius of the destination; it holds its place there.
    Arrived,
    /// It has planned twice without getting closer (a crowd in a doorway, a moving obstacle
    /// in the way); it keeps trying and is `Moving` again as soon as it gets closer.
    Stuck,
    /// No way leads from where it is to the destination on the mesh (another island, walled
    /// off). It stays where it is until the destination or the level changes.
    Unreachable,
    /// The destination is not a finite point. It stays where it is until that changes.
    InvalidDestination,
    /// There is no navigation mesh to plan on (see
    /// [`FlockNavMesh::error`](crate::FlockNavMesh::error)), or the agent is off it with no
    /// walkable point near.
    NoNavMesh,
}

/// An agent's planned way to its [`Destination`] (added with it): the corners of its path and
/// how it is doing. The plugin writes it; read it for a game's UI or debug drawing.
#[derive(Component, Reflect, Debug, Clone, Default)]
#[reflect(Component, Debug, Default)]
pub struct NavPath {
    pub(crate) waypoints: Vec<Vector>,
    pub(crate) status: NavStatus,
    /// The destination point and mesh generation the path was planned for.
    pub(crate) planned_for: Option<(Vector, u64)>,
    /// The corridor along the waypoints (at height zero in 3D).
    #[reflect(ignore)]
    pub(crate) corridor: Option<Polyline>,
    /// The least distance left along the path so far, and the seconds since it last shrank.
    pub(crate) closest: f32,
    pub(crate) stalled_for: f32,
    /// Plans in a row without getting closer.
    pub(crate) stalls: u32,
    pub(crate) replan: bool,
    /// What the last plan has to report, for the warning after the parallel pass.
    #[reflect(ignore)]
    pub(crate) note: Option<PlanNote>,
}

/// What a plan found worth a warning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PlanNote {
    InvalidDestination(Vector),
    Unreachable(Vector),
    NoNavMesh,
    StartMoved(Vector),
    DestinationMoved { asked: Vector, going: Vector },
}

impl NavPath {
    /// The path's corners from where the agent planned it to its destination (on the mesh);
    /// empty before the first plan and when there is no way.
    pub fn waypoints(&self) -> &[Vector] {
        &self.waypoints
    }

    /// How the agent is doing.
    pub fn status(&self) -> NavStatus {
        self.status
    }

    /// The path's length from where it was planned.
    pub fn length(&self) -> f32 {
        self.waypoints.windows(2).map(|w| w[0].distance(w[1])).sum()
    }
}
