//! The GPU kernel against the CPU kernel: one step from the same state gives the same boids to
//! within rounding (sums are taken in another order), for every edge mode, speed mode and force
//! limit, with a field of view, with forces at their limit and many below it; on grids of many
//! cells (several scan blocks, and past 2^20 cells the scan's third level), of cells widened
//! past the radius, and dispatched in rows of
//! workgroups along y as well as x; and 300 steps of 10k boids give a flock that is as aligned
//! and as tightly packed as the CPU's from the same start.
//! Velocities are compared to within a share of the maximum speed, positions of the world's
//! size. `flock_gpu3d` runs the same cases in 3D.

#[cfg(flock_3d)]
extern crate flock_gpu3d as flock_gpu;

mod common;

use common::{all_finite, device, gpu_flock, world_size};
use flock_core::metrics::{mean_nearest_neighbour_distance, polarisation};
use flock_core::{
    DIMENSIONS, EdgeMode, Flock, FlockConfig, ForceLimit, Grid, NeighbourIndex, Serial, Space,
    SpeedMode, StepConstants, Vector, rule_forces,
};
use flock_gpu::DeviceFlock;

/// Positions may differ by this share of the world's size.
const POSITION_TOLERANCE: f32 = 1e-5;
/// Velocities may differ by this share of the maximum speed.
const VELOCITY_TOLERANCE: f32 = 1e-4;

/// The largest difference between two sets of vectors, across the seams where `space` wraps.
fn largest_difference(a: &[Vector], b: &[Vector], space: &Space) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| space.delta(*a, *b).length())
        .fold(0.0, f32::max)
}

/// Steps `start` once by `dt` on the CPU and on `gpu` (which takes the config and the boids)
/// and returns the largest position and velocity differences, checked against the
/// tolerances.
fn one_step_differences(
    gpu: &mut DeviceFlock,
    config: FlockConfig,
    mut cpu: Flock,
    dt: f32,
    case: &str,
) -> (f32, f32) {
    gpu.set_config(config).unwrap();
    gpu.upload(cpu.positions(), cpu.velocities()).unwrap();
    cpu.step(&config, dt);
    gpu.step(dt).unwrap();
    let (positions, velocities) = gpu.read_back().unwrap();
    assert!(all_finite(&positions) && all_finite(&velocities), "{case}");
    // Wrapped edges: a boid on the seam may land on either side of it.
    let seams = Space {
        bounds: config.bounds,
        periodic: config.edges == EdgeMode::Wrap,
    };
    let plain = Space {
        periodic: false,
        ..seams
    };
    let position_error = largest_difference(&positions, cpu.positions(), &seams);
    let velocity_error = largest_difference(&velocities, cpu.velocities(), &plain);
    let position_tolerance = POSITION_TOLERANCE * world_size(&config);
    let velocity_tolerance = VELOCITY_TOLERANCE * config.max_speed;
    assert!(
        position_error <= position_tolerance && velocity_error <= velocity_tolerance,
        "{case}: positions differ by {position_error} (tolerance {position_tolerance}), \
         velocities by {velocity_error} (tolerance {velocity_tolerance})"
    );
    (position_error, velocity_error)
}

/// The share of the rule forces (separation, alignment and cohesion of every boid that has
/// neighbours for them) that are below `config.max_force` before the limit, as the CPU
/// kernel's reference sums give them over every boid: how much of the step the limit leaves
/// alone.
fn share_below_force_limit(flock: &Flock, config: &FlockConfig) -> f32 {
    let unlimited = StepConstants::new(&FlockConfig {
        force_limit: ForceLimit::Truncate,
        max_force: f32::MAX,
        ..*config
    });
    let everyone: Vec<u32> = (0..flock.len() as u32).collect();
    let (mut acting, mut below) = (0usize, 0usize);
    for me in 0..flock.len() {
        let forces = rule_forces(
            me,
            flock.positions(),
            flock.velocities(),
            &everyone,
            &unlimited,
        );
        for force in [forces.separation, forces.alignment, forces.cohesion] {
            if force != Vector::ZERO {
                acting += 1;
                below += usize::from(force.length() < config.max_force);
            }
        }
    }
    below as f32 / acting.max(1) as f32
}

