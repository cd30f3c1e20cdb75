//! The scene files in `assets/presets/` are the examples' scenes in code
//! (`examples/support/scenes.rs`), one file each. (Other files there are the panel's saves, and
//! are left alone.) `FLOCK_WRITE_PRESETS=1` writes the files from the code instead (after a scene
//! changes on purpose), and the test then checks what it wrote.
#![cfg(feature = "panel")]

use std::path::PathBuf;

use bevy_flock::flock_core::world_size;
use bevy_flock::panel::{load_settings, save_settings};
use bevy_flock::presets;

#[path = "../examples/support/scenes.rs"]
mod scenes;

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/presets")
}

#[test]
fn every_scene_file_equals_its_scene_in_code() {
    let write = std::env::var("FLOCK_WRITE_PRESETS").is_ok_and(|value| value == "1");
    let mut files = std::collections::BTreeSet::new();
    for &(file, settings) in scenes::SCENES {
        assert!(files.insert(file), "{file} twice");
        let path = folder().join(file);
        let expected = settings();
        assert_eq!(expected.validate(), Ok(()), "{file}");
        if write {
            save_settings(&path, &expected).unwrap();
        }
        let loaded = load_settings(&path).unwrap_or_else(|error| panic!("{file}: {error}"));
        assert_eq!(loaded, expected, "{file} differs from its scene");
    }
}

#[test]
fn every_preset_has_its_scene() {
    // One scene a preset: the panel's list and the examples' files name the same flocks.
    assert_eq!(scenes::SCENES.len(), presets::all().len());
}

#[test]
fn the_unity_world_is_as_wide_as_the_window_and_two_to_one() {
    let bounds = scenes::unity_port().config.bounds;
    // In 3D as deep as it is high.
    assert_eq!(bounds.size(), world_size(1280.0, 640.0));
    assert_eq!(scenes::unity_port_first().config.bounds, bounds);
}

#[test]
fn a_preset_sized_for_a_scene_s_bounds_is_that_scene_s_flock() {
    // The panel sizes a preset to the bounds: in the Unity scene's bounds the Unity preset is
    // that scene's flock, up to rounding.
    let scene = scenes::unity_port().config;
    let unity = presets::all()
        .iter()
        .find(|preset| preset.name == "Unity port")
        .unwrap();
    let sized = unity.sized_for(scene.bounds).unwrap();
    for (sized, scene) in [
        (sized.separation_radius, scene.separation_radius),
        (sized.cohesion_radius, scene.cohesion_radius),
        (sized.max_speed, scene.max_speed),
        (sized.max_force, scene.max_force),
    ] {
        assert!(
            (sized - scene).abs() <= scene.abs() * 1e-5,
            "{sized} {scene}"
        );
    }
}
