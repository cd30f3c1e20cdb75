//! A boid's behaviour forces for one step, and how they are combined: the weighted sum, or by
//! priority in the fixed order of [`SteeringPriority`].

use bevy::prelude::*;
use flock_core::Vector;

use crate::identity::BoidId;

/// A boid's behaviour forces this step. Every behaviour component brings it; the behaviour
/// systems [`add`](Self::add) to it and [`FlockSystems::Behaviours`] ends by combining it into
/// acceleration (as the boid's [`SteeringCombination`] says: the weighted sum by default) and
/// emptying it. Systems of your own may add forces to it in that set too.
///
/// [`FlockSystems::Behaviours`]: crate::FlockSystems::Behaviours
#[derive(Component, Reflect, Debug, Clone, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
// Whatever steers is ordered by its id, boid or not.
#[require(BoidId)]
pub struct SteeringForce {
    /// The sum of the forces added, for the weighted sum.
    sum: Vector,
    /// The forces added with their priorities, for a prioritised combination.
    #[reflect(ignore)]
    prioritised: Vec<(SteeringPriority, Vector)>,
    /// How this step's forces are combined, set before the step's forces are added.
    combination: SteeringCombination,
}

impl SteeringForce {
    /// Adds the force of the behaviour at `priority` (which only a prioritised
    /// [`SteeringCombination`] looks at).
    #[inline]
    pub fn add(&mut self, priority: SteeringPriority, force: Vector) {
        if self.combination.is_prioritised() {
            self.prioritised.push((priority, force));
        } else {
            self.sum += force;
        }
    }

    /// The forces added this step, summed (whatever the combination).
    pub fn sum(&self) -> Vector {
        let prioritised = self.prioritised.iter().map(|&(_, force)| force);
        prioritised.fold(self.sum, |sum, force| sum + force)
    }

    /// Drops the behaviours' forces added so far and adds `force` at `priority` instead: for a
    /// way of combining that weighs every behaviour itself (context steering). The flocking
    /// force stays, as it does beside a weighted sum.
    pub(crate) fn replace(&mut self, priority: SteeringPriority, force: Vector) {
        self.sum = Vector::ZERO;
        self.prioritised
            .retain(|&(kept, _)| kept == SteeringPriority::Flocking);
        self.add(priority, force);
    }

    /// How the forces added are combined.
    pub fn combination(&self) -> SteeringCombination {
        self.combination
    }

    /// Starts a step's forces, to be combined as `combination` says.
    pub(crate) fn start(&mut self, combination: SteeringCombination) {
        self.combination = combination;
    }

    /// The forces added, as `(sum, prioritised)`, emptied for the next step, which is a weighted
    /// sum unless started otherwise.
    pub(crate) fn take(&mut self) -> (Vector, &mut Vec<(SteeringPriority, Vector)>) {
        self.combination = SteeringCombination::WeightedSum;
        (std::mem::take(&mut self.sum), &mut self.prioritised)
    }
}

/// How a boid combines the forces of its behaviours (and, when prioritised, its flocking force)
/// into one steering force, truncated to its maximum force ([`MotionLimits`] or the flock's)
/// and divided by its mass. A boid without this component takes the weighted sum.
///
/// The prioritised ways take the behaviours in the order of [`SteeringPriority`]: avoiding
/// obstacles, colliders and collisions first, then staying inside a pen, fleeing and evading,
/// escaping hunters, the flocking rules, then following (flow fields, paths, leaders, offsets,
/// formations), pursuing, hunting, queueing, seeking, arriving and wandering last (context
/// steering, where a boid has it, replaces the behaviours' forces with its one decision, and
/// the flocking force keeps its place). Wall avoidance stays
/// outside the combination (its push is added after it, as in the cocos2d-x crowd demo), and a
/// group member's velocity is set by its group.
///
/// Invalid settings (a threshold that is negative or not finite) are reported once per boid and
/// the boid falls back to the weighted sum.
///
/// [`MotionLimits`]: crate::MotionLimits
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(SteeringForce)]
pub enum SteeringCombination {
    /// Every force weighted and summed, the sum truncated to the maximum force (the cocos2d-x
    /// crowd demo's way; the flocking force is added beside it with its own per-rule limits).
    #[default]
    WeightedSum,
    /// Reynolds' prioritised allocation ("Steering Behaviors For Autonomous Characters", 1999;
    /// the prioritised truncated running sum of Buckland's "Programming Game AI by Example"):
    /// the maximum force is a budget, and each force in priority order takes what it needs of
    /// what is left; once it is spent, later behaviours get nothing.
    PrioritisedAllocation,
    /// Reynolds' simple priority: the first force in priority order whose magnitude is above
    /// `threshold` is used alone (truncated to the maximum force); when none is, the boid has
    /// no steering force this step.
    FirstNonNegligible {
        /// Forces at or below this magnitude count as none (world units per second squared
        /// times mass). Zero or more, finite.
        threshold: f32,
    },
}

