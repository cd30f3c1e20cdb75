//! The Unity tank-group demo: the group direction and one `Drive` step equal the
//! document's C# on a small hand-made state, written in Unity's terms: a tank's yaw in degrees
//! about the up axis (clockwise seen from above), `forward = (sin yaw, cos yaw)` and
//! `right = (cos yaw, -sin yaw)` on the ground plane (Unity's x and z are our x and y),
//! `Vector3.normalized` zero at a magnitude of 1e-5 or less, `Mathf.Sign(0) = 1` and
//! `Mathf.Lerp` clamping its fraction.

use flock_core::Vector;
use flock_core::steering::{DriveState, GroupParams, drive, group_direction, group_speed};

const DT: f32 = 1.0 / 60.0;
const MOVE_SPEED: f32 = 5.0;
const ROTATE_SPEED: f32 = 20.0;

fn params() -> GroupParams {
    GroupParams {
        stop_distance: 3.0,
        ..GroupParams::default()
    }
}

fn normalized(v: Vector) -> Vector {
    let m = v.length();
    if m > 1e-5 { v / m } else { Vector::ZERO }
}

fn sign(x: f32) -> f32 {
    if x >= 0.0 { 1.0 } else { -1.0 }
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t.clamp(0.0, 1.0)
}

/// A tank as the document keeps it.
#[derive(Clone, Copy)]
struct Tank {
    position: Vector,
    yaw_degrees: f32,
    speed: f32,
    current_speed: f32,
    movement: Vector,
}

impl Tank {
    fn forward(&self) -> Vector {
        let yaw = self.yaw_degrees.to_radians();
        Vector::new(yaw.sin(), yaw.cos())
    }

    fn right(&self) -> Vector {
        let yaw = self.yaw_degrees.to_radians();
        Vector::new(yaw.cos(), -yaw.sin())
    }
}

/// `GetGroupMovement`: `Physics.OverlapSphere` finds every tank within the keep distance, this
/// one too.
fn get_group_movement(me: usize, tanks: &[Tank]) -> Vector {
    let group = params();
    let (mut v1, mut v2) = (Vector::ZERO, Vector::ZERO);
    for other in tanks {
        let dis = tanks[me].position - other.position;
        if dis.length() >= group.keep_distance {
            continue;
        }
        v1 += normalized(dis) * (1.0 - dis.length() / group.keep_distance);
        v2 += other.movement;
    }
    normalized(v1) * group.keep_weight + normalized(v2) * group.move_weight
}

/// `Update` up to the call of `Drive`: the direction and the eased speed.
fn update(me: usize, tanks: &[Tank], target: Vector) -> (Vector, f32) {
    let group = params();
    let tank = tanks[me];
    let displacement = target - tank.position;
    let mut direction = normalized(displacement) * group.target_weight;
    if displacement.length() < group.target_close_distance {
        direction *= displacement.length() / group.target_close_distance;
    }
    direction += get_group_movement(me, tanks);
    let tgt_speed = if (target - tank.position).length() < group.stop_distance {
        0.0
    } else {
        MOVE_SPEED
    };
    (direction, lerp(tank.speed, tgt_speed, 2.0 * DT))
}

/// `Drive(direction, spd)`.
fn document_drive(tank: &mut Tank, direction: Vector, spd: f32) {
    let finial_direction = normalized(direction);
    let mut finial_speed = spd;
    let mut finial_rotate = 0.0;
    let mut rotate_dir = finial_direction.dot(tank.right());
    let forward_dir = finial_direction.dot(tank.forward());
    if forward_dir < 0.0 {
        rotate_dir = sign(rotate_dir);
    }
    if forward_dir < -0.2 {
        finial_speed = lerp(tank.current_speed, -spd * 8.0, 4.0 * DT);
    }
    if forward_dir < 0.98 {
        finial_rotate = (rotate_dir * 180.0).clamp(-ROTATE_SPEED, ROTATE_SPEED);
    }
    finial_speed *= direction.length().clamp(0.0, 1.0);
    finial_speed *= (1.0 - rotate_dir.abs() * 0.8).clamp(0.0, 1.0);
    tank.position += tank.forward() * finial_speed * DT;
    tank.yaw_degrees += finial_rotate * DT;
    tank.current_speed = finial_speed;
    tank.movement = direction * finial_speed;
}

