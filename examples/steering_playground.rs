//! The cocos2d-x crowd demo: its modes, keys 1 to 9. Start in another mode with its number as the
//! first argument.
//!
//! 1 seek (arrive, slowing within 150 px), 2 flee (within 100 px), 3 wander (home radius 200),
//! 4 pursuit (a click resets both vehicles and switches the pursuit off or on, as the demo's
//! `switchPursuitObj`), 5 seek while fleeing seven wanderers (home radius 200; the yellow
//! 100-pixel circles around them are the flee radius and move with them). A click sets the
//! target of modes 1 to 5. Then 30 nodes of the demo's crowd (`FlockConfig::crowd*`, also the
//! panel's presets): 6 cohesion only, 7 separation only, 8 alignment only, 9 the crowd with
//! the demo's weight mixes (M: cohesion / separation / alignment 0.5 / 30 / 1, 0.5 / 30 / 0,
//! 0.5 / 0 / 1, 0 / 30 / 1; see `FlockConfig::crowd` for how a separation weight of 30 maps onto
//! ours). A click re-scatters the crowd, as a touch does in the demo.
//!
//! Every vehicle avoids the walls as the demo's `MoveNode` does: it looks 50 pixels ahead and
//! is pushed inwards at its `_speed` per frame. The demo's units are pixels per frame: its
//! player (speed 400 px/s, max force 20, mass 10) changes velocity by at most 20 / 10 px per
//! frame each frame, 7200 px/s², which is what its `MotionLimits` give here.

mod support;

use bevy::prelude::*;
use bevy_flock::FlockRng;
use bevy_flock::prelude::*;
use rand::RngExt;
use support::scenes::crowd;

/// Per frame to per second, at the demo's 60 fps.
const FPS: f32 = 60.0;

/// A vehicle of the demo: every one has max force 20 (per frame); speeds and masses differ.
const fn demo_vehicle(max_speed: f32, mass: f32) -> MotionLimits {
    MotionLimits {
        max_speed,
        max_force: 20.0 * FPS * FPS,
        mass,
    }
}

/// The demo's player: seeks, flees, is pursued.
const PLAYER: MotionLimits = demo_vehicle(400.0, 10.0);
/// The demo's wanderer.
const WANDERER: MotionLimits = demo_vehicle(100.0, 20.0);
/// The demo's pursuer: the player's numbers.
const PURSUER: MotionLimits = demo_vehicle(400.0, 10.0);
/// The demo's wandering threats in mode 5.
const FLEE_NODE: MotionLimits = demo_vehicle(50.0, 10.0);

/// Every node's `_speed`, px/s: 400 for the player, wanderer, pursuer and fleers, 300 for the
/// crowd's nodes.
const NODE_SPEED: f32 = 400.0;
const CROWD_SPEED: f32 = 300.0;

/// The demo's wall avoidance on a node: look 50 pixels ahead, push at its `_speed` per frame
/// (the weight is that speed over its max speed).
fn walls(speed: f32, max_speed: f32) -> AvoidWalls {
    AvoidWalls {
        look_ahead: 50.0,
        weight: speed / max_speed,
    }
}

/// The demo's screen has its origin bottom left and its size is not given; its points of modes
/// 1 to 5, moved to be centred here.
fn from_demo(x: f32, y: f32) -> Vec2 {
    Vec2::new(x - 560.0, y - 400.0)
}

/// The same for the crowd's rectangles (x 100 to 1300, y 100 to 540).
fn from_crowd_demo(x: f32, y: f32) -> Vec2 {
    Vec2::new(x - 700.0, y - 320.0)
}

fn main() {
    let mode = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .filter(|mode| (1..=9).contains(mode))
        .unwrap_or(9);
    let mut app = support::flock_app("steering_playground", crowd(FlockConfig::crowd()), 3);
    app.insert_resource(Mode(mode))
        .insert_resource(Mix(0))
        .insert_resource(ClickPoint(from_demo(800.0, 500.0)))
        .init_resource::<Trail>()
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                pick_mode,
                build_scene.run_if(resource_changed::<Mode>.or_else(resource_changed::<Mix>)),
                click,
                record_trail,
                draw_markers,
                update_help,
            )
                .chain(),
        );
    // The panel's Reset clears the scene and spawns plain boids.
    let reset = SpawnBoids::new(30, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
}

