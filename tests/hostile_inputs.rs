//! The plugin's public entry points given hostile values: settings, components and commands with
//! values that are not finite, huge, empty or contradictory, and boids far outside the world.
//! Nothing may panic or abort; invalid settings change nothing; a bad component costs at most
//! its own boid's behaviour; no boid is lost and every boid stays finite. `bevy_flock3d` runs
//! the same cases in 3D (`[[test]] path` in its manifest), with bad values on every axis.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::Bounds;
use bevy_flock::flock_core::steering::WanderState;
use bevy_flock::prelude::*;
use bevy_flock::{ActiveFlockSettings, FlockBuffers};
use common::{
    assert_sound, at, ball_obstacle, boid_count, boid_states, box_obstacle, create_app, spawn,
    spawn_boid, step, xyz,
};

/// Every force of the last step is finite (a NaN force would mean it spread).
fn assert_forces_finite(app: &App, case: &str) {
    let buffers = app.world().resource::<FlockBuffers>();
    for (entity, force) in buffers.entities().iter().zip(buffers.forces()) {
        assert!(force.is_finite(), "{case}: {entity}: force {force}");
    }
}

#[test]
fn invalid_settings_of_every_class_change_nothing() {
    let mut app = create_app(FlockSettings::default(), 20);
    spawn(&mut app, 200, Placement::RandomInBounds);
    step(&mut app, 3);
    let valid = app.world().resource::<ActiveFlockSettings>().0.clone();
    let breakers: [(&str, fn(&mut FlockSettings)); 14] = [
        ("NaN radius", |s| s.config.cohesion_radius = f32::NAN),
        ("infinite speed", |s| s.config.max_speed = f32::INFINITY),
        ("huge force", |s| s.config.max_force = 1e30),
        ("zero mass", |s| s.config.mass = 0.0),
        ("tiny response time", |s| s.config.response_time = 1e-30),
        ("negative radius", |s| s.config.separation_radius = -1.0),
        ("NaN weight", |s| s.config.weights.alignment = f32::NAN),
        ("huge weight", |s| s.config.weights.separation = -1e7),
        ("view angle zero", |s| s.config.view_angle_degrees = 0.0),
        ("min above max speed", |s| {
            s.config.speed_mode = SpeedMode::Clamp {
                min_speed: s.config.max_speed * 2.0,
            }
        }),
        ("empty bounds", |s| {
            s.config.bounds.max.x = s.config.bounds.min.x
        }),
        ("inside-out bounds", |s| {
            std::mem::swap(&mut s.config.bounds.min, &mut s.config.bounds.max)
        }),
        ("bounds beyond 1e9", |s| s.config.bounds.max.y = 1e20),
        ("no boids allowed", |s| s.max_boids = 0),
    ];
    for (case, breaker) in breakers {
        let mut settings = valid.clone();
        breaker(&mut settings);
        *app.world_mut().resource_mut::<FlockSettings>() = settings;
        step(&mut app, 2);
        assert_eq!(
            app.world().resource::<ActiveFlockSettings>().0,
            valid,
            "{case} was taken"
        );
        assert_eq!(boid_count(&mut app), 200, "{case}");
        assert_sound(&mut app);
        assert_forces_finite(&app, case);
    }
    // A cap past FlockSettings::MAX_BOIDS would let a spawn command abort on allocation.
    let mut settings = valid.clone();
    settings.max_boids = usize::MAX;
    *app.world_mut().resource_mut::<FlockSettings>() = settings;
    step(&mut app, 1);
    assert_eq!(
        app.world().resource::<ActiveFlockSettings>().0.max_boids,
        valid.max_boids
    );
}

