//! The plugin in a headless `App`: MinimalPlugins, the plugin, manual time steps. The drawn
//! parts are in `render.rs` (pointer, looks) and `sprites.rs` (the sprite prefab).

use bevy::prelude::*;
use bevy_flock::prelude::*;
use common::*;

mod common;

#[test]
fn each_update_is_one_flock_step() {
    let mut app = create_app(FlockSettings::default(), 1);
    let before = app.world().resource::<FlockClock>().steps_taken();
    step(&mut app, 10);
    assert_eq!(
        app.world().resource::<FlockClock>().steps_taken() - before,
        10
    );
}

/// Bounds that follow a camera, where there is none (a server; without the `render` feature
/// there is not even the camera type): the bounds stay as set and the flock keeps stepping.
#[test]
fn following_a_camera_without_one_keeps_the_bounds() {
    let settings = FlockSettings {
        bounds_source: BoundsSource::FollowCamera,
        ..default()
    };
    let bounds = settings.config.bounds;
    let mut app = create_app(settings, 2);
    spawn(&mut app, 20, Placement::RandomInBounds);
    let before = boid_states(&mut app);
    step(&mut app, 5);
    assert_eq!(
        app.world().resource::<FlockSettings>().config.bounds,
        bounds
    );
    assert_eq!(app.world().resource::<FlockClock>().steps_taken(), 5);
    assert_ne!(boid_states(&mut app), before);
}

#[test]
fn boids_move_and_face_their_velocity() {
    let mut app = create_app(FlockSettings::default(), 1);
    spawn(&mut app, 50, Placement::RandomInBounds);
    let before = boid_states(&mut app);
    step(&mut app, 10);
    let after = boid_states(&mut app);
    assert_eq!(before.len(), 50);
    let moved = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b.1.distance(a.1) > 1.0)
        .count();
    assert_eq!(moved, 50, "every boid should have moved");
    assert!(after.iter().all(|(_, p, v)| p.is_finite() && v.is_finite()));

    let mut facing = app
        .world_mut()
        .query_filtered::<(&Transform, &Velocity), With<Boid>>();
    for (transform, velocity) in facing.iter(app.world()) {
        let forward = (transform.rotation * Vec3::X).truncate();
        assert!(forward.angle_to(velocity.0).abs() < 1e-3);
    }
}

/// Free edges, so a pair of boids sees nothing but each other.
fn free_settings() -> FlockSettings {
    FlockSettings {
        config: FlockConfig {
            edges: EdgeMode::Free,
            ..FlockConfig::default()
        },
        ..default()
    }
}

/// Two boids 40 apart (outside the separation radius of 25, inside the cohesion radius of
/// 50), heading the same way.
fn spawn_pair(app: &mut App) -> [Entity; 2] {
    [-20.0, 20.0].map(|x| {
        app.world_mut()
            .spawn((
                Boid,
                Transform::from_xyz(x, 0.0, 0.0),
                Velocity(Vec2::new(0.0, 60.0)),
            ))
            .id()
    })
}

/// Cohesion turned each boid of the pair towards the other.
fn assert_pair_turned_together(app: &App, [left, right]: [Entity; 2]) {
    let velocity = |entity| app.world().get::<Velocity>(entity).unwrap().0;
    assert!(velocity(left).x > 0.0, "{}", velocity(left));
    assert!(velocity(right).x < 0.0, "{}", velocity(right));
}

#[test]
fn flock_forces_reach_the_boids() {
    let mut app = create_app(free_settings(), 1);
    let pair = spawn_pair(&mut app);
    step(&mut app, 1);
    assert_pair_turned_together(&app, pair);
}

#[test]
fn wrap_and_bounce_keep_boids_in_bounds() {
    for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
        let config = FlockConfig {
            edges,
            bounds: flock_core::Bounds::centered(Vec2::new(300.0, 200.0)),
            ..FlockConfig::default()
        };
        let bounds = config.bounds;
        let mut app = create_app(FlockSettings::from_config(config), 2);
        spawn(&mut app, 200, Placement::RandomInBounds);
        let mut crossings = 0;
        let mut previous = boid_states(&mut app);
        for _ in 0..300 {
            step(&mut app, 1);
            let states = boid_states(&mut app);
            for ((_, p, _), (_, q, _)) in previous.iter().zip(&states) {
                assert!(bounds.contains(*q), "{edges:?}: {q} is outside");
                // A jump of more than a step's travel means the boid wrapped or bounced.
                crossings += usize::from(p.distance(*q) > 10.0);
            }
            previous = states;
        }
        if edges == EdgeMode::Wrap {
            assert!(crossings > 0, "no boid ever reached an edge");
        }
    }
}

