//! Boids coming and going while the flock runs, and settings changed mid-run: no panic, no
//! stale entity used, no boid lost, nothing non-finite. `bevy_flock3d` runs the same cases in
//! 3D (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::collections::BTreeSet;

use bevy::prelude::*;
use bevy_flock::flock_core::{StepConstants, rule_forces};
use bevy_flock::prelude::*;
use bevy_flock::{ActiveFlockSettings, FlockBuffers};
use common::{
    assert_sound, at, boid_count, boid_states, create_app, roomy_settings, spawn, spawn_boid,
    state_bits, step, xyz,
};

fn entities(app: &mut App) -> BTreeSet<Entity> {
    boid_states(app).into_iter().map(|(e, _, _)| e).collect()
}

#[test]
fn despawning_and_spawning_between_steps_loses_no_other_boid() {
    let mut app = create_app(FlockSettings::default(), 1);
    let mut expected: BTreeSet<Entity> = spawn(&mut app, 400, Placement::RandomInBounds)
        .into_iter()
        .collect();
    step(&mut app, 5);
    for round in 0..40 {
        // Every 7th remaining boid goes (a different set each round), three arrive.
        let gone: Vec<Entity> = expected
            .iter()
            .copied()
            .skip(round % 7)
            .step_by(7)
            .collect();
        for entity in &gone {
            app.world_mut().despawn(*entity);
            expected.remove(entity);
        }
        expected.extend(spawn(&mut app, 3, Placement::RandomInBounds));
        step(&mut app, 1);
        assert_eq!(entities(&mut app), expected, "round {round}");
        assert_sound(&mut app);
    }
    assert!(
        expected.len() < 100,
        "the flock did shrink: {}",
        expected.len()
    );
}

/// Between building the index and steering, despawns three boids of the snapshot and spawns
/// two new ones: the forces computed for the vanished boids must go nowhere, and every other
/// boid must still be steered.
fn churn_inside_the_step(world: &mut World) {
    let doomed: Vec<Entity> = world
        .query_filtered::<Entity, With<Boid>>()
        .iter(world)
        .take(3)
        .collect();
    for entity in doomed {
        world.despawn(entity);
    }
    bevy_flock::spawn_boids(world, 2, Placement::RandomInBounds);
}

#[test]
fn boids_despawned_inside_a_step_are_skipped_and_the_rest_steered() {
    let mut app = create_app(FlockSettings::default(), 2);
    spawn(&mut app, 300, Placement::RandomInBounds);
    app.add_systems(
        FixedUpdate,
        churn_inside_the_step
            .after(FlockSystems::Index)
            .before(FlockSystems::Steer),
    );
    for round in 1..=30 {
        step(&mut app, 1);
        assert_eq!(boid_count(&mut app), 300 - round, "round {round}");
        assert_sound(&mut app);
    }
    // Steering still reached the surviving boids: their forces are the ones computed.
    let buffers = app.world().resource::<bevy_flock::FlockBuffers>();
    assert!(buffers.forces().iter().any(|f| *f != Vector::ZERO));
}

/// Roomy settings with a cap of `max_boids`.
fn roomy_with_cap(max_boids: usize) -> FlockSettings {
    FlockSettings {
        max_boids,
        ..roomy_settings()
    }
}

#[test]
fn thousands_spawned_in_one_frame_respect_the_cap_and_all_fly() {
    let mut app = create_app(roomy_with_cap(20_000), 3);
    {
        let mut commands = app.world_mut().commands();
        for _ in 0..4 {
            commands.queue(SpawnBoids::new(6_000, Placement::RandomInBounds));
        }
    }
    step(&mut app, 1);
    assert_eq!(
        boid_count(&mut app),
        20_000,
        "the cap holds within one frame"
    );
    step(&mut app, 3);
    assert_eq!(boid_count(&mut app), 20_000);
    assert_sound(&mut app);
}

