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
        if positions.len() == FlockSettings::MAX_BOIDS {
            return Err(format!(
                "line {line_number}: more than {} boids (FlockSettings::MAX_BOIDS)",
                FlockSettings::MAX_BOIDS
            ));
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
    fn hostile_boids_files_are_refused_or_read_as_they_are() {
        // Not finite, beyond f32 (parsed as infinity), empty fields, stray separators: errors
        // naming the line and field.
        for (text, needle) in [
            ("x,y,vx,vy\ninf,0,0,0\n", "line 2: field `x`"),
            ("x,y,vx,vy\n0,-inf,0,0\n", "line 2: field `y`"),
            ("x,y,vx,vy\n0,0,1e39,0\n", "line 2: field `vx`"),
            ("x,y,vx,vy\n0,0,0,\n", "line 2: field `vy`"),
            ("x,y,vx,vy\n0,0,0,0,0\n", "line 2: 5 fields"),
            ("x,y,vx,vy\n\n\n0;0;0;0\n", "line 4: 1 fields"),
            ("\u{feff}x,y,vx,vy\n", "line 1: the header"),
            ("y,x,vx,vy\n", "line 1: the header"),
        ] {
            let error = parse_boids(text).unwrap_err();
            assert!(error.contains(needle), "{text:?}: {error}");
        }
        // Just the header: no boids, which is a valid (empty) flock. Huge but finite values and
        // subnormals are valid positions and velocities: the kernel copes with them.
        assert_eq!(parse_boids("x,y,vx,vy\n").unwrap().0.len(), 0);
        let (positions, velocities) = parse_boids("x,y,vx,vy\n3.4e38,-3.4e38,1e-45,-0\n").unwrap();
        assert_eq!(positions, vec![Vec2::new(3.4e38, -3.4e38)]);
        assert_eq!(velocities, vec![Vec2::new(1e-45, -0.0)]);
    }

    #[test]
    fn hostile_settings_files_name_the_problem() {
        let with = |field: &str, value: &str| {
            let text = ron::to_string(&FlockSettings::default()).unwrap();
            let start = text
                .find(&format!("{field}:"))
                .expect("the field is in the RON");
            let end = start + text[start..].find([',', ')']).unwrap();
            format!("{}{field}:{value}{}", &text[..start], &text[end..])
        };
        for (text, needle) in [
            (with("max_speed", "NaN"), "max_speed"),
            (with("max_speed", "inf"), "max_speed"),
            (with("max_force", "1e39"), "max_force"),
            (with("mass", "0"), "mass"),
            (with("cohesion_radius", "-1"), "cohesion_radius"),
            (with("separation_radius", "2e9"), "separation_radius"),
            (with("response_time", "1e-30"), "response_time"),
            (with("view_angle_degrees", "0"), "view_angle_degrees"),
            (with("max_boids", "0"), "max_boids"),
            (with("max_boids", "18446744073709551615"), "max_boids"),
            (with("max_boids", "18446744073709551616"), "1:"),
            (with("min_speed", "1e9"), "min_speed"),
            (with("separation", "-1e7"), "weights.separation"),
            ("".to_string(), "1:"),
            ("(config: ())".to_string(), "1:"),
        ] {
            let error = parse_settings(&text).unwrap_err();
            assert!(error.contains(needle), "{text}: {error}");
        }
        // Contradictory bounds: min above max on either axis.
        let mut settings = FlockSettings::default();
        settings.config.bounds.min.x = settings.config.bounds.max.x + 1.0;
        let error = parse_settings(&ron::to_string(&settings).unwrap()).unwrap_err();
        assert!(error.contains("bounds"), "{error}");
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
