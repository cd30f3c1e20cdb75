//! A crowd of a thousand finding its way through a level: four rooms and a hall with pillars,
//! joined by doors. Each agent has a `Destination` (a navigation mesh built from the walls and
//! pillars, polyanya's any-angle paths followed as a corridor) and `Orca` (they avoid each
//! other, and the contact pass keeps bodies apart and out of the walls). The crowd is sent to
//! the next room once it has all arrived; a click sends it to the clicked point instead, spread
//! round it. The help line shows arrivals against the straight-line bound and the closest two
//! centres. M shows the navigation mesh and the first agent's path; Space pauses.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use bevy_flock::{BoidId, FlockNavMesh};
use support::level::{self, Trip};

const CROWD: usize = 1000;
const RADIUS: f32 = 4.0;
const SPEED: f32 = 70.0;

/// Walkers: 70 px a second, quick to turn.
const WALKER: MotionLimits = support::limits(SPEED, 700.0);

const WALL_COLOUR: Color = Color::srgb(0.95, 0.75, 0.35);
const MESH_COLOUR: Color = Color::srgba(0.4, 0.6, 1.0, 0.08);
const PATH_COLOUR: Color = Color::srgb(1.0, 0.4, 0.8);

/// Whether the navigation mesh and a path are drawn (M).
#[derive(Resource)]
struct ShowMesh(bool);

fn main() {
    let config = FlockConfig {
        // ORCA and the paths move the crowd; the radii size the neighbour index.
        weights: RuleWeights::NONE,
        separation_radius: 6.0 * RADIUS,
        alignment_radius: 6.0 * RADIUS,
        cohesion_radius: 6.0 * RADIUS,
        max_speed: SPEED,
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let settings = support::window_world(2 * CROWD, config);
    let mut app = support::flock_app("level_crowd", settings, 3);
    app.insert_resource(NavMeshSettings {
        agent_radius: RADIUS,
        ..default()
    })
    .insert_resource(ClickToSpawn::OFF)
    .insert_resource(ShowMesh(true))
    .init_resource::<Trip>()
    .add_systems(Startup, setup)
    .add_systems(
        Update,
        (
            equip_new_agents,
            send_the_crowd,
            toggle_mesh,
            draw_level,
            report,
            support::pause_on_space,
        )
            .chain(),
    );
    let [upper, _] = level::start_rooms();
    let reset = SpawnBoids::new(CROWD, Placement::InRect(upper)).with_speed(0.0);
    support::run_with_panel_on_request(app, reset);
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = support::sprite_prefab(&assets, BoidSprite::Arrow, 3.0 * RADIUS, support::SOFT_HUES);
    for (centre, half_size) in level::walls() {
        commands.spawn((
            Obstacle::Rect { half_size },
            Transform::from_translation(centre.extend(0.0)),
        ));
    }
    for (centre, radius) in level::pillars() {
        commands.spawn((
            Obstacle::Circle { radius },
            Transform::from_translation(centre.extend(0.0)),
        ));
    }
    for room in level::start_rooms() {
        commands.queue(SpawnBoids::new(CROWD / 2, Placement::InRect(room)).with_speed(0.0));
    }
}

/// Every new agent (the first ones, the panel's Reset) walks, avoids and navigates; it waits
/// where it is until the crowd is sent.
fn equip_new_agents(mut commands: Commands, agents: Query<(Entity, &Transform), Added<Boid>>) {
    for (agent, transform) in &agents {
        commands.entity(agent).insert((
            WALKER,
            Orca {
                params: OrcaParams {
                    radius: RADIUS,
                    ..default()
                },
            },
            Destination::new(transform.translation.truncate()),
        ));
    }
}

/// A click sends the crowd there; otherwise, once it has all arrived (and a second has passed),
/// to the next goal. Each agent gets its own place round the goal, in id order.
fn send_the_crowd(
    clicks: support::WorldClicks,
    time: Res<Time>,
    navmesh: Res<FlockNavMesh>,
    mut trip: ResMut<Trip>,
    mut agents: Query<(&BoidId, &Transform, &mut Destination)>,
) {
    let now = time.elapsed_secs();
    let click = clicks.left_click();
    let Some((goal, centre)) = trip.next_destination(now, click, navmesh.mesh().is_some()) else {
        return;
    };
    let mut crowd: Vec<_> = agents.iter_mut().collect();
    crowd.sort_by_key(|(id, ..)| **id);
    let places = level::places_round(centre, crowd.len(), 2.6 * RADIUS, |place| {
        navmesh.contains(place)
    });
    let legs: Vec<(Vec2, Vec2)> = crowd
        .iter_mut()
        .zip(&places)
        .map(|((_, transform, destination), &place)| {
            destination.point = place;
            (transform.translation.truncate(), place)
        })
        .collect();
    *trip = Trip::start(goal, now, legs.into_iter(), SPEED);
}

fn toggle_mesh(shortcuts: support::Shortcuts, mut show: ResMut<ShowMesh>) {
    if shortcuts.pressed(KeyCode::KeyM) {
        show.0 = !show.0;
    }
}

/// The walls and pillars; with M, the navigation mesh's polygons and the first agent's path.
fn draw_level(
    show: Res<ShowMesh>,
    navmesh: Res<FlockNavMesh>,
    agents: Query<(&BoidId, &NavPath)>,
    mut gizmos: Gizmos,
) {
    for (centre, half_size) in level::walls() {
        gizmos.rect_2d(
            Isometry2d::from_translation(centre),
            half_size * 2.0,
            WALL_COLOUR,
        );
    }
    for (centre, radius) in level::pillars() {
        gizmos.circle_2d(Isometry2d::from_translation(centre), radius, WALL_COLOUR);
    }
    if !show.0 {
        return;
    }
    if let Some(mesh) = navmesh.mesh() {
        for layer in &mesh.layers {
            for polygon in &layer.polygons {
                let corners = polygon
                    .vertices
                    .iter()
                    .filter_map(|&index| layer.vertices.get(index as usize))
                    .map(|vertex| vertex.coords + layer.offset);
                let corners: Vec<Vec2> = corners.collect();
                if let Some(&first) = corners.first() {
                    gizmos.linestrip_2d(corners.iter().copied().chain([first]), MESH_COLOUR);
                }
            }
        }
    }
    if let Some((_, path)) = agents.iter().min_by_key(|(id, _)| **id) {
        gizmos.linestrip_2d(path.waypoints().iter().copied(), PATH_COLOUR);
    }
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
            .map(|(transform, ..)| transform.translation.truncate()),
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
    let line = format!("{}. Click: send; M: mesh", trip.summary(now, 2.0 * RADIUS));
    help.set_if_neq(support::HelpLine(line));
}