/// The mode shown, 1 to 9.
#[derive(Resource)]
struct Mode(u8);

/// The crowd's weight mix in mode 9: an index into [`MIXES`].
#[derive(Resource)]
struct Mix(usize);

/// The demo's weight mixes: cohesion, separation, alignment.
const MIXES: [(f32, f32, f32); 4] = [
    (0.5, 30.0, 1.0),
    (0.5, 30.0, 0.0),
    (0.5, 0.0, 1.0),
    (0.0, 30.0, 1.0),
];

/// The last clicked point: the target of modes 1 to 5.
#[derive(Resource)]
struct ClickPoint(Vec2);

/// The player's path, drawn as the demo draws dots where it has been.
#[derive(Resource, Default)]
struct Trail(Vec<Vec2>);

/// Everything a mode spawns, despawned when the mode changes.
#[derive(Component)]
struct InScene;

#[derive(Component)]
struct Player;

/// Mode 4's pursuer, with the pursuit it switches on and off.
#[derive(Component)]
struct Pursuer(Pursue);

/// A circle the demo draws: a target's slow radius, a flee radius, a wander home.
#[derive(Component)]
struct Marker {
    radius: f32,
    colour: Color,
}

/// The marker that moves with the click (the seek or flee point, the wander home).
#[derive(Component)]
struct ClickMarker;

/// How the demo scatters its crowd on a touch: a rectangle (the demo's coordinates) and whether the
/// nodes get a random unit velocity (one pixel per frame) or stop (`setPos` zeroes it).
#[derive(Resource, Clone, Copy)]
struct Scatter {
    low: Vec2,
    high: Vec2,
    moving: bool,
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    // The bundled arrow, at its own size and colour.
    *prefab = BoidSprite::Arrow.prefab(&assets);
}

fn pick_mode(shortcuts: support::Shortcuts, mut mode: ResMut<Mode>, mut mix: ResMut<Mix>) {
    const DIGITS: [KeyCode; 9] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    if let Some(digit) = DIGITS.iter().position(|&key| shortcuts.pressed(key)) {
        mode.0 = digit as u8 + 1;
    }
    if shortcuts.pressed(KeyCode::KeyM) && mode.0 == 9 {
        mix.0 = (mix.0 + 1) % MIXES.len();
    }
}

/// A vehicle with its own sprite, so the flock's prefab does not restyle it.
fn vehicle(
    assets: &AssetServer,
    at: Vec2,
    limits: MotionLimits,
    colour: Color,
    size: f32,
) -> impl Bundle {
    (
        Boid,
        InScene,
        limits,
        walls(NODE_SPEED, limits.max_speed),
        // Vehicles of modes 1 to 5 steer by their behaviours alone.
        SteeringWeights::Custom(RuleWeights::NONE),
        Transform::from_translation(at.extend(1.0)),
        Sprite {
            image: assets.load(BoidSprite::Arrow.asset_path()),
            color: colour,
            custom_size: Some(Vec2::splat(size)),
            ..default()
        },
    )
}

