//! A whole crowd's ORCA step, as RVO2's `RVOSimulator::doStep` does it: every agent's new
//! velocity from the same snapshot (its nearest neighbours found in a grid), then every agent
//! moves; then, if asked, a [contact pass](ContactPass).
//!
//! The agents are split into chunks run on the caller's [`Executor`]; each chunk has its own
//! scratch and reads only the snapshot, and each agent's neighbours are ordered by distance and
//! index, so the result is the same bits for any number of threads. Each agent's search starts
//! within a little more than where its nearest were the step before, and looks again over its
//! whole reach when fewer than it wants lie there: the same neighbours as a search from scratch. The contact pass finds its
//! pairs on the same executor, with the same guarantee.

use super::agent::CrowdAgent;
use super::cells::Cells;
use super::contact::{ContactPass, ContactScratch};
use super::nearest_keys::{Candidate, NearestKeys};
use super::obstacles::{AsOrcaObstacles, OrcaObstacles};
use super::{OrcaAgent, OrcaNeighbour, OrcaScratch, orca_velocity_among};
use crate::math::Vector;
use crate::parallel::{Executor, chunk_len_for};
use crate::prefetch::prefetch;
use crate::space::{MAX_IMAGES, Space};

/// How many agents ahead of the one being worked out its record is fetched.
const PREFETCH_AHEAD: usize = 4;

/// One chunk's buffers.
#[derive(Clone, Debug, Default)]
struct Chunk {
    scratch: OrcaScratch,
    /// The neighbour selection's keys (see [`NearestKeys`]).
    kept: Vec<u64>,
    /// Each agent's index, new velocity and the squared distance to its farthest neighbour
    /// (see [`OrcaCrowd::farthest`]).
    velocities: Vec<(u32, Vector, f32)>,
}

/// Buffers for stepping a crowd; a step allocates nothing once they have grown.
#[derive(Clone, Debug, Default)]
pub struct OrcaCrowd {
    cells: Cells<Candidate>,
    /// Each agent as a neighbour, by id.
    others: Vec<OrcaNeighbour>,
    chunks: Vec<Chunk>,
    velocities: Vec<Vector>,
    contact: ContactScratch,
    before: Vec<Vector>,
    /// The buffers of the agents left out of the grid, worked out after the chunks.
    scratch: OrcaScratch,
    kept: Vec<u64>,
    /// The obstacles built from the shapes given, while they stay the same.
    obstacles: OrcaObstacles,
    /// Each agent's (by id) squared distance to the farthest of the neighbours it chose in the
    /// last step, or infinity if it found fewer than it may choose: near where the next step's
    /// search may stop looking (see [`search_range`]).
    farthest: Vec<f32>,
}

impl OrcaCrowd {
    /// Every agent's ORCA velocity for a step of `time_step` seconds among the others and
    /// `obstacles` (an [`OrcaObstacles`] built once; or shapes, built into the one the crowd
    /// keeps, again only when they change: see [`AsOrcaObstacles`]), from the agents as they
    /// are (RVO2's `computeNewVelocity` for each), into
    /// [`new_velocities`](Self::new_velocities). Agents with invalid parameters avoid nobody
    /// and take no share: the others avoid them wholly, as bodies of their own size (a boid
    /// without ORCA among those with it).
    pub fn compute(
        &mut self,
        agents: &[CrowdAgent],
        obstacles: impl AsOrcaObstacles,
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
        obstacles: impl AsOrcaObstacles,
        time_step: f32,
        executor: &impl Executor,
    ) {
        let mut kept = std::mem::take(&mut self.obstacles);
        obstacles.with_orca_obstacles(&mut kept, |obstacles| {
            self.compute_among(space, agents, obstacles, time_step, executor);
        });
        self.obstacles = kept;
    }

