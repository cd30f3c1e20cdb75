//! Boids whose image fails to load (feature `render`): drawn as a built-in triangle instead of
//! not at all, with one log line saying where the image was looked for.
//!
//! A binary run outside the repository, or a typo in a prefab's path, leaves the sprite's
//! handle pointing at an image that never loads, and Bevy draws nothing for such a sprite.

use bevy::asset::AssetLoadFailedEvent;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use crate::components::Boid;

/// The images that failed to load with the line logged for each, and the triangle drawn in
/// their place (made on the first failure).
#[derive(Resource, Debug, Default)]
pub(crate) struct MissingImages {
    failed: HashMap<AssetId<Image>, String>,
    triangle: Option<Handle<Image>>,
}

impl MissingImages {
    /// Records a failure; the line to log the first time this image fails, `None` after.
    fn record(&mut self, failure: &AssetLoadFailedEvent<Image>) -> Option<String> {
        if self.failed.contains_key(&failure.id) {
            return None;
        }
        // For a missing file the error names the full path the asset reader tried.
        let report = format!(
            "bevy_flock: the boid image \"{}\" did not load ({}); drawing those boids as a \
             built-in triangle. A binary run outside its project finds its assets with \
             BEVY_ASSET_ROOT set to the folder that holds `assets`",
            failure.path, failure.error
        );
        self.failed.insert(failure.id, report.clone());
        Some(report)
    }
}

/// Adds the replacement, where the app has images at all (a server app may have none).
pub(crate) fn add_missing_image_fallback(app: &mut App) {
    if app.world().contains_resource::<Assets<Image>>() {
        app.init_resource::<MissingImages>()
            .add_systems(PostUpdate, replace_missing_images);
    }
}

/// Notes failed images (logging each once) and gives boids drawn with one the triangle.
fn replace_missing_images(
    mut failures: MessageReader<AssetLoadFailedEvent<Image>>,
    mut missing: ResMut<MissingImages>,
    mut images: ResMut<Assets<Image>>,
    mut boids: Query<&mut Sprite, With<Boid>>,
) {
    let mut new_failure = false;
    for failure in failures.read() {
        if let Some(report) = missing.record(failure) {
            warn!("{report}");
            new_failure = true;
        }
    }
    if missing.failed.is_empty() {
        return;
    }
    let missing = &mut *missing;
    let triangle = missing
        .triangle
        .get_or_insert_with(|| images.add(triangle_image()));
    // A new failure may concern boids spawned long ago; otherwise only sprites set since the
    // last run (new boids, a restyle) can have picked up a failed image.
    for mut sprite in &mut boids {
        if (new_failure || sprite.is_changed()) && missing.failed.contains_key(&sprite.image.id()) {
            sprite.image = triangle.clone();
        }
    }
}

/// Width and height of the triangle in pixels; the sprite's size scales it.
const TRIANGLE_SIZE: (u32, u32) = (32, 16);