fn build_scene(
    mut commands: Commands,
    mode: Res<Mode>,
    mix: Res<Mix>,
    click: Res<ClickPoint>,
    assets: Res<AssetServer>,
    mut settings: ResMut<FlockSettings>,
    mut trail: ResMut<Trail>,
    scene: Query<Entity, With<InScene>>,
) {
    for entity in &scene {
        commands.entity(entity).despawn();
    }
    // The crowd of modes 6 to 9 is made of plain boids, not scene entities.
    commands.queue(|world: &mut World| {
        let crowd: Vec<Entity> = world
            .query_filtered::<Entity, (With<Boid>, Without<InScene>)>()
            .iter(world)
            .collect();
        for boid in crowd {
            world.despawn(boid);
        }
    });
    commands.remove_resource::<Scatter>();
    trail.0.clear();
    let white = Color::srgb(0.95, 0.95, 0.95);
    let green = Color::srgb(0.4, 0.9, 0.45);
    let target = click.0;
    let start = from_demo(100.0, 100.0);
    // The demo's player seeks at its `_speed` (400, the same as its max speed).
    let arrive = |target| Arrive {
        target: Target::Point(target),
        slow_radius: 150.0,
        weight: 1.0,
        speed: Some(NODE_SPEED),
    };
    match mode.0 {
        1 | 4 => {
            let player = commands
                .spawn((
                    vehicle(&assets, start, PLAYER, white, 30.0),
                    Player,
                    arrive(target),
                ))
                .id();
            commands.spawn((
                (ClickMarker, marker_at(target)),
                marker(150.0, Color::srgba(0.0, 1.0, 1.0, 0.5)),
            ));
            if mode.0 == 4 {
                // The demo predicts nothing (its prediction is commented out): no look-ahead.
                let pursue = Pursue {
                    target: player,
                    max_look_ahead: 0.0,
                    weight: 1.0,
                };
                commands.spawn((
                    vehicle(&assets, from_demo(100.0, 500.0), PURSUER, green, 26.0),
                    Pursuer(pursue),
                    pursue,
                ));
            }
        }
        2 => {
            // Ours: the player starts beside the flee point so the mode shows something before
            // the first click (the demo starts it at (100, 100), fleeing only a click near it).
            commands.spawn((
                vehicle(
                    &assets,
                    target + Vec2::new(-40.0, -30.0),
                    PLAYER,
                    white,
                    30.0,
                ),
                Player,
                Flee {
                    threats: vec![Target::Point(target)],
                    radius: 100.0,
                    weight: 1.0,
                },
            ));
            commands.spawn((
                (ClickMarker, marker_at(target)),
                marker(100.0, Color::srgba(0.3, 0.4, 1.0, 0.6)),
            ));
        }
        3 => {
            commands.spawn((
                vehicle(&assets, target, WANDERER, green, 26.0),
                Player,
                wanderer(target),
            ));
            commands.spawn((
                (ClickMarker, marker_at(target)),
                marker(200.0, Color::srgba(1.0, 1.0, 0.0, 0.5)),
            ));
        }
        5 => {
            let homes = [
                (300.0, 300.0),
                (300.0, 600.0),
                (450.0, 450.0),
                (600.0, 640.0),
                (500.0, 200.0),
                (650.0, 400.0),
                (850.0, 550.0),
            ]
            .map(|(x, y)| from_demo(x, y));
            let mut threats = Vec::new();
            for home in homes {
                // The demo's fleer: wanders around its home (radius 200); its yellow circle is
                // the player's flee radius, drawn where the fleer is.
                threats.push(Target::Entity(
                    commands
                        .spawn((
                            vehicle(&assets, home, FLEE_NODE, green, 22.0),
                            wanderer(home),
                            marker(100.0, Color::srgba(1.0, 1.0, 0.0, 0.35)),
                        ))
                        .id(),
                ));
            }
            commands.spawn((
                vehicle(&assets, start, PLAYER, white, 30.0),
                Player,
                arrive(target),
                Flee {
                    threats,
                    radius: 100.0,
                    weight: 1.0,
                },
            ));
            commands.spawn((
                (ClickMarker, marker_at(target)),
                marker(150.0, Color::srgba(0.0, 1.0, 1.0, 0.5)),
            ));
        }
        crowd_mode => {
            // The demo's nodes, shared with the panel's presets (radii, speeds, weights), and
            // where the demo scatters them.
            let (config, scatter) = match crowd_mode {
                6 => (FlockConfig::crowd_cohesion_only(), crowd_scatter(false)),
                7 => (
                    FlockConfig::crowd_separation_only(),
                    Scatter {
                        low: from_crowd_demo(650.0, 250.0),
                        high: from_crowd_demo(700.0, 300.0),
                        moving: false,
                    },
                ),
                8 => (FlockConfig::crowd_alignment_only(), crowd_scatter(true)),
                _ => {
                    let (cohesion, separation, alignment) = MIXES[mix.0];
                    let config = FlockConfig::crowd_mix(cohesion, separation, alignment);
                    (config, crowd_scatter(true))
                }
            };
            settings.config = FlockConfig {
                bounds: settings.config.bounds,
                ..config
            };
            let max_speed = config.max_speed;
            commands.insert_resource(scatter);
            commands.queue(move |world: &mut World| {
                let nodes = bevy_flock::spawn_boids(world, 30, Placement::RandomInBounds);
                for node in nodes {
                    world.entity_mut(node).insert(walls(CROWD_SPEED, max_speed));
                }
                scatter_crowd(world);
            });
        }
    }
}

