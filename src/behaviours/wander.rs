//! Wander (the cocos2d-x crowd demo's), each boid drawing its jitter from its own seeded
//! generator.

use bevy::prelude::*;
use flock_core::steering::{WanderParams, WanderState, wander as wander_force, wander_jitter};

use crate::behaviours::limits::MotionLimits;
use crate::behaviours::steerers::vehicle;
use crate::clock::FlockClock;
use crate::components::Velocity;
use crate::identity::BoidId;
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

/// Which of a boid's random streams ([`FlockRng::for_boid`]) wandering draws from.
const WANDER_STREAM: u64 = 1;

pub(crate) fn wander(
    settings: Res<ActiveFlockSettings>,
    rng: Res<FlockRng>,
    clock: Res<FlockClock>,
    mut wanderers: Query<(
        &BoidId,
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &mut Wander,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    let step = clock.steps_taken();
    // Each boid's draw is its own, so the query's order does not matter.
    for (id, transform, velocity, limits, mut behaviour, mut force) in &mut wanderers {
        let me = vehicle(transform, velocity, limits, config);
        let jitter = wander_jitter(&mut rng.for_boid(*id, step, WANDER_STREAM));
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
