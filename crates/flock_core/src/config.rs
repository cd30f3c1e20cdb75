//! Flock-wide settings: radii, weights, limits, modes and bounds, with their validation.

use std::fmt;

use crate::math::DIMENSIONS;
// `math` holds the two settings types the vector helpers take, below this module; they are
// named here too, beside the settings that hold them.
pub(crate) use crate::math::{Bounds, ForceLimit};

/// How speed is kept in range after each step.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SpeedMode {
    /// Every moving boid flies at exactly `max_speed` (the Unity port of Processing's
    /// *Flocking* renormalises each step).
    Constant,
    /// Speed stays between `min_speed` and `max_speed`; a boid at rest stays at rest.
    Clamp {
        /// The lowest speed of a moving boid, world units per second.
        min_speed: f32,
    },
}

impl Default for SpeedMode {
    fn default() -> Self {
        Self::Clamp { min_speed: 0.0 }
    }
}

/// What happens at the bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EdgeMode {
    /// Leave on one side, come back on the other, keeping the overshoot (the ActionScript
    /// flocking tutorial's WRAP; a far-out point still lands inside).
    #[default]
    Wrap,
    /// The borders of Processing's *Flocking* as ported to Unity: past an edge, jump to the
    /// opposite edge, losing the overshoot. Neighbours are found by plain distance, as in the
    /// port.
    Jump,
    /// Reflect off the bounds, flipping the velocity component (the ActionScript flocking
    /// tutorial's BOUNCE).
    Bounce,
    /// No edges: the world is unbounded.
    Free,
}

/// Which neighbour index answers the "who is near me" question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum IndexKind {
    /// A uniform grid of cells at least one query radius wide, built by a counting sort every
    /// step, with the boids reordered into cell order: the fastest.
    #[default]
    Grid,
    /// A KD-tree (kiddo), rebuilt every step.
    KdTree,
    /// Every boid against every other: the reference, O(N^2).
    BruteForce,
}

/// Which of the boids within the rules' radii a boid flocks with.
///
/// Starlings attend to their six or seven nearest neighbours whatever the distance between them
/// (Ballerini et al., "Interaction ruling animal collective behavior depends on topological
/// rather than metric distance", PNAS 2008). Here the nearest are sought within the largest
/// rule radius, the perception radius: a neighbour farther than that is never seen, so every
/// index keeps its usual query and the grid its stencil. With a radius wide enough for the
/// flock's density this is Ballerini's topological rule; with a narrower one it is a cap on the
/// neighbours counted within the radius, the nearest kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Neighbours {
    /// Every boid within each rule's radius (Reynolds' and the source documents' rule).
    #[default]
    Metric,
    /// Only the `k` nearest boids within the largest rule radius (among those in view), nearer
    /// first and, at equal distances, lower index first, so every index picks the same ones;
    /// each rule then counts those of them inside its own radius.
    Nearest {
        /// How many, from 1 to [`Neighbours::MAX_NEAREST`].
        k: u32,
    },
}

impl Neighbours {
    /// The largest `k` [`FlockConfig::validate`] accepts: more than any flock attends to (the
    /// starlings' 7), small enough that choosing them stays a short partial sort.
    pub const MAX_NEAREST: u32 = 1024;

    /// How many nearest neighbours count, or `None` for all within the radii.
    pub fn nearest(&self) -> Option<u32> {
        match *self {
            Self::Metric => None,
            Self::Nearest { k } => Some(k),
        }
    }
}

/// The weight of each flocking rule in the sum of forces.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RuleWeights {
    /// Weight of separation (steer away from crowding neighbours).
    pub separation: f32,
    /// Weight of alignment (steer towards the neighbours' average heading).
    pub alignment: f32,
    /// Weight of cohesion (steer towards the neighbours' average position).
    pub cohesion: f32,
}

