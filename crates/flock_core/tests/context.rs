//! Context steering (Fray, *Game AI Pro 2*, ch. 18): the maps, the decision, and a vehicle
//! steered by them. `flock_core3d` runs the same cases in 3D (`[[test]] path` in its manifest),
//! over a Fibonacci sphere of directions instead of a ring.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::*;
use kernel::steering::context::{
    ContextDecision, ContextMaps, ContextParams, arrive_interest, decide, flee_context, momentum,
    neighbour_danger, obstacle_danger, seek_interest, steer_by_context, wall_danger,
};
use kernel::{Bounds, Vector, random_direction, world_size};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// The angle between two neighbouring directions of `maps`: around the ring in 2D, the
/// largest gap from a direction to its nearest in 3D.
fn slot_width(maps: &ContextMaps) -> f32 {
    let directions = maps.directions().as_slice();
    directions
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            (directions.iter().enumerate())
                .filter(|&(j, _)| j != i)
                .map(|(_, &b)| angle_between(a, b))
                .fold(f32::INFINITY, f32::min)
        })
        .fold(0.0, f32::max)
}

/// The slot whose direction is nearest `way`.
fn nearest_slot(maps: &ContextMaps, way: Vector) -> usize {
    (maps.directions().as_slice().iter())
        .enumerate()
        .max_by(|a, b| a.1.dot(way).total_cmp(&b.1.dot(way)))
        .unwrap()
        .0
}

/// The decision for a vehicle at `position` that wants `target` and nothing else.
fn seeking(maps: &mut ContextMaps, position: Vector, target: Vector) -> ContextDecision {
    maps.clear();
    seek_interest(maps, position, target, 1.0);
    decide(maps, 0.1)
}

fn assert_sane(decision: &ContextDecision) {
    assert!(decision.direction.is_finite(), "{decision:?}");
    assert!(
        (0.0..=1.0).contains(&decision.strength),
        "strength {decision:?}"
    );
    let length = decision.direction.length();
    assert!(
        length == 0.0 || (length - 1.0).abs() < 1e-4,
        "not a unit direction: {decision:?}"
    );
}

#[test]
fn with_only_a_target_the_heading_points_at_it() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(27);
    let params = ContextParams::default();
    let mut maps = ContextMaps::new(params.slots as usize);
    let width = slot_width(&maps);
    let mut worst = 0.0f32;
    for _ in 0..500 {
        let position = random_direction(&mut rng) * 50.0;
        let way = random_direction(&mut rng);
        let decision = seeking(&mut maps, position, position + way * 200.0);
        assert_sane(&decision);
        worst = worst.max(angle_between(decision.direction, way));
        // Nothing in the way: full speed, within the interpolation's peak error.
        assert!(decision.strength > 0.95, "{decision:?}");
    }
    // The slot alone would be up to half a slot off (about 0.2 rad); the interpolation is
    // within a thousandth of a radian or so.
    let bound = 0.002;
    assert!(
        worst < bound,
        "worst heading error {worst} rad (slots {width} rad apart)"
    );
}

#[test]
fn a_target_halfway_between_two_slots_is_hit_better_than_the_slot_width() {
    let mut maps = ContextMaps::new(ContextParams::default().slots as usize);
    let width = slot_width(&maps);
    let directions = maps.directions().as_slice().to_vec();
    for (i, &a) in directions.iter().enumerate() {
        // Halfway to its nearest other direction.
        let b = (directions.iter().enumerate())
            .filter(|&(j, _)| j != i)
            .map(|(_, &b)| b)
            .max_by(|x, y| a.dot(*x).total_cmp(&a.dot(*y)))
            .unwrap();
        let halfway = (a + b).normalize();
        let decision = seeking(&mut maps, Vector::ZERO, halfway * 100.0);
        let error = angle_between(decision.direction, halfway);
        // In 2D the parabola is exact halfway, in 3D the fitted peak nearly so.
        let bound = 1e-3;
        assert!(
            error < bound,
            "slot {i}: {error} rad off (slots {width} rad apart)"
        );
        // And never worse than landing on either slot.
        assert!(error < 0.5 * angle_between(a, b) + 1e-4);
    }
}