/// The forces' two regimes, from `config`'s response time: the limit the source documents
/// set, which nearly every rule force reaches; and a limit of the maximum speed over the
/// response time, which a rule force passes only when the desired velocity is more than 60
/// degrees off the boid's own (both at full speed): with random headings about a third of the
/// rule forces stay below it, so the unlimited branch is compared too.
fn force_regimes(config: FlockConfig) -> [(&'static str, FlockConfig); 2] {
    let mixed = FlockConfig {
        max_force: config.max_speed / config.response_time,
        ..config
    };
    [
        ("at the force limit", config),
        ("many below the limit", mixed),
    ]
}

/// Checks that the regimes are what [`force_regimes`] says on `start`'s boids, and returns
/// the shares below the limit.
fn check_regimes(start: &Flock, config: FlockConfig) -> [f32; 2] {
    let [(_, at_limit), (_, mixed)] = force_regimes(config);
    let shares = [
        share_below_force_limit(start, &at_limit),
        share_below_force_limit(start, &mixed),
    ];
    assert!(shares[0] < 0.05, "{shares:?} of the forces below the limit");
    assert!(
        (0.2..0.8).contains(&shares[1]),
        "{shares:?} of the forces below the limit"
    );
    shares
}

#[test]
fn one_step_matches_the_cpu_kernel_in_every_mode() {
    let Some((device, queue)) = device() else {
        return;
    };
    let mut gpu = DeviceFlock::new(device, queue, FlockConfig::default(), 3000).unwrap();
    let shares = check_regimes(
        &Flock::random(3000, &FlockConfig::default(), 11),
        FlockConfig::default(),
    );
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
                        ..FlockConfig::default()
                    };
                    for (regime, config) in force_regimes(config) {
                        let case = format!(
                            "{edges:?} (wrap neighbours {wrap_neighbours}), {speed_mode:?}, \
                             {force_limit:?}, view {view_angle_degrees}, {regime}"
                        );
                        let cpu = Flock::random(3000, &config, 11);
                        // A large step, so edges are crossed and speeds clamped.
                        let (position, velocity) =
                            one_step_differences(&mut gpu, config, cpu, 0.1, &case);
                        worst = (worst.0.max(position), worst.1.max(velocity));
                    }
                }
            }
        }
    }
    let config = FlockConfig::default();
    println!(
        "rule forces below the limit: {:.1}% (the documents' limit), {:.1}% (the lower one); \
         largest difference after one step: positions {} ({:.1e} of the world's {}), \
         velocities {} ({:.1e} of the max speed {})",
        100.0 * shares[0],
        100.0 * shares[1],
        worst.0,
        worst.0 / world_size(&config),
        world_size(&config),
        worst.1,
        worst.1 / config.max_speed,
        config.max_speed,
    );
}