/// Modes 6, 8 and 9 scatter the crowd over x 100 to 1300, y 100 to 540.
fn crowd_scatter(moving: bool) -> Scatter {
    Scatter {
        low: from_crowd_demo(100.0, 100.0),
        high: from_crowd_demo(1300.0, 540.0),
        moving,
    }
}

/// The demo's `showCrowdModel` and its siblings: every crowd node to a random point of the
/// mode's rectangle, with a random unit velocity or none.
fn scatter_crowd(world: &mut World) {
    let Some(scatter) = world.get_resource::<Scatter>().copied() else {
        return;
    };
    let crowd: Vec<Entity> = world
        .query_filtered::<Entity, (With<Boid>, Without<InScene>)>()
        .iter(world)
        .collect();
    for node in crowd {
        let mut rng = world.resource_mut::<FlockRng>();
        let position = Vec2::new(
            rng.rng().random_range(scatter.low.x..=scatter.high.x),
            rng.rng().random_range(scatter.low.y..=scatter.high.y),
        );
        let angle = rng.rng().random_range(0.0..std::f32::consts::TAU);
        let velocity = if scatter.moving {
            Vec2::from_angle(angle) * FPS
        } else {
            Vec2::ZERO
        };
        let mut entity = world.entity_mut(node);
        if let Some(mut transform) = entity.get_mut::<Transform>() {
            transform.translation = position.extend(transform.translation.z);
        }
        if let Some(mut node_velocity) = entity.get_mut::<Velocity>() {
            node_velocity.0 = velocity;
        }
    }
}

/// The demo's wanderer (and fleer): [`WanderParams::COCOS2D_DEMO`] around `home`, radius 200,
/// pulled back at 50 px per frame.
fn wanderer(home: Vec2) -> Wander {
    Wander {
        params: WanderParams {
            home: Some(WanderHome {
                centre: home,
                radius: 200.0,
                pull_back_speed: 50.0 * FPS,
            }),
            ..WanderParams::COCOS2D_DEMO
        },
        ..Wander::default()
    }
}

fn marker_at(at: Vec2) -> (InScene, Transform) {
    (InScene, Transform::from_translation(at.extend(0.0)))
}

fn marker(radius: f32, colour: Color) -> Marker {
    Marker { radius, colour }
}

/// A click: in modes 1 to 5 it moves the mode's target (the seek or flee point, the wander
/// home); in mode 4 it also resets both vehicles and switches the pursuit; in the crowd modes
/// it re-scatters the crowd.
fn click(
    mut commands: Commands,
    clicks: support::WorldClicks,
    mode: Res<Mode>,
    mut click: ResMut<ClickPoint>,
    mut player: Query<(Option<&mut Arrive>, Option<&mut Flee>, Option<&mut Wander>), With<Player>>,
    mut markers: Query<&mut Transform, With<ClickMarker>>,
) {
    let Some(point) = clicks.left_click() else {
        return;
    };
    if mode.0 >= 6 {
        commands.queue(scatter_crowd);
        return;
    }
    click.0 = point;
    for (arrive, flee, wander) in &mut player {
        if let Some(mut arrive) = arrive {
            arrive.target = Target::Point(point);
        } else if let Some(mut flee) = flee {
            flee.threats = vec![Target::Point(point)];
        } else if let Some(mut wander) = wander
            && let Some(home) = &mut wander.params.home
        {
            home.centre = point;
        }
    }
    for mut transform in &mut markers {
        transform.translation = point.extend(0.0);
    }
    if mode.0 == 4 {
        commands.queue(switch_pursuit);
    }
}

