//! Sending one of several boids or groups with the mouse: Tab selects the next, a click on the
//! world sends the selected one there.

use std::marker::PhantomData;

use bevy::prelude::*;
use bevy_flock::ClickToSpawn;
use bevy_flock::flock_core::Vector;

use super::{Shortcuts, WorldClicks};

/// The entities a click can send, and which of them it sends now.
#[derive(Resource)]
pub struct Selection {
    /// In the order Tab goes through them.
    pub entities: Vec<Entity>,
    /// The index of the selected one.
    pub current: usize,
}

impl Selection {
    /// The first of `entities` selected.
    pub fn new(entities: Vec<Entity>) -> Self {
        Self {
            entities,
            current: 0,
        }
    }

    /// The selected entity.
    pub fn selected(&self) -> Entity {
        self.entities[self.current]
    }

    /// Each entity, and whether it is the selected one.
    pub fn each(&self) -> impl Iterator<Item = (Entity, bool)> + '_ {
        (self.entities.iter().enumerate()).map(|(i, &entity)| (entity, i == self.current))
    }
}

/// What a click sends somewhere: the selected entity's component that holds where it goes.
pub trait ClickTarget: Component<Mutability = bevy::ecs::component::Mutable> {
    /// Makes `point`, where the world was clicked, the destination.
    fn send_to(&mut self, point: Vector);
}

/// Tab selects the next entity of the [`Selection`] (which the example's setup inserts), and a
/// left click on the world sends the selected one there through its `D` (rather than adding a
/// boid: this turns [`ClickToSpawn`] off).
pub struct ClickToSend<D>(PhantomData<D>);

impl<D> Default for ClickToSend<D> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<D: ClickTarget> Plugin for ClickToSend<D> {
    fn build(&self, app: &mut App) {
        app.insert_resource(ClickToSpawn::OFF).add_systems(
            Update,
            (select_next, send_selected::<D>).run_if(resource_exists::<Selection>),
        );
    }
}

fn select_next(shortcuts: Shortcuts, mut selection: ResMut<Selection>) {
    if shortcuts.pressed(KeyCode::Tab) {
        selection.current = (selection.current + 1) % selection.entities.len();
    }
}

fn send_selected<D: ClickTarget>(
    clicks: WorldClicks,
    selection: Res<Selection>,
    mut destinations: Query<&mut D>,
) {
    if let Some(point) = clicks.left_click()
        && let Ok(mut destination) = destinations.get_mut(selection.selected())
    {
        destination.send_to(point);
    }
}
