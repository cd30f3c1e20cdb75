//! Warnings logged once per entity, until the entity is fine again: for behaviours whose
//! settings or other entity (a path, a leader, a formation) are missing or invalid.

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

    /// Passes `ok` on: where it is false, logs `message` as a warning about `entity` unless
    /// already reported; where it is true, `entity` is fine again (see [`Self::clear`]).
    pub(crate) fn check(
        &mut self,
        entity: Entity,
        ok: bool,
        message: impl FnOnce() -> String,
    ) -> bool {
        if ok {
            self.clear(entity);
        } else {
            self.warn(entity, message);
        }
        ok
    }

    /// Passes `found` on, having [checked](Self::check) that it is there.
    pub(crate) fn warn_if_missing<T>(
        &mut self,
        entity: Entity,
        found: Option<T>,
        message: impl FnOnce() -> String,
    ) -> Option<T> {
        self.check(entity, found.is_some(), message);
        found
    }

    /// `entity` is fine again: a later problem is reported anew.
    pub(crate) fn clear(&mut self, entity: Entity) {
        self.0.remove(&entity);
    }
}
