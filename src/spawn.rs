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
    /// All at one point (the Unity port of Processing's *Flocking* starts its flock at the
    /// origin); headings still differ.
    At(Vector),
    /// Uniformly at random inside a rectangle (the Unity port's first version: x in +-9.5,
    /// y in +-4.5). 2D only: in 3D, `RandomInBounds` with the bounds you want.
    #[cfg(not(flock_3d))]
    InRect(Rect),
}

/// A command that spawns `count` boids with random headings at max speed (or at `speed`),
/// without going over [`FlockSettings::max_boids`]; reaching the cap is logged once per command.
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn setup(mut commands: Commands) {
///     commands.queue(SpawnBoids::new(150, Placement::At(Vector::ZERO)));
/// }
/// # bevy::ecs::system::assert_is_system(setup);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpawnBoids {
    /// How many boids to spawn.
    pub count: usize,
    /// Where to put them.
    pub placement: Placement,
    /// Their speed at the start, world units per second; `None`: the flock's max speed. The
    /// boids of Processing's *Flocking* as ported to Unity start with a velocity of one unit
    /// per frame (50 times its max speed), which its first step renormalises; `Some(60.0)` in
    /// its units does the same.
    pub speed: Option<f32>,
}

impl SpawnBoids {
    /// `count` boids placed by `placement`, at max speed.
    pub const fn new(count: usize, placement: Placement) -> Self {
        Self {
            count,
            placement,
            speed: None,
        }
    }

    /// The same boids starting at `speed` instead.
    pub const fn with_speed(mut self, speed: f32) -> Self {
        self.speed = Some(speed);
        self
    }
}

impl Command for SpawnBoids {
    type Out = ();

    fn apply(self, world: &mut World) {
        spawn(world, self);
    }
}

/// Spawns up to `count` boids now and returns their entities (fewer when the cap is reached;
/// none, with an error logged, for a point that is not finite).
///
/// Boids are placed with the current [`FlockSettings`] if they are valid, otherwise with the
/// last valid ones.
pub fn spawn_boids(world: &mut World, count: usize, placement: Placement) -> Vec<Entity> {
    spawn(world, SpawnBoids::new(count, placement))
}

/// [`spawn_boids`] with the whole command; a speed that is not finite or is negative is
/// refused with an error, spawning nothing.
fn spawn(world: &mut World, command: SpawnBoids) -> Vec<Entity> {
    let SpawnBoids {
        count,
        placement,
        speed,
    } = command;
    if let Some(speed) = speed
        && !(speed.is_finite() && speed >= 0.0)
    {
        error!("cannot spawn boids at a speed of {speed}: it must be a finite number, at least 0");
        return Vec::new();
    }
    if let Placement::At(point) = placement
        && !point.is_finite()
    {
        error!("cannot spawn boids at {point}: the point is not finite");
        return Vec::new();
    }
    #[cfg(not(flock_3d))]
    if let Placement::InRect(rect) = placement
        && !(rect.min.is_finite() && rect.max.is_finite() && rect.min.cmple(rect.max).all())
    {
        error!("cannot spawn boids in {rect:?}: it must be finite, with min <= max");
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
    let speed = speed.unwrap_or(config.max_speed);
    #[cfg(feature = "render")]
    let prefab = world
        .get_resource_or_init::<crate::render::prefab::BoidPrefab>()
        .clone();
    // The boids stream into `spawn_batch` as they are made rather than being collected
    // first: a million boids' bundles (about 200 MB with sprites) never exist at once beside
    // the tables they go into, which reserve their room from the exact count. The generators
    // are drawn from a copy, written back after, as the world is busy spawning meanwhile (and
    // stays whole for the observers of new boids, which draw nothing from a boid with a look).
    let mut rng = world.get_resource_or_init::<FlockRng>().clone();
    let new_boids = (0..count.min(room)).map(|_| {
        let position = match placement {
            Placement::RandomInBounds => random_point(&config.bounds, rng.rng()),
            Placement::At(point) => point,
            #[cfg(not(flock_3d))]
            Placement::InRect(rect) => {
                use rand::RngExt;
                Vec2::new(
                    rng.rng().random_range(rect.min.x..=rect.max.x),
                    rng.rng().random_range(rect.min.y..=rect.max.y),
                )
            }
        };
        // Uniform on the circle (2D) or the sphere (3D).
        let heading = random_direction(rng.rng());
        let boid = (
            Boid,
            Transform::from_translation(translation_of(position)),
            Velocity(heading * speed),
        );
        // The look comes in the same batch (rather than from the observer on new boids),
        // so a large spawn moves each boid between tables once and queues no command per
        // boid. It draws from the looks generator, so the flight is the same without it.
        #[cfg(feature = "render")]
        let boid = (boid, crate::render::prefab::prefab_look(&prefab, &mut rng));
        boid
    });
    let spawned = world.spawn_batch(new_boids).collect();
    *world.resource_mut::<FlockRng>() = rng;
    spawned
}
