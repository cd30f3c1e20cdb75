//! Context steering (Andrew Fray, "Context Steering: Behavior-Driven Steering at the Macro
//! Scale", *Game AI Pro 2*, chapter 18): instead of adding up forces that may cancel out (two
//! obstacles pushing a vehicle straight into a third, a seek pulling it into a wall), every
//! behaviour writes into two maps over a fixed set of directions around the vehicle: an
//! *interest* map (how much it wants to go each way) and a *danger* map (how bad each way is).
//! The decision masks every direction more dangerous than the least dangerous one (or than a
//! threshold, when that is higher), takes the most interesting of the rest, refines it between
//! directions, and sets the speed from that direction's interest.
//!
//! The directions are a ring of slots in 2D and a Fibonacci sphere in 3D ([`Directions`]).
//! Behaviours write with the functions of [`sources`]: interest towards a target
//! ([`seek_interest`], [`arrive_interest`]), away from a threat ([`flee_context`]), a bonus for
//! the current heading ([`momentum`]); danger towards obstacles ([`obstacle_danger`]), walls
//! ([`wall_danger`]) and neighbours closer than a separation distance ([`neighbour_danger`]).
//! [`decide`] reads the maps; [`steer_by_context`] is the whole step for a vehicle.
//!
//! Like every steering behaviour it is local: it sees what is within its look-ahead and
//! chooses again every step. Obstacles smaller than the look-ahead are passed without fail; a
//! wall much wider than the look-ahead squarely across the way to the target can hold a vehicle
//! sliding to and fro along it (the momentum term delays the turn back, but cannot see the
//! far end). Fray pairs context steering with path finding for such levels: steer to the
//! path's next waypoint.

mod maps;
pub mod sources;

pub use maps::{ContextMaps, Directions};
pub use sources::{
    arrive_interest, flee_context, momentum, neighbour_danger, obstacle_danger, seek_interest,
    wall_danger,
};

use super::Vehicle;
use crate::math::Vector;

/// How a vehicle builds and reads its context maps.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextParams {
    /// How many directions the maps have ([`MIN_SLOTS`](Self::MIN_SLOTS) to
    /// [`MAX_SLOTS`](Self::MAX_SLOTS)): more steer finer and cost more (every slot casts a ray
    /// at every obstacle near enough).
    pub slots: u32,
    /// How far ahead obstacles and walls count as danger, world units: from none at this
    /// distance to full danger at the obstacle.
    pub look_ahead: f32,
    /// Room to leave beside obstacles and walls, world units: a direction that passes closer
    /// than this is a direction into them.
    pub clearance: f32,
    /// Neighbours closer than this are danger in their direction (the nearer, the more), world
    /// units; zero ignores neighbours.
    pub separation: f32,
    /// Danger at or below this never masks a direction (0 to 1): Fray's threshold, so that a
    /// faint danger somewhere does not close every other way.
    pub danger_threshold: f32,
    /// The bonus interest of directions near the current heading, as a share of the strongest
    /// interest (0 to 1): a small one keeps the vehicle from dithering between two nearly equal
    /// ways (see [`momentum`]).
    pub momentum: f32,
}

impl ContextParams {
    /// The fewest directions.
    pub const MIN_SLOTS: u32 = 4;
    /// The most directions.
    pub const MAX_SLOTS: u32 = 256;

    /// Whether the parameters can steer: a slot count from [`MIN_SLOTS`](Self::MIN_SLOTS) to
    /// [`MAX_SLOTS`](Self::MAX_SLOTS), a finite positive look-ahead, a finite clearance and
    /// separation that are not negative, a threshold and a momentum from 0 to 1.
    pub fn is_valid(&self) -> bool {
        let non_negative = |value: f32| value.is_finite() && value >= 0.0;
        (Self::MIN_SLOTS..=Self::MAX_SLOTS).contains(&self.slots)
            && self.look_ahead.is_finite()
            && self.look_ahead > 0.0
            && non_negative(self.clearance)
            && non_negative(self.separation)
            && (0.0..=1.0).contains(&self.danger_threshold)
            && (0.0..=1.0).contains(&self.momentum)
    }
}

