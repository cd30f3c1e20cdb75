//! Prey and predators, as the predators and headless examples have them: predators keep apart
//! from each other and pursue the nearest prey; prey flee them. (No rendering here: the
//! headless example, which runs without a window, includes this file on its own.)

use bevy::prelude::*;
use bevy_flock::prelude::*;

/// The prey's species.
pub const PREY: u32 = 0;
/// The predators' species.
pub const PREDATOR: u32 = 1;

/// Prey flee predators within 120 px; predators chase the nearest prey within 300 px,
/// predicting up to a second ahead.
pub fn predators_hunt_prey() -> SpeciesRelations {
    SpeciesRelations {
        hunts: vec![Hunt {
            predator: PREDATOR,
            prey: PREY,
            flee_radius: 120.0,
            flee_weight: 3.0,
            chase_radius: 300.0,
            chase_weight: 1.0,
            max_look_ahead: 1.0,
        }],
    }
}

/// What makes a boid a predator: its species, a flocking of separation alone (the hunt moves
/// it), and a little more speed than prey have (Processing's 120 px/s), so a chase can end.
pub fn predator() -> impl Bundle {
    (
        Species(PREDATOR),
        SteeringWeights::Custom(RuleWeights {
            separation: 1.5,
            ..RuleWeights::NONE
        }),
        MotionLimits {
            max_speed: 135.0,
            max_force: 400.0,
            mass: 1.0,
        },
    )
}