#[test]
fn a_danger_ahead_masks_that_way_and_the_heading_bends_to_the_safer_side() {
    let params = ContextParams::default();
    let mut maps = ContextMaps::new(params.slots as usize);
    let target = Vector::X * 400.0;
    // A ball on the line to the target, its centre a little below it (2D: -y; 3D: -y too).
    let rock = ball(xyz(60.0, -8.0, 0.0), 20.0);
    seek_interest(&mut maps, Vector::ZERO, target, 1.0);
    obstacle_danger(
        &mut maps,
        Vector::ZERO,
        &rock,
        params.look_ahead,
        params.clearance,
    );
    let decision = decide(&maps, params.danger_threshold);
    assert_sane(&decision);
    // The slot towards the target is masked...
    let straight = nearest_slot(&maps, Vector::X);
    assert!(maps.danger()[straight] > params.danger_threshold);
    assert_ne!(decision.slot, Some(straight));
    // ...and the heading bends up, away from the ball's centre, still forwards.
    assert!(decision.direction.y > 0.2, "{decision:?}");
    assert!(decision.direction.x > 0.0, "{decision:?}");
    // The way chosen passes the ball with the clearance.
    let chosen = decision.slot.unwrap();
    assert!(maps.danger()[chosen] <= params.danger_threshold);

    // Mirrored: the ball above the line bends the heading down.
    maps.clear();
    seek_interest(&mut maps, Vector::ZERO, target, 1.0);
    let above = ball(xyz(60.0, 8.0, 0.0), 20.0);
    obstacle_danger(&mut maps, Vector::ZERO, &above, 100.0, 10.0);
    assert!(decide(&maps, 0.1).direction.y < -0.2);
}

#[test]
fn a_vehicle_steered_by_context_goes_round_an_obstacle_to_its_target() {
    let params = ContextParams::default();
    let mut maps = ContextMaps::new(params.slots as usize);
    let target = Vector::X * 400.0;
    // A wide wall across the way, a ball behind it, and the world's walls around.
    let wall = aligned_box(xyz(150.0, 0.0, 0.0), world_size(20.0, 160.0) / 2.0);
    let rock = ball(xyz(280.0, 30.0, 0.0), 25.0);
    let bounds = Bounds::centered(Vector::splat(1200.0));
    let mut v = vehicle(Vector::ZERO, Vector::ZERO, 100.0);
    let mut closest_to_wall = f32::INFINITY;
    for _ in 0..1200 {
        maps.clear();
        arrive_interest(&mut maps, v.position, target, 50.0, 1.0);
        momentum(&mut maps, v.velocity, params.momentum);
        for obstacle in [&wall, &rock] {
            obstacle_danger(
                &mut maps,
                v.position,
                obstacle,
                params.look_ahead,
                params.clearance,
            );
        }
        wall_danger(
            &mut maps,
            v.position,
            &bounds,
            params.look_ahead,
            params.clearance,
        );
        let force = steer_by_context(&v, &maps, &params);
        assert!(force.is_finite());
        step(&mut v, force);
        let outside = (v.position - xyz(150.0, 0.0, 0.0)).abs() - world_size(20.0, 160.0) / 2.0;
        closest_to_wall = closest_to_wall.min(outside.max_element());
        assert!(
            v.position.distance(xyz(280.0, 30.0, 0.0)) > 25.0,
            "into the ball at {}",
            v.position
        );
    }
    assert!(closest_to_wall > 0.0, "entered the wall");
    assert!(
        v.position.distance(target) < 5.0,
        "stopped at {} short of the target",
        v.position
    );
}