impl RuleWeights {
    /// Every rule off: for boids that behaviours alone move. Turn one rule back on with
    /// `RuleWeights { separation: 1.0, ..RuleWeights::NONE }`.
    pub const NONE: Self = Self {
        separation: 0.0,
        alignment: 0.0,
        cohesion: 0.0,
    };

    /// Refused: a weight that is not finite or beyond [`FlockConfig::MAX_WEIGHT`] either way.
    /// [`FlockConfig::validate`] checks the flock's weights with this; the plugin checks a
    /// boid's own weights with it too.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let weights = [
            ("weights.separation", self.separation),
            ("weights.alignment", self.alignment),
            ("weights.cohesion", self.cohesion),
        ];
        for (field, value) in weights {
            check_finite(field, value)?;
            if value.abs() > FlockConfig::MAX_WEIGHT {
                return Err(ConfigError::new(
                    field,
                    value,
                    "must be between -1e6 and 1e6 (FlockConfig::MAX_WEIGHT)",
                ));
            }
        }
        Ok(())
    }
}

impl Default for RuleWeights {
    /// The mix of Processing's *Flocking* and its Unity port: separation 1.5, alignment 1,
    /// cohesion 1.
    fn default() -> Self {
        Self {
            separation: 1.5,
            alignment: 1.0,
            cohesion: 1.0,
        }
    }
}

/// Everything the kernel needs to know about a flock, in world units and seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlockConfig {
    /// Neighbours closer than this push a boid away.
    pub separation_radius: f32,
    /// Neighbours closer than this contribute to the average heading.
    pub alignment_radius: f32,
    /// Neighbours closer than this contribute to the average position.
    pub cohesion_radius: f32,
    /// Default rule weights, for boids that don't bring their own.
    pub weights: RuleWeights,
    /// The top speed, world units per second.
    pub max_speed: f32,
    /// How speed is kept in range.
    pub speed_mode: SpeedMode,
    /// The largest steering force of one rule, world units per second squared (times mass).
    pub max_force: f32,
    /// How each rule's force is limited to `max_force`.
    pub force_limit: ForceLimit,
    /// Seconds in which a steering force would turn the velocity into the desired one, before
    /// the force limit: the force is `(desired - velocity) / response_time`. The source
    /// documents steer per frame, so one frame (1/60 s) reproduces them in seconds; use 1 with
    /// per-frame units.
    pub response_time: f32,
    /// Acceleration is force divided by mass.
    pub mass: f32,
    /// The full field of view around the heading, in degrees: 360 sees all around (off), 180 is
    /// the ActionScript flocking tutorial's half-plane in front. In 3D it is the opening angle
    /// of a cone around the heading (180: the half-space in front).
    pub view_angle_degrees: f32,
    /// What happens at the bounds.
    pub edges: EdgeMode,
    /// The world rectangle (box in 3D) the edges apply to.
    pub bounds: Bounds,
    /// With wrapping edges, find neighbours across the seam so a flock crossing an edge stays one
    /// flock. Off reproduces the source documents, which use plain distance.
    pub wrap_neighbours: bool,
    /// The neighbour index.
    pub index: IndexKind,
    /// Which boids within the radii count: all, or only the nearest (topological neighbours).
    /// Settings written before it existed load as [`Neighbours::Metric`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub neighbours: Neighbours,
}

impl Default for FlockConfig {
    /// Processing's *Flocking* example, in pixels and seconds at 60 frames per second, in a
    /// 1280 x 720 world centred on the origin (a default 2D camera's view; 720 deep in 3D).
    fn default() -> Self {
        Self::processing()
    }
}

impl FlockConfig {
    /// The same flock in other length units: radii, speeds, forces and bounds multiplied by
    /// `units_per_unit` (e.g. 72 to show the 10-unit-high world of the Unity port of
    /// Processing's *Flocking* 720 pixels high).
    pub fn scaled(mut self, units_per_unit: f32) -> Self {
        self.separation_radius *= units_per_unit;
        self.alignment_radius *= units_per_unit;
        self.cohesion_radius *= units_per_unit;
        self.max_speed *= units_per_unit;
        self.max_force *= units_per_unit;
        if let SpeedMode::Clamp { min_speed } = &mut self.speed_mode {
            *min_speed *= units_per_unit;
        }
        self.bounds.min *= units_per_unit;
        self.bounds.max *= units_per_unit;
        self
    }

