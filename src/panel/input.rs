//! The input the panel takes from the world: while egui has the pointer or the keyboard, the
//! core's [`UiWantsInput`] says so.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;
use bevy_egui::input::EguiWantsInput;

use super::state::PanelState;
use crate::render::pointer::UiWantsInput;

/// Tells the core when the pointer or keyboard belongs to egui ([`UiWantsInput`]), for
/// click-to-spawn and apps' own shortcuts.
///
/// Egui's own answer ([`EguiWantsInput`]) is from the last frame, so a pointer that jumps onto
/// the panel and clicks in one frame would get through: the cursor is also tested, this frame,
/// against where the panel was drawn.
pub(super) fn share_egui_input(
    last_frame: Res<EguiWantsInput>,
    state: Res<PanelState>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut ui: ResMut<UiWantsInput>,
) {
    let over_panel = windows
        .single()
        .ok()
        .and_then(|window| {
            let cursor = window.cursor_position()?;
            let (rect, pixels_per_point) = state.panel_area.filter(|_| state.visible)?;
            let points = cursor * window.scale_factor() / pixels_per_point;
            Some(rect.contains(egui::pos2(points.x, points.y)))
        })
        .unwrap_or(false);
    let wants = UiWantsInput {
        pointer: over_panel || last_frame.wants_any_pointer_input(),
        keyboard: last_frame.wants_any_keyboard_input(),
    };
    if *ui != wants {
        *ui = wants;
    }
}
