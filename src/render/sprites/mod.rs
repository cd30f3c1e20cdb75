//! The boid sprites that ship inside the crate (feature `render`, 2D): an arrow, a fish and a
//! bird, embedded in the binary with Bevy's embedded assets, so an app draws them with no file
//! of its own to copy. `tools/draw_sprites.py` draws them.

use bevy::asset::embedded_asset;
use bevy::asset::io::embedded::EmbeddedAssetRegistry;
use bevy::prelude::*;

use crate::render::prefab::{BoidColors, BoidPrefab};

/// One of the sprites bundled with the crate: white shapes with a dark outline, 64 x 64 pixels,
/// pointing along +x, tinted by the prefab's [`BoidColors`].
///
/// ```
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn use_fish(mut prefab: ResMut<BoidPrefab>, assets: Res<AssetServer>) {
///     *prefab = BoidSprite::Fish.prefab(&assets);
/// }
/// # bevy::ecs::system::assert_is_system(use_fish);
/// ```
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoidSprite {
    /// A slim arrowhead: the plugin's default look.
    Arrow,
    /// A fish with a tail fin.
    Fish,
    /// A bird seen from above, wings spread.
    Bird,
}

impl BoidSprite {
    /// Every bundled sprite.
    pub const ALL: [Self; 3] = [Self::Arrow, Self::Fish, Self::Bird];

    /// The sprite's name, as the tuning panel lists it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Arrow => "arrow",
            Self::Fish => "fish",
            Self::Bird => "bird",
        }
    }

    /// The asset path to load it from (the `embedded://` source), for `AssetServer::load`.
    pub fn asset_path(self) -> &'static str {
        match self {
            Self::Arrow => "embedded://bevy_flock/render/sprites/arrow.png",
            Self::Fish => "embedded://bevy_flock/render/sprites/fish.png",
            Self::Bird => "embedded://bevy_flock/render/sprites/bird.png",
        }
    }

    /// A prefab drawing boids with this sprite, at a size and in colours that suit it.
    pub fn prefab(self, assets: &AssetServer) -> BoidPrefab {
        let (size, colors) = match self {
            Self::Arrow => (22.0, BoidColors::Single(Color::srgb(0.55, 0.85, 1.0))),
            Self::Fish => (
                26.0,
                BoidColors::RandomHue {
                    saturation: 0.75,
                    lightness: 0.62,
                },
            ),
            Self::Bird => (28.0, BoidColors::Single(Color::srgb(1.0, 0.78, 0.45))),
        };
        BoidPrefab {
            image: assets.load(self.asset_path()),
            size: Vec2::splat(size),
            colors,
        }
    }
}

/// Embeds the sprites where the app has an asset server, and draws the flock with the arrow
/// unless the app chose a prefab of its own (the resource still holds `BoidPrefab::default()`,
/// the plain square that an app without assets keeps).
pub(crate) fn add_bundled_sprites(app: &mut App) {
    // Only an app with images can load them (a headless app may have an asset server and no
    // image type).
    if !app.world().contains_resource::<EmbeddedAssetRegistry>()
        || !app.world().contains_resource::<Assets<Image>>()
    {
        return;
    }
    embedded_asset!(app, "arrow.png");
    embedded_asset!(app, "fish.png");
    embedded_asset!(app, "bird.png");
    let Some(assets) = app.world().get_resource::<AssetServer>().cloned() else {
        return;
    };
    let world = app.world_mut();
    if world
        .get_resource::<BoidPrefab>()
        .is_some_and(|prefab| *prefab == BoidPrefab::default())
    {
        world.insert_resource(BoidSprite::Arrow.prefab(&assets));
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use bevy::asset::{AssetPlugin, embedded_path};
    use bevy::image::{CompressedImageFormats, ImageLoader, ImagePlugin};

    use super::*;
    use crate::BoidsPlugin;

    #[test]
    fn the_paths_are_where_embedded_asset_puts_the_files() {
        for (sprite, file) in BoidSprite::ALL.iter().zip(["arrow", "fish", "bird"]) {
            let embedded = embedded_path!(format!("{file}.png"));
            assert_eq!(
                sprite.asset_path(),
                format!("embedded://{}", embedded.display()),
                "{sprite:?}"
            );
        }
    }

    /// An app with an asset server (and an image loader, as the renderer registers) but no
    /// `assets` folder: the default prefab is the arrow, and it loads from inside the binary.
    fn app_with_assets(prefab: Option<BoidPrefab>) -> App {
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin {
                file_path: "no-such-assets-folder".into(),
                ..default()
            },
            ImagePlugin::default(),
            BoidsPlugin::default(),
        ));
        if let Some(prefab) = prefab {
            app.insert_resource(prefab);
        }
        app.register_asset_loader(ImageLoader::new(CompressedImageFormats::NONE));
        app.finish();
        app.cleanup();
        app
    }

    #[test]
    fn the_default_prefab_is_the_coloured_arrow_loaded_from_the_binary() {
        let mut app = app_with_assets(None);
        let prefab = app.world().resource::<BoidPrefab>().clone();
        assert_ne!(prefab, BoidPrefab::default());
        assert_ne!(prefab.colors, BoidColors::Single(Color::WHITE));
        let start = Instant::now();
        let image = loop {
            app.update();
            if let Some(image) = app.world().resource::<Assets<Image>>().get(&prefab.image) {
                break image.clone();
            }
            let state = app
                .world()
                .resource::<AssetServer>()
                .load_state(&prefab.image);
            assert!(!state.is_failed(), "the arrow failed to load: {state:?}");
            assert!(start.elapsed() < Duration::from_secs(10), "never loaded");
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(image.size(), UVec2::new(64, 64));
        // The arrow points along +x: its tip is on the middle row near the right edge, and the
        // corners on that side are clear.
        let alpha = |x, y| image.get_color_at(x, y).unwrap().alpha();
        let opaque_on_middle_row = (0..64).filter(|&x| alpha(x, 32) > 0.5).max().unwrap();
        assert!(
            opaque_on_middle_row > 48,
            "tip at x = {opaque_on_middle_row}"
        );
        assert_eq!(alpha(63, 0), 0.0);
        assert_eq!(alpha(63, 63), 0.0);
    }

    #[test]
    fn a_prefab_the_app_chose_is_kept() {
        let own = BoidPrefab {
            size: Vec2::new(3.0, 4.0),
            ..default()
        };
        let app = app_with_assets(Some(own.clone()));
        assert_eq!(*app.world().resource::<BoidPrefab>(), own);
    }
}