impl Default for ContextParams {
    /// 16 directions in 2D (Fray's examples use 8 to 32), 64 in 3D (about the same angle
    /// between neighbours); distances for a world some hundreds of units across.
    fn default() -> Self {
        Self {
            #[cfg(not(flock_3d))]
            slots: 16,
            #[cfg(flock_3d)]
            slots: 64,
            look_ahead: 100.0,
            clearance: 10.0,
            separation: 20.0,
            danger_threshold: 0.1,
            momentum: 0.2,
        }
    }
}

/// Where the maps say to go: a unit direction and a strength from 0 (stop) to 1 (full speed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContextDecision {
    /// The unit direction chosen, or zero when there is nowhere to go.
    pub direction: Vector,
    /// The share of the top speed to go at, 0 to 1: the chosen direction's interest, less its
    /// danger (Fray's speed from the strength of the choice).
    pub strength: f32,
    /// The slot the direction was refined from, or `None` when there is nowhere to go.
    pub slot: Option<usize>,
}

impl ContextDecision {
    /// Nowhere to go: the vehicle stops.
    pub const STOP: Self = Self {
        direction: Vector::ZERO,
        strength: 0.0,
        slot: None,
    };

    /// The velocity it asks for, for a vehicle whose top speed is `max_speed`.
    pub fn desired_velocity(&self, max_speed: f32) -> Vector {
        self.direction * (self.strength * max_speed)
    }
}

/// Fray's decision. Every slot whose danger is above the lowest danger of all slots, or above
/// `danger_threshold` where that is higher, is masked; of the others the slot of highest
/// interest wins (the first of a tie), and its direction is refined between slots: in 2D the
/// peak of the parabola through the winner's interest and its two neighbours' (never towards a
/// masked neighbour), in 3D the peak of the interest fitted over the winner and its open
/// nearest directions (each weighing by its interest: see `refine`). The strength is the interest there, at most 1, times one less the winner's
/// danger.
///
/// When every slot is as dangerous as the worst, the least dangerous ones are still open (a
/// cornered vehicle takes the least bad way). When no open slot has any interest the decision
/// is [`ContextDecision::STOP`]. A threshold that is not a number counts as 0; interest or
/// danger that is not a number is never chosen nor masks.
pub fn decide(maps: &ContextMaps, danger_threshold: f32) -> ContextDecision {
    let (interest, danger) = (maps.interest(), maps.danger());
    let threshold = if danger_threshold.is_nan() {
        0.0
    } else {
        danger_threshold.clamp(0.0, 1.0)
    };
    let lowest = danger.iter().copied().fold(f32::INFINITY, f32::min);
    let limit = lowest.max(threshold);
    // A danger that is not a number masks nothing.
    let open = |slot: usize| danger[slot] <= limit || danger[slot].is_nan();
    let mut best: Option<usize> = None;
    for slot in 0..maps.len() {
        if open(slot) && interest[slot] > best.map_or(0.0, |best| interest[best]) {
            best = Some(slot);
        }
    }
    let Some(best) = best else {
        return ContextDecision::STOP;
    };
    let (direction, peak) = refine(maps, best, open);
    ContextDecision {
        direction,
        strength: peak.min(1.0) * (1.0 - danger[best]),
        slot: Some(best),
    }
}

