//! Presets: named flock settings to start from, and the current settings saved to and loaded
//! from RON files.

use std::fmt;
use std::path::{Path, PathBuf};

use flock_core::{ConfigError, FlockConfig};

use crate::settings::FlockSettings;

pub use crate::presets::Preset;

/// The presets the panel offers: [`crate::presets::all`].
pub fn builtin_presets() -> &'static [Preset] {
    crate::presets::all()
}

/// Puts a preset into `settings`, keeping the world: the preset is scaled so its world's height
/// becomes the current bounds' height (seed 002's 10-unit world becomes 720 pixels in a
/// 720-pixel window) and the current bounds, bounds source and boid cap stay.
///
/// The preset files in `assets/presets/` are the presets as their scenes run them; loading one
/// (with [`load_into`]) takes its bounds and cap too.
pub fn apply_preset(settings: &mut FlockSettings, preset: FlockConfig) {
    let bounds = settings.config.bounds;
    let scale = bounds.size().y / preset.bounds.size().y;
    settings.config = FlockConfig {
        bounds,
        ..preset.scaled(scale)
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use flock_core::{Bounds, SpeedMode, world_size};

    #[test]
    fn builtin_presets_are_valid() {
        for preset in builtin_presets() {
            let config = (preset.settings)().config;
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
}
