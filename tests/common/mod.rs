//! What the headless-`App` tests share: an app stepped one fixed step per update, ways to
//! read the flock back, and the few helpers that differ per dimension. The shared test files in
//! this folder are compiled by `bevy_flock` and, through `[[test]] path` in its manifest, by
//! `bevy_flock3d`, which each names `bevy_flock` (`extern crate bevy_flock3d as bevy_flock`
//! under the `flock_3d` cfg); `bevy_flock3d`'s own tests include this module by `#[path]`.
#![allow(dead_code)] // Each test file uses some of these.

use std::time::Duration;

use bevy::app::Plugins;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
#[cfg(not(flock_3d))]
use bevy_flock::flock_core::steering::Polygon;
use bevy_flock::flock_core::{Bounds, Vector};
use bevy_flock::prelude::*;

/// Fixed steps per second.
pub const HZ: f64 = 60.0;

/// A walker of the crowd tests: up to 100 units a second, quick to steer.
pub const WALKER: MotionLimits = MotionLimits {
    max_speed: 100.0,
    max_force: 800.0,
    mass: 1.0,
};

/// Two walkers' bodies collide when their centres are closer than this.
pub const BODY: f32 = 12.0;

/// Collision avoidance for walkers, with a margin: it steers to pass half a body farther apart
/// than a collision.
pub const AVOID: AvoidCollisions = AvoidCollisions {
    params: CollisionParams {
        min_distance: 1.5 * BODY,
        horizon: 1.0,
    },
    weight: 3.0,
};

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
    flock_app_before_its_first_update(plugins, BoidsPlugin::default().with_seed(seed), settings)
}

/// A headless app on `MinimalPlugins` whose flock is built from `flock` (a trimmed
/// `FlockPlugins`, say), stepped as [`create_app`]'s.
pub fn create_app_from<M>(flock: impl Plugins<M>, settings: FlockSettings) -> App {
    let mut app = flock_app_before_its_first_update(MinimalPlugins, flock, settings);
    app.update();
    app
}

