//! The components of a boid.

use bevy::prelude::*;
use flock_core::{RuleWeights, Vector};

use crate::identity::BoidId;
use crate::steering_force::SteeringForce;

/// Marks an entity as a boid of the flock. Spawning it brings the rest: a [`Transform`] (the
/// position is its translation), [`Velocity`], [`Acceleration`], [`SteeringWeights`] and its
/// [`BoidId`].
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn spawn_one(mut commands: Commands) {
///     commands.spawn((
///         Boid,
///         Transform::from_xyz(10.0, 20.0, 0.0),
///         // `Vector` is `Vec2` in bevy_flock, `Vec3` in bevy_flock3d.
///         Velocity(Vector::X * 50.0),
///     ));
/// }
/// # bevy::ecs::system::assert_is_system(spawn_one);
/// ```
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(Transform, Velocity, Acceleration, SteeringWeights, BoidId)]
pub struct Boid;

/// A boid's velocity, world units per second: a `Vec2` in `bevy_flock`, a `Vec3` in
/// `bevy_flock3d`.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct Velocity(pub Vector);

/// The acceleration to apply in the next integration, world units per second squared.
///
/// The steering step adds the flock's force (divided by mass) to it; your own systems may add
/// more between [`FlockSystems::Steer`](crate::FlockSystems::Steer) and
/// [`FlockSystems::Integrate`](crate::FlockSystems::Integrate). Integration consumes it and resets
/// it to zero, as Processing's `acceleration.mult(0)` does.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct Acceleration(pub Vector);

/// How strongly a boid follows each flocking rule.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
pub enum SteeringWeights {
    /// Use the flock's default weights ([`FlockConfig::weights`](flock_core::FlockConfig)), and
    /// follow them when the settings change.
    #[default]
    FlockDefault,
    /// This boid's own weights. Weights [`FlockConfig::validate`](flock_core::FlockConfig)
    /// would refuse (not finite, or beyond `FlockConfig::MAX_WEIGHT`) are ignored in favour of
    /// the flock's, so one bad boid cannot spread NaN to its neighbours.
    Custom(RuleWeights),
}

impl SteeringWeights {
    /// The weights in force for this boid given the flock's defaults.
    pub fn resolve(&self, flock_default: &RuleWeights) -> RuleWeights {
        match self {
            Self::Custom(weights) if weights.validate().is_ok() => *weights,
            Self::FlockDefault | Self::Custom(_) => *flock_default,
        }
    }
}

/// Which flock a boid belongs to. Boids flock (separation, alignment, cohesion) only with boids
/// of the same species; a boid without one is species 0. To be hunted or to hunt through
/// [`SpeciesRelations`](crate::SpeciesRelations), a boid needs this component, even for
/// species 0.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
// What a hunt adds to.
#[require(SteeringForce)]
pub struct Species(pub u32);
