//! Species and the hunts between them, as the Bevy plugin's `Species` and `SpeciesRelations`
//! define them: boids flock (separation, alignment, cohesion) only with their own kind; prey
//! flee every predator within a hunt's `flee_radius`, and a predator pursues the nearest prey
//! within its `chase_radius`. Each species has its own rule weights, radii and limits here.
//!
//! Everything is checked on the host before it reaches the device, and laid out as the
//! shaders' `Kinds` uniform (shaders/gameplay.wgsl) reads it.

use flock_core::{ConfigError, FlockConfig, RESCALE_DEAD_ZONE, RuleWeights, SpeedMode};

use crate::error::GpuError;
use crate::layout::to_bytes;

/// The most species a flock holds (`MAX_SPECIES` in shaders/gameplay.wgsl): a predator keeps
/// the nearest prey of each species in registers while it walks its neighbours.
pub const MAX_SPECIES: usize = 8;

/// The most hunts: one per ordered pair of different species.
pub const MAX_HUNTS: usize = MAX_SPECIES * (MAX_SPECIES - 1);

/// One species' own rules: what it overrides of the flock's [`FlockConfig`] (the response
/// time, mass, speed mode, view, edges and force limit mode stay the flock's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeciesSettings {
    /// The weights of separation, alignment and cohesion among its own kind.
    pub weights: RuleWeights,
    /// Its own kind closer than this push a boid away.
    pub separation_radius: f32,
    /// Its own kind closer than this count in the average heading.
    pub alignment_radius: f32,
    /// Its own kind closer than this count in the centre it steers to.
    pub cohesion_radius: f32,
    /// Its maximum (and, in the constant speed mode, only) speed.
    pub max_speed: f32,
    /// The largest rule force, and the largest sum of its hunts' and points' forces.
    pub max_force: f32,
}

impl SpeciesSettings {
    /// A species that behaves as the flock's settings say.
    pub fn from_config(config: &FlockConfig) -> Self {
        Self {
            weights: config.weights,
            separation_radius: config.separation_radius,
            alignment_radius: config.alignment_radius,
            cohesion_radius: config.cohesion_radius,
            max_speed: config.max_speed,
            max_force: config.max_force,
        }
    }

    /// The flock's settings with this species' rules: what a CPU flock of this species alone
    /// runs, and what [`check_species`] validates.
    pub fn config_for(&self, config: &FlockConfig) -> FlockConfig {
        FlockConfig {
            weights: self.weights,
            separation_radius: self.separation_radius,
            alignment_radius: self.alignment_radius,
            cohesion_radius: self.cohesion_radius,
            max_speed: self.max_speed,
            max_force: self.max_force,
            ..*config
        }
    }

    /// Its largest radius.
    pub(crate) fn max_radius(&self) -> f32 {
        self.separation_radius
            .max(self.alignment_radius)
            .max(self.cohesion_radius)
    }
}

/// One species hunting another (the Bevy plugin's `Hunt`): prey flee every predator within
/// `flee_radius`, and each predator pursues the nearest prey within `chase_radius`, predicting
/// where it will be at most `max_look_ahead` seconds ahead. The forces are flock_core's
/// `flee_all` and `pursue`, weighted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuHunt {
    /// The hunting species.
    pub predator: u32,
    /// The hunted species.
    pub prey: u32,
    /// How near a predator must be for prey to flee.
    pub flee_radius: f32,
    /// The weight of fleeing in the prey's sum.
    pub flee_weight: f32,
    /// How near prey must be to be chased.
    pub chase_radius: f32,
    /// The weight of pursuit in the predator's sum.
    pub chase_weight: f32,
    /// The longest pursuit prediction, seconds.
    pub max_look_ahead: f32,
}

impl GpuHunt {
    /// Its larger radius: how far the grid must reach for it.
    pub(crate) fn max_radius(&self) -> f32 {
        self.flee_radius.max(self.chase_radius)
    }
}

/// Checks species for a flock with `config`: at least one, at most [`MAX_SPECIES`], each
/// valid as [`check_config`](crate::check_config) checks the flock's settings with its rules in
/// them (so contradictions such as a max speed below the flock's min speed are refused too).
pub fn check_species(species: &[SpeciesSettings], config: &FlockConfig) -> Result<(), GpuError> {
    if species.is_empty() {
        return Err(GpuError::NoSpecies);
    }
    if species.len() > MAX_SPECIES {
        return Err(GpuError::TooMany {
            what: "species",
            requested: species.len(),
            limit: MAX_SPECIES,
        });
    }
    for (index, settings) in species.iter().enumerate() {
        crate::check_config(&settings.config_for(config))
            .map_err(|error| GpuError::Species { index, error })?;
    }
    Ok(())
}

