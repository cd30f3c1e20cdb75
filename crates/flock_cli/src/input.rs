//! Reading a scenario: flock settings from RON, initial boids from CSV. Every error names the
//! file and the line or field. The readers are compiled once per dimension (`dim/`); these are
//! the 2D ones, and the tests below check both.

pub use crate::dim2::boids::{parse_boids, read_boids};
pub use crate::dim2::settings::{parse_settings, read_settings};

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::Vec2;
    use bevy_flock::FlockSettings;

    /// Checks that `parse` refuses every text with an error that contains its needle.
    fn assert_refused<T: std::fmt::Debug, Text: AsRef<str>>(
        parse: impl Fn(&str) -> Result<T, String>,
        cases: impl IntoIterator<Item = (Text, &'static str)>,
    ) {
        for (text, needle) in cases {
            let text = text.as_ref();
            let error = parse(text).unwrap_err();
            assert!(error.contains(needle), "{text:?}: {error}");
        }
    }

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
        let cases = [
            ("x,y,vx,vy\ninf,0,0,0\n", "line 2: field `x`"),
            ("x,y,vx,vy\n0,-inf,0,0\n", "line 2: field `y`"),
            ("x,y,vx,vy\n0,0,1e39,0\n", "line 2: field `vx`"),
            ("x,y,vx,vy\n0,0,0,\n", "line 2: field `vy`"),
            ("x,y,vx,vy\n0,0,0,0,0\n", "line 2: 5 fields"),
            ("x,y,vx,vy\n\n\n0;0;0;0\n", "line 4: 1 fields"),
            ("\u{feff}x,y,vx,vy\n", "line 1: the header"),
            ("y,x,vx,vy\n", "line 1: the header"),
        ];
        assert_refused(parse_boids, cases);
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
        // `field value` pairs, each refused with an error that names the field: not finite,
        // beyond f32, zero or negative where that means nothing, beyond the magnitudes f32
        // arithmetic keeps finite.
        let named = "max_speed NaN, max_speed inf, max_force 1e39, mass 0, cohesion_radius -1, \
                     separation_radius 2e9, response_time 1e-30, view_angle_degrees 0, \
                     max_boids 0, max_boids 18446744073709551615, min_speed 1e9";
        let mut cases: Vec<(String, &str)> = named
            .split(", ")
            .map(|pair| {
                let (field, value) = pair.split_once(' ').unwrap();
                (with(field, value), field)
            })
            .collect();
        cases.extend([
            (with("max_boids", "18446744073709551616"), "1:"),
            (with("separation", "-1e7"), "weights.separation"),
            ("".to_string(), "1:"),
            ("(config: ())".to_string(), "1:"),
        ]);
        assert_refused(parse_settings, cases);
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

    #[test]
    fn three_dimensions_read_six_columns_and_name_their_fields() {
        use crate::dim3::boids::parse_boids as parse_boids3;
        use crate::dim3::settings::parse_settings as parse_settings3;
        use bevy::math::Vec3;
        let (positions, velocities) =
            parse_boids3("x,y,z,vx,vy,vz\n1,2,3,4,5,6\n\n-1, 0, 0.5, 0, 0, 1e2\n").unwrap();
        assert_eq!(
            positions,
            [Vec3::new(1.0, 2.0, 3.0), Vec3::new(-1.0, 0.0, 0.5)]
        );
        assert_eq!(
            velocities,
            [Vec3::new(4.0, 5.0, 6.0), Vec3::new(0.0, 0.0, 100.0)]
        );
        let cases = [
            (
                "x,y,z,vx,vy,vz\n1,2,3,4,5\n",
                "line 2: 5 fields; expected 6",
            ),
            ("x,y,z,vx,vy,vz\n1,2,3,4\n", "line 2: 4 fields"),
            ("x,y,z,vx,vy,vz\n1,2,nan,4,5,6\n", "line 2: field `z`"),
            ("x,y,z,vx,vy,vz\n1,2,3,4,5,inf\n", "line 2: field `vz`"),
            ("x,y,vx,vy\n1,2,3,4\n", "is for 2D boids"),
            ("x,y,z\n", "line 1: the header is `x,y,z`"),
        ];
        assert_refused(parse_boids3, cases);
        // Settings: 3D ones read and validated (a bound on z named), 2D ones named as such.
        let settings = crate::dim3::Settings::default();
        let text = ron::to_string(&settings).unwrap();
        assert_eq!(parse_settings3(&text).unwrap(), settings);
        let mut flat = settings.clone();
        flat.config.bounds.max.z = flat.config.bounds.min.z;
        let error = parse_settings3(&ron::to_string(&flat).unwrap()).unwrap_err();
        assert!(error.contains("no depth"), "{error}");
        let mut far = settings;
        far.config.bounds.min.z = -1e10;
        let error = parse_settings3(&ron::to_string(&far).unwrap()).unwrap_err();
        assert!(error.contains("bounds.min.z"), "{error}");
        let error = parse_settings3(&ron::to_string(&FlockSettings::default()).unwrap());
        assert!(error.unwrap_err().contains("these are 2D settings"));
        let error = parse_settings(&text).unwrap_err();
        assert!(error.contains("these are 3D settings"), "{error}");
    }
}
