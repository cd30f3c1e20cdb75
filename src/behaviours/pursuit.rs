//! Pursue and evade: seek or flee where a moving entity will be.

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Vehicle, evade, pursue};

use crate::behaviours::steerers::prioritised;
use crate::behaviours::target::{Bodies, Target, TargetBehaviour};
use crate::steering_force::SteeringForce;
prioritised!(Evade => Evade);

/// Seek where `target` will be, predicted from its velocity over the time to reach it, at most
/// `max_look_ahead` seconds. A despawned target gives no force.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct Pursue {
    /// The quarry.
    #[entities]
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
    #[entities]
    pub threat: Entity,
    /// The longest prediction, seconds.
    pub max_look_ahead: f32,
    /// How near the threat must be to be evaded.
    pub radius: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

impl TargetBehaviour for Pursue {
    fn force(&self, me: &Vehicle, bodies: &Bodies) -> Option<Vector> {
        let (target, velocity) = Target::Entity(self.target).locate(bodies)?;
        let look_ahead = self.max_look_ahead.max(0.0);
        Some(self.weight * pursue(me, target, velocity, look_ahead))
    }
}

impl TargetBehaviour for Evade {
    fn force(&self, me: &Vehicle, bodies: &Bodies) -> Option<Vector> {
        let (threat, velocity) = Target::Entity(self.threat).locate(bodies)?;
        let look_ahead = self.max_look_ahead.max(0.0);
        Some(self.weight * evade(me, threat, velocity, look_ahead, self.radius))
    }
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(Pursue => Pursue);
