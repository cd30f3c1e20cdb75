//! The flock-wide settings resource, and the validated copy the systems run on.

use bevy::prelude::*;
use flock_core::{ConfigError, FlockConfig};

/// Flock-wide settings: the kernel's [`FlockConfig`] (radii, weights, speeds, force, view angle,
/// speed, force and edge modes, bounds, index) plus where the bounds come from and the count cap.
///
/// Change it at any time. Every change is validated: an invalid value is logged once, naming
/// the field, and the flock keeps running on the last valid settings.
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct FlockSettings {
    /// The kernel's settings.
    pub config: FlockConfig,
    /// Whether `config.bounds` stays as set or follows the camera's view.
    pub bounds_source: BoundsSource,
    /// The most boids the spawning helpers and click-to-spawn will create.
    pub max_boids: usize,
}

impl Default for FlockSettings {
    fn default() -> Self {
        Self {
            config: FlockConfig::default(),
            bounds_source: BoundsSource::default(),
            max_boids: 10_000,
        }
    }
}

impl FlockSettings {
    /// Settings around a kernel configuration, with fixed bounds and the default cap.
    pub fn from_config(config: FlockConfig) -> Self {
        Self {
            config,
            ..default()
        }
    }

    /// The largest `max_boids` [`FlockSettings::validate`] accepts, and the most boids the
    /// `flock` tool makes: ten million boids take a few GiB; a cap of `usize::MAX` would let a
    /// spawn command abort the process on allocation rather than stop at a cap.
    pub const MAX_BOIDS: usize = 10_000_000;

    /// Checks every field; the first invalid one is named in the error.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.config.validate()?;
        if self.max_boids == 0 {
            return Err(ConfigError {
                field: "max_boids",
                value: 0.0,
                reason: "must be at least 1",
            });
        }
        if self.max_boids > Self::MAX_BOIDS {
            return Err(ConfigError {
                field: "max_boids",
                value: self.max_boids as f32,
                reason: "must be at most 10 million (FlockSettings::MAX_BOIDS)",
            });
        }
        Ok(())
    }
}

/// Where the flock's bounds come from.
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Debug, PartialEq, Default)]
#[cfg_attr(feature = "serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum BoundsSource {
    /// `FlockConfig::bounds` as set.
    #[default]
    Fixed,
    /// The area the 2D camera shows (the camera marked `FlockCamera`, or else the only
    /// `Camera2d`): resize the window and the flock stays on screen. Needs the `render`
    /// feature; without it there is no camera, this is logged once and the bounds stay as set.
    FollowCamera,
}

/// Marks the camera whose view the bounds follow when there is more than one 2D camera.
#[cfg(feature = "render")]
#[derive(Component, Reflect, Debug, Clone, Copy, Default)]
#[reflect(Component, Debug, Default)]
pub struct FlockCamera;

/// The last valid [`FlockSettings`]: what the simulation actually runs on.
#[derive(Resource, Debug, Clone, PartialEq, Default)]
pub struct ActiveFlockSettings(pub FlockSettings);

/// Copies changed settings into [`ActiveFlockSettings`] if they are valid; logs the first
/// invalid field otherwise, once per problem: a UI that writes the same invalid settings back
/// every frame (which marks them changed) does not flood the log.
pub(crate) fn validate_settings(
    settings: Res<FlockSettings>,
    mut active: ResMut<ActiveFlockSettings>,
    mut logged: Local<Option<ConfigError>>,
) {
    if !settings.is_changed() {
        return;
    }
    if let Some(error) = review_settings(&settings, &mut active, &mut logged) {
        error!("{error}; keeping the last valid settings");
    }
}

/// The decision of [`validate_settings`], apart from Bevy: valid settings become the active
/// ones; an invalid field is returned to be logged unless it is the one logged last.
fn review_settings(
    settings: &FlockSettings,
    active: &mut ActiveFlockSettings,
    logged: &mut Option<ConfigError>,
) -> Option<ConfigError> {
    if *settings == active.0 {
        *logged = None;
        return None;
    }
    match settings.validate() {
        Ok(()) => {
            active.0 = settings.clone();
            *logged = None;
            None
        }
        Err(error)
            if logged
                .as_ref()
                .is_some_and(|last| same_problem(last, &error)) =>
        {
            None
        }
        Err(error) => {
            *logged = Some(error.clone());
            Some(error)
        }
    }
}

/// Whether two errors are the same problem; compares the value's bits, as NaN is never equal
/// to itself.
fn same_problem(a: &ConfigError, b: &ConfigError) -> bool {
    a.field == b.field && a.reason == b.reason && a.value.to_bits() == b.value.to_bits()
}

/// Keeps the bounds on the camera's visible area when they follow the camera.
#[cfg(feature = "render")]
pub(crate) fn follow_camera_bounds(
    mut settings: ResMut<FlockSettings>,
    cameras: Query<(&GlobalTransform, &Projection, Has<FlockCamera>), With<Camera2d>>,
) {
    if settings.bounds_source != BoundsSource::FollowCamera {
        return;
    }
    let chosen = cameras
        .iter()
        .find(|(_, _, marked)| *marked)
        .or_else(|| cameras.single().ok());
    let Some((transform, Projection::Orthographic(projection), _)) = chosen else {
        return;
    };
    let area = projection.area;
    if area.width() <= 0.0 || area.height() <= 0.0 {
        // The projection has not been sized to a window yet.
        return;
    }
    let centre = transform.translation().truncate();
    let bounds = flock_core::Bounds {
        min: area.min + centre,
        max: area.max + centre,
    };
    // Only write on a real change, so change detection means "the user or the window moved".
    if settings.config.bounds != bounds {
        settings.config.bounds = bounds;
    }
}

/// Without the `render` feature there is no camera to follow: says so once when the settings
/// ask for it, and the bounds stay as set.
#[cfg(not(feature = "render"))]
pub(crate) fn follow_camera_bounds(settings: Res<FlockSettings>, mut warned: Local<bool>) {
    if settings.bounds_source == BoundsSource::FollowCamera && !*warned {
        warn!(
            "bevy_flock: `BoundsSource::FollowCamera` needs the `render` feature; \
             the bounds stay as set"
        );
        *warned = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_value_is_reported_once_until_it_changes() {
        let mut active = ActiveFlockSettings::default();
        let mut logged = None;
        let mut settings = FlockSettings::default();
        settings.config.max_speed = f32::NAN;
        // Written back every frame: reported the first time only.
        let first = review_settings(&settings, &mut active, &mut logged);
        assert_eq!(first.map(|e| e.field), Some("max_speed"));
        for _ in 0..3 {
            assert_eq!(review_settings(&settings, &mut active, &mut logged), None);
        }
        assert_eq!(active.0, FlockSettings::default());

        // Another problem is reported; then a valid change is taken and clears the memory.
        settings.config.max_speed = -1.0;
        assert!(review_settings(&settings, &mut active, &mut logged).is_some());
        settings.config.max_speed = 50.0;
        assert_eq!(review_settings(&settings, &mut active, &mut logged), None);
        assert_eq!(active.0.config.max_speed, 50.0);
        settings.config.max_speed = -1.0;
        assert!(review_settings(&settings, &mut active, &mut logged).is_some());
    }
}