/// Five tanks of one group: a knot of three, one facing away from the target, one alone; they
/// have moved before (their movements and speeds are not zero).
fn hand_made_tanks() -> Vec<Tank> {
    let tank = |x, y, yaw_degrees, speed, current_speed, movement| Tank {
        position: Vector::new(x, y),
        yaw_degrees,
        speed,
        current_speed,
        movement,
    };
    vec![
        tank(0.0, 0.0, 40.0, 3.0, 2.5, Vector::new(1.0, 1.5)),
        tank(4.0, 1.0, 10.0, 4.0, 3.5, Vector::new(0.5, 3.0)),
        tank(1.0, 5.0, 95.0, 2.0, 1.0, Vector::new(2.0, -0.5)),
        tank(-3.0, -2.0, 225.0, 1.0, -0.5, Vector::new(-0.5, 0.2)),
        tank(40.0, -30.0, 300.0, 5.0, 4.0, Vector::new(-2.0, 4.0)),
    ]
}

#[test]
fn the_group_direction_and_one_drive_step_match_the_document() {
    let target = Vector::new(30.0, 25.0);
    let tanks = hand_made_tanks();
    let mut reversed = false;
    for me in 0..tanks.len() {
        // The document's step.
        let (direction, speed) = update(me, &tanks, target);
        let mut expected = tanks[me];
        expected.speed = speed;
        document_drive(&mut expected, direction, speed);

        // The kernel's.
        let tank = tanks[me];
        let near = tanks.iter().map(|t| (t.position, t.movement));
        let kernel_direction = group_direction(tank.position, target, near, &params());
        assert!(
            (kernel_direction - direction).length() < 1e-5,
            "{me}: direction"
        );
        let mut state = DriveState {
            heading: tank.forward(),
            speed: tank.speed,
            current_speed: tank.current_speed,
            movement: tank.movement,
        };
        let distance = (target - tank.position).length();
        state.speed = group_speed(state.speed, distance, MOVE_SPEED, &params(), DT);
        assert!((state.speed - speed).abs() < 1e-6, "{me}: speed");
        let speed = state.speed;
        let velocity = drive(
            &mut state,
            kernel_direction,
            speed,
            ROTATE_SPEED.to_radians(),
            DT,
        );
        let position = tank.position + velocity * DT;

        assert!(
            (position - expected.position).length() < 1e-5,
            "{me}: position {position} vs {}",
            expected.position
        );
        assert!(
            (state.heading - expected.forward()).length() < 1e-5,
            "{me}: heading"
        );
        assert!(
            (state.current_speed - expected.current_speed).abs() < 1e-5,
            "{me}: current speed"
        );
        assert!(
            (state.movement - expected.movement).length() < 1e-5,
            "{me}: movement"
        );
        reversed |= expected.current_speed < 0.0;
    }
    assert!(reversed, "the state never exercises reversing");
}

#[test]
fn a_tank_counts_its_own_movement() {
    // Alone: OverlapSphere still finds the tank itself, so its own movement steers it on.
    let tank = hand_made_tanks()[4];
    let target = tank.position + Vector::new(100.0, 0.0);
    let (direction, _) = update(0, &[tank], target);
    let kernel = group_direction(
        tank.position,
        target,
        [(tank.position, tank.movement)],
        &params(),
    );
    assert!((kernel - direction).length() < 1e-6);
    let expected =
        Vector::new(params().target_weight, 0.0) + tank.movement.normalize() * params().move_weight;
    assert!((kernel - expected).length() < 1e-6);
}
