//! How the GPU flock looks: the app's [`BoidPrefab`] carried into the render world each frame,
//! and the per-view values the drawing shaders read (the camera's matrix, the colours, the
//! sprite's size).

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::Extract;

use super::GpuFlock;
use crate::render::prefab::{BoidColors, BoidPrefab};

/// The prefab as the render world draws the GPU flock with it.
#[derive(Resource, Debug, Clone, Default)]
pub(crate) struct RenderGpuLook {
    /// The sprite (2D).
    #[cfg(not(flock_3d))]
    pub image: AssetId<Image>,
    /// The sprite's size in world units (2D).
    #[cfg(not(flock_3d))]
    pub size: Vec2,
    /// The mesh (3D).
    #[cfg(flock_3d)]
    pub mesh: AssetId<Mesh>,
    /// How boids are coloured.
    pub colors: Option<BoidColors>,
    /// The cameras that draw the flock: those that see one of these layers.
    pub layers: RenderLayers,
}

/// In `ExtractSchedule`: the app's prefab, as the CPU flock's boids are drawn with it, and the
/// flock's render layers. A prefab the shaders cannot draw (see [`check_prefab`]) is refused
/// with a warning (once while it stays) and the flock keeps its last look.
pub(crate) fn extract_gpu_look(
    prefab: Extract<Option<Res<BoidPrefab>>>,
    flock: Extract<Option<Res<GpuFlock>>>,
    mut look: ResMut<RenderGpuLook>,
    mut warned: Local<bool>,
) {
    let layers = flock
        .as_deref()
        .map_or_else(RenderLayers::default, |flock| flock.render_layers().clone());
    let Some(prefab) = prefab.as_deref() else {
        *look = RenderGpuLook {
            layers,
            ..default()
        };
        return;
    };
    if let Err(problem) = check_prefab(prefab) {
        if !*warned {
            warn!("GPU flock: the prefab's {problem}; drawing with the last prefab");
            *warned = true;
        }
        look.layers = layers;
        return;
    }
    *warned = false;
    *look = RenderGpuLook {
        #[cfg(not(flock_3d))]
        image: prefab.image.id(),
        #[cfg(not(flock_3d))]
        size: prefab.size,
        #[cfg(flock_3d)]
        mesh: prefab.mesh.id(),
        colors: Some(prefab.colors),
        layers,
    };
}

/// Why the shaders cannot draw with this prefab, if they cannot: colours and (2D) a size that
/// are not finite or negative would put NaN on the screen.
pub(crate) fn check_prefab(prefab: &BoidPrefab) -> Result<(), &'static str> {
    #[cfg(not(flock_3d))]
    if !(prefab.size.is_finite() && prefab.size.cmpge(Vec2::ZERO).all()) {
        return Err("size must be finite and not negative");
    }
    let finite = match prefab.colors {
        BoidColors::Single(color) => color
            .to_linear()
            .to_f32_array()
            .iter()
            .all(|c| c.is_finite()),
        BoidColors::RandomHue {
            saturation,
            lightness,
        } => saturation.is_finite() && lightness.is_finite(),
    };
    if finite {
        Ok(())
    } else {
        Err("colours must be finite")
    }
}

/// Bytes of [`view_uniform`]: a matrix and three vectors of four floats, as `struct View` in the
/// drawing shaders.
pub(crate) const VIEW_UNIFORM_BYTES: u64 = (16 + 3 * 4) * 4;

