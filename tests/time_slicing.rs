//! Time slicing of the costly behaviours, through the plugin in a headless `App`: far boids
//! work out their collision avoidance one step in `every` and keep their answer in between;
//! boids near a focus, and every boid under settings that are off or invalid, update every
//! step. `bevy_flock3d` runs the same cases in 3D (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use common::*;

/// Two rows of walkers, 40 apart along their rows, walking at each other across the origin,
/// each row staggered so every walker meets someone head on or nearly.
fn head_on_rows(app: &mut App, avoid: bool) {
    for k in 0..10 {
        let across = -180.0 + 40.0 * k as f32;
        for (along, goal_x) in [(-150.0, 1e6), (150.0 + 7.0 * k as f32, -1e6)] {
            let start = level(along, across);
            let goal = level(goal_x, across);
            let seek = Seek {
                target: Target::Point(goal),
                weight: 1.0,
            };
            let heading = Velocity((goal - start).normalize() * 100.0);
            let walker = spawn_boid(app, (WALKER, at(start), heading, seek));
            if avoid {
                app.world_mut().entity_mut(walker).insert(AVOID);
            }
        }
    }
}

/// The crossing run for `slicing` (and a focus at `focus`, if any): the states after 240
/// steps and the collisions on the way.
fn run(slicing: Option<TimeSlicing>, focus: Option<Vector>, avoid: bool) -> (Vec<Vec<u32>>, usize) {
    let mut app = app_with(no_flocking());
    if let Some(slicing) = slicing {
        app.insert_resource(slicing);
    }
    if let Some(focus) = focus {
        app.world_mut().spawn((SlicingFocus, at(focus)));
    }
    head_on_rows(&mut app, avoid);
    let collisions = count_collisions(&mut app, 240, BODY, |_| {});
    assert_sound(&mut app);
    assert_eq!(boid_count(&mut app), 20);
    (state_bits(&boid_states(&mut app)), collisions)
}

#[test]
fn boids_near_a_focus_move_as_without_slicing() {
    let unsliced = run(None, None, true);
    let near = run(Some(TimeSlicing::new(4, 1e5)), Some(Vector::ZERO), true);
    assert_eq!(near, unsliced);
}

#[test]
fn far_boids_update_one_step_in_every_and_still_avoid() {
    let (unsliced, unsliced_collisions) = run(None, None, true);
    let (_, without_avoidance) = run(None, None, false);
    // A focus far from every walker: all of them are sliced.
    let far_focus = Some(level(1e5, 1e5));
    let (sliced, sliced_collisions) = run(Some(TimeSlicing::new(3, 10.0)), far_focus, true);
    println!(
        "head-on rows, collisions in 240 steps: {without_avoidance} without avoidance, \
         {unsliced_collisions} avoiding every step, {sliced_collisions} avoiding every third step"
    );
    assert_ne!(sliced, unsliced, "slicing changed nothing");
    assert!(
        without_avoidance >= 5,
        "the scene must collide: {without_avoidance}"
    );
    assert!(
        sliced_collisions * 2 <= without_avoidance,
        "sliced avoidance should still halve the collisions: {sliced_collisions} of \
         {without_avoidance}"
    );
}

#[test]
fn slicing_is_deterministic() {
    let slicing = Some(TimeSlicing::new(5, 50.0));
    let focus = Some(level(-150.0, 0.0));
    assert_eq!(run(slicing, focus, true), run(slicing, focus, true));
}

#[test]
fn settings_off_or_invalid_slice_nothing() {
    let unsliced = run(None, None, true);
    assert_eq!(run(Some(TimeSlicing::OFF), None, true), unsliced);
    for bad in [
        TimeSlicing::new(0, 10.0),
        TimeSlicing::new(u32::MAX, 10.0),
        TimeSlicing::new(3, f32::NAN),
        TimeSlicing::new(3, -1.0),
        TimeSlicing::new(3, f32::INFINITY),
    ] {
        assert_eq!(run(Some(bad), None, true), unsliced, "{bad:?}");
    }
}

#[test]
fn a_focus_at_a_non_finite_place_is_ignored() {
    let far = run(Some(TimeSlicing::new(3, 10.0)), Some(level(1e5, 1e5)), true);
    let nan = run(Some(TimeSlicing::new(3, 10.0)), Some(Vector::NAN), true);
    assert_eq!(nan, far);
}
