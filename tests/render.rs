//! The drawn flock (feature `render`) in a headless `App`: the sprite prefab, a click at the
//! cursor, and looks that never change the flight.
#![cfg(feature = "render")]

use bevy::input::ButtonInput;
use bevy::prelude::*;
use bevy_flock::prelude::*;
use bevy_flock::{CursorWorldPosition, PrefabStyled};
use common::*;

mod common;

#[test]
fn a_click_adds_exactly_one_boid_at_the_cursor() {
    let mut app = create_app(FlockSettings::default(), 3);
    spawn(&mut app, 5, Placement::RandomInBounds);
    app.init_resource::<ButtonInput<MouseButton>>();
    let target = Vec2::new(40.0, -25.0);
    app.insert_resource(CursorWorldPosition(Some(target)));
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(MouseButton::Left);
    step(&mut app, 1);
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

#[test]
fn swapping_the_prefab_restyles_existing_boids() {
    let mut app = create_app(FlockSettings::default(), 8);
    spawn(&mut app, 10, Placement::RandomInBounds);
    let own_sprite = app
        .world_mut()
        .spawn((Boid, Sprite::from_color(Color::BLACK, Vec2::ONE)))
        .id();
    step(&mut app, 1);
    let size = Vec2::new(30.0, 15.0);
    let tint = Color::srgb(1.0, 0.0, 0.0);
    *app.world_mut().resource_mut::<BoidPrefab>() = BoidPrefab {
        image: Handle::default(),
        size,
        colors: BoidColors::Single(tint),
    };
    step(&mut app, 1);
    let mut styled = app
        .world_mut()
        .query_filtered::<&Sprite, (With<Boid>, With<PrefabStyled>)>();
    let sprites: Vec<_> = styled.iter(app.world()).collect();
    assert_eq!(sprites.len(), 10);
    assert!(
        sprites
            .iter()
            .all(|s| s.custom_size == Some(size) && s.color == tint)
    );
    let own = app.world().get::<Sprite>(own_sprite).unwrap();
    assert_eq!(own.color, Color::BLACK);
    assert!(app.world().get::<PrefabStyled>(own_sprite).is_none());
}

#[test]
fn random_hues_survive_a_prefab_swap() {
    let mut app = create_app(FlockSettings::default(), 9);
    *app.world_mut().resource_mut::<BoidPrefab>() = BoidPrefab {
        colors: BoidColors::RandomHue {
            saturation: 0.8,
            lightness: 0.5,
        },
        ..default()
    };
    spawn(&mut app, 10, Placement::RandomInBounds);
    step(&mut app, 1);
    let colours = |app: &mut App| -> Vec<Color> {
        app.world_mut()
            .query_filtered::<&Sprite, With<Boid>>()
            .iter(app.world())
            .map(|s| s.color)
            .collect()
    };
    let first = colours(&mut app);
    assert!(
        first.windows(2).any(|w| w[0] != w[1]),
        "all boids got one colour"
    );
    app.world_mut().resource_mut::<BoidPrefab>().size = Vec2::splat(40.0);
    step(&mut app, 1);
    assert_eq!(colours(&mut app), first);
}

/// A flock of wanderers (whose jitter draws from the flock's RNG) with five boids spawned by
/// hand among them, after `STEPS`: with a look of their own, or without one (then the plugin
/// draws each a hue). Both ways the boids end up with the same components, so the queries that
/// draw random numbers visit them in the same order.
fn wanderers_after_hand_spawns(own_sprites: bool) -> Vec<BoidState> {
    const STEPS: usize = 60;
    let mut app = create_app(FlockSettings::default(), 21);
    *app.world_mut().resource_mut::<BoidPrefab>() = BoidPrefab {
        colors: BoidColors::RandomHue {
            saturation: 0.5,
            lightness: 0.5,
        },
        ..default()
    };
    spawn(&mut app, 40, Placement::RandomInBounds);
    for i in 0..5 {
        let boid = (
            Boid,
            Transform::from_xyz(10.0 * i as f32, 0.0, 0.0),
            Velocity(Vec2::new(40.0, 0.0)),
        );
        if own_sprites {
            app.world_mut().spawn((
                boid,
                Sprite::from_color(Color::WHITE, Vec2::ONE),
                PrefabStyled { hue: 0.0 },
            ));
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
/// own sprite) leaves every position and velocity the same.
#[test]
fn looks_never_change_the_flight() {
    let with_hues = wanderers_after_hand_spawns(false);
    let without = wanderers_after_hand_spawns(true);
    assert_eq!(with_hues.len(), 85);
    assert_eq!(with_hues, without);
}