#[test]
fn grids_of_many_scan_blocks_widened_cells_and_two_dimensional_dispatches_match_the_cpu() {
    let Some((device, queue)) = device() else {
        return;
    };
    let small_radii = FlockConfig {
        separation_radius: 3.0,
        alignment_radius: 5.0,
        cohesion_radius: 5.0,
        ..FlockConfig::default()
    };
    let mut gpu = DeviceFlock::new(device, queue, small_radii, 0).unwrap();
    let run = |gpu: &mut DeviceFlock, config: FlockConfig, cpu: Flock, case: String| {
        let (position, velocity) = one_step_differences(gpu, config, cpu, 1.0 / 60.0, &case);
        println!(
            "{case}: positions differ by {position:.2e}, velocities by {velocity:.2e} \
             ({:.1e} of the max speed)",
            velocity / config.max_speed
        );
    };
    for (regime, config) in force_regimes(small_radii) {
        // 20k boids: thousands of cells (2D: tens of thousands), a scan over many blocks of
        // 1024.
        let cpu = Flock::random(20_000, &config, 5);
        gpu.set_config(config).unwrap();
        gpu.upload(cpu.positions(), cpu.velocities()).unwrap();
        let cells: u32 = gpu.grid_cells().iter().product();
        assert!(cells > 4 * 1024, "{cells} cells: one scan block");
        run(&mut gpu, config, cpu, format!("{cells} cells, {regime}"));

        // 300 boids: the grid is capped at 4096 cells, each far wider than the radius.
        let cpu = Flock::random(300, &config, 6);
        gpu.upload(cpu.positions(), cpu.velocities()).unwrap();
        let cells = gpu.grid_cells();
        let size = config.bounds.size();
        let widened = (0..DIMENSIONS)
            .all(|axis| (cells[axis] as f32) < size[axis] / config.max_radius() / 2.0);
        assert!(widened, "{cells:?} cells are not widened");
        run(
            &mut gpu,
            config,
            cpu,
            format!("{cells:?} widened cells, {regime}"),
        );

        // 5000 boids in rows of 3 workgroups: every pass dispatched along y too.
        let cpu = Flock::random(5000, &config, 7);
        gpu.set_groups_per_row(3);
        run(&mut gpu, config, cpu, format!("a 2D dispatch, {regime}"));
        gpu.set_groups_per_row(u32::MAX);

        // More than 2^20 cells (4000 boids allowed 400 cells each, in a world thousands of
        // radii wide): the scan's third level, and its first level dispatched in rows.
        let mut wide = config;
        wide.bounds.max = wide.bounds.min
            + Vector::splat(match DIMENSIONS {
                2 => 10_000.0,
                _ => 1_000.0,
            });
        let cpu = Flock::random(4000, &wide, 8);
        gpu.set_cells_per_boid(400);
        gpu.set_config(wide).unwrap();
        gpu.upload(cpu.positions(), cpu.velocities()).unwrap();
        let cells: u32 = gpu.grid_cells().iter().product();
        assert!(cells > 1 << 20, "{cells} cells: two scan levels hold them");
        run(&mut gpu, wide, cpu, format!("{cells} cells, {regime}"));
        gpu.set_cells_per_boid(2);
    }
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

#[test]
fn a_free_edge_flock_far_out_of_its_bounds_gets_a_grid_of_its_own_and_matches_the_cpu() {
    let Some((device, queue)) = device() else {
        return;
    };
    let config = FlockConfig {
        edges: EdgeMode::Free,
        separation_radius: 3.0,
        alignment_radius: 5.0,
        cohesion_radius: 5.0,
        ..FlockConfig::default()
    };
    // 4000 boids in a square a fifth of the world's side, ten worlds away from the bounds:
    // clamped into the bounds' edge cells they would all share one.
    let mut far = config;
    let side = config.bounds.size() / 5.0;
    far.bounds.min = config.bounds.max + config.bounds.size() * 10.0;
    far.bounds.max = far.bounds.min + side;
    let cpu = Flock::random(4000, &far, 11);
    let mut gpu = DeviceFlock::new(device, queue, config, 0).unwrap();
    let (position, velocity) =
        one_step_differences(&mut gpu, config, cpu, 1.0 / 60.0, "a flock out of bounds");
    println!("out of bounds: positions differ by {position:.2e}, velocities by {velocity:.2e}");
    let (origin, cells) = gpu.fitted_grid().unwrap();
    let configured = gpu.grid_cells();
    for axis in 0..DIMENSIONS {
        assert!(
            (origin[axis] - far.bounds.min[axis]).abs() < side[axis] * 0.01,
            "the grid starts at {origin:?}, not at the flock ({:?})",
            far.bounds.min
        );
        // As many cells across the flock as the configured grid has across a fifth of the
        // world, give or take the rounding of the flock's extent.
        let across = configured[axis] / 5;
        assert!(
            cells[axis] + 1 >= across && cells[axis] <= configured[axis],
            "{cells:?} cells across the flock, {configured:?} configured"
        );
    }

    // Inside the bounds, and with edges that keep boids in them, the configured grid.
    let wrapped = FlockConfig {
        edges: EdgeMode::Wrap,
        ..config
    };
    let cpu = Flock::random(4000, &wrapped, 12);
    one_step_differences(&mut gpu, wrapped, cpu, 1.0 / 60.0, "a wrapped flock");
    let (origin, cells) = gpu.fitted_grid().unwrap();
    assert_eq!(cells, gpu.grid_cells());
    for (axis, start) in origin.iter().enumerate().take(DIMENSIONS) {
        assert_eq!(*start, wrapped.bounds.min[axis]);
    }
}
