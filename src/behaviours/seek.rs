//! Seek and arrive (seed 000's seek; seed 003's slow-down radius).

use bevy::prelude::*;
use flock_core::steering::{arrive, seek};

use crate::behaviours::target::{Bodies, Target};
use crate::behaviours::{MotionLimits, SteeringForce, vehicle};
use crate::components::Velocity;
use crate::settings::ActiveFlockSettings;

/// Steer at full speed towards a target.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(SteeringForce)]
pub struct Seek {
    /// What to seek.
    pub target: Target,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

/// Seek that slows inside `slow_radius` and stops at the target. It stops without overshoot
/// when the boid can brake (a clamped speed mode or [`MotionLimits`]) and the flock's
/// `response_time` is at most `slow_radius / (4 max_speed)`, as with the default of one frame.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(SteeringForce)]
pub struct Arrive {
    /// Where to stop.
    pub target: Target,
    /// The distance at which it starts to slow down.
    pub slow_radius: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn seek_targets(
    settings: Res<ActiveFlockSettings>,
    bodies: Bodies,
    mut seekers: Query<(
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &Seek,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    for (transform, velocity, limits, behaviour, mut force) in &mut seekers {
        if let Some((target, _)) = behaviour.target.locate(&bodies) {
            let me = vehicle(transform, velocity, limits, config);
            force.0 += behaviour.weight * seek(&me, target);
        }
    }
}

pub(crate) fn arrive_at_targets(
    settings: Res<ActiveFlockSettings>,
    bodies: Bodies,
    mut arrivers: Query<(
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &Arrive,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    for (transform, velocity, limits, behaviour, mut force) in &mut arrivers {
        if let Some((target, _)) = behaviour.target.locate(&bodies) {
            let me = vehicle(transform, velocity, limits, config);
            force.0 += behaviour.weight * arrive(&me, target, behaviour.slow_radius.max(0.0));
        }
    }
}
