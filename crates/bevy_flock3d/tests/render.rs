//! The drawn 3D flock (feature `render`) in a headless `App` with mesh and material assets: the
//! default bird, the mesh prefab and its shared materials, restyling, a click on the ground.
#![cfg(feature = "render")]

use bevy::input::ButtonInput;
use bevy::mesh::VertexAttributeValues;
use bevy::prelude::*;
use bevy_flock3d::prelude::*;
use bevy_flock3d::{CursorWorldPosition, PrefabStyled};
use common::*;

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

/// A headless app with the mesh and material assets a renderer would bring (inserted before
/// the plugin, so it puts its bird under the default mesh handle).
fn app_with_assets(seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(Assets::<Mesh>::default())
        .insert_resource(Assets::<StandardMaterial>::default())
        .add_plugins(BoidsPlugin::default().with_seed(seed));
    app.finish();
    app.update();
    app
}

/// The materials of the prefab-styled boids, and their meshes.
fn looks(app: &mut App) -> Vec<(Handle<Mesh>, Option<Handle<StandardMaterial>>)> {
    app.world_mut()
        .query_filtered::<(&Mesh3d, Option<&MeshMaterial3d<StandardMaterial>>), With<PrefabStyled>>(
        )
        .iter(app.world())
        .map(|(mesh, material)| (mesh.0.clone(), material.map(|m| m.0.clone())))
        .collect()
}

#[test]
fn the_default_prefab_is_the_bird_under_the_default_mesh_handle() {
    let app = app_with_assets(1);
    let meshes = app.world().resource::<Assets<Mesh>>();
    let bird = meshes.get(AssetId::<Mesh>::default()).expect("the bird");
    let Some(VertexAttributeValues::Float32x3(points)) = bird.attribute(Mesh::ATTRIBUTE_POSITION)
    else {
        panic!("the bird has no positions");
    };
    assert!(points.len() >= 30);
    assert_eq!(app.world().resource::<BoidPrefab>().mesh, Handle::default());
}

#[test]
fn boids_get_the_prefab_mesh_and_a_few_shared_materials() {
    let mut app = app_with_assets(2);
    *app.world_mut().resource_mut::<BoidPrefab>() = BoidPrefab {
        colors: BoidColors::RandomHue {
            saturation: 0.6,
            lightness: 0.5,
        },
        ..default()
    };
    spawn(&mut app, 500, Placement::RandomInBounds);
    app.update();
    let all = looks(&mut app);
    assert_eq!(all.len(), 500);
    assert!(all.iter().all(|(mesh, _)| *mesh == Handle::default()));
    let mut materials: Vec<AssetId<StandardMaterial>> = all
        .iter()
        .map(|(_, material)| material.as_ref().expect("painted").id())
        .collect();
    materials.sort_unstable();
    materials.dedup();
    // Random hues, rounded to 10 degrees: many colours, at most 36 materials.
    assert!((20..=36).contains(&materials.len()), "{}", materials.len());
    assert_eq!(
        app.world().resource::<Assets<StandardMaterial>>().len(),
        materials.len()
    );
}

#[test]
fn swapping_the_prefab_restyles_every_styled_boid_and_keeps_own_meshes() {
    let mut app = app_with_assets(3);
    spawn(&mut app, 20, Placement::RandomInBounds);
    let own_mesh = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::default());
    let own = app.world_mut().spawn((Boid, Mesh3d(own_mesh.clone()))).id();
    app.update();
    let fish = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(fish_mesh(10.0));
    let tint = Color::srgb(1.0, 0.0, 0.0);
    *app.world_mut().resource_mut::<BoidPrefab>() = BoidPrefab {
        mesh: fish.clone(),
        colors: BoidColors::Single(tint),
    };
    app.update();
    let all = looks(&mut app);
    assert_eq!(all.len(), 20);
    let first_material = all[0].1.clone().unwrap();
    let materials = app.world().resource::<Assets<StandardMaterial>>();
    assert_eq!(materials.get(&first_material).unwrap().base_color, tint);
    for (mesh, material) in &all {
        assert_eq!(*mesh, fish);
        assert_eq!(material.as_ref(), Some(&first_material));
    }
    assert_eq!(app.world().get::<Mesh3d>(own).unwrap().0, own_mesh);
    assert!(app.world().get::<PrefabStyled>(own).is_none());
}

#[test]
fn a_click_adds_one_boid_where_the_cursor_meets_the_ground() {
    let mut app = create_app(FlockSettings::default(), 4);
    app.init_resource::<ButtonInput<MouseButton>>();
    let target = Vec3::new(40.0, 0.0, -25.0);
    app.insert_resource(CursorWorldPosition(Some(target)));
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .press(MouseButton::Left);
    step(&mut app, 1);
    app.world_mut()
        .resource_mut::<ButtonInput<MouseButton>>()
        .clear();
    let at_target = boid_states(&mut app)
        .iter()
        .filter(|(_, position, _)| *position == target)
        .count();
    assert_eq!(at_target, 1);
    step(&mut app, 5);
    assert_eq!(boid_count(&mut app), 1);
}
