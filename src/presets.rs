//! Named flocks to start from: the scene of each source document, Processing's flock and two of
//! ours. Each is defined in its own world (the document's units and area) and sized to the
//! bounds it is used in by [`Preset::sized_for`], so a preset looks the same in any window or
//! world. The tuning panel offers them, sized to the flock's current bounds.
//!
//! The examples' scenes (these presets in the examples' 1280 x 720 pixels, with their boid caps
//! and bounds) are in `examples/support/scenes.rs`, with their RON files in `assets/presets/`.

use flock_core::steering::GroupParams;
use flock_core::{Bounds, ConfigError, FlockConfig, RuleWeights, SpeedMode};

/// A named flock, in the world it is defined in.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name shown in the panel.
    pub name: &'static str,
    /// Where the numbers come from, shown as a tooltip.
    pub about: &'static str,
    /// The settings in the preset's own world (its `bounds`).
    pub config: fn() -> FlockConfig,
}

impl Preset {
    /// The preset in `bounds`: its lengths, speeds and forces scaled so its world's height
    /// becomes theirs, and its bounds theirs. Bounds of no height, or ones the preset cannot be
    /// scaled into (the result out of range), are refused with the settings' own error.
    pub fn sized_for(&self, bounds: Bounds) -> Result<FlockConfig, ConfigError> {
        let sized = size_to(bounds, (self.config)());
        sized.validate()?;
        Ok(sized)
    }
}

/// `preset` scaled so its world's height becomes the height of `bounds`, in `bounds`.
pub(crate) fn size_to(bounds: Bounds, preset: FlockConfig) -> FlockConfig {
    let scale = bounds.size().y / preset.bounds.size().y;
    FlockConfig {
        bounds,
        ..preset.scaled(scale)
    }
}

/// Every preset: the scene of each source document (see `docs/sources.md`), Processing's flock,
/// and two of ours, each in its own world (size them with [`Preset::sized_for`]).
pub fn all() -> &'static [Preset] {
    &[
        Preset {
            name: "Processing",
            about: "Processing's Flocking example (the default)",
            config: FlockConfig::processing,
        },
        Preset {
            name: "The Nature of Code",
            about: "The Nature of Code's 320 x 240 sketch, three times as large: separation \
                    within 20 px",
            config: || FlockConfig::nature_of_code(1.0),
        },
        Preset {
            name: "Field of view",
            about: "the ActionScript flocking tutorial's half-plane view and bouncing edges, \
                    with Reynolds' rules",
            config: FlockConfig::field_of_view,
        },
        Preset {
            name: "Unity port, first version",
            about: "Processing's Flocking as ported to Unity, first version: max force 0.003, \
                    radii 0.75 / 1.1 / 1.1, weights 0.15 / 0.1 / 0.1",
            config: FlockConfig::unity_port_first,
        },
        Preset {
            name: "Unity port",
            about: "Processing's Flocking as ported to Unity, second version: constant speed, \
                    rescaled forces, jumping borders",
            config: FlockConfig::unity_port,
        },
        Preset {
            name: "Crowd: cohesion only",
            about: "the cocos2d-x crowd demo's cohesion node: radius 100, max speed 50",
            config: FlockConfig::crowd_cohesion_only,
        },
        Preset {
            name: "Crowd: separation only",
            about: "the cocos2d-x crowd demo's separation node: radius 30, max speed 50",
            config: FlockConfig::crowd_separation_only,
        },
        Preset {
            name: "Crowd: alignment only",
            about: "the cocos2d-x crowd demo's alignment node: radius 150, max speed 150",
            config: FlockConfig::crowd_alignment_only,
        },
        Preset {
            name: "Crowd: cohesion and separation",
            about: "the cocos2d-x crowd demo's mix 0.5 / 30 / 0: a clump with no common heading",
            config: || FlockConfig::crowd_mix(0.5, 30.0, 0.0),
        },
        Preset {
            name: "Crowd: cohesion and alignment",
            about: "the cocos2d-x crowd demo's mix 0.5 / 0 / 1: gathers almost into one point, \
                    moving",
            config: || FlockConfig::crowd_mix(0.5, 0.0, 1.0),
        },
        Preset {
            name: "Crowd: separation and alignment",
            about: "the cocos2d-x crowd demo's mix 0 / 30 / 1: follows its neighbours, easily \
                    spreads out",
            config: || FlockConfig::crowd_mix(0.0, 30.0, 1.0),
        },
        Preset {
            name: "Crowd: all three",
            about: "the cocos2d-x crowd demo's crowd node: cohesion 0.5, separation 30 (2 here), \
                    alignment 1",
            config: FlockConfig::crowd,
        },
        Preset {
            name: "Tank group",
            about: "the Unity tank group's scene: no flocking (the groups drive the tanks), \
                    no edges",
            config: tank_group,
        },
        Preset {
            name: "Tight school",
            about: "strong alignment and cohesion, small spacing: one dense, polarised school",
            config: tight_school,
        },
        Preset {
            name: "Loose swarm",
            about: "weak alignment, strong separation, narrow view: a milling, disordered swarm",
            config: loose_swarm,
        },
    ]
}

/// The Unity tank group's scene, in Processing's world at 10 units per Unity unit (a 28-unit tank
/// is 2.8 Unity units long): no flocking (the groups drive the tanks), no edges.
fn tank_group() -> FlockConfig {
    FlockConfig::tank_group(GroupParams::default().keep_distance * 10.0)
}

/// Boids that keep close and turn together: short separation, strong alignment and cohesion,
/// a brisk constant speed.
fn tight_school() -> FlockConfig {
    FlockConfig {
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
    }
}

/// Boids that keep their distance and barely agree: wide separation, weak alignment, a narrow
/// field of view, speeds free to vary.
fn loose_swarm() -> FlockConfig {
    FlockConfig {
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flock_core::world_size;

    #[test]
    fn every_preset_is_valid_and_named_once() {
        let mut names = std::collections::BTreeSet::new();
        for preset in all() {
            assert_eq!((preset.config)().validate(), Ok(()), "{}", preset.name);
            assert!(names.insert(preset.name), "{} twice", preset.name);
        }
    }

    #[test]
    fn a_sized_preset_fills_the_bounds_at_the_same_proportions() {
        let bounds = Bounds::centered(world_size(1280.0, 640.0));
        let unity = all()
            .iter()
            .find(|preset| preset.name == "Unity port")
            .unwrap();
        let sized = unity.sized_for(bounds).unwrap();
        assert_eq!(sized.bounds, bounds);
        // The Unity world is 10 units high: 64 of these bounds' units to one.
        let expected = FlockConfig::unity_port().scaled(64.0);
        assert!((sized.separation_radius - expected.separation_radius).abs() < 1e-4);
        assert!((sized.max_speed - expected.max_speed).abs() < 1e-3);
    }

    #[test]
    fn bounds_of_no_height_are_refused() {
        let flat = Bounds::centered(world_size(1280.0, 0.0));
        for preset in all() {
            assert!(preset.sized_for(flat).is_err(), "{}", preset.name);
        }
    }
}