fn flock_app_before_its_first_update<M, N>(
    plugins: impl Plugins<M>,
    flock: impl Plugins<N>,
    settings: FlockSettings,
) -> App {
    let mut app = App::new();
    app.add_plugins(plugins)
        .insert_resource(settings)
        .add_plugins(flock)
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

/// An app whose flock has `config`.
pub fn app_with(config: FlockConfig) -> App {
    create_app(FlockSettings::from_config(config), 11)
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

/// Spawns one boid with `components` (its limits, place, velocity, behaviours); its entity.
pub fn spawn_boid(app: &mut App, components: impl Bundle) -> Entity {
    app.world_mut().spawn((Boid, components)).id()
}

/// A nimble vehicle for behaviour tests.
pub const VEHICLE: MotionLimits = MotionLimits {
    max_speed: 200.0,
    max_force: 2_000.0,
    mass: 1.0,
};

/// A slower vehicle that turns harder, for the collider, path and formation tests.
pub const AGILE: MotionLimits = MotionLimits {
    max_speed: 120.0,
    max_force: 4_000.0,
    mass: 1.0,
};

/// Seeking `goal` while steering around obstacles 120 ahead with 10 to spare: what a boid needs
/// to get past the obstacles in its way.
pub fn seek_around_obstacles(goal: Vector) -> (Seek, AvoidObstacles) {
    let seek = Seek {
        target: Target::Point(goal),
        weight: 1.0,
    };
    let avoid = AvoidObstacles {
        look_ahead: 120.0,
        clearance: 10.0,
        weight: 3.0,
    };
    (seek, avoid)
}

/// The point `(x, y)` of a case in 2D, `(x, y, z)` in 3D: one literal for both dimensions,
/// with the depth a planar bug would miss only in 3D.
pub fn xyz(x: f32, y: f32, z: f32) -> Vector {
    Vector::from_slice(&[x, y, z])
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

/// After two seconds of hostile settings: the `idle` boids, whose behaviours were refused,
/// still move at `moving`, no boid was lost, and every number is sound.
pub fn assert_refused_and_kept(app: &mut App, idle: &[Entity], moving: Vector) {
    let boids = boid_count(app);
    step(app, 120);
    for &boid in idle {
        assert_eq!(velocity(app, boid), moving, "{boid}");
    }
    assert_eq!(boid_count(app), boids);
    assert_sound(app);
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

#[cfg(feature = "gpu")]
pub mod gpu;
pub mod lockstep;
pub mod lockstep_game;
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

// What differs per dimension.

/// `v` on the ground that `steering::level` lays things on: `v` itself in 2D, where the plane
/// is the ground; `v` with y = 0 in 3D.
pub fn on_the_ground(v: Vector) -> Vector {
    let mut ground = v;
    if cfg!(flock_3d) {
        ground[1] = 0.0;
    }
    ground
}

/// The angle between two non-zero vectors.
pub fn angle_between(a: Vector, b: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return a.angle_to(b).abs();
    #[cfg(flock_3d)]
    return a.angle_between(b);
}

/// Headings all round: 16 around the circle in 2D; the six axes and two diagonals in 3D.
pub fn headings() -> Vec<Vector> {
    #[cfg(not(flock_3d))]
    return (0..16)
        .map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 16.0))
        .collect();
    #[cfg(flock_3d)]
    return vec![
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
        Vec3::ONE.normalize(),
        Vec3::new(-1.0, 1.0, -1.0).normalize(),
    ];
}

/// Settings for thousands of boids with ordinary neighbour counts: a world 4000 x 2500 in 2D,
/// a box 1200 x 800 x 800 in 3D.
pub fn roomy_settings() -> FlockSettings {
    #[cfg(not(flock_3d))]
    let bounds = Bounds::centered(Vec2::new(4000.0, 2500.0));
    #[cfg(flock_3d)]
    let bounds = Bounds::centered(Vec3::new(1200.0, 800.0, 800.0));
    FlockSettings::from_config(FlockConfig {
        bounds,
        ..FlockConfig::default()
    })
}

/// A round obstacle: a circle in 2D, a sphere in 3D.
pub fn ball_obstacle(radius: f32) -> Obstacle {
    Obstacle::ball(radius)
}

/// An obstacle along the axes: a rectangle in 2D, a box in 3D.
pub fn box_obstacle(half_size: Vector) -> Obstacle {
    Obstacle::aligned_box(half_size)
}

/// A box that turns with its entity: a rectangle in 2D, a box in 3D.
pub fn turned_box(half_size: Vector) -> Obstacle {
    #[cfg(not(flock_3d))]
    return Obstacle::RotatedRect { half_size };
    #[cfg(flock_3d)]
    return Obstacle::OrientedCuboid { half_size };
}

/// The other shape that turns with its entity: a triangle 30 wide (a polygon) in 2D, a
/// capsule 60 long in 3D.
pub fn polygon_or_capsule() -> Obstacle {
    #[cfg(not(flock_3d))]
    return Obstacle::Polygon(Polygon::new([Vec2::ZERO, Vec2::X * 30.0, Vec2::Y * 30.0]).unwrap());
    #[cfg(flock_3d)]
    return Obstacle::Capsule {
        half_length: 30.0,
        radius: 15.0,
    };
}

/// `point` raised `height` above the ground (along +y) in 3D; `point` itself in 2D, where the
/// plane is the ground.
pub fn above(point: Vector, height: f32) -> Vector {
    let mut raised = point;
    if cfg!(flock_3d) {
        raised[1] += height;
    }
    raised
}

/// A pen around the origin: an L-shaped polygon in 2D (a square 400 wide without its upper
/// right quarter); a box 400 x 400 x 120 in 3D.
pub fn pen() -> Enclosure {
    #[cfg(not(flock_3d))]
    return Enclosure::Polygon(
        Polygon::new(
            [
                (-200.0, -200.0),
                (200.0, -200.0),
                (200.0, 0.0),
                (0.0, 0.0),
                (0.0, 200.0),
                (-200.0, 200.0),
            ]
            .map(|(x, y)| Vec2::new(x, y)),
        )
        .unwrap(),
    );
    #[cfg(flock_3d)]
    return Enclosure::Cuboid {
        centre: Vec3::ZERO,
        half_size: Vec3::new(200.0, 200.0, 60.0),
    };
}

/// Which way a boid's model points before its rotation (+x for a 2D sprite, forward, -z, for
/// a 3D mesh) and its top (towards the viewer, +z, in 2D; up, +y, in 3D).
#[cfg(not(flock_3d))]
const MODEL: (Vec3, Vec3) = (Vec3::X, Vec3::Z);
#[cfg(flock_3d)]
const MODEL: (Vec3, Vec3) = (Vec3::NEG_Z, Vec3::Y);

/// The way `entity`'s model faces (its rotation's forward, in the flock's dimension).
pub fn facing(app: &App, entity: Entity) -> Vector {
    let rotation = app.world().get::<Transform>(entity).unwrap().rotation;
    Vector::from_slice(&(rotation * MODEL.0).to_array())
}

/// Whether `entity`'s model stands upright: its top where an unturned model's is.
pub fn is_upright(app: &App, entity: Entity) -> bool {
    let rotation = app.world().get::<Transform>(entity).unwrap().rotation;
    (rotation * MODEL.1).distance(MODEL.1) < 1e-3
}

/// A look of a boid's own, which the prefab leaves alone: a sprite in 2D, a mesh in 3D.
#[cfg(feature = "render")]
pub fn own_look() -> impl Bundle {
    #[cfg(not(flock_3d))]
    return Sprite::from_color(Color::WHITE, Vec2::ONE);
    #[cfg(flock_3d)]
    return Mesh3d(Handle::default());
}

/// Makes the prefab colour each boid with a random hue.
#[cfg(feature = "render")]
pub fn paint_random_hues(app: &mut App, saturation: f32, lightness: f32) {
    *app.world_mut().resource_mut::<BoidPrefab>() = BoidPrefab {
        colors: BoidColors::RandomHue {
            saturation,
            lightness,
        },
        ..default()
    };
}
