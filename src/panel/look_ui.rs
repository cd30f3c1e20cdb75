//! The look of the flock in the panel: the bundled prefabs it offers, the one in use, and which
//! debug drawings are on.

use bevy::prelude::*;
use bevy_egui::egui::{ComboBox, Ui};

use super::state::{PrefabChoices, Tuning};
#[cfg(flock_3d)]
use crate::render::prefab::BoidColors;
use crate::render::prefab::BoidPrefab;

#[cfg(not(flock_3d))]
pub(super) fn offer_bundled_prefabs(
    mut choices: ResMut<PrefabChoices>,
    assets: Option<Res<AssetServer>>,
) {
    if !choices.0.is_empty() {
        return;
    }
    choices.0.push(("square".into(), BoidPrefab::default()));
    let Some(assets) = assets else { return };
    choices.0.extend(
        crate::BoidSprite::ALL.map(|sprite| (sprite.name().into(), sprite.prefab(&assets))),
    );
}

/// The meshes the panel offers in 3D: the default bird, a fish and a larger bird, built in
/// code.
#[cfg(flock_3d)]
pub(super) fn offer_bundled_prefabs(
    mut choices: ResMut<PrefabChoices>,
    meshes: Option<ResMut<Assets<Mesh>>>,
) {
    if !choices.0.is_empty() {
        return;
    }
    choices.0.push(("bird".into(), BoidPrefab::default()));
    let Some(mut meshes) = meshes else { return };
    choices.0.extend([
        (
            "fish".into(),
            BoidPrefab {
                mesh: meshes.add(crate::render::meshes::fish_mesh(14.0)),
                colors: BoidColors::RandomHue {
                    saturation: 0.75,
                    lightness: 0.6,
                },
            },
        ),
        (
            "big bird".into(),
            BoidPrefab {
                mesh: meshes.add(crate::render::meshes::bird_mesh(24.0)),
                colors: BoidColors::Single(Color::srgb(1.0, 0.78, 0.45)),
            },
        ),
    ]);
}

/// The sprite prefab, and which debug drawings are on.
pub(super) fn look_section(ui: &mut Ui, tuning: &mut Tuning, choices: &PrefabChoices) {
    let current = choices
        .0
        .iter()
        .find(|(_, prefab)| *prefab == *tuning.prefab)
        .map_or("custom", |(name, _)| name.as_str());
    ComboBox::from_label(if cfg!(flock_3d) { "mesh" } else { "sprite" })
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (name, prefab) in &choices.0 {
                if ui.selectable_label(current == name, name).clicked() {
                    tuning.prefab.set_if_neq(prefab.clone());
                }
            }
        });
    ui.separator();
    let mut draw = *tuning.draw;
    ui.checkbox(
        &mut draw.selected,
        "selected boid (hover): radii, view, neighbours",
    );
    ui.checkbox(&mut draw.velocities, "velocity arrows");
    ui.checkbox(&mut draw.forces, "steering force arrows");
    ui.checkbox(&mut draw.grid, "grid cells");
    ui.checkbox(&mut draw.bounds, "bounds");
    tuning.draw.set_if_neq(draw);
}
