//! The GPU flock in a headless app with Bevy's renderer (feature `gpu`): the render world steps
//! it once per fixed step of the main world, the read-back matches `flock_gpu` stepped on its
//! own from the same start, invalid settings and boids are refused, spawning and clearing
//! change the count, counts that cannot fit are refused before a boid is made (the device's
//! limit known from the start, and learnt by a handle inserted later), a device with lower
//! limits holds exactly what they allow, and one that cannot run the flock stops it with a
//! reason while the app runs on; the flock's pipelines compile off the frames, with the boids
//! spawned meanwhile waiting for them. `bevy_flock3d` runs the same cases in 3D (`[[test]] path` in
//! its manifest).
//!
//! They need a GPU adapter; Mesa's lavapipe is one (`VK_ICD_FILENAMES=
//! /usr/share/vulkan/icd.d/lvp_icd.x86_64.json`). Without an adapter each test says so and
//! passes, unless `FLOCK_REQUIRE_GPU=1` (CI), which makes it fail instead.
#![cfg(feature = "gpu")]

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::time::Duration;

use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::RenderPlugin;
use bevy::render::settings::{RenderCreation, WgpuSettings};
use bevy::time::TimeUpdateStrategy;
use bevy_flock::flock_core::{Flock, FlockConfig, Vector};
use bevy_flock::gpu::flock_gpu;
use bevy_flock::gpu::{GpuFlock, GpuFlockReadback, RenderGpuFlock};
use bevy_flock::prelude::{BoidsPlugin, FlockClock, FlockSettings, Placement};
use common::HZ;
use common::gpu::{
    FixedRuns, gpu_app, gpu_app_compiling, gpu_app_on, gpu_app_with, gpu_available,
    wait_for_pipelines,
};

fn handle(app: &App) -> &GpuFlock {
    app.world().resource::<GpuFlock>()
}

fn handle_mut(app: &mut App) -> Mut<'_, GpuFlock> {
    app.world_mut().resource_mut::<GpuFlock>()
}

fn on_device(app: &App) -> &RenderGpuFlock {
    app.sub_app(RenderApp).world().resource::<RenderGpuFlock>()
}

fn readback(app: &App) -> &GpuFlockReadback {
    app.world().resource::<GpuFlockReadback>()
}

/// Updates (paused, so no more steps are added) until a read-back of the current step has
/// arrived.
fn settle(app: &mut App) {
    handle_mut(app).set_readback(true);
    handle_mut(app).set_paused(true);
    for _ in 0..200 {
        app.update();
        let steps = on_device(app).steps();
        let arrived = readback(app);
        if arrived.steps == steps && arrived.positions.len() == on_device(app).len() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no read-back of the current step after 200 frames");
}

/// The largest difference of any coordinate.
fn largest_difference(a: &[Vector], b: &[Vector]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(a, b)| (*a - *b).abs().max_element())
        .fold(0.0, f32::max)
}

fn config() -> FlockConfig {
    FlockConfig::default()
}

#[test]
fn the_render_world_steps_once_per_fixed_step_and_the_readback_matches_the_kernel() {
    if !gpu_available() {
        return;
    }
    const BOIDS: usize = 2_000;
    // Few enough steps that rounding differences (below) have not grown into different
    // flights: the flock is chaotic.
    const FRAMES: u64 = 12;
    let start = Flock::random(BOIDS, &config(), 7);
    let mut flock = GpuFlock::new(config(), 1);
    assert_eq!(
        flock.spawn_states(start.positions(), start.velocities()),
        BOIDS
    );
    let mut app = gpu_app(flock);
    for _ in 0..FRAMES / 2 {
        app.update();
    }
    // Invalid settings change nothing: the flock below is stepped with the valid ones.
    let mut invalid = config();
    invalid.max_speed = f32::NAN;
    assert!(handle_mut(&mut app).set_config(invalid).is_err());
    for _ in FRAMES / 2..FRAMES {
        app.update();
    }
    settle(&mut app);

    let fixed_runs = app.world().resource::<FixedRuns>().0;
    assert!(
        fixed_runs >= FRAMES - 1,
        "{fixed_runs} fixed steps in {FRAMES} frames"
    );
    // Paused, the fixed steps of `settle` are not run; every one before was, once.
    let steps = on_device(&app).steps();
    assert_eq!(steps, handle(&app).steps_taken());
    assert!(
        steps >= FRAMES - 1 && steps <= fixed_runs,
        "{steps} of {fixed_runs}"
    );

    let (device, queue, _) = flock_gpu::request_device().unwrap();
    let mut direct = flock_gpu::DeviceFlock::new(&device, &queue, config(), BOIDS).unwrap();
    direct
        .upload(start.positions(), start.velocities())
        .unwrap();
    for _ in 0..steps {
        direct.step((1.0 / HZ) as f32).unwrap();
    }
    let (positions, velocities) = direct.read_back().unwrap();
    let arrived = readback(&app);
    assert_eq!(arrived.steps, steps);
    // Sums are taken in another order on the device from run to run (atomics fill the grid's
    // cells), so the two agree to rounding, not bit for bit.
    let size = config().bounds.size().max_element();
    let position_error = largest_difference(&arrived.positions, &positions);
    let velocity_error = largest_difference(&arrived.velocities, &velocities);
    eprintln!(
        "{steps} steps: positions differ by {position_error}, velocities by {velocity_error}"
    );
    assert!(
        position_error <= 1e-4 * size,
        "positions differ by {position_error}"
    );
    assert!(
        velocity_error <= 1e-4 * size,
        "velocities differ by {velocity_error}"
    );
    assert_ne!(arrived.positions, start.positions(), "the flock moved");
}

