//! Warnings logged once per entity, until the entity is fine again: for behaviours whose
//! other entity (a path, a leader, a formation) is missing or invalid.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

/// The entities already warned about.
#[derive(Default)]
pub(crate) struct ReportedOnce(EntityHashSet);

impl ReportedOnce {
    /// Logs `message` as a warning unless `entity` was already reported.
    pub(crate) fn warn(&mut self, entity: Entity, message: impl FnOnce() -> String) {
        if self.0.insert(entity) {
            warn!("bevy_flock: {}", message());
        }
    }

    /// `entity` is fine again: a later problem is reported anew.
    pub(crate) fn clear(&mut self, entity: Entity) {
        self.0.remove(&entity);
    }
}
