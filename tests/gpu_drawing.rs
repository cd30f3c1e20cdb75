//! The GPU flock drawn from its boid buffer (feature `gpu`): a camera rendering into an image
//! that is read back, with boids placed where the test knows. A boid's pixels take the
//! prefab's colour and the background stays clear elsewhere; a camera on another render layer
//! draws nothing; MSAA views and both kinds of mesh draw; in 2D the flock sorts with sprites by
//! its depth. `bevy_flock3d` runs the same cases
//! in 3D (`[[test]] path` in its manifest), with meshes instead of sprites.
//!
//! They need a GPU adapter (see `common::gpu`): without one each test says so and passes,
//! unless `FLOCK_REQUIRE_GPU=1`.
#![cfg(feature = "gpu")]

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::sync::{Arc, Mutex};

use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::gpu_readback::{Readback, ReadbackComplete};
use bevy::render::render_resource::{TextureFormat, TextureUsages};
use bevy_flock::flock_core::Vector;
use bevy_flock::gpu::GpuFlock;
use bevy_flock::prelude::*;
use common::gpu::{gpu_app, gpu_available};

/// The image's side in pixels: 64 pixels of 4 bytes fill the 256 bytes a copied row is
/// aligned to, so the read-back has no padding.
const SIDE: u32 = 64;

/// The pixels a camera drew, as sRGB bytes, row by row from the top.
#[derive(Resource, Clone, Default)]
struct Pixels(Arc<Mutex<Option<Vec<u8>>>>);

impl Pixels {
    /// Whether any pixel has been drawn on the black background.
    fn any_lit(&self) -> bool {
        let guard = self.0.lock().unwrap();
        guard
            .as_ref()
            .is_some_and(|bytes| bytes.chunks_exact(4).any(|pixel| pixel[..3] != [0, 0, 0]))
    }