#[test]
fn each_spawn_draws_new_places_and_the_same_seed_draws_the_same() {
    // Two spawns in a row continue the flock's generator rather than restarting it, and a
    // second app with the same seed draws the same boids.
    let places = || {
        let mut app = create_app(roomy_with_cap(1_000), 8);
        let first = spawn(&mut app, 100, Placement::RandomInBounds);
        let second = spawn(&mut app, 100, Placement::RandomInBounds);
        let world = app.world();
        let place = |entity: &Entity| world.get::<Transform>(*entity).unwrap().translation;
        let list = |entities: &[Entity]| entities.iter().map(place).collect::<Vec<_>>();
        (list(&first), list(&second))
    };
    let (first, second) = places();
    assert_eq!(first.len(), 100);
    assert!(
        first.iter().zip(&second).all(|(a, b)| a != b),
        "the second spawn repeated the first"
    );
    assert_eq!(places(), (first, second));
}

#[test]
fn thousands_spawned_on_one_point_spread_out_finite() {
    // Seed 002 starts its flock on one point: every distance is zero at first.
    let mut app = create_app(roomy_with_cap(10_000), 4);
    let point = xyz(10.0, -20.0, 30.0);
    app.world_mut()
        .commands()
        .queue(SpawnBoids::new(5_000, Placement::At(point)));
    step(&mut app, 30);
    assert_eq!(boid_count(&mut app), 5_000);
    assert_sound(&mut app);
    let spread = boid_states(&mut app)
        .iter()
        .filter(|(_, p, _)| p.distance(point) > 10.0)
        .count();
    assert!(spread > 4_000, "only {spread} boids left the spawn point");
}

fn set_index(app: &mut App, index: IndexKind) {
    app.world_mut().resource_mut::<FlockSettings>().config.index = index;
}

#[test]
fn switching_the_index_mid_run_uses_no_stale_index() {
    // The KD-tree and brute force give the same forces bit for bit, so a flock switching between
    // them every step must stay identical to one that never switches.
    let settings = FlockSettings::from_config(FlockConfig {
        index: IndexKind::BruteForce,
        ..FlockConfig::default()
    });
    let mut steady = create_app(settings.clone(), 5);
    let mut switching = create_app(settings, 5);
    for app in [&mut steady, &mut switching] {
        spawn(app, 200, Placement::RandomInBounds);
    }
    for round in 0..60 {
        let index = [IndexKind::KdTree, IndexKind::BruteForce][round % 2];
        set_index(&mut switching, index);
        step(&mut steady, 1);
        step(&mut switching, 1);
    }
    assert_eq!(
        state_bits(&boid_states(&mut steady)),
        state_bits(&boid_states(&mut switching))
    );

    // Through the grid and back, changing the flock's size in between.
    for index in [IndexKind::Grid, IndexKind::KdTree, IndexKind::Grid] {
        set_index(&mut switching, index);
        spawn(&mut switching, 50, Placement::RandomInBounds);
        step(&mut switching, 5);
        assert_sound(&mut switching);
    }
    assert_eq!(boid_count(&mut switching), 350);
}

fn set_edges(app: &mut App, edges: EdgeMode) {
    app.world_mut().resource_mut::<FlockSettings>().config.edges = edges;
}

#[test]
fn switching_the_edge_mode_mid_run_brings_every_boid_back() {
    let mut app = create_app(FlockSettings::default(), 6);
    spawn(&mut app, 300, Placement::RandomInBounds);
    let bounds = app.world().resource::<FlockSettings>().config.bounds;
    step(&mut app, 30);
    assert_sound(&mut app);

    // Free edges: boids fly out of the bounds...
    set_edges(&mut app, EdgeMode::Free);
    step(&mut app, 240);
    let outside = boid_states(&mut app)
        .iter()
        .filter(|(_, p, _)| !bounds.contains(*p))
        .count();
    assert!(outside > 20, "only {outside} boids left the bounds");

    // ...and one step of bounce or wrap puts every one back inside, however far out it was.
    set_edges(&mut app, EdgeMode::Bounce);
    step(&mut app, 1);
    assert_sound(&mut app);
    set_edges(&mut app, EdgeMode::Free);
    step(&mut app, 240);
    set_edges(&mut app, EdgeMode::Wrap);
    step(&mut app, 1);
    assert_sound(&mut app);
    assert_eq!(boid_count(&mut app), 300);
}

