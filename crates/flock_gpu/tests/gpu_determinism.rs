//! The same results every run on one device: each cell's boids are visited in index order, so
//! two flocks stepped from the same start give the same buffers bit for bit, whether the
//! passes are dispatched along one axis or two, and whether the flock compiled its pipelines
//! or shares ones compiled beforehand. `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use common::gpu_flock;
use flock_core::{Flock, FlockConfig, Vector};

/// The bits of every coordinate, so equal means bit for bit (NaN included).
fn bits(values: &[Vector]) -> Vec<u32> {
    values
        .iter()
        .flat_map(|value| value.to_array())
        .map(f32::to_bits)
        .collect()
}

/// A crowded flock: many boids share each cell, so their order inside it matters.
fn crowded() -> (FlockConfig, Flock) {
    let config = FlockConfig {
        bounds: flock_core::Bounds::centered(Vector::splat(300.0)),
        ..FlockConfig::default()
    };
    let start = Flock::random(6000, &config, 21);
    (config, start)
}

/// Steps a new GPU flock from `start` and reads it back as bits; `None` without a device.
fn run(
    config: FlockConfig,
    start: &Flock,
    steps: usize,
    groups_per_axis: Option<u32>,
) -> Option<(Vec<u32>, Vec<u32>)> {
    let mut flock = gpu_flock(config, start.positions(), start.velocities())?;
    if let Some(groups) = groups_per_axis {
        flock.set_groups_per_row(groups);
    }
    for _ in 0..steps {
        flock.step(1.0 / 60.0).unwrap();
    }
    let (positions, velocities) = flock.read_back().unwrap();
    Some((bits(&positions), bits(&velocities)))
}

#[test]
fn two_runs_from_one_start_give_the_same_bits() {
    let (config, start) = crowded();
    let Some(first) = run(config, &start, 60, None) else {
        return;
    };
    let second = run(config, &start, 60, None).unwrap();
    let moved = bits(start.positions()) != first.0;
    assert!(moved, "the flock moved");
    assert!(first == second, "two runs on one device differ");
}

#[test]
fn a_two_dimensional_dispatch_gives_the_same_bits_as_one_along_x() {
    let (config, start) = crowded();
    // 6000 boids are 24 workgroups: three per row makes every pass dispatch along y too.
    let Some(along_x) = run(config, &start, 30, None) else {
        return;
    };
    let two_dimensional = run(config, &start, 30, Some(3)).unwrap();
    assert!(
        along_x == two_dimensional,
        "a two-dimensional dispatch changed the flock"
    );
}

#[test]
fn flocks_sharing_pipelines_compiled_beforehand_step_as_one_that_compiles_its_own() {
    let (config, start) = crowded();
    let Some(own) = run(config, &start, 30, None) else {
        return;
    };
    let (device, queue) = common::device().unwrap();
    let compiled = std::sync::Arc::new(flock_gpu::FlockPipelines::new(device).unwrap());
    // Two flocks on the same pipelines, stepped in turn: neither disturbs the other.
    let mut flocks = [0, 1].map(|_| {
        let shared = std::sync::Arc::clone(&compiled);
        let mut flock = flock_gpu::DeviceFlock::with_pipelines(shared, queue, config, 0).unwrap();
        flock.upload(start.positions(), start.velocities()).unwrap();
        flock
    });
    for _ in 0..30 {
        for flock in &mut flocks {
            flock.step(1.0 / 60.0).unwrap();
        }
    }
    for flock in &flocks {
        assert!(flock.device() == compiled.device());
        let (positions, velocities) = flock.read_back().unwrap();
        assert!((bits(&positions), bits(&velocities)) == own);
    }

    // Invalid settings are refused as `new` refuses them.
    let bad = FlockConfig {
        max_speed: f32::NAN,
        ..config
    };
    let error = flock_gpu::DeviceFlock::with_pipelines(compiled, queue, bad, 0)
        .err()
        .expect("a NaN max speed");
    assert!(error.to_string().contains("max_speed"), "{error}");
}
