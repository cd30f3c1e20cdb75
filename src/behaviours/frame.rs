//! The frame of another entity (a leader, a pursuit's target, a formation's anchor): where it
//! is, how it moves and which way it heads.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::Frame;

use crate::behaviours::reported::ReportedOnce;
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

/// The frames of the entities that boids steer by (leaders, escorted targets), and the boids
/// already warned that theirs is gone.
#[derive(SystemParam)]
pub(crate) struct OtherFrames<'w, 's> {
    bodies: Bodies<'w, 's>,
    reported: Local<'s, ReportedOnce>,
}

impl OtherFrames<'_, '_> {
    /// The frame of `other`, which `boid` steers by (`how`: "escorts", for one); where `other`
    /// is gone, `None`, and a warning, once, that `boid` gets no force.
    pub(crate) fn of(&mut self, boid: Entity, other: Entity, how: &str) -> Option<Frame> {
        let frame = frame_of(&self.bodies, other);
        self.reported.warn_if_missing(boid, frame, || {
            format!("{boid} {how} {other}, which is gone; no force")
        })
    }
}