    /// The largest of the three rule radii: how far a neighbour query must reach.
    pub fn max_radius(&self) -> f32 {
        self.separation_radius
            .max(self.alignment_radius)
            .max(self.cohesion_radius)
    }

    /// Whether neighbours are found across the seam of a wrapping world.
    pub fn neighbours_wrap(&self) -> bool {
        self.edges == EdgeMode::Wrap && self.wrap_neighbours
    }

    /// The largest radius, speed, force, response time, mass or bounds coordinate
    /// [`FlockConfig::validate`] accepts. With every magnitude at most this, every rule weight at
    /// most [`FlockConfig::MAX_WEIGHT`] and mass and response time at least
    /// [`FlockConfig::MIN_TIME_AND_MASS`], no step's f32 arithmetic can overflow: an unlimited
    /// force is at most `2e9 / 1e-6`, whose square is still finite.
    pub const MAX_MAGNITUDE: f32 = 1e9;

    /// The largest rule weight, in magnitude, [`FlockConfig::validate`] accepts.
    pub const MAX_WEIGHT: f32 = 1e6;

    /// The smallest `response_time` and `mass` [`FlockConfig::validate`] accepts: dividing by
    /// less could overflow.
    pub const MIN_TIME_AND_MASS: f32 = 1e-6;

    /// Checks every field; the first invalid one is named in the error, with its value and why.
    ///
    /// Refused: a non-finite number anywhere; a negative radius; a max speed, max force,
    /// response time or mass of zero or less; a min speed below zero or above max speed; a view
    /// angle outside (0, 360]; bounds with no width, height (or depth, in 3D); a number of
    /// nearest neighbours outside 1 to [`Neighbours::MAX_NEAREST`]; magnitudes
    /// beyond [`FlockConfig::MAX_MAGNITUDE`] or [`FlockConfig::MAX_WEIGHT`], and response time
    /// or mass below [`FlockConfig::MIN_TIME_AND_MASS`], where f32 arithmetic would overflow.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let radii = [
            ("separation_radius", self.separation_radius),
            ("alignment_radius", self.alignment_radius),
            ("cohesion_radius", self.cohesion_radius),
        ];
        for (field, value) in radii {
            check_finite(field, value)?;
            if value < 0.0 {
                return Err(ConfigError::new(field, value, "must not be negative"));
            }
            check_at_most(field, value, Self::MAX_MAGNITUDE)?;
        }
        self.weights.validate()?;
        let positive = [
            ("max_speed", self.max_speed),
            ("max_force", self.max_force),
            ("response_time", self.response_time),
            ("mass", self.mass),
        ];
        for (field, value) in positive {
            check_finite(field, value)?;
            if value <= 0.0 {
                return Err(ConfigError::new(field, value, "must be greater than zero"));
            }
            check_at_most(field, value, Self::MAX_MAGNITUDE)?;
        }
        for (field, value) in [("response_time", self.response_time), ("mass", self.mass)] {
            if value < Self::MIN_TIME_AND_MASS {
                return Err(ConfigError::new(
                    field,
                    value,
                    "must be at least 1e-6 (FlockConfig::MIN_TIME_AND_MASS)",
                ));
            }
        }
        if let SpeedMode::Clamp { min_speed } = self.speed_mode {
            check_finite("speed_mode.min_speed", min_speed)?;
            if !(0.0..=self.max_speed).contains(&min_speed) {
                return Err(ConfigError::new(
                    "speed_mode.min_speed",
                    min_speed,
                    "must be between zero and max_speed",
                ));
            }
        }
        check_finite("view_angle_degrees", self.view_angle_degrees)?;
        if !(self.view_angle_degrees > 0.0 && self.view_angle_degrees <= 360.0) {
            return Err(ConfigError::new(
                "view_angle_degrees",
                self.view_angle_degrees,
                "must be above 0 and at most 360",
            ));
        }
        let corners = BOUNDS_FIELDS.iter().map(|fields| fields.min);
        let corners = corners.chain(BOUNDS_FIELDS.iter().map(|fields| fields.max));
        for (corner, axis) in corners.zip((0..DIMENSIONS).cycle()) {
            let value = if corner.contains("min") {
                self.bounds.min[axis]
            } else {
                self.bounds.max[axis]
            };
            check_finite(corner, value)?;
            check_at_most(corner, value, Self::MAX_MAGNITUDE)?;
        }
        let size = self.bounds.size();
        for (axis, fields) in BOUNDS_FIELDS.iter().enumerate() {
            if size[axis] <= 0.0 {
                return Err(ConfigError::new("bounds", size[axis], fields.empty));
            }
        }
        if let Some(k) = self.neighbours.nearest()
            && !(1..=Neighbours::MAX_NEAREST).contains(&k)
        {
            return Err(ConfigError::new(
                "neighbours.k",
                k as f32,
                "must be from 1 to 1024 (Neighbours::MAX_NEAREST)",
            ));
        }
        Ok(())
    }
}

