//! Optimal reciprocal collision avoidance (ORCA) as a component: the boid's other behaviours say
//! where it wants to go, ORCA picks the nearest velocity that avoids its neighbours and the
//! obstacles, and the boid takes it.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use flock_core::Space;
use flock_core::Vector;
use flock_core::steering::{
    OrcaAgent, OrcaNeighbour, OrcaParams, OrcaScratch, Shape, orca_velocity,
};

use crate::behaviours::avoidance::Obstacle;
use crate::behaviours::limits::MotionLimits;
use crate::behaviours::reported::ReportedOnce;
use crate::components::{Acceleration, Velocity};
use crate::dimension::position_of;
use crate::settings::ActiveFlockSettings;
use crate::steer::Nearby;

/// Optimal reciprocal collision avoidance (van den Berg, Guy, Lin and Manocha, "Reciprocal
/// n-Body Collision Avoidance", 2011; RVO2's ORCA): each step, the velocity the boid's flocking
/// rules and behaviours ask for (its velocity plus this step's acceleration, limited to its
/// maximum speed) is replaced by the nearest one that avoids every neighbour for
/// `params.time_horizon` seconds (each boid with `Orca` taking its share) and every
/// [`Obstacle`] for `params.obstacle_time_horizon`. Boids without `Orca` are avoided as bodies of
/// this boid's radius that do not avoid back.
///
/// Named for the method, as crowd libraries name it; [`AvoidCollisions`](crate::prelude::AvoidCollisions)
/// is Reynolds' predictive steering, cheaper and softer. Neighbours come from the flock's index
/// (within `params.neighbour_distance`), every boid is computed from the same snapshot, and the
/// result does not depend on the index or on the order boids are visited. Parameters that are
/// not valid ([`OrcaParams::is_valid`]) are reported once and steer nobody.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq)]
pub struct Orca {
    /// Radius, horizons, neighbours and share of the avoidance.
    pub params: OrcaParams,
}

/// What a boid with [`Orca`] brings to its neighbours' programs this step.
#[derive(Clone, Copy, Debug)]
struct Agent {
    radius: f32,
    share: f32,
    preferred: Vector,
    max_speed: f32,
}

/// What the system keeps between steps: buffers, so a step allocates nothing once grown.
#[derive(Default)]
pub(crate) struct OrcaBuffers {
    agents: EntityHashMap<Agent>,
    shapes: Vec<Shape>,
    scratch: OrcaScratch,
    accelerations: Vec<(Entity, Vector)>,
}

/// After the behaviours are combined: every boid with [`Orca`] gets the acceleration that takes
/// it to its ORCA velocity in this step.
#[allow(clippy::type_complexity)]
pub(crate) fn avoid_agents(
    settings: Res<ActiveFlockSettings>,
    time: Res<Time>,
    obstacles: Query<(&Transform, &Obstacle)>,
    mut nearby: Nearby,
    mut reported: Local<ReportedOnce>,
    mut buffers: Local<OrcaBuffers>,
    mut boids: Query<(
        Entity,
        &Transform,
        &Velocity,
        &mut Acceleration,
        Option<&MotionLimits>,
        &Orca,
    )>,
) {
    let dt = time.delta_secs();
    if boids.is_empty() || dt.is_nan() || dt <= 0.0 {
        return;
    }
    let config = &settings.0.config;
    let space = Space::of(config);
    let OrcaBuffers {
        agents,
        shapes,
        scratch,
        accelerations,
    } = &mut *buffers;

    // What every boid wants, before any of them is changed.
    agents.clear();
    for (entity, _, velocity, acceleration, limits, orca) in &boids {
        let params = &orca.params;
        let valid = reported.check(entity, params.is_valid(), || {
            format!(
                "{entity} has invalid Orca params {params:?} (radius, horizons and \
                 responsibility must be finite and positive, neighbour distance and clearance \
                 finite and not negative); it avoids nobody"
            )
        });
        if !valid {
            continue;
        }
        let max_speed = MotionLimits::or_flock(limits, config).max_speed;
        let preferred = (velocity.0 + acceleration.0 * dt).clamp_length_max(max_speed);
        agents.insert(
            entity,
            Agent {
                radius: params.radius,
                share: params.share(preferred, max_speed),
                preferred,
                max_speed,
            },
        );
    }

    shapes.clear();
    shapes.extend(
        obstacles
            .iter()
            .map(|(transform, obstacle)| obstacle.at(transform)),
    );

    accelerations.clear();
    for (entity, transform, velocity, _, _, orca) in &boids {
        let Some(me) = agents.get(&entity) else {
            continue;
        };
        let params = &orca.params;
        let position = position_of(transform.translation);
        let neighbours = nearby
            .others_with_entities(entity, position, params.neighbour_distance)
            .map(|(other, other_position, other_velocity)| {
                let (radius, share) = agents
                    .get(&other)
                    .map_or((params.radius, 0.0), |agent| (agent.radius, agent.share));
                OrcaNeighbour {
                    // Positions wrap in a periodic world: each neighbour at its nearest image.
                    position: position + space.delta(position, other_position),
                    velocity: other_velocity,
                    radius,
                    share,
                    id: other.to_bits(),
                }
            });
        let agent = OrcaAgent {
            position,
            velocity: velocity.0,
            preferred_velocity: me.preferred,
            max_speed: me.max_speed,
            id: entity.to_bits(),
        };
        let new_velocity = orca_velocity(&agent, neighbours, shapes.iter(), params, dt, scratch);
        accelerations.push((entity, (new_velocity - velocity.0) / dt));
    }

    for &(entity, new_acceleration) in accelerations.iter() {
        if let Ok((_, _, _, mut acceleration, _, _)) = boids.get_mut(entity) {
            acceleration.0 = new_acceleration;
        }
    }
}
