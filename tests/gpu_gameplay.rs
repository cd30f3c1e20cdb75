//! Gameplay on the GPU flock through the plugin: species and hunts, points on entities that the
//! flock follows, the app's obstacles, an enclosure, and questions about the boids near a point
//! answered without reading the flock back. Every order is checked in the main world (a
//! refusal changes nothing), and what passes reaches the device. `bevy_flock3d` runs the same
//! cases in 3D.
//!
//! The device cases need a GPU adapter (lavapipe: `VK_ICD_FILENAMES=
//! /usr/share/vulkan/icd.d/lvp_icd.x86_64.json`); without one they say so and pass, unless
//! `FLOCK_REQUIRE_GPU=1`.
#![cfg(feature = "gpu")]

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::time::Duration;

use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy_flock::flock_core::steering::Enclosure;
use bevy_flock::flock_core::{FlockConfig, Vector};
use bevy_flock::gpu::flock_gpu::{
    Containment, GpuError, NearQuery, ObstacleAvoidance, SpeciesSettings,
};
use bevy_flock::gpu::{GpuFlock, GpuFlockPoint, GpuFlockReadback, RenderGpuFlock};
use bevy_flock::prelude::{Hunt, Obstacle, Placement};
use common::gpu::{gpu_app, gpu_available};

fn config() -> FlockConfig {
    FlockConfig::default()
}

fn species(max_speed: f32) -> SpeciesSettings {
    SpeciesSettings {
        max_speed,
        ..SpeciesSettings::from_config(&config())
    }
}

fn hunt(predator: u32, prey: u32) -> Hunt {
    Hunt {
        predator,
        prey,
        flee_radius: 60.0,
        flee_weight: 2.0,
        chase_radius: 80.0,
        chase_weight: 1.0,
        max_look_ahead: 1.0,
    }
}

fn avoidance() -> ObstacleAvoidance {
    ObstacleAvoidance {
        look_ahead: 40.0,
        clearance: 5.0,
        weight: 2.0,
    }
}

fn kernel(app: &App) -> &bevy_flock::gpu::flock_gpu::DeviceFlock {
    app.sub_app(RenderApp)
        .world()
        .resource::<RenderGpuFlock>()
        .kernel()
        .expect("the flock is on the device")
}

fn handle_mut(app: &mut App) -> Mut<'_, GpuFlock> {
    app.world_mut().resource_mut::<GpuFlock>()
}

fn at(x: f32, y: f32) -> Vector {
    let mut point = Vector::ZERO;
    point[0] = x;
    point[1] = y;
    point
}

fn translation(point: Vector) -> Vec3 {
    let mut translation = Vec3::ZERO;
    translation.x = point[0];
    translation.y = point[1];
    translation
}

/// A square (2D) or cube (3D) pen of half size `half` around `centre`.
fn enclosure_around(centre: Vector, half: f32) -> Enclosure {
    #[cfg(not(flock_3d))]
    {
        let polygon = bevy_flock::flock_core::steering::Polygon::new([
            centre + Vec2::new(-half, -half),
            centre + Vec2::new(half, -half),
            centre + Vec2::new(half, half),
            centre + Vec2::new(-half, half),
        ])
        .expect("a square");
        Enclosure::Polygon(polygon)
    }
    #[cfg(flock_3d)]
    Enclosure::Cuboid {
        centre,
        half_size: Vector::splat(half),
    }
}

