//! `level_crowd` on a floor in 3D: six hundred walkers find their way through four rooms and a
//! hall with pillars. The navigation mesh is the level's floor plan (the walls' and pillars'
//! footprints on the ground); each agent has a `Destination` and `Orca`. The crowd is sent to the
//! next room once it has all arrived; a click on the floor sends it there. The help line shows
//! arrivals against the straight-line bound and the closest two centres. Right-drag orbits,
//! scroll zooms, Space pauses.

// The shared example support says `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../examples/support/mod.rs"]
mod support;
mod support3d;

use bevy::prelude::*;
use bevy_flock3d::flock_core::Bounds;
use bevy_flock3d::prelude::*;
use bevy_flock3d::{BoidColors, BoidId, FlockNavMesh};
use support::level::{self, Trip};
use support3d::OrbitCamera;

const CROWD: usize = 600;
const RADIUS: f32 = 4.0;
const SPEED: f32 = 70.0;
const WALL_HEIGHT: f32 = 30.0;
/// A walker's centre above the floor: its capsule (a radius either side of a body two radii
/// long) stands on it.
const STANDING: f32 = 2.0 * RADIUS;

const WALKER: MotionLimits = support::limits(SPEED, 700.0);
const SKY: Color = Color::srgb(0.62, 0.72, 0.8);

fn main() {
    let config = FlockConfig {
        weights: RuleWeights::NONE,
        separation_radius: 6.0 * RADIUS,
        alignment_radius: 6.0 * RADIUS,
        cohesion_radius: 6.0 * RADIUS,
        max_speed: SPEED,
        // The floor, a layer one unit deep at walking height: ORCA in 3D would part a crowd
        // upwards too; the thin bounds keep the walkers on the floor, apart across it.
        bounds: Bounds {
            min: Vec3::new(-level::HALF_WIDTH, STANDING - 0.5, -level::HALF_DEPTH),
            max: Vec3::new(level::HALF_WIDTH, STANDING + 0.5, level::HALF_DEPTH),
        },
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let mut app = support::example_app("level_crowd_3d");
    app.insert_resource(ClearColor(SKY))
        .insert_resource(FlockSettings {
            config,
            max_boids: 2 * CROWD,
            ..default()
        })
        .add_plugins(BoidsPlugin::default().with_seed(3))
        .add_plugins(support3d::Scene3dPlugin(""))
        .insert_resource(NavMeshSettings {
            agent_radius: RADIUS,
            ..default()
        })
        .insert_resource(ClickToSpawn::OFF)
        .init_resource::<Trip>()
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (send_the_crowd, report, support::pause_on_space).chain(),
        );
    support::run_with_panel_on_request(app, SpawnBoids::new(0, Placement::RandomInBounds));
}