#[test]
fn when_every_way_is_dangerous_the_least_dangerous_is_taken_and_full_danger_stops() {
    let mut maps = ContextMaps::new(16);
    let slots = maps.len();
    seek_interest(&mut maps, Vector::ZERO, Vector::X * 100.0, 1.0);
    // Every slot dangerous, one a little less: that one is the only way open.
    for slot in 0..slots {
        maps.raise_danger(slot, 0.9);
    }
    // The slot most nearly at right angles to the target: the one way open.
    let aside = (0..slots)
        .min_by(|&a, &b| {
            let off = |slot: usize| (maps.interest()[slot] - 0.5).abs();
            off(a).total_cmp(&off(b))
        })
        .unwrap();
    // Danger is merged by the maximum: a fresh map to lower one slot.
    let mut least = ContextMaps::new(16);
    seek_interest(&mut least, Vector::ZERO, Vector::X * 100.0, 1.0);
    for slot in 0..slots {
        least.raise_danger(slot, if slot == aside { 0.8 } else { 0.9 });
    }
    let decision = decide(&least, 0.1);
    assert_sane(&decision);
    assert_eq!(decision.slot, Some(aside));
    // Its interest, times 1 - 0.8.
    let interest = least.interest()[aside];
    assert!(
        (decision.strength - interest * 0.2).abs() < 1e-5,
        "{decision:?}"
    );
    // The one open way is of no interest: stop rather than go through danger.
    let mut cornered = ContextMaps::new(16);
    cornered.raise_interest(0, 1.0);
    for slot in 0..slots {
        cornered.raise_danger(slot, if slot == 1 { 0.8 } else { 0.9 });
    }
    assert_eq!(decide(&cornered, 0.1), ContextDecision::STOP);

    // All equally dangerous: all open, the most interesting is taken, slowed by the danger.
    let decision = decide(&maps, 0.1);
    assert_sane(&decision);
    assert!(decision.direction.x > 0.99, "{decision:?}");
    assert!((decision.strength - 0.1).abs() < 1e-3, "{decision:?}");
    // Fully dangerous everywhere: it stops where it is, with no NaN.
    for slot in 0..slots {
        maps.raise_danger(slot, 1.0);
    }
    let decision = decide(&maps, 0.1);
    assert_sane(&decision);
    assert_eq!(decision.strength, 0.0);
    // No interest at all: stop.
    assert_eq!(decide(&ContextMaps::new(16), 0.1), ContextDecision::STOP);
}

#[test]
fn the_decision_agrees_with_a_brute_force_reading_of_the_same_maps() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(18);
    for case in 0..2000 {
        let slots = rng.random_range(4..=64);
        let mut maps = ContextMaps::new(slots);
        // Interest and danger on a few levels, so ties and fully masked maps happen.
        for slot in 0..slots {
            maps.raise_interest(slot, f32::from(rng.random_range(0u8..=4)) / 4.0);
            maps.raise_danger(slot, f32::from(rng.random_range(0u8..=4)) / 4.0);
        }
        let threshold = rng.random_range(0.0..1.0);
        let decision = decide(&maps, threshold);
        assert_sane(&decision);

        // By hand: the lowest danger or the threshold, whichever is higher, bounds the open
        // slots; the first of the most interesting open ones wins, if it has any interest.
        let (interest, danger) = (maps.interest(), maps.danger());
        let limit = danger.iter().copied().fold(1.0, f32::min).max(threshold);
        let open: Vec<usize> = (0..slots).filter(|&s| danger[s] <= limit).collect();
        let top = open.iter().map(|&s| interest[s]).fold(0.0, f32::max);
        let expected = open
            .iter()
            .copied()
            .find(|&s| interest[s] == top && top > 0.0);
        assert_eq!(decision.slot, expected, "case {case}");
        let Some(best) = expected else {
            assert_eq!(decision, ContextDecision::STOP);
            continue;
        };
        let own = maps.directions().as_slice()[best];
        let width = slot_width(&maps);
        // Refined between slots, never further than half a slot (2D) or a slot (3D).
        #[cfg(not(flock_3d))]
        let reach = 0.5 * width + 1e-4;
        #[cfg(flock_3d)]
        let reach = width + 1e-4;
        assert!(
            angle_between(decision.direction, own) <= reach,
            "case {case}"
        );
        // Never nearer a masked direction than the winner's.
        let from_own = angle_between(decision.direction, own);
        for (slot, &direction) in maps.directions().as_slice().iter().enumerate() {
            if danger[slot] > limit {
                assert!(
                    angle_between(decision.direction, direction) >= from_own - 1e-4,
                    "case {case}: bent towards masked slot {slot}"
                );
            }
        }
        let expected_strength = (interest[best].min(1.0)) * (1.0 - danger[best]);
        assert!(
            decision.strength >= expected_strength - 1e-6,
            "case {case}: {} < {expected_strength}",
            decision.strength
        );
    }
}