/// The winner `best`'s direction refined between slots, and the interest there.
#[cfg(not(flock_3d))]
fn refine(maps: &ContextMaps, best: usize, open: impl Fn(usize) -> bool) -> (Vector, f32) {
    let slots = maps.len();
    let interest = maps.interest();
    let (left, right) = ((best + slots - 1) % slots, (best + 1) % slots);
    let (before, at, after) = (interest[left], interest[best], interest[right]);
    let curvature = before - 2.0 * at + after;
    // The parabola's vertex, half a slot at most either way; none where the three are not a
    // peak (flat, or a masked neighbour more interesting than the winner).
    let mut offset = if curvature < 0.0 {
        (0.5 * (before - after) / curvature).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    if !offset.is_finite() || (offset < 0.0 && !open(left)) || (offset > 0.0 && !open(right)) {
        offset = 0.0;
    }
    let peak = at - 0.25 * (before - after) * offset;
    let direction = maps::ring_direction(best as f32 + offset, slots);
    (direction, peak.max(at))
}

/// The winner `best`'s direction refined between slots, and the interest there: the
/// interest of the winner and its open nearest directions fitted by least squares as
/// `a + g . d` over their directions `d`, whose peak on the sphere is the direction of `g`
/// (seek's interest has exactly this form, so the fit finds its target between directions), at
/// most as far from the winner as its nearest direction. Where the fit has no peak near the
/// winner (too few open directions, a neighbourhood rising away from it) or its peak is nearer a
/// masked direction than the winner's, the winner's own direction.
#[cfg(flock_3d)]
fn refine(maps: &ContextMaps, best: usize, open: impl Fn(usize) -> bool) -> (Vector, f32) {
    use glam::{Mat4, Vec4};
    let (directions, interest) = (maps.directions().as_slice(), maps.interest());
    let neighbours = maps.directions().neighbours(best);
    let own = directions[best];
    let fallback = (own, interest[best]);
    // In the winner's own frame, so the fit's columns are on one scale.
    let (across, up) = own.any_orthonormal_pair();
    let local = |d: Vector| Vec4::new(1.0, d.dot(across), d.dot(up), d.dot(own));
    let mut normal = Mat4::ZERO;
    let mut right = Vec4::ZERO;
    let mut fitted = 0;
    let around = std::iter::once(best).chain(neighbours.iter().map(|&n| usize::from(n)));
    for slot in around.filter(|&slot| open(slot) && interest[slot].is_finite()) {
        let row = local(directions[slot]);
        normal += Mat4::from_cols(row * row.x, row * row.y, row * row.z, row * row.w);
        right += row * interest[slot];
        fitted += 1;
    }
    // Four unknowns need four directions, spread so the system is not singular.
    let determinant = normal.determinant();
    if fitted < 4 || !determinant.is_finite() || determinant.abs() <= 1e-12 {
        return fallback;
    }
    let [a, g_across, g_up, g_own] = (normal.inverse() * right).to_array();
    let gradient = across * g_across + up * g_up + own * g_own;
    let Some(mut direction) = gradient.try_normalize() else {
        return fallback;
    };
    // No further out than the nearest direction.
    let nearest = directions[usize::from(neighbours[0])].dot(own);
    if direction.dot(own) < nearest {
        let Some(sideways) = (direction - own * direction.dot(own)).try_normalize() else {
            return fallback;
        };
        direction = own * nearest + sideways * (1.0 - nearest * nearest).max(0.0).sqrt();
    }
    let from_own = direction.dot(own);
    let nearer_danger =
        (0..directions.len()).any(|slot| !open(slot) && directions[slot].dot(direction) > from_own);
    if nearer_danger || !direction.is_finite() {
        return fallback;
    }
    let peak = a + gradient.dot(direction);
    let peak = if peak.is_finite() {
        peak.max(interest[best])
    } else {
        interest[best]
    };
    (direction, peak)
}

/// The whole context step for `vehicle` over maps its behaviours have filled: the decision
/// ([`decide`]) as a desired velocity at `vehicle.max_speed`, and Reynolds' steering force
/// towards it, `(desired - velocity) / response_time`.
pub fn steer_by_context(vehicle: &Vehicle, maps: &ContextMaps, params: &ContextParams) -> Vector {
    let decision = decide(maps, params.danger_threshold);
    vehicle.steer_to(decision.desired_velocity(vehicle.max_speed))
}
