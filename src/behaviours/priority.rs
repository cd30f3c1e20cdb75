//! How a boid's behaviour forces become one: the weighted sum, Reynolds' prioritised
//! allocation, or the first force that is not negligible; and the fixed order of priority.

use bevy::prelude::*;
use flock_core::{ForceLimit, Vector, limit_force};

/// How a boid combines the forces of its behaviours (and, when prioritised, its flocking force)
/// into one steering force, truncated to its maximum force ([`MotionLimits`] or the flock's)
/// and divided by its mass. A boid without this component takes the weighted sum.
///
/// The prioritised ways take the behaviours in the order of [`SteeringPriority`]: avoiding
/// obstacles, colliders and collisions first, then staying inside a pen, fleeing and evading,
/// escaping hunters, the flocking rules, then following (flow fields, paths, leaders, offsets,
/// formations), pursuing, hunting, queueing, seeking, arriving and wandering last (context
/// steering, where a boid has it, replaces all of these with its one decision). Wall avoidance stays
/// outside the combination (its push is added after it, as in the cocos2d-x crowd demo), and a
/// group member's velocity is set by its group.
///
/// Invalid settings (a threshold that is negative or not finite) are reported once per boid and
/// the boid falls back to the weighted sum.
///
/// [`MotionLimits`]: crate::MotionLimits
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(super::SteeringForce)]
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
/// [`SteeringForce`](super::SteeringForce) under the entry it belongs with ([`Self::Own`] is
/// last).
#[derive(Reflect, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[reflect(Debug, PartialEq)]
pub enum SteeringPriority {
    /// [`ContextSteering`](super::ContextSteering)'s decision, which already weighs the
    /// boid's targets against its dangers and replaces its other behaviour forces.
    Context,
    /// [`AvoidObstacles`](super::AvoidObstacles).
    AvoidObstacles,
    /// `AvoidColliders` (feature `avian`).
    AvoidColliders,
    /// [`AvoidCollisions`](super::AvoidCollisions).
    AvoidCollisions,
    /// [`StayInside`](super::StayInside).
    StayInside,
    /// [`FollowWall`](super::FollowWall).
    FollowWall,
    /// [`Flee`](super::Flee).
    Flee,
    /// [`Evade`](super::Evade).
    Evade,
    /// A [`Hunt`](super::Hunt)ed boid's escape.
    Escape,
    /// Separation, alignment and cohesion, as the flock's rules compute them.
    Flocking,
    /// [`SightFlock`](super::SightFlock).
    SightFlock,
    /// [`FollowFlowField`](super::FollowFlowField).
    FollowFlowField,
    /// [`FollowPath`](super::FollowPath).
    FollowPath,
    /// [`FollowLeader`](super::FollowLeader).
    FollowLeader,
    /// [`OffsetPursuit`](super::OffsetPursuit).
    OffsetPursuit,
    /// [`FormationMember`](super::FormationMember).
    Formation,
    /// [`Pursue`](super::Pursue).
    Pursue,
    /// A [`Hunt`](super::Hunt)er's chase.
    Chase,
    /// [`Queue`](super::Queue): the door, braking for the boid ahead and stepping aside.
    Queue,
    /// [`Seek`](super::Seek).
    Seek,
    /// [`Arrive`](super::Arrive).
    Arrive,
    /// [`Wander`](super::Wander).
    Wander,
    /// Forces added by systems of your own.
    Own,
}

/// A behaviour component whose forces stand at one place in the priority order.
pub(crate) trait Prioritised: Component {
    /// Where its forces stand.
    const PRIORITY: SteeringPriority;
}

macro_rules! priorities {
    ($($behaviour:ty => $priority:ident),* $(,)?) => {
        $(impl Prioritised for $behaviour {
            const PRIORITY: SteeringPriority = SteeringPriority::$priority;
        })*
    };
}

priorities! {
    super::AvoidObstacles => AvoidObstacles,
    super::AvoidCollisions => AvoidCollisions,
    super::StayInside => StayInside,
    super::FollowWall => FollowWall,
    super::Flee => Flee,
    super::Evade => Evade,
    super::SightFlock => SightFlock,
    super::FollowFlowField => FollowFlowField,
    super::FollowPath => FollowPath,
    super::FollowLeader => FollowLeader,
    super::OffsetPursuit => OffsetPursuit,
    super::Pursue => Pursue,
    super::Seek => Seek,
    super::Arrive => Arrive,
}