/// Checks hunts between `species` species: at most [`MAX_HUNTS`], each between two different
/// species that exist, one hunt per pair, radii and look-ahead finite, not negative and at most
/// [`FlockConfig::MAX_MAGNITUDE`], weights finite and at most [`FlockConfig::MAX_WEIGHT`].
pub fn check_hunts(hunts: &[GpuHunt], species: usize) -> Result<(), GpuError> {
    if hunts.len() > MAX_HUNTS {
        return Err(GpuError::TooMany {
            what: "hunts",
            requested: hunts.len(),
            limit: MAX_HUNTS,
        });
    }
    for (index, hunt) in hunts.iter().enumerate() {
        let invalid = |error: ConfigError| GpuError::Hunt { index, error };
        for (field, value) in [("predator", hunt.predator), ("prey", hunt.prey)] {
            if value as usize >= species {
                return Err(invalid(ConfigError {
                    field,
                    value: value as f32,
                    reason: "names a species that is not set (set_species first)",
                }));
            }
        }
        if hunt.predator == hunt.prey {
            return Err(invalid(ConfigError {
                field: "prey",
                value: hunt.prey as f32,
                reason: "must differ from the predator: a species does not hunt itself",
            }));
        }
        let duplicate = hunts[..index]
            .iter()
            .any(|other| other.predator == hunt.predator && other.prey == hunt.prey);
        if duplicate {
            return Err(invalid(ConfigError {
                field: "prey",
                value: hunt.prey as f32,
                reason: "is hunted by this predator in an earlier hunt: one hunt per pair",
            }));
        }
        for (field, value) in [
            ("flee_radius", hunt.flee_radius),
            ("chase_radius", hunt.chase_radius),
            ("max_look_ahead", hunt.max_look_ahead),
        ] {
            check_size(field, value).map_err(invalid)?;
        }
        for (field, value) in [
            ("flee_weight", hunt.flee_weight),
            ("chase_weight", hunt.chase_weight),
        ] {
            check_weight(field, value).map_err(invalid)?;
        }
    }
    Ok(())
}

/// A radius or time: finite, not negative, at most [`FlockConfig::MAX_MAGNITUDE`].
pub(crate) fn check_size(field: &'static str, value: f32) -> Result<(), ConfigError> {
    if !value.is_finite() || value < 0.0 {
        return Err(ConfigError {
            field,
            value,
            reason: "must be a finite number, zero or more",
        });
    }
    if value > FlockConfig::MAX_MAGNITUDE {
        return Err(ConfigError {
            field,
            value,
            reason: "must be at most 1e9 (FlockConfig::MAX_MAGNITUDE)",
        });
    }
    Ok(())
}

/// A weight: finite and at most [`FlockConfig::MAX_WEIGHT`] in magnitude.
pub(crate) fn check_weight(field: &'static str, value: f32) -> Result<(), ConfigError> {
    if !(value.is_finite() && value.abs() <= FlockConfig::MAX_WEIGHT) {
        return Err(ConfigError {
            field,
            value,
            reason: "must be a finite number between -1e6 and 1e6 (FlockConfig::MAX_WEIGHT)",
        });
    }
    Ok(())
}

/// The `Kinds` uniform: the counts, then [`MAX_SPECIES`] species rules of three `vec4`s, then
/// a hunt for every ordered pair of species (predator x [`MAX_SPECIES`] + prey) of two `vec4`s,
/// unused pairs zero (inactive). With no species, every count is zero and the step skips it.
pub(crate) fn kinds_bytes(
    config: &FlockConfig,
    species: &[SpeciesSettings],
    hunts: &[GpuHunt],
) -> Vec<u8> {
    let mut words: Vec<[u8; 4]> = Vec::with_capacity(KINDS_WORDS);
    words.extend([species.len() as u32, hunts.len() as u32, 0, 0].map(u32::to_le_bytes));
    let min_speed = match config.speed_mode {
        SpeedMode::Constant => 0.0,
        SpeedMode::Clamp { min_speed } => min_speed,
    };
    for slot in 0..MAX_SPECIES {
        let rule = species
            .get(slot)
            .copied()
            .unwrap_or_else(|| SpeciesSettings::from_config(config));
        // As params.rs and flock_core's `StepConstants` derive them from the species' config.
        let dead_zone_squared = (RESCALE_DEAD_ZONE * rule.max_speed / config.response_time).powi(2);
        let floats = [
            rule.separation_radius * rule.separation_radius,
            rule.alignment_radius * rule.alignment_radius,
            rule.cohesion_radius * rule.cohesion_radius,
            0.0,
            rule.weights.separation,
            rule.weights.alignment,
            rule.weights.cohesion,
            0.0,
            rule.max_speed,
            rule.max_force,
            dead_zone_squared,
            min_speed,
        ];
        words.extend(floats.map(f32::to_le_bytes));
    }
    let mut table = [[0.0f32; 8]; MAX_SPECIES * MAX_SPECIES];
    for hunt in hunts {
        table[hunt.predator as usize * MAX_SPECIES + hunt.prey as usize] = [
            hunt.flee_radius,
            hunt.flee_weight,
            hunt.chase_radius,
            hunt.chase_weight,
            hunt.max_look_ahead,
            1.0,
            0.0,
            0.0,
        ];
    }
    words.extend(table.iter().flatten().map(|value| value.to_le_bytes()));
    to_bytes(words)
}

/// The `Kinds` uniform's size in words: counts, species, hunts.
const KINDS_WORDS: usize = 4 + MAX_SPECIES * 12 + MAX_SPECIES * MAX_SPECIES * 8;

/// The `Kinds` uniform's size in bytes.
pub(crate) const KINDS_BYTES: u64 = KINDS_WORDS as u64 * 4;
