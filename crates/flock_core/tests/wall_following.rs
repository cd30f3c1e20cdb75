//! Wall following over many steps: round a ball, along a box's edges, inside a pen, on the side
//! asked for; and bad input. `flock_core3d` runs the same cases in 3D (`[[test]] path` in its
//! manifest), where the vehicle goes round on the ground (x-z), the plane that
//! [`level`](kernel::steering::level) lays the cases on.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::*;
use kernel::Vector;
use kernel::steering::{Enclosure, Wall, WallFollowParams, WallSide, follow_wall, level};

/// The angle of `v` on the ground, anticlockwise from +x (seen from above).
fn ground_angle(v: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return v.y.atan2(v.x);
    #[cfg(flock_3d)]
    return (-v.z).atan2(v.x);
}

/// Half the size of a box lying on the ground, `half_length` along x and `half_width` across
/// (in 3D, 50 high).
fn flat_half_size(half_length: f32, half_width: f32) -> Vector {
    let on_ground = level(half_length, half_width).abs();
    #[cfg(flock_3d)]
    return on_ground + Vector::Y * 50.0;
    #[cfg(not(flock_3d))]
    on_ground
}

/// A pen on the ground around the origin: a rectangle in 2D, a box (100 high) in 3D.
fn pen(half_size: Vector) -> Enclosure {
    #[cfg(not(flock_3d))]
    return Enclosure::Polygon(kernel::steering::Polygon::rectangle(half_size).unwrap());
    #[cfg(flock_3d)]
    return Enclosure::Cuboid {
        centre: Vector::ZERO,
        half_size,
    };
}

/// How a run went: the angle swept round the origin (anticlockwise positive), and the least
/// and most distance from the wall after the first second.
struct Run {
    swept: f32,
    nearest: f32,
    farthest: f32,
}

