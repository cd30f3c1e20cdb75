//! Snapshot, index and steer: from boid entities to flocking forces, each boid flocking with
//! its own [`Species`].

use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use flock_core::{
    AnyIndex, Executor, ForceInputs, NeighbourIndex, NeighbourStats, RuleWeights, StepConstants,
    Vector,
};

use crate::components::{Acceleration, Boid, Species, SteeringWeights, Velocity};
use crate::dimension::position_of;
use crate::identity::BoidId;
use crate::parallel::compute_pool;
use crate::settings::ActiveFlockSettings;
use crate::steering_force::{SteeringCombination, SteeringForce, SteeringPriority};

/// The contiguous buffers one step works on: a snapshot of every boid in [`BoidId`] order, the
/// neighbour index built over it, and the forces computed from it. Kept between steps so
/// nothing is reallocated once the flock stops growing.
///
/// The order is the ids', never the query's: a component one peer adds to some boids moves
/// them to another table and changes the query's order, and each cell of the grid keeps the
/// snapshot's order, so the sums would be added in another order and the flock would diverge.
#[derive(Resource, Default, Debug)]
pub struct FlockBuffers {
    ids: Vec<BoidId>,
    entities: Vec<Entity>,
    positions: Vec<Vector>,
    velocities: Vec<Vector>,
    weights: Vec<RuleWeights>,
    species: Vec<u32>,
    forces: Vec<Vector>,
    index: AnyIndex,
    /// One flock per species when the snapshot holds more than one; empty otherwise.
    by_species: Vec<SpeciesFlock>,
    /// Each boid's place in the snapshot, by entity index (`u32::MAX` or stale for others:
    /// `entities` confirms a match), so the forces can be written back in parallel.
    slot_of_entity: Vec<u32>,
    /// What putting the query's order into id order needs, kept between steps.
    reorder: Reorder,
    stats: NeighbourStats,
    timings: StepTimings,
}

/// The permutation from the query's order to id order, and spare columns to apply it into.
#[derive(Debug, Default)]
struct Reorder {
    /// The ids in the query's order when `order` was found: while the query visits the boids
    /// the same way, `order` is still right.
    query_ids: Vec<BoidId>,
    /// The query's slots in id order.
    order: Vec<u32>,
    spare_ids: Vec<BoidId>,
    spare_entities: Vec<Entity>,
    spare_vectors: Vec<Vector>,
    spare_weights: Vec<RuleWeights>,
    spare_species: Vec<u32>,
    reported_duplicates: bool,
}

/// The boids of one species, gathered so they flock only with their own kind: their own
/// buffers and index, and where each sits in the full snapshot.
#[derive(Debug, Default)]
struct SpeciesFlock {
    species: u32,
    members: Vec<usize>,
    positions: Vec<Vector>,
    velocities: Vec<Vector>,
    weights: Vec<RuleWeights>,
    forces: Vec<Vector>,
    index: AnyIndex,
}

/// How long the parts of the last step took (wall clock).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTimings {
    /// Rebuilding the neighbour index.
    pub index: Duration,
    /// Computing every boid's force.
    pub steer: Duration,
}

impl FlockBuffers {
    /// The ids of the last snapshot's boids, ascending: the buffers' order.
    pub fn ids(&self) -> &[BoidId] {
        &self.ids
    }

    /// The boids of the last snapshot, in buffer order.
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// Their positions at the snapshot.
    pub fn positions(&self) -> &[Vector] {
        &self.positions
    }

    /// Their velocities at the snapshot.
    pub fn velocities(&self) -> &[Vector] {
        &self.velocities
    }

    /// Their species at the snapshot ([`Species`], 0 for boids without one).
    pub fn species(&self) -> &[u32] {
        &self.species
    }

    /// The flocking forces of the last step, in buffer order.
    pub fn forces(&self) -> &[Vector] {
        &self.forces
    }

    /// Where `entity`'s boid is in the last snapshot, if it is in it.
    pub(crate) fn slot_of(&self, entity: Entity) -> Option<usize> {
        let &slot = self.slot_of_entity.get(entity.index_u32() as usize)?;
        (self.entities.get(slot as usize) == Some(&entity)).then_some(slot as usize)
    }

