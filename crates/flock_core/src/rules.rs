//! Separation, alignment and cohesion in one pass over a boid's neighbours (seed 002's merged
//! version), each rule with its own radius, turned into a steering force by Reynolds' formula.

use crate::config::{FlockConfig, ForceLimit, RuleWeights};
use crate::index::NeighbourIndex;
use crate::math::{Vector, steer_towards};
use crate::space::Space;

/// Values derived once per step from a [`FlockConfig`], so the per-neighbour loop only compares
/// squared distances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepConstants {
    /// The space distances are measured in.
    pub space: Space,
    /// How far a neighbour query reaches.
    pub query_radius: f32,
    separation_radius_squared: f32,
    alignment_radius_squared: f32,
    cohesion_radius_squared: f32,
    /// Cosine of half the view angle; `None` when the boid sees all around.
    cos_half_view: Option<f32>,
    max_speed: f32,
    max_force: f32,
    force_limit: ForceLimit,
}

impl StepConstants {
    /// Derives the constants of one step.
    pub fn new(config: &FlockConfig) -> Self {
        let half_view = (config.view_angle_degrees / 2.0).to_radians();
        Self {
            space: Space::of(config),
            query_radius: config.max_radius(),
            separation_radius_squared: config.separation_radius * config.separation_radius,
            alignment_radius_squared: config.alignment_radius * config.alignment_radius,
            cohesion_radius_squared: config.cohesion_radius * config.cohesion_radius,
            cos_half_view: (config.view_angle_degrees < 360.0).then(|| half_view.cos()),
            max_speed: config.max_speed,
            max_force: config.max_force,
            force_limit: config.force_limit,
        }
    }
}

/// The three rule forces of one boid, each already limited, before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RuleForces {
    /// Steer away from neighbours inside the separation radius.
    pub separation: Vector,
    /// Steer towards the average velocity of neighbours inside the alignment radius.
    pub alignment: Vector,
    /// Steer towards the average position of neighbours inside the cohesion radius.
    pub cohesion: Vector,
    /// How many neighbours counted for any rule.
    pub neighbours: u32,
}

impl RuleForces {
    /// The weighted sum of the three forces.
    pub fn weighted(&self, weights: &RuleWeights) -> Vector {
        self.separation * weights.separation
            + self.alignment * weights.alignment
            + self.cohesion * weights.cohesion
    }
}

/// The three rule forces on boid `me`, from the candidates `neighbours` (indexes into the
/// slices; `me` itself and any boid at distance zero are skipped, as in seed 002).
pub fn rule_forces(
    me: usize,
    positions: &[Vector],
    velocities: &[Vector],
    neighbours: &[u32],
    constants: &StepConstants,
) -> RuleForces {
    let position = positions[me];
    let velocity = velocities[me];
    let heading = velocity.normalize_or_zero();

    let mut away = Vector::ZERO;
    let mut separation_count = 0u32;
    let mut velocity_sum = Vector::ZERO;
    let mut alignment_count = 0u32;
    let mut offset_sum = Vector::ZERO;
    let mut cohesion_count = 0u32;
    let mut neighbour_count = 0u32;

    for &other in neighbours {
        let other = other as usize;
        if other == me {
            continue;
        }
        let offset = constants.space.delta(position, positions[other]);
        let distance_squared = offset.length_squared();
        if distance_squared == 0.0 {
            continue;
        }
        if let Some(cos_half_view) = constants.cos_half_view {
            // Inside the cone when the angle to the heading is at most half the view angle;
            // a boid at rest has no heading and sees all around.
            if heading != Vector::ZERO
                && offset.dot(heading) < cos_half_view * distance_squared.sqrt()
            {
                continue;
            }
        }
        let mut counted = false;
        if distance_squared < constants.separation_radius_squared {
            // The unit vector away from the neighbour, divided by the distance: -offset / d^2.
            away -= offset / distance_squared;
            separation_count += 1;
            counted = true;
        }
        if distance_squared < constants.alignment_radius_squared {
            velocity_sum += velocities[other];
            alignment_count += 1;
            counted = true;
        }
        if distance_squared < constants.cohesion_radius_squared {
            offset_sum += offset;
            cohesion_count += 1;
            counted = true;
        }
        neighbour_count += u32::from(counted);
    }

    let steer = |desired: Vector| {
        steer_towards(
            desired,
            velocity,
            constants.max_force,
            constants.force_limit,
        )
    };
    let mut forces = RuleForces {
        neighbours: neighbour_count,
        ..RuleForces::default()
    };
    if separation_count > 0 {
        let average_away = away / separation_count as f32;
        if average_away != Vector::ZERO {
            forces.separation = steer(average_away.normalize_or_zero() * constants.max_speed);
        }
    }
    if alignment_count > 0 {
        let average_velocity = velocity_sum / alignment_count as f32;
        forces.alignment = steer(average_velocity.normalize_or_zero() * constants.max_speed);
    }
    if cohesion_count > 0 {
        // Seek the average position: the offset to it is the average offset, which stays right
        // across a wrapping seam where averaging absolute positions would not.
        let to_centre = offset_sum / cohesion_count as f32;
        forces.cohesion = steer(to_centre.normalize_or_zero() * constants.max_speed);
    }
    forces
}

/// The weighted flocking force on boid `me` (see [`rule_forces`]).
pub fn flocking_force(
    me: usize,
    positions: &[Vector],
    velocities: &[Vector],
    weights: &RuleWeights,
    neighbours: &[u32],
    constants: &StepConstants,
) -> Vector {
    rule_forces(me, positions, velocities, neighbours, constants).weighted(weights)
}

/// Computes every boid's flocking force from one snapshot into `forces`, using `index`, which
/// must have been rebuilt over `positions`. Every boid reads the same snapshot, so the result
/// does not depend on the order boids are visited in.
///
/// # Panics
/// If the slices differ in length.
pub fn compute_forces(
    index: &impl NeighbourIndex,
    constants: &StepConstants,
    positions: &[Vector],
    velocities: &[Vector],
    weights: &[RuleWeights],
    forces: &mut [Vector],
) {
    assert_eq!(positions.len(), velocities.len(), "one velocity per boid");
    assert_eq!(
        positions.len(),
        weights.len(),
        "one set of weights per boid"
    );
    assert_eq!(positions.len(), forces.len(), "one force per boid");
    let mut candidates = Vec::new();
    for (me, force) in forces.iter_mut().enumerate() {
        index.candidates(positions[me], constants.query_radius, &mut candidates);
        *force = flocking_force(
            me,
            positions,
            velocities,
            &weights[me],
            &candidates,
            constants,
        );
    }
}
