//! What the behaviours share to steer: the query of the boids that have one, the kernel's view
//! of such a boid, and adding its force under the behaviour's priority.

use bevy::prelude::*;
use flock_core::FlockConfig;
use flock_core::Vector;
use flock_core::steering::Vehicle;

use crate::behaviours::limits::MotionLimits;
use crate::components::Velocity;
use crate::dimension::position_of;
use crate::steering_force::{SteeringForce, SteeringPriority};

/// A behaviour component whose forces stand at one place in the priority order.
pub(crate) trait Prioritised: Component {
    /// Where its forces stand.
    const PRIORITY: SteeringPriority;
}

/// Puts a behaviour's forces at their place in the priority order, beside the behaviour:
/// `prioritised!(Seek => Seek);`.
macro_rules! prioritised {
    ($behaviour:ty => $priority:ident) => {
        impl $crate::behaviours::steerers::Prioritised for $behaviour {
            const PRIORITY: $crate::steering_force::SteeringPriority =
                $crate::steering_force::SteeringPriority::$priority;
        }
    };
}
pub(crate) use prioritised;

/// The kernel's view of a boid for its behaviours.
pub(crate) fn vehicle(
    transform: &Transform,
    velocity: &Velocity,
    limits: Option<&MotionLimits>,
    config: &FlockConfig,
) -> Vehicle {
    Vehicle {
        position: position_of(transform.translation),
        velocity: velocity.0,
        max_speed: MotionLimits::or_flock(limits, config).max_speed,
        response_time: config.response_time,
    }
}

/// The boids with a behaviour, read through `Behaviour` (`&B`, or `&mut B` for one that keeps
/// state), and what steering them needs (the entity, for the behaviours that tell it apart from
/// others or report it).
pub(crate) type SteererQuery<'w, 's, Behaviour> = Query<
    'w,
    's,
    (
        Entity,
        &'static Transform,
        &'static Velocity,
        Option<&'static MotionLimits>,
        Behaviour,
        &'static mut SteeringForce,
    ),
>;

/// The boids with behaviour `B`, read only.
pub(crate) type Steerers<'w, 's, B> = SteererQuery<'w, 's, &'static B>;

/// Adds each steerer's weighted behaviour force, as `force(entity, vehicle, behaviour)`
/// computes it (`None`: no force this step, e.g. a target that is gone), to its
/// [`SteeringForce`].
pub(crate) fn add_forces<B: Prioritised>(
    steerers: &mut Steerers<B>,
    config: &FlockConfig,
    mut force: impl FnMut(Entity, &Vehicle, &B) -> Option<Vector>,
) {
    for (entity, transform, velocity, limits, behaviour, mut sum) in steerers {
        let me = vehicle(transform, velocity, limits, config);
        if let Some(force) = force(entity, &me, behaviour) {
            sum.add(B::PRIORITY, force);
        }
    }
}