#[test]
fn extreme_valid_settings_keep_every_boid_finite() {
    // The edges of what validation accepts, each with boids far apart, on every index.
    let extremes: [(&str, fn(&mut FlockConfig)); 6] = [
        ("largest radii, speed and force, least mass", |c| {
            c.separation_radius = 1e9;
            c.alignment_radius = 1e9;
            c.cohesion_radius = 1e9;
            c.max_speed = 1e9;
            c.max_force = 1e9;
            c.mass = 1e-6;
            c.response_time = 1e-6;
            c.weights = RuleWeights {
                separation: 1e6,
                alignment: -1e6,
                cohesion: 1e6,
            };
        }),
        ("tiny radius, free edges", |c| {
            c.separation_radius = 1e-9;
            c.alignment_radius = 1e-9;
            c.cohesion_radius = 1e-9;
            c.edges = EdgeMode::Free;
        }),
        ("widest world, wrapping, tiny radius", |c| {
            c.bounds = Bounds {
                min: Vector::splat(-1e9),
                max: Vector::splat(1e9),
            };
            c.cohesion_radius = 1e-3;
            c.edges = EdgeMode::Wrap;
            c.wrap_neighbours = true;
        }),
        ("thin world, bouncing", |c| {
            c.bounds = Bounds {
                min: Vector::ZERO.with_x(-1e9),
                max: Vector::splat(1e-3).with_x(1e9),
            };
            c.edges = EdgeMode::Bounce;
        }),
        ("narrowest view, constant speed", |c| {
            c.view_angle_degrees = 1e-3;
            c.speed_mode = SpeedMode::Constant;
        }),
        ("rescaled forces, min speed = max speed", |c| {
            c.force_limit = ForceLimit::Rescale;
            c.speed_mode = SpeedMode::Clamp {
                min_speed: c.max_speed,
            };
        }),
    ];
    for (case, extreme) in extremes {
        for index in [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce] {
            let mut settings = FlockSettings::default();
            extreme(&mut settings.config);
            settings.config.index = index;
            assert_eq!(settings.validate(), Ok(()), "{case}");
            let mut app = create_app(settings, 21);
            spawn(&mut app, 150, Placement::RandomInBounds);
            // And a few far outside, on a line.
            for i in 0..4 {
                spawn_boid(
                    &mut app,
                    (at(Vector::X * 1e20 * i as f32), Velocity(Vector::X)),
                );
            }
            step(&mut app, 10);
            assert_eq!(boid_count(&mut app), 154, "{case}, {index:?}");
            for (entity, position, velocity) in boid_states(&mut app) {
                assert!(
                    position.is_finite() && velocity.is_finite(),
                    "{case}, {index:?}: {entity} at {position}, {velocity}"
                );
            }
            assert_forces_finite(&app, case);
        }
    }
}

/// A boid in the middle of the flock, for a hostile component.
fn near(world: &mut World) -> EntityWorldMut<'_> {
    world.spawn((Boid, at(xyz(1.0, -1.0, 1.0)), Velocity(Vector::X)))
}

#[test]
fn behaviour_components_with_hostile_values_poison_no_one() {
    let mut app = create_app(FlockSettings::default(), 22);
    let flock = spawn(&mut app, 200, Placement::At(Vector::ZERO));
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    let bad_point = Target::Point(Vector::splat(inf).with_x(nan));
    let world = app.world_mut();
    near(world).insert(Seek {
        target: bad_point,
        weight: 1.0,
    });
    near(world).insert(Seek {
        target: Target::Entity(flock[0]),
        weight: inf,
    });
    near(world).insert(Arrive {
        target: Target::Point(Vector::splat(1e30)),
        slow_radius: nan,
        weight: -1e30,
        speed: Some(nan),
    });
    near(world).insert(Flee {
        threats: vec![bad_point, Target::Entity(Entity::PLACEHOLDER)],
        radius: inf,
        weight: 1.0,
    });
    near(world).insert(Wander {
        params: WanderParams {
            circle_distance: nan,
            circle_radius: inf,
            angle_change: -inf,
            home: Some(WanderHome {
                centre: Vector::splat(nan),
                radius: -1.0,
                pull_back_speed: inf,
            }),
        },
        weight: 1.0,
        angle: WanderState::default() + nan,
    });
    near(world).insert(Pursue {
        target: flock[1],
        max_look_ahead: inf,
        weight: nan,
    });
    near(world).insert(Evade {
        threat: Entity::PLACEHOLDER,
        max_look_ahead: nan,
        radius: nan,
        weight: 1.0,
    });
    near(world).insert(AvoidWalls {
        look_ahead: inf,
        weight: 1.0,
    });
    near(world).insert(AvoidObstacles {
        look_ahead: nan,
        clearance: -inf,
        weight: 1.0,
    });
    world.spawn((ball_obstacle(nan), at(xyz(2.0, 0.0, 0.0))));
    let broken_box = box_obstacle(Vector::splat(inf).with_x(-1.0));
    world.spawn((broken_box, at(xyz(-2.0, 0.0, 0.0))));
    let group = world
        .spawn(BoidGroup {
            target: Vector::ZERO.with_x(nan),
            params: GroupParams {
                keep_distance: inf,
                keep_weight: nan,
                target_close_distance: 0.0,
                target_weight: -inf,
                move_weight: 1e30,
                stop_distance: nan,
            },
        })
        .id();
    let wild = DriveParams {
        move_speed: inf,
        rotate_speed: nan,
    };
    for _ in 0..3 {
        near(world).insert(GroupMember::new(group, wild));
    }
    // A member of a group that isn't one, and a group member whose own heading is NaN.
    near(world).insert(GroupMember::new(flock[2], DriveParams::default()));
    near(world).insert(GroupMember::new(group, DriveParams::default()).facing(Vector::NAN));
    near(world).insert(MotionLimits {
        max_speed: 1e38,
        max_force: nan,
        mass: 0.0,
    });
    near(world).insert(TurnRate {
        max_turn_rate: nan,
        max_acceleration: -1.0,
    });
    near(world).insert(TurnRate {
        max_turn_rate: inf,
        max_acceleration: inf,
    });
    near(world).insert(SteeringWeights::Custom(RuleWeights {
        separation: inf,
        alignment: nan,
        cohesion: -1e30,
    }));
    // Species with hunts of hostile radii and weights, one of them between unused species.
    near(world).insert(Species(1));
    near(world).insert(Species(u32::MAX));
    world.insert_resource(SpeciesRelations {
        hunts: vec![
            Hunt {
                predator: 1,
                prey: 0,
                flee_radius: nan,
                flee_weight: inf,
                chase_radius: inf,
                chase_weight: nan,
                max_look_ahead: -inf,
            },
            Hunt {
                predator: 7,
                prey: 7,
                flee_radius: 1e30,
                flee_weight: 1.0,
                chase_radius: -1.0,
                chase_weight: 1.0,
                max_look_ahead: 1.0,
            },
        ],
    });
    let boids = boid_count(&mut app);
    for round in 0..30 {
        step(&mut app, 1);
        assert_forces_finite(&app, &format!("step {round}"));
    }
    assert_eq!(boid_count(&mut app), boids);
    assert_sound(&mut app);
}

