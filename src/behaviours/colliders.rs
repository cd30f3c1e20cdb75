//! Avoidance of avian colliders (feature `avian`): a game's level geometry, whatever its
//! shapes, steers its flocks, found through avian's own spatial queries.

use avian::math::Dir;
use avian::prelude::{Collider, LayerMask, ShapeCastConfig, SpatialQuery, SpatialQueryFilter};
use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Vehicle, dodge, escape};

use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::steerers::{Steerers, vehicle};
use crate::settings::ActiveFlockSettings;
use crate::steering_force::{SteeringForce, SteeringPriority};

/// Steer around avian colliders in the path, as [`AvoidObstacles`](crate::AvoidObstacles)
/// steers around [`Obstacle`](crate::Obstacle)s: a ball `clearance` in radius is cast
/// `look_ahead` along the heading (avian's `SpatialQuery::cast_shape`); the first collider it
/// meets pushes the boid sideways, away from the point it hit and harder the nearer it is
/// (the kernel's [`dodge`]); a collider the boid is inside pushes it straight out
/// ([`escape`]).
///
/// Only colliders on `layers` count (avian's `CollisionLayers`; all of them by default), and
/// never the boid's own. Needs avian's `PhysicsPlugins` (its spatial queries read the collider
/// tree they keep); without them, or with a look-ahead or clearance that is not finite and
/// positive, or a weight that is not finite, the boid gets no force and a warning, once.
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::avian::prelude::{Collider, PhysicsPlugins};
/// use bevy_flock::prelude::*;
///
/// // The app: `DefaultPlugins` (or `MinimalPlugins` and an `AssetPlugin`),
/// // `PhysicsPlugins::default()` and `BoidsPlugin::default()`.
/// fn level(mut commands: Commands) {
///     // A pillar of the level: any avian collider, on any layer the boids' mask has.
///     commands.spawn((Collider::capsule(20.0, 300.0), Transform::from_xyz(200.0, 0.0, 0.0)));
///     // A boid that looks 120 units ahead and keeps 10 units from colliders.
///     commands.spawn((Boid, Velocity(Vector::X * 100.0), AvoidColliders::new(120.0, 10.0)));
/// }
/// # let _ = (level, PhysicsPlugins::default());
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct AvoidColliders {
    /// How far ahead to look.
    pub look_ahead: f32,
    /// Room to leave beside a collider: the radius of the ball cast ahead.
    pub clearance: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
    /// The collision layers whose colliders are avoided.
    pub layers: LayerMask,
}

impl AvoidColliders {
    /// Avoid every collider within `look_ahead`, leaving `clearance`, at weight 1.
    pub fn new(look_ahead: f32, clearance: f32) -> Self {
        Self {
            look_ahead,
            clearance,
            weight: 1.0,
            layers: LayerMask::ALL,
        }
    }

    /// The same, counting only colliders on `layers`.
    pub fn with_layers(self, layers: impl Into<LayerMask>) -> Self {
        Self {
            layers: layers.into(),
            ..self
        }
    }

    /// Whether its numbers can steer: a finite, positive look-ahead and clearance and a finite
    /// weight.
    pub fn is_valid(&self) -> bool {
        let positive = |value: f32| value.is_finite() && value > 0.0;
        positive(self.look_ahead) && positive(self.clearance) && self.weight.is_finite()
    }
}

/// A ball of this dimension: the shape cast ahead.
fn ball_collider(radius: f32) -> Collider {
    #[cfg(not(flock_3d))]
    {
        Collider::circle(radius)
    }
    #[cfg(flock_3d)]
    {
        Collider::sphere(radius)
    }
}

pub(crate) fn avoid_colliders(
    settings: Res<ActiveFlockSettings>,
    spatial: Option<SpatialQuery>,
    // The last ball cast and its radius, kept while boids share a clearance (a collider is an
    // `Arc`'d shape, not made afresh per boid).
    mut last_ball: Local<Option<(f32, Collider)>>,
    mut reported: Local<ReportedOnce>,
    mut boids: Steerers<AvoidColliders>,
) {
    let config = &settings.0.config;
    for (entity, transform, velocity, limits, avoid, mut sum) in &mut boids {
        let Some(spatial) = &spatial else {
            reported.warn(entity, || {
                format!(
                    "{entity} has AvoidColliders, but avian's spatial queries are missing \
                     (add avian's PhysicsPlugins); it avoids no colliders"
                )
            });
            continue;
        };
        if !avoid.is_valid() {
            reported.warn(entity, || {
                format!(
                    "{entity} has invalid AvoidColliders {avoid:?} (look_ahead and clearance \
                     must be finite and positive, weight finite); it avoids no colliders"
                )
            });
            continue;
        }
        reported.clear(entity);
        let ball = match &mut *last_ball {
            Some((radius, ball)) if *radius == avoid.clearance => &*ball,
            slot => {
                &slot
                    .insert((avoid.clearance, ball_collider(avoid.clearance)))
                    .1
            }
        };
        let me = vehicle(transform, velocity, limits, config);
        let filter = SpatialQueryFilter::from_mask(avoid.layers).with_excluded_entities([entity]);
        let force = collider_force(spatial, &me, ball, avoid, &filter);
        if force.is_finite() {
            sum.add(SteeringPriority::AvoidColliders, avoid.weight * force);
        }
    }
}

/// The push from the first collider on the boid's path, or out of the one it is inside.
fn collider_force(
    spatial: &SpatialQuery,
    me: &Vehicle,
    ball: &Collider,
    avoid: &AvoidColliders,
    filter: &SpatialQueryFilter,
) -> Vector {
    let Ok(heading) = Dir::new(me.velocity) else {
        // At rest: only a collider it is inside can push it.
        return way_out(spatial, me, filter).map_or(Vector::ZERO, |out| escape(me, out));
    };
    let config = ShapeCastConfig::from_max_distance(avoid.look_ahead);
    let rotation = Default::default();
    let Some(hit) = spatial.cast_shape(ball, me.position, rotation, heading, &config, filter)
    else {
        return Vector::ZERO;
    };
    // A hit where the cast starts: within the clearance, or inside.
    if hit.distance == 0.0
        && let Some(out) = way_out(spatial, me, filter)
    {
        return escape(me, out);
    }
    dodge(me, hit.distance, hit.point1, avoid.look_ahead)
}

/// The direction out of the collider the boid is inside (to the nearest point of its
/// boundary), or `None` when it is inside none.
fn way_out(spatial: &SpatialQuery, me: &Vehicle, filter: &SpatialQueryFilter) -> Option<Vector> {
    // A solid projection of a point inside a collider is the point itself, so it finds the
    // collider the boid is in; a hollow one onto that collider finds the way out.
    let inside = spatial.project_point(me.position, true, filter)?;
    if !inside.is_inside {
        return None;
    }
    let boundary = spatial.project_point_predicate(me.position, false, filter, &|entity| {
        entity == inside.entity
    })?;
    let out = boundary.point - me.position;
    Some(out.try_normalize().unwrap_or(-me.heading()))
}
