//! Seed 003 (the cocos2d-x crowd demo): its nine modes, keys 1 to 9. A click sets the target
//! of modes 1 to 5. Start in another mode with its number as the first argument.
//!
//! 1 seek (arrive, slowing within 150 px), 2 flee (within 100 px), 3 wander (home radius 200),
//! 4 pursuit, 5 seek while fleeing seven wanderers, then 30 boids of seed 003's nodes
//! (`FlockConfig::crowd*`, also the panel's presets): 6 cohesion only, 7 separation only, 8
//! alignment only, 9 the full crowd (cohesion 0.5, separation 30, alignment 1; see
//! `FlockConfig::crowd` for how the seed's separation weight maps onto ours).
//!
//! The seed's units are pixels per frame: its player (speed 400 px/s, max force 20, mass 10)
//! changes velocity by at most 20 / 10 px per frame each frame, 7200 px/s², which is what its
//! `MotionLimits` give here.

mod support;

use bevy::prelude::*;
use bevy_flock::UiWantsInput;
use bevy_flock::prelude::*;

/// Per frame to per second squared, at the seed's 60 fps.
const PER_FRAME_SQUARED: f32 = 60.0 * 60.0;

/// A seed 003 vehicle: every one has max force 20 (per frame); speeds and masses differ.
const fn seed_vehicle(max_speed: f32, mass: f32) -> MotionLimits {
    MotionLimits {
        max_speed,
        max_force: 20.0 * PER_FRAME_SQUARED,
        mass,
    }
}

/// The seed's player: seeks, flees, is pursued.
const PLAYER: MotionLimits = seed_vehicle(400.0, 10.0);
/// The seed's wanderer.
const WANDERER: MotionLimits = seed_vehicle(100.0, 20.0);
/// The seed's pursuer: the player's numbers.
const PURSUER: MotionLimits = seed_vehicle(400.0, 10.0);
/// The seed's wandering threats in mode 5.
const FLEE_NODE: MotionLimits = seed_vehicle(50.0, 10.0);

/// The seed's screen has its origin bottom left; its points, moved to be centred here.
fn from_seed(x: f32, y: f32) -> Vec2 {
    Vec2::new(x - 560.0, y - 400.0)
}

fn main() {
    let mode = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .filter(|mode| (1..=9).contains(mode))
        .unwrap_or(9);
    let mut app = support::example_app("steering_playground");
    app.insert_resource(FlockSettings {
        config: FlockConfig::crowd(),
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 100,
    })
    .insert_resource(ClickToSpawn {
        enabled: false,
        ..default()
    })
    .insert_resource(Mode(mode))
    .insert_resource(ClickPoint(from_seed(800.0, 500.0)))
    .init_resource::<Trail>()
    .add_plugins(BoidsPlugin::default().with_seed(3))
    .add_plugins(support::HelpLinePlugin(""))
    .add_systems(Startup, setup)
    .add_systems(
        Update,
        (
            pick_mode,
            build_scene.run_if(resource_changed::<Mode>),
            click_target,
            record_trail,
            draw_markers,
            update_help,
        )
            .chain(),
    );
    // The panel's Reset clears the scene and spawns plain boids.
    let reset = SpawnBoids::new(30, Placement::RandomInBounds);
    support::add_panel(&mut app, false, reset);
    app.run();
}

/// The mode shown, 1 to 9.
#[derive(Resource)]
struct Mode(u8);

/// The last clicked point: the target of modes 1 to 5.
#[derive(Resource)]
struct ClickPoint(Vec2);

/// The player's path, drawn as the seed draws dots where it has been.
#[derive(Resource, Default)]
struct Trail(Vec<Vec2>);

/// Everything a mode spawns, despawned when the mode changes.
#[derive(Component)]
struct InScene;

#[derive(Component)]
struct Player;

/// A circle the seed draws: a target's slow radius, a flee radius, a wander home.
#[derive(Component)]
struct Marker {
    radius: f32,
    colour: Color,
}

/// The marker that moves with the click (the seek or flee point, the wander home).
#[derive(Component)]
struct ClickMarker;

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = BoidPrefab {
        image: assets.load("sprites/arrow.png"),
        size: Vec2::splat(22.0),
        colors: BoidColors::Single(Color::srgb(0.55, 0.85, 1.0)),
    };
}

fn pick_mode(keys: Res<ButtonInput<KeyCode>>, ui: Res<UiWantsInput>, mut mode: ResMut<Mode>) {
    if ui.keyboard {
        return;
    }
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
    if let Some(digit) = DIGITS.iter().position(|&key| keys.just_pressed(key)) {
        mode.0 = digit as u8 + 1;
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
        // Vehicles of modes 1 to 5 steer by their behaviours alone.
        SteeringWeights::Custom(RuleWeights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
        }),
        Transform::from_translation(at.extend(1.0)),
        Sprite {
            image: assets.load("sprites/arrow.png"),
            color: colour,
            custom_size: Some(Vec2::splat(size)),
            ..default()
        },
    )
}

