//! Queueing at a doorway: seek a door, brake for the boid just ahead, step aside when blocked;
//! the others found through the flock's neighbour index.

use bevy::prelude::*;
use flock_core::steering::{QueueParams, QueueState, queue};
use flock_core::{Space, Vector};

use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::steerers::{SteererQuery, vehicle};
use crate::settings::ActiveFlockSettings;
use crate::steer::Nearby;
use crate::steering_force::{SteeringForce, SteeringPriority};

/// Queue for `door` (Reynolds' queueing at a doorway): head for it at full speed, slow down
/// for the nearest boid ahead in the lane towards it and stop behind it, and, blocked for
/// longer than `params.patience`, step aside (see [`queue`]). Reynolds pairs this with
/// separation (the flock's rule, or [`SteeringWeights`](crate::SteeringWeights)) and with
/// avoidance of the walls round the door ([`AvoidObstacles`](crate::AvoidObstacles)). The
/// others are the flock index's candidates within `params.look_ahead`. Once through, a boid
/// still seeks the door: take the component off (or point it at the next door) to walk on.
/// Parameters that are not valid ([`QueueParams::is_valid`]) or a door that is not finite are
/// reported once and steer nobody.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct Queue {
    /// The door: a point in the world.
    pub door: Vector,
    /// How far ahead to brake, where to stop, the lane's width and the patience.
    pub params: QueueParams,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
    /// How long it has been blocked: the boid's own state.
    pub state: QueueState,
}

impl Queue {
    /// Queueing for `door` with the default parameters ([`QueueParams::default`], for bodies of
    /// radius 1) and a weight of one.
    pub fn for_door(door: Vector) -> Self {
        Self {
            door,
            params: QueueParams::default(),
            weight: 1.0,
            state: QueueState::default(),
        }
    }
}

pub(crate) fn queue_at_doors(
    settings: Res<ActiveFlockSettings>,
    time: Res<Time>,
    mut nearby: Nearby,
    mut reported: Local<ReportedOnce>,
    mut boids: SteererQuery<&mut Queue>,
) {
    let config = &settings.0.config;
    let dt = time.delta_secs();
    // Positions wrap in a periodic world: each neighbour is taken at its nearest image.
    let space = Space::of(config);
    for (entity, transform, velocity, limits, mut behaviour, mut sum) in &mut boids {
        let Queue {
            door,
            params,
            weight,
            state,
        } = &mut *behaviour;
        let valid = params.is_valid() && door.is_finite();
        let valid = reported.check(entity, valid, || {
            format!(
                "{entity} has an invalid Queue (door {door}, params {params:?}: numbers finite, \
                 the look-ahead beyond the stop distance, a lane of some width); it queues for \
                 nothing"
            )
        });
        if !valid {
            continue;
        }
        let me = vehicle(transform, velocity, limits, config);
        let others =
            nearby
                .others(entity, me.position, params.look_ahead)
                .map(|(position, velocity)| {
                    (me.position + space.delta(me.position, position), velocity)
                });
        sum.add(
            SteeringPriority::Queue,
            *weight * queue(&me, *door, others, params, state, dt),
        );
    }
}
