//! Presets: named flock settings to start from, and the current settings saved to and loaded
//! from RON files; the panel's section for both.

use std::fmt;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_egui::egui::{ComboBox, Ui};
use flock_core::{ConfigError, FlockConfig};

use super::settings_ui;
use crate::settings::FlockSettings;

pub use crate::presets::Preset;
use crate::presets::size_to;

/// The presets the panel offers, sized to the flock's bounds: [`crate::presets::all`].
pub fn builtin_presets() -> &'static [Preset] {
    crate::presets::all()
}

/// Puts a preset into `settings`, keeping the world: the preset is scaled so its world's height
/// becomes the current bounds' height (the 10-unit world of Processing's *Flocking* as ported
/// to Unity becomes 720 pixels in a 720-pixel window, as [`Preset::sized_for`] does) and the
/// current bounds, bounds source and boid cap stay.
///
/// The scene files in the repository's `assets/presets/` are the examples' scenes; loading one
/// (with [`load_into`]) takes its bounds and cap too.
pub fn apply_preset(settings: &mut FlockSettings, preset: FlockConfig) {
    settings.config = size_to(settings.config.bounds, preset);
}

/// Why settings could not be saved or loaded.
#[derive(Debug)]
pub enum PresetError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// The file is not RON for [`FlockSettings`].
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and what (line and column included). Boxed: it is large, and errors are rare.
        error: Box<ron::error::SpannedError>,
    },
    /// The file is well formed but a value is out of range.
    Invalid {
        /// The file.
        path: PathBuf,
        /// The first invalid field.
        error: ConfigError,
    },
    /// The settings could not be written as RON.
    Serialize(ron::Error),
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Self::Parse { path, error } => {
                write!(f, "{} is not flock settings: {error}", path.display())
            }
            Self::Invalid { path, error } => write!(f, "{}: {error}", path.display()),
            Self::Serialize(error) => write!(f, "cannot write the settings as RON: {error}"),
        }
    }
}

impl std::error::Error for PresetError {}

/// Writes `settings` to `path` as RON, creating its folder if needed.
pub fn save_settings(path: &Path, settings: &FlockSettings) -> Result<(), PresetError> {
    let io_error = |error| PresetError::Io {
        path: path.to_owned(),
        error,
    };
    let text = ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default())
        .map_err(PresetError::Serialize)?;
    if let Some(folder) = path
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder).map_err(io_error)?;
    }
    std::fs::write(path, text).map_err(io_error)
}

/// Reads settings from a RON file, and checks them: only valid settings come back.
pub fn load_settings(path: &Path) -> Result<FlockSettings, PresetError> {
    let text = std::fs::read_to_string(path).map_err(|error| PresetError::Io {
        path: path.to_owned(),
        error,
    })?;
    let settings: FlockSettings = ron::from_str(&text).map_err(|error| PresetError::Parse {
        path: path.to_owned(),
        error: Box::new(error),
    })?;
    settings.validate().map_err(|error| PresetError::Invalid {
        path: path.to_owned(),
        error,
    })?;
    Ok(settings)
}

/// Loads settings from a RON file into `settings`; on any error `settings` is left as it was.
pub fn load_into(path: &Path, settings: &mut FlockSettings) -> Result<(), PresetError> {
    *settings = load_settings(path)?;
    Ok(())
}

/// The `.ron` files in `folder`, by name; none if it does not exist yet.
pub fn preset_files(folder: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".ron"))
        .collect();
    names.sort();
    names
}

/// The presets section's state between frames.
#[derive(Debug)]
pub(super) struct PresetsState {
    /// Where presets are saved and loaded (see [`default_presets_folder`]).
    folder: PathBuf,
    file_name: String,
    files: Vec<String>,
    /// The outcome of the last save or load: (text, is an error).
    message: Option<(String, bool)>,
}

impl PresetsState {
    pub(super) fn new(folder: PathBuf) -> Self {
        Self {
            files: preset_files(&folder),
            folder,
            file_name: "my_flock.ron".into(),
            message: None,
        }
    }
}

/// Where the panel saves and loads presets unless
/// [`FlockPanelPlugin::with_presets_folder`](super::FlockPanelPlugin::with_presets_folder)
/// says otherwise, read from the environment `var` gives:
///
/// - run from its project (`cargo run`, which sets `CARGO_MANIFEST_DIR`) or with
///   `BEVY_ASSET_ROOT` set: `presets/` in the app's `assets` folder there, beside the assets Bevy
///   loads;
/// - otherwise (a shipped binary): the user's data folder, `bevy_flock/presets` in
///   `$XDG_DATA_HOME` (or `~/.local/share`) on Linux and other Unix systems,
///   `~/Library/Application Support` on macOS, `%APPDATA%` on Windows;
/// - where none of those is known: `presets/` in the working directory.
///
/// Never the binary's own folder, which may not be writable and is replaced by every build.
pub fn default_presets_folder(var: impl Fn(&str) -> Option<String>) -> PathBuf {
    let set = |name: &str| {
        var(name)
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
    };
    if let Some(root) = set("BEVY_ASSET_ROOT").or_else(|| set("CARGO_MANIFEST_DIR")) {
        return root.join("assets").join("presets");
    }
    let data = if cfg!(windows) {
        set("APPDATA")
    } else if cfg!(target_os = "macos") {
        set("HOME").map(|home| home.join("Library").join("Application Support"))
    } else {
        set("XDG_DATA_HOME").or_else(|| set("HOME").map(|home| home.join(".local").join("share")))
    };
    match data {
        Some(data) => data.join("bevy_flock").join("presets"),
        None => PathBuf::from("presets"),
    }
}

