//! Pointer input (feature `render`): where the cursor is in the world, and a click that adds a
//! boid there when the app turns it on.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use flock_core::Vector;

use crate::dimension::{WorldCamera, cursor_in_world};

use crate::spawn::{Placement, SpawnBoids};

/// Whether a click adds a boid at the cursor (as in Processing's *Flocking* ported to Unity), and
/// with which button. Off by default, so an app's clicks are its own; a demo turns it on:
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// App::new().insert_resource(ClickToSpawn::ON);
/// ```
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Resource, Debug)]
pub struct ClickToSpawn {
    /// Off: clicks are left to the app.
    pub enabled: bool,
    /// The button that spawns.
    pub button: MouseButton,
    /// The new boid's speed, as [`SpawnBoids::speed`]; `None`: the flock's max speed.
    pub speed: Option<f32>,
}

impl ClickToSpawn {
    /// Clicks spawn nothing: the default.
    pub const OFF: Self = Self {
        enabled: false,
        button: MouseButton::Left,
        speed: None,
    };

    /// A left click adds a boid at the cursor, moving at the flock's max speed.
    pub const ON: Self = Self {
        enabled: true,
        ..Self::OFF
    };
}

impl Default for ClickToSpawn {
    fn default() -> Self {
        Self::OFF
    }
}

/// Whether a UI drawn over the world (the tuning panel, or your own) is using the pointer or the
/// keyboard. Click-to-spawn ignores clicks while `pointer` is set, so a click on a panel never
/// adds a boid behind it. The panel plugin keeps it up to date; the core never sets it.
#[derive(Resource, Reflect, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[reflect(Resource, Debug, Default)]
pub struct UiWantsInput {
    /// The pointer is over the UI or dragging one of its widgets.
    pub pointer: bool,
    /// The UI takes key presses (a text field has focus).
    pub keyboard: bool,
}

/// Where the mouse cursor is in world space, if it is over the primary window. Kept up to date
/// from the primary window and the camera: in 2D the point under the cursor; in 3D where the
/// ray through the cursor meets the ground plane y = 0 (`None` when it misses). Tests and other
/// input sources may set it.
#[derive(Resource, Reflect, Debug, Clone, Copy, Default, PartialEq)]
#[reflect(Resource, Debug, Default)]
pub struct CursorWorldPosition(pub Option<Vector>);

/// Projects the primary window's cursor through the camera (2D or 3D, as the crate) into the
/// world.
pub(crate) fn track_cursor(
    mut cursor: ResMut<CursorWorldPosition>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform), With<WorldCamera>>,
) {
    let (Ok(window), Ok((camera, camera_transform))) = (windows.single(), cameras.single()) else {
        // Headless, or more than one camera: leave the position to whoever sets it.
        return;
    };
    let position = window
        .cursor_position()
        .and_then(|screen| cursor_in_world(camera, camera_transform, screen));
    if cursor.0 != position {
        cursor.0 = position;
    }
}

/// Adds one boid at the cursor when the spawn button is pressed, unless a UI has the pointer.
pub(crate) fn spawn_on_click(
    mut commands: Commands,
    click: Res<ClickToSpawn>,
    ui: Res<UiWantsInput>,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    cursor: Res<CursorWorldPosition>,
) {
    let Some(buttons) = buttons else { return };
    if !click.enabled || ui.pointer || !buttons.just_pressed(click.button) {
        return;
    }
    if let Some(position) = cursor.0 {
        commands.queue(SpawnBoids {
            speed: click.speed,
            ..SpawnBoids::new(1, Placement::At(position))
        });
    }
}
