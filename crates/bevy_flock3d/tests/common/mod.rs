//! What the headless 3D `App` tests share: bevy_flock's dimension-free `tests/common` (each
//! test file names `bevy_flock3d` as `bevy_flock` for it), plus a few helpers of their own.
#![allow(dead_code)] // Each test file uses some of these.

#[path = "../../../../tests/common/mod.rs"]
mod shared;

use bevy::prelude::*;
use bevy_flock::prelude::*;
pub use shared::*;

/// An app whose flock has `config`.
pub fn app_with(config: FlockConfig) -> App {
    create_app(FlockSettings::from_config(config), 11)
}

/// A nimble vehicle for behaviour tests.
pub const VEHICLE: MotionLimits = MotionLimits {
    max_speed: 200.0,
    max_force: 2_000.0,
    mass: 1.0,
};

pub fn position(app: &App, entity: Entity) -> Vec3 {
    app.world().get::<Transform>(entity).unwrap().translation
}

pub fn velocity(app: &App, entity: Entity) -> Vec3 {
    app.world().get::<Velocity>(entity).unwrap().0
}