fn build_scene(
    mut commands: Commands,
    mode: Res<Mode>,
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
    trail.0.clear();
    let white = Color::srgb(0.95, 0.95, 0.95);
    let green = Color::srgb(0.4, 0.9, 0.45);
    let target = click.0;
    let start = from_seed(100.0, 100.0);
    let walls = AvoidWalls {
        look_ahead: 60.0,
        weight: 1.0,
    };
    match mode.0 {
        1 | 4 => {
            let player = commands
                .spawn((
                    vehicle(&assets, start, PLAYER, white, 30.0),
                    Player,
                    Arrive {
                        target: Target::Point(target),
                        slow_radius: 150.0,
                        weight: 1.0,
                    },
                ))
                .id();
            commands.spawn((
                (ClickMarker, marker_at(target)),
                marker(150.0, Color::srgba(0.0, 1.0, 1.0, 0.5)),
            ));
            if mode.0 == 4 {
                commands.spawn((
                    vehicle(&assets, from_seed(100.0, 500.0), PURSUER, green, 26.0),
                    Pursue {
                        target: player,
                        max_look_ahead: 0.5,
                        weight: 1.0,
                    },
                ));
            }
        }
        2 => {
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
                walls,
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
                Velocity(Vec2::X * 50.0),
                wanderer(target, 200.0),
                walls,
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
            .map(|(x, y)| from_seed(x, y));
            let mut threats = Vec::new();
            for home in homes {
                threats.push(Target::Entity(
                    commands
                        .spawn((
                            vehicle(&assets, home, FLEE_NODE, green, 22.0),
                            Velocity(Vec2::Y * 20.0),
                            wanderer(home, 100.0),
                        ))
                        .id(),
                ));
                commands.spawn((
                    marker_at(home),
                    marker(100.0, Color::srgba(1.0, 1.0, 0.0, 0.35)),
                ));
            }
            commands.spawn((
                vehicle(&assets, start, PLAYER, white, 30.0),
                Player,
                Arrive {
                    target: Target::Point(target),
                    slow_radius: 150.0,
                    weight: 1.0,
                },
                Flee {
                    threats,
                    radius: 100.0,
                    weight: 1.0,
                },
                walls,
            ));
            commands.spawn((
                (ClickMarker, marker_at(target)),
                marker(150.0, Color::srgba(0.0, 1.0, 1.0, 0.5)),
            ));
        }
        crowd => {
            // Seed 003's nodes, shared with the panel's presets (radii, speeds, weights).
            let (config, placement) = match crowd {
                6 => (
                    FlockConfig::crowd_cohesion_only(),
                    Placement::RandomInBounds,
                ),
                // The seed starts its separation nodes in one 50-pixel square.
                7 => (
                    FlockConfig::crowd_separation_only(),
                    Placement::At(from_seed(675.0, 275.0)),
                ),
                8 => (
                    FlockConfig::crowd_alignment_only(),
                    Placement::RandomInBounds,
                ),
                _ => (FlockConfig::crowd(), Placement::RandomInBounds),
            };
            settings.config = FlockConfig {
                bounds: settings.config.bounds,
                ..config
            };
            commands.queue(SpawnBoids::new(30, placement));
        }
    }
}

/// The seed's wanderer: circle 30 ahead, radius 15, the angle jittering up to 180 degrees a
/// step, pulled back home (50 against the circle's 30: three times the wander force).
fn wanderer(home: Vec2, radius: f32) -> Wander {
    Wander {
        params: WanderParams {
            home: Some(WanderHome {
                centre: home,
                radius,
                pull_back: 3.0,
            }),
            ..WanderParams::default()
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

/// A click moves the mode's target: the seek point, the flee point, the wander home.
fn click_target(
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorWorldPosition>,
    ui: Res<UiWantsInput>,
    mut click: ResMut<ClickPoint>,
    mut player: Query<(Option<&mut Arrive>, Option<&mut Flee>, Option<&mut Wander>), With<Player>>,
    mut markers: Query<&mut Transform, With<ClickMarker>>,
) {
    let clicked = buttons.just_pressed(MouseButton::Left) && !ui.pointer;
    let Some(point) = cursor.0.filter(|_| clicked) else {
        return;
    };
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

fn update_help(mode: Res<Mode>, mut help: ResMut<support::HelpLine>) {
    let name = match mode.0 {
        1 => "seek (arrive) the click",
        2 => "flee the click",
        3 => "wander around the click",
        4 => "pursuit: green pursues white, white seeks the click",
        5 => "seek the click, fleeing the wanderers",
        6 => "cohesion only",
        7 => "separation only",
        8 => "alignment only",
        _ => "the crowd: cohesion 0.5, separation 30, alignment 1",
    };
    let text = format!("1-9: mode   now {}: {name}", mode.0);
    if help.0 != text {
        help.0 = text;
    }
}