/// The names [`FlockConfig::validate`] gives each axis of the bounds.
struct AxisFields {
    min: &'static str,
    max: &'static str,
    empty: &'static str,
}

const BOUNDS_FIELDS: [AxisFields; DIMENSIONS] = [
    AxisFields {
        min: "bounds.min.x",
        max: "bounds.max.x",
        empty: "has no width: max.x must be greater than min.x",
    },
    AxisFields {
        min: "bounds.min.y",
        max: "bounds.max.y",
        empty: "has no height: max.y must be greater than min.y",
    },
    #[cfg(flock_3d)]
    AxisFields {
        min: "bounds.min.z",
        max: "bounds.max.z",
        empty: "has no depth: max.z must be greater than min.z",
    },
];

fn check_finite(field: &'static str, value: f32) -> Result<(), ConfigError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(ConfigError::new(field, value, "must be a finite number"))
    }
}

fn check_at_most(field: &'static str, value: f32, max: f32) -> Result<(), ConfigError> {
    if value.abs() <= max {
        Ok(())
    } else {
        Err(ConfigError::new(
            field,
            value,
            "is too large: at most 1e9 in magnitude (FlockConfig::MAX_MAGNITUDE)",
        ))
    }
}

/// An invalid [`FlockConfig`] field: which one, its value and why it is refused.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    /// The field's path, e.g. `max_speed` or `bounds.min.x`.
    pub field: &'static str,
    /// The refused value.
    pub value: f32,
    /// What the value must be.
    pub reason: &'static str,
}

impl ConfigError {
    fn new(field: &'static str, value: f32, reason: &'static str) -> Self {
        Self {
            field,
            value,
            reason,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid flock setting `{}` = {}: {}",
            self.field, self.value, self.reason
        )
    }
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::world_size;

    #[test]
    fn presets_are_valid() {
        assert_eq!(FlockConfig::processing().validate(), Ok(()));
        assert_eq!(FlockConfig::unity_port().validate(), Ok(()));
    }

    #[test]
    fn scaling_changes_units_not_behaviour() {
        let document = FlockConfig::unity_port();
        let pixels = document.scaled(72.0);
        assert_eq!(pixels.bounds.size(), world_size(1440.0, 720.0));
        assert!((pixels.separation_radius - 28.8).abs() < 1e-4);
        assert!(
            (pixels.max_speed / pixels.max_force - document.max_speed / document.max_force).abs()
                < 1e-6
        );
        assert_eq!(pixels.weights, document.weights);
    }

