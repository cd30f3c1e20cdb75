//! The look of a boid: a swappable sprite "prefab".

use bevy::prelude::*;
use rand::RngExt;

use crate::components::Boid;
use crate::rng::FlockRng;

/// How every boid looks: change this one resource and every boid the plugin styled is restyled.
///
/// Boids spawned with a [`Sprite`] of their own keep it.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn use_fish(mut prefab: ResMut<BoidPrefab>, assets: Res<AssetServer>) {
///     *prefab = BoidPrefab {
///         image: assets.load("sprites/fish.png"),
///         size: Vec2::new(28.0, 28.0),
///         colors: BoidColors::RandomHue { saturation: 0.7, lightness: 0.6 },
///     };
/// }
/// # bevy::ecs::system::assert_is_system(use_fish);
/// ```
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, Default)]
pub struct BoidPrefab {
    /// The sprite image, drawn pointing along +x. The default handle is Bevy's plain white
    /// image, so the default prefab is a coloured square.
    pub image: Handle<Image>,
    /// The sprite's size in world units.
    pub size: Vec2,
    /// How boids are coloured.
    pub colors: BoidColors,
}

impl Default for BoidPrefab {
    fn default() -> Self {
        Self {
            image: Handle::default(),
            size: Vec2::new(12.0, 6.0),
            colors: BoidColors::default(),
        }
    }
}

/// The colour of a prefab's boids (the image is multiplied by it).
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub enum BoidColors {
    /// Every boid in one colour.
    Single(Color),
    /// Each boid its own hue (seed 001), drawn once per boid from the flock's RNG (its looks
    /// generator), so switching prefabs keeps each boid's colour.
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

/// Gives a new boid without a sprite of its own the prefab's sprite.
pub(crate) fn style_new_boid(
    add: On<Add, Boid>,
    mut commands: Commands,
    prefab: Res<BoidPrefab>,
    mut rng: ResMut<FlockRng>,
    sprites: Query<(), With<Sprite>>,
) {
    if sprites.contains(add.entity) {
        return;
    }
    commands
        .entity(add.entity)
        .try_insert(prefab_look(&prefab, &mut rng));
}

/// A new boid's look from the prefab, with a hue of its own from the flock's looks generator
/// (never the simulation's, so the look cannot change the flight).
pub(crate) fn prefab_look(prefab: &BoidPrefab, rng: &mut FlockRng) -> (PrefabStyled, Sprite) {
    let hue = rng.looks().random_range(0.0..360.0);
    (PrefabStyled { hue }, prefab_sprite(prefab, hue))
}

/// Restyles every prefab-styled boid when the prefab changes.
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

fn prefab_sprite(prefab: &BoidPrefab, hue: f32) -> Sprite {
    Sprite {
        image: prefab.image.clone(),
        custom_size: Some(prefab.size),
        color: prefab.colors.color_for(hue),
        ..default()
    }
}
