//! The flock on a server: `MinimalPlugins`, no window, no renderer. 3,000 prey flock and wander
//! around two rocks while 12 predators hunt them; the app runs `STEPS` fixed steps as fast as it
//! can, prints the flock's state every 100 steps and a summary, then exits.
//!
//! `cargo run --release --example headless -- [boids] [steps]` (defaults 3000 and 600). It needs
//! none of the crate's features; CI runs it built with `--no-default-features`.

use std::time::{Duration, Instant};

use bevy::app::AppExit;
use bevy::log::LogPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_flock::FlockBuffers;
use bevy_flock::flock_core::{Bounds, metrics::polarisation};
use bevy_flock::prelude::*;

// The prey and predators of the predators example; only this file of the examples' support,
// as the rest of it draws.
#[path = "support/hunt.rs"]
mod hunt;

use hunt::{PREY, predator, predators_hunt_prey};

const PREDATORS: usize = 12;
/// Fixed steps per second of simulated time: the plugin's rate.
const HZ: f64 = BoidsPlugin::STEPS_PER_SECOND;
const REPORT_EVERY: u64 = 100;

fn main() {
    let (boids, steps) = arguments();
    App::new()
        // A server's plugins: task pools (steering on every core), time, a loop without a
        // window, and logging so the plugin's warnings reach the console.
        .add_plugins((
            MinimalPlugins.set(bevy_flock::all_cores_for_compute()),
            LogPlugin::default(),
        ))
        .insert_resource(FlockSettings {
            config: FlockConfig {
                bounds: Bounds::centered(Vec2::new(2400.0, 1600.0)),
                ..FlockConfig::processing()
            },
            max_boids: boids + PREDATORS,
            ..default()
        })
        .insert_resource(predators_hunt_prey())
        // Every update is one fixed step (the plugin runs 60 a second), however long it takes
        // on the wall clock: a batch run goes as fast as the machine allows and replays exactly
        // from its seed.
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / HZ,
        )))
        .insert_resource(Run {
            steps,
            started: Instant::now(),
            last_report: Instant::now(),
        })
        .add_plugins(BoidsPlugin::default().with_seed(11))
        .add_systems(Startup, populate)
        .add_systems(Update, report)
        .run();
}

/// The boid count and step count from the command line.
fn arguments() -> (usize, u64) {
    let mut arguments = std::env::args().skip(1);
    let mut next_or = |name: &str, default: u64| match arguments.next() {
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("`{text}` is not a {name}; using {default}");
            default
        }),
        None => default,
    };
    let boids = next_or("boid count", 3_000) as usize;
    let steps = next_or("step count", 600).max(1);
    (boids, steps)
}

#[derive(Resource)]
struct Run {
    steps: u64,
    started: Instant,
    last_report: Instant,
}

/// Prey that flock, wander a little and steer around two rocks; predators that only keep apart
/// from each other and hunt.
fn populate(mut commands: Commands, settings: Res<FlockSettings>) {
    let prey_count = settings.max_boids - PREDATORS;
    commands.spawn((
        Obstacle::Circle { radius: 80.0 },
        Transform::from_xyz(-400.0, 0.0, 0.0),
    ));
    commands.spawn((
        Obstacle::Rect {
            half_size: Vec2::new(60.0, 160.0),
        },
        Transform::from_xyz(450.0, 100.0, 0.0),
    ));
    commands.queue(move |world: &mut World| {
        for prey in bevy_flock::spawn_boids(world, prey_count, Placement::RandomInBounds) {
            world.entity_mut(prey).insert((
                Species(PREY),
                Wander {
                    weight: 0.3,
                    ..default()
                },
                AvoidObstacles {
                    look_ahead: 60.0,
                    clearance: 10.0,
                    weight: 2.0,
                },
            ));
        }
        for hunter in bevy_flock::spawn_boids(world, PREDATORS, Placement::RandomInBounds) {
            world.entity_mut(hunter).insert(predator());
        }
    });
}

/// Every `REPORT_EVERY` steps: the flock's order and neighbours, and the step's cost; after the
/// last step a summary, then exit.
fn report(
    clock: Res<FlockClock>,
    buffers: Res<FlockBuffers>,
    mut run: ResMut<Run>,
    mut exit: MessageWriter<AppExit>,
) {
    let step = clock.steps_taken();
    let last = step >= run.steps;
    if step == 0 || (!step.is_multiple_of(REPORT_EVERY) && !last) {
        return;
    }
    let boids = buffers.entities().len();
    let order = polarisation(buffers.velocities());
    let neighbours = buffers.stats().neighbours as f64 / boids.max(1) as f64;
    let timings = buffers.timings();
    let wall = run.last_report.elapsed();
    let since_report = (step - 1) % REPORT_EVERY + 1;
    println!(
        "step {step:>5}: {boids} boids, polarisation {order:.3}, {neighbours:.1} neighbours each, \
         index {:.2} ms + steer {:.2} ms, {:.0} steps/s",
        timings.index.as_secs_f64() * 1e3,
        timings.steer.as_secs_f64() * 1e3,
        since_report as f64 / wall.as_secs_f64().max(1e-9),
    );
    run.last_report = Instant::now();
    if last {
        let total = run.started.elapsed();
        println!(
            "done: {step} steps of {boids} boids in {:.2} s ({:.0} steps/s, {:.1} s simulated)",
            total.as_secs_f64(),
            step as f64 / total.as_secs_f64().max(1e-9),
            step as f64 / HZ,
        );
        exit.write(AppExit::Success);
    }
}
