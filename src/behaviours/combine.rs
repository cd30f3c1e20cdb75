//! The sum of a boid's behaviour forces, and its combination into an acceleration.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use flock_core::steering::combine;

use crate::behaviours::MotionLimits;
use crate::components::{Acceleration, SteeringForce};
use crate::settings::ActiveFlockSettings;

/// The cocos2d-x crowd demo's combination: truncate the sum to the maximum force, divide by mass,
/// add to the acceleration. A sum that is not finite (a behaviour given NaN) is dropped and
/// reported once per boid, so a bad number never reaches a velocity.
pub(crate) fn combine_steering(
    settings: Res<ActiveFlockSettings>,
    mut reported: Local<EntityHashSet>,
    mut boids: Query<(
        Entity,
        &mut SteeringForce,
        &mut Acceleration,
        Option<&MotionLimits>,
    )>,
) {
    let config = &settings.0.config;
    for (entity, mut force, mut acceleration, limits) in &mut boids {
        // Invalid limits are reported by `report_invalid_limits`.
        let limits = MotionLimits::or_flock(limits, config);
        let sum = std::mem::take(&mut force.0);
        if !sum.is_finite() {
            if reported.insert(entity) {
                warn!("bevy_flock: {entity}'s steering force is not finite ({sum}); ignored");
            }
            continue;
        }
        acceleration.0 += combine(sum, limits.max_force, limits.mass);
    }
}
