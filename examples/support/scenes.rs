//! The examples' scenes: the library's presets (`bevy_flock::presets`) as the examples run them,
//! in pixels for their 1280 x 720 window, with their boid caps and bounds. Each ships as a RON
//! file in `assets/presets/` that the tuning panel loads (`tests/presets.rs` checks that every
//! file equals its scene here).

use bevy_flock::flock_core::FlockConfig;
use bevy_flock::flock_core::steering::GroupParams;
use bevy_flock::{BoundsSource, FlockSettings, presets};

/// Every scene's file in `assets/presets/` and its settings.
pub const SCENES: &[(&str, fn() -> FlockSettings)] = &[
    ("processing.ron", processing),
    ("nature_of_code.ron", nature_of_code),
    ("field_of_view.ron", field_of_view),
    ("unity_port_first.ron", unity_port_first),
    ("unity_port.ron", unity_port),
    ("crowd_cohesion_only.ron", || {
        crowd(FlockConfig::crowd_cohesion_only())
    }),
    ("crowd_separation_only.ron", || {
        crowd(FlockConfig::crowd_separation_only())
    }),
    ("crowd_alignment_only.ron", || {
        crowd(FlockConfig::crowd_alignment_only())
    }),
    ("crowd_cohesion_separation.ron", || {
        crowd(FlockConfig::crowd_mix(0.5, 30.0, 0.0))
    }),
    ("crowd_cohesion_alignment.ron", || {
        crowd(FlockConfig::crowd_mix(0.5, 0.0, 1.0))
    }),
    ("crowd_separation_alignment.ron", || {
        crowd(FlockConfig::crowd_mix(0.0, 30.0, 1.0))
    }),
    ("crowd.ron", || crowd(FlockConfig::crowd())),
    ("tank_group.ron", tank_group),
    ("tight_school.ron", tight_school),
    ("loose_swarm.ron", loose_swarm),
];

/// The world of Processing's *Flocking* as ported to Unity is 20 x 10 units; at 64 pixels a
/// unit it is 1280 x 640 pixels, as wide as the examples' window.
pub const UNITY_PIXELS_PER_UNIT: f32 = 64.0;

/// *The Nature of Code*'s sketch pixels are shown three times as large: its 320 x 240 is
/// 960 x 720.
pub const SKETCH_SCALE: f32 = 3.0;

/// The tank scene's one scale: 10 pixels per Unity unit (a 28-pixel tank is 2.8 units long).
pub const TANK_PIXELS_PER_UNIT: f32 = 10.0;

/// Processing's *Flocking*, in a 1280 x 720 world.
pub fn processing() -> FlockSettings {
    FlockSettings::from_config(FlockConfig::processing())
}

/// The `nature_of_code` example (*The Nature of Code*): the 320 x 240 sketch at
/// [`SKETCH_SCALE`], 100 vehicles.
pub fn nature_of_code() -> FlockSettings {
    FlockSettings {
        config: FlockConfig::nature_of_code(SKETCH_SCALE),
        bounds_source: BoundsSource::Fixed,
        max_boids: 100,
    }
}

/// The `field_of_view` example (the ActionScript flocking tutorial): 30 vehicles in the window.
pub fn field_of_view() -> FlockSettings {
    FlockSettings {
        config: FlockConfig::field_of_view(),
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 30,
    }
}

/// The `flocking` example (Processing's *Flocking* as ported to Unity, second version): the
/// 20 x 10 world at [`UNITY_PIXELS_PER_UNIT`], up to 600 boids.
pub fn unity_port() -> FlockSettings {
    FlockSettings {
        config: FlockConfig::unity_port().scaled(UNITY_PIXELS_PER_UNIT),
        bounds_source: BoundsSource::Fixed,
        max_boids: 600,
    }
}

/// The `flocking` example's first version of the Unity port: up to 200 boids.
pub fn unity_port_first() -> FlockSettings {
    FlockSettings {
        config: FlockConfig::unity_port_first().scaled(UNITY_PIXELS_PER_UNIT),
        bounds_source: BoundsSource::Fixed,
        max_boids: 200,
    }
}

/// The `steering_playground` example's crowd modes (the cocos2d-x crowd demo), with their node's
/// `config`.
pub fn crowd(config: FlockConfig) -> FlockSettings {
    FlockSettings {
        config,
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 100,
    }
}

/// The tank groups' numbers (the Unity tank group's `TankGroup`) at [`TANK_PIXELS_PER_UNIT`].
pub fn tank_group_params() -> GroupParams {
    let unity = GroupParams::default();
    let scale = TANK_PIXELS_PER_UNIT;
    GroupParams {
        keep_distance: unity.keep_distance * scale,
        target_close_distance: unity.target_close_distance * scale,
        stop_distance: unity.stop_distance * scale,
        ..unity
    }
}

/// The `tank_group` example (the Unity tank group).
pub fn tank_group() -> FlockSettings {
    FlockSettings {
        config: FlockConfig::tank_group(tank_group_params().keep_distance),
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 100,
    }
}

/// Boids that keep close and turn together: the library's preset, in its 1280 x 720 world.
pub fn tight_school() -> FlockSettings {
    library_preset("Tight school")
}

/// Boids that keep their distance and barely agree: the library's preset, in its 1280 x 720
/// world.
pub fn loose_swarm() -> FlockSettings {
    library_preset("Loose swarm")
}

/// The library's preset `name`, in its own world (Processing's 1280 x 720, the examples').
fn library_preset(name: &str) -> FlockSettings {
    let preset = presets::all().iter().find(|preset| preset.name == name);
    FlockSettings::from_config((preset.expect("a preset of the library").config)())
}