#[test]
fn spawning_and_clearing_change_the_count_on_the_device() {
    if !gpu_available() {
        return;
    }
    let mut app = gpu_app(GpuFlock::new(config(), 3));
    app.update();
    assert_eq!(on_device(&app).len(), 0);

    assert_eq!(
        handle_mut(&mut app).spawn(300, Placement::RandomInBounds),
        300
    );
    app.update();
    assert_eq!(handle(&app).len(), 300);
    assert_eq!(on_device(&app).len(), 300);

    // Added after the others, which keep their state.
    settle(&mut app);
    let before = readback(&app).positions.clone();
    handle_mut(&mut app).set_paused(true);
    let at = Vector::splat(10.0);
    assert_eq!(handle_mut(&mut app).spawn(200, Placement::At(at)), 200);
    settle(&mut app);
    assert_eq!(on_device(&app).len(), 500);
    assert_eq!(readback(&app).positions[..300], before[..]);
    assert!(readback(&app).positions[300..].iter().all(|p| *p == at));

    handle_mut(&mut app).clear();
    assert_eq!(handle(&app).len(), 0);
    app.update();
    assert_eq!(on_device(&app).len(), 0);

    // Cleared and spawned in one frame: in order.
    handle_mut(&mut app).spawn(10, Placement::RandomInBounds);
    handle_mut(&mut app).clear();
    handle_mut(&mut app).spawn(20, Placement::RandomInBounds);
    app.update();
    assert_eq!(handle(&app).len(), 20);
    assert_eq!(on_device(&app).len(), 20);

    // Zero boids is no order at all.
    assert_eq!(handle_mut(&mut app).spawn(0, Placement::RandomInBounds), 0);
    app.update();
    assert_eq!(on_device(&app).len(), 20);
}