#[test]
fn walls_and_neighbours_are_danger_in_their_direction() {
    let params = ContextParams::default();
    let mut maps = ContextMaps::new(params.slots as usize);
    // The danger of the slot nearest `way`, and that slot's direction.
    let toward = |maps: &ContextMaps, way: Vector| {
        let slot = nearest_slot(maps, way);
        (maps.danger()[slot], maps.directions().as_slice()[slot])
    };
    // 40 from the +x wall (30 beyond the clearance of 10) with a look-ahead of 100: the ray
    // along slot direction `d` leaves at 30 / d.x.
    let bounds = Bounds::centered(Vector::splat(200.0));
    wall_danger(&mut maps, xyz(60.0, 0.0, 0.0), &bounds, 100.0, 10.0);
    let (danger, d) = toward(&maps, Vector::X);
    assert!(
        (danger - (1.0 - 30.0 / d.x / 100.0)).abs() < 1e-5,
        "{danger} {d}"
    );
    assert!(toward(&maps, -Vector::X).0 < 0.01);
    // Outside the bounds, further out is fully dangerous, back in is not.
    maps.clear();
    wall_danger(&mut maps, xyz(150.0, 0.0, 0.0), &bounds, 100.0, 10.0);
    assert_eq!(toward(&maps, Vector::X).0, 1.0);
    assert_eq!(toward(&maps, -Vector::X).0, 0.0);

    // A neighbour at a quarter of the separation: 3/4 danger towards it (falling off with
    // the angle), none away.
    maps.clear();
    neighbour_danger(&mut maps, Vector::ZERO, [xyz(0.0, 5.0, 0.0)], 20.0);
    let (danger, d) = toward(&maps, Vector::Y);
    assert!((danger - 0.75 * d.y).abs() < 1e-5, "{danger} {d}");
    assert_eq!(toward(&maps, -Vector::Y).0, 0.0);
    // Beyond the separation: nothing.
    maps.clear();
    neighbour_danger(&mut maps, Vector::ZERO, [xyz(0.0, 25.0, 0.0)], 20.0);
    assert!(maps.danger().iter().all(|&d| d == 0.0));

    // Fleeing: danger towards the threat, interest away.
    maps.clear();
    flee_context(&mut maps, Vector::ZERO, xyz(10.0, 0.0, 0.0), 40.0, 1.0);
    let decision = decide(&maps, 0.1);
    assert!(decision.direction.x < -0.99, "{decision:?}");
    assert!(decision.strength > 0.7, "{decision:?}");
}

#[test]
fn momentum_keeps_to_the_current_side_of_two_equal_ways() {
    let mut maps = ContextMaps::new(ContextParams::default().slots as usize);
    let (up, down) = (xyz(100.0, 100.0, 0.0), xyz(100.0, -100.0, 0.0));
    for (velocity, side) in [(xyz(1.0, 1.0, 0.0), 1.0), (xyz(1.0, -1.0, 0.0), -1.0)] {
        maps.clear();
        seek_interest(&mut maps, Vector::ZERO, up, 1.0);
        seek_interest(&mut maps, Vector::ZERO, down, 1.0);
        momentum(&mut maps, velocity, 0.2);
        let decision = decide(&maps, 0.1);
        assert!(decision.direction.y * side > 0.5, "{decision:?}");
    }
    // Momentum alone moves nothing.
    maps.clear();
    momentum(&mut maps, Vector::X, 1.0);
    assert_eq!(decide(&maps, 0.1), ContextDecision::STOP);
}

#[test]
fn an_obstacle_the_vehicle_is_inside_opens_only_the_way_out() {
    let mut maps = ContextMaps::new(ContextParams::default().slots as usize);
    let rock = ball(Vector::ZERO, 20.0);
    let inside = xyz(0.0, 15.0, 0.0);
    // The target is the other way, through the ball.
    seek_interest(&mut maps, inside, xyz(0.0, -300.0, 0.0), 1.0);
    obstacle_danger(&mut maps, inside, &rock, 100.0, 10.0);
    let decision = decide(&maps, 0.1);
    assert!(decision.direction.y > 0.9, "{decision:?}");
    assert!(decision.strength > 0.9, "{decision:?}");
    // Within the clearance but outside: the way along the outline stays open.
    maps.clear();
    let beside = xyz(0.0, 25.0, 0.0);
    seek_interest(&mut maps, beside, xyz(300.0, 25.0, 0.0), 1.0);
    obstacle_danger(&mut maps, beside, &rock, 100.0, 10.0);
    let decision = decide(&maps, 0.1);
    assert!(decision.direction.x > 0.9, "{decision:?}");
}