/// Follows `wall` from `start` at `velocity` for `steps` steps, at 60 units a second.
fn run(
    wall: Wall,
    params: &WallFollowParams,
    start: Vector,
    velocity: Vector,
    steps: usize,
) -> Run {
    let mut me = vehicle(start, velocity, 60.0);
    let mut result = Run {
        swept: 0.0,
        nearest: f32::MAX,
        farthest: f32::MIN,
    };
    for step_number in 0..steps {
        let before = ground_angle(me.position);
        let force = follow_wall(&me, wall, params);
        assert!(force.is_finite(), "{force}");
        step(&mut me, force);
        let turn = ground_angle(me.position) - before;
        result.swept +=
            (turn + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI;
        if step_number >= 60 {
            let distance = wall.nearest(me.position).unwrap().distance;
            result.nearest = result.nearest.min(distance);
            result.farthest = result.farthest.max(distance);
        }
    }
    result
}

impl Run {
    /// Asserts that it went at least once round: anticlockwise for `sense` 1, clockwise for -1.
    fn assert_lapped(&self, sense: f32) {
        assert!(self.swept * sense > std::f32::consts::TAU, "{}", self.swept);
    }

    /// Asserts that it kept strictly between `low` and `high` from the wall after the first
    /// second.
    fn assert_kept_between(&self, low: f32, high: f32) {
        assert!(
            self.nearest > low && self.farthest < high,
            "{} to {}",
            self.nearest,
            self.farthest
        );
    }
}

/// Following on the `side` hand at `distance`, looking `look_ahead` along the wall.
fn follow(side: WallSide, distance: f32, look_ahead: f32) -> WallFollowParams {
    WallFollowParams {
        side,
        distance,
        look_ahead,
    }
}

#[test]
fn a_vehicle_laps_a_ball_at_its_distance_on_the_side_asked_for() {
    let round = ball(Vector::ZERO, 100.0);
    let wall = Wall::Outside(&round);
    // One lap at 120 from the centre is 754 units: 12.6 s at 60 units a second.
    let (start, velocity) = (level(120.0, 0.0), level(0.0, 60.0));
    let left = run(
        wall,
        &follow(WallSide::Left, 20.0, 30.0),
        start,
        velocity,
        900,
    );
    left.assert_lapped(1.0);
    left.assert_kept_between(19.0, 21.0);
    // The other hand goes the other way round, even started the first way.
    let right = run(
        wall,
        &follow(WallSide::Right, 20.0, 30.0),
        start,
        velocity,
        900,
    );
    right.assert_lapped(-1.0);
    right.assert_kept_between(19.0, 21.0);
}

#[test]
fn a_vehicle_goes_along_a_box_s_edges_and_round_its_corners() {
    let block = aligned_box(Vector::ZERO, flat_half_size(100.0, 60.0));
    let params = follow(WallSide::Left, 20.0, 20.0);
    // 20 below the near side, heading along it: one lap is about 766 units, 12.8 s.
    let (start, velocity) = (level(0.0, -80.0), level(60.0, 0.0));
    let lap = run(Wall::Outside(&block), &params, start, velocity, 900);
    lap.assert_lapped(1.0);
    lap.assert_kept_between(16.0, 24.0);
}

#[test]
fn a_vehicle_goes_round_the_inside_of_a_pen() {
    let pen = pen(flat_half_size(100.0, 60.0));
    // Inside a pen the right hand goes anticlockwise.
    let params = follow(WallSide::Right, 20.0, 20.0);
    // A lap 20 inside the walls is 480 units: 8 s.
    let lap = run(
        Wall::Inside(&pen),
        &params,
        level(0.0, -40.0),
        Vector::ZERO,
        600,
    );
    lap.assert_lapped(1.0);
    lap.assert_kept_between(16.0, 24.0);
    // Started outside the pen: it comes in and goes round.
    let outside = run(
        Wall::Inside(&pen),
        &params,
        level(0.0, -90.0),
        Vector::ZERO,
        600,
    );
    assert!(
        outside.swept > 1.5 * std::f32::consts::PI,
        "{}",
        outside.swept
    );
}

#[test]
fn a_vehicle_far_from_the_wall_closes_in_and_then_keeps_its_distance() {
    let round = ball(Vector::ZERO, 50.0);
    let params = follow(WallSide::Left, 10.0, 20.0);
    let mut me = vehicle(level(200.0, 0.0), Vector::ZERO, 60.0);
    for _ in 0..600 {
        let force = follow_wall(&me, Wall::Outside(&round), &params);
        step(&mut me, force);
    }
    let distance = me.position.length() - 50.0;
    assert!((distance - 10.0).abs() < 2.0, "{distance}");
}

#[test]
fn bad_input_gives_no_force_and_no_nan() {
    let round = ball(Vector::ZERO, 10.0);
    let wall = Wall::Outside(&round);
    let good = follow(WallSide::Left, 5.0, 5.0);
    let me = vehicle(level(20.0, 0.0), level(0.0, 10.0), 60.0);
    assert_ne!(follow_wall(&me, wall, &good), Vector::ZERO);

    // Parameters that are not numbers, negative, infinite or beyond the largest magnitude.
    for bad in [f32::NAN, -1.0, f32::INFINITY, f32::NEG_INFINITY, 1e30] {
        let distance = WallFollowParams {
            distance: bad,
            ..good
        };
        let look_ahead = WallFollowParams {
            look_ahead: bad,
            ..good
        };
        for params in [distance, look_ahead] {
            assert!(!params.is_valid());
            assert_eq!(follow_wall(&me, wall, &params), Vector::ZERO, "{params:?}");
        }
    }
    let zero_look_ahead = WallFollowParams {
        look_ahead: 0.0,
        ..good
    };
    assert_eq!(follow_wall(&me, wall, &zero_look_ahead), Vector::ZERO);

    // Huge but valid numbers, a distance of zero: finite forces.
    for (distance, look_ahead) in [(1e9, 1e9), (0.0, 1e-6), (0.0, 5.0)] {
        let params = WallFollowParams {
            distance,
            look_ahead,
            ..good
        };
        let force = follow_wall(&me, wall, &params);
        assert!(force.is_finite(), "{params:?}: {force}");
    }

    // Walls that are not walls: no force.
    for broken in [
        ball(level(f32::NAN, 0.0), 10.0),
        ball(Vector::ZERO, -1.0),
        ball(Vector::ZERO, f32::INFINITY),
        aligned_box(Vector::ZERO, Vector::splat(f32::NAN)),
        aligned_box(Vector::ZERO, -Vector::ONE),
    ] {
        assert!(!Wall::Outside(&broken).is_valid());
        let force = follow_wall(&me, Wall::Outside(&broken), &good);
        assert_eq!(force, Vector::ZERO, "{broken:?}");
    }

    // A vehicle lost to NaN: no force. At the ball's centre, on its outline, at rest, on a
    // ball of no size: finite forces that lead out and round.
    let lost = vehicle(level(f32::NAN, 0.0), level(0.0, 10.0), 60.0);
    assert_eq!(follow_wall(&lost, wall, &good), Vector::ZERO);
    for (position, velocity) in [
        (Vector::ZERO, Vector::ZERO),
        (level(10.0, 0.0), Vector::ZERO),
        (level(10.0, 0.0), level(0.0, 10.0)),
        (level(3.0, 4.0), level(-10.0, 0.0)),
    ] {
        let me = vehicle(position, velocity, 60.0);
        let force = follow_wall(&me, wall, &good);
        assert!(
            force.is_finite() && force != Vector::ZERO,
            "{position}: {force}"
        );
    }
    let point = ball(level(5.0, 5.0), 0.0);
    let force = follow_wall(&me, Wall::Outside(&point), &good);
    assert!(force.is_finite() && force != Vector::ZERO, "{force}");
    // A capsule whose ends meet is a ball; a box turned by no rotation is no wall.
    #[cfg(flock_3d)]
    {
        let capsule = kernel::steering::Shape::Capsule {
            start: level(5.0, 5.0),
            end: level(5.0, 5.0),
            radius: 1.0,
        };
        let force = follow_wall(&me, Wall::Outside(&capsule), &good);
        assert!(force.is_finite() && force != Vector::ZERO, "{force}");
        let unturned = kernel::steering::Shape::OrientedCuboid {
            centre: Vector::ZERO,
            half_size: Vector::ONE,
            rotation: kernel::steering::Rotation::from_xyzw(0.0, 0.0, 0.0, 0.0),
        };
        assert_eq!(
            follow_wall(&me, Wall::Outside(&unturned), &good),
            Vector::ZERO
        );
    }
}
