//! Offset pursuit: keep to a point fixed in another entity's frame (escorts, wingmen).

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::offset_pursue;

use crate::behaviours::frame::frame_of;
use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::target::Bodies;
use crate::behaviours::{MotionLimits, SteeringForce, vehicle};
use crate::components::Velocity;
use crate::settings::ActiveFlockSettings;

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
    bodies: Bodies,
    mut reported: Local<ReportedOnce>,
    mut escorts: Query<(
        Entity,
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &OffsetPursuit,
        &mut SteeringForce,
    )>,
) {
    let config = &settings.0.config;
    for (entity, transform, velocity, limits, pursuit, mut sum) in &mut escorts {
        let Some(target) = frame_of(&bodies, pursuit.target) else {
            reported.warn(entity, || {
                format!(
                    "{entity} escorts {}, which is gone; no force",
                    pursuit.target
                )
            });
            continue;
        };
        reported.clear(entity);
        let me = vehicle(transform, velocity, limits, config);
        sum.0 += pursuit.weight
            * offset_pursue(
                &me,
                &target,
                pursuit.offset,
                pursuit.slow_radius,
                pursuit.max_look_ahead,
            );
    }
}
