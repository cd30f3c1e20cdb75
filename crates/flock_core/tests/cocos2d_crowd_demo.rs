//! The cocos2d-x crowd demo (`MoveNode`): seek with its slow radius, flee from several
//! nodes, wander with its home, the combination and the wall push equal the document's formulas
//! on a small hand-made state, in its per-frame units (`_dtSpeed = _speed * dt` is the speed per
//! frame; the kernel's vehicles get it as their speed, with a response time of one frame).

use flock_core::steering::{
    Vehicle, WanderHome, WanderParams, arrive, avoid_walls, combine, flee_all, wander,
};
use flock_core::{Bounds, Vector};

const DT: f32 = 1.0 / 60.0;

/// cocos2d's `Vec2::getNormalized`: a zero vector stays zero.
fn normalized(v: Vector) -> Vector {
    let n = v.length();
    if n == 0.0 { v } else { v / n }
}

/// `MoveNode::turncate`.
fn turncate(v: Vector, max: f32) -> Vector {
    if v.length() > max {
        normalized(v) * max
    } else {
        v
    }
}

/// The state of one `MoveNode` that the formulas read.
struct Node {
    position: Vector,
    velocity: Vector,
    dt_speed: f32,
}

impl Node {
    /// The kernel's view of it.
    fn vehicle(&self) -> Vehicle {
        Vehicle {
            position: self.position,
            velocity: self.velocity,
            max_speed: self.dt_speed,
            response_time: 1.0,
        }
    }

    /// `MoveNode::seek`.
    fn seek(&self, seek_pos: Vector, tar_slow_radius: f32) -> Vector {
        let normal_vector = normalized(seek_pos - self.position);
        let dist = self.position.distance(seek_pos);
        let mut desired_velocity = normal_vector * self.dt_speed;
        if dist < tar_slow_radius {
            desired_velocity *= dist / tar_slow_radius;
        }
        desired_velocity - self.velocity
    }

    /// `MoveNode::flee` with `_fleeObjs`.
    fn flee(&self, flee_objs: &[Vector], flee_radius: f32) -> Vector {
        let mut steering = Vector::ZERO;
        for flee_pos in flee_objs {
            if flee_pos.distance(self.position) < flee_radius {
                let normal_vector = normalized(self.position - *flee_pos);
                steering += normal_vector * self.dt_speed - self.velocity;
            }
        }
        steering
    }

    /// `MoveNode::wander` (angles in degrees, as the document's `changeAngle`).
    fn wander(&self, wander_angle: &mut f32, random_value: f32, home: Vector) -> Vector {
        let (circle_distance, circle_radius, change_angle) = (30.0, 15.0, 180.0);
        let (wander_radius, pull_back) = (200.0, 50.0);
        let circle_center = normalized(self.velocity) * circle_distance;
        let displacement = Vector::new(0.0, -1.0) * circle_radius;
        // `changeAngle` keeps only the length.
        let rad = *wander_angle * std::f32::consts::PI / 180.0;
        let displacement = Vector::new(rad.cos(), rad.sin()) * displacement.length();
        *wander_angle += random_value * change_angle;
        let mut wander_force = circle_center - displacement;
        if self.position.distance(home) > wander_radius {
            let desired_velocity = normalized(home - self.position) * pull_back - self.velocity;
            wander_force += desired_velocity;
        }
        wander_force
    }

    /// `MoveNode::wallAvoid` in a `size` window with its origin at the bottom left.
    fn wall_avoid(&self, size: Vector) -> Vector {
        let tar_pos = self.position + normalized(self.velocity) * 50.0;
        let inside =
            tar_pos.x >= 0.0 && tar_pos.x <= size.x && tar_pos.y >= 0.0 && tar_pos.y <= size.y;
        if inside {
            return Vector::ZERO;
        }
        let mut steering = Vector::ZERO;
        if tar_pos.y >= size.y {
            steering += Vector::new(0.0, -1.0);
        }
        if tar_pos.y <= 0.0 {
            steering += Vector::new(0.0, 1.0);
        }
        if tar_pos.x >= size.x {
            steering += Vector::new(-1.0, 0.0);
        }
        if tar_pos.x <= 0.0 {
            steering += Vector::new(1.0, 0.0);
        }
        steering * self.dt_speed
    }
}

fn close(a: Vector, b: Vector) -> bool {
    (a - b).length() <= 1e-4 * (1.0 + b.length())
}

