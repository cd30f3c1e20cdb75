//! Unaligned collision avoidance: dodge the soonest predicted collision with another boid,
//! found through the flock's neighbour index.

use bevy::prelude::*;
use flock_core::Space;
use flock_core::steering::{CollisionParams, avoid_collisions as collision_force};

use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::slicing::{SlicedAnswer, SlicedSteerers, Slices, add_sliced_forces};
use crate::behaviours::steerers::prioritised;
use crate::settings::ActiveFlockSettings;
use crate::steer::Nearby;
use crate::steering_force::SteeringForce;

/// Predict when each nearby boid will pass closest and steer (or brake) to avoid the soonest
/// pass closer than `params.min_distance` within `params.horizon` seconds (Reynolds'
/// unaligned collision avoidance, for crowds that do not move together). Neighbours are the
/// flock index's candidates within reach (see [`CollisionParams::query_radius`]; the others
/// are assumed no faster than the flock's `max_speed` or this boid's own), so the cost grows
/// with the crowd's density, not its size. Parameters that are not finite and positive are
/// reported once and steer nobody. Under [`TimeSlicing`](crate::TimeSlicing), far
/// boids predict only every few steps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce, SlicedAnswer<AvoidCollisions>)]
pub struct AvoidCollisions {
    /// What counts as a collision, and how far ahead to look.
    pub params: CollisionParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn avoid_collisions(
    settings: Res<ActiveFlockSettings>,
    mut nearby: Nearby,
    mut reported: Local<ReportedOnce>,
    mut slices: Slices,
    mut boids: SlicedSteerers<AvoidCollisions>,
) {
    let config = &settings.0.config;
    let plan = slices.plan();
    // Positions wrap in a periodic world: each neighbour is taken at its nearest image.
    let space = Space::of(config);
    add_sliced_forces(&mut boids, config, &plan, |entity, me, behaviour| {
        let params = &behaviour.params;
        let valid = reported.check(entity, params.is_valid(), || {
            format!(
                "{entity} has invalid AvoidCollisions params {params:?} (both must be finite and \
                 positive); it avoids no collisions"
            )
        });
        if !valid {
            return None;
        }
        let others_speed = config.max_speed.max(me.max_speed);
        let radius = params.query_radius(me.velocity.length(), others_speed);
        let others = nearby
            .others(entity, me.position, radius)
            .map(|(position, velocity)| {
                let nearest_image = me.position + space.delta(me.position, position);
                (nearest_image, velocity)
            });
        Some(behaviour.weight * collision_force(me, others, params))
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(AvoidCollisions => AvoidCollisions);
