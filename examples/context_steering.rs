//! Context steering (Andrew Fray, "Context Steering", *Game AI Pro 2*, chapter 18): a crowd
//! crossing an obstacle field to the far side and back. Each boid arrives at its goal by an
//! interest map (towards the goal, a little along its heading) and a danger map (obstacles
//! ahead, the walls, other boids too close) over 16 directions, taking the most interesting
//! way that is not dangerous; none enters an obstacle. One boid (white) draws its maps: green
//! rays for interest, red for danger, yellow for the way it chose. Click to add a boid.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::steering::context::{
    ContextMaps, arrive_interest, decide, momentum, neighbour_danger, obstacle_danger, wall_danger,
};
use bevy_flock::flock_core::steering::{Polygon, Shape};
use bevy_flock::prelude::*;

/// Half the height of the field (the window's 720).
const HALF_HEIGHT: f32 = 360.0;
/// Where the two goal columns are, either side of the field.
const GOAL_X: f32 = 560.0;
/// How near a goal counts as there: the boid turns round for the other side.
const ARRIVED: f32 = 20.0;
const BOIDS: usize = 60;

const CONTEXT: ContextSteering = ContextSteering {
    params: ContextParams {
        slots: 16,
        look_ahead: 90.0,
        clearance: 8.0,
        separation: 26.0,
        danger_threshold: 0.1,
        momentum: 0.2,
    },
    walls: true,
};

const LIMITS: MotionLimits = support::limits(110.0, 900.0);

/// A boid's two goals, one each side of the field, and which it is heading for.
#[derive(Component)]
struct Goals {
    left: Vec2,
    right: Vec2,
    rightwards: bool,
}

impl Goals {
    fn current(&self) -> Vec2 {
        if self.rightwards {
            self.right
        } else {
            self.left
        }
    }
}

/// An obstacle's outline for drawing (the same shape the boids avoid).
#[derive(Component)]
struct Outline(Shape);

/// The boid whose maps are drawn.
#[derive(Component)]
struct Watched;

fn main() {
    // Behaviours alone: the boids do not flock; context steering keeps them apart.
    let config = FlockConfig {
        weights: RuleWeights::NONE,
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let world = support::window_world(400, config);
    let mut app = support::flock_app("context_steering", world, 18);
    app.insert_resource(ClickToSpawn::ON)
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                steer_new_boids,
                turn_round_at_goals,
                draw_field,
                draw_watched_maps,
                update_help,
            )
                .chain(),
        );
    // The panel's Reset scatters a crowd anywhere; each boid heads for a side from there.
    support::add_panel(
        &mut app,
        false,
        SpawnBoids::new(BOIDS, Placement::RandomInBounds),
    );
    app.run();
}

/// The obstacle field: staggered columns of circles, squares and triangles, with gaps a boid
/// can take, and two planks across the middle.
fn field() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for column in 0..6 {
        let x = -375.0 + 150.0 * column as f32;
        let stagger = if column % 2 == 0 { 0.0 } else { 60.0 };
        for row in 0..6 {
            let centre = Vec2::new(x, -300.0 + 120.0 * row as f32 + stagger);
            if centre.y > HALF_HEIGHT - 40.0 {
                continue;
            }
            shapes.push(match (column + row) % 3 {
                0 => Shape::Circle {
                    centre,
                    radius: 30.0,
                },
                1 => Shape::Rect {
                    centre,
                    half_size: Vec2::splat(26.0),
                },
                _ => Shape::Polygon(
                    Polygon::new([
                        centre + Vec2::new(-32.0, -26.0),
                        centre + Vec2::new(32.0, -26.0),
                        centre + Vec2::new(0.0, 32.0),
                    ])
                    .expect("a triangle has an area"),
                ),
            });
        }
    }
    shapes
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = support::sprite_prefab(&assets, BoidSprite::Arrow, 16.0, support::SOFT_HUES);
    for shape in field() {
        // The obstacle component at the shape's place: the plugin places it by the transform.
        let (obstacle, centre) = match &shape {
            &Shape::Circle { centre, radius } => (Obstacle::Circle { radius }, centre),
            &Shape::Rect { centre, half_size } => (Obstacle::Rect { half_size }, centre),
            Shape::Polygon(polygon) => {
                let centre = polygon.centre();
                let local = polygon.placed(-centre, Vec2::X);
                (Obstacle::Polygon(local), centre)
            }
            _ => unreachable!("the field has circles, squares and triangles"),
        };
        commands.spawn((
            obstacle,
            Transform::from_translation(centre.extend(0.0)),
            Outline(shape),
        ));
    }
    // Half the crowd starts on each side, heading for the other.
    for i in 0..BOIDS {
        let y = -320.0 + 640.0 * (i / 2) as f32 / (BOIDS / 2) as f32;
        let rightwards = i % 2 == 0;
        let x = if rightwards { -GOAL_X } else { GOAL_X };
        let goals = Goals {
            left: Vec2::new(-GOAL_X, y),
            right: Vec2::new(GOAL_X, -y),
            rightwards,
        };
        let mut boid = commands.spawn((Boid, Transform::from_xyz(x, y, 0.0), goals));
        if i == 0 {
            boid.insert(Watched);
        }
    }
}

