//! A whole crowd's ORCA step, as RVO2's `RVOSimulator::doStep` does it: every agent's new
//! velocity from the same snapshot (its nearest neighbours found in a grid), then every agent
//! moves; then, if asked, a [contact pass](ContactPass).
//!
//! The agents are split into chunks run on the caller's [`Executor`]; each chunk has its own
//! scratch and reads only the snapshot, and each agent's neighbours are ordered by distance and
//! index, so the result is the same bits for any number of threads.

use std::borrow::Borrow;

use super::cells::Cells;
use super::contact::{ContactPass, ContactScratch};
use super::{OrcaAgent, OrcaNeighbour, OrcaParams, OrcaScratch, orca_velocity_offered};
use crate::math::Vector;
use crate::parallel::{Executor, chunk_len_for};
use crate::steering::Shape;

/// One agent of a crowd: its index in the slice is its id (order the slice by a stable id).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdAgent {
    /// Where it is.
    pub position: Vector,
    /// How it moves now (the last step's ORCA velocity).
    pub velocity: Vector,
    /// How it would move with nobody around.
    pub preferred_velocity: Vector,
    /// The fastest it may go.
    pub max_speed: f32,
    /// How it avoids the others.
    pub params: OrcaParams,
}

/// One chunk's buffers.
#[derive(Clone, Debug, Default)]
struct Chunk {
    scratch: OrcaScratch,
    velocities: Vec<Vector>,
}

/// Buffers for stepping a crowd; a step allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct OrcaCrowd {
    cells: Cells<OrcaNeighbour>,
    chunks: Vec<Chunk>,
    velocities: Vec<Vector>,
    contact: ContactScratch,
    before: Vec<Vector>,
}

impl OrcaCrowd {
    /// Every agent's ORCA velocity for a step of `time_step` seconds among the others and
    /// `obstacles`, from the agents as they are (RVO2's `computeNewVelocity` for each), into
    /// [`new_velocities`](Self::new_velocities). Agents with invalid parameters avoid nobody
    /// (they are still avoided, as bodies of the avoiding agent's size that share half and half,
    /// see [`orca_velocity`](super::orca_velocity)).
    pub fn compute(
        &mut self,
        agents: &[CrowdAgent],
        obstacles: &[impl Borrow<Shape> + Sync],
        time_step: f32,
        executor: &impl Executor,
    ) {
        let cell_size = agents
            .iter()
            .filter(|agent| agent.params.is_valid())
            .map(|agent| agent.params.reach())
            .fold(0.0_f32, f32::max);
        self.cells.build(
            cell_size,
            agents.iter().enumerate().map(|(index, agent)| {
                let params = &agent.params;
                let (radius, share) = if params.is_valid() {
                    let preferred = if agent.preferred_velocity.is_finite() {
                        agent.preferred_velocity.clamp_length_max(agent.max_speed)
                    } else {
                        Vector::ZERO
                    };
                    (params.radius, params.share(preferred, agent.max_speed))
                } else {
                    // Checked by each neighbour: its own size and half and half.
                    (f32::NAN, f32::NAN)
                };
                (
                    agent.position,
                    OrcaNeighbour {
                        position: agent.position,
                        velocity: agent.velocity,
                        radius,
                        share,
                        id: index as u64,
                    },
                )
            }),
        );

        let chunk_len = chunk_len_for(agents.len(), executor.threads());
        let chunk_count = agents.len().div_ceil(chunk_len);
        self.chunks.resize_with(chunk_count, Chunk::default);
        let cells = &self.cells;
        executor.for_each_chunk(&mut self.chunks, 1, |index, chunk| {
            let Chunk {
                scratch,
                velocities,
            } = &mut chunk[0];
            let first = index * chunk_len;
            let end = (first + chunk_len).min(agents.len());
            velocities.clear();
            for (id, agent) in agents[first..end].iter().enumerate() {
                let id = first + id;
                let me = OrcaAgent {
                    position: agent.position,
                    velocity: agent.velocity,
                    preferred_velocity: agent.preferred_velocity,
                    max_speed: agent.max_speed,
                    id: id as u64,
                };
                let reach = if agent.params.is_valid() {
                    agent.params.reach()
                } else {
                    0.0
                };
                let velocity = orca_velocity_offered(
                    &me,
                    |nearest| cells.around(agent.position, reach, |n| nearest.offer(*n)),
                    obstacles.iter().map(Borrow::borrow),
                    &agent.params,
                    time_step,
                    scratch,
                );
                velocities.push(velocity);
            }
        });
        self.velocities.clear();
        for chunk in &self.chunks {
            self.velocities.extend_from_slice(&chunk.velocities);
        }
    }

    /// The velocities of the last [`compute`](Self::compute), one per agent.
    pub fn new_velocities(&self) -> &[Vector] {
        &self.velocities
    }

    /// RVO2's `doStep`: [`compute`](Self::compute), then every agent takes its new velocity and
    /// moves by it for `time_step`; then `contact`, if given, parts the agents that overlap
    /// (see [`ContactPass`]) and adds each agent's displacement by it, over the step, to its
    /// velocity (within its maximum speed).
    pub fn step(
        &mut self,
        agents: &mut [CrowdAgent],
        obstacles: &[impl Borrow<Shape> + Sync],
        time_step: f32,
        contact: Option<&ContactPass>,
        executor: &impl Executor,
    ) {
        self.compute(agents, obstacles, time_step, executor);
        if !(time_step.is_normal() && time_step > 0.0) {
            return;
        }
        for (agent, velocity) in agents.iter_mut().zip(&self.velocities) {
            agent.velocity = *velocity;
            let moved = agent.position + *velocity * time_step;
            if moved.is_finite() {
                agent.position = moved;
            }
        }
        if let Some(contact) = contact {
            // The pass's displacement joins the velocity, as position-based dynamics takes the
            // velocity from where the step ends: ORCA's next step then sees agents that touch
            // no longer closing in on each other, rather than still pressing on.
            self.before.clear();
            self.before
                .extend(agents.iter().map(|agent| agent.position));
            contact.separate(agents, obstacles, &mut self.contact);
            for (agent, before) in agents.iter_mut().zip(&self.before) {
                let velocity = agent.velocity + (agent.position - *before) / time_step;
                if velocity.is_finite() {
                    agent.velocity = velocity.clamp_length_max(agent.max_speed.max(0.0));
                }
            }
        }
    }
}
