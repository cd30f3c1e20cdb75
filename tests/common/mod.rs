//! What the headless-`App` tests share: an app stepped one fixed step per update, and ways to
//! read the flock back. Dimension-free: `bevy_flock3d`'s tests include this file too, with
//! `bevy_flock3d` named `bevy_flock`.
#![allow(dead_code)] // Each test file uses some of these.

use std::time::Duration;

use bevy::app::Plugins;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_flock::flock_core::Vector;
use bevy_flock::prelude::*;

/// Fixed steps per second.
pub const HZ: f64 = 60.0;

/// A headless app, built from `plugins` (MinimalPlugins, maybe with a chosen task pool), whose
/// every `update()` runs exactly one fixed step of 1/60 s.
pub fn create_app_with<M>(plugins: impl Plugins<M>, settings: FlockSettings, seed: u64) -> App {
    let mut app = app_before_its_first_update(plugins, settings, seed);
    // The first update only starts the clocks.
    app.update();
    app
}

/// [`create_app_with`] whose plugins finish their setup before the first update, as
/// `App::run` does: for plugins that need it (avian's). No plugin can be added after.
pub fn create_finished_app<M>(plugins: impl Plugins<M>, settings: FlockSettings, seed: u64) -> App {
    let mut app = app_before_its_first_update(plugins, settings, seed);
    app.finish();
    app.cleanup();
    app.update();
    app
}

fn app_before_its_first_update<M>(
    plugins: impl Plugins<M>,
    settings: FlockSettings,
    seed: u64,
) -> App {
    let mut app = App::new();
    app.add_plugins(plugins)
        .insert_resource(settings)
        .add_plugins(BoidsPlugin::default().with_seed(seed))
        .insert_resource(Time::<Fixed>::from_hz(HZ))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / HZ,
        )));
    app
}

/// [`create_app_with`] on `MinimalPlugins`.
pub fn create_app(settings: FlockSettings, seed: u64) -> App {
    create_app_with(MinimalPlugins, settings, seed)
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

pub fn step(app: &mut App, updates: usize) {
    for _ in 0..updates {
        app.update();
    }
}

pub fn spawn(app: &mut App, count: usize, placement: Placement) -> Vec<Entity> {
    bevy_flock::spawn_boids(app.world_mut(), count, placement)
}

/// A transform at `point` (z = 0 in 2D).
pub fn at(point: Vector) -> Transform {
    let mut translation = [0.0; 3];
    let coordinates = point.to_array();
    translation[..coordinates.len()].copy_from_slice(&coordinates);
    Transform::from_translation(Vec3::from_array(translation))
}

/// Where `entity` is, in the flock's dimension.
pub fn position(app: &App, entity: Entity) -> Vector {
    let translation = app.world().get::<Transform>(entity).unwrap().translation;
    Vector::from_slice(&translation.to_array())
}

/// `entity`'s velocity.
pub fn velocity(app: &App, entity: Entity) -> Vector {
    app.world().get::<Velocity>(entity).unwrap().0
}

/// One boid's entity, position and velocity.
pub type BoidState = (Entity, Vector, Vector);

/// Every boid's state, ordered by entity.
pub fn boid_states(app: &mut App) -> Vec<BoidState> {
    let mut states: Vec<_> = app
        .world_mut()
        .query_filtered::<(Entity, &Transform, &Velocity), With<Boid>>()
        .iter(app.world())
        .map(|(entity, transform, velocity)| {
            // The translation's first two (2D) or three (3D) coordinates.
            let position = Vector::from_slice(&transform.translation.to_array());
            (entity, position, velocity.0)
        })
        .collect();
    states.sort_by_key(|(entity, _, _)| *entity);
    states
}

/// The bits of every position and velocity, ordered by entity: equal only if bit-identical.
pub fn state_bits(states: &[BoidState]) -> Vec<Vec<u32>> {
    states
        .iter()
        .map(|(_, p, v)| {
            (p.to_array().into_iter())
                .chain(v.to_array())
                .map(f32::to_bits)
                .collect()
        })
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
        .resource::<bevy_flock::ActiveFlockSettings>()
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

pub mod lockstep;
pub mod replay;

/// Pairs of boids whose centres are closer than `min_distance`, by entity, for counting
/// collisions: each pair in `touching` now and not in `before` is a new collision.
pub fn touching_pairs(
    states: &[BoidState],
    min_distance: f32,
) -> std::collections::BTreeSet<(Entity, Entity)> {
    let mut pairs = std::collections::BTreeSet::new();
    for (i, (a, p, _)) in states.iter().enumerate() {
        for (b, q, _) in &states[i + 1..] {
            if p.distance(*q) < min_distance {
                pairs.insert((*a, *b));
            }
        }
    }
    pairs
}

/// Steps `app` `steps` times, calling `between` after each step, and counts collisions: a pair
/// of boids coming closer than `min_distance` that was not that close the step before.
pub fn count_collisions(
    app: &mut App,
    steps: usize,
    min_distance: f32,
    mut between: impl FnMut(&mut App),
) -> usize {
    let mut before = touching_pairs(&boid_states(app), min_distance);
    let mut collisions = 0;
    for _ in 0..steps {
        step(app, 1);
        between(app);
        let now = touching_pairs(&boid_states(app), min_distance);
        collisions += now.difference(&before).count();
        before = now;
    }
    collisions
}
