//! `FlockPlugins`, trimmed, in a headless `App`; and the behaviour sets a user orders systems
//! against.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::Vector;
use bevy_flock::prelude::*;
use common::*;

/// The whole group less the behaviours and, with `render`, the drawing: what a server that only
/// flocks runs.
fn only_the_step(seed: u64) -> App {
    let group = FlockPlugins::default()
        .with_seed(seed)
        .build()
        .disable::<FlockBehavioursPlugin>();
    #[cfg(feature = "render")]
    let group = group.disable::<FlockRenderPlugin>();
    create_app_from(group, FlockSettings::default())
}

#[test]
fn a_group_without_behaviours_or_drawing_still_steps() {
    let mut app = only_the_step(8);
    // What was left out is not there.
    assert!(!app.world().contains_resource::<SpeciesRelations>());
    #[cfg(feature = "render")]
    assert!(!app.world().contains_resource::<BoidPrefab>());
    spawn(&mut app, 50, Placement::RandomInBounds);
    let before = boid_states(&mut app);
    step(&mut app, 10);
    assert_eq!(app.world().resource::<FlockClock>().steps_taken(), 10);
    assert_ne!(boid_states(&mut app), before);
}

#[test]
fn a_plain_flock_flies_the_same_with_or_without_the_behaviours() {
    let run = |mut app: App| {
        spawn(&mut app, 200, Placement::RandomInBounds);
        step(&mut app, 60);
        state_bits(&boid_states(&mut app))
    };
    let whole = run(create_app(FlockSettings::default(), 8));
    assert_eq!(run(only_the_step(8)), whole);
}

#[test]
fn the_panel_and_the_gpu_flock_are_off_until_enabled() {
    let app = create_app_from(FlockPlugins::default(), FlockSettings::default());
    #[cfg(feature = "panel")]
    assert!(!app.is_plugin_added::<bevy_flock::panel::FlockPanelPlugin>());
    #[cfg(feature = "gpu")]
    assert!(!app.is_plugin_added::<bevy_flock::gpu::GpuFlockPlugin>());
    assert!(app.is_plugin_added::<FlockCorePlugin>());
    assert!(app.is_plugin_added::<FlockBehavioursPlugin>());
}

/// Where the probes run: before the targets, between the targets and avoidance, after the
/// combination.
const BEFORE_TARGETS: usize = 0;
const BETWEEN: usize = 1;
const AFTER_COMBINE: usize = 2;

/// What a seeking boid's [`SteeringForce`] held when each probe ran, by probe.
#[derive(Resource, Default, Debug)]
struct Seen(Vec<(usize, Vector)>);

fn probe<const AT: usize>(mut seen: ResMut<Seen>, boids: Query<&SteeringForce, With<Seek>>) {
    for force in &boids {
        seen.0.push((AT, force.sum()));
    }
}

#[test]
fn a_system_ordered_between_two_behaviour_sets_runs_there() {
    let mut app = create_app(FlockSettings::from_config(no_flocking()), 3);
    app.init_resource::<Seen>().add_systems(
        FixedUpdate,
        (
            probe::<BEFORE_TARGETS>
                .in_set(FlockSystems::Behaviours)
                .before(BehaviourSystems::Targets),
            probe::<BETWEEN>
                .after(BehaviourSystems::Targets)
                .before(BehaviourSystems::Avoidance),
            probe::<AFTER_COMBINE>
                .after(BehaviourSystems::Combine)
                .in_set(FlockSystems::Behaviours),
        ),
    );
    spawn_boid(
        &mut app,
        (
            at(level(-100.0, 0.0)),
            Seek {
                target: Target::Point(level(100.0, 0.0)),
                weight: 1.0,
            },
        ),
    );
    step(&mut app, 1);
    let seen = &app.world().resource::<Seen>().0;
    let seen_by = |probe| seen.iter().find(|(at, _)| *at == probe).unwrap().1;
    assert_eq!(seen.len(), 3, "{seen:?}");
    // Nothing added yet; the seek's pull towards +x once the targets ran; emptied into the
    // acceleration by the combination.
    assert_eq!(seen_by(BEFORE_TARGETS), Vector::ZERO);
    assert!(seen_by(BETWEEN).x > 0.0, "{seen:?}");
    assert_eq!(seen_by(AFTER_COMBINE), Vector::ZERO);
}
