//! The drawn flock (feature `render`) in a headless `App`: a click at the cursor, and looks that
//! never change the flight. `bevy_flock3d` runs the same cases in 3D (`[[test]] path` in its
//! manifest), with meshes for sprites and a cursor that meets the ground. The looks only one
//! dimension has are in `sprites.rs` (2D) and bevy_flock3d's `meshes.rs`.
#![cfg(feature = "render")]

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::input::ButtonInput;
use bevy::prelude::*;
use bevy_flock::prelude::*;
use bevy_flock::{CursorWorldPosition, PrefabStyled};
use common::*;

/// Presses the left button with the cursor at `target` and steps once.
fn click_at(app: &mut App, target: Vector) {
    app.init_resource::<ButtonInput<MouseButton>>();
    app.insert_resource(CursorWorldPosition(Some(target)));
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(MouseButton::Left);
    step(app, 1);
}

#[test]
fn a_click_adds_nothing_unless_the_app_turns_click_to_spawn_on() {
    let mut app = create_app(FlockSettings::default(), 3);
    spawn(&mut app, 5, Placement::RandomInBounds);
    assert_eq!(*app.world().resource::<ClickToSpawn>(), ClickToSpawn::OFF);
    click_at(&mut app, level(40.0, -25.0));
    assert_eq!(boid_count(&mut app), 5);
}

#[test]
fn a_click_adds_exactly_one_boid_at_the_cursor() {
    let mut app = create_app(FlockSettings::default(), 3);
    app.insert_resource(ClickToSpawn::ON);
    spawn(&mut app, 5, Placement::RandomInBounds);
    // In 3D, where the cursor meets the ground.
    let target = level(40.0, -25.0);
    click_at(&mut app, target);
    // What the input plugin does at the start of the next frame.
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear();
    assert_eq!(boid_count(&mut app), 6);
    let at_target = boid_states(&mut app)
        .iter()
        .filter(|(_, position, _)| *position == target)
        .count();
    assert_eq!(at_target, 1);

    // Holding the button adds nothing more.
    step(&mut app, 5);
    assert_eq!(boid_count(&mut app), 6);
}

/// A flock of wanderers (whose jitter draws from the flock's RNG) with five boids spawned by
/// hand among them, after `STEPS`: with a look of their own, or without one (then the plugin
/// draws each a hue). Both ways the boids end up with the same components, so the queries that
/// draw random numbers visit them in the same order.
fn wanderers_after_hand_spawns(own_looks: bool) -> Vec<BoidState> {
    const STEPS: usize = 60;
    let mut app = create_app(FlockSettings::default(), 21);
    paint_random_hues(&mut app, 0.5, 0.5);
    spawn(&mut app, 40, Placement::RandomInBounds);
    for i in 0..5 {
        let boid = (
            Boid,
            at(xyz(10.0 * i as f32, 0.0, 0.0)),
            Velocity(Vector::X * 40.0),
        );
        if own_looks {
            app.world_mut()
                .spawn((boid, own_look(), PrefabStyled { hue: 0.0 }));
        } else {
            app.world_mut().spawn(boid);
        }
    }
    spawn(&mut app, 40, Placement::RandomInBounds);
    let boids: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, With<Boid>>()
        .iter(app.world())
        .collect();
    for boid in boids {
        app.world_mut().entity_mut(boid).insert(Wander::default());
    }
    step(&mut app, STEPS);
    boid_states(&mut app)
}

/// Colours come from their own stream: whether a boid draws a hue (with the prefab) or not (its
/// own look) leaves every position and velocity the same.
#[test]
fn looks_never_change_the_flight() {
    let with_hues = wanderers_after_hand_spawns(false);
    let without = wanderers_after_hand_spawns(true);
    assert_eq!(with_hues.len(), 85);
    assert_eq!(with_hues, without);
}
