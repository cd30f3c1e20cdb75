//! Key presses and clicks that reach the scene: those the tuning panel did not take.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_flock::flock_core::Vector;
use bevy_flock::{CursorWorldPosition, FlockClock, UiWantsInput};

/// This frame's key presses, less those typed into the panel.
#[derive(SystemParam)]
pub struct Shortcuts<'w> {
    keys: Res<'w, ButtonInput<KeyCode>>,
    ui: Res<'w, UiWantsInput>,
}

impl Shortcuts<'_> {
    /// Whether `key` was pressed this frame, and not into the panel.
    pub fn pressed(&self, key: KeyCode) -> bool {
        self.keys.just_pressed(key) && !self.ui.keyboard
    }
}

/// This frame's left click on the world, less clicks on the panel.
#[derive(SystemParam)]
pub struct WorldClicks<'w> {
    buttons: Res<'w, ButtonInput<MouseButton>>,
    cursor: Res<'w, CursorWorldPosition>,
    ui: Res<'w, UiWantsInput>,
}

impl WorldClicks<'_> {
    /// Where the left button was clicked this frame, when that was on the world (in 3D: where
    /// the pointer's ray meets the ground).
    pub fn left_click(&self) -> Option<Vector> {
        let clicked = self.buttons.just_pressed(MouseButton::Left) && !self.ui.pointer;
        self.cursor.0.filter(|_| clicked)
    }
}

/// Space pauses the flock, and resumes it.
pub fn pause_on_space(shortcuts: Shortcuts, mut clock: ResMut<FlockClock>) {
    if shortcuts.pressed(KeyCode::Space) {
        clock.toggle_pause();
    }
}

/// N steps the flock once while it is paused.
pub fn step_on_n(shortcuts: Shortcuts, mut clock: ResMut<FlockClock>) {
    if shortcuts.pressed(KeyCode::KeyN) {
        clock.step_once();
    }
}