    /// The neighbour index of the last step, over every boid of every species.
    pub fn index(&self) -> &AnyIndex {
        &self.index
    }

    /// The boids that `keep` accepts among the index's candidates within `radius` of `point` (a
    /// candidate may be farther), found into `candidates`.
    pub(crate) fn candidates_where<'a>(
        &'a self,
        point: Vector,
        radius: f32,
        candidates: &'a mut Vec<u32>,
        keep: impl Fn(usize) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        self.index.candidates(point, radius, candidates);
        candidates
            .iter()
            .map(|&other| other as usize)
            .filter(move |&other| keep(other))
    }

    /// Neighbours and candidates of the last step, summed over boids.
    pub fn stats(&self) -> NeighbourStats {
        self.stats
    }

    /// How long the last step's index build and steering took.
    pub fn timings(&self) -> StepTimings {
        self.timings
    }
}

/// The boids near a point, for behaviours that look at their neighbours: the neighbour index
/// over the last snapshot, and room for a query's candidates.
#[derive(SystemParam)]
pub(crate) struct Nearby<'w, 's> {
    buffers: Res<'w, FlockBuffers>,
    candidates: Local<'s, Vec<u32>>,
}

impl Nearby<'_, '_> {
    /// The position and velocity at the snapshot of each boid other than `entity` among the
    /// index's candidates within `radius` of `point` (a candidate may be farther).
    pub(crate) fn others(
        &mut self,
        entity: Entity,
        point: Vector,
        radius: f32,
    ) -> impl Iterator<Item = (Vector, Vector)> {
        let buffers = &*self.buffers;
        let is_other =
            move |other: usize| (buffers.entities.get(other)).is_some_and(|&boid| boid != entity);
        buffers
            .candidates_where(point, radius, &mut self.candidates, is_other)
            .map(|other| (buffers.positions[other], buffers.velocities[other]))
    }
}

/// The boids a snapshot copies, in the query's order.
type SnapshotQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static BoidId,
        &'static Transform,
        &'static Velocity,
        &'static SteeringWeights,
        Option<&'static Species>,
    ),
    With<Boid>,
>;

/// One thread's share of a snapshot: the buffers' slots from `first` on.
struct SnapshotPart<'a> {
    first: usize,
    ids: &'a mut [BoidId],
    entities: &'a mut [Entity],
    positions: &'a mut [Vector],
    velocities: &'a mut [Vector],
    weights: &'a mut [RuleWeights],
    species: &'a mut [u32],
}

/// [`FlockSystems::Snapshot`](crate::FlockSystems::Snapshot): copies every boid into the buffers,
/// in the query's order, one part per thread, then puts them in id order.
pub(crate) fn snapshot_boids(
    mut buffers: ResMut<FlockBuffers>,
    settings: Res<ActiveFlockSettings>,
    boids: SnapshotQuery,
) {
    let buffers = &mut *buffers;
    // Exact: the query's filter only picks archetypes.
    let count = boids.iter().len();
    buffers.ids.resize(count, BoidId::UNASSIGNED);
    buffers.entities.resize(count, Entity::PLACEHOLDER);
    buffers.positions.resize(count, Vector::ZERO);
    buffers.velocities.resize(count, Vector::ZERO);
    buffers.weights.resize(count, RuleWeights::default());
    buffers.species.resize(count, 0);

    // Each part walks the query from its own first boid, so every boid lands in the slot the
    // query's order gives it, whatever the number of threads. One part per thread keeps the
    // boids skipped on the way (cheap: nothing of theirs is copied) few.
    let executor = compute_pool();
    let part_len = count.div_ceil(executor.threads()).max(1);
    let mut parts: Vec<SnapshotPart> = buffers
        .ids
        .chunks_mut(part_len)
        .zip(buffers.entities.chunks_mut(part_len))
        .zip(buffers.positions.chunks_mut(part_len))
        .zip(buffers.velocities.chunks_mut(part_len))
        .zip(buffers.weights.chunks_mut(part_len))
        .zip(buffers.species.chunks_mut(part_len))
        .enumerate()
        .map(
            |(part, (((((ids, entities), positions), velocities), weights), species))| {
                SnapshotPart {
                    first: part * part_len,
                    ids,
                    entities,
                    positions,
                    velocities,
                    weights,
                    species,
                }
            },
        )
        .collect();
    let default_weights = settings.0.config.weights;
    executor.for_each_chunk(&mut parts, 1, |_, parts| {
        for part in parts {
            let boids = boids.iter().skip(part.first).take(part.entities.len());
            for (slot, (entity, id, transform, velocity, weights, species)) in boids.enumerate() {
                part.ids[slot] = *id;
                part.entities[slot] = entity;
                part.positions[slot] = position_of(transform.translation);
                part.velocities[slot] = velocity.0;
                part.weights[slot] = weights.resolve(&default_weights);
                part.species[slot] = species.map_or(0, |species| species.0);
            }
        }
    });
    // The parts borrow the buffers.
    drop(parts);
    buffers.put_in_id_order();

    // Where each entity's boid is, for writing the forces back.
    let last_index = buffers
        .entities
        .iter()
        .map(|entity| entity.index_u32())
        .max();
    if let Some(last_index) = last_index
        && last_index as usize >= buffers.slot_of_entity.len()
    {
        buffers
            .slot_of_entity
            .resize(last_index as usize + 1, u32::MAX);
    }
    for (slot, entity) in buffers.entities.iter().enumerate() {
        buffers.slot_of_entity[entity.index_u32() as usize] = slot as u32;
    }
    buffers.split_by_species();
}

