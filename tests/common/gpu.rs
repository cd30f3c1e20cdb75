//! What the GPU flock's tests share (feature `gpu`): whether there is an adapter, and a
//! headless app with Bevy's renderer.

use std::time::Duration;

use bevy::app::Plugins;
use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::pipelined_rendering::PipelinedRenderingPlugin;
use bevy::time::TimeUpdateStrategy;
use bevy::window::ExitCondition;
use bevy::winit::WinitPlugin;
use bevy_flock::gpu::flock_gpu;
use bevy_flock::gpu::{GpuFlock, GpuFlockPlugin, RenderGpuFlock};

use super::HZ;

/// Whether a GPU adapter is there; without one, a test returns early after saying why (and
/// fails instead under `FLOCK_REQUIRE_GPU=1`).
pub fn gpu_available() -> bool {
    match flock_gpu::request_device() {
        Ok(_) => true,
        Err(error) if std::env::var("FLOCK_REQUIRE_GPU").as_deref() == Ok("1") => {
            panic!("FLOCK_REQUIRE_GPU=1 but there is no GPU: {error}")
        }
        Err(error) => {
            eprintln!("skipped: {error} (lavapipe: set VK_ICD_FILENAMES)");
            false
        }
    }
}

/// How many times the main world's fixed schedule ran.
#[derive(Resource, Default)]
pub struct FixedRuns(pub u64);

/// A headless app with Bevy's renderer (no window, the render world run in step with the main
/// world) and the GPU flock, every `update()` one fixed step of 1/60 s.
pub fn gpu_app(flock: GpuFlock) -> App {
    gpu_app_with(flock, ())
}

/// [`gpu_app`] with more plugins (added before the app is finished).
pub fn gpu_app_with<M>(flock: GpuFlock, plugins: impl Plugins<M>) -> App {
    gpu_app_on(flock, RenderPlugin::default(), plugins)
}

/// [`gpu_app_with`] on a render device made as `render` says (e.g. with lower limits).
pub fn gpu_app_on<M>(flock: GpuFlock, render: RenderPlugin, plugins: impl Plugins<M>) -> App {
    let app = gpu_app_compiling(flock, render, plugins);
    wait_for_pipelines(&app);
    app
}

/// [`gpu_app_on`] returned as soon as it is finished, its GPU flock's pipelines maybe still
/// compiling.
pub fn gpu_app_compiling<M>(
    flock: GpuFlock,
    render: RenderPlugin,
    plugins: impl Plugins<M>,
) -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .build()
            .disable::<WinitPlugin>()
            .disable::<PipelinedRenderingPlugin>()
            .disable::<bevy::log::LogPlugin>()
            .set(render)
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                close_when_requested: false,
                ..default()
            }),
    )
    .insert_resource(flock)
    .add_plugins(GpuFlockPlugin)
    .insert_resource(Time::<Fixed>::from_hz(HZ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / HZ,
    )))
    .init_resource::<FixedRuns>()
    .add_systems(FixedUpdate, |mut runs: ResMut<FixedRuns>| runs.0 += 1)
    .add_plugins(plugins);
    while app.plugins_state() == bevy::app::PluginsState::Adding {
        bevy::tasks::tick_global_task_pools_on_main_thread();
    }
    app.finish();
    app.cleanup();
    app
}

/// Waits (without updating the app) until the GPU flock's pipelines, compiling on the async
/// compute pool since the app finished, are ready, so the first update makes the flock and
/// steps it as a frame of a running game does.
pub fn wait_for_pipelines(app: &App) {
    let compiling = || {
        app.get_sub_app(bevy::render::RenderApp)
            .and_then(|render| render.world().get_resource::<RenderGpuFlock>())
            .is_some_and(RenderGpuFlock::is_compiling)
    };
    let started = std::time::Instant::now();
    while compiling() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the GPU flock's pipelines took over 5 minutes to compile"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
