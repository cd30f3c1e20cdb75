//! The direction set and the two maps over it.

use crate::math::Vector;
use crate::math::{cos, sin};

/// How many nearest directions each direction of the sphere blends with (3D): a Fibonacci
/// sphere's points have about six nearest neighbours, as a hexagonal lattice does.
#[cfg(flock_3d)]
pub(crate) const SPHERE_NEIGHBOURS: usize = 6;

/// Unit directions spread evenly around the vehicle: a ring of `slots` directions in 2D,
/// anticlockwise from +x; a Fibonacci sphere of `slots` points in 3D. Slot `i` of each map is
/// the direction `directions()[i]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Directions {
    directions: Vec<Vector>,
    /// For each direction, its nearest others, nearest first (3D only: in 2D the neighbours of
    /// slot `i` are `i - 1` and `i + 1` around the ring).
    #[cfg(flock_3d)]
    neighbours: Vec<[u16; SPHERE_NEIGHBOURS]>,
}

impl Directions {
    /// `slots` directions (at least [`ContextParams::MIN_SLOTS`], at most
    /// [`ContextParams::MAX_SLOTS`]; a count outside is brought to the nearer end).
    ///
    /// [`ContextParams::MIN_SLOTS`]: super::ContextParams::MIN_SLOTS
    /// [`ContextParams::MAX_SLOTS`]: super::ContextParams::MAX_SLOTS
    pub fn new(slots: usize) -> Self {
        let slots = slots.clamp(
            super::ContextParams::MIN_SLOTS as usize,
            super::ContextParams::MAX_SLOTS as usize,
        );
        #[cfg(not(flock_3d))]
        {
            let directions = (0..slots)
                .map(|i| ring_direction(i as f32, slots))
                .collect();
            Self { directions }
        }
        #[cfg(flock_3d)]
        {
            let directions: Vec<Vector> = (0..slots).map(|i| sphere_point(i, slots)).collect();
            let neighbours = (0..slots).map(|i| nearest_others(&directions, i)).collect();
            Self {
                directions,
                neighbours,
            }
        }
    }

    /// How many directions.
    pub fn len(&self) -> usize {
        self.directions.len()
    }

    /// Never: there are always at least four directions.
    pub fn is_empty(&self) -> bool {
        self.directions.is_empty()
    }

    /// The unit directions, one per slot.
    pub fn as_slice(&self) -> &[Vector] {
        &self.directions
    }

    /// The nearest other directions of slot `slot`, nearest first (3D).
    #[cfg(flock_3d)]
    pub fn neighbours(&self, slot: usize) -> &[u16; SPHERE_NEIGHBOURS] {
        &self.neighbours[slot]
    }
}

/// The ring's direction at `slot` (a fraction between slots is a direction between them).
#[cfg(not(flock_3d))]
pub(crate) fn ring_direction(slot: f32, slots: usize) -> Vector {
    let angle = std::f32::consts::TAU * slot / slots as f32;
    Vector::new(cos(angle), sin(angle))
}

/// Point `i` of a Fibonacci sphere of `count` points: heights evenly spaced, each point turned
/// by the golden angle from the one before, which spreads them near evenly over the sphere.
#[cfg(flock_3d)]
fn sphere_point(i: usize, count: usize) -> Vector {
    // pi (3 - sqrt 5): the golden angle.
    const GOLDEN_ANGLE: f32 = 2.399_963_3;
    let z = 1.0 - (2 * i + 1) as f32 / count as f32;
    let ring = (1.0 - z * z).max(0.0).sqrt();
    let angle = GOLDEN_ANGLE * i as f32;
    Vector::new(ring * cos(angle), ring * sin(angle), z)
}

