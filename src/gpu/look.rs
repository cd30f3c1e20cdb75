//! How the GPU flock looks: the app's [`BoidPrefab`] carried into the render world each frame
//! (in 3D with the scene's first directional light and its global ambient light), and the
//! per-view values the drawing shaders read (the camera's matrix, the colours, the sprite's
//! size; in 3D the light, the camera's exposure and ambient light, and its fog).

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
    /// The flock's z (2D): it is drawn at it and sorted with sprites by it.
    #[cfg(not(flock_3d))]
    pub depth: f32,
    /// The mesh (3D).
    #[cfg(flock_3d)]
    pub mesh: AssetId<Mesh>,
    /// How boids are coloured.
    pub colors: Option<BoidColors>,
    /// Each species' colour, linear RGBA, replacing `colors` when there are any.
    pub species_colors: Vec<[f32; 4]>,
    /// The cameras that draw the flock: those that see one of these layers.
    pub layers: RenderLayers,
    /// The scene's first directional light (3D), if it has one.
    #[cfg(flock_3d)]
    pub sun: Option<Sun>,
    /// The scene's ambient light (3D): linear colour times brightness (Bevy's
    /// [`GlobalAmbientLight`]; a camera's own [`AmbientLight`] replaces it for that camera).
    #[cfg(flock_3d)]
    pub ambient: Vec3,
}

/// A directional light as the 3D boids are lit by it.
#[cfg(flock_3d)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Sun {
    /// The direction the light comes from (towards the light), unit length.
    pub toward: Vec3,
    /// Linear colour times illuminance (lux).
    pub color: Vec3,
}

/// The scene's first directional light (the lowest entity index, so the choice is stable), as
/// [`Sun`]; lights whose direction or colour are not finite are passed over.
#[cfg(flock_3d)]
pub(crate) fn first_sun<'a>(
    lights: impl Iterator<Item = (Entity, &'a DirectionalLight, &'a GlobalTransform)>,
) -> Option<Sun> {
    lights
        .filter_map(|(entity, light, transform)| {
            // A directional light shines along its forward (-z): it comes from its back.
            let toward = transform.back().as_vec3();
            let color =
                Vec3::from_slice(&light.color.to_linear().to_f32_array()[..3]) * light.illuminance;
            (toward.is_finite() && color.is_finite()).then_some((entity, Sun { toward, color }))
        })
        .min_by_key(|(entity, _)| entity.index_u32())
        .map(|(_, sun)| sun)
}

/// A colour times a brightness, linear RGB.
#[cfg(flock_3d)]
pub(crate) fn ambient_of(color: Color, brightness: f32) -> Vec3 {
    let ambient = Vec3::from_slice(&color.to_linear().to_f32_array()[..3]) * brightness;
    if ambient.is_finite() {
        ambient.max(Vec3::ZERO)
    } else {
        Vec3::ZERO
    }
}

/// What a 3D view adds to the look: its exposure, where it is, its own ambient light and its
/// fog (nothing in 2D).
#[derive(Debug, Clone, Default)]
pub(crate) struct ViewScene {
    /// Bevy's exposure multiplier (`Exposure::exposure`).
    #[cfg(flock_3d)]
    pub exposure: f32,
    /// The camera's position in the world (fog grows with the distance from it).
    #[cfg(flock_3d)]
    pub camera: Vec3,
    /// The camera's own ambient light, replacing the scene's.
    #[cfg(flock_3d)]
    pub ambient: Option<Vec3>,
    /// The camera's distance fog.
    #[cfg(flock_3d)]
    pub fog: Option<bevy::pbr::DistanceFog>,
}

