//! Wander (the cocos2d-x crowd demo's), drawing its jitter from the plugin's seeded generator.

use bevy::prelude::*;
use flock_core::steering::{WanderParams, WanderState, wander as wander_force, wander_jitter};

use crate::behaviours::limits::MotionLimits;
use crate::behaviours::steerers::vehicle;
use crate::components::Velocity;
use crate::rng::FlockRng;
use crate::settings::ActiveFlockSettings;
use crate::steering_force::{SteeringForce, SteeringPriority};

/// Wander: steer towards a point on a circle ahead (a sphere in 3D), which jitters each step;
/// with a home, be pulled back when farther than its radius.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct Wander {
    /// Circle, jitter and home.
    pub params: WanderParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
    /// Where the wander point is now, the boid's own state: an angle in radians in 2D, a unit
    /// direction in 3D (zero starts it straight ahead).
    pub angle: WanderState,
}

impl Default for Wander {
    fn default() -> Self {
        Self {
            params: WanderParams::default(),
            weight: 1.0,
            angle: WanderState::default(),
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
        let jitter = wander_jitter(rng.rng());
        let Wander {
            params,
            weight,
            angle,
        } = &mut *behaviour;
        force.add(
            SteeringPriority::Wander,
            *weight * wander_force(&me, angle, params, jitter),
        );
    }
}
