//! The README's shortest app, as a user writes it in a new project: Bevy's default plugins, the
//! flock's plugin, a camera and 300 boids, drawn with the sprite bundled in the crate (no
//! `assets` folder needed). CI runs it and fails on any warning or error in its log.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, BoidsPlugin::default()))
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(Camera2d);
            commands.queue(SpawnBoids::new(300, Placement::RandomInBounds));
        })
        // Not in the README: screenshots for CI when FLOCK_SCREENSHOTS is set.
        .add_plugins(support::ScreenshotsOnRequest { example: "minimal" })
        .run();
}
