//! The level's solid shapes, gathered once for the systems that plan or avoid against all of
//! them (ORCA's obstacles, the navigation mesh): the app's [`Obstacle`]s and, with the `avian`
//! feature, its static colliders' outlines, in one fixed order.

use bevy::prelude::*;
use flock_core::steering::Shape;

use crate::behaviours::avoidance::{Obstacle, sort_shapes};

/// The app's obstacles, as the systems that gather the level read them.
pub(crate) type Obstacles<'w, 's> = Query<'w, 's, (&'static Transform, &'static Obstacle)>;

/// Avian's colliders that are not boids; only the static ones (or those without a body) are
/// part of the level.
#[cfg(feature = "avian")]
pub(crate) type StaticColliders<'w, 's> = Query<
    'w,
    's,
    (
        &'static avian::prelude::Collider,
        &'static GlobalTransform,
        Option<&'static avian::prelude::RigidBody>,
    ),
    Without<crate::components::Boid>,
>;

/// Every obstacle's outline and every static collider's, into `shapes` (emptied first), sorted
/// by bounding ball so the order never depends on the order entities are visited.
pub(crate) fn gather_level_shapes(
    obstacles: &Obstacles,
    #[cfg(feature = "avian")] colliders: &StaticColliders,
    shapes: &mut Vec<Shape>,
) {
    shapes.clear();
    shapes.extend(
        obstacles
            .iter()
            .map(|(transform, obstacle)| obstacle.at(transform)),
    );
    #[cfg(feature = "avian")]
    shapes.extend(colliders.iter().filter_map(|(collider, transform, body)| {
        crate::behaviours::collider_outlines::collider_outline(collider, transform, body)
    }));
    sort_shapes(shapes);
}
