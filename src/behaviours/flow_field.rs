//! Flow-field following: steer by a grid of desired velocities, sampled where the boid will
//! be.

use bevy::prelude::*;
use flock_core::steering::{FlowField, follow_flow};

use crate::behaviours::steerers::{Steerers, add_forces, prioritised};
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

/// The flow field boids with [`FollowFlowField`] follow. Build it with the kernel's
/// constructors, which check their input: [`FlowField::from_fn`], [`FlowField::from_pixels`]
/// (an image) or [`FlowField::towards_goal`] (the shortest way around blocked cells).
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, PartialEq)]
pub struct FlockFlowField(pub FlowField);

/// Steer towards the [`FlockFlowField`]'s velocity (a fraction of the top speed) at the point
/// the boid will reach in `look_ahead` seconds, interpolated between cells. Without the
/// resource there is no force (reported once).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct FollowFlowField {
    /// How far ahead to sample, seconds (negative or not finite: here and now).
    pub look_ahead: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn follow_flow_field(
    settings: Res<ActiveFlockSettings>,
    field: Option<Res<FlockFlowField>>,
    mut reported_missing: Local<bool>,
    mut boids: Steerers<FollowFlowField>,
) {
    let Some(field) = field else {
        if !boids.is_empty() && !std::mem::replace(&mut *reported_missing, true) {
            warn!("bevy_flock: boids have FollowFlowField but there is no FlockFlowField resource");
        }
        return;
    };
    *reported_missing = false;
    add_forces(&mut boids, &settings.0.config, |_, me, behaviour| {
        Some(behaviour.weight * follow_flow(me, &field.0, behaviour.look_ahead))
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(FollowFlowField => FollowFlowField);