/// The built-in presets, and saving and loading the current settings as RON.
pub(super) fn presets_section(
    ui: &mut Ui,
    state: &mut PresetsState,
    settings: &mut ResMut<FlockSettings>,
) {
    ComboBox::from_label("preset")
        .selected_text("choose to apply")
        .show_ui(ui, |ui| {
            for preset in builtin_presets() {
                if ui
                    .selectable_label(false, preset.name)
                    .on_hover_text(preset.about)
                    .clicked()
                {
                    apply_preset(settings, (preset.config)());
                    state.message = Some((format!("applied {}", preset.name), false));
                }
            }
        });
    ui.horizontal(|ui| {
        ui.label("file");
        ui.text_edit_singleline(&mut state.file_name);
    });
    ui.horizontal(|ui| {
        let path = state.folder.join(&state.file_name);
        if ui.button("Save").clicked() {
            state.message = Some(match save_settings(&path, settings) {
                Ok(()) => {
                    info!("flock settings saved to {}", path.display());
                    state.files = preset_files(&state.folder);
                    (format!("saved {}", state.file_name), false)
                }
                Err(error) => {
                    error!("{error}");
                    (error.to_string(), true)
                }
            });
        }
        if ui.button("Load").clicked() {
            // Loaded into a copy, so the resource is only touched when a setting changes.
            let mut loaded = (**settings).clone();
            state.message = Some(match load_into(&path, &mut loaded) {
                Ok(()) => {
                    info!("flock settings loaded from {}", path.display());
                    settings.set_if_neq(loaded);
                    (format!("loaded {}", state.file_name), false)
                }
                Err(error) => {
                    error!("{error}; keeping the current settings");
                    (format!("{error}; settings unchanged"), true)
                }
            });
        }
        ComboBox::from_id_salt("preset files")
            .selected_text("files")
            .show_ui(ui, |ui| {
                for name in &state.files {
                    if ui.selectable_label(false, name).clicked() {
                        state.file_name = name.clone();
                    }
                }
            });
        if ui
            .small_button("⟳")
            .on_hover_text("list the folder again")
            .clicked()
        {
            state.files = preset_files(&state.folder);
        }
    });
    ui.small(format!("in {}", state.folder.display()));
    if let Some((text, is_error)) = &state.message {
        if *is_error {
            settings_ui::error_line(ui, Some(text));
        } else {
            ui.label(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flock_core::{Bounds, SpeedMode, world_size};

    #[test]
    fn builtin_presets_are_valid() {
        for preset in builtin_presets() {
            let config = (preset.config)();
            assert_eq!(config.validate(), Ok(()), "{}", preset.name);
        }
    }

    #[test]
    fn applying_a_preset_scales_it_to_the_world() {
        let mut settings = FlockSettings::default();
        settings.config.bounds = Bounds::centered(world_size(1440.0, 720.0));
        settings.max_boids = 77;
        apply_preset(&mut settings, FlockConfig::unity_port());
        let expected = FlockConfig::unity_port().scaled(72.0);
        assert_eq!(settings.config.bounds.size(), world_size(1440.0, 720.0));
        assert!((settings.config.separation_radius - expected.separation_radius).abs() < 1e-4);
        assert!((settings.config.max_speed - expected.max_speed).abs() < 1e-3);
        assert_eq!(settings.config.speed_mode, SpeedMode::Constant);
        assert_eq!(settings.max_boids, 77);
    }

    /// The environment as a list of variables, for [`default_presets_folder`].
    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.to_string())
        }
    }

    #[test]
    fn presets_go_to_the_apps_assets_when_run_from_its_project() {
        let from_cargo = default_presets_folder(env(&[
            ("CARGO_MANIFEST_DIR", "/src/game"),
            ("HOME", "/home/ada"),
        ]));
        assert_eq!(from_cargo, Path::new("/src/game/assets/presets"));
        // BEVY_ASSET_ROOT is where Bevy itself loads assets from: it wins.
        let asset_root = default_presets_folder(env(&[
            ("BEVY_ASSET_ROOT", "/opt/game"),
            ("CARGO_MANIFEST_DIR", "/src/game"),
        ]));
        assert_eq!(asset_root, Path::new("/opt/game/assets/presets"));
    }

    #[test]
    fn a_shipped_binary_saves_presets_in_the_users_data_folder_never_beside_itself() {
        let binary_folder = std::env::current_exe().unwrap();
        let binary_folder = binary_folder.parent().unwrap();
        for vars in [
            &[("HOME", "/home/ada")][..],
            &[("XDG_DATA_HOME", "/data/ada"), ("HOME", "/home/ada")],
            &[("APPDATA", "C:/Users/ada/AppData/Roaming")],
            // Empty variables count as unset.
            &[("BEVY_ASSET_ROOT", ""), ("HOME", "/home/ada")],
            &[],
        ] {
            let folder = default_presets_folder(env(vars));
            assert!(!folder.starts_with(binary_folder), "{vars:?}: {folder:?}");
            assert!(folder.ends_with("presets"), "{vars:?}: {folder:?}");
        }
        if cfg!(all(unix, not(target_os = "macos"))) {
            let xdg = default_presets_folder(env(&[
                ("XDG_DATA_HOME", "/data/ada"),
                ("HOME", "/home/ada"),
            ]));
            assert_eq!(xdg, Path::new("/data/ada/bevy_flock/presets"));
            let home = default_presets_folder(env(&[("HOME", "/home/ada")]));
            assert_eq!(home, Path::new("/home/ada/.local/share/bevy_flock/presets"));
        }
        assert_eq!(default_presets_folder(env(&[])), Path::new("presets"));
    }
}
