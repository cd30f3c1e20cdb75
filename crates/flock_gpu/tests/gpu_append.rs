//! Adding boids to a flock on the device without reading it back ([`DeviceFlock::append`]), and
//! the step time the device measures. `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use common::{device, gpu_flock};
use flock_core::{Flock, FlockConfig};
use flock_gpu::{DeviceFlock, GpuError};

#[test]
fn appended_boids_follow_the_ones_on_the_device_which_stay_as_they_were() {
    let config = FlockConfig::default();
    let start = Flock::random(100, &config, 1);
    let Some(mut flock) = gpu_flock(config, start.positions(), start.velocities()) else {
        return;
    };
    for _ in 0..3 {
        flock.step(1.0 / 60.0).unwrap();
    }
    let (stepped_positions, stepped_velocities) = flock.read_back().unwrap();
    let capacity = flock.capacity();
    // Far more than the capacity: the buffers grow on the device, keeping what they hold.
    let more = Flock::random(5_000, &config, 2);
    flock.append(more.positions(), more.velocities()).unwrap();
    assert!(flock.capacity() > capacity);
    assert_eq!(flock.len(), 5_100);
    let (positions, velocities) = flock.read_back().unwrap();
    assert_eq!(positions[..100], stepped_positions[..]);
    assert_eq!(velocities[..100], stepped_velocities[..]);
    assert_eq!(positions[100..], more.positions()[..]);
    assert_eq!(velocities[100..], more.velocities()[..]);

    // A few more, inside the capacity now, and none at all.
    let few = Flock::random(3, &config, 3);
    flock.append(few.positions(), few.velocities()).unwrap();
    flock.append(&[], &[]).unwrap();
    let (positions, _) = flock.read_back().unwrap();
    assert_eq!(positions.len(), 5_103);
    assert_eq!(positions[5_100..], few.positions()[..]);
    assert_eq!(
        positions[..5_100],
        [&stepped_positions[..], more.positions()].concat()[..]
    );

    // The grown flock steps like any other.
    flock.step(1.0 / 60.0).unwrap();
    let (positions, velocities) = flock.read_back().unwrap();
    assert!(
        positions
            .iter()
            .chain(&velocities)
            .all(|value| value.is_finite())
    );
    assert!(positions.iter().all(|&p| config.bounds.contains(p)));
}

#[test]
fn appending_bad_boids_is_refused_and_changes_nothing() {
    let config = FlockConfig::default();
    let start = Flock::random(50, &config, 4);
    let Some(mut flock) = gpu_flock(config, start.positions(), start.velocities()) else {
        return;
    };
    let more = Flock::random(10, &config, 5);
    let mut positions = more.positions().to_vec();
    positions[4].y = f32::INFINITY;
    assert_eq!(
        flock.append(&positions, more.velocities()),
        Err(GpuError::NotFinite {
            boid: 4,
            what: "position"
        })
    );
    let mut velocities = more.velocities().to_vec();
    velocities[9].x = f32::NAN;
    assert!(matches!(
        flock.append(more.positions(), &velocities),
        Err(GpuError::NotFinite {
            boid: 9,
            what: "velocity"
        })
    ));
    assert!(matches!(
        flock.append(more.positions(), &more.velocities()[..3]),
        Err(GpuError::LengthMismatch { .. })
    ));
    assert_eq!(flock.len(), 50);
    assert_eq!(
        flock.read_back().unwrap(),
        (start.positions().to_vec(), start.velocities().to_vec()),
        "the refused calls changed nothing"
    );
    // The device's limit is the one a new flock is refused past.
    let limit = flock.max_capacity();
    assert!(limit >= flock.capacity());
    let (device, queue) = device().unwrap();
    assert_eq!(
        DeviceFlock::new(device, queue, config, limit + 1).err(),
        Some(GpuError::TooManyBoids {
            requested: limit + 1,
            limit
        })
    );
}

#[test]
fn the_device_times_steps_where_it_can() {
    let config = FlockConfig::default();
    let start = Flock::random(2_000, &config, 6);
    let Some(mut flock) = gpu_flock(config, start.positions(), start.velocities()) else {
        return;
    };
    let timestamps = device()
        .is_some_and(|(device, _)| device.features().contains(wgpu::Features::TIMESTAMP_QUERY));
    assert_eq!(flock.last_step_time(), None, "no step yet");
    // A timed step, waited for, then one more to take its times in.
    for _ in 0..3 {
        flock.step(1.0 / 60.0).unwrap();
        flock.wait().unwrap();
    }
    match flock.last_step_time() {
        Some(time) => {
            assert!(timestamps);
            // Some work was timed, and not an absurd amount (a counter read wrong).
            assert!(time.as_nanos() > 0, "{time:?}");
            assert!(time.as_secs() < 60, "{time:?}");
        }
        None => assert!(!timestamps, "the device has timestamps but timed nothing"),
    }
    eprintln!(
        "timestamps: {timestamps}, last step {:?}",
        flock.last_step_time()
    );
}
