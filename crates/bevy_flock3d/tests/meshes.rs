//! The drawn 3D flock (feature `render`) in a headless `App` with mesh and material assets: the
//! default bird, the mesh prefab and its shared materials, restyling. (The drawing cases both
//! dimensions share are bevy_flock's `tests/render.rs`, which this crate runs too.)
#![cfg(feature = "render")]

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../tests/common/mod.rs"]
mod common;

use bevy::mesh::VertexAttributeValues;
use bevy::prelude::*;
use bevy_flock3d::PrefabStyled;
use bevy_flock3d::prelude::*;
use common::*;

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
    paint_random_hues(&mut app, 0.6, 0.5);
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
