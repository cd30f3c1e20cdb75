//! The app's [`Obstacle`](crate::Obstacle)s (and with the `avian` feature its static colliders' outlines) as
//! ORCA sees them: built once into the kernel's [`OrcaObstacles`] (RVO2's linked polygons and
//! obstacle k-d tree in 2D), rebuilt only when an obstacle is added, moved, changed or
//! removed, and shared by ORCA and its contact pass.

use bevy::prelude::*;
use flock_core::steering::{OrcaObstacles, Shape};

#[cfg(feature = "avian")]
use crate::behaviours::level::StaticColliders;
use crate::behaviours::level::{Obstacles, gather_level_shapes};

/// The obstacles ORCA and the contact pass avoid this step.
#[derive(Resource, Default)]
pub(crate) struct OrcaObstacleSet(pub(crate) OrcaObstacles);

/// Before ORCA: the level's shapes gathered (in a fixed order), with the navigation mesh's
/// outer walls (feature `navmesh`) once agents navigate, and the set rebuilt if they changed;
/// shapes the kernel refuses (a self-intersecting polygon, a value not finite...) are left out
/// with a warning each time the set is rebuilt.
pub(crate) fn update_orca_obstacles(
    obstacles: Obstacles,
    #[cfg(feature = "avian")] colliders: StaticColliders,
    #[cfg(feature = "navmesh")] navmesh: Res<crate::navigation::FlockNavMesh>,
    mut shapes: Local<Vec<Shape>>,
    mut set: ResMut<OrcaObstacleSet>,
) {
    #[cfg(feature = "avian")]
    gather_level_shapes(&obstacles, &colliders, &mut shapes);
    #[cfg(not(feature = "avian"))]
    gather_level_shapes(&obstacles, &mut shapes);
    #[cfg(feature = "navmesh")]
    shapes.extend_from_slice(navmesh.walls());
    if set.0.update(&shapes) {
        for problem in set.0.problems() {
            warn!("ORCA obstacle left out: {problem}");
        }
    }
}