#[test]
fn spawn_commands_with_hostile_values_spawn_what_they_can() {
    let settings = FlockSettings {
        max_boids: 500,
        ..FlockSettings::default()
    };
    let mut app = create_app(settings, 23);
    // An absurd count stops at the cap instead of allocating for it.
    app.world_mut()
        .commands()
        .queue(SpawnBoids::new(usize::MAX, Placement::RandomInBounds));
    // A point that is not finite spawns nothing; a huge finite one is a valid place.
    for point in [
        Vector::ZERO.with_x(f32::NAN),
        Vector::ZERO.with_y(f32::NEG_INFINITY),
    ] {
        app.world_mut()
            .commands()
            .queue(SpawnBoids::new(10, Placement::At(point)));
    }
    step(&mut app, 1);
    assert_eq!(boid_count(&mut app), 500);
    app.world_mut()
        .commands()
        .queue(SpawnBoids::new(0, Placement::At(Vector::ZERO)));
    step(&mut app, 1);
    assert_eq!(boid_count(&mut app), 500);

    let mut app = create_app(FlockSettings::default(), 24);
    app.world_mut()
        .commands()
        .queue(SpawnBoids::new(20, Placement::At(Vector::splat(3e38))));
    step(&mut app, 3);
    assert_eq!(boid_count(&mut app), 20);
    assert_sound(&mut app);
}

#[test]
fn boids_placed_far_outside_come_back_in_every_edge_mode() {
    // Other code may put a boid anywhere, even where its coordinates are not finite: wrap and
    // bounce bring it inside in one step; without edges it keeps its finite place and a
    // coordinate that is not finite comes back to the bounds' centre. (The last three are bad
    // only in depth: in 2D, z is the sprite's drawing order, and they stand at the origin.)
    for edges in [
        EdgeMode::Wrap,
        EdgeMode::Jump,
        EdgeMode::Bounce,
        EdgeMode::Free,
    ] {
        let mut settings = FlockSettings::default();
        settings.config.edges = edges;
        settings.config.wrap_neighbours = true;
        let mut app = create_app(settings, 25);
        spawn(&mut app, 100, Placement::RandomInBounds);
        let places = [
            Vec3::new(3e38, -3e38, 3e38),
            Vec3::new(1e9 * 7.5, 0.0, 0.0),
            Vec3::new(f32::INFINITY, 0.0, 0.0),
            Vec3::new(0.0, f32::NAN, 0.0),
            Vec3::new(0.0, 0.0, 1e9 * 7.5),
            Vec3::new(0.0, 0.0, f32::INFINITY),
            Vec3::new(0.0, 0.0, f32::NAN),
        ];
        for place in places {
            app.world_mut()
                .spawn((Boid, Transform::from_translation(place)));
        }
        step(&mut app, 3);
        assert_eq!(boid_count(&mut app), 100 + places.len(), "{edges:?}");
        assert_sound(&mut app);
        assert_forces_finite(&app, &format!("{edges:?}"));
    }
}

#[test]
fn a_velocity_with_a_nan_or_infinite_component_poisons_no_one() {
    let mut app = create_app(FlockSettings::default(), 5);
    spawn(&mut app, 200, Placement::RandomInBounds);
    for broken in [
        xyz(f32::NAN, 0.0, 0.0),
        xyz(0.0, f32::INFINITY, 0.0),
        xyz(10.0, 0.0, f32::NEG_INFINITY),
    ] {
        spawn_boid(&mut app, (at(xyz(0.0, 0.0, 5.0)), Velocity(broken)));
    }
    step(&mut app, 30);
    assert_eq!(boid_count(&mut app), 203);
    assert_sound(&mut app);
    assert_forces_finite(&app, "broken velocities");
    // Every boid still faces somewhere.
    for transform in app
        .world_mut()
        .query_filtered::<&Transform, With<Boid>>()
        .iter(app.world())
    {
        assert!(transform.rotation.is_finite() && transform.rotation.is_normalized());
    }
}