#[test]
fn hostile_orders_are_refused_and_hostile_flocks_stay_finite() {
    if !gpu_available() {
        return;
    }
    let mut flock = GpuFlock::new(config(), 5);

    // Settings: each class refused, the settings unchanged.
    let valid = *flock.config();
    let mut hostile = Vec::new();
    for value in [f32::NAN, f32::INFINITY, -1.0, 0.0] {
        let mut speed = valid;
        speed.max_speed = value;
        hostile.push(speed);
        let mut response = valid;
        response.response_time = value;
        hostile.push(response);
    }
    let mut radius = valid;
    radius.separation_radius = -5.0;
    hostile.push(radius);
    let mut inverted = valid;
    inverted.bounds.min = valid.bounds.max;
    inverted.bounds.max = valid.bounds.min;
    hostile.push(inverted);
    // Topological neighbours: the CPU flock's rule, refused rather than run as metric ones.
    let mut topological = valid;
    topological.neighbours = bevy_flock::flock_core::Neighbours::Nearest { k: 7 };
    hostile.push(topological);
    for config in hostile {
        assert!(flock.set_config(config).is_err(), "{config:?} accepted");
        assert_eq!(*flock.config(), valid);
    }

    // Boids: not finite, or a velocity missing: none added.
    let mut not_finite = vec![Vector::ZERO; 4];
    not_finite[2].x = f32::NAN;
    assert_eq!(flock.spawn_states(&not_finite, &[Vector::X; 4]), 0);
    assert_eq!(flock.spawn_states(&[Vector::ZERO; 4], &[Vector::X; 3]), 0);
    assert_eq!(
        flock.spawn(5, Placement::At(Vector::splat(f32::INFINITY))),
        0
    );
    assert_eq!(flock.len(), 0);

    // Every boid on one point: they part without a NaN and stay in the bounds.
    assert_eq!(flock.spawn(1_000, Placement::At(Vector::ZERO)), 1_000);
    let mut app = gpu_app(flock);
    for _ in 0..60 {
        app.update();
    }
    settle(&mut app);
    let arrived = readback(&app);
    let bounds = config().bounds;
    assert_eq!(arrived.positions.len(), 1_000);
    for (position, velocity) in arrived.positions.iter().zip(&arrived.velocities) {
        assert!(position.is_finite() && velocity.is_finite());
        assert!(position.cmpge(bounds.min).all() && position.cmple(bounds.max).all());
    }
    assert!(
        arrived.positions.iter().any(|p| *p != Vector::ZERO),
        "they parted"
    );

    // A huge world, accepted by validation, steps without a NaN.
    let mut huge = config();
    huge.bounds.min = Vector::splat(-1.0e7);
    huge.bounds.max = Vector::splat(1.0e7);
    assert!(handle_mut(&mut app).set_config(huge).is_ok());
    handle_mut(&mut app).set_paused(false);
    for _ in 0..10 {
        app.update();
    }
    settle(&mut app);
    assert!(readback(&app).positions.iter().all(|p| p.is_finite()));

    // More steps than a frame runs are dropped, not carried over.
    handle_mut(&mut app).set_paused(false);
    handle_mut(&mut app).set_max_steps_per_frame(0);
    assert_eq!(handle(&app).max_steps_per_frame(), 1);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        5.0 / HZ,
    )));
    let before = on_device(&app).steps();
    app.update();
    assert_eq!(on_device(&app).steps(), before + 1);
}

