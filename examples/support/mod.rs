//! What the examples share, 2D and 3D alike (the 3D ones include this folder by `#[path]`, and
//! there `bevy_flock` is the 3D crate): the window, screenshots on request for looking at a run
//! without a person, the tuning panel on request, the help line, keys and clicks the panel did
//! not take, and the pieces that several scenes have in common (selecting and sending groups,
//! switching avoidance, hunts, the stress readout).
//!
//! `FLOCK_SCREENSHOTS=dir` saves `dir/<example>-1.png` and `-2.png` two seconds apart (after a
//! second of warm-up, each once every render pipeline is compiled), then exits. Used under
//! `xvfb-run` to check what a user would see.

// Each example uses only part of what is here.
#![allow(dead_code, unused_imports)]

mod avoidance;
#[cfg(feature = "gpu")]
pub mod gpu;
mod help;
pub mod hunt;
mod input;
pub mod level;
pub mod scenes;
mod selection;
pub mod stress;
pub mod tanks;

pub use avoidance::{Avoiding, switch_avoidance};
pub use help::{
    FlockStatus, HelpLine, HelpLinePlugin, HelpText, PanelKey, ScreenHelpPlugin, corner_text,
    overlay_text, top_left_of_bounds,
};
pub use input::{Shortcuts, WorldClicks, pause_on_space, step_on_n};
pub use selection::{ClickTarget, ClickToSend, Selection};

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::render_resource::PipelineCache;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy_flock::flock_core::{Bounds, world_size};
use bevy_flock::prelude::*;

/// Adds the tuning panel (feature `panel`, on by default) when it is asked for: `--panel` on
/// the command line or `FLOCK_PANEL=1`; where `on_by_default`, `--no-panel` or `FLOCK_PANEL=0`
/// leaves it out. `--debug` (or `FLOCK_DEBUG=1`) starts it with every debug drawing on. The
/// panel's Reset button respawns `reset`. Call it after `BoidsPlugin`.
pub fn add_panel(app: &mut App, on_by_default: bool, reset: SpawnBoids) -> bool {
    if !panel_wanted(on_by_default) {
        return false;
    }
    #[cfg(feature = "panel")]
    {
        use bevy_flock::panel::{FlockDebugDraw, FlockPanelPlugin};
        app.add_plugins(FlockPanelPlugin::default().with_reset(reset));
        if debug_wanted() {
            app.insert_resource(FlockDebugDraw {
                bounds: true,
                grid: true,
                selected: true,
                velocities: true,
                forces: true,
                ..default()
            });
        }
        true
    }
    #[cfg(not(feature = "panel"))]
    {
        let _ = (app, reset);
        warn!("the panel was asked for, but this build has no `panel` feature");
        false
    }
}

/// Whether the command line or the environment asks for the panel (see [`add_panel`]).
pub fn panel_wanted(on_by_default: bool) -> bool {
    let from_environment = std::env::var("FLOCK_PANEL").ok().map(|value| value != "0");
    if flag("--no-panel") {
        false
    } else if flag("--panel") {
        true
    } else {
        from_environment.unwrap_or(on_by_default)
    }
}

/// Whether the panel should start with every debug drawing on (`--debug` or `FLOCK_DEBUG=1`).
pub fn debug_wanted() -> bool {
    flag("--debug") || std::env::var("FLOCK_DEBUG").is_ok_and(|value| value != "0")
}

fn flag(name: &str) -> bool {
    std::env::args().skip(1).any(|argument| argument == name)
}

/// Settings for a scene that behaviours move: the boids only keep apart (separation within
/// `separation_radius`), with no edges, in bounds that follow the camera, up to 200 boids.
pub fn behaviours_only(separation_radius: f32) -> FlockSettings {
    FlockSettings {
        config: FlockConfig {
            separation_radius,
            weights: RuleWeights {
                separation: 1.0,
                ..RuleWeights::NONE
            },
            edges: EdgeMode::Free,
            ..FlockConfig::processing()
        },
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 200,
    }
}

/// `config` in a fixed world `width` x `height` centred on the origin (as deep as it is high in
/// 3D), up to `max_boids`: the world a scene is laid out in, whatever the window shows.
pub fn fixed_world(
    width: f32,
    height: f32,
    max_boids: usize,
    config: FlockConfig,
) -> FlockSettings {
    FlockSettings {
        config: FlockConfig {
            bounds: Bounds::centered(world_size(width, height)),
            ..config
        },
        bounds_source: BoundsSource::Fixed,
        max_boids,
    }
}

/// `config` in the examples' window, 1280 x 720 centred on the origin, fixed: [`fixed_world`].
pub fn window_world(max_boids: usize, config: FlockConfig) -> FlockSettings {
    fixed_world(1280.0, 720.0, max_boids, config)
}

/// A vehicle's own limits with a mass of 1: its top speed and the most force its behaviours
/// may add up to.
pub const fn limits(max_speed: f32, max_force: f32) -> MotionLimits {
    MotionLimits {
        max_speed,
        max_force,
        mass: 1.0,
    }
}

/// Runs `app` with the tuning panel when it is asked for (`--panel`), whose Reset spawns
/// `reset`: how most scenes end their `main`.
pub fn run_with_panel_on_request(mut app: App, reset: SpawnBoids) {
    add_panel(&mut app, false, reset);
    app.run();
}

