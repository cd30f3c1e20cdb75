//! Evasion inside a pen, and wall following. 60 sheep flock inside a hexagonal pen
//! (`StayInside`) round a post (`AvoidObstacles`) and evade the red dog (`Evade`), which
//! pursues the nearest sheep (`Pursue`, its quarry chosen again every second) and stays in the
//! pen too. Three yellow walkers follow walls (`FollowWall`): two go round the inside of the
//! pen 30 px from its fence, one each way, and one circles the post 30 px out.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::steering::Polygon;
use bevy_flock::prelude::*;

/// The pen's corners are this far from its centre.
const PEN_RADIUS: f32 = 330.0;
const POST_RADIUS: f32 = 50.0;
const SHEEP: usize = 60;

const FENCE: Color = Color::srgb(0.95, 0.75, 0.35);
const DOG: Color = Color::srgb(1.0, 0.35, 0.3);
const WALKER: Color = Color::srgb(1.0, 0.9, 0.2);

/// The dog the sheep evade.
#[derive(Component)]
struct Dog;

/// The pen's entity, for the boids that stay in it.
#[derive(Resource)]
struct ThePen(Entity);

fn main() {
    let mut world = support::window_world(300, FlockConfig::processing());
    world.config.edges = EdgeMode::Free;
    let mut app = support::flock_app("evade_and_pens", world, 9);
    // A click adds a sheep.
    app.insert_resource(ClickToSpawn::ON)
        .add_systems(Startup, setup)
        .add_systems(Update, (pen_new_sheep, chase_the_nearest_sheep))
        .add_systems(Update, (draw_pen, update_help));
    let reset = SpawnBoids::new(SHEEP, Placement::At(Vec2::new(-150.0, 0.0)));
    support::run_with_panel_on_request(app, reset);
}

fn pen_outline() -> Polygon {
    let corners = (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 6.0));
    Polygon::new(corners.map(|corner| corner * Vec2::new(PEN_RADIUS * 1.3, PEN_RADIUS)))
        .expect("a hexagon is a simple polygon")
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = support::sprite_prefab(&assets, BoidSprite::Fish, 18.0, support::SOFT_HUES);
    let pen = commands.spawn(Pen(Enclosure::Polygon(pen_outline()))).id();
    commands.insert_resource(ThePen(pen));
    let post = commands
        .spawn((
            Obstacle::Circle {
                radius: POST_RADIUS,
            },
            Transform::default(),
        ))
        .id();
    let arrow = assets.load(BoidSprite::Arrow.asset_path());
    let bird = assets.load(BoidSprite::Bird.asset_path());
    commands.queue(move |world: &mut World| {
        bevy_flock::spawn_boids(world, SHEEP, Placement::At(Vec2::new(-150.0, 0.0)));
        let dog = bevy_flock::spawn_boids(world, 1, Placement::At(Vec2::new(250.0, 0.0)))[0];
        world.entity_mut(dog).insert((
            Dog,
            SteeringWeights::Custom(RuleWeights::NONE),
            MotionLimits {
                max_speed: 110.0,
                max_force: 400.0,
                mass: 1.0,
            },
            stay_in(pen),
            Sprite {
                image: bird,
                color: DOG,
                custom_size: Some(Vec2::splat(36.0)),
                ..default()
            },
        ));
        // Wall followers: round the inside of the pen both ways, and round the post.
        let walls = [
            (pen, WallSide::Left, Vec2::new(0.0, PEN_RADIUS * 0.8)),
            (pen, WallSide::Right, Vec2::new(0.0, -PEN_RADIUS * 0.8)),
            (post, WallSide::Left, Vec2::new(POST_RADIUS + 30.0, 0.0)),
        ];
        for (wall, side, start) in walls {
            let walker = bevy_flock::spawn_boids(world, 1, Placement::At(start))[0];
            world.entity_mut(walker).insert((
                FollowWall {
                    wall,
                    params: WallFollowParams {
                        side,
                        distance: 30.0,
                        look_ahead: 40.0,
                    },
                    weight: 1.0,
                },
                SteeringWeights::Custom(RuleWeights::NONE),
                MotionLimits {
                    max_speed: 90.0,
                    max_force: 900.0,
                    mass: 1.0,
                },
                Sprite {
                    image: arrow.clone(),
                    color: WALKER,
                    custom_size: Some(Vec2::splat(22.0)),
                    ..default()
                },
            ));
        }
    });
}

fn stay_in(pen: Entity) -> StayInside {
    StayInside {
        pen,
        look_ahead: 60.0,
        weight: 3.0,
    }
}

/// Every new plain boid (the first sheep, the panel's Reset, a click) is a sheep: in the pen,
/// round the post, away from the dog.
fn pen_new_sheep(
    mut commands: Commands,
    pen: Res<ThePen>,
    dogs: Query<Entity, With<Dog>>,
    new_boids: Query<Entity, (Added<Boid>, Without<Dog>, Without<FollowWall>)>,
) {
    let Some(dog) = dogs.iter().next() else {
        return;
    };
    for sheep in &new_boids {
        commands.entity(sheep).insert((
            stay_in(pen.0),
            AvoidObstacles {
                look_ahead: 60.0,
                clearance: 10.0,
                weight: 3.0,
            },
            Evade {
                threat: dog,
                max_look_ahead: 1.0,
                radius: 160.0,
                weight: 2.0,
            },
            MotionLimits {
                max_speed: 120.0,
                max_force: 600.0,
                mass: 1.0,
            },
        ));
    }
}

/// Once a second the dog picks the sheep nearest it.
fn chase_the_nearest_sheep(
    mut commands: Commands,
    time: Res<Time>,
    mut until_next: Local<f32>,
    dogs: Query<(Entity, &Transform), With<Dog>>,
    sheep: Query<(Entity, &Transform), With<Evade>>,
) {
    *until_next -= time.delta_secs();
    if *until_next > 0.0 {
        return;
    }
    *until_next = 1.0;
    for (dog, at) in &dogs {
        let nearest = sheep.iter().min_by(|a, b| {
            let distance = |t: &Transform| t.translation.distance_squared(at.translation);
            distance(a.1).total_cmp(&distance(b.1))
        });
        if let Some((target, _)) = nearest {
            commands.entity(dog).insert(Pursue {
                target,
                max_look_ahead: 1.0,
                weight: 1.0,
            });
        }
    }
}

fn draw_pen(mut gizmos: Gizmos) {
    let fence = pen_outline();
    let corners = fence.vertices();
    gizmos.linestrip_2d(corners.iter().chain(corners.first()).copied(), FENCE);
    gizmos.circle_2d(Isometry2d::IDENTITY, POST_RADIUS, FENCE);
}

fn update_help(sheep: Query<(), With<Evade>>, mut help: ResMut<support::HelpLine>) {
    let text = format!(
        "{} sheep stay in the pen, evading the red dog; yellow: wall followers (fence, post)",
        sheep.iter().count()
    );
    help.set_if_neq(support::HelpLine(text));
}