impl SteeringCombination {
    /// Why this combination cannot be used, if it cannot.
    pub fn problem(&self) -> Option<String> {
        match *self {
            Self::FirstNonNegligible { threshold }
                if !(threshold.is_finite() && threshold >= 0.0) =>
            {
                Some(format!(
                    "a threshold of {threshold} (it must be finite and not negative)"
                ))
            }
            _ => None,
        }
    }

    /// Whether forces are kept apart by priority instead of summed as they come.
    pub(crate) fn is_prioritised(&self) -> bool {
        !matches!(self, Self::WeightedSum)
    }
}

/// Where a force stands in a prioritised [`SteeringCombination`], most important first. Every
/// behaviour of the plugin adds its force under its own entry; a system of your own adds to
/// [`SteeringForce`] under the entry it belongs with ([`Self::Own`] is
/// last).
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[reflect(Debug, PartialEq)]
pub enum SteeringPriority {
    /// [`ContextSteering`](crate::ContextSteering)'s decision, which already weighs the
    /// boid's targets against its dangers and replaces its other behaviour forces.
    Context,
    /// [`AvoidObstacles`](crate::AvoidObstacles).
    AvoidObstacles,
    /// `AvoidColliders` (feature `avian`).
    AvoidColliders,
    /// [`AvoidCollisions`](crate::AvoidCollisions).
    AvoidCollisions,
    /// [`StayInside`](crate::StayInside).
    StayInside,
    /// [`FollowWall`](crate::FollowWall).
    FollowWall,
    /// [`Flee`](crate::Flee).
    Flee,
    /// [`Evade`](crate::Evade).
    Evade,
    /// A [`Hunt`](crate::Hunt)ed boid's escape.
    Escape,
    /// Separation, alignment and cohesion, as the flock's rules compute them.
    Flocking,
    /// [`SightFlock`](crate::SightFlock).
    SightFlock,
    /// [`FollowFlowField`](crate::FollowFlowField).
    FollowFlowField,
    /// [`FollowPath`](crate::FollowPath).
    FollowPath,
    /// [`FollowLeader`](crate::FollowLeader).
    FollowLeader,
    /// [`OffsetPursuit`](crate::OffsetPursuit).
    OffsetPursuit,
    /// [`FormationMember`](crate::FormationMember).
    Formation,
    /// [`Pursue`](crate::Pursue).
    Pursue,
    /// A [`Hunt`](crate::Hunt)er's chase.
    Chase,
    /// [`Queue`](crate::Queue): the door, braking for the boid ahead and stepping aside.
    Queue,
    /// [`Seek`](crate::Seek).
    Seek,
    /// [`Arrive`](crate::Arrive).
    Arrive,
    /// [`Wander`](crate::Wander).
    Wander,
    /// Forces added by systems of your own.
    Own,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_context_decision_replaces_the_behaviours_and_keeps_the_flocking_force() {
        let flocking = Vector::ONE;
        let seek = Vector::ONE * 2.0;
        let decision = Vector::ONE * 3.0;
        for combination in [
            SteeringCombination::WeightedSum,
            SteeringCombination::PrioritisedAllocation,
            SteeringCombination::FirstNonNegligible { threshold: 0.0 },
        ] {
            let mut force = SteeringForce::default();
            force.start(combination);
            if combination.is_prioritised() {
                // Under a weighted sum the flocking force goes straight to the acceleration.
                force.add(SteeringPriority::Flocking, flocking);
            }
            force.add(SteeringPriority::Seek, seek);
            force.replace(SteeringPriority::Context, decision);
            let (sum, prioritised) = force.take();
            if combination.is_prioritised() {
                assert_eq!(
                    *prioritised,
                    vec![
                        (SteeringPriority::Flocking, flocking),
                        (SteeringPriority::Context, decision)
                    ]
                );
            } else {
                assert_eq!(sum, decision);
            }
        }
    }
}
