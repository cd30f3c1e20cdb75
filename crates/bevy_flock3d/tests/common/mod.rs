//! What the headless 3D `App` tests share (as bevy_flock's `tests/common`, with `Vec3`): an app
//! stepped one fixed step per update, and ways to read the flock back.
#![allow(dead_code)] // Each test file uses some of these.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_flock3d::prelude::*;

/// Fixed steps per second.
pub const HZ: f64 = 60.0;

/// A headless app, built from `plugins` (MinimalPlugins, maybe with a chosen task pool), whose
/// every `update()` runs exactly one fixed step of 1/60 s.
pub fn create_app_with(plugins: impl PluginGroup, settings: FlockSettings, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins(plugins)
        .insert_resource(settings)
        .add_plugins(BoidsPlugin::default().with_seed(seed))
        .insert_resource(Time::<Fixed>::from_hz(HZ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / HZ,
        )));
    // The first update only starts the clocks.
    app.update();
    app
}

/// [`create_app_with`] on `MinimalPlugins`.
pub fn create_app(settings: FlockSettings, seed: u64) -> App {
    create_app_with(MinimalPlugins, settings, seed)
}

/// An app whose flock has `config`.
pub fn app_with(config: FlockConfig) -> App {
    create_app(
        FlockSettings {
            config,
            ..FlockSettings::default()
        },
        11,
    )
}

/// A flock config whose boids ignore each other, with free edges: behaviours alone move them.
pub fn no_flocking() -> FlockConfig {
    FlockConfig {
        weights: RuleWeights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
        },
        edges: EdgeMode::Free,
        ..FlockConfig::default()
    }
}

/// A nimble vehicle for behaviour tests.
pub const VEHICLE: MotionLimits = MotionLimits {
    max_speed: 200.0,
    max_force: 2_000.0,
    mass: 1.0,
};

pub fn step(app: &mut App, updates: usize) {
    for _ in 0..updates {
        app.update();
    }
}

pub fn spawn(app: &mut App, count: usize, placement: Placement) -> Vec<Entity> {
    bevy_flock3d::spawn_boids(app.world_mut(), count, placement)
}

pub fn position(app: &App, entity: Entity) -> Vec3 {
    app.world().get::<Transform>(entity).unwrap().translation
}

pub fn velocity(app: &App, entity: Entity) -> Vec3 {
    app.world().get::<Velocity>(entity).unwrap().0
}

/// One boid's entity, position and velocity.
pub type BoidState = (Entity, Vec3, Vec3);

/// Every boid's state, ordered by entity.
pub fn boid_states(app: &mut App) -> Vec<BoidState> {
    let mut states: Vec<_> = app
        .world_mut()
        .query_filtered::<(Entity, &Transform, &Velocity), With<Boid>>()
        .iter(app.world())
        .map(|(entity, transform, velocity)| (entity, transform.translation, velocity.0))
        .collect();
    states.sort_by_key(|(entity, _, _)| *entity);
    states
}

/// The bits of every position and velocity, ordered by entity: equal only if bit-identical.
pub fn state_bits(states: &[BoidState]) -> Vec<[u32; 6]> {
    states
        .iter()
        .map(|(_, p, v)| [p.x, p.y, p.z, v.x, v.y, v.z].map(f32::to_bits))
        .collect()
}

pub fn boid_count(app: &mut App) -> usize {
    app.world_mut()
        .query_filtered::<(), With<Boid>>()
        .iter(app.world())
        .count()
}

/// Panics, naming the boid, if any position or velocity is not finite, or (for wrap and
/// bounce) a boid is outside the active bounds.
pub fn assert_sound(app: &mut App) {
    let config = app
        .world()
        .resource::<bevy_flock3d::ActiveFlockSettings>()
        .0
        .config;
    let bounded = config.edges != EdgeMode::Free;
    for (entity, position, velocity) in boid_states(app) {
        assert!(
            position.is_finite() && velocity.is_finite(),
            "{entity}: position {position}, velocity {velocity}"
        );
        assert!(
            !bounded || config.bounds.contains(position),
            "{entity} at {position} is outside {:?} ({:?} edges)",
            config.bounds,
            config.edges
        );
        assert!(
            velocity.length() <= config.max_speed * (1.0 + 1e-5),
            "{entity} flies at {} above max speed {}",
            velocity.length(),
            config.max_speed
        );
    }
}
