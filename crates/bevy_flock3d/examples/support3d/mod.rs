//! What the 3D examples share, on top of `support` (the window, screenshots, the tuning panel):
//! a small orbit camera of our own, the help line over the 3D view, lights and fog, and the
//! stress scenes' cube world with its view and birds.

// Each example uses only part of what is here.
#![allow(dead_code, unused_imports)]

use bevy::core_pipeline::tonemapping::Tonemapping;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy_flock3d::UiWantsInput;
use bevy_flock3d::flock_core::Bounds;
use bevy_flock3d::prelude::{EdgeMode, FlockConfig};

use crate::support::ScreenHelpPlugin;

/// A camera that circles `focus`: drag with `button` to orbit, scroll to zoom. Ours rather
/// than a dependency: these few lines are all the examples need.
#[derive(Component, Debug, Clone, Copy)]
pub struct OrbitCamera {
    /// The point looked at.
    pub focus: Vec3,
    /// How far from it.
    pub distance: f32,
    /// Turned about +y, radians.
    pub yaw: f32,
    /// Raised above the horizon, radians (positive looks down from above).
    pub elevation: f32,
    /// The mouse button that orbits while held.
    pub button: MouseButton,
}

impl OrbitCamera {
    /// Where the camera is and where it looks.
    pub fn transform(&self) -> Transform {
        let rotation = Quat::from_euler(EulerRot::YXZ, self.yaw, -self.elevation, 0.0);
        Transform::from_translation(self.focus + rotation * Vec3::Z * self.distance)
            .looking_at(self.focus, Vec3::Y)
    }
}

/// The 3D camera for a scene: orbiting, with a tonemapping that needs no lookup table (the
/// workspace builds Bevy without `tonemapping_luts`) and distance fog of `fog` so depth reads.
pub fn camera(orbit: OrbitCamera, fog: Color, fog_start: f32, fog_end: f32) -> impl Bundle {
    (
        Camera3d::default(),
        Tonemapping::AcesFitted,
        orbit.transform(),
        orbit,
        DistanceFog {
            color: fog,
            falloff: FogFalloff::Linear {
                start: fog_start,
                end: fog_end,
            },
            ..default()
        },
    )
}

/// A sun from above one side, and a soft ambient light so shaded sides are not black.
pub fn spawn_lights(commands: &mut Commands) {
    commands.spawn((
        DirectionalLight {
            illuminance: 9_000.0,
            ..default()
        },
        Transform::from_xyz(0.3, 1.0, 0.5).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.insert_resource(GlobalAmbientLight {
        brightness: 400.0,
        ..default()
    });
}

/// Boids per cubic world unit in the stress scenes' cube: with [`cube_world`]'s radii, about
/// thirty neighbours each.
const CUBE_DENSITY: f32 = 2e-3;

/// The stress scenes' world for `count` boids: a wrapping cube that holds them at
/// [`CUBE_DENSITY`], so any count keeps the same neighbours, and its side.
pub fn cube_world(count: usize) -> (FlockConfig, f32) {
    let side = (count.max(1) as f32 / CUBE_DENSITY).cbrt();
    let config = FlockConfig {
        separation_radius: 6.0,
        alignment_radius: 13.0,
        cohesion_radius: 13.0,
        bounds: Bounds::centered(Vec3::splat(side)),
        edges: EdgeMode::Wrap,
        wrap_neighbours: true,
        ..FlockConfig::processing()
    };
    (config, side)
}

/// The view of a cube of `side` (the stress scenes' world) from outside: the orbit camera with
/// fog from the cube's near side to far behind it, and the lights.
pub fn spawn_cube_view(commands: &mut Commands, side: f32) {
    commands.spawn(camera(
        OrbitCamera {
            focus: Vec3::ZERO,
            distance: side * 1.6,
            yaw: 0.6,
            elevation: 0.4,
            button: MouseButton::Left,
        },
        Color::srgb(0.04, 0.05, 0.08),
        side,
        side * 3.0,
    ));
    spawn_lights(commands);
}

/// Small birds (3 units long) in random hues: the stress scenes' look.
pub fn small_birds(meshes: &mut Assets<Mesh>) -> bevy_flock3d::BoidPrefab {
    bevy_flock3d::BoidPrefab {
        mesh: meshes.add(bevy_flock3d::bird_mesh(3.0)),
        colors: bevy_flock3d::BoidColors::RandomHue {
            saturation: 0.65,
            lightness: 0.6,
        },
    }
}

/// The orbit camera and the help line over the 3D view.
pub struct Scene3dPlugin(pub &'static str);

impl Plugin for Scene3dPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(ScreenHelpPlugin(self.0))
            .add_systems(Update, orbit);
    }
}

fn orbit(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    ui: Res<UiWantsInput>,
    mut cameras: Query<(&mut OrbitCamera, &mut Transform)>,
) {
    for (mut orbit, mut transform) in &mut cameras {
        if !ui.pointer {
            if buttons.pressed(orbit.button) {
                orbit.yaw -= motion.delta.x * 0.005;
                orbit.elevation = (orbit.elevation + motion.delta.y * 0.005).clamp(-1.4, 1.4);
            }
            let lines = match scroll.unit {
                MouseScrollUnit::Line => scroll.delta.y,
                MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
            };
            orbit.distance = (orbit.distance * 0.9f32.powf(lines)).clamp(1.0, 1e5);
        }
        let wanted = orbit.transform();
        if *transform != wanted {
            *transform = wanted;
        }
    }
}
