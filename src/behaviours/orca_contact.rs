//! ORCA's contact pass in the plugin: after the boids with [`Orca`] have moved, those that
//! still overlap are parted at the position level and pushed out of obstacles.

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{ContactPass, ContactScratch, CrowdAgent};

use crate::behaviours::avoidance::Obstacle;
use crate::behaviours::limits::MotionLimits;
use crate::behaviours::orca::Orca;
use crate::behaviours::orca_obstacles::OrcaObstacleSet;
use crate::components::{Boid, Velocity};
use crate::dimension::{position_of, set_position};
use crate::parallel::compute_pool;
use crate::settings::ActiveFlockSettings;
use crate::steer::FlockBuffers;

/// ORCA's contact pass: once the boids with [`Orca`] have moved, pairs that still overlap (a
/// crowd pressed harder than its constraints can hold leaves some) are parted at the position
/// level, each pair in turn in [`BoidId`](crate::BoidId) order for a fixed number of sweeps at
/// most, and boids inside an [`Obstacle`] are put back out, as Recast's DetourCrowd does after
/// its avoidance. What the pass moves a boid joins its velocity (within its maximum speed), so
/// ORCA's next step sees boids that touch no longer closing in. Each boid's body is its ORCA
/// radius. `None` turns it off; the default ([`ContactPass::default`]) sweeps until no pair
/// overlaps by more than 1e-4, 1,000 sweeps at most, and in 2D turns half of each push
/// sideways ([`ContactPass::slip`]) so a jammed crowd circulates and clears. A wrapping world's seams are not crossed:
/// boids that touch across one are not parted.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct OrcaContact(pub Option<ContactPass>);

impl Default for OrcaContact {
    fn default() -> Self {
        Self(Some(ContactPass::default()))
    }
}

/// What the pass keeps between steps, so a step allocates nothing once grown.
#[derive(Default)]
pub(crate) struct ContactBuffers {
    /// The boids with valid ORCA parameters, by their slot in the (id-ordered) snapshot.
    boids: Vec<(usize, Entity)>,
    agents: Vec<CrowdAgent>,
    before: Vec<Vector>,
    scratch: ContactScratch,
}

/// After integration: parts the boids with [`Orca`] that overlap (see [`OrcaContact`]).
#[allow(clippy::type_complexity)]
pub(crate) fn part_orca_contacts(
    contact: Res<OrcaContact>,
    settings: Res<ActiveFlockSettings>,
    time: Res<Time>,
    snapshot: Res<FlockBuffers>,
    obstacles: Res<OrcaObstacleSet>,
    mut buffers: Local<ContactBuffers>,
    mut boids: Query<
        (
            Entity,
            &mut Transform,
            &mut Velocity,
            Option<&MotionLimits>,
            &Orca,
        ),
        (With<Boid>, Without<Obstacle>),
    >,
) {
    let Some(pass) = contact.0.filter(ContactPass::is_valid) else {
        return;
    };
    let dt = time.delta_secs();
    if !(dt.is_normal() && dt > 0.0) {
        return;
    }
    let config = &settings.0.config;
    let ContactBuffers {
        boids: order,
        agents,
        before,
        scratch,
    } = &mut *buffers;
    // In id order, whatever order the query visits them in: the pass is Gauss-Seidel, so its
    // result depends on the order it parts pairs in.
    order.clear();
    order.extend(
        (boids.iter())
            .filter(|(.., orca)| orca.params.is_valid())
            .filter_map(|(entity, ..)| snapshot.slot_of(entity).map(|slot| (slot, entity))),
    );
    if order.is_empty() {
        return;
    }
    order.sort_unstable();
    agents.clear();
    for &(_, entity) in order.iter() {
        let Ok((_, transform, velocity, limits, orca)) = boids.get(entity) else {
            continue;
        };
        agents.push(CrowdAgent {
            position: position_of(transform.translation),
            velocity: velocity.0,
            preferred_velocity: velocity.0,
            max_speed: MotionLimits::or_flock(limits, config).max_speed,
            params: orca.params,
        });
    }
    before.clear();
    before.extend(agents.iter().map(|agent| agent.position));
    // The pairs and each boid's nearby obstacles are found on the compute pool (the same
    // lists for any number of threads); the sweeps part them in order.
    pass.separate_on(&compute_pool(), agents, &obstacles.0, scratch);
    for ((&(_, entity), agent), &was) in order.iter().zip(agents.iter()).zip(before.iter()) {
        if agent.position == was {
            continue;
        }
        let Ok((_, mut transform, mut velocity, ..)) = boids.get_mut(entity) else {
            continue;
        };
        let pushed = velocity.0 + (agent.position - was) / dt;
        if agent.position.is_finite() && pushed.is_finite() {
            set_position(&mut transform.translation, agent.position);
            velocity.0 = pushed.clamp_length_max(agent.max_speed.max(0.0));
        }
    }
}