/// What a view's draw reads, laid out as the shaders' `struct View`:
/// - `clip_from_world`;
/// - `color`: one colour for every boid, linear RGBA;
/// - `hue`: `[random hue: 1 or 0, saturation, lightness, alpha]`, each boid's hue drawn from
///   its index when random;
/// - `shape`: in 2D the sprite's size (x, y); in 3D the light's direction (x, y, z).
pub(crate) fn view_uniform(clip_from_world: Mat4, look: &RenderGpuLook) -> Vec<u8> {
    let (color, hue) = match look.colors.unwrap_or_default() {
        BoidColors::Single(color) => (color.to_linear().to_f32_array(), [0.0; 4]),
        BoidColors::RandomHue {
            saturation,
            lightness,
        } => (
            [1.0; 4],
            [
                1.0,
                saturation.clamp(0.0, 1.0),
                lightness.clamp(0.0, 1.0),
                1.0,
            ],
        ),
    };
    #[cfg(not(flock_3d))]
    let shape = [look.size.x, look.size.y, 0.0, 0.0];
    #[cfg(flock_3d)]
    let shape = LIGHT_DIRECTION.extend(0.0).to_array();
    clip_from_world
        .to_cols_array()
        .into_iter()
        .chain(color)
        .chain(hue)
        .chain(shape)
        .flat_map(f32::to_le_bytes)
        .collect()
}

/// Where the 3D boids' light comes from: above, a little to the side and in front, so the
/// wings' tops are lit and their undersides shaded.
#[cfg(flock_3d)]
const LIGHT_DIRECTION: Vec3 = Vec3::new(0.28, 0.91, 0.3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefabs_the_shaders_cannot_draw_are_refused() {
        assert_eq!(check_prefab(&BoidPrefab::default()), Ok(()));
        let colors = [
            BoidColors::Single(Color::linear_rgba(f32::NAN, 0.0, 0.0, 1.0)),
            BoidColors::Single(Color::srgba(0.0, f32::INFINITY, 0.0, 1.0)),
            BoidColors::RandomHue {
                saturation: f32::NAN,
                lightness: 0.5,
            },
            BoidColors::RandomHue {
                saturation: 0.5,
                lightness: f32::NEG_INFINITY,
            },
        ];
        for colors in colors {
            let prefab = BoidPrefab {
                colors,
                ..default()
            };
            assert!(check_prefab(&prefab).is_err(), "{colors:?}");
        }
        #[cfg(not(flock_3d))]
        for size in [
            Vec2::new(f32::NAN, 1.0),
            Vec2::new(1.0, f32::INFINITY),
            Vec2::new(-1.0, 1.0),
        ] {
            let prefab = BoidPrefab { size, ..default() };
            assert!(check_prefab(&prefab).is_err(), "{size}");
        }
        // Out-of-range but finite colours are drawn (clamped).
        let bright = BoidPrefab {
            colors: BoidColors::RandomHue {
                saturation: 7.0,
                lightness: -2.0,
            },
            ..default()
        };
        assert_eq!(check_prefab(&bright), Ok(()));
    }

    fn floats(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|word| f32::from_le_bytes(word.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn the_uniform_is_the_matrix_then_the_colours_then_the_shape() {
        let matrix = Mat4::from_scale(Vec3::new(2.0, 3.0, 4.0));
        let mut look = RenderGpuLook {
            colors: Some(BoidColors::Single(Color::linear_rgba(0.1, 0.2, 0.3, 0.4))),
            ..default()
        };
        #[cfg(not(flock_3d))]
        {
            look.size = Vec2::new(12.0, 6.0);
        }
        let bytes = view_uniform(matrix, &look);
        assert_eq!(bytes.len() as u64, VIEW_UNIFORM_BYTES);
        let single = floats(&bytes);
        assert_eq!(single[..16], matrix.to_cols_array());
        assert_eq!(single[16..20], [0.1, 0.2, 0.3, 0.4]);
        assert_eq!(single[20], 0.0, "one colour: no random hue");
        #[cfg(not(flock_3d))]
        assert_eq!(single[24..26], [12.0, 6.0]);

        look.colors = Some(BoidColors::RandomHue {
            saturation: 0.7,
            lightness: 2.0,
        });
        let random = floats(&view_uniform(matrix, &look));
        assert_eq!(random[16..20], [1.0; 4]);
        // Lightness past 1 is kept to 1, so the shader never makes colours out of range.
        assert_eq!(random[20..24], [1.0, 0.7, 1.0, 1.0]);
    }
}
