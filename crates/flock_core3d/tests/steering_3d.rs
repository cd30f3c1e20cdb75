//! What only 3D steering has: wander jitters a point on a sphere, a turn keeps to the plane of
//! the two headings, and boxes, capsules and spheres in the way are flown around, dodging in
//! depth. The cases both dimensions share are in `flock_core`'s `tests/steering.rs`, which
//! this crate runs too.

extern crate flock_core3d as kernel;

#[path = "../../flock_core/tests/common/mod.rs"]
mod common;

use common::angle_between;
use kernel::Vector;
use kernel::steering::{
    Shape, Vehicle, WanderParams, WanderState, avoid_obstacles, combine, limit_turn, seek, wander,
    wander_jitter,
};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;

fn vehicle(position: Vector, velocity: Vector) -> Vehicle {
    Vehicle {
        position,
        velocity,
        max_speed: 10.0,
        response_time: 0.5,
    }
}

#[test]
fn the_wander_point_moves_on_a_sphere_by_at_most_half_the_angle_change() {
    let params = WanderParams {
        angle_change: 0.8,
        ..WanderParams::default()
    };
    let me = vehicle(Vector::ZERO, Vector::X * 10.0);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut state = WanderState::ZERO;
    wander(&me, &mut state, &params, wander_jitter(&mut rng));
    let (mut lowest_z, mut highest_z) = (f32::MAX, f32::MIN);
    for _ in 0..2_000 {
        let before = state;
        let force = wander(&me, &mut state, &params, wander_jitter(&mut rng));
        assert!(force.is_finite());
        assert!((state.length() - 1.0).abs() < 1e-5, "{state}");
        let moved = angle_between(before, state);
        assert!(moved <= 0.4 + 1e-5, "moved {moved}");
        lowest_z = lowest_z.min(state.z);
        highest_z = highest_z.max(state.z);
    }
    // It roams the whole sphere, out of the plane both ways.
    assert!(lowest_z < -0.9 && highest_z > 0.9, "{lowest_z} {highest_z}");
}

#[test]
fn a_turn_is_in_the_plane_of_the_two_headings() {
    let from = Vector::new(1.0, 0.0, 0.0);
    let to = Vector::new(0.0, 0.6, 0.8);
    let turned = limit_turn(from, to, 0.5, 100.0, 1.0);
    let normal = from.cross(to).normalize();
    assert!(turned.dot(normal).abs() < 1e-6, "{turned}");
    assert!((angle_between(from, turned) - 0.5).abs() < 1e-5);
}

/// Flies a vehicle from `start` towards `target`, seeking and avoiding `obstacles`; returns the
/// closest it came to the target and whether it ever entered an obstacle.
fn fly(start: Vector, target: Vector, obstacles: &[Shape]) -> (f32, bool) {
    let mut me = vehicle(start, (target - start).normalize() * 10.0);
    let dt = 1.0 / 30.0;
    let (mut closest, mut entered) = (f32::MAX, false);
    for _ in 0..900 {
        let force = seek(&me, target) + 3.0 * avoid_obstacles(&me, obstacles, 25.0, 2.0);
        me.velocity = (me.velocity + combine(force, 80.0, 1.0) * dt).clamp_length_max(me.max_speed);
        me.position += me.velocity * dt;
        closest = closest.min(me.position.distance(target));
        entered |= obstacles.iter().any(|shape| inside(shape, me.position));
    }
    (closest, entered)
}

fn inside(shape: &Shape, point: Vector) -> bool {
    match *shape {
        Shape::Sphere { centre, radius } => point.distance(centre) < radius,
        Shape::Cuboid { centre, half_size } => {
            ((point - centre).abs() - half_size).max_element() < 0.0
        }
        Shape::OrientedCuboid {
            centre,
            half_size,
            rotation,
        } => ((rotation.inverse() * (point - centre)).abs() - half_size).max_element() < 0.0,
        Shape::Capsule { start, end, radius } => {
            let axis = end - start;
            let along = ((point - start).dot(axis) / axis.length_squared()).clamp(0.0, 1.0);
            point.distance(start + axis * along) < radius
        }
    }
}

#[test]
fn rotated_boxes_and_capsules_in_the_way_are_flown_around() {
    let start = Vector::new(-60.0, 0.0, 0.0);
    let target = Vector::new(60.0, 0.0, 0.0);
    let tilted = Shape::OrientedCuboid {
        centre: Vector::new(0.0, 2.0, 1.0),
        half_size: Vector::new(3.0, 12.0, 4.0),
        rotation: glam::Quat::from_euler(glam::EulerRot::XYZ, 0.4, 0.7, 0.5),
    };
    // A pole leaning across the path in depth.
    let pole = Shape::Capsule {
        start: Vector::new(-5.0, -1.0, -15.0),
        end: Vector::new(5.0, 1.0, 15.0),
        radius: 4.0,
    };
    for obstacles in [vec![tilted.clone()], vec![pole.clone()], vec![tilted, pole]] {
        // Without avoidance the path goes through them.
        let straight = (0..=120).map(|x| start + Vector::X * x as f32);
        assert!(
            straight
                .clone()
                .any(|p| obstacles.iter().any(|s| inside(s, p)))
        );
        let (closest, entered) = fly(start, target, &obstacles);
        assert!(!entered, "{obstacles:?}");
        assert!(closest < 1.0, "{obstacles:?}: got within {closest}");
    }
}

#[test]
fn spheres_and_boxes_in_the_way_are_flown_around() {
    let start = Vector::new(-60.0, 0.0, 0.0);
    let target = Vector::new(60.0, 0.0, 0.0);
    // Dead ahead, just off the line above, and just off the line in depth: each is dodged.
    for obstacles in [
        vec![Shape::Sphere {
            centre: Vector::ZERO,
            radius: 8.0,
        }],
        vec![Shape::Sphere {
            centre: Vector::new(0.0, 3.0, 0.0),
            radius: 8.0,
        }],
        vec![Shape::Cuboid {
            centre: Vector::new(0.0, 0.0, -2.0),
            half_size: Vector::new(4.0, 6.0, 6.0),
        }],
        vec![
            Shape::Sphere {
                centre: Vector::new(-20.0, 0.0, 1.0),
                radius: 5.0,
            },
            Shape::Cuboid {
                centre: Vector::new(20.0, 1.0, 0.0),
                half_size: Vector::splat(5.0),
            },
        ],
    ] {
        let (closest, entered) = fly(start, target, &obstacles);
        assert!(!entered, "{obstacles:?}");
        assert!(closest < 1.0, "{obstacles:?}: got within {closest}");
    }
    // Off the path in depth: no push at all.
    let me = vehicle(start, Vector::X * 10.0);
    let aside = Shape::Sphere {
        centre: Vector::new(0.0, 0.0, 20.0),
        radius: 5.0,
    };
    assert_eq!(avoid_obstacles(&me, [aside], 100.0, 2.0), Vector::ZERO);
    // An obstacle off the path along z pushes along z, away from it.
    let below = Shape::Sphere {
        centre: Vector::new(-45.0, 0.0, -3.0),
        radius: 5.0,
    };
    let push = avoid_obstacles(&me, [below], 30.0, 2.0);
    assert!(
        push.z > 0.0 && push.x == 0.0 && push.y.abs() < 1e-6,
        "{push}"
    );
}
