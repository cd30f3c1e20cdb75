//! The flock's state hash for lockstep games (what is guaranteed: [`flock_core::lockstep`]).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use flock_core::lockstep::boid_hash;

use crate::components::{Boid, Velocity};
use crate::dimension::position_of;

/// A 64-bit hash of every boid's position and velocity, for a lockstep game to exchange each
/// tick: machines that ran the same steps from the same state with the same binary get the same
/// hash, whatever their x86-64 processor and thread count (see [`flock_core::lockstep`]).
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
    boids: Query<'w, 's, (&'static Transform, &'static Velocity), With<Boid>>,
}

impl FlockStateHash<'_, '_> {
    /// The hash of the boids as they are now.
    pub fn get(&self) -> u64 {
        self.boids.iter().fold(0, |hash, (transform, velocity)| {
            hash.wrapping_add(boid_hash(position_of(transform.translation), velocity.0))
        })
    }
}
