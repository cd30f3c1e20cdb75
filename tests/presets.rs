//! The preset files in `assets/presets/` are the presets in code (`bevy_flock::presets`), one
//! file each. (Other files there are the panel's saves, and are left alone.)
//! `FLOCK_WRITE_PRESETS=1` writes the files from the code instead (after a preset changes on
//! purpose), and the test then checks what it wrote.
#![cfg(feature = "panel")]

use std::path::PathBuf;

use bevy_flock::panel::{load_settings, save_settings};
use bevy_flock::presets;

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/presets")
}

#[test]
fn every_preset_file_equals_its_preset_in_code() {
    let write = std::env::var("FLOCK_WRITE_PRESETS").is_ok_and(|value| value == "1");
    for preset in presets::all() {
        let path = folder().join(preset.file);
        let expected = (preset.settings)();
        if write {
            save_settings(&path, &expected).unwrap();
        }
        let loaded = load_settings(&path)
            .unwrap_or_else(|error| panic!("{} ({}): {error}", preset.name, preset.file));
        assert_eq!(
            loaded, expected,
            "{} differs from {}",
            preset.file, preset.name
        );
    }
}