    /// The pixel at column `x`, row `y`.
    fn at(&self, x: u32, y: u32) -> [u8; 4] {
        let guard = self.0.lock().unwrap();
        let bytes = guard.as_ref().expect("no pixels read back");
        let at = ((y * SIDE + x) * 4) as usize;
        [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
    }
}

/// Boids at rest (the flock is paused, so they stay where they were put), heading along +x.
fn boids_at(points: &[Vector]) -> GpuFlock {
    let mut flock = GpuFlock::default();
    let heading = Vector::X * 10.0;
    let velocities = vec![heading; points.len()];
    assert_eq!(flock.spawn_states(points, &velocities), points.len());
    flock.set_paused(true);
    flock
}

/// Renders the flock with `prefab` through one camera per entry of `layers`, each into a
/// `SIDE`-pixel image on black, and reads them back: frames run until the first camera's
/// image shows something (pipelines compile over a few frames), then two more, so every
/// image is one drawn with everything ready.
fn draw(
    flock: GpuFlock,
    prefab: impl FnOnce(&mut World) -> BoidPrefab,
    layers: &[RenderLayers],
) -> Vec<Pixels> {
    draw_until(flock, prefab, layers, Pixels::any_lit)
}

/// [`draw`], with frames running until the first camera's image passes `drawn`.
fn draw_until(
    flock: GpuFlock,
    prefab: impl FnOnce(&mut World) -> BoidPrefab,
    layers: &[RenderLayers],
    drawn: impl Fn(&Pixels) -> bool,
) -> Vec<Pixels> {
    let mut app = gpu_app(flock);
    let world = app.world_mut();
    let prefab = prefab(world);
    world.insert_resource(prefab);
    let pixels: Vec<Pixels> = layers
        .iter()
        .map(|layers| {
            let mut image =
                Image::new_target_texture(SIDE, SIDE, TextureFormat::Rgba8UnormSrgb, None);
            image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
            let image = world.resource_mut::<Assets<Image>>().add(image);
            world.spawn((
                camera(),
                RenderTarget::Image(image.clone().into()),
                layers.clone(),
            ));
            let pixels = Pixels::default();
            let sink = pixels.clone();
            world
                .spawn(Readback::texture(image))
                .observe(move |read: On<ReadbackComplete>| {
                    *sink.0.lock().unwrap() = Some(read.data.clone());
                });
            pixels
        })
        .collect();
    let mut after_first_drawing = None;
    for frame in 0..300 {
        app.update();
        if after_first_drawing.is_none() && drawn(&pixels[0]) {
            after_first_drawing = Some(frame);
        }
        if after_first_drawing.is_some_and(|first| frame >= first + 2) {
            return pixels;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    panic!("the first camera's image was not drawn in 300 frames");
}

#[cfg(not(flock_3d))]
fn camera() -> impl Bundle {
    (
        Camera2d,
        Camera {
            clear_color: ClearColorConfig::Custom(Color::BLACK),
            ..default()
        },
    )
}

#[cfg(flock_3d)]
fn camera() -> impl Bundle {
    use bevy::core_pipeline::tonemapping::Tonemapping;
    (
        Camera3d::default(),
        Camera {
            clear_color: ClearColorConfig::Custom(Color::BLACK),
            ..default()
        },
        // Colours as the shader writes them.
        Tonemapping::None,
        // Looking down -z at the origin from 50 units away, 45 degrees across: the image
        // spans about +-20.7 units at z = 0.
        Transform::from_xyz(0.0, 0.0, 50.0).looking_at(Vec3::ZERO, Vec3::Y),
        Projection::Perspective(PerspectiveProjection {
            fov: std::f32::consts::FRAC_PI_4,
            ..default()
        }),
    )
}

/// Two boids, one up and left of the middle and one down and right, at the pixels
/// [`BOID_PIXELS`] says.
#[cfg(not(flock_3d))]
fn two_boids() -> [Vector; 2] {
    // One world unit a pixel, the origin in the middle of the image.
    [Vec2::new(-15.5, 7.5), Vec2::new(16.5, -8.5)]
}

#[cfg(flock_3d)]
fn two_boids() -> [Vector; 2] {
    // At z = 0 the image spans 50 tan(22.5 degrees) units either side of the middle.
    let per_pixel = 50.0 * (std::f32::consts::FRAC_PI_8).tan() / 32.0;
    [
        Vec3::new(-15.5 * per_pixel, 7.5 * per_pixel, 0.0),
        Vec3::new(16.5 * per_pixel, -8.5 * per_pixel, 0.0),
    ]
}

/// The pixels (column, row) under [`two_boids`].
const BOID_PIXELS: [(u32, u32); 2] = [(16, 24), (48, 40)];

/// A prefab of one colour: the plain white sprite 8 units across (2D), a cube 6 units across
/// (3D).
fn single_colour(color: Color) -> impl FnOnce(&mut World) -> BoidPrefab {
    move |world| {
        let colors = BoidColors::Single(color);
        #[cfg(not(flock_3d))]
        {
            let _ = world;
            BoidPrefab {
                image: Handle::default(),
                size: Vec2::splat(8.0),
                colors,
            }
        }
        #[cfg(flock_3d)]
        {
            let mesh = world
                .resource_mut::<Assets<Mesh>>()
                .add(Cuboid::new(6.0, 6.0, 6.0));
            BoidPrefab { mesh, colors }
        }
    }
}

fn is_black(pixel: [u8; 4]) -> bool {
    pixel[..3] == [0, 0, 0]
}

#[test]
fn boids_are_drawn_where_they_are_in_the_prefab_colour_and_nothing_else_is() {
    if !gpu_available() {
        return;
    }
    let red = Color::srgb(1.0, 0.0, 0.0);
    let [image] = &draw(
        boids_at(&two_boids()),
        single_colour(red),
        &[RenderLayers::default()],
    )[..] else {
        unreachable!()
    };
    for (x, y) in BOID_PIXELS {
        let [r, g, b, _] = image.at(x, y);
        // 2D: the white sprite tinted red, exactly. 3D: the red cube, lit from above.
        #[cfg(not(flock_3d))]
        assert!(
            r >= 253 && g <= 2 && b <= 2,
            "pixel ({x}, {y}) is {:?}",
            [r, g, b]
        );
        #[cfg(flock_3d)]
        assert!(
            r >= 60 && g <= 4 && b <= 4,
            "pixel ({x}, {y}) is {:?}",
            [r, g, b]
        );
    }
    // The middle, the corners and a point beside each boid stay black.
    for (x, y) in [
        (32, 32),
        (0, 0),
        (63, 63),
        (0, 63),
        (63, 0),
        (16, 40),
        (48, 24),
    ] {
        assert!(
            is_black(image.at(x, y)),
            "pixel ({x}, {y}) is {:?}",
            image.at(x, y)
        );
    }
}

#[test]
fn random_hues_colour_each_boid_its_own_way() {
    if !gpu_available() {
        return;
    }
    let prefab = |world: &mut World| BoidPrefab {
        colors: BoidColors::RandomHue {
            saturation: 1.0,
            lightness: 0.5,
        },
        ..single_colour(Color::WHITE)(world)
    };
    let [image] = &draw(boids_at(&two_boids()), prefab, &[RenderLayers::default()])[..] else {
        unreachable!()
    };
    let [first, second] = BOID_PIXELS.map(|(x, y)| image.at(x, y));
    for pixel in [first, second] {
        let (low, high) = (
            pixel[..3].iter().min().unwrap(),
            pixel[..3].iter().max().unwrap(),
        );
        // Fully saturated: far from grey.
        assert!(high - low > 40, "{pixel:?} is not a saturated colour");
    }
    assert_ne!(first[..3], second[..3], "two boids, one hue");
}

#[test]
fn only_cameras_that_see_the_flocks_layers_draw_it() {
    if !gpu_available() {
        return;
    }
    let green = Color::srgb(0.0, 1.0, 0.0);
    let other = RenderLayers::layer(1);
    // The flock on layer 0 (the default): a camera on layer 1 draws nothing.
    let images = draw(
        boids_at(&two_boids()),
        single_colour(green),
        &[RenderLayers::default(), other.clone()],
    );
    assert!(!is_black(images[0].at(16, 24)));
    assert!(!images[1].any_lit(), "a camera on layer 1 drew the flock");

    // Moved to layer 1: now only that camera draws it.
    let mut flock = boids_at(&two_boids());
    flock.set_render_layers(other.clone());
    let images = draw(
        flock,
        single_colour(green),
        &[other, RenderLayers::default()],
    );
    assert!(!is_black(images[0].at(16, 24)));
    assert!(
        !images[1].any_lit(),
        "a camera on layer 0 drew a flock on layer 1"
    );
}

/// The bird is drawn without an index buffer, the cube above with one: both kinds of mesh draw.
#[cfg(flock_3d)]
#[test]
fn meshes_without_indices_draw_too() {
    if !gpu_available() {
        return;
    }
    let prefab = |world: &mut World| BoidPrefab {
        mesh: world
            .resource_mut::<Assets<Mesh>>()
            .add(bevy_flock::bird_mesh(8.0)),
        colors: BoidColors::Single(Color::WHITE),
    };
    let [image] = &draw(boids_at(&two_boids()), prefab, &[RenderLayers::default()])[..] else {
        unreachable!()
    };
    for (x, y) in BOID_PIXELS {
        assert!(!is_black(image.at(x, y)), "no bird at ({x}, {y})");
    }
    assert!(is_black(image.at(32, 32)));
}

/// The 2D flock is one item of the transparent 2D phase at its depth: a sprite above it
/// covers a boid, a sprite below it is covered, and raised above both it covers them. A depth
/// that is not finite or far out is refused and the last kept.
#[cfg(not(flock_3d))]
#[test]
fn the_2d_flock_sorts_with_sprites_by_its_depth() {
    let mut flock = GpuFlock::default();
    for refused in [f32::NAN, f32::INFINITY, -f32::INFINITY, 1e30] {
        assert!(flock.set_draw_depth(refused).is_err(), "{refused}");
        assert_eq!(flock.draw_depth(), 0.0);
    }
    if !gpu_available() {
        return;
    }
    let [above, below] = two_boids();
    let blue = Color::srgb(0.0, 0.0, 1.0);
    let green = Color::srgb(0.0, 1.0, 0.0);
    let with_sprites = |world: &mut World| {
        world.spawn((
            Sprite::from_color(blue, Vec2::splat(16.0)),
            Transform::from_translation(above.extend(1.0)),
        ));
        world.spawn((
            Sprite::from_color(green, Vec2::splat(16.0)),
            Transform::from_translation(below.extend(-1.0)),
        ));
        single_colour(Color::srgb(1.0, 0.0, 0.0))(world)
    };
    let is = |pixel: [u8; 4], rgb: [u8; 3]| {
        pixel[..3]
            .iter()
            .zip(rgb)
            .all(|(&got, want)| got.abs_diff(want) <= 2)
    };
    let (red, blue, green) = ([255, 0, 0], [0, 0, 255], [0, 255, 0]);
    let [(x1, y1), (x2, y2)] = BOID_PIXELS;

    // Frames run until the flock and both sprites show (the sprites' pipelines compile
    // apart from the flock's).
    let all_drawn = |pixels: &Pixels| {
        let lit = |x, y| pixels.any_lit() && !is_black(pixels.at(x, y));
        lit(x1, y1) && lit(x2, y2) && lit(x1 + 6, y1 + 6) && lit(x2 + 6, y2 + 6)
    };
    // At z = 0: under the blue sprite, over the green one (whose edge shows beside the boid).
    let [image] = &draw_until(
        boids_at(&two_boids()),
        with_sprites,
        &[RenderLayers::default()],
        all_drawn,
    )[..] else {
        unreachable!()
    };
    assert!(is(image.at(x1, y1), blue), "{:?}", image.at(x1, y1));
    assert!(is(image.at(x2, y2), red), "{:?}", image.at(x2, y2));
    assert!(
        is(image.at(x2 + 6, y2 + 6), green),
        "{:?}",
        image.at(x2 + 6, y2 + 6)
    );

    // Raised to z = 2: over both.
    let mut raised = boids_at(&two_boids());
    raised.set_draw_depth(2.0).unwrap();
    let [image] = &draw_until(raised, with_sprites, &[RenderLayers::default()], all_drawn)[..]
    else {
        unreachable!()
    };
    assert!(is(image.at(x1, y1), red), "{:?}", image.at(x1, y1));
    assert!(is(image.at(x2, y2), red), "{:?}", image.at(x2, y2));
    assert!(
        is(image.at(x1 + 6, y1 + 6), blue),
        "{:?}",
        image.at(x1 + 6, y1 + 6)
    );
}
