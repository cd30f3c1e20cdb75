//! ORCA (`Orca`) through the plugin in a headless `App`: boids walking at each other never
//! touch, the neighbour index does not change the result, and invalid parameters steer nobody.
//! `bevy_flock3d` runs the same cases in 3D (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::steering::ContactPass;
use bevy_flock::prelude::*;
use common::*;

const RADIUS: f32 = 8.0;

fn orca() -> Orca {
    Orca {
        params: OrcaParams {
            radius: RADIUS,
            clearance: 0.0,
            ..OrcaParams::default()
        },
    }
}

fn arrive(goal: Vector) -> Arrive {
    Arrive {
        target: Target::Point(goal),
        slow_radius: 50.0,
        weight: 1.0,
        speed: None,
    }
}

/// `count` walkers round a circle of `radius`, each seeking its antipode, with `avoid` on each;
/// their entities.
fn circle_of_walkers(app: &mut App, count: usize, radius: f32, avoid: Option<Orca>) -> Vec<Entity> {
    (0..count)
        .map(|i| {
            let angle = i as f32 * std::f32::consts::TAU / count as f32;
            let start = level(radius * angle.cos(), radius * angle.sin());
            let walker = spawn_boid(app, (WALKER, at(start), arrive(-start)));
            if let Some(avoid) = avoid {
                app.world_mut().entity_mut(walker).insert(avoid);
            }
            walker
        })
        .collect()
}

/// The closest two of `walkers` come over `steps` steps.
fn closest_over(app: &mut App, walkers: &[Entity], steps: usize) -> f32 {
    let mut closest = f32::MAX;
    for _ in 0..steps {
        app.update();
        for (i, &a) in walkers.iter().enumerate() {
            for &b in &walkers[i + 1..] {
                closest = closest.min(position(app, a).distance(position(app, b)));
            }
        }
    }
    closest
}

#[test]
fn two_boids_walking_at_each_other_never_touch() {
    let mut app = app_with(no_flocking());
    let walkers = circle_of_walkers(&mut app, 2, 200.0, Some(orca()));
    let closest = closest_over(&mut app, &walkers, 600);
    assert!(closest >= 2.0 * RADIUS - 1e-2, "closest centres {closest}");
    for (walker, goal) in walkers.iter().zip([level(-200.0, 0.0), level(200.0, 0.0)]) {
        let distance = position(&app, *walker).distance(goal);
        assert!(distance < 20.0, "{walker} is {distance} from its goal");
    }
    assert_sound(&mut app);

    // Without ORCA they walk straight through each other.
    let mut app = app_with(no_flocking());
    let walkers = circle_of_walkers(&mut app, 2, 200.0, None);
    assert!(closest_over(&mut app, &walkers, 600) < 1.0);
}

#[test]
fn a_crowd_steps_the_same_with_every_neighbour_index() {
    let run = |index: IndexKind| {
        let mut app = app_with(FlockConfig {
            index,
            ..no_flocking()
        });
        let walkers = circle_of_walkers(&mut app, 24, 150.0, Some(orca()));
        let closest = closest_over(&mut app, &walkers, 240);
        assert!(
            closest >= 2.0 * RADIUS - 0.5,
            "{index:?}: closest centres {closest}"
        );
        assert_sound(&mut app);
        state_bits(&boid_states(&mut app))
    };
    let brute_force = run(IndexKind::BruteForce);
    assert_eq!(run(IndexKind::Grid), brute_force, "the grid");
    assert_eq!(run(IndexKind::KdTree), brute_force, "the KD-tree");
}

#[test]
fn boids_on_one_point_part_without_a_nan() {
    let mut app = app_with(no_flocking());
    let here = level(10.0, 20.0);
    let boids: Vec<Entity> = (0..5)
        .map(|_| spawn_boid(&mut app, (WALKER, at(here), orca())))
        .collect();
    step(&mut app, 60);
    assert_sound(&mut app);
    let closest = closest_over(&mut app, &boids, 1);
    assert!(closest > 1.0, "still on top of each other: {closest}");
}

#[test]
fn invalid_params_steer_nobody() {
    let bad = [
        OrcaParams {
            radius: f32::NAN,
            ..orca().params
        },
        OrcaParams {
            time_horizon: -1.0,
            ..orca().params
        },
        OrcaParams {
            obstacle_time_horizon: 0.0,
            ..orca().params
        },
        OrcaParams {
            neighbour_distance: f32::INFINITY,
            ..orca().params
        },
        OrcaParams {
            responsibility: 0.0,
            ..orca().params
        },
        OrcaParams {
            clearance: -1.0,
            ..orca().params
        },
    ];
    let plain = {
        let mut app = app_with(no_flocking());
        circle_of_walkers(&mut app, 2, 200.0, None);
        step(&mut app, 300);
        state_bits(&boid_states(&mut app))
    };
    for params in bad {
        let mut app = app_with(no_flocking());
        circle_of_walkers(&mut app, 2, 200.0, Some(Orca { params }));
        step(&mut app, 300);
        assert_sound(&mut app);
        assert_eq!(state_bits(&boid_states(&mut app)), plain, "{params:?}");
    }
}

