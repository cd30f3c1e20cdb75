//! The tuning panel's parts that run without a window: presets as RON files, the metrics the
//! plots show, debug drawing, and clicks kept from the world while a UI has the pointer.
#![cfg(feature = "panel")]

use std::path::PathBuf;

use bevy::gizmos::GizmoPlugin;
use bevy::input::ButtonInput;
use bevy::prelude::*;
use bevy_flock::panel::{
    FlockDebugDraw, FlockDebugDrawPlugin, FlockMetrics, FlockMetricsPlugin, FlockWasReset,
    PresetError, ResetFlock, SelectedBoid, builtin_presets, load_into, load_settings,
    save_settings,
};
use bevy_flock::prelude::*;
use bevy_flock::{CursorWorldPosition, UiWantsInput};
use common::*;

mod common;

/// A fresh file path in the temporary folder, unique to this test.
fn temp_file(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("bevy_flock-panel-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    folder.join(name)
}

fn unusual_settings() -> FlockSettings {
    FlockSettings {
        config: FlockConfig {
            speed_mode: SpeedMode::Clamp { min_speed: 0.25 },
            edges: EdgeMode::Bounce,
            index: IndexKind::KdTree,
            view_angle_degrees: 270.0,
            ..FlockConfig::unity_port()
        },
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 1234,
    }
}

#[test]
fn saved_settings_load_back_equal() {
    let path = temp_file("round_trip.ron");
    let settings = unusual_settings();
    save_settings(&path, &settings).unwrap();
    assert_eq!(load_settings(&path).unwrap(), settings);

    // Every built-in preset survives the trip too.
    for preset in builtin_presets() {
        let settings = FlockSettings::from_config((preset.config)());
        save_settings(&path, &settings).unwrap();
        assert_eq!(load_settings(&path).unwrap(), settings, "{}", preset.name);
    }
}

#[test]
fn bad_files_give_an_error_and_change_nothing() {
    let before = unusual_settings();

    let malformed = temp_file("malformed.ron");
    std::fs::write(&malformed, "(config: (separation_radius: 25.0,, oops").unwrap();
    let mut settings = before.clone();
    let error = load_into(&malformed, &mut settings).unwrap_err();
    assert!(matches!(error, PresetError::Parse { .. }), "{error}");
    assert!(error.to_string().contains("malformed.ron"), "{error}");
    assert_eq!(settings, before);

    // Well-formed RON with a value out of range: refused, naming the field.
    let invalid = temp_file("invalid.ron");
    let mut negative = FlockSettings::default();
    negative.config.cohesion_radius = -5.0;
    save_settings(&invalid, &negative).unwrap();
    let error = load_into(&invalid, &mut settings).unwrap_err();
    assert!(matches!(error, PresetError::Invalid { .. }), "{error}");
    assert!(error.to_string().contains("cohesion_radius"), "{error}");
    assert_eq!(settings, before);

    let missing = temp_file("no_such_file.ron");
    let error = load_into(&missing, &mut settings).unwrap_err();
    assert!(matches!(error, PresetError::Io { .. }), "{error}");
    assert_eq!(settings, before);
}

/// Boids on a lattice 20 apart with the given velocities, no steering.
fn still_flock(velocities: &[Vec2]) -> App {
    let config = FlockConfig {
        weights: RuleWeights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
        },
        ..FlockConfig::default()
    };
    let mut app = create_app(FlockSettings::from_config(config), 1);
    app.add_plugins(FlockMetricsPlugin);
    for (i, velocity) in velocities.iter().enumerate() {
        let position = Vec2::new((i % 10) as f32 * 20.0, (i / 10) as f32 * 20.0);
        app.world_mut().spawn((
            Boid,
            Transform::from_translation(position.extend(0.0)),
            Velocity(*velocity),
        ));
    }
    app
}

#[test]
fn metrics_sample_the_running_flock() {
    let aligned = vec![Vec2::new(30.0, 40.0); 60];
    let mut app = still_flock(&aligned);
    step(&mut app, 20);
    let metrics = app.world().resource::<FlockMetrics>();
    let latest = *metrics.latest().unwrap();
    assert!((latest.polarisation - 1.0).abs() < 1e-5, "{latest:?}");
    // The lattice moves as one: every boid's nearest neighbour is still 20 away.
    assert!((latest.nearest_neighbour.unwrap() - 20.0).abs() < 1e-3);
    // Sampled every 5 steps, not every step.
    assert_eq!(metrics.history().len(), 4);

    let opposite: Vec<Vec2> = (0..60)
        .map(|i| if i % 2 == 0 { Vec2::X } else { -Vec2::X } * 50.0)
        .collect();
    let mut app = still_flock(&opposite);
    step(&mut app, 20);
    let latest = *app.world().resource::<FlockMetrics>().latest().unwrap();
    assert!(latest.polarisation < 1e-5, "{latest:?}");
}

