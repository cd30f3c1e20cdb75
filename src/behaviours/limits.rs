//! Per-vehicle limits: speed, force and mass of its own, and a turn rate for vehicles that
//! cannot turn on the spot.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use flock_core::FlockConfig;

/// A vehicle's own limits, in place of the flock's `max_speed`, `max_force` and `mass` (the
/// cocos2d-x crowd demo gives its player, wanderers and fleers different ones). A boid with these
/// moves at any speed from zero up to `max_speed`, whatever the flock's speed mode, so it can stop.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct MotionLimits {
    /// Top speed, world units per second.
    pub max_speed: f32,
    /// The most steering force its behaviours may add up to.
    pub max_force: f32,
    /// Divides the force into an acceleration.
    pub mass: f32,
}

impl MotionLimits {
    /// Whether every limit is a positive number in the range [`FlockConfig::validate`] accepts
    /// for the flock's own (at most `FlockConfig::MAX_MAGNITUDE`, a mass of at least
    /// `FlockConfig::MIN_TIME_AND_MASS`), where no step's arithmetic can overflow; invalid
    /// limits are ignored (and reported once) in favour of the flock's.
    pub fn is_valid(&self) -> bool {
        let in_range = |value: f32, min: f32| (min..=FlockConfig::MAX_MAGNITUDE).contains(&value);
        [self.max_speed, self.max_force]
            .iter()
            .all(|&value| value > 0.0 && in_range(value, 0.0))
            && in_range(self.mass, FlockConfig::MIN_TIME_AND_MASS)
    }

    /// These limits if valid, else the flock's.
    pub(crate) fn or_flock(limits: Option<&Self>, config: &FlockConfig) -> Self {
        match limits {
            Some(limits) if limits.is_valid() => *limits,
            _ => Self {
                max_speed: config.max_speed,
                max_force: config.max_force,
                mass: config.mass,
            },
        }
    }
}

/// A vehicle that turns at most `max_turn_rate` radians per second and changes speed by at
/// most `max_acceleration` per second: one that cannot turn on the spot. Applied at
/// integration, after every force, so nothing can turn it faster.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct TurnRate {
    /// Radians per second.
    pub max_turn_rate: f32,
    /// World units per second, per second.
    pub max_acceleration: f32,
}

impl TurnRate {
    /// Whether both limits are finite and not negative; an invalid one is not applied.
    pub fn is_valid(&self) -> bool {
        [self.max_turn_rate, self.max_acceleration]
            .iter()
            .all(|value| value.is_finite() && *value >= 0.0)
    }
}

/// Reports, once per boid until its limits are valid again, [`MotionLimits`] or a [`TurnRate`]
/// that is not used because it is invalid. Only changed components are looked at.
pub(crate) fn report_invalid_limits(
    mut reported: Local<EntityHashSet>,
    boids: Query<
        (Entity, Option<&MotionLimits>, Option<&TurnRate>),
        Or<(Changed<MotionLimits>, Changed<TurnRate>)>,
    >,
) {
    for (entity, limits, turn_rate) in &boids {
        let bad_limits = limits.filter(|limits| !limits.is_valid());
        let bad_turn = turn_rate.filter(|turn| !turn.is_valid());
        if bad_limits.is_none() && bad_turn.is_none() {
            reported.remove(&entity);
            continue;
        }
        if !reported.insert(entity) {
            continue;
        }
        if let Some(limits) = bad_limits {
            warn!("bevy_flock: {entity} has invalid MotionLimits {limits:?}; using the flock's");
        }
        if let Some(turn) = bad_turn {
            warn!(
                "bevy_flock: {entity} has an invalid TurnRate {turn:?}; its turns are not limited"
            );
        }
    }
}