#[test]
fn the_cap_holds_for_commands_and_clicks() {
    let settings = FlockSettings {
        max_boids: 20,
        ..default()
    };
    let mut app = create_app(settings, 4);
    spawn(&mut app, 15, Placement::RandomInBounds);
    spawn(&mut app, 15, Placement::At(Vec2::ZERO));
    assert_eq!(boid_count(&mut app), 20);

    #[cfg(feature = "render")]
    {
        app.insert_resource(bevy_flock::ClickToSpawn::ON);
        app.init_resource::<bevy::input::ButtonInput<MouseButton>>();
        app.insert_resource(bevy_flock::CursorWorldPosition(Some(Vec2::ZERO)));
        app.world_mut()
            .resource_mut::<bevy::input::ButtonInput<MouseButton>>()
            .press(MouseButton::Left);
        step(&mut app, 1);
        assert_eq!(boid_count(&mut app), 20);
    }
}

fn run_from_seed(seed: u64) -> Vec<(Entity, Vec2, Vec2)> {
    let mut app = create_app(FlockSettings::default(), seed);
    spawn(&mut app, 300, Placement::RandomInBounds);
    step(&mut app, 200);
    boid_states(&mut app)
}

#[test]
fn the_same_seed_replays_the_same_run() {
    let first = run_from_seed(42);
    let second = run_from_seed(42);
    let bits = |states: &[(Entity, Vec2, Vec2)]| -> Vec<[u32; 4]> {
        states
            .iter()
            .map(|(_, p, v)| [p.x.to_bits(), p.y.to_bits(), v.x.to_bits(), v.y.to_bits()])
            .collect()
    };
    assert_eq!(bits(&first), bits(&second));
    assert_ne!(bits(&first), bits(&run_from_seed(43)));
}

#[test]
fn pause_stops_the_flock_and_step_once_advances_one_step() {
    let mut app = create_app(FlockSettings::default(), 5);
    spawn(&mut app, 20, Placement::RandomInBounds);
    app.world_mut().resource_mut::<FlockClock>().pause();
    let paused_at = boid_states(&mut app);
    step(&mut app, 5);
    assert_eq!(boid_states(&mut app), paused_at);

    app.world_mut().resource_mut::<FlockClock>().step_once();
    step(&mut app, 3);
    let stepped = boid_states(&mut app);
    assert_ne!(stepped, paused_at);
    // Exactly one step: the same as one step of an unpaused twin.
    let mut twin = create_app(FlockSettings::default(), 5);
    spawn(&mut twin, 20, Placement::RandomInBounds);
    step(&mut twin, 1);
    let strip = |states: Vec<(Entity, Vec2, Vec2)>| -> Vec<(Vec2, Vec2)> {
        states.into_iter().map(|(_, p, v)| (p, v)).collect()
    };
    assert_eq!(strip(stepped), strip(boid_states(&mut twin)));

    app.world_mut().resource_mut::<FlockClock>().resume();
    step(&mut app, 1);
    assert_ne!(boid_states(&mut app), boid_states(&mut twin));
}

#[test]
fn invalid_settings_are_refused_and_the_flock_keeps_running() {
    let mut app = create_app(FlockSettings::default(), 6);
    spawn(&mut app, 30, Placement::RandomInBounds);
    let good = app.world().resource::<FlockSettings>().clone();
    app.world_mut()
        .resource_mut::<FlockSettings>()
        .config
        .max_speed = f32::NAN;
    step(&mut app, 20);
    assert_eq!(
        app.world().resource::<bevy_flock::ActiveFlockSettings>().0,
        good
    );
    assert!(
        boid_states(&mut app)
            .iter()
            .all(|(_, p, v)| p.is_finite() && v.is_finite())
    );

    // A valid change takes effect.
    app.world_mut().resource_mut::<FlockSettings>().config = FlockConfig {
        max_speed: 10.0,
        ..good.config
    };
    step(&mut app, 20);
    assert!(
        boid_states(&mut app)
            .iter()
            .all(|(_, _, v)| v.length() <= 10.0 + 1e-3)
    );
}

