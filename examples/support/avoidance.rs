//! Avoidance that a key switches on and off, as the obstacles and crowds examples have it.

use bevy::ecs::query::QueryFilter;
use bevy::ecs::system::EntityCommands;
use bevy::prelude::*;

use super::Shortcuts;

/// Whether the boids avoid what the example has them avoid.
#[derive(Resource)]
pub struct Avoiding(pub bool);

/// A system in which `key` switches [`Avoiding`], and `apply(boid, on)` then switches each boid
/// that `F` selects.
pub fn switch_avoidance<F: QueryFilter + 'static>(
    key: KeyCode,
    apply: fn(&mut EntityCommands, bool),
) -> impl FnMut(Commands, Shortcuts, ResMut<Avoiding>, Query<Entity, F>) {
    move |mut commands, shortcuts, mut avoiding, boids| {
        if !shortcuts.pressed(key) {
            return;
        }
        avoiding.0 = !avoiding.0;
        for boid in &boids {
            apply(&mut commands.entity(boid), avoiding.0);
        }
    }
}
