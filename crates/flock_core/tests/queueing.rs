//! Queueing at a doorway over many steps: a line that waits and goes in order, a blocked
//! vehicle that steps aside and passes, and bad input. `flock_core3d` runs the same cases in
//! 3D (`[[test]] path` in its manifest), on the ground (x-z) that
//! [`level`](kernel::steering::level) lays them on.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::*;
use kernel::Vector;
use kernel::steering::{QueueParams, QueueState, Vehicle, level, queue};

/// How far along the way to the door (+x) a point is.
fn along(v: Vector) -> f32 {
    v.x
}

/// How far to the left of the way to the door a point is.
fn to_the_left(v: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return v.y;
    #[cfg(flock_3d)]
    return -v.z;
}

/// The others `me` queues behind: everyone in `crowd` but `me`, and those standing still.
fn others_of(
    crowd: &[Vehicle],
    me: usize,
    standing: &[Vector],
) -> impl Iterator<Item = (Vector, Vector)> {
    let moving = crowd.iter().enumerate().filter(move |&(i, _)| i != me);
    let moving = moving.map(|(_, other)| (other.position, other.velocity));
    moving.chain(standing.iter().map(|&position| (position, Vector::ZERO)))
}

#[test]
fn a_line_waits_at_a_closed_gate_then_goes_through_in_order_without_touching() {
    let door = level(100.0, 0.0);
    // Patient enough never to step aside, so nobody leaves the line.
    let params = QueueParams {
        patience: 1e6,
        ..QueueParams::default()
    };
    let mut line: Vec<Vehicle> = (0..8)
        .map(|i| vehicle(level(-3.0 * i as f32, 0.0), Vector::ZERO, 10.0))
        .collect();
    let mut states = vec![QueueState::default(); line.len()];
    let mut passed = Vec::new();
    // Shut for the first 5 s: someone stands in the way at 10.
    let gate = level(10.0, 0.0);
    for step_number in 0..(30.0 / DT) as usize {
        let standing: &[Vector] = if step_number < (5.0 / DT) as usize {
            &[gate]
        } else {
            &[]
        };
        let forces: Vec<Vector> = (0..line.len())
            .map(|i| {
                let others = others_of(&line, i, standing);
                queue(&line[i], door, others, &params, &mut states[i], DT)
            })
            .collect();
        for (me, force) in line.iter_mut().zip(forces) {
            step(me, force);
        }
        // Everyone keeps their place and their distance from the one ahead.
        for pair in line.windows(2) {
            assert!(along(pair[0].position) > along(pair[1].position));
            let gap = pair[0].position.distance(pair[1].position);
            assert!(gap >= 2.0, "step {step_number}: {gap}");
        }
        if let (Some(first), Some(&gate)) = (line.first(), standing.first()) {
            assert!(first.position.distance(gate) >= 2.0);
        }
        // Through the door: walks on, out of the queue.
        while line
            .first()
            .is_some_and(|first| along(first.position) > along(door))
        {
            line.remove(0);
            states.remove(0);
            passed.push(step_number);
        }
    }
    assert_eq!(passed.len(), 8, "only {} through", passed.len());
    // Nobody went through while the gate was shut.
    assert!(passed[0] > (5.0 / DT) as usize, "{passed:?}");
}

#[test]
fn a_vehicle_blocked_dead_ahead_steps_to_its_left_and_passes() {
    let door = level(100.0, 0.0);
    let params = QueueParams::default();
    let blocker = level(20.0, 0.0);
    let mut me = vehicle(Vector::ZERO, Vector::ZERO, 10.0);
    let mut state = QueueState::default();
    let mut closest = f32::MAX;
    let mut furthest_left = 0f32;
    let mut through = None;
    for step_number in 0..(20.0 / DT) as usize {
        let standing = [(blocker, Vector::ZERO)];
        let force = queue(&me, door, standing, &params, &mut state, DT);
        step(&mut me, force);
        closest = closest.min(me.position.distance(blocker));
        furthest_left = furthest_left.max(to_the_left(me.position));
        if along(me.position) > along(door) {
            through = Some(step_number);
            break;
        }
    }
    assert!(through.is_some(), "stuck at {}", me.position);
    assert!(furthest_left >= 2.0, "{furthest_left}");
    assert!(closest >= 1.8, "{closest}");
}

#[test]
fn bad_input_gives_no_force_and_no_nan() {
    let door = level(100.0, 0.0);
    let me = vehicle(Vector::ZERO, level(5.0, 0.0), 10.0);
    let good = QueueParams::default();
    let ahead = [(level(3.0, 0.0), Vector::ZERO)];
    let mut state = QueueState::default();
    assert_ne!(queue(&me, door, ahead, &good, &mut state, DT), Vector::ZERO);

    // Each number not a number, infinite, negative, beyond the largest magnitude; a lane of no
    // width; a look-ahead not beyond the stop distance.
    let mut broken = Vec::new();
    for bad in [f32::NAN, f32::INFINITY, -1.0, 1e30] {
        broken.extend([
            QueueParams {
                look_ahead: bad,
                ..good
            },
            QueueParams {
                stop_distance: bad,
                ..good
            },
            QueueParams {
                lane_half_width: bad,
                ..good
            },
            QueueParams {
                patience: bad,
                ..good
            },
        ]);
    }
    broken.extend([
        QueueParams {
            lane_half_width: 0.0,
            ..good
        },
        QueueParams {
            look_ahead: 2.0,
            stop_distance: 2.0,
            ..good
        },
    ]);
    let waited = QueueState { blocked_for: 0.5 };
    for params in broken {
        assert!(!params.is_valid(), "{params:?}");
        let mut state = waited;
        assert_eq!(
            queue(&me, door, ahead, &params, &mut state, DT),
            Vector::ZERO
        );
        assert_eq!(state, waited, "{params:?}");
    }
    // A step that is not finite and positive, a door or a vehicle lost to NaN: no force, the
    // wait as it was.
    let lost = vehicle(level(f32::NAN, 0.0), Vector::ZERO, 10.0);
    for (vehicle, door, dt) in [
        (me, door, 0.0),
        (me, door, -DT),
        (me, door, f32::NAN),
        (me, door, f32::INFINITY),
        (me, level(f32::NAN, 0.0), DT),
        (lost, door, DT),
    ] {
        let mut state = waited;
        assert_eq!(
            queue(&vehicle, door, ahead, &good, &mut state, dt),
            Vector::ZERO
        );
        assert_eq!(state, waited);
    }

    // Huge but valid numbers, neighbours lost to NaN or on top of the vehicle, the vehicle at
    // the door, a wait as long as it gets: finite forces.
    let huge = QueueParams {
        look_ahead: 1e9,
        stop_distance: 1e8,
        lane_half_width: 1e9,
        patience: 0.0,
    };
    let crowd = [
        (Vector::ZERO, Vector::ZERO),
        (Vector::ZERO, level(f32::NAN, 0.0)),
        (level(f32::NAN, 1.0), Vector::ZERO),
        (level(1e9, 0.0), Vector::ZERO),
    ];
    for params in [good, huge] {
        let mut state = QueueState {
            blocked_for: f32::MAX,
        };
        for door in [door, Vector::ZERO, level(1e9, -1e9)] {
            let force = queue(&me, door, crowd, &params, &mut state, DT);
            assert!(force.is_finite(), "{params:?} {door}: {force}");
            assert!(state.blocked_for.is_finite());
        }
    }
}
