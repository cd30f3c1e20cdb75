//! What only the 3D settings have: invalid bounds are named by their z field, and the presets'
//! worlds are boxes. The hostile values both dimensions share are in `flock_core`'s
//! `tests/hostile_inputs.rs`, which this crate runs too.

use flock_core3d::{ConfigError, FlockConfig};

/// What `validate` says of the default settings with `change`, which makes them invalid.
fn error_after(change: impl FnOnce(&mut FlockConfig)) -> ConfigError {
    let mut config = FlockConfig::default();
    change(&mut config);
    config
        .validate()
        .expect_err("the change makes the settings invalid")
}

#[test]
fn invalid_bounds_name_the_z_field() {
    for (error, field, reason) in [
        (
            error_after(|c| c.bounds.min.z = f32::NAN),
            "bounds.min.z",
            "finite",
        ),
        (
            error_after(|c| c.bounds.max.z = f32::INFINITY),
            "bounds.max.z",
            "finite",
        ),
        (
            error_after(|c| c.bounds.min.z = -1e10),
            "bounds.min.z",
            "too large",
        ),
        (
            error_after(|c| c.bounds.max.z = c.bounds.min.z),
            "bounds",
            "no depth",
        ),
    ] {
        assert_eq!(error.field, field, "{error}");
        assert!(error.to_string().contains(reason), "{error}");
    }
    // The presets are boxes as deep as they are high.
    for preset in [
        FlockConfig::processing(),
        FlockConfig::unity_port(),
        FlockConfig::crowd(),
    ] {
        assert_eq!(preset.validate(), Ok(()));
        assert_eq!(preset.bounds.size().z, preset.bounds.size().y);
    }
}