#[test]
fn gameplay_orders_are_checked_in_the_main_world_and_a_refusal_changes_nothing() {
    let mut flock = GpuFlock::new(config(), 1);
    assert!(matches!(flock.set_species(&[]), Err(GpuError::NoSpecies)));
    assert!(flock.set_species(&[species(50.0); 9]).is_err(), "9 species");
    for speed in [f32::NAN, f32::INFINITY, -1.0, 1e30] {
        assert!(flock.set_species(&[species(speed)]).is_err(), "{speed}");
    }
    assert!(flock.species().is_empty(), "refusals changed nothing");
    assert_eq!(
        flock.spawn_species(10, Placement::RandomInBounds, 1),
        0,
        "no species 1 yet"
    );
    assert!(flock.set_hunts(&[hunt(0, 1)]).is_err(), "species not set");
    assert!(
        flock.set_species_colors(&[Color::WHITE; 9]).is_err(),
        "9 colours"
    );
    let broken = Color::linear_rgb(f32::NAN, 0.0, 0.0);
    assert!(flock.set_species_colors(&[Color::WHITE, broken]).is_err());
    assert!(
        flock.species_colors().is_empty(),
        "refusals changed nothing"
    );
    flock
        .set_species_colors(&[Color::WHITE, Color::BLACK])
        .unwrap();
    assert_eq!(flock.species_colors().len(), 2);

    flock.set_species(&[species(60.0), species(90.0)]).unwrap();
    assert_eq!(flock.spawn_species(10, Placement::RandomInBounds, 1), 10);
    assert_eq!(flock.spawn_species(10, Placement::RandomInBounds, 2), 0);
    assert_eq!(
        flock.spawn_species(10, Placement::RandomInBounds, u32::MAX),
        0
    );
    assert!(
        matches!(
            flock.set_species(&[species(60.0)]),
            Err(GpuError::SpeciesInUse { .. })
        ),
        "boids of species 1 are there"
    );
    assert_eq!(flock.species().len(), 2);
    for bad in [
        hunt(0, 0),
        hunt(0, 5),
        Hunt {
            flee_radius: f32::NAN,
            ..hunt(0, 1)
        },
        Hunt {
            chase_weight: f32::INFINITY,
            ..hunt(0, 1)
        },
    ] {
        assert!(flock.set_hunts(&[bad]).is_err(), "{bad:?}");
    }
    assert!(
        flock.set_hunts(&[hunt(1, 0), hunt(1, 0)]).is_err(),
        "one pair twice"
    );
    flock.set_hunts(&[hunt(1, 0)]).unwrap();
    flock.clear();
    assert!(
        flock.set_species(&[species(60.0)]).is_err(),
        "a hunt names species 1"
    );
    flock.set_hunts(&[]).unwrap();
    flock
        .set_species(&[species(60.0)])
        .expect("no boid or hunt of species 1 left");

    for bad in [
        ObstacleAvoidance {
            look_ahead: 0.0,
            ..avoidance()
        },
        ObstacleAvoidance {
            clearance: -1.0,
            ..avoidance()
        },
        ObstacleAvoidance {
            weight: f32::NAN,
            ..avoidance()
        },
    ] {
        assert!(flock.set_obstacle_avoidance(Some(bad)).is_err(), "{bad:?}");
    }
    assert_eq!(flock.obstacle_avoidance(), None);

    let pen = Containment {
        enclosure: enclosure_around(Vector::ZERO, 100.0),
        look_ahead: 20.0,
        weight: 1.0,
    };
    for bad in [
        Containment {
            look_ahead: -1.0,
            ..pen.clone()
        },
        Containment {
            weight: f32::NAN,
            ..pen.clone()
        },
    ] {
        assert!(flock.set_containment(Some(bad)).is_err());
    }
    assert!(flock.containment().is_none());

    for bad in [
        NearQuery {
            point: Vector::NAN,
            radius: 1.0,
            nearest: 1,
        },
        NearQuery {
            point: Vector::ZERO,
            radius: -1.0,
            nearest: 1,
        },
        NearQuery {
            point: Vector::ZERO,
            radius: 1e30,
            nearest: 1,
        },
        NearQuery {
            point: Vector::ZERO,
            radius: 1.0,
            nearest: 17,
        },
    ] {
        assert!(flock.query_near(bad).is_err(), "{bad:?}");
    }
}

