//! The flock's system sets, in the order they run, and the registration of reflected types the
//! plugins share.

use bevy::prelude::*;

/// Registers each of `types` for reflection (the inspector's and the scene format's):
/// `register_types! { app => Boid, Velocity }`.
macro_rules! register_types {
    ($app:expr => $($type:ty),* $(,)?) => {
        $($app.register_type::<$type>();)*
    };
}
pub(crate) use register_types;

/// The flock's systems, in the order they run (chained) in the plugin's schedule
/// (`FixedUpdate` unless chosen otherwise with [`FlockPlugins::new`](crate::FlockPlugins::new)).
/// They run only on ticks where the [`FlockClock`](crate::FlockClock) is not paused. Order your
/// own systems around them:
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn gravity(mut boids: Query<&mut Acceleration, With<Boid>>) {
///     for mut acceleration in &mut boids {
///         acceleration.y -= 9.8;
///     }
/// }
///
/// App::new().add_systems(
///     FixedUpdate,
///     gravity.after(FlockSystems::Steer).before(FlockSystems::Integrate),
/// );
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlockSystems {
    /// Copies every boid's position, velocity and weights into contiguous buffers.
    Snapshot,
    /// Rebuilds the neighbour index over the snapshot.
    Index,
    /// Computes each boid's flocking force from the snapshot and adds it, divided by mass, to
    /// its [`Acceleration`](crate::Acceleration). Add your own forces after this set.
    Steer,
    /// Steering behaviours ([`Seek`](crate::Seek), [`Wander`](crate::Wander), groups, species
    /// and the rest) add their combined force to [`Acceleration`](crate::Acceleration), in the
    /// order of the sets of [`BehaviourSystems`](crate::BehaviourSystems) (with
    /// [`FlockBehavioursPlugin`](crate::FlockBehavioursPlugin)).
    Behaviours,
    /// Velocity from acceleration, speed limits, position from velocity; resets acceleration.
    Integrate,
    /// Wraps or bounces boids at the bounds.
    Edges,
    /// Turns each boid's transform to face its velocity.
    TransformSync,
}
