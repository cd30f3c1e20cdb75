//! The drawn flock (feature `render`): the prefab each boid is drawn with (sprites in 2D, meshes
//! in 3D), the bundled sprites and meshes, the fallback for an image that failed to load, and the
//! pointer (the cursor in the world, and a click that adds a boid, off unless the app turns it
//! on).

#[cfg(flock_3d)]
pub(crate) mod meshes;
#[cfg(not(flock_3d))]
pub(crate) mod missing_image;
pub(crate) mod pointer;
pub(crate) mod prefab;
#[cfg(not(flock_3d))]
pub(crate) mod sprites;

use bevy::prelude::*;

use crate::schedule::register_types;
use pointer::{ClickToSpawn, CursorWorldPosition, UiWantsInput, spawn_on_click, track_cursor};
use prefab::{BoidPrefab, PrefabStyled, restyle_boids, style_new_boid};

/// The drawn flock (feature `render`): inserts [`BoidPrefab`] (ones you inserted before are
/// kept), styles each new boid with it (sprites in 2D, the bundled arrow by default; meshes in
/// 3D, a low-poly bird by default), keeps [`CursorWorldPosition`] up to date and, when the app
/// turns [`ClickToSpawn`] on, adds a boid where the primary button clicks. Part of
/// [`FlockPlugins`](crate::FlockPlugins) and [`BoidsPlugin`](crate::BoidsPlugin); leave it out
/// for a server.
#[derive(Debug, Clone, Copy, Default)]
pub struct FlockRenderPlugin;

impl Plugin for FlockRenderPlugin {
    fn build(&self, app: &mut App) {
        #[cfg(not(flock_3d))]
        app.register_type::<crate::settings::FlockCamera>();
        #[cfg(flock_3d)]
        app.init_resource::<prefab::PrefabMaterials>()
            .add_systems(PostUpdate, prefab::paint_boids);

        register_types! { app =>
            PrefabStyled, BoidPrefab, ClickToSpawn, CursorWorldPosition, UiWantsInput
        }
        app.init_resource::<BoidPrefab>()
            .init_resource::<ClickToSpawn>()
            .init_resource::<CursorWorldPosition>()
            .init_resource::<UiWantsInput>()
            .add_observer(style_new_boid)
            .add_systems(
                Update,
                (
                    track_cursor,
                    spawn_on_click.after(track_cursor),
                    restyle_boids,
                ),
            );
    }

    fn finish(&self, app: &mut App) {
        // Checked here, once every plugin is built: only an app with images can miss one, and
        // the asset server is there by now whatever the order the plugins were added in.
        #[cfg(not(flock_3d))]
        {
            missing_image::add_missing_image_fallback(app);
            sprites::add_bundled_sprites(app);
        }
        // Likewise only an app with meshes gets the default bird.
        #[cfg(flock_3d)]
        prefab::add_default_mesh(app);
    }
}
