//! Pursue and evade: seek or flee where a moving entity will be.

use bevy::prelude::*;
use flock_core::steering::{evade, pursue};

use crate::behaviours::target::{Bodies, Target};
use crate::behaviours::{MotionLimits, SteeringForce, vehicle};
use crate::components::Velocity;
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
    mut pursuers: Query<(
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &Pursue,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    for (transform, velocity, limits, behaviour, mut force) in &mut pursuers {
        if let Some((target, target_velocity)) = Target::Entity(behaviour.target).locate(&bodies) {
            let me = vehicle(transform, velocity, limits, config);
            let look_ahead = behaviour.max_look_ahead.max(0.0);
            force.0 += behaviour.weight * pursue(&me, target, target_velocity, look_ahead);
        }
    }
}

pub(crate) fn evade_threats(
    settings: Res<ActiveFlockSettings>,
    bodies: Bodies,
    mut evaders: Query<(
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &Evade,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    for (transform, velocity, limits, behaviour, mut force) in &mut evaders {
        if let Some((threat, threat_velocity)) = Target::Entity(behaviour.threat).locate(&bodies) {
            let me = vehicle(transform, velocity, limits, config);
            let look_ahead = behaviour.max_look_ahead.max(0.0);
            force.0 += behaviour.weight
                * evade(&me, threat, threat_velocity, look_ahead, behaviour.radius);
        }
    }
}