/// Updates until the read-back is of the device's current step.
fn settle(app: &mut App) -> GpuFlockReadback {
    handle_mut(app).set_readback(true);
    handle_mut(app).set_paused(true);
    for _ in 0..200 {
        app.update();
        let steps = app
            .sub_app(RenderApp)
            .world()
            .resource::<RenderGpuFlock>()
            .steps();
        let arrived = app.world().resource::<GpuFlockReadback>();
        if arrived.steps == steps && !arrived.positions.is_empty() {
            return arrived.clone();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no read-back of the current step after 200 frames");
}

fn mean_distance(positions: &[Vector], point: Vector) -> f32 {
    positions.iter().map(|p| p.distance(point)).sum::<f32>() / positions.len() as f32
}

#[test]
fn an_attractor_entity_pulls_the_flock_and_the_flock_follows_it_when_it_moves() {
    if !gpu_available() {
        return;
    }
    let mut flock = GpuFlock::new(config(), 5);
    flock.spawn(400, Placement::RandomInBounds);
    let mut app = gpu_app(flock);
    let target = at(150.0, 100.0);
    let attractor = app
        .world_mut()
        .spawn((
            GpuFlockPoint::Attractor {
                slow_radius: 0.0,
                weight: 3.0,
            },
            Transform::from_translation(translation(target)),
        ))
        .id();
    app.update();
    let start = settle(&mut app);
    assert_eq!(
        kernel(&app).point_count(),
        1,
        "the entity's point is on the device"
    );
    handle_mut(&mut app).set_paused(false);
    for _ in 0..120 {
        app.update();
    }
    let after = settle(&mut app);
    let (before, now) = (
        mean_distance(&start.positions, target),
        mean_distance(&after.positions, target),
    );
    assert!(now < 0.85 * before, "mean distance {before} -> {now}");

    // Moved, the point on the device moves with it.
    let moved = at(-200.0, -50.0);
    app.world_mut()
        .entity_mut(attractor)
        .insert(Transform::from_translation(translation(moved)));
    app.update();
    let points = app.world().resource::<GpuFlock>().points().to_vec();
    assert!(
        matches!(points[..], [bevy_flock::gpu::flock_gpu::GpuPoint::Attractor { position, .. }] if position == moved),
        "{points:?}"
    );
    // Despawned, no point steers.
    app.world_mut().entity_mut(attractor).despawn();
    app.update();
    app.update();
    assert_eq!(kernel(&app).point_count(), 0);
}

#[test]
fn too_many_or_broken_points_keep_the_last_accepted() {
    if !gpu_available() {
        return;
    }
    let mut flock = GpuFlock::new(config(), 5);
    flock.spawn(50, Placement::RandomInBounds);
    let mut app = gpu_app(flock);
    let repeller = GpuFlockPoint::Repeller {
        radius: 30.0,
        weight: 1.0,
    };
    app.world_mut().spawn((repeller, Transform::default()));
    app.update();
    app.update();
    assert_eq!(kernel(&app).point_count(), 1);
    // 65 points: more than the device holds; refused whole, the one before stays.
    let crowd: Vec<Entity> = (0..65)
        .map(|i| {
            app.world_mut()
                .spawn((repeller, Transform::from_xyz(i as f32, 0.0, 0.0)))
                .id()
        })
        .collect();
    app.update();
    app.update();
    assert_eq!(kernel(&app).point_count(), 1);
    assert_eq!(app.world().resource::<GpuFlock>().points().len(), 1);
    for entity in crowd {
        app.world_mut().entity_mut(entity).despawn();
    }
    // A radius that is not a number: refused, the last accepted stay.
    app.world_mut().spawn((
        GpuFlockPoint::Repeller {
            radius: f32::NAN,
            weight: 1.0,
        },
        Transform::default(),
    ));
    app.update();
    app.update();
    assert_eq!(kernel(&app).point_count(), 1);
    let readback = settle(&mut app);
    assert!(readback.positions.iter().all(|p| p.is_finite()));
    assert_eq!(readback.positions.len(), 50, "no boid lost");
}

#[test]
fn species_hunts_obstacles_and_an_enclosure_reach_the_device() {
    if !gpu_available() {
        return;
    }
    let mut flock = GpuFlock::new(config(), 9);
    flock.set_species(&[species(60.0), species(90.0)]).unwrap();
    flock.set_hunts(&[hunt(1, 0)]).unwrap();
    assert_eq!(flock.spawn_species(200, Placement::RandomInBounds, 0), 200);
    assert_eq!(flock.spawn_species(20, Placement::RandomInBounds, 1), 20);
    flock.set_obstacle_avoidance(Some(avoidance())).unwrap();
    let mut app = gpu_app(flock);
    #[cfg(not(flock_3d))]
    let obstacle = Obstacle::Circle { radius: 40.0 };
    #[cfg(flock_3d)]
    let obstacle = Obstacle::Sphere { radius: 40.0 };
    let rock = app.world_mut().spawn((obstacle, Transform::default())).id();
    app.update();
    app.update();
    let device = kernel(&app);
    assert_eq!(device.species().len(), 2);
    assert_eq!(device.hunts().len(), 1);
    assert_eq!(device.obstacle_count(), 1);
    assert!(!device.is_contained());
    assert_eq!(device.len(), 220);

    let bounds = config().bounds;
    let enclosure = enclosure_around(
        (bounds.min + bounds.max) / 2.0,
        bounds.size().min_element() / 2.0,
    );
    handle_mut(&mut app)
        .set_containment(Some(Containment {
            enclosure,
            look_ahead: 30.0,
            weight: 1.0,
        }))
        .unwrap();
    app.world_mut().entity_mut(rock).despawn();
    for _ in 0..30 {
        app.update();
    }
    let device = kernel(&app);
    assert!(device.is_contained());
    assert_eq!(device.obstacle_count(), 0, "the despawned obstacle is gone");
    let readback = settle(&mut app);
    assert_eq!(readback.positions.len(), 220);
    assert!(readback.positions.iter().all(|p| p.is_finite()));

    // Back to one flock: no species, no hunts.
    handle_mut(&mut app).clear_species();
    app.update();
    assert!(kernel(&app).species().is_empty());
    assert!(kernel(&app).hunts().is_empty());
}

#[test]
fn a_question_about_the_boids_near_a_point_is_answered_without_a_read_back() {
    if !gpu_available() {
        return;
    }
    let mut flock = GpuFlock::new(config(), 11);
    flock.spawn(500, Placement::RandomInBounds);
    let mut app = gpu_app(flock);
    let readback = settle(&mut app);
    let query = NearQuery {
        point: at(20.0, -30.0),
        radius: 120.0,
        nearest: 5,
    };
    handle_mut(&mut app).query_near(query).unwrap();
    let mut answer = None;
    for _ in 0..200 {
        app.update();
        answer = handle_mut(&mut app).query_answer();
        if answer.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let (asked, result) = answer.expect("an answer within 200 frames");
    assert_eq!(asked, query);
    // Paused: the boids are where the read-back saw them.
    let mut distances: Vec<(f32, u32)> = readback
        .positions
        .iter()
        .enumerate()
        .map(|(index, p)| (p.distance(query.point), index as u32))
        .filter(|(distance, _)| *distance < query.radius)
        .collect();
    distances.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    assert_eq!(result.count as usize, distances.len());
    let nearest: Vec<u32> = result.nearest.iter().map(|(index, _)| *index).collect();
    let expected: Vec<u32> = distances.iter().take(5).map(|(_, index)| *index).collect();
    assert_eq!(nearest, expected);
    assert!(
        handle_mut(&mut app).query_answer().is_none(),
        "an answer is taken once"
    );
}
