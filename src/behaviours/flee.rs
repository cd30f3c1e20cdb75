//! Flee from one or several threats (the cocos2d-x crowd demo's flee; the ActionScript flocking
//! tutorial's `tooClose`).

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Vehicle, flee_all};

use crate::behaviours::steerers::prioritised;
use crate::behaviours::target::{Bodies, Target, TargetBehaviour};
use crate::steering_force::SteeringForce;

/// Steer at full speed away from each threat closer than `radius`; the forces of several
/// threats add up, as in the cocos2d-x crowd demo. Threats that are despawned entities are skipped.
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(SteeringForce)]
pub struct Flee {
    /// What to flee from.
    #[entities]
    pub threats: Vec<Target>,
    /// How near a threat must be to be fled from.
    pub radius: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

impl TargetBehaviour for Flee {
    fn force(&self, me: &Vehicle, bodies: &Bodies) -> Option<Vector> {
        let threats = self
            .threats
            .iter()
            .filter_map(|threat| threat.locate(bodies))
            .map(|(position, _)| position);
        Some(self.weight * flee_all(me, threats, self.radius))
    }
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(Flee => Flee);
