//! Queueing at a doorway through the plugin: a line that keeps its order and its spacing, a
//! crowd in a room that all get through a door in a wall, and hostile values. `bevy_flock3d`
//! runs the same cases in 3D (`[[test]] path` in its manifest), on the ground (x-z).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::Vector;
use bevy_flock::prelude::*;
use common::{
    assert_refused_and_kept, assert_sound, at, boid_states, box_obstacle, no_flocking, position,
    spawn_boid, step,
};

const WALKER: MotionLimits = MotionLimits {
    max_speed: 60.0,
    max_force: 2_000.0,
    mass: 1.0,
};

/// Queueing for bodies of radius 6: slowing from 40 apart, stopped at 16, a lane 12 to each
/// side.
fn queue_for(door: Vector, patience: f32) -> Queue {
    Queue {
        params: QueueParams {
            look_ahead: 40.0,
            stop_distance: 16.0,
            lane_half_width: 12.0,
            patience,
        },
        ..Queue::for_door(door)
    }
}

#[test]
fn a_line_keeps_its_order_and_its_spacing_behind_a_closed_gate_and_then_goes_through() {
    let mut app = common::app_with(no_flocking());
    let door = level(300.0, 0.0);
    // Someone stands in the gate for the first 5 s.
    let gate = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(100.0, 0.0)),
            SteeringWeights::Custom(RuleWeights::NONE),
        ),
    );
    let line: Vec<Entity> = (0..6)
        .map(|i| {
            let start = at(level(-20.0 * i as f32, 0.0));
            spawn_boid(&mut app, (WALKER, start, queue_for(door, 1e6)))
        })
        .collect();
    let mut through = Vec::new();
    for step_number in 0..(30 * 60) {
        step(&mut app, 1);
        if step_number == 5 * 60 {
            app.world_mut().despawn(gate);
        }
        let waiting: Vec<Vector> = line
            .iter()
            .filter(|boid| !through.contains(*boid))
            .map(|&boid| position(&app, boid))
            .collect();
        for pair in waiting.windows(2) {
            assert!(pair[0].x > pair[1].x, "out of order at step {step_number}");
            let gap = pair[0].distance(pair[1]);
            assert!(gap > 12.0, "step {step_number}: {gap}");
        }
        for &boid in &line {
            if !through.contains(&boid) && position(&app, boid).x > door.x {
                // Through: walks on.
                walk_on(&mut app, boid);
                through.push(boid);
            }
        }
    }
    assert_eq!(through, line, "through in this order");
    assert_sound(&mut app);
}

/// A walker through the door leaves the queue and walks on, far to the right.
fn walk_on(app: &mut App, boid: Entity) {
    app.world_mut()
        .entity_mut(boid)
        .remove::<Queue>()
        .insert(Seek {
            target: Target::Point(level(2_000.0, 0.0)),
            weight: 1.0,
        });
}

/// Half the size of a wall piece on the ground: `half_length` along x, `half_width` across (in
/// 3D, 100 high).
fn flat(half_length: f32, half_width: f32) -> Vector {
    let on_ground = level(half_length, half_width).abs();
    #[cfg(flock_3d)]
    return on_ground + Vec3::Y * 100.0;
    #[cfg(not(flock_3d))]
    on_ground
}

#[test]
fn a_crowd_in_a_room_all_get_through_the_door() {
    // Separation keeps the crowd's bodies apart; queueing and the walls do the rest.
    let config = FlockConfig {
        separation_radius: 14.0,
        weights: RuleWeights {
            separation: 3.0,
            alignment: 0.0,
            cohesion: 0.0,
        },
        max_force: 2_000.0,
        ..no_flocking()
    };
    let mut app = common::app_with(config);
    // A wall along x = 0, 20 thick, with a door 40 wide in the middle.
    let world = app.world_mut();
    for side in [-1.0, 1.0] {
        let centre = level(0.0, side * 220.0);
        world.spawn((box_obstacle(flat(10.0, 200.0)), at(centre)));
    }
    // The point sought is just beyond the opening: a boid there is through.
    let door = level(30.0, 0.0);
    let crowd: Vec<Entity> = (0..30)
        .map(|i| {
            let start = level(-60.0 - 25.0 * (i / 6) as f32, -60.0 + 25.0 * (i % 6) as f32);
            let avoid = AvoidObstacles {
                look_ahead: 30.0,
                clearance: 6.0,
                weight: 2.0,
            };
            spawn_boid(&mut app, (WALKER, at(start), queue_for(door, 1.0), avoid))
        })
        .collect();
    let mut through = 0;
    for _ in 0..(90 * 60) {
        step(&mut app, 1);
        for &boid in &crowd {
            let passed = position(&app, boid).x > 20.0;
            let queueing = app.world().get::<Queue>(boid).is_some();
            if passed && queueing {
                walk_on(&mut app, boid);
                through += 1;
            }
        }
        if through == crowd.len() {
            break;
        }
    }
    let left_behind: Vec<Vector> = boid_states(&mut app)
        .into_iter()
        .map(|(_, position, _)| position)
        .filter(|position| position.x <= 20.0)
        .collect();
    assert_eq!(through, crowd.len(), "still in the room: {left_behind:?}");
    assert_sound(&mut app);
}

#[test]
fn bad_queue_values_steer_no_one_and_break_nothing() {
    let mut app = common::app_with(no_flocking());
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let door = level(300.0, 0.0);
    let good = queue_for(door, 1.0);
    let moving = Velocity(level(30.0, 0.0));
    let mut idle = Vec::new();
    let mut broken = vec![
        Queue {
            door: level(nan, 0.0),
            ..good
        },
        Queue {
            door: level(0.0, inf),
            ..good
        },
    ];
    for bad in [nan, inf, -1.0, 1e30] {
        for field in 0..4 {
            let mut queue = good;
            let params = &mut queue.params;
            *[
                &mut params.look_ahead,
                &mut params.stop_distance,
                &mut params.lane_half_width,
                &mut params.patience,
            ][field] = bad;
            broken.push(queue);
        }
    }
    for behaviour in broken {
        let start = at(level(0.0, 50.0 * idle.len() as f32));
        idle.push(spawn_boid(&mut app, (WALKER, start, moving, behaviour)));
    }
    // Valid but extreme: many on one point, a door on top of them, huge parameters, a weight
    // of a billion, a wait already as long as it gets.
    for i in 0..20 {
        let mut queue = if i % 2 == 0 {
            queue_for(Vector::ZERO, 0.0)
        } else {
            Queue {
                params: QueueParams {
                    look_ahead: 1e9,
                    stop_distance: 1e8,
                    lane_half_width: 1e9,
                    patience: 0.0,
                },
                weight: 1e9,
                ..good
            }
        };
        queue.state.blocked_for = f32::MAX;
        spawn_boid(&mut app, (WALKER, at(level(-500.0, 0.0)), queue));
    }
    assert_refused_and_kept(&mut app, &idle, moving.0);
}
