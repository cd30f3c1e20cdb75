//! Seek and arrive (*The Nature of Code*'s seek; the cocos2d-x crowd demo's slow-down radius).

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Vehicle, arrive, seek};

use crate::behaviours::steerers::prioritised;
use crate::behaviours::target::{Bodies, Target, TargetBehaviour};
use crate::steering_force::SteeringForce;
prioritised!(Arrive => Arrive);

/// Steer at full speed towards a target.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(SteeringForce)]
pub struct Seek {
    /// What to seek.
    #[entities]
    pub target: Target,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

/// Seek that slows inside `slow_radius` and stops at the target. It stops without overshoot when
/// the boid can brake (a clamped speed mode or [`MotionLimits`](crate::MotionLimits)) and the
/// flock's `response_time` is at most `slow_radius / (4 max_speed)`, as with the default of one
/// frame.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(SteeringForce)]
pub struct Arrive {
    /// Where to stop.
    #[entities]
    pub target: Target,
    /// The distance at which it starts to slow down.
    pub slow_radius: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
    /// The speed it wants to arrive at, world units per second, if not its max speed: the cocos2d-x
    /// crowd demo seeks at a node's `_speed` and caps the velocity at its `_maxSpeed`, two numbers.
    /// A speed that is not finite and positive counts as `None`.
    pub speed: Option<f32>,
}

impl TargetBehaviour for Seek {
    fn force(&self, me: &Vehicle, bodies: &Bodies) -> Option<Vector> {
        let (target, _) = self.target.locate(bodies)?;
        Some(self.weight * seek(me, target))
    }
}

impl TargetBehaviour for Arrive {
    fn force(&self, me: &Vehicle, bodies: &Bodies) -> Option<Vector> {
        let (target, _) = self.target.locate(bodies)?;
        let me = match self.speed {
            Some(speed) if speed.is_finite() && speed > 0.0 => Vehicle {
                max_speed: speed,
                ..*me
            },
            _ => *me,
        };
        Some(self.weight * arrive(&me, target, self.slow_radius.max(0.0)))
    }
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(Seek => Seek);
