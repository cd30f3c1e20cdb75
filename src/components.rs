//! The components of a boid.

use bevy::prelude::*;
use flock_core::{RuleWeights, Vector};

use crate::behaviours::{SteeringCombination, SteeringPriority};

/// Marks an entity as a boid of the flock. Spawning it brings the rest: a [`Transform`] (the
/// position is its translation), [`Velocity`], [`Acceleration`] and [`SteeringWeights`].
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
#[require(Transform, Velocity, Acceleration, SteeringWeights)]
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

/// A boid's behaviour forces this step. Every behaviour component brings it; the behaviour
/// systems [`add`](Self::add) to it and [`FlockSystems::Behaviours`] ends by combining it into
/// acceleration (as the boid's [`SteeringCombination`] says: the weighted sum by default) and
/// emptying it. Systems of your own may add forces to it in that set too.
///
/// [`FlockSystems::Behaviours`]: crate::FlockSystems::Behaviours
/// [`SteeringCombination`]: crate::SteeringCombination
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct SteeringForce {
    /// The sum of the forces added, for the weighted sum.
    sum: Vector,
    /// The forces added with their priorities, for a prioritised combination.
    #[reflect(ignore)]
    prioritised: Vec<(SteeringPriority, Vector)>,
    /// How this step's forces are combined, set before the step's forces are added.
    combination: SteeringCombination,
}

impl SteeringForce {
    /// Adds the force of the behaviour at `priority` (which only a prioritised
    /// [`SteeringCombination`](crate::SteeringCombination) looks at).
    #[inline]
    pub fn add(&mut self, priority: SteeringPriority, force: Vector) {
        if self.combination.is_prioritised() {
            self.prioritised.push((priority, force));
        } else {
            self.sum += force;
        }
    }

    /// The forces added this step, summed (whatever the combination).
    pub fn sum(&self) -> Vector {
        let prioritised = self.prioritised.iter().map(|&(_, force)| force);
        prioritised.fold(self.sum, |sum, force| sum + force)
    }

    /// Drops the forces added so far and adds `force` alone at `priority`: for a way of
    /// combining that weighs every behaviour itself (context steering).
    pub(crate) fn replace(&mut self, priority: SteeringPriority, force: Vector) {
        self.sum = Vector::ZERO;
        self.prioritised.clear();
        self.add(priority, force);
    }

    /// How the forces added are combined.
    pub fn combination(&self) -> SteeringCombination {
        self.combination
    }

    /// Starts a step's forces, to be combined as `combination` says.
    pub(crate) fn start(&mut self, combination: SteeringCombination) {
        self.combination = combination;
    }

    /// The forces added, as `(sum, prioritised)`, emptied for the next step, which is a weighted
    /// sum unless started otherwise.
    pub(crate) fn take(&mut self) -> (Vector, &mut Vec<(SteeringPriority, Vector)>) {
        self.combination = SteeringCombination::WeightedSum;
        (std::mem::take(&mut self.sum), &mut self.prioritised)
    }
}
