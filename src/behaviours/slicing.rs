//! Time slicing: the costly behaviours of boids far from what the player looks at are worked
//! out only every few steps, each boid keeping its last answer in between.

use std::marker::PhantomData;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::reflect::TypePath;
use flock_core::steering::Vehicle;
use flock_core::{FlockConfig, Vector};

use crate::behaviours::steerers::{Prioritised, SteererQuery, vehicle};
use crate::clock::FlockClock;
use crate::dimension::position_of;
use crate::identity::BoidId;

/// Level of detail in time for collision prediction
/// ([`AvoidCollisions`](crate::prelude::AvoidCollisions)): a boid within `full_rate_radius` of a
/// [`SlicingFocus`] works it out every step; any other boid only on one step in `every`,
/// keeping the force it found in between. [`Orca`](crate::prelude::Orca) is not sliced: its
/// promise (no collision while the programs are feasible) holds only for a velocity chosen from
/// this step's neighbours, so every boid solves every step, in parallel; context maps are not
/// sliced either. Boids take their turns spread over the `every` steps (by [`BoidId`]), so each
/// step does about `1 / every` of the far boids' work. With no focus in the world, every boid is
/// far: slicing by share of the flock.
///
/// Deterministic: which boids update on a step depends only on the step count, the boids' ids
/// and the foci's positions. In a lockstep game a focus is part of the simulation: put it on
/// something every peer simulates alike (a player's avatar), never on one peer's camera. The
/// default, `every: 1`, updates every boid every step. Settings that are not
/// valid (see [`TimeSlicing::is_valid`]) are reported once and slice nothing.
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Resource, Debug, PartialEq, Default)]
pub struct TimeSlicing {
    /// A far boid recomputes its costly behaviours on one step in this many (1: every step).
    pub every: u32,
    /// Boids within this distance of a focus update every step (world units).
    pub full_rate_radius: f32,
}

impl TimeSlicing {
    /// Every boid updates every step.
    pub const OFF: Self = Self {
        every: 1,
        full_rate_radius: 0.0,
    };

    /// The longest interval accepted: a boid a minute behind (at 60 steps a second) no longer
    /// avoids anything that moved since.
    pub const MAX_EVERY: u32 = 60;

    /// Far boids update one step in `every`, near ones every step.
    pub fn new(every: u32, full_rate_radius: f32) -> Self {
        Self {
            every,
            full_rate_radius,
        }
    }

    /// Whether `every` is from 1 to [`Self::MAX_EVERY`] and the radius finite and not negative.
    pub fn is_valid(&self) -> bool {
        (1..=Self::MAX_EVERY).contains(&self.every)
            && self.full_rate_radius.is_finite()
            && self.full_rate_radius >= 0.0
    }
}

impl Default for TimeSlicing {
    fn default() -> Self {
        Self::OFF
    }
}

/// Marks what the player looks at (a camera, the player's avatar): boids near it keep their
/// costly behaviours at the full rate under [`TimeSlicing`]. Its `Transform` is its position.
#[derive(Component, Reflect, Debug, Default, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct SlicingFocus;

/// A sliced behaviour's last force for one boid, reused on the steps it does not update: part
/// of the simulation's state (a lockstep snapshot keeps it).
#[derive(Component, Reflect, Debug)]
#[reflect(Component, Default)]
pub(crate) struct SlicedAnswer<B: TypePath> {
    force: Option<Vector>,
    #[reflect(ignore)]
    behaviour: PhantomData<fn() -> B>,
}

impl<B: TypePath> Default for SlicedAnswer<B> {
    fn default() -> Self {
        Self {
            force: None,
            behaviour: PhantomData,
        }
    }
}

/// Reads the time-slicing settings, the step count and the foci once per system run.
#[derive(SystemParam)]
pub(crate) struct Slices<'w, 's> {
    slicing: Res<'w, TimeSlicing>,
    clock: Res<'w, FlockClock>,
    foci: Query<'w, 's, &'static Transform, With<SlicingFocus>>,
    reported: Local<'s, bool>,
}

impl Slices<'_, '_> {
    /// Who updates on this step.
    pub(crate) fn plan(&mut self) -> SlicePlan {
        let slicing = *self.slicing;
        if !slicing.is_valid() {
            if !std::mem::replace(&mut *self.reported, true) {
                warn!(
                    "bevy_flock: invalid TimeSlicing {slicing:?} (every must be 1 to {}, the \
                     radius finite and not negative); every boid updates every step",
                    TimeSlicing::MAX_EVERY
                );
            }
            return SlicePlan::every_step();
        }
        *self.reported = false;
        SlicePlan {
            step: self.clock.steps_taken(),
            every: u64::from(slicing.every),
            radius_squared: slicing.full_rate_radius * slicing.full_rate_radius,
            foci: self
                .foci
                .iter()
                .map(|transform| position_of(transform.translation))
                .filter(|focus| focus.is_finite())
                .collect(),
        }
    }
}

