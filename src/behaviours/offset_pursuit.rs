//! Offset pursuit: keep to a point fixed in another entity's frame (escorts, wingmen).

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::offset_pursue;

use crate::behaviours::frame::OtherFrames;
use crate::behaviours::steerers::{Steerers, add_forces, prioritised};
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

/// Pursue the point `offset` in `target`'s frame (see [`offset_pursue`]): far from it, seek
/// where it will be; within `slow_radius`, match the target's velocity and close in, so the
/// boid holds its station. The offset is given as if the target headed along +x: x ahead,
/// y to its left in 2D, y up and z to its right in 3D (`flock_core::steering::level(ahead,
/// left)` writes a point of its ground in either). A despawned target gives no force and a
/// warning, once.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct OffsetPursuit {
    /// The entity escorted.
    #[entities]
    pub target: Entity,
    /// The station, in the target's frame.
    pub offset: Vector,
    /// The distance from the station at which it starts to slow down.
    pub slow_radius: f32,
    /// The longest prediction while far from the station, seconds.
    pub max_look_ahead: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn pursue_offsets(
    settings: Res<ActiveFlockSettings>,
    mut targets: OtherFrames,
    mut escorts: Steerers<OffsetPursuit>,
) {
    add_forces(&mut escorts, &settings.0.config, |entity, me, pursuit| {
        let target = targets.of(entity, pursuit.target, "escorts")?;
        let (offset, slow_radius) = (pursuit.offset, pursuit.slow_radius);
        let force = offset_pursue(me, &target, offset, slow_radius, pursuit.max_look_ahead);
        Some(pursuit.weight * force)
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(OffsetPursuit => OffsetPursuit);