impl FlockBuffers {
    /// Reorders the snapshot, taken in the query's order, by id. Free when the query already
    /// visits the boids in id order (one table, spawned in order); otherwise one sort when the
    /// query's order changes and one gather per step.
    fn put_in_id_order(&mut self) {
        if self.ids.is_sorted_by(|a, b| a < b) {
            return;
        }
        let reorder = &mut self.reorder;
        if reorder.query_ids != self.ids {
            reorder.query_ids.clone_from(&self.ids);
            reorder.order.clear();
            reorder.order.extend(0..self.ids.len() as u32);
            // Stable and fast on runs: each table's boids are already in id order.
            let ids = &self.ids;
            reorder.order.sort_by_key(|&slot| ids[slot as usize]);
            let duplicate = (reorder.order.windows(2))
                .find(|pair| ids[pair[0] as usize] == ids[pair[1] as usize]);
            if let Some(pair) = duplicate
                && !std::mem::replace(&mut reorder.reported_duplicates, true)
            {
                warn!(
                    "bevy_flock: two boids share {:?} (spawned with an explicit id, or before \
                     the plugin was added); their order, and so a lockstep game, is not \
                     deterministic",
                    ids[pair[0] as usize]
                );
            }
        }
        let order = &reorder.order;
        gather(&mut self.ids, order, &mut reorder.spare_ids);
        gather(&mut self.entities, order, &mut reorder.spare_entities);
        gather(&mut self.positions, order, &mut reorder.spare_vectors);
        gather(&mut self.velocities, order, &mut reorder.spare_vectors);
        gather(&mut self.weights, order, &mut reorder.spare_weights);
        gather(&mut self.species, order, &mut reorder.spare_species);
    }

    /// Gathers each species into its own flock when there is more than one; a flock of one
    /// kind (the usual case) keeps the single shared path and pays nothing.
    fn split_by_species(&mut self) {
        let first = self.species.first().copied();
        if self.species.iter().all(|&species| Some(species) == first) {
            self.by_species.clear();
            return;
        }
        // The distinct species, sorted, without copying and sorting every boid's.
        let kinds: Vec<u32> = self
            .species
            .iter()
            .copied()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        // Reuse the flocks (and their indexes) of species seen last step.
        self.by_species
            .retain(|flock| kinds.binary_search(&flock.species).is_ok());
        for &kind in &kinds {
            if !self.by_species.iter().any(|flock| flock.species == kind) {
                self.by_species.push(SpeciesFlock {
                    species: kind,
                    ..SpeciesFlock::default()
                });
            }
        }
        self.by_species.sort_unstable_by_key(|flock| flock.species);
        for flock in &mut self.by_species {
            flock.members.clear();
            flock.positions.clear();
            flock.velocities.clear();
            flock.weights.clear();
        }
        for (boid, species) in self.species.iter().enumerate() {
            let slot = kinds
                .binary_search(species)
                .expect("every species has a flock");
            let flock = &mut self.by_species[slot];
            flock.members.push(boid);
            flock.positions.push(self.positions[boid]);
            flock.velocities.push(self.velocities[boid]);
            flock.weights.push(self.weights[boid]);
        }
    }
}

