//! Combining a boid's behaviours by priority ([`SteeringCombination`]) through the plugin, in a
//! headless `App`: the weighted sum unchanged, Reynolds' prioritised allocation, the first
//! non-negligible force, the flocking force as one of the prioritised forces, and bad settings.
//! `bevy_flock3d` runs the same cases in 3D (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use common::*;

/// Seek far up the y axis.
fn seek_up() -> Seek {
    Seek {
        target: Target::Point(xyz(0.0, 1_000.0, 0.0)),
        weight: 1.0,
    }
}

/// Flee, with `weight`, from a threat just to the left on the x axis.
fn flee_right(weight: f32) -> Flee {
    Flee {
        threats: vec![Target::Point(xyz(-20.0, 0.0, 0.0))],
        radius: 100.0,
        weight,
    }
}

/// The force a boid at rest at the origin took in one step (its velocity times the step rate:
/// mass 1).
fn first_step_force(components: impl Bundle) -> Vector {
    let mut app = app_with(no_flocking());
    let boid = spawn_boid(&mut app, (VEHICLE, at(Vector::ZERO), components));
    step(&mut app, 1);
    velocity(&app, boid) * HZ as f32
}

fn assert_near(actual: Vector, expected: Vector) {
    assert!(
        (actual - expected).length() < 1e-3 * expected.length().max(1.0),
        "{actual} instead of {expected}"
    );
}

#[test]
fn the_weighted_sum_is_unchanged_bit_for_bit_and_bad_thresholds_fall_back_to_it() {
    let run = |combination: Option<SteeringCombination>| {
        let mut app = create_app(roomy_settings(), 5);
        let boids = spawn(&mut app, 60, Placement::RandomInBounds);
        for (i, &boid) in boids.iter().enumerate() {
            let at = xyz(i as f32 * 7.0, 50.0, -30.0);
            let mut boid = app.world_mut().entity_mut(boid);
            boid.insert((seek_up(), Wander::default()));
            boid.insert(Flee {
                threats: vec![Target::Point(at)],
                radius: 150.0,
                weight: 0.7,
            });
            if let Some(combination) = combination {
                boid.insert(combination);
            }
        }
        step(&mut app, 90);
        assert_sound(&mut app);
        state_bits(&boid_states(&mut app))
    };
    let plain = run(None);
    assert_eq!(run(Some(SteeringCombination::WeightedSum)), plain);
    for threshold in [-1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let bad = SteeringCombination::FirstNonNegligible { threshold };
        assert_eq!(run(Some(bad)), plain, "threshold {threshold}");
    }
    // The prioritised ways do change it.
    assert_ne!(run(Some(SteeringCombination::PrioritisedAllocation)), plain);
}

#[test]
fn a_strong_first_behaviour_takes_the_whole_budget_and_a_later_one_gets_nothing() {
    let max_force = VEHICLE.max_force;
    let prioritised = first_step_force((
        flee_right(1.0),
        seek_up(),
        SteeringCombination::PrioritisedAllocation,
    ));
    assert_near(prioritised, xyz(max_force, 0.0, 0.0));
    // The weighted sum gives both their share.
    let summed = first_step_force((flee_right(1.0), seek_up()));
    assert!(summed.y > 0.2 * max_force, "{summed}");
}

#[test]
fn a_weak_first_behaviour_leaves_the_rest_of_the_budget_to_the_next() {
    let weak = 0.02;
    let flee_alone = first_step_force(flee_right(weak));
    assert!(
        flee_alone.length() < 0.5 * VEHICLE.max_force,
        "{flee_alone} is not weak"
    );
    let both = first_step_force((
        seek_up(),
        flee_right(weak),
        SteeringCombination::PrioritisedAllocation,
    ));
    // Flee (first, whatever order the components come in) gets all it asks; Seek what is
    // left of the budget, which is spent by magnitude (Buckland's running sum).
    assert_near(both.with_y(0.0), flee_alone);
    let left = VEHICLE.max_force - flee_alone.length();
    assert_near(both - flee_alone, xyz(0.0, left, 0.0));
}

#[test]
fn the_first_force_above_the_threshold_wins_and_weaker_ones_fall_through() {
    let weak = 0.02;
    let flee_alone = first_step_force(flee_right(weak));
    let seek_alone = first_step_force(seek_up());
    let first_above = |threshold| {
        first_step_force((
            seek_up(),
            flee_right(weak),
            SteeringCombination::FirstNonNegligible { threshold },
        ))
    };
    // Flee is first and over the threshold: it alone steers.
    assert_near(first_above(0.5 * flee_alone.length()), flee_alone);
    // Flee is negligible: Seek, next, wins alone.
    assert_near(first_above(2.0 * flee_alone.length()), seek_alone);
    // Nothing is over the threshold: no force.
    assert_eq!(first_above(1e30), Vector::ZERO);
}

#[test]
fn the_flocking_force_is_one_of_the_prioritised_forces() {
    let config = FlockConfig {
        edges: EdgeMode::Free,
        ..FlockConfig::default()
    };
    let run = |combination| {
        let mut app = app_with(config);
        let boid = spawn_boid(&mut app, (VEHICLE, at(Vector::ZERO), flee_right(1.0)));
        for place in [xyz(8.0, 10.0, 3.0), xyz(-6.0, 14.0, -2.0)] {
            let mate = (at(place), Velocity(xyz(0.0, 50.0, 0.0)));
            app.world_mut().spawn((Boid, mate));
        }
        app.world_mut().entity_mut(boid).insert(combination);
        step(&mut app, 1);
        velocity(&app, boid) * HZ as f32
    };
    // Fleeing comes before flocking and takes the whole budget: the neighbours count for
    // nothing.
    let fleeing = run(SteeringCombination::PrioritisedAllocation);
    assert_near(fleeing, xyz(VEHICLE.max_force, 0.0, 0.0));
    // Summed, flocking turns it towards its neighbours.
    let flocking = run(SteeringCombination::WeightedSum);
    assert!(flocking.y.abs() > 1.0, "{flocking}");
}

#[test]
fn bad_limits_and_forces_leave_a_prioritised_boid_sound() {
    // A zero maximum force is reported and the flock's is used instead.
    let zero_force = MotionLimits {
        max_force: 0.0,
        ..VEHICLE
    };
    let flock_limits = MotionLimits {
        max_force: FlockConfig::default().max_force,
        ..VEHICLE
    };
    let mut app = app_with(no_flocking());
    let [bad, good] = [zero_force, flock_limits].map(|limits| {
        let behaviours = (flee_right(1.0), seek_up());
        let combination = SteeringCombination::PrioritisedAllocation;
        spawn_boid(
            &mut app,
            (limits, at(Vector::ZERO), behaviours, combination),
        )
    });
    // A target that is not a number gives a force that is not finite: dropped.
    let nan_seek = Seek {
        target: Target::Point(Vector::splat(f32::NAN)),
        weight: 1.0,
    };
    let combination = SteeringCombination::FirstNonNegligible { threshold: 0.0 };
    let lost = spawn_boid(&mut app, (VEHICLE, at(Vector::ZERO), nan_seek, combination));
    step(&mut app, 5);
    assert_sound(&mut app);
    assert_eq!(boid_count(&mut app), 3);
    assert!(velocity(&app, bad).length() > 0.0);
    assert_eq!(velocity(&app, bad), velocity(&app, good));
    assert_eq!(velocity(&app, lost), Vector::ZERO);
}
