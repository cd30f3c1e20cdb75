//! A whole crowd's ORCA step, as RVO2's `RVOSimulator::doStep` does it: every agent's new
//! velocity from the same snapshot (its nearest neighbours found in a grid), then every agent
//! moves; then, if asked, a [contact pass](ContactPass).
//!
//! The agents are split into chunks run on the caller's [`Executor`]; each chunk has its own
//! scratch and reads only the snapshot, and each agent's neighbours are ordered by distance and
//! index, so the result is the same bits for any number of threads.

use std::borrow::Borrow;

use super::agent::CrowdAgent;
use super::cells::Cells;
use super::contact::{ContactPass, ContactScratch};
use super::{OrcaAgent, OrcaNeighbour, OrcaScratch, orca_velocity_offered};
use crate::math::Vector;
use crate::parallel::{Executor, chunk_len_for};
use crate::space::{MAX_IMAGES, Space};
use crate::steering::Shape;

/// One chunk's buffers.
#[derive(Clone, Debug, Default)]
struct Chunk {
    scratch: OrcaScratch,
    /// Each agent's index and new velocity.
    velocities: Vec<(u32, Vector)>,
}

/// Buffers for stepping a crowd; a step allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct OrcaCrowd {
    cells: Cells<OrcaNeighbour>,
    chunks: Vec<Chunk>,
    velocities: Vec<Vector>,
    contact: ContactScratch,
    before: Vec<Vector>,
    scratch: OrcaScratch,
}

impl OrcaCrowd {
    /// Every agent's ORCA velocity for a step of `time_step` seconds among the others and
    /// `obstacles`, from the agents as they are (RVO2's `computeNewVelocity` for each), into
    /// [`new_velocities`](Self::new_velocities). Agents with invalid parameters avoid nobody
    /// and take no share: the others avoid them wholly, as bodies of their own size (a boid
    /// without ORCA among those with it).
    pub fn compute(
        &mut self,
        agents: &[CrowdAgent],
        obstacles: &[impl Borrow<Shape> + Sync],
        time_step: f32,
        executor: &impl Executor,
    ) {
        self.compute_in(None, agents, obstacles, time_step, executor);
    }

    /// [`compute`](Self::compute) in `space`, which may wrap: there each neighbour is seen at
    /// its nearest image.
    pub fn compute_in(
        &mut self,
        space: Option<&Space>,
        agents: &[CrowdAgent],
        obstacles: &[impl Borrow<Shape> + Sync],
        time_step: f32,
        executor: &impl Executor,
    ) {
        // Cells of half the longest reach: a query visits at most two rings around its own
        // cell, nearest first, and skips those beyond its nearest neighbours so far.
        let cell_size = agents
            .iter()
            .filter(|agent| agent.params.is_valid())
            .map(|agent| agent.params.reach())
            .fold(0.0_f32, f32::max)
            / 2.0;
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
                    // Each neighbour sees its own size (a radius that is not a number) and takes
                    // the whole avoidance.
                    (f32::NAN, 0.0)
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

        // Agents are worked out in the grid's order, so those of a chunk query the same few
        // cells (warm in the cache); each result goes back to its agent's index after.
        let order = self.cells.entries();
        let chunk_len = chunk_len_for(order.len(), executor.threads());
        let chunk_count = order.len().div_ceil(chunk_len);
        self.chunks.resize_with(chunk_count, Chunk::default);
        let cells = &self.cells;
        executor.for_each_chunk(&mut self.chunks, 1, |index, chunk| {
            let Chunk {
                scratch,
                velocities,
            } = &mut chunk[0];
            let first = index * chunk_len;
            let end = (first + chunk_len).min(order.len());
            velocities.clear();
            for entry in &order[first..end] {
                let id = entry.id as usize;
                let velocity =
                    agent_velocity(space, cells, agents, id, obstacles, time_step, scratch);
                velocities.push((id as u32, velocity));
            }
        });
        // NaN marks an agent left out of the grid (its position is not finite).
        self.velocities.clear();
        self.velocities.resize(agents.len(), Vector::NAN);
        for chunk in &self.chunks {
            for &(id, velocity) in &chunk.velocities {
                self.velocities[id as usize] = velocity;
            }
        }
        let scratch = &mut self.scratch;
        for (id, velocity) in self.velocities.iter_mut().enumerate() {
            if velocity.is_nan() {
                *velocity = agent_velocity(space, cells, agents, id, obstacles, time_step, scratch);
            }
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

/// Agent `id`'s ORCA velocity among the others in `cells` (seen across the seams of a wrapping
/// `space`).
fn agent_velocity(
    space: Option<&Space>,
    cells: &Cells<OrcaNeighbour>,
    agents: &[CrowdAgent],
    id: usize,
    obstacles: &[impl Borrow<Shape>],
    time_step: f32,
    scratch: &mut OrcaScratch,
) -> Vector {
    let agent = &agents[id];
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
    orca_velocity_offered(
        &me,
        |nearest| match space.filter(|space| space.periodic) {
            None => cells.nearest_first(agent.position, reach, |n| {
                nearest.offer(*n);
                nearest.range_squared()
            }),
            Some(space) => {
                let mut images = [Vector::ZERO; MAX_IMAGES];
                let count = space.query_images(agent.position, reach, &mut images);
                for image in &images[..count] {
                    // Each neighbour at its nearest image, as the index's queries see it.
                    cells.nearest_first(*image, reach, |n| {
                        nearest.offer(OrcaNeighbour {
                            position: agent.position + space.delta(agent.position, n.position),
                            ..*n
                        });
                        nearest.range_squared()
                    });
                }
            }
        },
        obstacles.iter().map(Borrow::borrow),
        &agent.params,
        time_step,
        scratch,
    )
}