/// The [`SPHERE_NEIGHBOURS`] directions nearest `directions[slot]`, nearest first (ties by
/// index, so the set is the same on every machine).
#[cfg(flock_3d)]
fn nearest_others(directions: &[Vector], slot: usize) -> [u16; SPHERE_NEIGHBOURS] {
    let own = directions[slot];
    let mut others: Vec<(f32, usize)> = (directions.iter().enumerate())
        .filter(|&(i, _)| i != slot)
        .map(|(i, direction)| (-direction.dot(own), i))
        .collect();
    others.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut nearest = [0; SPHERE_NEIGHBOURS];
    for (place, &(_, i)) in nearest.iter_mut().zip(&others) {
        *place = i as u16;
    }
    nearest
}

/// Fray's two context maps over one direction set: how much the vehicle wants to go each way
/// (interest) and how bad each way is (danger), both from 0 to 1 per slot (the momentum term
/// may lift interest a little above 1). Behaviours write
/// into them, each slot keeping the largest value written ("merged by the maximum"), so one
/// behaviour never cancels another; [`decide`](super::decide) reads them.
#[derive(Clone, Debug, PartialEq)]
pub struct ContextMaps {
    directions: Directions,
    interest: Vec<f32>,
    danger: Vec<f32>,
}

impl ContextMaps {
    /// Empty maps over `slots` directions (see [`Directions::new`]).
    pub fn new(slots: usize) -> Self {
        let directions = Directions::new(slots);
        let count = directions.len();
        Self {
            directions,
            interest: vec![0.0; count],
            danger: vec![0.0; count],
        }
    }

    /// Both maps back to zero, for the next vehicle or step; the directions are kept.
    pub fn clear(&mut self) {
        self.interest.fill(0.0);
        self.danger.fill(0.0);
    }

    /// The direction set.
    pub fn directions(&self) -> &Directions {
        &self.directions
    }

    /// How many slots.
    pub fn len(&self) -> usize {
        self.directions.len()
    }

    /// Never: there are always at least four slots.
    pub fn is_empty(&self) -> bool {
        self.directions.is_empty()
    }

    /// The interest in each slot's direction.
    pub fn interest(&self) -> &[f32] {
        &self.interest
    }

    /// The danger in each slot's direction.
    pub fn danger(&self) -> &[f32] {
        &self.danger
    }

    /// Raises slot `slot`'s interest to `value` if that is higher (values are clamped to
    /// 0..=1; one that is not a number is ignored).
    pub fn raise_interest(&mut self, slot: usize, value: f32) {
        if let Some(interest) = self.interest.get_mut(slot) {
            *interest = interest.max(value.clamp(0.0, 1.0));
        }
    }

    /// Raises slot `slot`'s danger to `value` if that is higher (values are clamped to 0..=1;
    /// one that is not a number is ignored).
    pub fn raise_danger(&mut self, slot: usize, value: f32) {
        if let Some(danger) = self.danger.get_mut(slot) {
            *danger = danger.max(value.clamp(0.0, 1.0));
        }
    }

    /// Raises every slot's interest to `value(direction)`.
    pub fn raise_interest_by(&mut self, mut value: impl FnMut(Vector) -> f32) {
        for slot in 0..self.len() {
            let direction = self.directions.directions[slot];
            self.raise_interest(slot, value(direction));
        }
    }

    /// Raises every slot's danger to `value(direction)`.
    pub fn raise_danger_by(&mut self, mut value: impl FnMut(Vector) -> f32) {
        for slot in 0..self.len() {
            let direction = self.directions.directions[slot];
            self.raise_danger(slot, value(direction));
        }
    }

    /// Adds `bonus(direction)` to every slot's interest (a bonus that is not finite or is
    /// negative adds nothing). The momentum term's: it may lift a slot's interest above 1,
    /// which [`decide`](super::decide) reads as full speed.
    pub(crate) fn add_interest_by(&mut self, mut bonus: impl FnMut(Vector) -> f32) {
        for (interest, &direction) in self.interest.iter_mut().zip(&self.directions.directions) {
            let bonus = bonus(direction);
            if bonus.is_finite() && bonus > 0.0 {
                *interest += bonus;
            }
        }
    }
}