#[test]
fn the_step_time_comes_back() {
    if !gpu_available() {
        return;
    }
    let start = Flock::random(500, &config(), 3);
    let mut flock = GpuFlock::new(config(), 1);
    flock.spawn_states(start.positions(), start.velocities());
    let mut app = gpu_app(flock);
    assert_eq!(handle(&app).step_time(), None);
    let timestamps = app
        .world()
        .resource::<bevy::render::renderer::RenderDevice>()
        .features()
        .contains(flock_gpu::wgpu::Features::TIMESTAMP_QUERY);
    for _ in 0..60 {
        app.update();
        if handle(&app).step_time().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // Where the device has timestamps, a measured step; else none, never a made-up one.
    match handle(&app).step_time() {
        Some(time) => assert!(timestamps && time > Duration::ZERO && time.as_secs() < 60),
        None => assert!(!timestamps, "the device has timestamps, yet no step time"),
    }
}

#[test]
fn the_gpu_flock_can_follow_the_cpu_flocks_settings_and_clock() {
    if !gpu_available() {
        return;
    }
    let start = Flock::random(500, &config(), 3);
    let mut flock = GpuFlock::new(config(), 1);
    flock.spawn_states(start.positions(), start.velocities());
    let settings = FlockSettings {
        config: config(),
        ..default()
    };
    let mut app = gpu_app_with(
        flock,
        (
            BoidsPlugin::default().with_step_rate(Some(HZ)),
            move |app: &mut App| {
                app.insert_resource(settings.clone())
                    .add_systems(Update, bevy_flock::gpu::follow_cpu_flock);
            },
        ),
    );
    app.update();

    // New settings for the CPU flock reach the GPU flock; settings it refuses leave it as is.
    let radius = config().alignment_radius * 2.0;
    app.world_mut()
        .resource_mut::<FlockSettings>()
        .config
        .alignment_radius = radius;
    app.update();
    assert_eq!(handle(&app).config().alignment_radius, radius);
    app.world_mut()
        .resource_mut::<FlockSettings>()
        .config
        .cohesion_radius = f32::NAN;
    app.update();
    assert_eq!(handle(&app).config().alignment_radius, radius);
    assert_eq!(
        handle(&app).config().cohesion_radius,
        config().cohesion_radius
    );

    // The clock paused: no more steps on the device; a single step of the clock: one.
    app.world_mut().resource_mut::<FlockClock>().pause();
    app.update();
    assert!(handle(&app).is_paused());
    let steps = on_device(&app).steps();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(on_device(&app).steps(), steps);
    app.world_mut().resource_mut::<FlockClock>().step_once();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(on_device(&app).steps(), steps + 1);
    // A bad single step is refused.
    for dt in [f32::NAN, 0.0, -1.0, f32::INFINITY] {
        handle_mut(&mut app).step_once(dt);
    }
    app.update();
    assert_eq!(on_device(&app).steps(), steps + 1);
    // The clock running again: so is the flock.
    app.world_mut().resource_mut::<FlockClock>().resume();
    app.update();
    app.update();
    assert!(!handle(&app).is_paused());
    assert!(on_device(&app).steps() > steps + 1);
}

#[test]
fn counts_that_cannot_fit_are_refused_before_any_boid_is_made() {
    if !gpu_available() {
        return;
    }
    let mut app = gpu_app(GpuFlock::new(config(), 2));
    // Known once the app is finished, before the first frame (a `Startup` system's spawn).
    let limits = app
        .world()
        .resource::<bevy::render::renderer::RenderDevice>()
        .limits();
    let limit = flock_gpu::max_boids(&limits);
    assert!(limit > 0 && limit <= flock_gpu::MAX_BOIDS, "limit {limit}");
    assert_eq!(handle(&app).device_limit(), limit);
    assert_eq!(handle(&app).stopped(), None);

    // Absurd counts and one past the limit: refused at once (nothing is allocated: a
    // trillion boids would abort the test), the count unchanged.
    for count in [1_000_000_000_000, usize::MAX, limit + 1] {
        assert_eq!(
            handle_mut(&mut app).spawn(count, Placement::RandomInBounds),
            0
        );
        assert_eq!(handle(&app).len(), 0);
    }
    // Up to the limit with the boids there are: 100 fit, the limit less 99 more do not.
    assert_eq!(
        handle_mut(&mut app).spawn(100, Placement::RandomInBounds),
        100
    );
    assert_eq!(
        handle_mut(&mut app).spawn(limit - 99, Placement::RandomInBounds),
        0
    );
    // Zero boids: none, no order.
    assert_eq!(handle_mut(&mut app).spawn(0, Placement::RandomInBounds), 0);
    app.update();
    assert_eq!(handle(&app).len(), 100);
    assert_eq!(on_device(&app).len(), 100);
}

#[test]
fn non_finite_spawn_parameters_add_nothing() {
    if !gpu_available() {
        return;
    }
    let mut app = gpu_app(GpuFlock::new(config(), 4));
    for point in [
        Vector::splat(f32::NAN),
        Vector::splat(f32::INFINITY),
        Vector::X * f32::NEG_INFINITY,
    ] {
        assert_eq!(handle_mut(&mut app).spawn(10, Placement::At(point)), 0);
    }
    #[cfg(not(flock_3d))]
    for rect in [
        // Built by hand: `Rect::new` takes the min and max of its corners, which drops a NaN.
        Rect {
            min: Vec2::new(f32::NAN, 0.0),
            max: Vec2::ONE,
        },
        Rect {
            min: Vec2::ZERO,
            max: Vec2::splat(f32::INFINITY),
        },
        // Contradictory: min above max.
        Rect {
            min: Vec2::splat(5.0),
            max: Vec2::ZERO,
        },
    ] {
        assert_eq!(handle_mut(&mut app).spawn(10, Placement::InRect(rect)), 0);
    }
    let mut velocities = vec![Vector::X; 5];
    velocities[4] = Vector::splat(f32::NAN);
    assert_eq!(
        handle_mut(&mut app).spawn_states(&[Vector::ZERO; 5], &velocities),
        0
    );
    app.update();
    assert_eq!(handle(&app).len(), 0);
    assert_eq!(on_device(&app).len(), 0);
}

#[test]
fn a_flock_inserted_later_learns_the_limit_and_replaces_the_devices_boids() {
    if !gpu_available() {
        return;
    }
    let mut app = gpu_app(GpuFlock::new(config(), 1));
    handle_mut(&mut app).spawn(50, Placement::RandomInBounds);
    app.update();
    assert_eq!(on_device(&app).len(), 50);
    let limit = handle(&app).device_limit();

    // Outside an app a handle knows only the kernel's bound.
    let mut later = GpuFlock::new(config(), 2);
    assert_eq!(later.device_limit(), flock_gpu::MAX_BOIDS);
    assert_eq!(later.spawn(30, Placement::At(Vector::splat(3.0))), 30);
    app.insert_resource(later);
    app.update();
    assert_eq!(handle(&app).device_limit(), limit);
    assert_eq!(handle(&app).len(), 30);
    assert_eq!(
        on_device(&app).len(),
        30,
        "the new handle's boids replace the old ones"
    );
    settle(&mut app);
    assert!(
        readback(&app)
            .positions
            .iter()
            .all(|p| (*p - Vector::splat(3.0)).length() < 10.0),
        "the boids are the new handle's"
    );
    assert_eq!(
        handle_mut(&mut app).spawn(limit - 29, Placement::RandomInBounds),
        0,
        "refused against the device's limit"
    );
    assert_eq!(handle(&app).len(), 30);
}

/// A render device with the adapter's limits made worse by `limits` where they are lower.
fn device_limited_to(limits: flock_gpu::wgpu::Limits) -> RenderPlugin {
    RenderPlugin {
        render_creation: RenderCreation::Automatic(Box::new(WgpuSettings {
            constrained_limits: Some(limits),
            ..default()
        })),
        ..default()
    }
}

#[test]
fn a_device_that_cannot_run_the_flock_stops_it_with_a_reason_and_the_app_runs_on() {
    if !gpu_available() {
        return;
    }
    // Four storage buffers per shader stage (a downlevel device's): the kernel binds eight.
    let few_buffers = flock_gpu::wgpu::Limits {
        max_storage_buffers_per_shader_stage: 4,
        ..flock_gpu::wgpu::Limits::default()
    };
    let mut app = gpu_app_on(
        GpuFlock::new(config(), 1),
        device_limited_to(few_buffers),
        (),
    );
    // Said before the first frame, so a `Startup` spawn is refused without a boid made.
    let reason = handle(&app).stopped().expect("the flock stopped");
    assert!(reason.contains("storage buffers"), "{reason}");
    assert_eq!(handle(&app).device_limit(), 0);
    assert_eq!(handle_mut(&mut app).spawn(10, Placement::RandomInBounds), 0);
    let start = Flock::random(5, &config(), 1);
    assert_eq!(
        handle_mut(&mut app).spawn_states(start.positions(), start.velocities()),
        0
    );
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(handle(&app).len(), 0);
    assert_eq!(on_device(&app).len(), 0);
    assert_eq!(on_device(&app).steps(), 0);
    assert_eq!(handle(&app).stopped(), Some(reason));
}

#[test]
fn a_small_devices_limit_is_known_from_the_start_and_holds_exactly() {
    if !gpu_available() {
        return;
    }
    // 16 MiB storage bindings: a million 2D boids, half a million 3D ones.
    let small = flock_gpu::wgpu::Limits {
        max_storage_buffer_binding_size: 16 << 20,
        ..flock_gpu::wgpu::Limits::default()
    };
    let mut app = gpu_app_on(GpuFlock::new(config(), 1), device_limited_to(small), ());
    let limit = (16 << 20) / flock_gpu::BOID_BYTES;
    assert_eq!(handle(&app).device_limit(), limit);
    assert_eq!(
        handle_mut(&mut app).spawn(limit + 1, Placement::RandomInBounds),
        0
    );
    assert_eq!(handle(&app).len(), 0);
    handle_mut(&mut app).set_paused(true);
    assert_eq!(
        handle_mut(&mut app).spawn(limit, Placement::RandomInBounds),
        limit
    );
    assert_eq!(handle_mut(&mut app).spawn(1, Placement::RandomInBounds), 0);
    app.update();
    assert_eq!(handle(&app).len(), limit);
    assert_eq!(on_device(&app).len(), limit);
    assert_eq!(handle(&app).stopped(), None);
}

#[test]
fn pipelines_compile_off_the_frames_and_boids_spawned_meanwhile_wait_for_them() {
    if !gpu_available() {
        return;
    }
    let mut flock = GpuFlock::new(config(), 3);
    assert_eq!(flock.spawn(500, Placement::RandomInBounds), 500);
    let mut app = gpu_app_compiling(flock, RenderPlugin::default(), ());
    // Frames run while the pipelines compile (on lavapipe they take a while): no step is taken
    // and none is run, and the boids are still counted.
    let mut frames_while_compiling = 0;
    while on_device(&app).is_compiling() && frames_while_compiling < 1000 {
        app.update();
        frames_while_compiling += 1;
        if !handle(&app).is_ready() {
            assert_eq!(handle(&app).steps_taken(), 0);
            assert_eq!(on_device(&app).steps(), 0);
        }
        assert_eq!(handle(&app).len(), 500);
    }
    wait_for_pipelines(&app);
    assert!(handle(&app).is_ready());
    let taken = handle(&app).steps_taken();
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(on_device(&app).len(), 500);
    assert!(on_device(&app).kernel().is_some());
    // From the frame the pipelines are ready on, every fixed step is taken and run.
    assert_eq!(on_device(&app).steps(), handle(&app).steps_taken());
    assert!(handle(&app).steps_taken() >= taken + 9);
    println!("{frames_while_compiling} frames ran while the pipelines compiled");
}
