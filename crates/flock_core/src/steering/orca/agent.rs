//! One agent of a crowd, as the crowd step and the contact pass both read it.

use super::OrcaParams;
use crate::math::Vector;

/// One agent of a crowd: its index in the slice is its id (order the slice by a stable id).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdAgent {
    /// Where it is.
    pub position: Vector,
    /// How it moves now (the last step's ORCA velocity).
    pub velocity: Vector,
    /// How it would move with nobody around.
    pub preferred_velocity: Vector,
    /// The fastest it may go.
    pub max_speed: f32,
    /// How it avoids the others.
    pub params: OrcaParams,
}

impl CrowdAgent {
    /// An agent standing at `position` that would like to move at `preferred_velocity`: it
    /// starts at rest, as RVO2's agents do.
    pub fn standing(
        position: Vector,
        preferred_velocity: Vector,
        max_speed: f32,
        params: OrcaParams,
    ) -> Self {
        Self {
            position,
            velocity: Vector::ZERO,
            preferred_velocity,
            max_speed,
            params,
        }
    }
}
