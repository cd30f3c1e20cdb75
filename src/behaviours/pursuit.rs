//! Pursue and evade: seek or flee where a moving entity will be.

use bevy::prelude::*;
use flock_core::steering::{evade, pursue};

use crate::behaviours::target::{Bodies, Target};
use crate::behaviours::{Steerers, SteeringForce, add_forces};
use crate::settings::ActiveFlockSettings;

/// Seek where `target` will be, predicted from its velocity over the time to reach it, at most
/// `max_look_ahead` seconds. A despawned target gives no force.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct Pursue {
    /// The quarry.
    pub target: Entity,
    /// The longest prediction, seconds.
    pub max_look_ahead: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

/// Flee where `threat` will be, while it is closer than `radius`.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct Evade {
    /// The hunter.
    pub threat: Entity,
    /// The longest prediction, seconds.
    pub max_look_ahead: f32,
    /// How near the threat must be to be evaded.
    pub radius: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn pursue_targets(
    settings: Res<ActiveFlockSettings>,
    bodies: Bodies,
    mut pursuers: Steerers<Pursue>,
) {
    add_forces(&mut pursuers, &settings.0.config, |me, behaviour| {
        let (target, velocity) = Target::Entity(behaviour.target).locate(&bodies)?;
        let look_ahead = behaviour.max_look_ahead.max(0.0);
        Some(behaviour.weight * pursue(me, target, velocity, look_ahead))
    });
}

pub(crate) fn evade_threats(
    settings: Res<ActiveFlockSettings>,
    bodies: Bodies,
    mut evaders: Steerers<Evade>,
) {
    add_forces(&mut evaders, &settings.0.config, |me, behaviour| {
        let (threat, velocity) = Target::Entity(behaviour.threat).locate(&bodies)?;
        let look_ahead = behaviour.max_look_ahead.max(0.0);
        Some(behaviour.weight * evade(me, threat, velocity, look_ahead, behaviour.radius))
    });
}