/// The behaviour forces of a prioritised boid, as `(priority, force)` in the order they were
/// added, combined into one force (before division by mass) within `max_force`.
pub(crate) fn combine_by_priority(
    combination: SteeringCombination,
    entries: &mut [(SteeringPriority, Vector)],
    max_force: f32,
) -> Vector {
    // Stable: forces of one priority keep the order they were added in.
    entries.sort_by_key(|&(priority, _)| priority);
    let forces = entries.iter().map(|&(_, force)| force);
    match combination {
        SteeringCombination::WeightedSum => {
            let sum = forces.fold(Vector::ZERO, |sum, force| sum + force);
            limit_force(sum, max_force, ForceLimit::Truncate)
        }
        SteeringCombination::PrioritisedAllocation => allocate(forces, max_force),
        SteeringCombination::FirstNonNegligible { threshold } => forces
            .into_iter()
            .find(|force| force.length() > threshold)
            .map_or(Vector::ZERO, |force| {
                limit_force(force, max_force, ForceLimit::Truncate)
            }),
    }
}

/// Reynolds' prioritised allocation: each force in turn takes what it needs of the budget left,
/// or, when it needs more, the rest of the budget in its own direction.
fn allocate(forces: impl Iterator<Item = Vector>, budget: f32) -> Vector {
    let mut total = Vector::ZERO;
    for force in forces {
        let left = budget - total.length();
        if left <= 0.0 {
            break;
        }
        let magnitude = force.length();
        total += if magnitude <= left {
            force
        } else {
            force * (left / magnitude)
        };
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use flock_core::planar;

    #[test]
    fn allocation_gives_the_first_what_it_asks_and_the_next_the_rest() {
        let mut entries = [
            (SteeringPriority::Seek, planar(0.0, 10.0)),
            (SteeringPriority::Flee, planar(3.0, 0.0)),
        ];
        let force = combine_by_priority(
            SteeringCombination::PrioritisedAllocation,
            &mut entries,
            5.0,
        );
        // Flee first, whole (3); Seek gets what is left of the budget (5 - 3), in its direction.
        assert!((force - planar(3.0, 2.0)).length() < 1e-5, "{force}");
    }

    #[test]
    fn a_spent_budget_leaves_later_forces_nothing() {
        let mut entries = [
            (SteeringPriority::Flee, planar(-9.0, 0.0)),
            (SteeringPriority::Seek, planar(0.0, 10.0)),
        ];
        let force = combine_by_priority(
            SteeringCombination::PrioritisedAllocation,
            &mut entries,
            5.0,
        );
        assert_eq!(force, planar(-5.0, 0.0));
    }

    #[test]
    fn the_first_force_above_the_threshold_wins_alone() {
        let combination = SteeringCombination::FirstNonNegligible { threshold: 1.0 };
        let mut entries = [
            (SteeringPriority::Seek, planar(0.0, 2.0)),
            (SteeringPriority::Flee, planar(0.5, 0.0)),
            (SteeringPriority::Wander, planar(7.0, 0.0)),
        ];
        assert_eq!(
            combine_by_priority(combination, &mut entries, 5.0),
            planar(0.0, 2.0)
        );
        let mut negligible = [(SteeringPriority::Seek, planar(0.0, 0.5))];
        assert_eq!(
            combine_by_priority(combination, &mut negligible, 5.0),
            Vector::ZERO
        );
    }

    #[test]
    fn bad_thresholds_are_problems_and_good_ones_are_not() {
        for threshold in [-1.0, f32::NAN, f32::INFINITY] {
            let combination = SteeringCombination::FirstNonNegligible { threshold };
            assert!(combination.problem().is_some(), "{threshold}");
        }
        for threshold in [0.0, 1e30] {
            let combination = SteeringCombination::FirstNonNegligible { threshold };
            assert!(combination.problem().is_none(), "{threshold}");
        }
    }
}
