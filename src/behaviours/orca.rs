//! Optimal reciprocal collision avoidance (ORCA) as a component: the boid's other behaviours say
//! where it wants to go, ORCA picks the nearest velocity that avoids its neighbours and the
//! obstacles, and the boid takes it.

use bevy::prelude::*;
use flock_core::Space;
use flock_core::steering::{CrowdAgent, OrcaCrowd, OrcaParams};

use crate::behaviours::limits::MotionLimits;
use crate::behaviours::orca_obstacles::OrcaObstacleSet;
use crate::behaviours::reported::ReportedOnce;
use crate::components::{Acceleration, Boid, Velocity};
use crate::dimension::position_of;
use crate::parallel::compute_pool;
use crate::settings::ActiveFlockSettings;
use crate::steer::FlockBuffers;

/// Optimal reciprocal collision avoidance (van den Berg, Guy, Lin and Manocha, "Reciprocal
/// n-Body Collision Avoidance", 2011; RVO2's ORCA): each step, the velocity the boid's flocking
/// rules and behaviours ask for (its velocity plus this step's acceleration, limited to its
/// maximum speed) is replaced by the nearest one that avoids every neighbour for
/// `params.time_horizon` seconds (each boid with `Orca` taking its share) and every
/// [`Obstacle`](crate::Obstacle) for `params.obstacle_time_horizon`. Boids without `Orca` are avoided as bodies of
/// this boid's radius that do not avoid back.
///
/// Named for the method, as crowd libraries name it; [`AvoidCollisions`](crate::prelude::AvoidCollisions)
/// is Reynolds' predictive steering, cheaper and softer. The kernel's
/// [`OrcaCrowd`](flock_core::steering::OrcaCrowd) computes every boid from the step's snapshot
/// (in [`BoidId`](crate::BoidId) order), in parallel chunks on Bevy's compute task pool, each
/// boid's neighbours being the nearest `params.max_neighbours` within
/// `params.neighbour_distance` (across the seams of a wrapping world); the result is the same
/// bits for any number of threads and does not depend on the order boids are visited. A boid
/// spawned since the step's snapshot joins the crowd on the next step. Parameters that are not
/// valid ([`OrcaParams::is_valid`]) are reported once and steer nobody; values above the caps
/// ([`OrcaParams::capped`]) are reported once and count as the caps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq)]
pub struct Orca {
    /// Radius, horizons, neighbours and share of the avoidance.
    pub params: OrcaParams,
}

/// What the system keeps between steps: buffers, so a step allocates nothing once grown.
#[derive(Default)]
pub(crate) struct OrcaBuffers {
    /// Every boid of the snapshot, in its order; those without valid [`Orca`] parameters
    /// avoid nobody and are avoided as bodies.
    agents: Vec<CrowdAgent>,
    crowd: OrcaCrowd,
}

/// The parameters of a boid without [`Orca`]: not valid, so it avoids nobody and the others
/// avoid it wholly, as a body of their own size.
const NOT_AVOIDING: OrcaParams = OrcaParams {
    radius: f32::NAN,
    time_horizon: 1.0,
    obstacle_time_horizon: 1.0,
    neighbour_distance: 0.0,
    max_neighbours: 0,
    clearance: 0.0,
    responsibility: 0.5,
    yield_at_rest: false,
};

/// After the behaviours are combined: every boid with [`Orca`] gets the acceleration that takes
/// it to its ORCA velocity in this step.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub(crate) fn avoid_agents(
    settings: Res<ActiveFlockSettings>,
    time: Res<Time>,
    snapshot: Res<FlockBuffers>,
    obstacles: Res<OrcaObstacleSet>,
    mut reported: Local<ReportedOnce>,
    mut capped: Local<ReportedOnce>,
    mut buffers: Local<OrcaBuffers>,
    mut boids: Query<
        (
            Entity,
            &Transform,
            &Velocity,
            &mut Acceleration,
            Option<&MotionLimits>,
            &Orca,
        ),
        With<Boid>,
    >,
) {
    let dt = time.delta_secs();
    if dt.is_nan() || dt <= 0.0 || boids.is_empty() {
        return;
    }
    let config = &settings.0.config;
    let space = Space::of(config);
    let OrcaBuffers { agents, crowd } = &mut *buffers;

    // Every boid of the snapshot, in its (id) order, as a body that does not avoid; then those
    // with valid ORCA parameters, with what they want before any of them is changed.
    agents.clear();
    agents.extend(
        (snapshot.positions().iter().zip(snapshot.velocities())).map(|(&position, &velocity)| {
            CrowdAgent {
                position,
                velocity,
                preferred_velocity: velocity,
                max_speed: config.max_speed,
                params: NOT_AVOIDING,
            }
        }),
    );
    let mut any = false;
    for (entity, transform, velocity, acceleration, limits, orca) in &boids {
        let params = &orca.params;
        let valid = reported.check(entity, params.is_valid(), || {
            format!(
                "{entity} has invalid Orca params {params:?} (radius, horizons and \
                 responsibility must be finite, positive and not subnormal, neighbour \
                 distance and clearance finite and not negative); it avoids nobody"
            )
        });
        if let Some(note) = params.capped() {
            capped.warn(entity, || {
                format!("{entity}'s Orca params are capped: {note}")
            });
        }
        let Some(slot) = snapshot.slot_of(entity).filter(|_| valid) else {
            continue;
        };
        let max_speed = MotionLimits::or_flock(limits, config).max_speed;
        agents[slot] = CrowdAgent {
            position: position_of(transform.translation),
            velocity: velocity.0,
            preferred_velocity: (velocity.0 + acceleration.0 * dt).clamp_length_max(max_speed),
            max_speed,
            params: *params,
        };
        any = true;
    }
    if !any {
        return;
    }

    crowd.compute_in(
        Some(&space),
        agents.as_slice(),
        &obstacles.0,
        dt,
        &compute_pool(),
    );

    let (agents, new_velocities) = (&*agents, crowd.new_velocities());
    boids
        .par_iter_mut()
        .for_each(|(entity, _, velocity, mut acceleration, ..)| {
            let Some(slot) = snapshot.slot_of(entity) else {
                return;
            };
            if agents[slot].params.is_valid() {
                acceleration.0 = (new_velocities[slot] - velocity.0) / dt;
            }
        });
}
