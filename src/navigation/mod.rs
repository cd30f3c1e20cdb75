//! Navigation through a level (feature `navmesh`): a navigation mesh built from the app's
//! obstacles and colliders with [polyanya](https://docs.rs/polyanya) (Polyanya's any-angle,
//! optimal paths on a constrained Delaunay triangulation, the engine under `vleue_navigator`),
//! and agents that plan on it, follow their path as a corridor and arrive, as Recast's
//! DetourCrowd pairs its navmesh with local avoidance. With [`Orca`](crate::Orca) the crowd
//! avoids itself on the way, and ORCA and its contact pass keep every agent inside the mesh's
//! outline.
//!
//! In 3D the mesh is a floor plan: the level's obstacles seen from above (their footprints on
//! x and z), paths on the ground at the agent's own height.

mod agent;
mod mesh;
mod plan;
mod steering;

pub use agent::{Destination, NavPath, NavStatus};
pub(crate) use mesh::rebuild_navmesh;
pub use mesh::{
    FlockNavMesh, MAX_NAVMESH_COORDINATE, MAX_OUTLINE_CORNERS, MeshPath, NavMeshError,
    NavMeshSettings, PathFailure,
};
pub(crate) use steering::{follow_nav_paths, plan_paths};