/// [`example_app`] with its flock: the flock's `settings` (inserted before the plugin, so the
/// first step uses them), [`BoidsPlugin`] seeded with `seed`, and the help line the example
/// keeps up to date.
pub fn flock_app(example: &'static str, settings: FlockSettings, seed: u64) -> App {
    let mut app = example_app(example);
    app.insert_resource(settings)
        .add_plugins(BoidsPlugin::default().with_seed(seed))
        .add_plugins(HelpLinePlugin(""));
    app
}

/// A 2D prefab drawing boids with one of the bundled sprites, `size` across, in `colors`.
#[cfg(not(flock_3d))]
pub fn sprite_prefab(
    assets: &AssetServer,
    sprite: BoidSprite,
    size: f32,
    colors: BoidColors,
) -> BoidPrefab {
    BoidPrefab {
        image: assets.load(sprite.asset_path()),
        size: Vec2::splat(size),
        colors,
    }
}

/// Random hues, soft enough for fish.
pub const SOFT_HUES: BoidColors = BoidColors::RandomHue {
    saturation: 0.6,
    lightness: 0.65,
};

/// An app with a 1280x720 window titled `bevy_flock: <example>`, steering on every core, a dark
/// background and screenshots on request: what every example starts from.
pub fn example_app(example: &'static str) -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: format!("bevy_flock: {example}"),
                    resolution: (1280, 720).into(),
                    ..default()
                }),
                ..default()
            })
            .set(bevy_flock::all_cores_for_compute()),
    )
    .insert_resource(ClearColor(Color::srgb(0.05, 0.07, 0.12)))
    .add_plugins(ScreenshotsOnRequest { example });
    app
}

/// Adds the screenshot-and-exit behaviour when `FLOCK_SCREENSHOTS` is set.
pub struct ScreenshotsOnRequest {
    /// Names the files.
    pub example: &'static str,
}

impl Plugin for ScreenshotsOnRequest {
    fn build(&self, app: &mut App) {
        let Some(dir) = std::env::var_os("FLOCK_SCREENSHOTS").map(PathBuf::from) else {
            return;
        };
        std::fs::create_dir_all(&dir).expect("cannot create the screenshot folder");
        let pipelines = PipelinesSettled::default();
        if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
            render_app
                .insert_resource(pipelines.clone())
                .add_systems(Render, note_pipelines.in_set(RenderSystems::Cleanup));
        } else {
            // No renderer: nothing is compiled, so nothing holds the screenshots back.
            pipelines.0.store(true, Ordering::Relaxed);
        }
        app.insert_resource(pipelines)
            .insert_resource(ScreenshotPlan {
                dir,
                example: self.example,
                taken: 0,
                last_shot: None,
                settled_frames: 0,
            })
            .add_systems(Update, take_screenshots);
    }
}

#[derive(Resource)]
struct ScreenshotPlan {
    dir: PathBuf,
    example: &'static str,
    taken: u32,
    /// When the last screenshot was asked for (real time since start).
    last_shot: Option<Duration>,
    /// Main-world frames in a row that found every render pipeline compiled.
    settled_frames: u32,
}

/// Whether the render world's pipeline cache has nothing left to compile, shared between the
/// worlds. Bevy compiles pipelines in the background and skips what they draw until they are
/// ready: under software Vulkan on a busy machine that can take seconds, and a screenshot
/// taken before shows the clear colour alone.
#[derive(Resource, Clone, Default)]
struct PipelinesSettled(Arc<AtomicBool>);

fn note_pipelines(cache: Res<PipelineCache>, settled: Res<PipelinesSettled>) {
    let waiting = cache.waiting_pipelines().next().is_some();
    settled.0.store(!waiting, Ordering::Relaxed);
}

const FIRST_SHOT: Duration = Duration::from_secs(1);
const BETWEEN_SHOTS: Duration = Duration::from_secs(2);

/// Frames drawn before the first screenshot, whatever the time: a large 3D scene under software
/// rendering may not have drawn its boids one second in.
const FIRST_FRAMES: u32 = 10;

/// Frames in a row with every pipeline compiled before a screenshot: with pipelined rendering
/// the main world runs a frame ahead of what is drawn.
const SETTLED_FRAMES: u32 = 3;

/// Time since start after which a screenshot no longer waits for the pipelines: a scene that
/// never settles is shot as it is, so that the run ends and the check reports what it shows.
const MOST_WAIT: Duration = Duration::from_secs(60);

fn take_screenshots(
    mut commands: Commands,
    time: Res<Time<Real>>,
    frames: Res<bevy::diagnostic::FrameCount>,
    pipelines: Res<PipelinesSettled>,
    mut plan: ResMut<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    plan.settled_frames = if pipelines.0.load(Ordering::Relaxed) {
        plan.settled_frames.saturating_add(1)
    } else {
        0
    };
    let now = time.elapsed();
    let due = plan.last_shot.map_or(FIRST_SHOT, |at| at + BETWEEN_SHOTS);
    if now < due || frames.0 < FIRST_FRAMES {
        return;
    }
    if plan.taken == 2 {
        // One more interval for the second screenshot to be written, and longer while it is
        // not there yet: software rendering of a large 3D scene can take seconds a frame.
        let last = plan.dir.join(format!("{}-2.png", plan.example));
        if last.exists() || now > due + Duration::from_secs(60) {
            exit.write(AppExit::Success);
        }
        return;
    }
    if plan.settled_frames < SETTLED_FRAMES && now <= MOST_WAIT {
        return;
    }
    plan.last_shot = Some(now);
    plan.taken += 1;
    let path = plan
        .dir
        .join(format!("{}-{}.png", plan.example, plan.taken));
    info!(
        "screenshot {} at {:.2} s, frame {}",
        plan.taken,
        now.as_secs_f32(),
        frames.0
    );
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}
