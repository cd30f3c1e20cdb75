//! The GPU kernel against the CPU kernel: one step from the same state gives the same boids to
//! within rounding (sums are taken in another order), for every edge mode, speed mode and force
//! limit, with a field of view; and 300 steps of 10k boids give a flock that is as aligned and
//! as tightly packed as the CPU's from the same start. `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use common::{all_finite, gpu_flock, world_size};
use flock_core::metrics::{mean_nearest_neighbour_distance, polarisation};
use flock_core::{
    EdgeMode, Flock, FlockConfig, ForceLimit, Grid, NeighbourIndex, Serial, Space, SpeedMode,
    Vector,
};

/// The largest difference between two sets of vectors, across the seams where `space` wraps.
fn largest_difference(a: &[Vector], b: &[Vector], space: &Space) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| space.delta(*a, *b).length())
        .fold(0.0, f32::max)
}

#[test]
fn one_step_matches_the_cpu_kernel_in_every_mode() {
    let edge_modes = [
        (EdgeMode::Wrap, true),
        (EdgeMode::Wrap, false),
        (EdgeMode::Jump, false),
        (EdgeMode::Bounce, false),
        (EdgeMode::Free, false),
    ];
    let speed_modes = [
        SpeedMode::Constant,
        SpeedMode::Clamp { min_speed: 0.0 },
        SpeedMode::Clamp { min_speed: 60.0 },
    ];
    let mut worst = (0.0f32, 0.0f32);
    for (edges, wrap_neighbours) in edge_modes {
        for speed_mode in speed_modes {
            for force_limit in [ForceLimit::Truncate, ForceLimit::Rescale] {
                for view_angle_degrees in [360.0, 270.0] {
                    let config = FlockConfig {
                        edges,
                        wrap_neighbours,
                        speed_mode,
                        force_limit,
                        view_angle_degrees,
                        mass: 1.5,
                        response_time: 0.05,
                        ..FlockConfig::default()
                    };
                    let case = format!(
                        "{edges:?} (wrap neighbours {wrap_neighbours}), {speed_mode:?}, \
                         {force_limit:?}, view {view_angle_degrees}"
                    );
                    let mut cpu = Flock::random(3000, &config, 11);
                    let Some(mut gpu) = gpu_flock(config, cpu.positions(), cpu.velocities()) else {
                        return;
                    };
                    // A large step, so edges are crossed and speeds clamped.
                    let dt = 0.1;
                    cpu.step(&config, dt);
                    gpu.step(dt).unwrap();
                    let (positions, velocities) = gpu.read_back().unwrap();
                    assert!(all_finite(&positions) && all_finite(&velocities), "{case}");
                    let tolerance = 1e-4 * world_size(&config);
                    // Wrapped edges: a boid on the seam may land on either side of it.
                    let seams = Space {
                        bounds: config.bounds,
                        periodic: edges == EdgeMode::Wrap,
                    };
                    let position_error = largest_difference(&positions, cpu.positions(), &seams);
                    let plain = Space {
                        periodic: false,
                        ..seams
                    };
                    let velocity_error = largest_difference(&velocities, cpu.velocities(), &plain);
                    assert!(
                        position_error <= tolerance && velocity_error <= tolerance,
                        "{case}: positions differ by {position_error}, velocities by \
                         {velocity_error}; tolerance {tolerance}"
                    );
                    worst = (worst.0.max(position_error), worst.1.max(velocity_error));
                }
            }
        }
    }
    println!(
        "largest difference after one step: positions {}, velocities {} (world {})",
        worst.0,
        worst.1,
        world_size(&FlockConfig::default())
    );
}

/// Polarisation and mean nearest-neighbour distance of a flock.
fn measures(positions: &[Vector], velocities: &[Vector], config: &FlockConfig) -> (f32, f32) {
    let space = Space::of(config);
    let mut grid = Grid::default();
    grid.rebuild(positions, &space, config.max_radius(), &Serial);
    let nearest =
        mean_nearest_neighbour_distance(positions, &space, &grid, config.max_radius(), 2000)
            .expect("two boids or more");
    (polarisation(velocities), nearest)
}

#[test]
fn three_hundred_steps_of_ten_thousand_boids_flock_as_the_cpu_does() {
    let config = FlockConfig::default();
    let mut cpu = Flock::random(10_000, &config, 3);
    let Some(mut gpu) = gpu_flock(config, cpu.positions(), cpu.velocities()) else {
        return;
    };
    let dt = 1.0 / 60.0;
    for _ in 0..300 {
        cpu.step(&config, dt);
        gpu.step(dt).unwrap();
    }
    let (positions, velocities) = gpu.read_back().unwrap();
    assert_eq!(positions.len(), 10_000);
    assert!(all_finite(&positions) && all_finite(&velocities));
    assert!(positions.iter().all(|p| config.bounds.contains(*p)));
    let (cpu_polarisation, cpu_nearest) = measures(cpu.positions(), cpu.velocities(), &config);
    let (gpu_polarisation, gpu_nearest) = measures(&positions, &velocities, &config);
    println!(
        "after 300 steps: polarisation CPU {cpu_polarisation}, GPU {gpu_polarisation}; \
         mean nearest-neighbour distance CPU {cpu_nearest}, GPU {gpu_nearest}"
    );
    assert!(
        (gpu_polarisation - cpu_polarisation).abs() <= 0.1 * cpu_polarisation,
        "polarisation: CPU {cpu_polarisation}, GPU {gpu_polarisation}"
    );
    assert!(
        (gpu_nearest - cpu_nearest).abs() <= 0.1 * cpu_nearest,
        "mean nearest-neighbour distance: CPU {cpu_nearest}, GPU {gpu_nearest}"
    );
}
