//! Several flocks in one world: species ([`Species`](crate::Species)) flock only with their own
//! kind, and hunts between kinds make prey flee predators and predators pursue the nearest prey.

use bevy::prelude::*;
use flock_core::Space;
use flock_core::Vector;
use flock_core::steering::{Vehicle, flee_all, pursue};

use crate::behaviours::limits::MotionLimits;
use crate::settings::ActiveFlockSettings;
use crate::steer::FlockBuffers;
use crate::steering_force::{SteeringForce, SteeringPriority};

/// One kind hunting another: prey flee every predator within `flee_radius`, and each predator
/// pursues the nearest prey within `chase_radius`.
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Debug, PartialEq)]
pub struct Hunt {
    /// The hunting species.
    pub predator: u32,
    /// The hunted species.
    pub prey: u32,
    /// How near a predator must be for prey to flee.
    pub flee_radius: f32,
    /// The weight of fleeing in the prey's sum.
    pub flee_weight: f32,
    /// How near prey must be to be chased.
    pub chase_radius: f32,
    /// The weight of pursuit in the predator's sum.
    pub chase_weight: f32,
    /// The longest pursuit prediction, seconds.
    pub max_look_ahead: f32,
}

/// The hunts between species; empty by default (species only keep apart).
#[derive(Resource, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Resource, Debug, PartialEq, Default)]
pub struct SpeciesRelations {
    /// Every predator-prey pair.
    pub hunts: Vec<Hunt>,
}

pub(crate) fn hunt_and_escape(
    settings: Res<ActiveFlockSettings>,
    relations: Res<SpeciesRelations>,
    buffers: Res<FlockBuffers>,
    mut candidates: Local<Vec<u32>>,
    mut boids: Query<(Option<&MotionLimits>, &mut SteeringForce)>,
) {
    if relations.hunts.is_empty() {
        return;
    }
    let config = &settings.0.config;
    let space = Space::of(config);
    let (positions, velocities, species) =
        (buffers.positions(), buffers.velocities(), buffers.species());
    for (boid, &entity) in buffers.entities().iter().enumerate() {
        let kind = species[boid];
        let Ok((limits, mut force)) = boids.get_mut(entity) else {
            continue;
        };
        let me = Vehicle {
            position: positions[boid],
            velocity: velocities[boid],
            max_speed: MotionLimits::or_flock(limits, config).max_speed,
            response_time: config.response_time,
        };
        // Where another boid appears from here: across the seam if that is nearer.
        let here = me.position;
        let seen = |other: usize| here + space.delta(here, positions[other]);
        for hunt in &relations.hunts {
            if kind == hunt.prey {
                let threats = buffers
                    .candidates_where(here, hunt.flee_radius, &mut candidates, |other| {
                        species[other] == hunt.predator
                    })
                    .map(seen);
                force.add(
                    SteeringPriority::Escape,
                    hunt.flee_weight * flee_all(&me, threats, hunt.flee_radius),
                );
            }
            if kind == hunt.predator {
                let nearest = buffers
                    .candidates_where(here, hunt.chase_radius, &mut candidates, |other| {
                        species[other] == hunt.prey
                    })
                    .map(|other| (seen(other), velocities[other]))
                    .filter(|(at, _)| at.distance_squared(me.position) < hunt.chase_radius.powi(2))
                    .min_by(|a, b| {
                        let distance =
                            |(at, _): &(Vector, Vector)| at.distance_squared(me.position);
                        distance(a).total_cmp(&distance(b))
                    });
                if let Some((at, velocity)) = nearest {
                    let look_ahead = hunt.max_look_ahead.max(0.0);
                    force.add(
                        SteeringPriority::Chase,
                        hunt.chase_weight * pursue(&me, at, velocity, look_ahead),
                    );
                }
            }
        }
    }
}
