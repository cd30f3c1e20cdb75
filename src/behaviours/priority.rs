//! How a prioritised boid's behaviour forces become one: Reynolds' prioritised allocation, or
//! the first force that is not negligible.

use flock_core::{ForceLimit, Vector, limit_force};

use crate::steering_force::{SteeringCombination, SteeringPriority};

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
