//! The look of a boid: a swappable "prefab", a sprite in 2D and a mesh in 3D.

use bevy::prelude::*;
use rand::RngExt;

use crate::components::Boid;
use crate::rng::FlockRng;

/// How every boid looks: change this one resource and every boid the plugin styled is restyled.
///
/// Boids spawned with a [`Sprite`] of their own keep it. In an app with an asset server the
/// plugin starts with the bundled arrow ([`BoidSprite::Arrow`](crate::BoidSprite)), in light
/// blue; [`BoidSprite`](crate::BoidSprite) has the fish and the bird, and any image of the app's
/// own works the same way:
///
/// ```
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn use_own_image(mut prefab: ResMut<BoidPrefab>, assets: Res<AssetServer>) {
///     *prefab = BoidPrefab {
///         image: assets.load("sprites/my_fish.png"),
///         size: Vec2::new(28.0, 28.0),
///         colors: BoidColors::RandomHue { saturation: 0.7, lightness: 0.6 },
///     };
/// }
/// # bevy::ecs::system::assert_is_system(use_own_image);
/// ```
#[cfg(not(flock_3d))]
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, Default)]
pub struct BoidPrefab {
    /// The sprite image, drawn pointing along +x. `BoidPrefab::default()` has Bevy's plain
    /// white image, a square: what an app without an asset server (a server) keeps.
    pub image: Handle<Image>,
    /// The sprite's size in world units.
    pub size: Vec2,
    /// How boids are coloured.
    pub colors: BoidColors,
}

#[cfg(not(flock_3d))]
impl Default for BoidPrefab {
    fn default() -> Self {
        Self {
            image: Handle::default(),
            size: Vec2::new(12.0, 6.0),
            colors: BoidColors::default(),
        }
    }
}

/// How every boid looks in 3D: a mesh and its colours. Change this one resource and every boid
/// the plugin styled is restyled. Boids spawned with a [`Mesh3d`] of their own keep it.
///
/// The default mesh is a low-poly bird ([`bird_mesh`](crate::bird_mesh), 12 units long), which
/// the plugin puts under the default mesh handle when the app has meshes;
/// [`fish_mesh`](crate::fish_mesh) makes a fish. Colours become one `StandardMaterial` each
/// (random hues are rounded to 10 degrees), so thousands of boids share a few dozen materials
/// and are drawn in few batches.
#[cfg(flock_3d)]
#[derive(Resource, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Resource, Debug, Default)]
pub struct BoidPrefab {
    /// The mesh, modelled pointing along -z with +y up, in world units.
    pub mesh: Handle<Mesh>,
    /// How boids are coloured.
    pub colors: BoidColors,
}

/// What a boid is drawn with: a sprite in 2D, a mesh in 3D (its material comes from
/// `paint_boids`, which has the material assets).
#[cfg(not(flock_3d))]
type Look = Sprite;
#[cfg(flock_3d)]
type Look = Mesh3d;

/// The colour of a prefab's boids (the image is multiplied by it).
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub enum BoidColors {
    /// Every boid in one colour.
    Single(Color),
    /// Each boid its own hue (as in the ActionScript flocking tutorial), drawn once per boid
    /// from the flock's RNG (its looks generator), so switching prefabs keeps each boid's
    /// colour.
    RandomHue {
        /// HSL saturation, 0 to 1.
        saturation: f32,
        /// HSL lightness, 0 to 1.
        lightness: f32,
    },
}

impl Default for BoidColors {
    fn default() -> Self {
        Self::Single(Color::WHITE)
    }
}

impl BoidColors {
    fn color_for(&self, hue: f32) -> Color {
        match *self {
            Self::Single(color) => color,
            Self::RandomHue {
                saturation,
                lightness,
            } => Color::hsl(hue, saturation, lightness),
        }
    }
}

/// A boid whose sprite comes from the [`BoidPrefab`], with its own hue for random colours.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug)]
pub struct PrefabStyled {
    /// The boid's hue in degrees, used by [`BoidColors::RandomHue`].
    pub hue: f32,
}

/// Gives a new boid without a look of its own (a sprite, or a mesh in 3D) the prefab's.
pub(crate) fn style_new_boid(
    add: On<Add, Boid>,
    mut commands: Commands,
    prefab: Res<BoidPrefab>,
    mut rng: ResMut<FlockRng>,
    looks: Query<(), With<Look>>,
) {
    if looks.contains(add.entity) {
        return;
    }
    commands
        .entity(add.entity)
        .try_insert(prefab_look(&prefab, &mut rng));
}

