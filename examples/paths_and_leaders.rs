//! Reynolds' (1999) path following, leader following and offset pursuit, side by side: a
//! stream of boids goes round a looped path (its corridor drawn), a blue car drives the same
//! loop the other way with three escorts holding stations at its sides and tail, and on the
//! right an orange leader circles with six followers trailing behind it, stepping out of its
//! way. Keys: space pauses; F1 the panel (with `--panel`).

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;

/// The stream's boids: quick and nimble.
const STREAM: MotionLimits = support::limits(150.0, 1500.0);
/// The car and the leader: slower, so their escorts and followers can keep up.
const LEAD: MotionLimits = support::limits(90.0, 800.0);
/// Escorts and followers: faster than what they follow, to catch up.
const ESCORT: MotionLimits = support::limits(160.0, 2000.0);

const STREAM_COLOUR: Color = Color::srgb(0.55, 0.85, 1.0);
const CAR_COLOUR: Color = Color::srgb(0.35, 0.5, 1.0);
const ESCORT_COLOUR: Color = Color::srgb(0.95, 0.95, 0.95);
const LEADER_COLOUR: Color = Color::srgb(1.0, 0.6, 0.2);
const FOLLOWER_COLOUR: Color = Color::srgb(1.0, 0.85, 0.45);

fn main() {
    // Only separation among the boids, short and gentle: the behaviours do the rest.
    let mut app = support::flock_app("paths_and_leaders", support::behaviours_only(16.0), 7);
    app.insert_resource(support::HelpLine(
        "paths_and_leaders: a stream on the loop, a car against it with escorts, followers behind \
         the orange leader"
            .into(),
    ))
    .add_systems(Startup, setup)
    .add_systems(Update, (support::pause_on_space, draw_paths, draw_stations));
    let reset = SpawnBoids::new(30, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
}

/// The loop on the left: a rounded track.
fn main_loop() -> FlockPath {
    let points = [
        (-560.0, -40.0),
        (-520.0, -220.0),
        (-380.0, -280.0),
        (-160.0, -240.0),
        (-60.0, -100.0),
        (-80.0, 80.0),
        (-200.0, 220.0),
        (-400.0, 260.0),
        (-530.0, 160.0),
    ];
    FlockPath {
        points: points.map(|(x, y)| Vec2::new(x, y)).to_vec(),
        radius: 28.0,
        looped: true,
    }
}

/// The leader's circuit on the right: a circle of twelve points.
fn leader_circuit() -> FlockPath {
    let points = (0..12)
        .map(|i| {
            let angle = i as f32 * std::f32::consts::TAU / 12.0;
            Vec2::new(330.0, -10.0) + Vec2::from_angle(angle) * Vec2::new(230.0, 190.0)
        })
        .collect();
    FlockPath {
        points,
        radius: 15.0,
        looped: true,
    }
}

/// Following `path` the `direction` way, looking 0.3 s and 40 px ahead.
fn on_path(path: Entity, direction: PathDirection) -> FollowPath {
    FollowPath {
        params: PathFollowParams {
            predict_time: 0.3,
            look_ahead: 40.0,
            direction,
        },
        ..FollowPath::new(path)
    }
}

/// The car or the leader: at `at`, driving `path` the `direction` way, heading along `heading`
/// at its cruising speed (path following steers but does not accelerate). It keeps no distance
/// from the others: it keeps to its lane.
fn lead(path: Entity, direction: PathDirection, at: Vec2, heading: Vec2) -> impl Bundle {
    (
        Boid,
        LEAD,
        Transform::from_translation(at.extend(2.0)),
        Velocity(heading * LEAD.max_speed),
        on_path(path, direction),
        SteeringWeights::Custom(RuleWeights::NONE),
    )
}

/// An escort's station beside or behind the car: drawn as a ring.
#[derive(Component)]
struct Station;

fn sprite(assets: &AssetServer, colour: Color, size: f32) -> Sprite {
    Sprite {
        image: assets.load(BoidSprite::Arrow.asset_path()),
        color: colour,
        custom_size: Some(Vec2::splat(size)),
        ..default()
    }
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    commands.spawn(Camera2d);
    let track = main_loop();
    let polyline = track.polyline().expect("the loop is valid");
    let track = commands.spawn(track).id();
    let circuit = commands.spawn(leader_circuit()).id();
    // The stream: 24 boids spread along the loop, going forwards.
    for i in 0..24 {
        let along = i as f32 * polyline.length() / 24.0;
        let at = polyline.point_at(along);
        let ahead = polyline.point_at(along + 10.0) - at;
        commands.spawn((
            Boid,
            STREAM,
            Transform::from_translation(at.extend(1.0)),
            Velocity(ahead.normalize_or_zero() * 100.0),
            on_path(track, PathDirection::Forward),
            sprite(&assets, STREAM_COLOUR, 18.0),
        ));
    }
    // The car drives the loop backwards, its escorts at its sides and tail. Path following
    // steers but does not accelerate, so everyone on a path starts at its cruising speed.
    let start = polyline.point_at(polyline.length() / 2.0);
    let backwards = polyline.point_at(polyline.length() / 2.0 - 10.0) - start;
    let heading = backwards.normalize_or_zero();
    let car = lead(track, PathDirection::Backward, start, heading);
    let car = commands
        .spawn((car, sprite(&assets, CAR_COLOUR, 34.0)))
        .id();
    for (i, station) in [level(-10.0, 45.0), level(-10.0, -45.0), level(-55.0, 0.0)]
        .into_iter()
        .enumerate()
    {
        commands.spawn((
            Boid,
            ESCORT,
            Transform::from_translation((start + Vec2::new(60.0 * i as f32, -120.0)).extend(2.0)),
            OffsetPursuit {
                target: car,
                offset: station,
                slow_radius: 50.0,
                max_look_ahead: 1.0,
                weight: 1.0,
            },
            Station,
            sprite(&assets, ESCORT_COLOUR, 22.0),
        ));
    }
    // The leader circles on the right; its followers start scattered, some in front of it.
    let leader = lead(
        circuit,
        PathDirection::Forward,
        Vec2::new(560.0, -10.0),
        Vec2::Y,
    );
    let leader = commands
        .spawn((leader, sprite(&assets, LEADER_COLOUR, 34.0)))
        .id();
    for i in 0..6 {
        let angle = i as f32 * 1.1;
        let at = Vec2::new(330.0, -10.0) + Vec2::from_angle(angle) * 120.0;
        commands.spawn((
            Boid,
            ESCORT,
            Transform::from_translation(at.extend(1.5)),
            FollowLeader {
                params: LeaderFollowParams {
                    behind: 50.0,
                    slow_radius: 70.0,
                    way_length: 110.0,
                    way_radius: 35.0,
                    separation: 30.0,
                },
                ..FollowLeader::new(leader)
            },
            sprite(&assets, FOLLOWER_COLOUR, 22.0),
        ));
    }
}

/// Each path's centre line and its corridor's edges.
fn draw_paths(paths: Query<&FlockPath>, mut gizmos: Gizmos) {
    for path in &paths {
        let Ok(polyline) = path.polyline() else {
            continue;
        };
        let centre = Color::srgba(0.6, 0.65, 0.75, 0.5);
        let edge = Color::srgba(0.6, 0.65, 0.75, 0.2);
        for (start, end) in polyline.segments() {
            gizmos.line_2d(start, end, centre);
            let across = (end - start).perp().normalize_or_zero() * polyline.radius();
            gizmos.line_2d(start + across, end + across, edge);
            gizmos.line_2d(start - across, end - across, edge);
        }
        for &point in polyline.points() {
            gizmos.circle_2d(point, polyline.radius(), edge);
        }
    }
}

/// A small ring where each escort's station is, so their holding it shows.
fn draw_stations(
    escorts: Query<&OffsetPursuit, With<Station>>,
    bodies: Query<(&Transform, &Velocity)>,
    mut gizmos: Gizmos,
) {
    for escort in &escorts {
        let Ok((transform, velocity)) = bodies.get(escort.target) else {
            continue;
        };
        let heading = velocity.0.try_normalize().unwrap_or(Vec2::X);
        let station = transform.translation.truncate()
            + bevy_flock::flock_core::steering::local_to_world(heading, escort.offset);
        gizmos.circle_2d(station, 6.0, Color::srgba(1.0, 1.0, 1.0, 0.35));
    }
}
