//! Flock settings as RON for this module's dimension. A settings file of the other dimension
//! (its bounds' corners have two coordinates, or three) is named as such.

use std::path::Path;

use super::Settings;
use super::kernel::DIMENSIONS;

/// Reads and validates flock settings.
pub fn read_settings(path: &Path) -> Result<Settings, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read settings `{}`: {e}", path.display()))?;
    parse_settings(&text).map_err(|e| format!("settings `{}`: {e}", path.display()))
}

/// Parses and validates flock settings from RON text.
pub fn parse_settings(text: &str) -> Result<Settings, String> {
    let settings: Settings = ron::from_str(text).map_err(|error| {
        if ron::from_str::<super::other::Settings>(text).is_ok() {
            let other = super::other::kernel::DIMENSIONS;
            format!(
                "{error}: these are {other}D settings (`config.bounds` corners with {other} \
                 coordinates); a {DIMENSIONS}D run (`--dims {DIMENSIONS}`) needs {DIMENSIONS}"
            )
        } else {
            error.to_string()
        }
    })?;
    settings.validate().map_err(|e| e.to_string())?;
    Ok(settings)
}