/// A white triangle on a transparent ground, pointing along +x as the bundled sprites do (the
/// sprite's colour tints it).
fn triangle_image() -> Image {
    let (width, height) = TRIANGLE_SIZE;
    let half = height as f32 / 2.0;
    let mut data = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            // Pixel centres: the tip is at the right edge's middle, the base is the left edge.
            let along = (x as f32 + 0.5) / width as f32;
            let across = (y as f32 + 0.5 - half).abs() / half;
            let alpha = if across <= 1.0 - along { 255 } else { 0 };
            data.extend_from_slice(&[255, 255, 255, alpha]);
        }
    }
    // Bevy's transparent image has the usual format and usages (8-bit sRGB RGBA, in the main
    // and render worlds); only its size and pixels change.
    let mut image = Image::transparent();
    image.texture_descriptor.size.width = width;
    image.texture_descriptor.size.height = height;
    image.data = Some(data);
    image
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use bevy::asset::io::AssetReaderError;
    use bevy::asset::{AssetLoadError, AssetPlugin};
    use bevy::image::{CompressedImageFormats, ImageLoader, ImagePlugin};
    use bevy::time::TimeUpdateStrategy;

    use super::*;
    use crate::{BoidPrefab, BoidsPlugin, Placement, spawn_boids};

    fn failure(path: &str, looked_at: &str) -> AssetLoadFailedEvent<Image> {
        AssetLoadFailedEvent {
            id: AssetId::invalid(),
            path: path.to_string().into(),
            error: AssetLoadError::AssetReaderError(AssetReaderError::NotFound(looked_at.into())),
        }
    }

    #[test]
    fn a_failure_is_reported_once_with_where_the_image_was_looked_for() {
        let mut missing = MissingImages::default();
        let event = failure("sprites/fsh.png", "/srv/game/assets/sprites/fsh.png");
        let report = missing
            .record(&event)
            .expect("the first failure is reported");
        assert!(report.contains("sprites/fsh.png"), "{report}");
        assert!(
            report.contains("/srv/game/assets/sprites/fsh.png"),
            "{report}"
        );
        assert_eq!(missing.record(&event), None);
    }

    #[test]
    fn the_triangle_points_along_x_and_is_see_through_around_it() {
        let image = triangle_image();
        let (width, height) = TRIANGLE_SIZE;
        assert_eq!(image.size(), UVec2::new(width, height));
        let alpha = |x, y| image.get_color_at(x, y).unwrap().alpha();
        // Solid along the middle from the base almost to the tip, clear in the tip's corners.
        for x in 0..width - 2 {
            assert_eq!(alpha(x, height / 2), 1.0, "middle row at x = {x}");
        }
        assert_eq!(alpha(width - 1, 0), 0.0);
        assert_eq!(alpha(width - 1, height - 1), 0.0);
        assert_eq!(alpha(0, 0), 1.0, "the base spans the left edge");
    }

    /// A prefab with a mistyped path, loaded through Bevy's asset server from a real folder:
    /// the boids end up drawn with the triangle, and the failure names the full path.
    #[test]
    fn boids_with_a_missing_image_are_drawn_as_the_triangle() {
        let root = std::env::temp_dir().join(format!("bevy_flock_missing_{}", std::process::id()));
        std::fs::create_dir_all(root.join("sprites")).unwrap();
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin {
                file_path: root.to_string_lossy().into_owned(),
                ..default()
            },
            ImagePlugin::default(),
            BoidsPlugin::default(),
        ));
        // The renderer registers the image loader (Bevy's image plugin only announces it, and
        // loads wait for it); a test without one registers it itself.
        app.register_asset_loader(ImageLoader::new(CompressedImageFormats::NONE));
        app.finish();
        app.cleanup();
        let image: Handle<Image> = app
            .world()
            .resource::<AssetServer>()
            .load("sprites/fsh.png");
        app.world_mut().resource_mut::<BoidPrefab>().image = image.clone();
        spawn_boids(app.world_mut(), 5, Placement::At(Vec2::ZERO));

        let start = Instant::now();
        let triangle = loop {
            app.update();
            if let Some(triangle) = &app.world().resource::<MissingImages>().triangle {
                break triangle.clone();
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the missing image was never reported"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        // One more frame for sprites that were set in the same frame as the failure.
        app.update();
        let mut sprites = app.world_mut().query_filtered::<&Sprite, With<Boid>>();
        let images: Vec<_> = sprites
            .iter(app.world())
            .map(|sprite| sprite.image.id())
            .collect();
        assert_eq!(images, vec![triangle.id(); 5]);
        assert!(app.world().resource::<Assets<Image>>().contains(&triangle));
        // A few fixed steps, so every boid has turned to face its velocity.
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )));
        for _ in 0..3 {
            app.update();
        }
        assert_each_triangle_points_along_its_velocity(&mut app);

        // A boid spawned after the failure gets the triangle too.
        spawn_boids(app.world_mut(), 1, Placement::At(Vec2::ONE));
        app.update();
        let mut sprites = app.world_mut().query_filtered::<&Sprite, With<Boid>>();
        assert!(
            sprites
                .iter(app.world())
                .all(|sprite| sprite.image.id() == triangle.id())
        );
        // Logged with the full path the image was looked for at.
        let looked_at = root.join("sprites").join("fsh.png");
        let _ = std::fs::remove_dir_all(&root);
        let missing = app.world().resource::<MissingImages>();
        let report = &missing.failed[&image.id()];
        assert!(
            report.contains(&looked_at.display().to_string()),
            "{report}"
        );
        assert_eq!(missing.failed.len(), 1);
    }

    /// Reads the triangle's pixels as each boid's sprite lays them out in the world (its
    /// transform and size): the shape's tip, the opaque pixel farthest ahead, lies on the line
    /// of the boid's velocity, and most of its area lies behind the centre, towards the base.
    fn assert_each_triangle_points_along_its_velocity(app: &mut App) {
        let mut boids = app
            .world_mut()
            .query_filtered::<(&Sprite, &Transform, &crate::Velocity), With<Boid>>();
        let world = app.world();
        let images = world.resource::<Assets<Image>>();
        let mut checked = 0;
        for (sprite, transform, velocity) in boids.iter(world) {
            let image = images.get(&sprite.image).unwrap();
            let size = sprite.custom_size.unwrap();
            let heading = velocity.0.normalize();
            let (width, height) = (image.width(), image.height());
            let (mut ahead, mut behind) = (0, 0);
            let mut tip = Vec2::ZERO;
            for y in 0..height {
                for x in 0..width {
                    if image.get_color_at(x, y).unwrap().alpha() < 0.5 {
                        continue;
                    }
                    // Image rows run down, the sprite's y up; the sprite is centred.
                    let local = Vec2::new(
                        ((x as f32 + 0.5) / width as f32 - 0.5) * size.x,
                        (0.5 - (y as f32 + 0.5) / height as f32) * size.y,
                    );
                    let at = transform.transform_point(local.extend(0.0)).truncate()
                        - transform.translation.truncate();
                    if at.dot(heading) > 0.0 {
                        ahead += 1;
                    } else {
                        behind += 1;
                    }
                    if at.dot(heading) > tip.dot(heading) {
                        tip = at;
                    }
                }
            }
            assert_ne!(
                transform.rotation,
                Quat::IDENTITY,
                "the boid has not turned yet"
            );
            // A triangle pointing forward has three quarters of its area behind its centre.
            assert!(behind > 2 * ahead, "{behind} pixels behind, {ahead} ahead");
            let off_the_line = tip.perp_dot(heading).abs();
            assert!(
                tip.dot(heading) > 0.4 * size.x && off_the_line < 0.1 * size.y,
                "the tip is at {tip}, the boid flies along {heading}"
            );
            checked += 1;
        }
        assert!(checked > 0);
    }
}
