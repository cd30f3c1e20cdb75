//! The drawn 2D flock (feature `render`) in a headless `App`: the sprite prefab and restyling.
//! (The drawing cases both dimensions share are in `render.rs`.)
#![cfg(feature = "render")]

mod common;

use bevy::prelude::*;
use bevy_flock::PrefabStyled;
use bevy_flock::prelude::*;
use common::*;

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
    paint_random_hues(&mut app, 0.8, 0.5);
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