/// Which boids work out their costly behaviours on one step.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SlicePlan {
    step: u64,
    every: u64,
    radius_squared: f32,
    foci: Vec<Vector>,
}

impl SlicePlan {
    /// Every boid, every step.
    pub(crate) fn every_step() -> Self {
        Self {
            step: 0,
            every: 1,
            radius_squared: 0.0,
            foci: Vec::new(),
        }
    }

    /// Whether the boid `id` at `position` updates on this step.
    pub(crate) fn is_due(&self, id: BoidId, position: Vector) -> bool {
        self.every <= 1
            || (self.step.wrapping_add(id.0 % self.every)).is_multiple_of(self.every)
            || self
                .foci
                .iter()
                .any(|focus| focus.distance_squared(position) <= self.radius_squared)
    }
}

/// The boids with a sliced behaviour `B` and its last answer.
pub(crate) type SlicedSteerers<'w, 's, B> =
    SteererQuery<'w, 's, (&'static B, &'static mut SlicedAnswer<B>, &'static BoidId)>;

/// As [`crate::behaviours::add_forces`], for a costly behaviour: `force` runs only for the
/// boids `plan` says are due (and for any without an answer yet); the others add the force
/// they found last time.
pub(crate) fn add_sliced_forces<B: Prioritised + TypePath>(
    steerers: &mut SlicedSteerers<B>,
    config: &FlockConfig,
    plan: &SlicePlan,
    mut force: impl FnMut(Entity, &Vehicle, &B) -> Option<Vector>,
) {
    for (entity, transform, velocity, limits, (behaviour, mut answer, id), mut sum) in steerers {
        let due = answer.force.is_none() || plan.is_due(*id, position_of(transform.translation));
        if due {
            let me = vehicle(transform, velocity, limits, config);
            // No force this step (a missing target, invalid params) is remembered as zero.
            answer.force = Some(force(entity, &me, behaviour).unwrap_or(Vector::ZERO));
        }
        sum.add(B::PRIORITY, answer.force.unwrap_or(Vector::ZERO));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(step: u64, every: u64, radius: f32, foci: Vec<Vector>) -> SlicePlan {
        SlicePlan {
            step,
            every,
            radius_squared: radius * radius,
            foci,
        }
    }

    #[test]
    fn far_boids_take_turns_one_step_in_every() {
        let entities: Vec<BoidId> = (0..12).map(BoidId).collect();
        let far = Vector::splat(1000.0);
        for step in 0..8 {
            let due = entities
                .iter()
                .filter(|entity| plan(step, 4, 10.0, vec![Vector::ZERO]).is_due(**entity, far))
                .count();
            assert_eq!(due, 3, "a quarter of the far boids update on step {step}");
        }
        for entity in &entities {
            let steps_due = (0..8)
                .filter(|step| plan(*step, 4, 10.0, vec![Vector::ZERO]).is_due(*entity, far))
                .count();
            assert_eq!(steps_due, 2, "{entity:?} updates on two steps of eight");
        }
    }

    #[test]
    fn boids_near_a_focus_update_every_step() {
        let entity = BoidId(1);
        let near = Vector::splat(3.0);
        assert!((0..10).all(|step| plan(step, 5, 10.0, vec![Vector::ZERO]).is_due(entity, near)));
        assert!(!(0..10).all(|step| plan(step, 5, 1.0, vec![Vector::ZERO]).is_due(entity, near)));
    }

    #[test]
    fn every_one_updates_everyone() {
        let entity = BoidId(u64::MAX - 3);
        assert!((0..10).all(|step| plan(step, 1, 0.0, Vec::new()).is_due(entity, Vector::ZERO)));
        assert!(SlicePlan::every_step().is_due(entity, Vector::splat(1e30)));
    }

    #[test]
    fn settings_outside_their_range_are_invalid() {
        assert!(TimeSlicing::OFF.is_valid());
        assert!(TimeSlicing::new(4, 100.0).is_valid());
        for bad in [
            TimeSlicing::new(0, 100.0),
            TimeSlicing::new(TimeSlicing::MAX_EVERY + 1, 100.0),
            TimeSlicing::new(u32::MAX, 100.0),
            TimeSlicing::new(4, -1.0),
            TimeSlicing::new(4, f32::NAN),
            TimeSlicing::new(4, f32::INFINITY),
        ] {
            assert!(!bad.is_valid(), "{bad:?}");
        }
    }
}
