//! The frame of another entity (a leader, a pursuit's target, a formation's anchor): where it
//! is, how it moves and which way it heads.

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::Frame;

use crate::behaviours::target::Bodies;
use crate::dimension::{facing_of, position_of};

/// The frame of `entity`, or `None` if it is gone. It heads along its velocity while it moves,
/// else the way its rotation faces (a boid at rest keeps facing the way it last moved).
pub(crate) fn frame_of(bodies: &Bodies, entity: Entity) -> Option<Frame> {
    let (transform, velocity) = bodies.get(entity).ok()?;
    let velocity = velocity.map_or(Vector::ZERO, |velocity| velocity.0);
    let heading = velocity
        .try_normalize()
        .unwrap_or_else(|| facing_of(transform.rotation));
    Some(Frame {
        position: position_of(transform.translation),
        velocity,
        heading,
    })
}
