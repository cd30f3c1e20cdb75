//! Named flock settings: each source document's scene as its example runs it, and a few of
//! ours. The tuning panel offers them, and each ships as a RON file in `assets/presets/`
//! (`tests/presets.rs` checks that every file equals its preset here).
//!
//! The kernel's presets ([`FlockConfig::unity_port`] and the rest) are in the documents' own
//! units; these are in the examples' pixels, for their 1280 x 720 window.

use flock_core::steering::GroupParams;
use flock_core::{FlockConfig, RuleWeights, SpeedMode};

use crate::settings::{BoundsSource, FlockSettings};

/// A named set of flock settings.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name shown in the panel.
    pub name: &'static str,
    /// Where the numbers come from, shown as a tooltip.
    pub about: &'static str,
    /// Its file in `assets/presets/`.
    pub file: &'static str,
    /// The settings, in the example's pixels.
    pub settings: fn() -> FlockSettings,
}

/// Every preset: the scene of each source document (see `docs/seeds.md`), Processing's flock,
/// and two of ours.
pub fn all() -> &'static [Preset] {
    &[
        Preset {
            name: "Processing",
            about: "Processing's Flocking example (the default)",
            file: "processing.ron",
            settings: processing,
        },
        Preset {
            name: "The Nature of Code",
            about: "The Nature of Code's 320 x 240 sketch, three times as large: separation \
                    within 20 px",
            file: "nature_of_code.ron",
            settings: nature_of_code,
        },
        Preset {
            name: "Field of view",
            about: "the ActionScript flocking tutorial's half-plane view and bouncing edges, \
                    with Reynolds' rules",
            file: "field_of_view.ron",
            settings: field_of_view,
        },
        Preset {
            name: "Unity port, first version",
            about: "Processing's Flocking as ported to Unity, first version: max force 0.003, \
                    radii 0.75 / 1.1 / 1.1, weights 0.15 / 0.1 / 0.1",
            file: "unity_port_first.ron",
            settings: unity_port_first,
        },
        Preset {
            name: "Unity port",
            about: "Processing's Flocking as ported to Unity, second version: constant speed, \
                    rescaled forces, jumping borders",
            file: "unity_port.ron",
            settings: unity_port,
        },
        Preset {
            name: "Crowd: cohesion only",
            about: "the cocos2d-x crowd demo's cohesion node: radius 100, max speed 50",
            file: "crowd_cohesion_only.ron",
            settings: || crowd(FlockConfig::crowd_cohesion_only()),
        },
        Preset {
            name: "Crowd: separation only",
            about: "the cocos2d-x crowd demo's separation node: radius 30, max speed 50",
            file: "crowd_separation_only.ron",
            settings: || crowd(FlockConfig::crowd_separation_only()),
        },
        Preset {
            name: "Crowd: alignment only",
            about: "the cocos2d-x crowd demo's alignment node: radius 150, max speed 150",
            file: "crowd_alignment_only.ron",
            settings: || crowd(FlockConfig::crowd_alignment_only()),
        },
        Preset {
            name: "Crowd: cohesion and separation",
            about: "the cocos2d-x crowd demo's mix 0.5 / 30 / 0: a clump with no common heading",
            file: "crowd_cohesion_separation.ron",
            settings: || crowd(FlockConfig::crowd_mix(0.5, 30.0, 0.0)),
        },
        Preset {
            name: "Crowd: cohesion and alignment",
            about: "the cocos2d-x crowd demo's mix 0.5 / 0 / 1: gathers almost into one point, \
                    moving",
            file: "crowd_cohesion_alignment.ron",
            settings: || crowd(FlockConfig::crowd_mix(0.5, 0.0, 1.0)),
        },
        Preset {
            name: "Crowd: separation and alignment",
            about: "the cocos2d-x crowd demo's mix 0 / 30 / 1: follows its neighbours, easily \
                    spreads out",
            file: "crowd_separation_alignment.ron",
            settings: || crowd(FlockConfig::crowd_mix(0.0, 30.0, 1.0)),
        },
        Preset {
            name: "Crowd: all three",
            about: "the cocos2d-x crowd demo's crowd node: cohesion 0.5, separation 30 (2 here), \
                    alignment 1",
            file: "crowd.ron",
            settings: || crowd(FlockConfig::crowd()),
        },
        Preset {
            name: "Tank group",
            about: "the Unity tank group's scene: no flocking (the groups drive the tanks), \
                    no edges",
            file: "tank_group.ron",
            settings: tank_group,
        },
        Preset {
            name: "Tight school",
            about: "strong alignment and cohesion, small spacing: one dense, polarised school",
            file: "tight_school.ron",
            settings: tight_school,
        },
        Preset {
            name: "Loose swarm",
            about: "weak alignment, strong separation, narrow view: a milling, disordered swarm",
            file: "loose_swarm.ron",
            settings: loose_swarm,
        },
    ]
}

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

/// Boids that keep close and turn together: short separation, strong alignment and cohesion,
/// a brisk constant speed.
pub fn tight_school() -> FlockSettings {
    FlockSettings::from_config(FlockConfig {
        separation_radius: 14.0,
        alignment_radius: 45.0,
        cohesion_radius: 60.0,
        weights: RuleWeights {
            separation: 1.5,
            alignment: 2.0,
            cohesion: 1.5,
        },
        max_speed: 160.0,
        speed_mode: SpeedMode::Constant,
        max_force: 300.0,
        ..FlockConfig::processing()
    })
}

/// Boids that keep their distance and barely agree: wide separation, weak alignment, a narrow
/// field of view, speeds free to vary.
pub fn loose_swarm() -> FlockSettings {
    FlockSettings::from_config(FlockConfig {
        separation_radius: 40.0,
        alignment_radius: 50.0,
        cohesion_radius: 120.0,
        weights: RuleWeights {
            separation: 2.0,
            alignment: 0.2,
            cohesion: 0.6,
        },
        max_speed: 90.0,
        speed_mode: SpeedMode::Clamp { min_speed: 30.0 },
        max_force: 80.0,
        view_angle_degrees: 240.0,
        ..FlockConfig::processing()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use flock_core::world_size;

    #[test]
    fn every_preset_is_valid_and_has_its_own_file() {
        let mut files = std::collections::BTreeSet::new();
        for preset in all() {
            assert_eq!((preset.settings)().validate(), Ok(()), "{}", preset.name);
            assert!(files.insert(preset.file), "{} twice", preset.file);
        }
    }

    #[test]
    fn the_unity_world_is_as_wide_as_the_window_and_two_to_one() {
        let bounds = unity_port().config.bounds;
        // In 3D as deep as it is high.
        assert_eq!(bounds.size(), world_size(1280.0, 640.0));
        assert_eq!(unity_port_first().config.bounds, bounds);
    }
}