/// Puts `column` in `order` (a permutation of its slots), through `spare`.
fn gather<T: Copy>(column: &mut Vec<T>, order: &[u32], spare: &mut Vec<T>) {
    spare.clear();
    spare.extend(order.iter().map(|&slot| column[slot as usize]));
    std::mem::swap(column, spare);
}

/// [`FlockSystems::Index`](crate::FlockSystems::Index): rebuilds the neighbour index.
pub(crate) fn build_index(mut buffers: ResMut<FlockBuffers>, settings: Res<ActiveFlockSettings>) {
    let started = Instant::now();
    let config = &settings.0.config;
    let buffers = &mut *buffers;
    buffers.index.set_kind(config.index);
    let space = flock_core::Space::of(config);
    buffers.index.rebuild(
        &buffers.positions,
        &space,
        config.max_radius(),
        &compute_pool(),
    );
    for flock in &mut buffers.by_species {
        flock.index.set_kind(config.index);
        flock.index.rebuild(
            &flock.positions,
            &space,
            config.max_radius(),
            &compute_pool(),
        );
    }
    buffers.timings.index = started.elapsed();
}

/// [`FlockSystems::Steer`](crate::FlockSystems::Steer): every boid's flocking force from the
/// same snapshot, on Bevy's compute task pool, divided by mass and added to its
/// [`Acceleration`].
pub(crate) fn steer_boids(
    mut buffers: ResMut<FlockBuffers>,
    settings: Res<ActiveFlockSettings>,
    mut accelerations: Query<
        (Entity, &mut Acceleration),
        (With<Boid>, Without<SteeringCombination>),
    >,
    mut combining: Query<
        (Entity, &mut Acceleration, &mut SteeringForce),
        (With<Boid>, With<SteeringCombination>),
    >,
) {
    let started = Instant::now();
    let config = &settings.0.config;
    let buffers = &mut *buffers;
    buffers.forces.resize(buffers.positions.len(), Vector::ZERO);
    let constants = StepConstants::new(config);
    if buffers.by_species.is_empty() {
        buffers.stats = buffers.index.compute_forces(
            ForceInputs::new(
                &constants,
                &buffers.positions,
                &buffers.velocities,
                &buffers.weights,
            ),
            &mut buffers.forces,
            &compute_pool(),
        );
    } else {
        buffers.stats = NeighbourStats::default();
        for flock in &mut buffers.by_species {
            flock.forces.resize(flock.positions.len(), Vector::ZERO);
            let stats = flock.index.compute_forces(
                ForceInputs::new(
                    &constants,
                    &flock.positions,
                    &flock.velocities,
                    &flock.weights,
                ),
                &mut flock.forces,
                &compute_pool(),
            );
            buffers.stats.neighbours += stats.neighbours;
            buffers.stats.candidates += stats.candidates;
            for (&boid, &force) in flock.members.iter().zip(&flock.forces) {
                buffers.forces[boid] = force;
            }
        }
    }
    buffers.timings.steer = started.elapsed();

    // In parallel chunks: each boid finds its force through its entity's slot (a boid spawned
    // since the snapshot has none; one despawned is not visited).
    let buffers = &*buffers;
    let force_of = |entity: Entity| Some(buffers.forces[buffers.slot_of(entity)?]);
    let mass = config.mass;
    accelerations
        .par_iter_mut()
        .for_each(|(entity, mut acceleration)| {
            if let Some(force) = force_of(entity) {
                acceleration.0 += force / mass;
            }
        });
    // A prioritised boid's flocking force is one of its behaviour forces.
    for (entity, mut acceleration, mut steering) in &mut combining {
        let Some(force) = force_of(entity) else {
            continue;
        };
        if steering.combination().is_prioritised() {
            steering.add(SteeringPriority::Flocking, force);
        } else {
            acceleration.0 += force / mass;
        }
    }
}