    /// Every kind of invalid value the issue lists, each refused with its field named.
    #[test]
    fn every_invalid_value_is_refused_naming_its_field() {
        type Change = fn(&mut FlockConfig);
        let cases: [(Change, &str, &str); 24] = [
            (|c| c.max_speed = f32::NAN, "max_speed", "finite"),
            (|c| c.max_force = f32::INFINITY, "max_force", "finite"),
            (
                |c| c.weights.alignment = f32::NEG_INFINITY,
                "weights.alignment",
                "finite",
            ),
            (
                |c| c.view_angle_degrees = f32::NAN,
                "view_angle_degrees",
                "finite",
            ),
            (|c| c.bounds.min.x = f32::NAN, "bounds.min.x", "finite"),
            (
                |c| c.separation_radius = -1.0,
                "separation_radius",
                "negative",
            ),
            (
                |c| c.alignment_radius = -0.5,
                "alignment_radius",
                "negative",
            ),
            (|c| c.cohesion_radius = -1.0, "cohesion_radius", "negative"),
            (|c| c.max_speed = -2.0, "max_speed", "greater than zero"),
            (|c| c.max_speed = 0.0, "max_speed", "greater than zero"),
            (
                |c| c.speed_mode = SpeedMode::Clamp { min_speed: -1.0 },
                "speed_mode.min_speed",
                "between zero and max_speed",
            ),
            (
                |c| {
                    c.speed_mode = SpeedMode::Clamp {
                        min_speed: c.max_speed * 2.0,
                    }
                },
                "speed_mode.min_speed",
                "between zero and max_speed",
            ),
            (|c| c.max_force = 0.0, "max_force", "greater than zero"),
            (
                |c| c.response_time = 0.0,
                "response_time",
                "greater than zero",
            ),
            (|c| c.mass = 0.0, "mass", "greater than zero"),
            (|c| c.mass = 1e-9, "mass", "at least 1e-6"),
            (
                |c| c.view_angle_degrees = 0.0,
                "view_angle_degrees",
                "above 0",
            ),
            (
                |c| c.view_angle_degrees = 361.0,
                "view_angle_degrees",
                "at most 360",
            ),
            (|c| c.bounds.max.x = c.bounds.min.x, "bounds", "no width"),
            (
                |c| c.bounds.max.y = c.bounds.min.y - 1.0,
                "bounds",
                "no height",
            ),
            (|c| c.max_speed = 1e12, "max_speed", "too large"),
            (|c| c.cohesion_radius = 1e10, "cohesion_radius", "too large"),
            (|c| c.bounds.min.y = -1e10, "bounds.min.y", "too large"),
            (
                |c| c.weights.separation = -1e7,
                "weights.separation",
                "MAX_WEIGHT",
            ),
        ];
        for (change, field, reason) in cases {
            let mut config = FlockConfig::default();
            change(&mut config);
            let error = config.validate().expect_err(field);
            assert_eq!(error.field, field, "{error}");
            assert!(error.to_string().contains(reason), "{error}");
        }
    }

    #[test]
    fn extremes_inside_the_limits_are_valid() {
        let mut config = FlockConfig {
            separation_radius: 0.0,
            alignment_radius: FlockConfig::MAX_MAGNITUDE,
            max_speed: FlockConfig::MAX_MAGNITUDE,
            speed_mode: SpeedMode::Clamp {
                min_speed: FlockConfig::MAX_MAGNITUDE,
            },
            max_force: FlockConfig::MAX_MAGNITUDE,
            response_time: FlockConfig::MIN_TIME_AND_MASS,
            mass: FlockConfig::MIN_TIME_AND_MASS,
            view_angle_degrees: 360.0,
            ..FlockConfig::default()
        };
        config.weights.cohesion = -FlockConfig::MAX_WEIGHT;
        config.bounds.min.x = -FlockConfig::MAX_MAGNITUDE;
        assert_eq!(config.validate(), Ok(()));
    }
}