/// A new boid's look from the prefab, with a hue of its own from the flock's looks generator
/// (never the simulation's, so the look cannot change the flight).
pub(crate) fn prefab_look(prefab: &BoidPrefab, rng: &mut FlockRng) -> (PrefabStyled, Look) {
    let hue = rng.looks().random_range(0.0..360.0);
    #[cfg(not(flock_3d))]
    return (PrefabStyled { hue }, prefab_sprite(prefab, hue));
    #[cfg(flock_3d)]
    return (PrefabStyled { hue }, Mesh3d(prefab.mesh.clone()));
}

/// Restyles every prefab-styled boid when the prefab changes.
#[cfg(not(flock_3d))]
pub(crate) fn restyle_boids(
    prefab: Res<BoidPrefab>,
    mut boids: Query<(&PrefabStyled, &mut Sprite)>,
) {
    if !prefab.is_changed() || prefab.is_added() {
        return;
    }
    for (styled, mut sprite) in &mut boids {
        *sprite = prefab_sprite(&prefab, styled.hue);
    }
}

#[cfg(not(flock_3d))]
fn prefab_sprite(prefab: &BoidPrefab, hue: f32) -> Sprite {
    Sprite {
        image: prefab.image.clone(),
        custom_size: Some(prefab.size),
        color: prefab.colors.color_for(hue),
        ..default()
    }
}

/// The prefab's materials by colour: boids of one colour share one material.
#[cfg(flock_3d)]
#[derive(Resource, Debug, Default)]
pub(crate) struct PrefabMaterials(
    bevy::platform::collections::HashMap<[u8; 4], Handle<StandardMaterial>>,
);

#[cfg(flock_3d)]
impl PrefabMaterials {
    /// The material for a boid of `hue` under `colors`; random hues are rounded to 10
    /// degrees, so a flock has at most 36 of them.
    fn for_hue(
        &mut self,
        colors: &BoidColors,
        hue: f32,
        materials: &mut Assets<StandardMaterial>,
    ) -> Handle<StandardMaterial> {
        let color = colors.color_for((hue / 10.0).round() * 10.0);
        self.0
            .entry(color.to_srgba().to_u8_array())
            .or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color: color,
                    perceptual_roughness: 0.8,
                    ..default()
                })
            })
            .clone()
    }
}

/// Gives prefab-styled boids that have no material yet their colour's material (3D). A new
/// boid is drawn from the frame after it is spawned.
#[cfg(flock_3d)]
pub(crate) fn paint_boids(
    mut commands: Commands,
    prefab: Res<BoidPrefab>,
    mut cache: ResMut<PrefabMaterials>,
    materials: Option<ResMut<Assets<StandardMaterial>>>,
    boids: Query<(Entity, &PrefabStyled), Without<MeshMaterial3d<StandardMaterial>>>,
) {
    let Some(mut materials) = materials else {
        // No renderer (a headless app): nothing to paint.
        return;
    };
    for (entity, styled) in &boids {
        let material = cache.for_hue(&prefab.colors, styled.hue, &mut materials);
        commands.entity(entity).try_insert(MeshMaterial3d(material));
    }
}

/// Restyles every prefab-styled boid when the prefab changes (3D): the new mesh, and the
/// colours' materials.
#[cfg(flock_3d)]
pub(crate) fn restyle_boids(
    prefab: Res<BoidPrefab>,
    mut cache: ResMut<PrefabMaterials>,
    materials: Option<ResMut<Assets<StandardMaterial>>>,
    mut boids: Query<(
        &PrefabStyled,
        &mut Mesh3d,
        Option<&mut MeshMaterial3d<StandardMaterial>>,
    )>,
) {
    if !prefab.is_changed() || prefab.is_added() {
        return;
    }
    let mut materials = materials;
    for (styled, mut mesh, material) in &mut boids {
        mesh.0 = prefab.mesh.clone();
        if let (Some(mut material), Some(materials)) = (material, materials.as_deref_mut()) {
            material.0 = cache.for_hue(&prefab.colors, styled.hue, materials);
        }
    }
}

/// Puts the bird under the default mesh handle, so the default prefab draws birds, where the
/// app has meshes (a server app may have none) and nothing is there yet.
#[cfg(flock_3d)]
pub(crate) fn add_default_mesh(app: &mut App) {
    if let Some(mut meshes) = app.world_mut().get_resource_mut::<Assets<Mesh>>() {
        let id = AssetId::<Mesh>::default();
        if meshes.get(id).is_none() {
            // A UUID id: inserting never fails.
            let _ = meshes.insert(id, crate::render::meshes::bird_mesh(12.0));
        }
    }
}
