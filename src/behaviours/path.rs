//! Path following: a [`FlockPath`] on an entity of its own, shared by every boid whose
//! [`FollowPath`] names it.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{PathError, PathFollowParams, Polyline, follow_path};

use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::steerers::{Steerers, add_forces, prioritised};
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

/// A path for boids to follow: a polyline through `points` (open, or `looped` back to the
/// first), with a corridor `radius` wide on each side. Put it on an entity of its own; any
/// number of [`FollowPath`] boids may share it, and changing it changes their way.
///
/// A path with fewer than two points, a point or radius that is not finite, a radius of zero
/// or less, or no length is reported once (each time it is changed) and followed by nobody.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct FlockPath {
    /// The points, in order.
    pub points: Vec<Vector>,
    /// The corridor's half width.
    pub radius: f32,
    /// Whether the last point joins back to the first.
    pub looped: bool,
}

impl FlockPath {
    /// The kernel's validated path, or why there is none.
    pub fn polyline(&self) -> Result<Polyline, PathError> {
        Polyline::new(self.points.clone(), self.radius, self.looped)
    }
}

/// Follow the [`FlockPath`] on entity `path` (Reynolds' path following, see
/// [`follow_path`]): no force while the boid's predicted position is in the corridor and
/// further along in `params.direction`, else seek a point further along. A path entity that
/// is gone or invalid gives no force (and a warning, once).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct FollowPath {
    /// The entity holding the [`FlockPath`].
    #[entities]
    pub path: Entity,
    /// Prediction time, look-ahead and direction.
    pub params: PathFollowParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

impl FollowPath {
    /// Follow `path` forwards with the default prediction and look-ahead, at weight 1.
    pub fn new(path: Entity) -> Self {
        Self {
            path,
            params: PathFollowParams::default(),
            weight: 1.0,
        }
    }
}

/// The validated paths, rebuilt when their [`FlockPath`] changes.
#[derive(Default)]
pub(crate) struct PathCache(EntityHashMap<Option<Polyline>>);

pub(crate) fn follow_paths(
    settings: Res<ActiveFlockSettings>,
    paths: Query<(Entity, Ref<FlockPath>)>,
    mut cache: Local<PathCache>,
    mut reported: Local<ReportedOnce>,
    mut followers: Steerers<FollowPath>,
) {
    cache.0.retain(|entity, _| paths.contains(*entity));
    for (entity, path) in &paths {
        if path.is_changed() || !cache.0.contains_key(&entity) {
            let polyline = path
                .polyline()
                .inspect_err(|error| warn!("bevy_flock: the path on {entity} is ignored: {error}"))
                .ok();
            cache.0.insert(entity, polyline);
        }
    }
    add_forces(&mut followers, &settings.0.config, |entity, me, follow| {
        let path = cache.0.get(&follow.path);
        let path = reported.warn_if_missing(entity, path, || {
            format!(
                "{entity} follows {}, which has no FlockPath; no force",
                follow.path
            )
        })?;
        // An invalid path was reported when it was set.
        let path = path.as_ref()?;
        Some(follow.weight * follow_path(me, path, &follow.params))
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(FollowPath => FollowPath);