#[test]
fn params_are_checked_class_by_class() {
    let good = ContextParams::default();
    assert!(good.is_valid());
    let bad_numbers = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0];
    for slots in [0, 1, 3, 257, u32::MAX] {
        assert!(!ContextParams { slots, ..good }.is_valid(), "{slots} slots");
    }
    for slots in [4, 256] {
        assert!(ContextParams { slots, ..good }.is_valid());
    }
    for bad in bad_numbers {
        let cases = [
            ContextParams {
                look_ahead: bad,
                ..good
            },
            ContextParams {
                clearance: bad,
                ..good
            },
            ContextParams {
                separation: bad,
                ..good
            },
            ContextParams {
                danger_threshold: bad,
                ..good
            },
            ContextParams {
                momentum: bad,
                ..good
            },
        ];
        for case in cases {
            assert!(!case.is_valid(), "{case:?}");
        }
    }
    assert!(
        !ContextParams {
            look_ahead: 0.0,
            ..good
        }
        .is_valid()
    );
    for too_much in [1.5, 2.0] {
        assert!(
            !ContextParams {
                danger_threshold: too_much,
                ..good
            }
            .is_valid()
        );
        assert!(
            !ContextParams {
                momentum: too_much,
                ..good
            }
            .is_valid()
        );
    }
    // Zero separation and clearance are valid: no neighbours, no room.
    assert!(
        ContextParams {
            separation: 0.0,
            clearance: 0.0,
            ..good
        }
        .is_valid()
    );
    // A slot count out of range builds the nearest valid direction set, never an empty one.
    assert_eq!(ContextMaps::new(0).len(), 4);
    assert_eq!(ContextMaps::new(100_000).len(), 256);
}

#[test]
fn hostile_inputs_write_nothing_and_never_give_nan() {
    let nan = f32::NAN;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let bad_numbers = [nan, f32::INFINITY, f32::NEG_INFINITY, -1.0, 0.0, 1e30];
    let bad_points = [
        Vector::splat(nan),
        Vector::splat(f32::INFINITY),
        xyz(1e30, -1e30, 1e30),
    ];
    let mut maps = ContextMaps::new(16);
    for &bad in &bad_numbers {
        for &point in &bad_points {
            maps.clear();
            let here = random_direction(&mut rng);
            seek_interest(&mut maps, here, point, 1.0);
            seek_interest(&mut maps, point, here, 1.0);
            seek_interest(&mut maps, here, Vector::X, bad);
            arrive_interest(&mut maps, here, Vector::X, bad, 1.0);
            arrive_interest(&mut maps, here, point, 10.0, bad);
            flee_context(&mut maps, here, point, bad, 1.0);
            flee_context(&mut maps, point, here, 10.0, bad);
            momentum(&mut maps, point, bad);
            momentum(&mut maps, Vector::X, bad);
            for shape in [ball(point, 10.0), ball(Vector::X, bad)] {
                obstacle_danger(&mut maps, here, &shape, 100.0, 10.0);
                obstacle_danger(&mut maps, here, &ball(Vector::X * 20.0, 5.0), bad, bad);
                obstacle_danger(&mut maps, point, &ball(Vector::X * 20.0, 5.0), 100.0, 1.0);
            }
            let broken = Bounds {
                min: point,
                max: Vector::splat(bad),
            };
            wall_danger(&mut maps, here, &broken, 100.0, 10.0);
            wall_danger(&mut maps, here, &Bounds::default(), bad, bad);
            wall_danger(&mut maps, point, &Bounds::default(), 100.0, 10.0);
            neighbour_danger(&mut maps, here, [point, here, here + Vector::X], bad);
            neighbour_danger(&mut maps, point, [here], 10.0);
            for (&interest, &danger) in maps.interest().iter().zip(maps.danger()) {
                assert!(interest.is_finite() && interest >= 0.0, "{bad} {point}");
                assert!((0.0..=1.0).contains(&danger), "{bad} {point}");
            }
            for threshold in [bad, nan, 2.0] {
                let decision = decide(&maps, threshold);
                assert_sane(&decision);
            }
            for slot in [0, 15, 16, usize::MAX] {
                maps.raise_interest(slot, bad);
                maps.raise_danger(slot, bad);
            }
            assert_sane(&decide(&maps, 0.1));
        }
    }
    // Neighbours on the vehicle's own point have no direction: no danger, no NaN.
    maps.clear();
    neighbour_danger(&mut maps, Vector::ZERO, [Vector::ZERO; 4], 20.0);
    assert!(maps.danger().iter().all(|&d| d == 0.0));
    // A vehicle given hostile limits never gets a NaN force from a sane decision.
    seek_interest(&mut maps, Vector::ZERO, Vector::X, 1.0);
    let params = ContextParams::default();
    for speed in [0.0, 1e30, f32::MAX] {
        let v = vehicle(Vector::ZERO, Vector::ZERO, speed);
        let force = steer_by_context(&v, &maps, &params);
        assert!(!force.is_nan(), "{speed}: {force}");
    }
}