/// In `ExtractSchedule`: the app's prefab, as the CPU flock's boids are drawn with it, and the
/// flock's render layers. A prefab the shaders cannot draw (see [`check_prefab`]) is refused
/// with a warning (once while it stays) and the flock keeps its last look.
pub(crate) fn extract_gpu_look(
    prefab: Extract<Option<Res<BoidPrefab>>>,
    flock: Extract<Option<Res<GpuFlock>>>,
    #[cfg(flock_3d)] lights: Extract<Query<(Entity, &DirectionalLight, &GlobalTransform)>>,
    #[cfg(flock_3d)] global_ambient: Extract<Option<Res<GlobalAmbientLight>>>,
    mut look: ResMut<RenderGpuLook>,
    mut warned: Local<bool>,
) {
    let layers = flock
        .as_deref()
        .map_or_else(RenderLayers::default, |flock| flock.render_layers().clone());
    let species_colors = flock
        .as_deref()
        .map(|flock| flock.species_colors().to_vec())
        .unwrap_or_default();
    #[cfg(not(flock_3d))]
    let depth = flock.as_deref().map_or(0.0, GpuFlock::draw_depth);
    #[cfg(flock_3d)]
    {
        look.sun = first_sun(lights.iter());
        let ambient = global_ambient.as_deref().cloned().unwrap_or_default();
        look.ambient = ambient_of(ambient.color, ambient.brightness);
    }
    let Some(prefab) = prefab.as_deref() else {
        *look = RenderGpuLook {
            layers,
            species_colors,
            #[cfg(not(flock_3d))]
            depth,
            #[cfg(flock_3d)]
            sun: look.sun,
            #[cfg(flock_3d)]
            ambient: look.ambient,
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
        look.species_colors = species_colors;
        #[cfg(not(flock_3d))]
        {
            look.depth = depth;
        }
        return;
    }
    *warned = false;
    *look = RenderGpuLook {
        #[cfg(not(flock_3d))]
        image: prefab.image.id(),
        #[cfg(not(flock_3d))]
        size: prefab.size,
        #[cfg(not(flock_3d))]
        depth,
        #[cfg(flock_3d)]
        mesh: prefab.mesh.id(),
        colors: Some(prefab.colors),
        layers,
        species_colors,
        #[cfg(flock_3d)]
        sun: look.sun,
        #[cfg(flock_3d)]
        ambient: look.ambient,
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

/// Bytes of [`view_uniform`]: a matrix and nine vectors of four floats, as `struct View` in the
/// drawing shaders.
pub(crate) const VIEW_UNIFORM_BYTES: u64 = (16 + 18 * 4) * 4;

/// What a view's draw reads, laid out as the shaders' `struct View`:
/// - `clip_from_world`;
/// - `color`: one colour for every boid, linear RGBA;
/// - `hue`: `[random hue: 1 or 0, saturation, lightness, alpha]`, each boid's hue drawn from
///   its index when random;
/// - `shape`: in 2D the sprite's size (x, y); in 3D the direction towards the light (x, y, z);
/// - (3D, zero in 2D) `sun`: the light's linear colour times illuminance times the exposure;
///   `ambient`: the ambient light times the exposure; `camera`: `[x, y, z, fog mode]` (0 none,
///   1 linear, 2 exponential, 3 exponential squared, 4 atmospheric); `fog_color`: linear
///   RGBA; `fog`: `[start, end, density, _]`, or for atmospheric fog the extinction (x, y, z);
///   `fog_inscattering`: atmospheric fog's inscattering (x, y, z);
/// - `species`: `[how many species colours, 0, 0, 0]`, then the eight colours, linear RGBA
///   (unused ones zero).
pub(crate) fn view_uniform(
    clip_from_world: Mat4,
    look: &RenderGpuLook,
    scene: &ViewScene,
) -> Vec<u8> {
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
    let (shape, lighting) = {
        let _ = scene;
        ([look.size.x, look.size.y, look.depth, 0.0], [[0.0; 4]; 6])
    };
    #[cfg(flock_3d)]
    let (shape, lighting) = lighting_words(look, scene);
    clip_from_world
        .to_cols_array()
        .into_iter()
        .chain(color)
        .chain(hue)
        .chain(shape)
        .chain(lighting.into_iter().flatten())
        .chain(species_words(&look.species_colors))
        .flat_map(f32::to_le_bytes)
        .collect()
}

/// The species colours' words of [`view_uniform`]: their count, then eight colours.
fn species_words(colors: &[[f32; 4]]) -> impl Iterator<Item = f32> + '_ {
    let count = colors.len().min(flock_gpu::MAX_SPECIES);
    [count as f32, 0.0, 0.0, 0.0]
        .into_iter()
        .chain(colors.iter().take(count).flatten().copied())
        .chain(std::iter::repeat_n(
            0.0,
            (flock_gpu::MAX_SPECIES - count) * 4,
        ))
}

/// The 3D view's light and fog words of [`view_uniform`]: the direction towards the light,
/// then `sun`, `ambient`, `camera`, `fog_color`, `fog` and `fog_inscattering`.
#[cfg(flock_3d)]
fn lighting_words(look: &RenderGpuLook, scene: &ViewScene) -> ([f32; 4], [[f32; 4]; 6]) {
    use bevy::pbr::FogFalloff;

    let exposure = if scene.exposure.is_finite() {
        scene.exposure.max(0.0)
    } else {
        0.0
    };
    let (toward, sun) = look
        .sun
        .map_or((Vec3::Y, Vec3::ZERO), |sun| (sun.toward, sun.color));
    let ambient = scene.ambient.unwrap_or(look.ambient) * exposure;
    let (mode, fog_color, fog, inscattering) = match &scene.fog {
        None => (0.0, [0.0; 4], [0.0; 4], [0.0; 4]),
        Some(fog) => {
            let color = fog.color.to_linear().to_f32_array();
            match fog.falloff {
                FogFalloff::Linear { start, end } => (1.0, color, [start, end, 0.0, 0.0], [0.0; 4]),
                FogFalloff::Exponential { density } => {
                    (2.0, color, [0.0, 0.0, density, 0.0], [0.0; 4])
                }
                FogFalloff::ExponentialSquared { density } => {
                    (3.0, color, [0.0, 0.0, density, 0.0], [0.0; 4])
                }
                FogFalloff::Atmospheric {
                    extinction,
                    inscattering,
                } => (
                    4.0,
                    color,
                    extinction.extend(0.0).to_array(),
                    inscattering.extend(0.0).to_array(),
                ),
            }
        }
    };
    let all_finite = [fog_color, fog, inscattering]
        .iter()
        .flatten()
        .chain(&scene.camera.to_array())
        .all(|value| value.is_finite());
    // A fog with numbers that are not finite is left out rather than drawn as NaN.
    let (mode, fog_color, fog, inscattering) = if all_finite {
        (mode, fog_color, fog, inscattering)
    } else {
        (0.0, [0.0; 4], [0.0; 4], [0.0; 4])
    };
    (
        toward.extend(0.0).to_array(),
        [
            (sun * exposure).extend(0.0).to_array(),
            ambient.extend(0.0).to_array(),
            scene.camera.extend(mode).to_array(),
            fog_color,
            fog,
            inscattering,
        ],
    )
}

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

    #[cfg(flock_3d)]
    #[test]
    fn the_first_finite_directional_light_lights_the_boids() {
        let (first, second) = (
            Entity::from_raw_u32(3).unwrap(),
            Entity::from_raw_u32(8).unwrap(),
        );
        let light = DirectionalLight {
            illuminance: 1000.0,
            color: Color::linear_rgb(1.0, 0.5, 0.25),
            ..default()
        };
        let above = GlobalTransform::from(
            Transform::from_xyz(0.0, 5.0, 0.0).looking_at(Vec3::ZERO, Vec3::X),
        );
        let side = GlobalTransform::from(
            Transform::from_xyz(5.0, 0.0, 0.0).looking_at(Vec3::ZERO, Vec3::Y),
        );
        let sun =
            first_sun([(second, &light, &side), (first, &light, &above)].into_iter()).unwrap();
        assert!(
            sun.toward.distance(Vec3::Y) < 1e-5,
            "the lowest entity's: {sun:?}"
        );
        assert!(sun.color.distance(Vec3::new(1000.0, 500.0, 250.0)) < 1e-2);
        let broken = DirectionalLight {
            illuminance: f32::INFINITY,
            ..light
        };
        let sun =
            first_sun([(first, &broken, &above), (second, &light, &side)].into_iter()).unwrap();
        assert!(
            sun.toward.distance(Vec3::X) < 1e-5,
            "a light that is not finite is passed over"
        );
        assert_eq!(first_sun(std::iter::empty()), None);
        assert_eq!(ambient_of(Color::WHITE, f32::NAN), Vec3::ZERO);
        assert_eq!(ambient_of(Color::WHITE, -4.0), Vec3::ZERO);
    }

    #[cfg(flock_3d)]
    #[test]
    fn the_view_carries_the_exposed_light_and_every_fog_falloff() {
        use bevy::pbr::{DistanceFog, FogFalloff};
        let look = RenderGpuLook {
            sun: Some(Sun {
                toward: Vec3::Y,
                color: Vec3::splat(1000.0),
            }),
            ambient: Vec3::splat(100.0),
            ..default()
        };
        let fog = |falloff| DistanceFog {
            color: Color::linear_rgba(0.1, 0.2, 0.3, 1.0),
            falloff,
            ..default()
        };
        let words = |scene: &ViewScene| floats(&view_uniform(Mat4::IDENTITY, &look, scene));
        let scene = ViewScene {
            exposure: 0.5,
            camera: Vec3::new(1.0, 2.0, 3.0),
            ambient: None,
            fog: Some(fog(FogFalloff::Linear {
                start: 10.0,
                end: 50.0,
            })),
        };
        let linear = words(&scene);
        assert_eq!(linear[24..27], [0.0, 1.0, 0.0], "towards the light");
        assert_eq!(linear[28..31], [500.0; 3], "the light times the exposure");
        assert_eq!(
            linear[32..35],
            [50.0; 3],
            "the scene's ambient times the exposure"
        );
        assert_eq!(
            linear[36..40],
            [1.0, 2.0, 3.0, 1.0],
            "the camera, linear fog"
        );
        assert_eq!(linear[40..44], [0.1, 0.2, 0.3, 1.0]);
        assert_eq!(linear[44..46], [10.0, 50.0]);
        let own_ambient = words(&ViewScene {
            ambient: Some(Vec3::splat(10.0)),
            ..scene.clone()
        });
        assert_eq!(
            own_ambient[32..35],
            [5.0; 3],
            "the camera's own ambient light"
        );
        let exponential = words(&ViewScene {
            fog: Some(fog(FogFalloff::Exponential { density: 0.25 })),
            ..scene.clone()
        });
        assert_eq!((exponential[39], exponential[46]), (2.0, 0.25));
        let squared = words(&ViewScene {
            fog: Some(fog(FogFalloff::ExponentialSquared { density: 0.5 })),
            ..scene.clone()
        });
        assert_eq!((squared[39], squared[46]), (3.0, 0.5));
        let atmospheric = words(&ViewScene {
            fog: Some(fog(FogFalloff::Atmospheric {
                extinction: Vec3::new(0.1, 0.2, 0.3),
                inscattering: Vec3::new(0.4, 0.5, 0.6),
            })),
            ..scene.clone()
        });
        assert_eq!(atmospheric[39], 4.0);
        assert_eq!(atmospheric[44..47], [0.1, 0.2, 0.3]);
        assert_eq!(atmospheric[48..51], [0.4, 0.5, 0.6]);
        // A fog or exposure that is not finite is left out: no NaN reaches the screen.
        let broken = words(&ViewScene {
            exposure: f32::NAN,
            fog: Some(fog(FogFalloff::Exponential {
                density: f32::INFINITY,
            })),
            ..scene.clone()
        });
        assert!(broken.iter().all(|word| word.is_finite()), "{broken:?}");
        assert_eq!(broken[39], 0.0, "no fog");
        assert_eq!(broken[28..31], [0.0; 3], "no exposure, no light");
        let no_fog = words(&ViewScene { fog: None, ..scene });
        assert_eq!(no_fog[39], 0.0);
    }

    #[test]
    fn species_colours_follow_the_lighting_in_the_uniform() {
        let mut look = RenderGpuLook::default();
        let words = |look: &RenderGpuLook| {
            floats(&view_uniform(Mat4::IDENTITY, look, &ViewScene::default()))
        };
        let none = words(&look);
        assert_eq!(none.len() as u64 * 4, VIEW_UNIFORM_BYTES);
        assert_eq!(none[52], 0.0, "no species colours");
        look.species_colors = vec![[0.1, 0.2, 0.3, 1.0], [0.4, 0.5, 0.6, 1.0]];
        let two = words(&look);
        assert_eq!(two[52], 2.0);
        assert_eq!(two[56..64], [0.1, 0.2, 0.3, 1.0, 0.4, 0.5, 0.6, 1.0]);
        assert!(two[64..].iter().all(|word| *word == 0.0));
        // More than the uniform holds: the first eight.
        look.species_colors = vec![[1.0; 4]; 12];
        let many = words(&look);
        assert_eq!(many.len() as u64 * 4, VIEW_UNIFORM_BYTES);
        assert_eq!(many[52], 8.0);
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
        let bytes = view_uniform(matrix, &look, &ViewScene::default());
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
        let random = floats(&view_uniform(matrix, &look, &ViewScene::default()));
        assert_eq!(random[16..20], [1.0; 4]);
        // Lightness past 1 is kept to 1, so the shader never makes colours out of range.
        assert_eq!(random[20..24], [1.0, 0.7, 1.0, 1.0]);
    }
}
