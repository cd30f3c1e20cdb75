//! Two species in one world: a flock of 400 prey and 3 predators. Prey flock only with prey and
//! flee any predator within 120 px; predators keep apart from each other and pursue the
//! nearest prey within 300 px, predicting where it will be. Click to add prey.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use support::hunt::{PREY, predator, predators_hunt_prey};

fn main() {
    let settings = FlockSettings {
        config: FlockConfig::processing(),
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 1_000,
    };
    let mut app = support::flock_app("predators", settings, 4);
    app.insert_resource(predators_hunt_prey())
        .insert_resource(ClickToSpawn::ON)
        .add_systems(Startup, setup)
        .add_systems(Update, (make_clicked_boids_prey, update_help));
    // The panel's Reset clears the scene and spawns plain boids.
    let reset = SpawnBoids::new(400, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = support::sprite_prefab(&assets, BoidSprite::Fish, 20.0, support::SOFT_HUES);
    let bird = assets.load(BoidSprite::Bird.asset_path());
    commands.queue(move |world: &mut World| {
        for prey in bevy_flock::spawn_boids(world, 400, Placement::RandomInBounds) {
            world.entity_mut(prey).insert(Species(PREY));
        }
        for (i, hunter) in bevy_flock::spawn_boids(world, 3, Placement::RandomInBounds)
            .into_iter()
            .enumerate()
        {
            world.entity_mut(hunter).insert((
                predator(),
                Transform::from_xyz(-300.0 + 300.0 * i as f32, 0.0, 1.0),
                Sprite {
                    image: bird.clone(),
                    color: Color::srgb(1.0, 0.35, 0.3),
                    custom_size: Some(Vec2::splat(40.0)),
                    ..default()
                },
            ));
        }
    });
}

/// Boids added by a click join the prey.
fn make_clicked_boids_prey(
    mut commands: Commands,
    new_boids: Query<Entity, (Added<Boid>, Without<Species>)>,
) {
    for boid in &new_boids {
        commands.entity(boid).insert(Species(PREY));
    }
}

fn update_help(boids: Query<&Species>, mut help: ResMut<support::HelpLine>) {
    let prey = boids.iter().filter(|species| species.0 == PREY).count();
    let text = format!(
        "click: add prey ({prey} prey)   red: 3 predators chasing the nearest prey, which flee"
    );
    help.set_if_neq(support::HelpLine(text));
}