    /// [`compute_in`](Self::compute_in) with the obstacles built.
    fn compute_among(
        &mut self,
        space: Option<&Space>,
        agents: &[CrowdAgent],
        obstacles: &OrcaObstacles,
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
        // An agent whose position or velocity is not a number is nobody's neighbour: it stays
        // out of the grid (and its own velocity, zero, comes after).
        self.cells.build(
            cell_size,
            agents.iter().enumerate().map(|(index, agent)| {
                let position = if joins_grid(agent) {
                    agent.position
                } else {
                    Vector::NAN
                };
                let candidate = Candidate {
                    position: agent.position,
                    id: index as u32,
                };
                (position, candidate)
            }),
        );
        self.others.clear();
        self.others
            .extend((0..agents.len()).map(|index| as_neighbour(agents, index as u32)));

        // Agents are worked out in the grid's order, so those of a chunk query the same few
        // cells (warm in the cache); each result goes back to its agent's index after.
        let order = self.cells.entries();
        let chunk_len = chunk_len_for(order.len(), executor.threads());
        let chunk_count = order.len().div_ceil(chunk_len);
        self.chunks.resize_with(chunk_count, Chunk::default);
        let grid = Grid {
            space: space.filter(|space| space.periodic),
            cells: &self.cells,
            others: &self.others,
            agents,
            obstacles,
            time_step,
        };
        let farthest = &self.farthest;
        executor.for_each_chunk(&mut self.chunks, 1, |index, chunk| {
            let Chunk {
                scratch,
                kept,
                velocities,
            } = &mut chunk[0];
            let first = index * chunk_len;
            let end = (first + chunk_len).min(order.len());
            velocities.clear();
            let agents_of = &order[first..end];
            for (at, candidate) in agents_of.iter().enumerate() {
                // The agents come in the grid's order, not the slice's: each one's record (and
                // its farthest neighbour's distance) is fetched a few agents ahead, while the
                // ones before it are worked out.
                if let Some(ahead) = agents_of.get(at + PREFETCH_AHEAD) {
                    prefetch(&agents[ahead.id as usize]);
                    if let Some(last) = farthest.get(ahead.id as usize) {
                        prefetch(last);
                    }
                }
                let id = candidate.id as usize;
                let last = farthest.get(id).copied().unwrap_or(f32::INFINITY);
                let (velocity, farthest) = grid.velocity(id, scratch, kept, last);
                velocities.push((id as u32, velocity, farthest));
            }
        });
        // NaN marks an agent left out of the grid.
        self.velocities.clear();
        self.velocities.resize(agents.len(), Vector::NAN);
        self.farthest.clear();
        self.farthest.resize(agents.len(), f32::INFINITY);
        for chunk in &self.chunks {
            for &(id, velocity, farthest) in &chunk.velocities {
                self.velocities[id as usize] = velocity;
                self.farthest[id as usize] = farthest;
            }
        }
        let (scratch, kept) = (&mut self.scratch, &mut self.kept);
        for (id, velocity) in self.velocities.iter_mut().enumerate() {
            if velocity.is_nan() {
                (*velocity, _) = grid.velocity(id, scratch, kept, f32::INFINITY);
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
        obstacles: impl AsOrcaObstacles,
        time_step: f32,
        contact: Option<&ContactPass>,
        executor: &impl Executor,
    ) {
        let mut kept = std::mem::take(&mut self.obstacles);
        obstacles.with_orca_obstacles(&mut kept, |obstacles| {
            self.step_among(agents, obstacles, time_step, contact, executor);
        });
        self.obstacles = kept;
    }

    /// [`step`](Self::step) with the obstacles built.
    fn step_among(
        &mut self,
        agents: &mut [CrowdAgent],
        obstacles: &OrcaObstacles,
        time_step: f32,
        contact: Option<&ContactPass>,
        executor: &impl Executor,
    ) {
        self.compute_among(None, agents, obstacles, time_step, executor);
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
            contact.separate_on(executor, agents, obstacles, &mut self.contact);
            for (agent, before) in agents.iter_mut().zip(&self.before) {
                let velocity = agent.velocity + (agent.position - *before) / time_step;
                if velocity.is_finite() {
                    agent.velocity = velocity.clamp_length_max(agent.max_speed.max(0.0));
                }
            }
        }
    }
}

/// Agent `index` as its neighbours see it. Agents with invalid parameters take no share, and
/// each neighbour sees them at its own size (a radius that is not a number).
fn as_neighbour(agents: &[CrowdAgent], index: u32) -> OrcaNeighbour {
    let agent = &agents[index as usize];
    let params = &agent.params;
    let (radius, share) = if params.is_valid() {
        let preferred = if agent.preferred_velocity.is_finite() {
            agent.preferred_velocity.clamp_length_max(agent.max_speed)
        } else {
            Vector::ZERO
        };
        (params.radius, params.share(preferred, agent.max_speed))
    } else {
        (f32::NAN, 0.0)
    };
    OrcaNeighbour {
        position: agent.position,
        velocity: agent.velocity,
        radius,
        share,
        id: u64::from(index),
    }
}

/// Whether an agent is in the grid, so a neighbour to the others: where it is and where it goes
/// are numbers.
fn joins_grid(agent: &CrowdAgent) -> bool {
    agent.position.is_finite() && agent.velocity.is_finite()
}

/// Where an agent's neighbour search may stop looking, squared: as far as its farthest
/// neighbour was last step (squared, `last_farthest`), and as far again as two agents at its
/// maximum speed close in on each other in a step. Agents move little in a step, so its nearest
/// are then most often within it; where they are not, the search is made again over the whole
/// reach (see [`NearestKeys::narrow`]).
fn search_range(last_farthest: f32, max_speed: f32, time_step: f32) -> f32 {
    let range = last_farthest.sqrt() + 2.0 * max_speed * time_step;
    range * range
}

/// A step's agents in their grid, for the neighbour search, and what else their velocities
/// depend on.
struct Grid<'a> {
    /// The space, where it wraps.
    space: Option<&'a Space>,
    cells: &'a Cells<Candidate>,
    /// The agents as neighbours, by id.
    others: &'a [OrcaNeighbour],
    agents: &'a [CrowdAgent],
    obstacles: &'a OrcaObstacles,
    time_step: f32,
}

