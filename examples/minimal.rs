//! The README's shortest app, as a user writes it in a new project: Bevy's default plugins, the
//! flock's plugin, a camera and 300 boids, drawn with the sprite bundled in the crate (no
//! `assets` folder needed). CI runs it and fails on any warning or error in its log.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;

fn main() {
    App::new()
        // Steering runs on Bevy's compute pool; this gives that pool every core.
        .add_plugins(DefaultPlugins.set(bevy_flock::all_cores_for_compute()))
        .insert_resource(FlockSettings {
            bounds_source: BoundsSource::FollowCamera,
            ..default()
        })
        .add_plugins(BoidsPlugin::default().with_seed(7))
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(Camera2d);
            commands.queue(SpawnBoids::new(300, Placement::RandomInBounds));
        })
        // Not in the README: screenshots for CI when FLOCK_SCREENSHOTS is set.
        .add_plugins(support::ScreenshotsOnRequest { example: "minimal" })
        .run();
}