#[test]
fn an_obstacle_in_the_way_is_walked_round() {
    let mut app = app_with(no_flocking());
    app.world_mut()
        .spawn((at(level(0.0, 0.0)), ball_obstacle(40.0)));
    let walker = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-200.0, 1.0)),
            arrive(level(200.0, 1.0)),
            orca(),
        ),
    );
    let mut nearest = f32::MAX;
    for _ in 0..600 {
        app.update();
        nearest = nearest.min(position(&app, walker).length());
    }
    assert!(
        nearest >= 40.0 + RADIUS - 1e-2,
        "came within {nearest} of the centre"
    );
    assert!(position(&app, walker).distance(level(200.0, 1.0)) < 20.0);
}

/// Twelve walkers started on top of each other, all arriving at one point: the closest two
/// centres after each of `steps` steps.
fn pressed_crowd_closest(contact: OrcaContact, steps: usize) -> Vec<f32> {
    let mut app = app_with(no_flocking());
    app.insert_resource(contact);
    let goal = level(0.0, 0.0);
    let walkers: Vec<Entity> = (0..12)
        .map(|i| {
            let angle = i as f32 * 2.4;
            let start = level(60.0 + 3.0 * angle.cos(), 3.0 * angle.sin());
            spawn_boid(&mut app, (WALKER, at(start), arrive(goal), orca()))
        })
        .collect();
    (0..steps)
        .map(|_| closest_over(&mut app, &walkers, 1))
        .collect()
}

#[test]
fn the_contact_pass_leaves_no_overlap_after_any_step() {
    let touching = 2.0 * RADIUS - 1e-3;
    let with_pass = pressed_crowd_closest(OrcaContact::default(), 240);
    let worst = with_pass.iter().copied().fold(f32::MAX, f32::min);
    assert!(worst >= touching, "closest centres {worst} after some step");
    // Without it the crowd starts overlapped and ORCA alone parts it only over several steps.
    let without = pressed_crowd_closest(OrcaContact(None), 240);
    assert!(
        without[0] < touching,
        "closest centres {} after the first step",
        without[0]
    );
}

#[test]
fn hostile_contact_settings_change_nothing_or_stay_bounded() {
    let contacts = [
        ContactPass {
            iterations: 1_000,
            tolerance: f32::NAN,
            slip: 0.5,
        },
        ContactPass {
            iterations: 1_000,
            tolerance: -1.0,
            slip: 0.5,
        },
        ContactPass {
            iterations: 1_000,
            tolerance: f32::INFINITY,
            slip: 0.5,
        },
        ContactPass {
            iterations: 0,
            tolerance: 1e-4,
            slip: 0.5,
        },
        // A slip that is not a number, negative or huge: counted as 0 or 1.
        ContactPass {
            slip: f32::NAN,
            ..ContactPass::default()
        },
        ContactPass {
            slip: -5.0,
            ..ContactPass::default()
        },
        ContactPass {
            slip: f32::MAX,
            ..ContactPass::default()
        },
        // Sweeps far past any need, and a tolerance no float can meet: capped, so the steps end.
        ContactPass {
            iterations: u32::MAX,
            tolerance: 0.0,
            slip: 0.5,
        },
    ];
    for contact in contacts {
        let closest = pressed_crowd_closest(OrcaContact(Some(contact)), 30);
        assert!(
            closest.iter().all(|distance| distance.is_finite()),
            "{contact:?}: {closest:?}"
        );
    }
}

/// A file of walkers crossing a box to the far side, with a broken obstacle beside it: the
/// largest depth any walker's body reached into the box over `steps` steps.
fn deepest_into_a_box(contact: OrcaContact, steps: usize) -> f32 {
    let mut app = app_with(no_flocking());
    app.insert_resource(contact);
    let half = 40.0;
    app.world_mut()
        .spawn((at(level(0.0, 0.0)), box_obstacle(Vector::splat(half))));
    // Left out of ORCA's obstacles with a warning; the rest still avoided.
    app.world_mut()
        .spawn((at(level(0.0, 300.0)), ball_obstacle(f32::NAN)));
    let walkers: Vec<Entity> = (0..9)
        .map(|i| {
            let y = -40.0 + 10.0 * i as f32;
            spawn_boid(
                &mut app,
                (
                    WALKER,
                    at(level(-150.0, y)),
                    arrive(level(150.0, y)),
                    orca(),
                ),
            )
        })
        .collect();
    let mut deepest = f32::MIN;
    for _ in 0..steps {
        app.update();
        for &walker in &walkers {
            let p = position(&app, walker);
            assert!(p.is_finite(), "{p}");
            // How far the body reaches past the box's outline (negative: clear of it).
            let outside = (p.abs() - Vector::splat(half)).max(Vector::ZERO).length();
            let inside = (p.abs() - Vector::splat(half)).max_element().min(0.0);
            deepest = deepest.max(RADIUS - (outside + inside));
        }
    }
    deepest
}

#[test]
fn walkers_round_a_box_never_reach_into_it_with_the_contact_pass() {
    let deepest = deepest_into_a_box(OrcaContact::default(), 400);
    assert!(deepest <= 1e-3, "a body reached {deepest} into the box");
    assert!(
        deepest > -2.0,
        "the walkers came within 2 of the box: {deepest}"
    );
}