/// The demo's `showPursuitModel` on a touch: the player back to (100, 100) and the pursuer to
/// (100, 500), both at rest, and the pursuit switched: off (the pursuer stays where it is) or on.
fn switch_pursuit(world: &mut World) {
    let mut players = world.query_filtered::<(&mut Transform, &mut Velocity), With<Player>>();
    for (mut transform, mut velocity) in players.iter_mut(world) {
        transform.translation = from_demo(100.0, 100.0).extend(transform.translation.z);
        velocity.0 = Vec2::ZERO;
    }
    let mut pursuers = world.query::<(Entity, &Pursuer, Has<Pursue>)>();
    let pursuers: Vec<(Entity, Pursue, bool)> = pursuers
        .iter(world)
        .map(|(entity, pursuer, on)| (entity, pursuer.0, on))
        .collect();
    for (entity, pursue, on) in pursuers {
        let mut pursuer = world.entity_mut(entity);
        if let Some(mut transform) = pursuer.get_mut::<Transform>() {
            transform.translation = from_demo(100.0, 500.0).extend(transform.translation.z);
        }
        if let Some(mut velocity) = pursuer.get_mut::<Velocity>() {
            velocity.0 = Vec2::ZERO;
        }
        if on {
            pursuer.remove::<Pursue>();
        } else {
            pursuer.insert(pursue);
        }
    }
}

fn record_trail(mut trail: ResMut<Trail>, player: Query<&Transform, With<Player>>) {
    const LONGEST: usize = 2_000;
    if let Ok(transform) = player.single() {
        let at = transform.translation.truncate();
        if trail.0.last() != Some(&at) {
            if trail.0.len() == LONGEST {
                trail.0.remove(0);
            }
            trail.0.push(at);
        }
    }
}

fn draw_markers(trail: Res<Trail>, markers: Query<(&Transform, &Marker)>, mut gizmos: Gizmos) {
    for (transform, marker) in &markers {
        let at = transform.translation.truncate();
        gizmos.circle_2d(at, marker.radius, marker.colour);
        gizmos.circle_2d(at, 6.0, marker.colour.with_alpha(1.0));
    }
    gizmos.linestrip_2d(trail.0.iter().copied(), Color::srgba(0.9, 0.9, 0.9, 0.5));
}

fn update_help(
    mode: Res<Mode>,
    mix: Res<Mix>,
    pursuit: Query<Has<Pursue>, With<Pursuer>>,
    mut help: ResMut<support::HelpLine>,
) {
    let pursuing = pursuit.iter().any(|on| on);
    let name = match mode.0 {
        1 => "seek (arrive) the click".to_owned(),
        2 => "flee the click".to_owned(),
        3 => "wander around the click".to_owned(),
        4 => format!(
            "pursuit {}: green pursues white, white seeks the click (a click switches it)",
            if pursuing { "on" } else { "off" }
        ),
        5 => "seek the click, fleeing the wanderers".to_owned(),
        6 => "cohesion only (click: scatter)".to_owned(),
        7 => "separation only (click: scatter)".to_owned(),
        8 => "alignment only (click: scatter)".to_owned(),
        _ => {
            let (cohesion, separation, alignment) = MIXES[mix.0];
            format!(
                "the crowd: cohesion {cohesion}, separation {separation}, alignment \
                 {alignment} (M: next mix, click: scatter)"
            )
        }
    };
    let text = format!("1-9: mode   now {}: {name}", mode.0);
    help.set_if_neq(support::HelpLine(text));
}
