//! Presets: named flock settings to start from, and the current settings saved to and loaded
//! from RON files.

use std::fmt;
use std::path::{Path, PathBuf};

use flock_core::{ConfigError, FlockConfig, RuleWeights, SpeedMode};

use crate::settings::FlockSettings;

/// A named set of flock settings the panel offers.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name shown in the panel.
    pub name: &'static str,
    /// Where the numbers come from, shown as a tooltip.
    pub about: &'static str,
    /// The settings, in the preset's own units (its `bounds` say how big its world is).
    pub config: fn() -> FlockConfig,
}

/// The built-in presets: the two sources the kernel reproduces, seed 003's rule mixes, and two
/// of ours.
pub fn builtin_presets() -> &'static [Preset] {
    &[
        Preset {
            name: "Processing",
            about: "Processing's Flocking example (the default)",
            config: FlockConfig::processing,
        },
        Preset {
            name: "Unity port (seed 002)",
            about: "seed 002's Unity numbers: constant speed, rescaled forces",
            config: FlockConfig::unity_port,
        },
        Preset {
            name: "Crowd: cohesion only (seed 003)",
            about: "seed 003's cohesion node: radius 100, max speed 50",
            config: FlockConfig::crowd_cohesion_only,
        },
        Preset {
            name: "Crowd: separation only (seed 003)",
            about: "seed 003's separation node: radius 30, max speed 50",
            config: FlockConfig::crowd_separation_only,
        },
        Preset {
            name: "Crowd: alignment only (seed 003)",
            about: "seed 003's alignment node: radius 150, max speed 150",
            config: FlockConfig::crowd_alignment_only,
        },
        Preset {
            name: "Crowd: all three (seed 003)",
            about: "seed 003's crowd node: cohesion 0.5, separation 30 (2 here), alignment 1",
            config: FlockConfig::crowd,
        },
        Preset {
            name: "Tight school",
            about: "strong alignment and cohesion, small spacing: one dense, polarised school",
            config: tight_school,
        },
        Preset {
            name: "Loose swarm",
            about: "weak alignment, strong separation, narrow view: a milling, disordered swarm",
            config: loose_swarm,
        },
    ]
}

/// Boids that keep close and turn together: short separation, strong alignment and cohesion,
/// a brisk constant speed.
fn tight_school() -> FlockConfig {
    FlockConfig {
        separation_radius: 14.0,
        alignment_radius: 45.0,
        cohesion_radius: 60.0,
        weights: RuleWeights {
            separation: 1.5,
            alignment: 2.0,
            cohesion: 1.5,
        },
        max_speed: 160.0,
        speed_mode: SpeedMode::Constant,
        max_force: 300.0,
        ..FlockConfig::processing()
    }
}

/// Boids that keep their distance and barely agree: wide separation, weak alignment, a narrow
/// field of view, speeds free to vary.
fn loose_swarm() -> FlockConfig {
    FlockConfig {
        separation_radius: 40.0,
        alignment_radius: 50.0,
        cohesion_radius: 120.0,
        weights: RuleWeights {
            separation: 2.0,
            alignment: 0.2,
            cohesion: 0.6,
        },
        max_speed: 90.0,
        speed_mode: SpeedMode::Clamp { min_speed: 30.0 },
        max_force: 80.0,
        view_angle_degrees: 240.0,
        ..FlockConfig::processing()
    }
}

/// Puts a preset into `settings`, keeping the world: the preset is scaled so its world's height
/// becomes the current bounds' height (seed 002's 10-unit world becomes 720 pixels in a
/// 720-pixel window) and the current bounds, bounds source and boid cap stay.
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
    use flock_core::{Bounds, world_size};

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
}