/// A point of the floor plan on the floor, at height `y`.
fn on_floor(plan: Vec2, y: f32) -> Vec3 {
    Vec3::new(plan.x, y, plan.y)
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut prefab: ResMut<BoidPrefab>,
) {
    commands.spawn(support3d::camera(
        OrbitCamera {
            focus: Vec3::ZERO,
            distance: 1150.0,
            yaw: 0.0,
            elevation: 0.95,
            button: MouseButton::Right,
        },
        SKY,
        1500.0,
        4000.0,
    ));
    support3d::spawn_lights(&mut commands);
    let floor = materials.add(StandardMaterial {
        base_color: Color::srgb(0.5, 0.48, 0.42),
        perceptual_roughness: 1.0,
        ..default()
    });
    commands.spawn((
        Mesh3d(
            meshes.add(
                Plane3d::default()
                    .mesh()
                    .size(2.0 * level::HALF_WIDTH, 2.0 * level::HALF_DEPTH),
            ),
        ),
        MeshMaterial3d(floor),
    ));
    let stone = materials.add(StandardMaterial {
        base_color: Color::srgb(0.85, 0.7, 0.45),
        perceptual_roughness: 0.9,
        ..default()
    });
    for (centre, half) in level::walls() {
        let size = Vec3::new(2.0 * half.x, WALL_HEIGHT, 2.0 * half.y);
        commands.spawn((
            Obstacle::Cuboid {
                half_size: size / 2.0,
            },
            Transform::from_translation(on_floor(centre, WALL_HEIGHT / 2.0)),
            Mesh3d(meshes.add(Cuboid::from_size(size))),
            MeshMaterial3d(stone.clone()),
        ));
    }
    for (centre, radius) in level::pillars() {
        commands.spawn((
            // The pillar's footprint is its circle; as an obstacle, a capsule standing on it.
            Obstacle::Capsule {
                half_length: WALL_HEIGHT / 2.0,
                radius,
            },
            Transform::from_translation(on_floor(centre, WALL_HEIGHT / 2.0)),
            Mesh3d(meshes.add(Cylinder::new(radius, WALL_HEIGHT))),
            MeshMaterial3d(stone.clone()),
        ));
    }
    *prefab = BoidPrefab {
        mesh: meshes.add(Capsule3d::new(RADIUS, 2.0 * RADIUS)),
        colors: BoidColors::RandomHue {
            saturation: 0.6,
            lightness: 0.55,
        },
    };
    // Half the crowd in each room on the left, on a grid.
    for (room, count) in level::start_rooms()
        .into_iter()
        .zip([CROWD / 2, CROWD - CROWD / 2])
    {
        let places = level::places_round(room.center(), count, 3.0 * RADIUS, |p| room.contains(p));
        for place in places {
            commands.spawn((
                Boid,
                Transform::from_translation(on_floor(place, STANDING)),
                WALKER,
                Orca {
                    params: OrcaParams {
                        radius: RADIUS,
                        ..default()
                    },
                },
                Destination::new(on_floor(place, STANDING)),
            ));
        }
    }
}

/// A click on the floor sends the crowd there; otherwise, once it has all arrived (and a second
/// has passed), to the next goal. Each agent gets its own place round the goal, in id order.
fn send_the_crowd(
    clicks: support::WorldClicks,
    time: Res<Time>,
    navmesh: Res<FlockNavMesh>,
    mut trip: ResMut<Trip>,
    mut agents: Query<(&BoidId, &Transform, &mut Destination)>,
) {
    let now = time.elapsed_secs();
    let click = clicks.left_click().map(|point| point.xz());
    let Some((goal, centre)) = trip.next_destination(now, click, navmesh.mesh().is_some()) else {
        return;
    };
    let mut crowd: Vec<_> = agents.iter_mut().collect();
    crowd.sort_by_key(|(id, ..)| **id);
    let places = level::places_round(centre, crowd.len(), 2.6 * RADIUS, |place| {
        navmesh.contains(on_floor(place, STANDING))
    });
    let legs: Vec<(Vec2, Vec2)> = crowd
        .iter_mut()
        .zip(&places)
        .map(|((_, transform, destination), &place)| {
            destination.point = on_floor(place, STANDING);
            (transform.translation.xz(), place)
        })
        .collect();
    *trip = Trip::start(goal, now, legs.into_iter(), SPEED);
}

fn report(
    time: Res<Time>,
    mut trip: ResMut<Trip>,
    agents: Query<(&Transform, &NavPath, &Destination)>,
    mut positions: Local<Vec<Vec2>>,
    mut help: ResMut<support::HelpLine>,
) {
    positions.clear();
    positions.extend(
        agents
            .iter()
            .map(|(transform, ..)| transform.translation.xz()),
    );
    // Arrived at this trip's place: planned for it (a path planned before the crowd was sent
    // ends elsewhere).
    let arrived = agents
        .iter()
        .filter(|(_, path, destination)| {
            path.status() == NavStatus::Arrived
                && path
                    .waypoints()
                    .last()
                    .is_some_and(|end| end.distance(destination.point) < 1.0)
        })
        .count();
    let now = time.elapsed_secs();
    trip.update(now, arrived, level::closest_pair(&positions, 4.0 * RADIUS));
    let line = format!("{}. Click: send", trip.summary(now, 2.0 * RADIUS));
    help.set_if_neq(support::HelpLine(line));
}
