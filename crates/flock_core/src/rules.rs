//! Separation, alignment and cohesion in one pass over a boid's neighbours (the merged version of
//! Processing's *Flocking* as ported to Unity), each rule with its own radius, turned into a
//! steering force by Reynolds' formula.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::config::{FlockConfig, ForceLimit, RuleWeights};
use crate::index::candidates::NeighbourIndex;
use glam::{BVec4A, Vec4};

use crate::math::{DIMENSIONS, DVector, Vector, narrow, widen};
use crate::parallel::{Executor, chunk_len_for};
use crate::space::Space;

/// Values derived once per step from a [`FlockConfig`], so the per-neighbour loop only compares
/// squared distances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepConstants {
    /// The space distances are measured in.
    pub space: Space,
    /// How far a neighbour query reaches.
    pub query_radius: f32,
    pub(crate) separation_radius_squared: f32,
    pub(crate) alignment_radius_squared: f32,
    pub(crate) cohesion_radius_squared: f32,
    /// Cosine of half the view angle; `None` when the boid sees all around.
    pub(crate) cos_half_view: Option<f32>,
    pub(crate) max_speed: f32,
    pub(crate) max_force: f32,
    pub(crate) force_limit: ForceLimit,
    pub(crate) response_time: f32,
    /// With [`ForceLimit::Rescale`], forces no longer than this give no force (squared).
    pub(crate) dead_zone_squared: f32,
    /// How many nearest neighbours count ([`Neighbours::Nearest`]); `None`: all in the radii.
    ///
    /// [`Neighbours::Nearest`]: crate::Neighbours::Nearest
    pub(crate) nearest: Option<u32>,
}

/// The Unity port of Processing's *Flocking* writes `steer.normalized * maxforce`, and Unity's
/// `Vector3.normalized` returns zero for a magnitude of 1e-5 or less: a rule that is nearly
/// satisfied gives no force at all instead of a full-size one in a near-random direction. The steer
/// is a velocity change per frame and the port's max speed is 0.02 per frame, so the threshold is
/// this fraction of max speed, which holds in any length and time units: [`ForceLimit::Rescale`]
/// gives no force when `|force| * response_time <= RESCALE_DEAD_ZONE * max_speed`.
pub const RESCALE_DEAD_ZONE: f32 = 1e-5 / 0.02;

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
            cos_half_view: (config.view_angle_degrees < 360.0).then(|| crate::math::cos(half_view)),
            max_speed: config.max_speed,
            max_force: config.max_force,
            force_limit: config.force_limit,
            response_time: config.response_time,
            dead_zone_squared: (RESCALE_DEAD_ZONE * config.max_speed / config.response_time)
                .powi(2),
            nearest: config.neighbours.nearest(),
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

/// What one pass over a boid's neighbours collects, before it becomes forces.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RuleSums {
    /// Sum over separation neighbours of the unit vector away from them divided by distance.
    pub away: Vector,
    /// How many neighbours are inside the separation radius.
    pub separation_count: f32,
    /// Sum of the velocities of alignment neighbours.
    pub velocity_sum: Vector,
    /// How many neighbours are inside the alignment radius.
    pub alignment_count: f32,
    /// Sum of the offsets to cohesion neighbours.
    pub offset_sum: Vector,
    /// How many neighbours are inside the cohesion radius.
    pub cohesion_count: f32,
    /// How many neighbours counted for any rule.
    pub neighbours: f32,
}

impl RuleSums {
    /// Reynolds' steering for each rule: the average becomes a desired velocity at max speed,
    /// the force is `(desired - velocity) / response_time`, limited.
    ///
    /// The three rules are computed side by side in the lanes of one `Vec4` (separation,
    /// alignment, cohesion, unused), which keeps this per-boid tail cheap next to the
    /// neighbour pass. Only the direction of each average matters, so the sums are normalised
    /// without dividing by the count first.
    pub fn into_forces(self, velocity: Vector, constants: &StepConstants) -> RuleForces {
        // One Vec4 per axis: its lanes are the three rules' components on that axis.
        let axes: [Vec4; DIMENSIONS] = std::array::from_fn(|axis| {
            Vec4::new(
                self.away[axis],
                self.velocity_sum[axis],
                self.offset_sum[axis],
                0.0,
            )
        });
        let counts = Vec4::new(
            self.separation_count,
            self.alignment_count,
            self.cohesion_count,
            0.0,
        );
        let length_squared = squared_length(&axes);
        let has_direction = length_squared.cmpgt(Vec4::ZERO);
        // Desired velocity: the sum's direction at max speed (zero for a zero sum, as Unity's
        // `normalized` gives).
        let to_speed = Vec4::select(
            has_direction,
            Vec4::splat(constants.max_speed) / length_squared.sqrt(),
            Vec4::ZERO,
        );
        let per_response = Vec4::splat(constants.response_time.recip());
        let force: [Vec4; DIMENSIONS] = std::array::from_fn(|axis| {
            (axes[axis] * to_speed - Vec4::splat(velocity[axis])) * per_response
        });
        let force_squared = squared_length(&force);
        let max_force = Vec4::splat(constants.max_force);
        let limit = max_force / force_squared.sqrt();
        let scale = match constants.force_limit {
            ForceLimit::Truncate => {
                Vec4::select(force_squared.cmpgt(max_force * max_force), limit, Vec4::ONE)
            }
            ForceLimit::Rescale => {
                let dead_zone = Vec4::splat(constants.dead_zone_squared);
                Vec4::select(force_squared.cmpgt(dead_zone), limit, Vec4::ZERO)
            }
        };
        // A rule acts only with neighbours in its radius; separation also needs a non-zero
        // push (the Unity port: `if (steer.magnitude > 0)`), while alignment and cohesion with a
        // zero average steer to a stop, as the source documents' formulas do.
        // A sum beyond f32 (neighbours whose velocities other code made absurdly large but
        // finite) has an infinite length and gives `inf * 0`: such a rule gives no force rather
        // than NaN.
        let finite = force.iter().fold(BVec4A::splat(true), |finite, axis| {
            finite & (*axis * scale).is_finite_mask()
        });
        let acts = counts.cmpgt(Vec4::ZERO)
            & (has_direction | BVec4A::new(false, true, true, false))
            & finite;
        let force = force.map(|axis| Vec4::select(acts, axis * scale, Vec4::ZERO));
        let rule = |lane: usize| {
            let mut rule = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                rule[axis] = force[axis][lane];
            }
            rule
        };
        RuleForces {
            separation: rule(0),
            alignment: rule(1),
            cohesion: rule(2),
            neighbours: self.neighbours as u32,
        }
    }
}