#[test]
fn custom_weights_override_the_flock_defaults() {
    // Two boids side by side, 40 apart: the one with the flock's weights turns towards its
    // neighbour (cohesion), the one with all weights zero keeps flying straight.
    let settings = FlockSettings {
        config: FlockConfig {
            edges: EdgeMode::Free,
            ..FlockConfig::default()
        },
        ..default()
    };
    let mut app = create_app(settings, 7);
    let still = RuleWeights {
        separation: 0.0,
        alignment: 0.0,
        cohesion: 0.0,
    };
    let straight = app
        .world_mut()
        .spawn((
            Boid,
            Transform::from_xyz(-20.0, 0.0, 0.0),
            Velocity(Vec2::new(0.0, 60.0)),
            SteeringWeights::Custom(still),
        ))
        .id();
    let turning = app
        .world_mut()
        .spawn((
            Boid,
            Transform::from_xyz(20.0, 0.0, 0.0),
            Velocity(Vec2::new(0.0, 60.0)),
        ))
        .id();
    step(&mut app, 1);
    assert_eq!(
        app.world().get::<Velocity>(straight).unwrap().0,
        Vec2::new(0.0, 60.0)
    );
    assert!(app.world().get::<Velocity>(turning).unwrap().x < 0.0);
}

/// Despawns the first boid between the snapshot and the steering, as a user's system might.
fn despawn_first_boid(
    mut commands: Commands,
    boids: Query<Entity, With<Boid>>,
    mut done: Local<bool>,
) {
    if !*done && let Some(first) = boids.iter().next() {
        commands.entity(first).despawn();
        *done = true;
    }
}

#[test]
fn forces_reach_the_boids_when_boids_vanish_mid_step() {
    let mut app = create_app(free_settings(), 10);
    app.add_systems(
        FixedUpdate,
        despawn_first_boid
            .after(FlockSystems::Snapshot)
            .before(FlockSystems::Steer),
    );
    // The first boid (the one that vanishes) is far from the pair.
    app.world_mut()
        .spawn((Boid, Transform::from_xyz(5_000.0, 0.0, 0.0)));
    let pair = spawn_pair(&mut app);
    step(&mut app, 1);
    assert_eq!(boid_count(&mut app), 2);
    assert_pair_turned_together(&app, pair);
}

#[test]
fn a_cap_of_zero_is_refused() {
    let mut app = create_app(FlockSettings::default(), 11);
    app.world_mut().resource_mut::<FlockSettings>().max_boids = 0;
    step(&mut app, 2);
    let active = &app.world().resource::<bevy_flock::ActiveFlockSettings>().0;
    assert_eq!(active.max_boids, FlockSettings::default().max_boids);
}

#[test]
fn spawning_with_bad_input_changes_nothing() {
    let mut app = create_app(FlockSettings::default(), 12);
    spawn(&mut app, 10, Placement::RandomInBounds);
    spawn(&mut app, 3, Placement::At(Vec2::new(f32::NAN, 0.0)));
    assert_eq!(boid_count(&mut app), 10);

    // Invalid bounds: boids are placed in the last valid ones, no panic, nothing lost.
    let valid_bounds = app.world().resource::<FlockSettings>().config.bounds;
    app.world_mut()
        .resource_mut::<FlockSettings>()
        .config
        .bounds
        .max
        .x = f32::INFINITY;
    spawn(&mut app, 5, Placement::RandomInBounds);
    step(&mut app, 10);
    let states = boid_states(&mut app);
    assert_eq!(states.len(), 15);
    assert!(
        states
            .iter()
            .all(|(_, p, v)| valid_bounds.contains(*p) && v.is_finite())
    );
}

#[test]
fn the_plugin_steps_at_the_rate_the_presets_were_converted_at() {
    let timestep = |plugin: BoidsPlugin| {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins).add_plugins(plugin);
        app.world().resource::<Time<Fixed>>().timestep()
    };
    let sixtieth = std::time::Duration::from_secs_f64(1.0 / 60.0);
    assert_eq!(timestep(BoidsPlugin::default()), sixtieth);
    assert_eq!(BoidsPlugin::STEPS_PER_SECOND, 60.0);
    // Left alone on request: Bevy's own default.
    let bevy_default = Time::<Fixed>::default().timestep();
    assert_ne!(bevy_default, sixtieth);
    assert_eq!(
        timestep(BoidsPlugin::default().with_step_rate(None)),
        bevy_default
    );
    assert_eq!(
        timestep(BoidsPlugin::default().with_step_rate(Some(30.0))),
        std::time::Duration::from_secs_f64(1.0 / 30.0)
    );
    // A nonsense rate changes nothing.
    assert_eq!(
        timestep(BoidsPlugin::default().with_step_rate(Some(f64::NAN))),
        bevy_default
    );
    // Another schedule than FixedUpdate leaves the fixed clock alone.
    assert_eq!(timestep(BoidsPlugin::new(Update)), bevy_default);
}
