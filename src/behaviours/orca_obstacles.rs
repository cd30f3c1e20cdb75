//! The app's [`Obstacle`]s (and with the `avian` feature its static colliders' outlines) as
//! ORCA sees them: built once into the kernel's [`OrcaObstacles`] (RVO2's linked polygons and
//! obstacle k-d tree in 2D), rebuilt only when an obstacle is added, moved, changed or
//! removed, and shared by ORCA and its contact pass.

use bevy::prelude::*;
use flock_core::steering::{OrcaObstacles, Shape};

use crate::behaviours::avoidance::{Obstacle, sort_shapes};

/// The obstacles ORCA and the contact pass avoid this step.
#[derive(Resource, Default)]
pub(crate) struct OrcaObstacleSet(pub(crate) OrcaObstacles);

/// Before ORCA: the obstacles gathered (in a fixed order) and the set rebuilt if they changed;
/// shapes the kernel refuses (a self-intersecting polygon, a value not finite...) are left out
/// with a warning each time the set is rebuilt.
#[allow(clippy::type_complexity)]
pub(crate) fn update_orca_obstacles(
    obstacles: Query<(&Transform, &Obstacle)>,
    #[cfg(feature = "avian")] colliders: Query<
        (
            &avian::prelude::Collider,
            &GlobalTransform,
            Option<&avian::prelude::RigidBody>,
        ),
        Without<crate::components::Boid>,
    >,
    mut shapes: Local<Vec<Shape>>,
    mut set: ResMut<OrcaObstacleSet>,
) {
    // Sorted once, the colliders' outlines with the obstacles.
    shapes.clear();
    shapes.extend(
        obstacles
            .iter()
            .map(|(transform, obstacle)| obstacle.at(transform)),
    );
    #[cfg(feature = "avian")]
    {
        shapes.extend(colliders.iter().filter_map(|(collider, transform, body)| {
            crate::behaviours::collider_outlines::collider_outline(collider, transform, body)
        }));
    }
    sort_shapes(&mut shapes);
    if set.0.update(&shapes) {
        for problem in set.0.problems() {
            warn!("ORCA obstacle left out: {problem}");
        }
    }
}