/// Every new boid (the first ones, a click, the panel's Reset) steers by context to its goal;
/// one added without goals gets a pair through its own height.
fn steer_new_boids(
    mut commands: Commands,
    new_boids: Query<(Entity, &Transform, Option<&Goals>), Added<Boid>>,
) {
    for (entity, transform, goals) in &new_boids {
        let y = transform.translation.y;
        let rightwards = transform.translation.x < 0.0;
        let goal = goals.map_or(if rightwards { GOAL_X } else { -GOAL_X }, |goals| {
            goals.current().x
        });
        let mut boid = commands.entity(entity);
        if goals.is_none() {
            boid.insert(Goals {
                left: Vec2::new(-GOAL_X, y),
                right: Vec2::new(GOAL_X, y),
                rightwards,
            });
        }
        let target = goals.map_or(Vec2::new(goal, y), Goals::current);
        boid.insert((
            CONTEXT,
            LIMITS,
            Arrive {
                target: Target::Point(target),
                slow_radius: 60.0,
                weight: 1.0,
                speed: None,
            },
        ));
    }
}

/// A boid at its goal turns round for the other side.
fn turn_round_at_goals(mut boids: Query<(&Transform, &mut Goals, &mut Arrive)>) {
    for (transform, mut goals, mut arrive) in &mut boids {
        if transform.translation.truncate().distance(goals.current()) < ARRIVED {
            goals.rightwards = !goals.rightwards;
            arrive.target = Target::Point(goals.current());
        }
    }
}

fn draw_field(obstacles: Query<&Outline>, goals: Query<&Goals, With<Watched>>, mut gizmos: Gizmos) {
    let colour = Color::srgb(0.95, 0.75, 0.35);
    for Outline(shape) in &obstacles {
        match shape {
            &Shape::Circle { centre, radius } => {
                gizmos.circle_2d(centre, radius, colour);
            }
            &Shape::Rect { centre, half_size } => {
                gizmos.rect_2d(centre, half_size * 2.0, colour);
            }
            Shape::Polygon(polygon) => {
                let vertices = polygon.vertices();
                gizmos.linestrip_2d(vertices.iter().chain(vertices.first()).copied(), colour);
            }
            _ => {}
        }
    }
    // The goal columns, and the watched boid's goal.
    let faint = Color::srgba(0.6, 0.8, 1.0, 0.25);
    for x in [-GOAL_X, GOAL_X] {
        gizmos.line_2d(
            Vec2::new(x, -HALF_HEIGHT + 20.0),
            Vec2::new(x, HALF_HEIGHT - 40.0),
            faint,
        );
    }
    for goals in &goals {
        gizmos.circle_2d(goals.current(), 8.0, Color::WHITE);
    }
}

/// The watched boid's maps, built again here from what its context steering reads (its goal,
/// heading, the obstacles, the walls and its neighbours): a ray per direction, as long as its
/// interest (green) or danger (red), and the way chosen (yellow).
fn draw_watched_maps(
    settings: Res<FlockSettings>,
    watched: Query<(Entity, &Transform, &Velocity, &Arrive), With<Watched>>,
    boids: Query<(Entity, &Transform), With<Boid>>,
    obstacles: Query<&Outline>,
    mut maps: Local<Option<ContextMaps>>,
    mut gizmos: Gizmos,
) {
    let Ok((me, transform, velocity, arrive)) = watched.single() else {
        return;
    };
    let params = CONTEXT.params;
    let maps = maps.get_or_insert_with(|| ContextMaps::new(params.slots as usize));
    maps.clear();
    let here = transform.translation.truncate();
    if let Target::Point(goal) = arrive.target {
        arrive_interest(maps, here, goal, arrive.slow_radius, arrive.weight);
    }
    momentum(maps, velocity.0, params.momentum);
    for Outline(shape) in &obstacles {
        obstacle_danger(maps, here, shape, params.look_ahead, params.clearance);
    }
    wall_danger(
        maps,
        here,
        &settings.config.bounds,
        params.look_ahead,
        params.clearance,
    );
    let others = (boids.iter())
        .filter(|(entity, _)| *entity != me)
        .map(|(_, other)| other.translation.truncate());
    neighbour_danger(maps, here, others, params.separation);

    let length = 60.0;
    let directions = maps.directions().as_slice();
    for ((&direction, &interest), &danger) in
        directions.iter().zip(maps.interest()).zip(maps.danger())
    {
        let side = direction.perp() * 1.5;
        gizmos.line_2d(
            here + side,
            here + side + direction * interest.min(1.0) * length,
            Color::srgb(0.3, 0.9, 0.4),
        );
        if danger > 0.0 {
            gizmos.line_2d(
                here - side,
                here - side + direction * danger * length,
                Color::srgb(1.0, 0.3, 0.25),
            );
        }
    }
    let decision = decide(maps, params.danger_threshold);
    gizmos.arrow_2d(
        here,
        here + decision.direction * (decision.strength * length + 10.0),
        Color::srgb(1.0, 0.95, 0.3),
    );
    gizmos.circle_2d(here, 11.0, Color::WHITE);
}

fn update_help(boids: Query<(), With<Boid>>, mut help: ResMut<support::HelpLine>) {
    let text = format!(
        "{} boids, context steering   white boid's maps: interest green, danger red, \
         choice yellow   click: add a boid",
        boids.iter().count()
    );
    help.set_if_neq(support::HelpLine(text));
}
