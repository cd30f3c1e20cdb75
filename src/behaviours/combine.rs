//! The forces of a boid's behaviours, combined into an acceleration.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use flock_core::steering::combine;

use crate::behaviours::limits::MotionLimits;
use crate::behaviours::priority::combine_by_priority;
use crate::components::Acceleration;
use crate::settings::ActiveFlockSettings;
use crate::steering_force::{SteeringCombination, SteeringForce};

/// The cocos2d-x crowd demo's combination, by default: truncate the sum to the maximum force,
/// divide by mass, add to the acceleration; or the boid's prioritised
/// [`SteeringCombination`](crate::SteeringCombination). Forces that are not finite (a behaviour
/// given NaN) are dropped and reported once per boid, so a bad number never reaches a velocity.
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
        let combination = force.combination();
        let (sum, prioritised) = force.take();
        let finite = sum.is_finite() && prioritised.iter().all(|(_, force)| force.is_finite());
        if !finite {
            if reported.insert(entity) {
                warn!(
                    "bevy_flock: {entity}'s steering force is not finite ({sum}, {prioritised:?}); ignored"
                );
            }
        } else if combination.is_prioritised() {
            let force = combine_by_priority(combination, prioritised, limits.max_force);
            acceleration.0 += force / limits.mass;
        } else {
            acceleration.0 += combine(sum, limits.max_force, limits.mass);
        }
        prioritised.clear();
    }
}

/// Starts each step's forces of the boids with a [`SteeringCombination`], before the flocking
/// force (one of the prioritised forces) is added. An invalid combination is reported once per
/// boid, and the boid takes the weighted sum until it is valid again.
pub(crate) fn start_combinations(
    mut reported: Local<EntityHashSet>,
    mut boids: Query<(Entity, &SteeringCombination, &mut SteeringForce)>,
) {
    for (entity, &combination, mut force) in &mut boids {
        match combination.problem() {
            None => {
                reported.remove(&entity);
                force.start(combination);
            }
            Some(problem) => {
                if reported.insert(entity) {
                    warn!(
                        "bevy_flock: {entity}'s SteeringCombination has {problem}; using the weighted sum"
                    );
                }
                force.start(SteeringCombination::WeightedSum);
            }
        }
    }
}
