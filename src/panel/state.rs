//! What the panel keeps between frames, and the resources its sections share.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui;

use super::debug_draw::FlockDebugDraw;
use super::metrics::FlockMetrics;
use super::presets::PresetsState;
use super::reset::PanelReset;
use crate::clock::FlockClock;
use crate::components::Boid;
use crate::render::prefab::BoidPrefab;
use crate::settings::FlockSettings;
use crate::steer::FlockBuffers;

/// The prefabs the panel offers, by name. Filled at start-up, unless the app filled it first,
/// with the bundled sprites (square, arrow, fish, bird) in 2D and the meshes built in code
/// (bird, fish, big bird) in 3D.
#[derive(Resource, Debug, Clone, Default)]
pub struct PrefabChoices(pub Vec<(String, BoidPrefab)>);

/// The panel's own state between frames.
#[derive(Resource, Debug)]
pub(super) struct PanelState {
    /// Whether the window is shown (F1 toggles it).
    pub(super) visible: bool,
    /// How many boids the Spawn button adds.
    pub(super) spawn_count: usize,
    /// The presets section's file name, folder and last message.
    pub(super) presets: PresetsState,
    /// Frame time, smoothed over about a second.
    pub(super) frame_seconds: f32,
    /// Where the window was last drawn (egui points) and egui's pixels per point.
    pub(super) panel_area: Option<(egui::Rect, f32)>,
}

impl PanelState {
    pub(super) fn new(presets_folder: PathBuf) -> Self {
        Self {
            visible: true,
            spawn_count: 50,
            presets: PresetsState::new(presets_folder),
            frame_seconds: 0.0,
            panel_area: None,
        }
    }
}

/// The resources the panel changes.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Tuning<'w> {
    pub(super) settings: ResMut<'w, FlockSettings>,
    pub(super) clock: ResMut<'w, FlockClock>,
    pub(super) prefab: ResMut<'w, BoidPrefab>,
    pub(super) draw: ResMut<'w, FlockDebugDraw>,
    pub(super) metrics: ResMut<'w, FlockMetrics>,
}

/// The resources the panel only shows.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Shown<'w, 's> {
    pub(super) buffers: Res<'w, FlockBuffers>,
    pub(super) choices: Res<'w, PrefabChoices>,
    pub(super) reset: Res<'w, PanelReset>,
    pub(super) boids: Query<'w, 's, Entity, With<Boid>>,
}