#[test]
fn a_boid_with_unusable_custom_weights_poisons_no_neighbour_and_still_flies() {
    let mut app = create_app(FlockSettings::default(), 7);
    spawn(&mut app, 200, Placement::At(Vector::ZERO));
    let unusable = SteeringWeights::Custom(RuleWeights {
        separation: f32::NAN,
        alignment: f32::INFINITY,
        cohesion: 1e30,
    });
    let place = at(xyz(1.0, 1.0, 1.0));
    let odd_one = spawn_boid(&mut app, (place, Velocity(Vector::X * 10.0), unusable));
    step(&mut app, 30);
    assert_eq!(boid_count(&mut app), 201);
    assert_sound(&mut app);
    // It flies with the flock's weights rather than freezing (a NaN force would stop it).
    let velocity = app.world().get::<Velocity>(odd_one).unwrap().0;
    assert!(velocity.length() > 1.0, "{velocity}");
}

/// What every boid of the last step's snapshot should have felt by brute force, if a boid
/// with a position that is not finite were absent and a velocity that is not finite were rest;
/// `None` for the broken boids themselves.
fn forces_without_broken_boids(app: &App) -> Vec<Option<Vector>> {
    let config = app.world().resource::<ActiveFlockSettings>().0.config;
    let buffers = app.world().resource::<FlockBuffers>();
    let constants = StepConstants::new(&config);
    let (positions, velocities) = (buffers.positions(), buffers.velocities());
    let kept: Vec<usize> = (0..positions.len())
        .filter(|&i| positions[i].is_finite())
        .collect();
    let clean_positions: Vec<Vector> = kept.iter().map(|&i| positions[i]).collect();
    let clean_velocities: Vec<Vector> = kept
        .iter()
        .map(|&i| {
            Some(velocities[i])
                .filter(|v| v.is_finite())
                .unwrap_or(Vector::ZERO)
        })
        .collect();
    let everyone: Vec<u32> = (0..kept.len() as u32).collect();
    let mut expected = vec![None; positions.len()];
    for (clean, &i) in kept.iter().enumerate() {
        if velocities[i].is_finite() {
            let forces = rule_forces(
                clean,
                &clean_positions,
                &clean_velocities,
                &everyone,
                &constants,
            );
            expected[i] = Some(forces.weighted(&config.weights));
        }
    }
    expected
}

