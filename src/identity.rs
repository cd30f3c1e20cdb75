//! The simulation's own name for each boid, the same on every lockstep peer.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

/// A boid's id in the simulation: given in spawn order by [`BoidIds`] when the boid (or
/// anything with a [`SteeringForce`](crate::SteeringForce)) is spawned, so peers that spawn the
/// same boids in the same order give them the same ids, whatever other entities each has.
///
/// Every order the step depends on comes from it, never from [`Entity`] or the query's order
/// (which a marker component, a window's entities or a despawn change): the snapshot and each
/// neighbour cell, per-boid random numbers, tie-breaks, formation slots and time slicing's
/// turns. It is part of [`FlockStateHash`](crate::FlockStateHash).
///
/// Spawn a boid with an explicit id to restore a saved state or to mirror a peer's spawn;
/// [`BoidIds`] then continues after the largest id seen. Two boids with one id have no order
/// between them: the step warns once.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[reflect(Component, Debug, PartialEq, Default)]
#[component(on_add = assign_boid_id)]
pub struct BoidId(pub u64);

impl BoidId {
    /// Not given yet: a boid spawned without an id gets the next one when it is added.
    pub const UNASSIGNED: Self = Self(u64::MAX);
}

impl Default for BoidId {
    fn default() -> Self {
        Self::UNASSIGNED
    }
}

/// The id the next boid gets (see [`BoidId`]): part of the simulation's state, saved and
/// restored with it.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Resource, Debug, PartialEq, Default)]
pub struct BoidIds {
    next: u64,
}

impl BoidIds {
    /// Ids from `next` on.
    pub fn starting_at(next: u64) -> Self {
        Self { next }
    }

    /// The id the next boid spawned without one gets.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// Takes the next id.
    fn take(&mut self) -> BoidId {
        let id = BoidId(self.next);
        // u64::MAX is the unassigned marker; no flock spawns 2^64 boids.
        self.next = self.next.saturating_add(1).min(u64::MAX - 1);
        id
    }

    /// Continues after an id given explicitly.
    fn note(&mut self, id: BoidId) {
        self.next = self.next.max(id.0.saturating_add(1).min(u64::MAX - 1));
    }
}

/// Gives a boid spawned without an id the next one, or notes an explicit one.
fn assign_boid_id(mut world: DeferredWorld, context: HookContext) {
    let Some(&id) = world.get::<BoidId>(context.entity) else {
        return;
    };
    let Some(mut ids) = world.get_resource_mut::<BoidIds>() else {
        // Without the plugin there is no counter; the step reports boids it cannot order.
        return;
    };
    if id == BoidId::UNASSIGNED {
        let id = ids.take();
        if let Some(mut unassigned) = world.get_mut::<BoidId>(context.entity) {
            *unassigned = id;
        }
    } else {
        ids.note(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_spawn_order_and_skip_past_explicit_ones() {
        let mut world = World::new();
        world.init_resource::<BoidIds>();
        let first = world.spawn(BoidId::default()).id();
        let second = world.spawn(BoidId::default()).id();
        let explicit = world.spawn(BoidId(40)).id();
        let after = world.spawn(BoidId::default()).id();
        let id = |entity| *world.get::<BoidId>(entity).unwrap();
        assert_eq!(
            [id(first), id(second), id(explicit), id(after)],
            [BoidId(0), BoidId(1), BoidId(40), BoidId(41)]
        );
        assert_eq!(world.resource::<BoidIds>().next(), 42);
    }

    #[test]
    fn the_counter_never_hands_out_the_unassigned_marker() {
        let mut ids = BoidIds::starting_at(u64::MAX - 1);
        assert_ne!(ids.take(), BoidId::UNASSIGNED);
        assert_ne!(ids.take(), BoidId::UNASSIGNED);
        ids.note(BoidId(u64::MAX - 1));
        assert_ne!(ids.take(), BoidId::UNASSIGNED);
    }
}