/// The player (`getPlayer`: speed 400, max speed 400, max force 20, mass 10, slow radius 150,
/// flee radius 100) at a few places around a target and seven fleers.
#[test]
fn seek_arrive_and_flee_match_the_document() {
    let target = Vector::new(600.0, 400.0);
    let fleers = [
        Vector::new(300.0, 300.0),
        Vector::new(300.0, 600.0),
        Vector::new(450.0, 450.0),
        Vector::new(500.0, 200.0),
    ];
    let nodes = [
        (Vector::new(100.0, 100.0), Vector::ZERO),
        (Vector::new(520.0, 380.0), Vector::new(3.0, -1.0)),
        (Vector::new(590.0, 402.0), Vector::new(-6.0, 2.0)),
        (Vector::new(380.0, 420.0), Vector::new(5.0, 5.0)),
        (Vector::new(320.0, 330.0), Vector::new(0.0, 6.6)),
    ];
    let mut fled = 0;
    for (position, velocity) in nodes {
        let node = Node {
            position,
            velocity,
            dt_speed: 400.0 * DT,
        };
        let v = node.vehicle();
        let seek = node.seek(target, 150.0);
        assert!(close(arrive(&v, target, 150.0), seek), "{position}");
        let flee = node.flee(&fleers, 100.0);
        assert!(close(flee_all(&v, fleers, 100.0), flee), "{position}");
        fled += usize::from(flee != Vector::ZERO);
        // One update's steering: the sum truncated to max force 20, divided by mass 10.
        let steering = turncate(seek + flee, 20.0) * (1.0 / 10.0);
        assert!(close(
            combine(
                arrive(&v, target, 150.0) + flee_all(&v, fleers, 100.0),
                20.0,
                10.0
            ),
            steering
        ));
    }
    assert!(fled >= 2, "flee exercised by {fled} nodes");
}

/// The wanderer (`getWanderNode`: circle 30 / 15, change angle 180, home radius 200, pull back
/// 50) over several steps of its own angle, in and out of its home.
#[test]
fn wander_matches_the_document() {
    let home = Vector::new(400.0, 300.0);
    let params = WanderParams {
        circle_distance: 30.0,
        circle_radius: 15.0,
        angle_change: std::f32::consts::PI,
        home: Some(WanderHome {
            centre: home,
            radius: 200.0,
            pull_back_speed: 50.0,
        }),
    };
    // The plugin's default in pixels and seconds is the same wanderer at 60 frames a second.
    assert_eq!(
        params.circle_distance * 60.0,
        WanderParams::COCOS2D_DEMO.circle_distance
    );
    assert_eq!(
        params.circle_radius * 60.0,
        WanderParams::COCOS2D_DEMO.circle_radius
    );
    let jitters = [0.5, -0.25, 0.1, -0.5, 0.3];
    for (position, velocity) in [
        (Vector::new(420.0, 310.0), Vector::new(1.2, -0.7)),
        (Vector::new(700.0, 100.0), Vector::new(0.0, 1.5)),
        (Vector::new(150.0, 300.0), Vector::ZERO),
    ] {
        let node = Node {
            position,
            velocity,
            dt_speed: 400.0 * DT,
        };
        let (mut degrees, mut radians) = (0.0f32, 0.0f32);
        for jitter in jitters {
            let expected = node.wander(&mut degrees, jitter, home);
            let force = wander(&node.vehicle(), &mut radians, &params, jitter);
            assert!(close(force, expected), "{position}: {force} vs {expected}");
            let same = Vector::from_angle(radians) - Vector::from_angle(degrees.to_radians());
            assert!(
                same.length() < 1e-4,
                "angle {radians} rad vs {degrees} degrees"
            );
        }
    }
}

/// Every node's wall push (`wallAvoid`, look-ahead 50, `_dtSpeed` per wall crossed), added to
/// the velocity after the truncated steering.
#[test]
fn the_wall_push_matches_the_document() {
    let window = Vector::new(1400.0, 700.0);
    let bounds = Bounds {
        min: Vector::ZERO,
        max: window,
    };
    for (position, velocity) in [
        (Vector::new(700.0, 350.0), Vector::new(5.0, 0.0)),
        (Vector::new(1380.0, 350.0), Vector::new(5.0, 0.0)),
        (Vector::new(20.0, 680.0), Vector::new(-1.0, 1.0)),
        (Vector::new(30.0, 30.0), Vector::new(0.0, -3.0)),
    ] {
        let node = Node {
            position,
            velocity,
            dt_speed: 300.0 * DT,
        };
        let push = avoid_walls(&node.vehicle(), &bounds, 50.0, node.dt_speed);
        assert!(close(push, node.wall_avoid(window)), "{position}");
    }
}