/// A flock of 200 from one seed, with or without every debug drawing on, after 150 steps: each
/// boid's position and velocity in spawn order (entity ids differ, as the gizmo plugins spawn
/// entities of their own), and the selected boid.
fn run_with_debug_drawing(drawing: bool) -> (Vec<(Vec2, Vec2)>, Option<Entity>) {
    let mut app = create_app(FlockSettings::default(), 9);
    if drawing {
        // Gizmos headless: the assets its skinned-mesh bounds system reads, and the plugin.
        app.add_plugins(bevy::asset::AssetPlugin::default())
            .init_asset::<Mesh>()
            .init_asset::<bevy::mesh::skinning::SkinnedMeshInverseBindposes>()
            .add_plugins((GizmoPlugin, FlockDebugDrawPlugin))
            .insert_resource(FlockDebugDraw {
                bounds: true,
                grid: true,
                selected: true,
                velocities: true,
                forces: true,
                max_arrows: usize::MAX,
            });
    }
    bevy_flock::spawn_boids(app.world_mut(), 200, Placement::RandomInBounds);
    // Hover over the first boid, so one is selected and its neighbours are drawn.
    let (_, first, _) = boid_states(&mut app)[0];
    app.insert_resource(CursorWorldPosition(Some(first)));
    step(&mut app, 150);
    let selected = app
        .world()
        .get_resource::<SelectedBoid>()
        .and_then(|selected| selected.0);
    let states = boid_states(&mut app)
        .into_iter()
        .map(|(_, position, velocity)| (position, velocity))
        .collect();
    (states, selected)
}

#[test]
fn debug_drawing_does_not_change_the_simulation() {
    let (plain, _) = run_with_debug_drawing(false);
    let (drawn, selected) = run_with_debug_drawing(true);
    assert!(selected.is_some(), "hovering a boid selects it");
    assert_eq!(plain, drawn);
}

#[test]
fn clicks_on_a_ui_do_not_reach_the_world() {
    let mut app = create_app(FlockSettings::default(), 3);
    app.insert_resource(ClickToSpawn::ON);
    app.init_resource::<ButtonInput<MouseButton>>();
    app.insert_resource(CursorWorldPosition(Some(Vec2::new(10.0, 10.0))));
    let click = |app: &mut App, over_ui: bool| {
        app.insert_resource(UiWantsInput {
            pointer: over_ui,
            keyboard: false,
        });
        let mut buttons = app.world_mut().resource_mut::<ButtonInput<MouseButton>>();
        buttons.release(MouseButton::Left);
        buttons.clear();
        buttons.press(MouseButton::Left);
        step(app, 1);
        boid_states(app).len()
    };
    assert_eq!(click(&mut app, true), 0);
    assert_eq!(click(&mut app, false), 1);
}

/// Positions and velocities as bits, in a fixed order (entity ids differ after a reset).
fn state_bits(app: &mut App) -> Vec<[u32; 4]> {
    let mut bits: Vec<[u32; 4]> = boid_states(app)
        .into_iter()
        .map(|(_, p, v)| [p.x.to_bits(), p.y.to_bits(), v.x.to_bits(), v.y.to_bits()])
        .collect();
    bits.sort_unstable();
    bits
}

#[test]
fn reset_replays_the_run_from_the_seed() {
    let mut app = create_app(FlockSettings::default(), 21);
    app.add_plugins(FlockMetricsPlugin);
    let reset = ResetFlock(SpawnBoids::new(120, Placement::RandomInBounds));
    app.world_mut().commands().queue(reset);
    step(&mut app, 100);
    let first = state_bits(&mut app);

    // More boids and more steps, then Reset: the same 120 boids, the same 100 steps.
    bevy_flock::spawn_boids(app.world_mut(), 30, Placement::At(Vec2::ZERO));
    step(&mut app, 37);
    app.world_mut().commands().queue(reset);
    step(&mut app, 100);
    assert_eq!(state_bits(&mut app).len(), 120);
    assert_eq!(state_bits(&mut app), first);
    // The plots start over too.
    let metrics = app.world().resource::<FlockMetrics>();
    let oldest = metrics.history().next().unwrap().step;
    assert!(metrics.history().len() <= 21, "{}", metrics.history().len());
    assert!(oldest > 137, "{oldest}");
}

#[test]
fn reset_tells_the_app_once_the_flock_is_back() {
    #[derive(Resource, Default)]
    struct Resets(Vec<usize>);
    let mut app = create_app(FlockSettings::default(), 21);
    app.init_resource::<Resets>().add_observer(
        |_: On<FlockWasReset>, boids: Query<(), With<Boid>>, mut resets: ResMut<Resets>| {
            resets.0.push(boids.iter().count());
        },
    );
    step(&mut app, 2);
    assert!(app.world().resource::<Resets>().0.is_empty());
    let reset = ResetFlock(SpawnBoids::new(40, Placement::RandomInBounds));
    app.world_mut().commands().queue(reset);
    step(&mut app, 1);
    // Triggered once, after the new boids were spawned.
    assert_eq!(app.world().resource::<Resets>().0, [40]);
}
