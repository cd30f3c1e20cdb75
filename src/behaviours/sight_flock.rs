//! The ActionScript flocking tutorial's own flocking rules as a behaviour, for comparison with the
//! kernel's Reynolds rules (the field-of-view example switches between them).

use bevy::prelude::*;
use flock_core::steering::{SightParams, sight_flock};

use crate::behaviours::steerers::{Steerers, add_forces, prioritised};
use crate::settings::ActiveFlockSettings;
use crate::steer::Nearby;
use crate::steering_force::SteeringForce;

/// Flock as the ActionScript flocking tutorial's `flock()` does: over every other boid in sight
/// (within `params.in_sight` and not behind), seek their average position, steer by their average
/// velocity minus its own (the average starting from its own velocity, as written), and flee each
/// one closer than `params.too_close`. The sum joins the boid's other behaviours, truncated once to
/// the max force. Give the boid zero flocking weights to see these rules alone. Distances are plain
/// (not across a wrapping seam), as in the tutorial.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct SightFlock {
    /// The sight and too-close distances.
    pub params: SightParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn flock_in_sight(
    settings: Res<ActiveFlockSettings>,
    mut nearby: Nearby,
    mut boids: Steerers<SightFlock>,
) {
    add_forces(&mut boids, &settings.0.config, |entity, me, behaviour| {
        let others = nearby.others(entity, me.position, behaviour.params.in_sight);
        Some(behaviour.weight * sight_flock(me, others, &behaviour.params))
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(SightFlock => SightFlock);
