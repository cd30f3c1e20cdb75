//! Spawning boids: a command for N at once.

use bevy::prelude::*;
use flock_core::{Vector, random_direction, random_point};

use crate::components::{Boid, Velocity};
use crate::dimension::translation_of;
use crate::rng::FlockRng;
use crate::settings::{ActiveFlockSettings, FlockSettings};

/// Where [`SpawnBoids`] places new boids.
#[derive(Reflect, Debug, Clone, Copy, PartialEq)]
pub enum Placement {
    /// Uniformly at random inside the flock's bounds.
    RandomInBounds,
    /// All at one point (seed 002 starts its flock at the origin); headings still differ.
    At(Vector),
}

/// A command that spawns `count` boids with random headings at max speed, without going over
/// [`FlockSettings::max_boids`]; reaching the cap is logged once per command.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn setup(mut commands: Commands) {
///     commands.queue(SpawnBoids::new(150, Placement::At(Vec2::ZERO)));
/// }
/// # bevy::ecs::system::assert_is_system(setup);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpawnBoids {
    /// How many boids to spawn.
    pub count: usize,
    /// Where to put them.
    pub placement: Placement,
}

impl SpawnBoids {
    /// `count` boids placed by `placement`.
    pub fn new(count: usize, placement: Placement) -> Self {
        Self { count, placement }
    }
}

impl Command for SpawnBoids {
    type Out = ();

    fn apply(self, world: &mut World) {
        spawn_boids(world, self.count, self.placement);
    }
}

/// Spawns up to `count` boids now and returns their entities (fewer when the cap is reached;
/// none, with an error logged, for a point that is not finite).
///
/// Boids are placed with the current [`FlockSettings`] if they are valid, otherwise with the
/// last valid ones.
pub fn spawn_boids(world: &mut World, count: usize, placement: Placement) -> Vec<Entity> {
    if let Placement::At(point) = placement
        && !point.is_finite()
    {
        error!("cannot spawn boids at {point}: the point is not finite");
        return Vec::new();
    }
    let requested = world.get_resource_or_init::<FlockSettings>().clone();
    let settings = match requested.validate() {
        Ok(()) => requested,
        Err(_) => world
            .get_resource_or_init::<ActiveFlockSettings>()
            .0
            .clone(),
    };
    let existing = world.query_filtered::<(), With<Boid>>().iter(world).count();
    let room = settings.max_boids.saturating_sub(existing);
    if count > room {
        info!(
            "boid cap of {} reached: spawning {room} of {count} requested boids",
            settings.max_boids
        );
    }
    let config = settings.config;
    #[cfg(feature = "render")]
    let prefab = world
        .get_resource_or_init::<crate::prefab::BoidPrefab>()
        .clone();
    let mut rng = world.get_resource_or_init::<FlockRng>();
    let new_boids: Vec<_> = (0..count.min(room))
        .map(|_| {
            let position = match placement {
                Placement::RandomInBounds => random_point(&config.bounds, rng.rng()),
                Placement::At(point) => point,
            };
            // Uniform on the circle (2D) or the sphere (3D).
            let heading = random_direction(rng.rng());
            let boid = (
                Boid,
                Transform::from_translation(translation_of(position)),
                Velocity(heading * config.max_speed),
            );
            // The look comes in the same batch (rather than from the observer on new boids),
            // so a large spawn moves each boid between tables once and queues no command per
            // boid. It draws from the looks generator, so the flight is the same without it.
            #[cfg(feature = "render")]
            let boid = (boid, crate::prefab::prefab_look(&prefab, &mut rng));
            boid
        })
        .collect();
    world.spawn_batch(new_boids).collect()
}
