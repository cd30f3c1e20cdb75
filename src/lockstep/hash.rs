//! The flock's state hash for lockstep games (what is guaranteed: [`flock_core::lockstep`]).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use flock_core::lockstep::identified_boid_hash;

use crate::components::{Boid, Velocity};
use crate::dimension::position_of;
use crate::identity::BoidId;

/// A 64-bit hash of every boid's [`BoidId`], position and velocity, for a lockstep game to
/// exchange each tick: machines that ran the same steps from the same state with the same binary
/// get the same hash, whatever their x86-64 processor and thread count (see
/// [`flock_core::lockstep`]) and whatever else each peer put on its boids or in its world.
///
/// It reads the [`Boid`]s' [`Transform`] translations (x and y in 2D: the z a sprite is drawn
/// at is not part of the state) and [`Velocity`], and does not depend on the order the query
/// visits them in. Behaviours' own state (a wanderer's angle, a group's heading) is not in it;
/// it shows in the boids' motion a step later. One pass over the boids: read it when you need
/// it, from any system after [`FlockSystems::Edges`](crate::FlockSystems::Edges).
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::FlockStateHash;
///
/// fn send_hash(hash: FlockStateHash) {
///     let _tick_hash: u64 = hash.get();
/// }
/// # bevy::ecs::system::assert_is_system(send_hash);
/// ```
#[derive(SystemParam)]
pub struct FlockStateHash<'w, 's> {
    boids: Query<'w, 's, (&'static BoidId, &'static Transform, &'static Velocity), With<Boid>>,
}

impl FlockStateHash<'_, '_> {
    /// The hash of the boids as they are now.
    pub fn get(&self) -> u64 {
        self.boids
            .iter()
            .fold(0, |hash, (id, transform, velocity)| {
                let position = position_of(transform.translation);
                hash.wrapping_add(identified_boid_hash(id.0, position, velocity.0))
            })
    }

    /// Each boid's share of the hash, by id in ascending order: what a desynced peer compares
    /// with another's to find the first boids whose state differs.
    pub fn per_boid(&self) -> Vec<(BoidId, u64)> {
        let mut hashes: Vec<(BoidId, u64)> = (self.boids.iter())
            .map(|(id, transform, velocity)| {
                let position = position_of(transform.translation);
                (*id, identified_boid_hash(id.0, position, velocity.0))
            })
            .collect();
        hashes.sort_unstable();
        hashes
    }
}