#[test]
fn a_boid_given_a_non_finite_state_by_other_code_is_brought_back() {
    // Other systems write NaN into one boid's position, infinity into another's velocity, NaN
    // into the velocity of a boid with a TurnRate (which panicked the app) and a NaN
    // acceleration into one with MotionLimits (whose velocity stayed NaN for good). No neighbour
    // may pick any of them up: every other boid's force is what it would be without them (a
    // velocity that is not finite counting as rest). Every one of them comes back finite, with
    // wrapping edges inside the bounds, and none is lost. On every index.
    for index in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
        let mut settings = FlockSettings::default();
        settings.config.index = index;
        let max_force = settings.config.max_force;
        let mut app = create_app(settings, 8);
        let boids = spawn(&mut app, 300, Placement::At(Vector::ZERO));
        let limits = MotionLimits {
            max_speed: 40.0,
            max_force: 100.0,
            mass: 1.0,
        };
        let turn = TurnRate {
            max_turn_rate: 3.0,
            max_acceleration: 100.0,
        };
        let limited = spawn_boid(&mut app, (at(xyz(2.0, 1.0, 1.0)), limits));
        let turning = spawn_boid(&mut app, (at(xyz(-2.0, 1.0, -1.0)), turn));
        step(&mut app, 5);
        let world = app.world_mut();
        world.get_mut::<Transform>(boids[0]).unwrap().translation = Vec3::new(f32::NAN, 0.0, 0.0);
        world.get_mut::<Velocity>(boids[1]).unwrap().0 = xyz(f32::INFINITY, 1.0, 1.0);
        world.get_mut::<Velocity>(turning).unwrap().0 = xyz(f32::NAN, 0.0, 0.0);
        world.get_mut::<Acceleration>(limited).unwrap().0 = xyz(0.0, f32::NAN, f32::NAN);
        for round in 0..10 {
            step(&mut app, 1);
            let expected = forces_without_broken_boids(&app);
            let buffers = app.world().resource::<FlockBuffers>();
            for ((entity, force), expected) in buffers
                .entities()
                .iter()
                .zip(buffers.forces())
                .zip(expected)
            {
                assert!(
                    force.is_finite(),
                    "{index:?}, step {round}: {entity}: {force}"
                );
                if let Some(expected) = expected {
                    // The grid's f32 lanes differ from brute force's f64 sums by rounding only;
                    // a neighbour that picked a broken boid up would be off by a whole force.
                    assert!(
                        (*force - expected).length() <= 1e-3 * max_force,
                        "{index:?}, step {round}: {entity}: {force}, without the broken boids \
                         {expected}"
                    );
                }
            }
        }
        assert_eq!(boid_count(&mut app), 302, "{index:?}");
        assert_sound(&mut app);
    }
}

#[test]
fn the_snapshot_holds_every_boid_once_in_id_order_with_its_own_state() {
    // Two archetypes (every third boid has a species), so the query walks two tables and its
    // order is not the ids'; the snapshot is copied in one part per thread, each starting
    // partway through the query, then put in id order.
    let mut app = create_app(FlockSettings::default(), 3);
    let boids = spawn(&mut app, 1_001, Placement::RandomInBounds);
    for (i, &boid) in boids.iter().enumerate() {
        if i % 3 == 0 {
            app.world_mut()
                .entity_mut(boid)
                .insert(Species(i as u32 % 2));
        }
    }
    step(&mut app, 2);
    // What the next step's snapshot will read.
    let before: Vec<(Entity, Vector, Vector)> = boids
        .iter()
        .map(|&boid| {
            (
                boid,
                common::position(&app, boid),
                common::velocity(&app, boid),
            )
        })
        .collect();
    let mut id_order: Vec<(BoidId, Entity)> = app
        .world_mut()
        .query_filtered::<(&BoidId, Entity), With<Boid>>()
        .iter(app.world())
        .map(|(&id, entity)| (id, entity))
        .collect();
    assert!(!id_order.is_sorted(), "the query's order is not the ids'");
    id_order.sort_unstable();
    let id_order: Vec<Entity> = id_order.into_iter().map(|(_, entity)| entity).collect();
    step(&mut app, 1);
    let buffers = app.world().resource::<FlockBuffers>();
    assert_eq!(buffers.entities(), id_order.as_slice());
    // Spawned in one go, the boids have ids in spawn order.
    assert_eq!(buffers.entities(), boids.as_slice());
    for (slot, &entity) in buffers.entities().iter().enumerate() {
        let (_, position, velocity) = before.iter().find(|(e, ..)| *e == entity).unwrap();
        assert_eq!(buffers.positions()[slot], *position, "{entity}");
        assert_eq!(buffers.velocities()[slot], *velocity, "{entity}");
        let species = app
            .world()
            .get::<Species>(entity)
            .map_or(0, |species| species.0);
        assert_eq!(buffers.species()[slot], species, "{entity}");
    }
}
