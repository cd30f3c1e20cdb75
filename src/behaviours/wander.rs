//! Wander (seed 003), drawing its jitter from the plugin's seeded generator.

use bevy::prelude::*;
use flock_core::steering::{WanderParams, wander as wander_force};
use rand::RngExt;

use crate::behaviours::{MotionLimits, SteeringForce, vehicle};
use crate::components::Velocity;
use crate::rng::FlockRng;
use crate::settings::ActiveFlockSettings;

/// Wander: steer towards a point on a circle ahead, whose angle jitters each step; with a
/// home, be pulled back when farther than its radius.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct Wander {
    /// Circle, jitter and home.
    pub params: WanderParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
    /// The wandering angle now, radians: the boid's own state.
    pub angle: f32,
}

impl Default for Wander {
    fn default() -> Self {
        Self {
            params: WanderParams::default(),
            weight: 1.0,
            angle: 0.0,
        }
    }
}

pub(crate) fn wander(
    settings: Res<ActiveFlockSettings>,
    mut rng: ResMut<FlockRng>,
    mut wanderers: Query<(
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &mut Wander,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    // Query order is the same in every replay of a run, so the draws are too.
    for (transform, velocity, limits, mut behaviour, mut force) in &mut wanderers {
        let me = vehicle(transform, velocity, limits, config);
        let jitter = rng.rng().random_range(-0.5..=0.5);
        let Wander {
            params,
            weight,
            angle,
        } = &mut *behaviour;
        force.0 += *weight * wander_force(&me, angle, params, jitter);
    }
}
