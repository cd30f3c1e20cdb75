//! Containment: stay inside a pen (a polygon in 2D, a box in 3D) by probing ahead.

use bevy::prelude::*;
use flock_core::steering::{Enclosure, contain};

use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::steerers::{Steerers, add_forces, prioritised};
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

/// A region boids with [`StayInside`] keep to, in world coordinates (the entity's `Transform`
/// is not used): a polygon in 2D (any simple polygon, checked by `flock_core`'s
/// `Polygon::new`), a box in 3D. A pen whose box is not
/// finite and positive is reported once and holds nobody.
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct Pen(pub Enclosure);

/// Stay inside the [`Pen`] on entity `pen`: probe `look_ahead` world units ahead (and to the
/// sides) and turn back from its boundary; a boid already outside heads straight back in. A
/// despawned pen gives no force.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct StayInside {
    /// The entity with the [`Pen`].
    #[entities]
    pub pen: Entity,
    /// How far ahead to probe, world units.
    pub look_ahead: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
}

pub(crate) fn stay_inside(
    settings: Res<ActiveFlockSettings>,
    pens: Query<(Entity, &Pen)>,
    mut reported: Local<ReportedOnce>,
    mut boids: Steerers<StayInside>,
) {
    for (entity, pen) in &pens {
        reported.check(entity, pen.0.is_valid(), || {
            format!("pen {entity} is not a valid region ({:?}); ignored", pen.0)
        });
    }
    add_forces(&mut boids, &settings.0.config, |_, me, behaviour| {
        let (_, pen) = pens.get(behaviour.pen).ok()?;
        pen.0
            .is_valid()
            .then(|| behaviour.weight * contain(me, &pen.0, behaviour.look_ahead))
    });
}

// Where the forces of this file's behaviours stand in a prioritised combination.
prioritised!(StayInside => StayInside);
