//! Reading a scenario: flock settings from RON, initial boids from CSV. Every error names the
//! file and the line or field.

use std::path::Path;

use bevy::math::Vec2;
use bevy_flock::FlockSettings;

/// Reads and validates flock settings (the plugin's `FlockSettings`, as RON).
pub fn read_settings(path: &Path) -> Result<FlockSettings, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read settings `{}`: {e}", path.display()))?;
    parse_settings(&text).map_err(|e| format!("settings `{}`: {e}", path.display()))
}

/// Parses and validates flock settings from RON text.
pub fn parse_settings(text: &str) -> Result<FlockSettings, String> {
    let settings: FlockSettings = ron::from_str(text).map_err(|e| e.to_string())?;
    settings.validate().map_err(|e| e.to_string())?;
    Ok(settings)
}

/// Reads boids from a CSV file with the header `x,y,vx,vy`.
pub fn read_boids(path: &Path) -> Result<(Vec<Vec2>, Vec<Vec2>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read boids `{}`: {e}", path.display()))?;
    parse_boids(&text).map_err(|e| format!("boids `{}`: {e}", path.display()))
}

const HEADER: [&str; 4] = ["x", "y", "vx", "vy"];

/// Parses boids from CSV text: a header line `x,y,vx,vy`, then one boid per line. Blank lines
/// are skipped; anything else that is not four finite numbers is an error naming the line.
pub fn parse_boids(text: &str) -> Result<(Vec<Vec2>, Vec<Vec2>), String> {
    let mut lines = text.lines().enumerate();
    let header: Vec<&str> = lines
        .next()
        .ok_or("the file is empty; expected the header `x,y,vx,vy`")?
        .1
        .split(',')
        .map(str::trim)
        .collect();
    if header != HEADER {
        return Err(format!(
            "line 1: the header is `{}`; expected `x,y,vx,vy`",
            header.join(",")
        ));
    }
    let mut positions = Vec::new();
    let mut velocities = Vec::new();
    for (index, line) in lines {
        let line_number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != HEADER.len() {
            return Err(format!(
                "line {line_number}: {} fields; expected 4 (x,y,vx,vy)",
                fields.len()
            ));
        }
        let mut values = [0.0f32; 4];
        for ((value, field), name) in values.iter_mut().zip(&fields).zip(HEADER) {
            *value = field
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    format!("line {line_number}: field `{name}`: `{field}` is not a finite number")
                })?;
        }
        positions.push(Vec2::new(values[0], values[1]));
        velocities.push(Vec2::new(values[2], values[3]));
    }
    Ok((positions, velocities))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_boids_and_skips_blank_lines() {
        let (positions, velocities) =
            parse_boids("x,y,vx,vy\n1,2,3,4\n\n-1.5, 0, 0.25, 1e2\n").unwrap();
        assert_eq!(positions, vec![Vec2::new(1.0, 2.0), Vec2::new(-1.5, 0.0)]);
        assert_eq!(
            velocities,
            vec![Vec2::new(3.0, 4.0), Vec2::new(0.25, 100.0)]
        );
    }

    #[test]
    fn errors_name_the_line_and_field() {
        let error = parse_boids("x,y,vx,vy\n1,2,3,4\n1,2,oops,4\n").unwrap_err();
        assert_eq!(error, "line 3: field `vx`: `oops` is not a finite number");
        let error = parse_boids("x,y,vx,vy\n1,2,3\n").unwrap_err();
        assert!(error.starts_with("line 2: 3 fields"), "{error}");
        let error = parse_boids("x,y,vx,vy\n1,NaN,3,4\n").unwrap_err();
        assert!(error.contains("field `y`"), "{error}");
        let error = parse_boids("a,b\n").unwrap_err();
        assert!(error.starts_with("line 1: the header"), "{error}");
        assert!(parse_boids("").is_err());
    }

    #[test]
    fn settings_round_trip_through_ron() {
        let settings = FlockSettings::default();
        let text =
            ron::ser::to_string_pretty(&settings, ron::ser::PrettyConfig::default()).unwrap();
        assert_eq!(parse_settings(&text).unwrap(), settings);
    }

    #[test]
    fn invalid_settings_name_the_field() {
        let mut settings = FlockSettings::default();
        settings.config.max_speed = -1.0;
        let text = ron::to_string(&settings).unwrap();
        let error = parse_settings(&text).unwrap_err();
        assert!(error.contains("max_speed"), "{error}");
        let error = parse_settings("(config: (separation_radius: oops))").unwrap_err();
        assert!(error.contains("1:"), "a RON error names its line: {error}");
    }
}
