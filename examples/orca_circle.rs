//! RVO2's Circle scene with ORCA (`Orca`): agents evenly round a circle, each walking to the
//! point opposite, through the crowd in the middle. Coloured by where they started, so the
//! swirl in which ORCA's agents pass each other shows. An agent that arrives turns back, so the
//! crossing goes on. The count is the first argument (or `FLOCK_BOIDS`), 250 by default.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::Bounds;
use bevy_flock::prelude::*;

/// The circle's radius, world units (the window is 1280 x 720).
const CIRCLE: f32 = 280.0;
/// An agent's radius: as RVO2's 1.5 to its circle's 200, a little larger to be seen. 250 agents
/// start 7 apart, more than two radii and the clearance.
const RADIUS: f32 = 2.5;
const WALKER: MotionLimits = MotionLimits {
    max_speed: 60.0,
    max_force: 600.0,
    mass: 1.0,
};

/// Where an agent is walking to: the point opposite where it last started.
#[derive(Component)]
struct Goal(Vec2);

fn main() {
    let count = support::stress::boid_count(250);
    let mut app = support::example_app("orca_circle");
    app.insert_resource(FlockSettings {
        config: FlockConfig {
            // Agents do not flock: they walk, and ORCA keeps them apart.
            weights: RuleWeights::NONE,
            edges: EdgeMode::Free,
            max_speed: WALKER.max_speed,
            bounds: Bounds {
                min: Vec2::new(-640.0, -360.0),
                max: Vec2::new(640.0, 360.0),
            },
            ..FlockConfig::default()
        },
        bounds_source: BoundsSource::Fixed,
        max_boids: count.max(1),
    })
    .insert_resource(ClickToSpawn::OFF)
    .add_plugins(BoidsPlugin::default().with_seed(3))
    .add_plugins(support::HelpLinePlugin(""))
    .add_systems(Startup, move |commands: Commands| setup(commands, count))
    .add_systems(Update, (turn_back, update_help).chain());
    app.run();
}

fn setup(mut commands: Commands, count: usize) {
    commands.spawn(Camera2d);
    let orca = Orca {
        params: OrcaParams {
            radius: RADIUS,
            time_horizon: 3.0,
            obstacle_time_horizon: 1.0,
            neighbour_distance: 12.0 * RADIUS,
            max_neighbours: 10,
            clearance: 0.5,
            responsibility: 0.5,
            yield_at_rest: true,
        },
    };
    for i in 0..count {
        let angle = i as f32 * std::f32::consts::TAU / count as f32;
        let start = Vec2::from_angle(angle) * CIRCLE;
        commands.spawn((
            Boid,
            WALKER,
            orca,
            Transform::from_translation(start.extend(0.0)),
            Sprite::from_color(
                Color::hsl(angle.to_degrees(), 0.75, 0.6),
                Vec2::splat(2.0 * RADIUS),
            ),
            Goal(-start),
            Arrive {
                target: Target::Point(-start),
                slow_radius: 30.0,
                weight: 1.0,
                speed: None,
            },
        ));
    }
}

/// An agent at its goal sets off back to where it came from.
fn turn_back(mut agents: Query<(&Transform, &mut Goal, &mut Arrive)>) {
    for (transform, mut goal, mut arrive) in &mut agents {
        if transform.translation.truncate().distance(goal.0) < RADIUS {
            goal.0 = -goal.0;
            arrive.target = Target::Point(goal.0);
        }
    }
}

fn update_help(agents: Query<(&Transform, &Goal)>, mut help: ResMut<support::HelpLine>) {
    let total = agents.iter().len();
    let arriving = agents
        .iter()
        .filter(|(transform, goal)| {
            transform.translation.truncate().distance(goal.0) < 4.0 * RADIUS
        })
        .count();
    let text = format!(
        "ORCA, RVO2's circle: {total} agents, each walking to the opposite point \
         ({arriving} near it); the count is the first argument"
    );
    help.set_if_neq(support::HelpLine(text));
}