impl Grid<'_> {
    /// Agent `id`'s ORCA velocity among the others (seen across the seams of a wrapping space),
    /// and the squared distance to the farthest neighbour it chose (infinity if it chose fewer
    /// than it may), given that of its last step (see [`search_range`]).
    fn velocity(
        &self,
        id: usize,
        scratch: &mut OrcaScratch,
        kept: &mut Vec<u64>,
        last_farthest: f32,
    ) -> (Vector, f32) {
        let agent = &self.agents[id];
        let me = OrcaAgent {
            position: agent.position,
            velocity: agent.velocity,
            preferred_velocity: agent.preferred_velocity,
            max_speed: agent.max_speed,
            id: id as u64,
        };
        let params = &agent.params;
        let position = agent.position;
        // The neighbour's position as the agent sees it: across the seams, its nearest image.
        let seen = |other: Vector| match self.space {
            None => other,
            Some(space) => position + space.delta(position, other),
        };
        let mut farthest = f32::INFINITY;
        let velocity = orca_velocity_among(
            &me,
            |nearest| {
                // Called only for valid parameters.
                let reach = params.reach();
                let mut images = [Vector::ZERO; MAX_IMAGES];
                let count = match self.space {
                    None => {
                        images[0] = position;
                        1
                    }
                    Some(space) => space.query_images(position, reach, &mut images),
                };
                let capacity = params.neighbour_cap();
                let mut keys = NearestKeys::new(id as u32, reach, capacity, count > 1, kept);
                keys.narrow(search_range(last_farthest, me.max_speed, self.time_step));
                let search = |keys: &mut NearestKeys<'_>| {
                    // Where the range was narrowed, so are the cells looked in (a little wider
                    // than its rounded root).
                    let range = match keys.range_squared() {
                        narrowed if narrowed < reach * reach => narrowed.sqrt().next_up(),
                        _ => reach,
                    };
                    for image in &images[..count] {
                        self.cells.nearest_first(*image, range, |_, run| {
                            // Each candidate is measured by the offset to it (to its nearest
                            // image across the seams), and its record is fetched as it is
                            // offered: those chosen are read right after the search, by id,
                            // in an order no cache predicts.
                            let others = self.others;
                            match self.space {
                                None => keys.offer_run(run, |other| {
                                    prefetch(&others[other.id as usize]);
                                    other.position - position
                                }),
                                Some(space) => keys.offer_run(run, |other| {
                                    prefetch(&others[other.id as usize]);
                                    space.delta(position, other.position)
                                }),
                            }
                            keys.range_squared()
                        });
                    }
                };
                search(&mut keys);
                if !keys.finish() {
                    keys.widen();
                    search(&mut keys);
                    keys.finish();
                }
                nearest.extend(keys.chosen().map(|(distance_squared, id)| {
                    let neighbour = &self.others[id as usize];
                    let position = seen(neighbour.position);
                    (
                        distance_squared,
                        OrcaNeighbour {
                            position,
                            ..*neighbour
                        },
                    )
                }));
                farthest = match nearest.last() {
                    Some(&(distance_squared, _)) if nearest.len() >= capacity => distance_squared,
                    None if capacity == 0 => 0.0,
                    _ => f32::INFINITY,
                };
            },
            self.obstacles,
            params,
            self.time_step,
            scratch,
        );
        (velocity, farthest)
    }
}
