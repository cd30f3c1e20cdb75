//! The plugin's lockstep check, for both dimensions: a flock with every steering behaviour,
//! stepped 1,000 times with the grid forced onto each lane width this processor has; the state
//! hashes must all be equal.

use bevy::prelude::*;
use bevy_flock::FlockStateHash;
use bevy_flock::flock_core::index::Lanes;
use bevy_flock::flock_core::{Bounds, planar, world_size};
use bevy_flock::prelude::*;
use bevy_flock::{Hunt, SpeciesRelations};

use super::{ball_obstacle, create_app, spawn, step};

const BOIDS: usize = 1_200;
const STEPS: usize = 1_000;

/// The state hash after `STEPS` steps with the grid on `lanes`.
fn hash_after_steps(lanes: Lanes) -> u64 {
    Lanes::force(Some(lanes));
    let settings = FlockSettings {
        config: FlockConfig {
            view_angle_degrees: 270.0,
            bounds: Bounds::centered(world_size(900.0, 600.0)),
            ..FlockConfig::default()
        },
        ..default()
    };
    let mut app = create_app(settings, 5);
    app.insert_resource(SpeciesRelations {
        hunts: vec![Hunt {
            predator: 1,
            prey: 0,
            flee_radius: 80.0,
            flee_weight: 2.0,
            chase_radius: 150.0,
            chase_weight: 1.0,
            max_look_ahead: 1.0,
        }],
    });
    let boids = spawn(&mut app, BOIDS, Placement::RandomInBounds);
    let world = app.world_mut();
    let rock = world
        .spawn((ball_obstacle(40.0), Transform::from_xyz(100.0, 50.0, 0.0)))
        .id();
    let leader = boids[0];
    for (i, &boid) in boids.iter().enumerate() {
        let mut boid = world.entity_mut(boid);
        match i % 9 {
            0 => boid.insert(Wander::default()),
            1 => boid.insert(Seek {
                target: Target::Point(planar(200.0, -100.0)),
                weight: 1.0,
            }),
            2 => boid.insert(Arrive {
                target: Target::Entity(rock),
                slow_radius: 100.0,
                weight: 1.0,
                speed: None,
            }),
            3 => boid.insert(Flee {
                threats: vec![Target::Entity(leader)],
                radius: 120.0,
                weight: 1.5,
            }),
            4 => boid.insert((
                Pursue {
                    target: leader,
                    max_look_ahead: 1.0,
                    weight: 1.0,
                },
                TurnRate {
                    max_turn_rate: 3.0,
                    max_acceleration: 400.0,
                },
            )),
            5 => boid.insert((
                Evade {
                    threat: leader,
                    max_look_ahead: 1.0,
                    radius: 150.0,
                    weight: 1.0,
                },
                MotionLimits {
                    max_speed: 150.0,
                    max_force: 1_000.0,
                    mass: 1.0,
                },
            )),
            6 => boid.insert((
                AvoidObstacles {
                    look_ahead: 60.0,
                    clearance: 10.0,
                    weight: 2.0,
                },
                AvoidWalls {
                    look_ahead: 50.0,
                    weight: 1.0,
                },
            )),
            7 => boid.insert(SightFlock {
                params: SightParams {
                    in_sight: 60.0,
                    too_close: 20.0,
                },
                weight: 1.0,
            }),
            _ => boid.insert(Species(1)),
        };
    }
    step(&mut app, STEPS);
    Lanes::force(None);
    app.world_mut()
        .run_system_cached(|hash: FlockStateHash| hash.get())
        .expect("the hash system runs")
}

/// Steps the flock on every lane width this processor has and checks the hashes agree.
pub fn check_every_lane_width_gives_the_same_hash() {
    let widths: Vec<Lanes> = Lanes::ALL.into_iter().filter(|l| l.available()).collect();
    let hashes: Vec<(Lanes, u64)> = widths
        .iter()
        .map(|&lanes| (lanes, hash_after_steps(lanes)))
        .collect();
    eprintln!("state hashes after {STEPS} steps: {hashes:x?}");
    assert!(!hashes.is_empty() && hashes.iter().all(|&(_, hash)| hash == hashes[0].1));
}