/// The squared lengths of the vectors whose components are `axes`, lane by lane.
#[inline]
fn squared_length(axes: &[Vec4; DIMENSIONS]) -> Vec4 {
    axes[1..]
        .iter()
        .fold(axes[0] * axes[0], |sum, axis| sum + *axis * *axis)
}

/// The three rule forces on boid `me`, from the candidates `neighbours` (indexes into the slices;
/// `me` itself and any boid at distance zero are skipped, as in the Unity port of Processing's
/// *Flocking*).
pub fn rule_forces(
    me: usize,
    positions: &[Vector],
    velocities: &[Vector],
    neighbours: &[u32],
    constants: &StepConstants,
) -> RuleForces {
    let position = positions[me];
    let velocity = usable_velocity(velocities[me]);
    let heading = velocity.normalize_or_zero();
    // The reference path sums in f64, so the vectorised f32 lanes of the grid are compared
    // against sums without their own rounding error.
    let (mut away, mut velocity_sum, mut offset_sum) =
        (DVector::ZERO, DVector::ZERO, DVector::ZERO);
    let mut sums = RuleSums::default();

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
        if !in_view(offset, distance_squared, heading, constants) {
            continue;
        }
        let mut counted = false;
        if distance_squared < constants.separation_radius_squared {
            // The unit vector away from the neighbour, divided by the distance: -offset / d^2.
            away -= widen(offset) / f64::from(distance_squared);
            sums.separation_count += 1.0;
            counted = true;
        }
        if distance_squared < constants.alignment_radius_squared {
            velocity_sum += widen(usable_velocity(velocities[other]));
            sums.alignment_count += 1.0;
            counted = true;
        }
        if distance_squared < constants.cohesion_radius_squared {
            offset_sum += widen(offset);
            sums.cohesion_count += 1.0;
            counted = true;
        }
        sums.neighbours += f32::from(u8::from(counted));
    }
    sums.away = narrow(away);
    sums.velocity_sum = narrow(velocity_sum);
    sums.offset_sum = narrow(offset_sum);
    sums.into_forces(velocity, constants)
}

/// Whether a boid heading along `heading` sees a neighbour at `offset` (`distance_squared`
/// away): inside the cone when the angle to the heading is at most half the view angle; a boid
/// at rest has no heading and sees all around.
#[inline]
fn in_view(
    offset: Vector,
    distance_squared: f32,
    heading: Vector,
    constants: &StepConstants,
) -> bool {
    match constants.cos_half_view {
        Some(cos_half_view) if heading != Vector::ZERO => {
            offset.dot(heading) >= cos_half_view * distance_squared.sqrt()
        }
        _ => true,
    }
}

/// Keeps of `candidates` (from any index) only the `k` nearest boids that `me` sees within the
/// query radius, nearer first, then lower index: [`Neighbours::Nearest`]'s choice. They are
/// left in ascending order of index, as every index gives its candidates, so every index leads
/// to the same sums in [`rule_forces`]. `ranked` is room for the ranking, reused between calls.
///
/// [`Neighbours::Nearest`]: crate::Neighbours::Nearest
pub fn keep_nearest(
    me: usize,
    positions: &[Vector],
    velocities: &[Vector],
    constants: &StepConstants,
    k: u32,
    candidates: &mut Vec<u32>,
    ranked: &mut Vec<(f32, u32)>,
) {
    let position = positions[me];
    let heading = usable_velocity(velocities[me]).normalize_or_zero();
    let reach_squared = constants.query_radius * constants.query_radius;
    ranked.clear();
    ranked.extend(candidates.iter().filter_map(|&other| {
        let offset = constants.space.delta(position, positions[other as usize]);
        let distance_squared = offset.length_squared();
        // The boids `rule_forces` would count (a position that is not finite fails the reach).
        let counted = other as usize != me
            && distance_squared > 0.0
            && distance_squared < reach_squared
            && in_view(offset, distance_squared, heading, constants);
        counted.then_some((distance_squared, other))
    }));
    let k = k as usize;
    if ranked.len() > k {
        ranked.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        ranked.truncate(k);
    }
    candidates.clear();
    candidates.extend(ranked.iter().map(|&(_, other)| other));
    candidates.sort_unstable();
}

/// A velocity as the rules read it: one that is not finite (written by other code; the kernel
/// never makes one) counts as rest, so it neither turns its own force into NaN nor poisons the
/// alignment of every neighbour. (A position that is not finite is nobody's neighbour: its
/// distance fails every radius test.)
#[inline]
pub(crate) fn usable_velocity(velocity: Vector) -> Vector {
    if velocity.is_finite() {
        velocity
    } else {
        Vector::ZERO
    }
}

/// How much neighbour searching a step did, for statistics and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NeighbourStats {
    /// Neighbours that counted for at least one rule, summed over boids.
    pub neighbours: u64,
    /// Candidates the index offered and the kernel measured, summed over boids.
    pub candidates: u64,
}

/// What a force pass reads: the step's constants and one snapshot of the flock, a position,
/// a velocity and a set of rule weights per boid (the same index in each slice).
#[derive(Clone, Copy, Debug)]
pub struct ForceInputs<'a> {
    /// The step's constants.
    pub constants: &'a StepConstants,
    /// Every boid's position: the index must have been rebuilt over these.
    pub positions: &'a [Vector],
    /// Every boid's velocity.
    pub velocities: &'a [Vector],
    /// Every boid's rule weights.
    pub weights: &'a [RuleWeights],
}

impl<'a> ForceInputs<'a> {
    /// The inputs of one pass.
    pub fn new(
        constants: &'a StepConstants,
        positions: &'a [Vector],
        velocities: &'a [Vector],
        weights: &'a [RuleWeights],
    ) -> Self {
        Self {
            constants,
            positions,
            velocities,
            weights,
        }
    }

    /// Panics unless every slice, and `forces`, has one entry per boid.
    pub(crate) fn check(&self, forces: &[Vector]) {
        let count = self.positions.len();
        assert_eq!(self.velocities.len(), count, "one velocity per boid");
        assert_eq!(self.weights.len(), count, "one set of weights per boid");
        assert_eq!(forces.len(), count, "one force per boid");
    }
}

/// Computes every boid's weighted flocking force from one snapshot into `forces`, asking
/// `index` (rebuilt over `positions`) for candidates, split over `executor`'s threads. Every
/// boid reads the same snapshot, so the result depends neither on the order boids are visited
/// in nor on the number of threads.
///
/// This is the path for any [`NeighbourIndex`]; [`AnyIndex::compute_forces`] takes the grid's
/// faster path where it applies. With [`Neighbours::Nearest`], every index takes this path:
/// each boid's candidates are ranked and the nearest kept before its sums.
///
/// [`Neighbours::Nearest`]: crate::Neighbours::Nearest
///
/// [`AnyIndex::compute_forces`]: crate::AnyIndex::compute_forces
///
/// # Panics
/// If the slices differ in length.
pub fn compute_forces(
    index: &(impl NeighbourIndex + Sync),
    inputs: ForceInputs,
    forces: &mut [Vector],
    executor: &impl Executor,
) -> NeighbourStats {
    inputs.check(forces);
    let ForceInputs {
        constants,
        positions,
        velocities,
        weights,
    } = inputs;
    let neighbours = AtomicU64::new(0);
    let candidates = AtomicU64::new(0);
    let chunk_len = chunk_len_for(positions.len(), executor.threads());
    executor.for_each_chunk(forces, chunk_len, |start, chunk| {
        let (mut found, mut ranked) = (Vec::new(), Vec::new());
        let (mut chunk_neighbours, mut chunk_candidates) = (0u64, 0u64);
        for (me, force) in (start..).zip(chunk.iter_mut()) {
            index.candidates(positions[me], constants.query_radius, &mut found);
            chunk_candidates += found.len() as u64;
            if let Some(k) = constants.nearest {
                keep_nearest(
                    me,
                    positions,
                    velocities,
                    constants,
                    k,
                    &mut found,
                    &mut ranked,
                );
            }
            let forces = rule_forces(me, positions, velocities, &found, constants);
            *force = forces.weighted(&weights[me]);
            chunk_neighbours += u64::from(forces.neighbours);
        }
        neighbours.fetch_add(chunk_neighbours, Ordering::Relaxed);
        candidates.fetch_add(chunk_candidates, Ordering::Relaxed);
    });
    NeighbourStats {
        neighbours: neighbours.into_inner(),
        candidates: candidates.into_inner(),
    }
}
