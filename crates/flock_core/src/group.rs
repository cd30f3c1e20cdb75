//! The Unity tank group (its `TankGroup` and `TankBehaviour`): tanks head for their
//! group's target, keep apart from the tanks near them and move with them (`Update` and
//! `GetGroupMovement`), and drive like vehicles with a front (`Drive`): they turn at a limited
//! rate, slow while turning, and reverse when the way they want to go is well behind them.
//!
//! Unity's ground plane (x right, z forward, seen from above) is our plane (x right, y up); a
//! tank's `transform.forward` is its heading and `transform.right` is the heading turned a
//! quarter clockwise. Unity turns a positive angle about its up axis clockwise (seen from
//! above), so the document's positive `rotateDir` is a turn to the right here too.

use crate::math::{Vector, right_of, turn_about_up};

/// The tank group's settings (the Unity tank group's `TankGroup`).
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupParams {
    /// Tanks closer than this push each other apart (`keepDistance`).
    pub keep_distance: f32,
    /// The weight of keeping apart (`keepWeight`).
    pub keep_weight: f32,
    /// Inside this distance the pull to the target fades with the distance
    /// (`targetCloseDistance`).
    pub target_close_distance: f32,
    /// The weight of the pull to the target (`targetWeight`).
    pub target_weight: f32,
    /// The weight of moving with the mates (`moveWeight`).
    pub move_weight: f32,
    /// Inside this distance of the target a tank's wanted speed is zero. The document's comparison
    /// is lost in the document's text (`if((targetPosition-position).magnitude` is all that is
    /// left), so this distance is ours. It must leave room for the group: tanks keep
    /// `keep_distance` apart, so only the first one or two fit inside a circle much smaller than
    /// that, and the others circle the target for good.
    pub stop_distance: f32,
}

impl Default for GroupParams {
    /// The Unity tank group's `TankGroup` numbers (Unity units): keep distance 10 and weight 1,
    /// close distance 20, target weight 1.25, move weight 0.8; and our stop distance, 15: one and a
    /// half keep distances, room for a group of eight. Measured with the kernel's `drive` (groups
    /// of 6 and 8 starting 70 units away): with 15 every tank is at rest within 30 s; with 5 two
    /// tanks stop and the rest still circle the target after 180 s; with 10, a group of 8 never
    /// settles.
    fn default() -> Self {
        Self {
            keep_distance: 10.0,
            keep_weight: 1.0,
            target_close_distance: 20.0,
            target_weight: 1.25,
            move_weight: 0.8,
            stop_distance: 15.0,
        }
    }
}

/// A tank's wanted direction (the Unity tank group's `Update` and `GetGroupMovement`): towards the
/// target at `target_weight`, fading inside the close distance; plus, over `tanks`, the unit sum of
/// pushes away from each (`(1 - d / keep)` along the unit offset) times `keep_weight` and the unit
/// sum of their movement times `move_weight`. Not normalised: its length, up to one, scales the
/// speed in [`drive`].
///
/// `tanks` are the tanks near this one as (position, movement) pairs, **this one included**:
/// Unity's `Physics.OverlapSphere` finds the tank's own collider, which adds its own movement
/// (and no push: its offset is zero). Those at the keep distance or beyond are skipped.
pub fn group_direction(
    position: Vector,
    target: Vector,
    tanks: impl IntoIterator<Item = (Vector, Vector)>,
    params: &GroupParams,
) -> Vector {
    let to_target = target - position;
    let distance = to_target.length();
    let mut direction = to_target.normalize_or_zero() * params.target_weight;
    if distance < params.target_close_distance {
        direction *= distance / params.target_close_distance;
    }
    let (mut apart, mut movement) = (Vector::ZERO, Vector::ZERO);
    for (tank_position, tank_movement) in tanks {
        let away = position - tank_position;
        let gap = away.length();
        if gap >= params.keep_distance {
            continue;
        }
        apart += away.normalize_or_zero() * (1.0 - gap / params.keep_distance);
        movement += tank_movement;
    }
    direction
        + apart.normalize_or_zero() * params.keep_weight
        + movement.normalize_or_zero() * params.move_weight
}

/// The speed a tank eases towards: `move_speed`, or zero inside the stop distance; the tank's
/// `speed` moves towards it at the Unity tank group's rate (`Mathf.Lerp(speed, tgtSpeed, 2 dt)`,
/// its fraction clamped to one as Unity's `Lerp` does).
pub fn group_speed(
    speed: f32,
    distance_to_target: f32,
    move_speed: f32,
    params: &GroupParams,
    dt: f32,
) -> f32 {
    let wanted = if distance_to_target < params.stop_distance {
        0.0
    } else {
        move_speed
    };
    lerp(speed, wanted, 2.0 * dt)
}

/// A tank's own driving numbers (the Unity tank group's `TankBehaviour`).
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriveParams {
    /// Its cruising speed, world units per second (`moveSpeed`, 5 in the document).
    pub move_speed: f32,
    /// Its fastest turn, radians per second (`rotateSpeed`, 20 degrees a second in the document).
    pub rotate_speed: f32,
}

impl Default for DriveParams {
    /// The Unity tank group's tank, in Unity units: 5 units a second, turning 20 degrees a second.
    fn default() -> Self {
        Self {
            move_speed: 5.0,
            rotate_speed: 20f32.to_radians(),
        }
    }
}

/// What a tank carries from one step to the next.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriveState {
    /// The way it faces, a unit vector (`transform.forward`). It drives along it, backwards when
    /// reversing, so it is kept apart from the velocity.
    pub heading: Vector,
    /// The speed it eases towards its wanted one (`speed`).
    pub speed: f32,
    /// The speed it drove at in the last step, negative when reversing (`currentSpeed`).
    pub current_speed: f32,
    /// What the tanks around it see of its motion: its wanted direction (not normalised) times
    /// the speed it drove at (`myMovement = direction * finialSpeed`).
    pub movement: Vector,
}

impl DriveState {
    /// A tank at rest facing `heading` (normalised; +x if it has no direction).
    pub fn facing(heading: Vector) -> Self {
        Self {
            heading: heading.try_normalize().unwrap_or(Vector::X),
            speed: 0.0,
            current_speed: 0.0,
            movement: Vector::ZERO,
        }
    }
}

impl Default for DriveState {
    /// At rest, facing +x.
    fn default() -> Self {
        Self::facing(Vector::X)
    }
}

/// Above this forward component the wanted direction counts as straight ahead and the tank does
/// not turn: the Unity tank group's dead zone against jitter (`forwardDir < 0.98f`, "防抖").
pub const DEAD_AHEAD: f32 = 0.98;

/// Below this forward component the wanted direction is "more than a little behind" and the tank
/// reverses (`forwardDir < -0.2f`).
pub const REVERSE_BELOW: f32 = -0.2;

/// Reversing eases towards this many times the wanted speed, backwards (`-spd * 8`).
pub const REVERSE_FACTOR: f32 = 8.0;

/// The rate reversing eases at, per second (`4 * Time.deltaTime`).
pub const REVERSE_RATE: f32 = 4.0;

/// A full sideways turn keeps this fraction less of the speed (`1 - |rotateDir| * 0.8`).
pub const TURN_SLOWDOWN: f32 = 0.8;

/// One step of the Unity tank group's `Drive(direction, spd)`, `dt` seconds long. Returns the
/// velocity to move with this step (along the heading before the turn: the document translates,
/// then rotates) and updates `state`: the heading turned, the speed driven at and the movement.
///
/// In order, as the document does: `turn` is the wanted direction's component to the right and
/// `forward` its component ahead; when it is behind (`forward < 0`) the turn is full
/// (`turn = sign(turn)`, and Unity's `Mathf.Sign(0)` is 1); more than a little behind
/// (`forward < -0.2`) the speed eases towards `-8 spd` from the last step's speed at `4 dt`;
/// outside the 0.98 dead zone the tank turns at `turn x 180` degrees a second, at most
/// `rotate_speed`; the speed is then scaled by `clamp01(|direction|)` and by
/// `clamp01(1 - 0.8 |turn|)`.
pub fn drive(
    state: &mut DriveState,
    direction: Vector,
    speed: f32,
    rotate_speed: f32,
    dt: f32,
) -> Vector {
    // Other code may write anything into the state or the limits: a state that is not finite
    // starts again at rest facing +x (it would stay NaN for good), and a NaN or negative
    // `rotate_speed` allows no turn (`f32::clamp` panics on such bounds).
    if !(state.heading.is_finite() && state.current_speed.is_finite()) {
        *state = DriveState::default();
    }
    let rotate_speed = rotate_speed.max(0.0);
    let wanted = direction.normalize_or_zero();
    let right = right_of(state.heading);
    let mut turn = wanted.dot(right);
    let forward = wanted.dot(state.heading);
    let mut final_speed = speed;
    if forward < 0.0 {
        turn = if turn >= 0.0 { 1.0 } else { -1.0 };
    }
    if forward < REVERSE_BELOW {
        final_speed = lerp(
            state.current_speed,
            -speed * REVERSE_FACTOR,
            REVERSE_RATE * dt,
        );
    }
    let turn_rate = if forward < DEAD_AHEAD {
        (turn * std::f32::consts::PI).clamp(-rotate_speed, rotate_speed)
    } else {
        0.0
    };
    final_speed *= direction.length().clamp(0.0, 1.0);
    final_speed *= (1.0 - turn.abs() * TURN_SLOWDOWN).clamp(0.0, 1.0);
    let velocity = state.heading * final_speed;
    // A turn to the right is clockwise: a negative angle here.
    state.heading = turn_about_up(state.heading, -turn_rate * dt).normalize_or(state.heading);
    state.current_speed = final_speed;
    state.movement = direction * final_speed;
    velocity
}

/// Unity's `Mathf.Lerp`: `t` clamped to [0, 1].
fn lerp(from: f32, to: f32, t: f32) -> f32 {
    from + (to - from) * t.clamp(0.0, 1.0)
}

// In 2D: the 3D drive, on the ground plane, is checked by flock_core3d's tests.
#[cfg(all(test, not(flock_3d)))]
mod tests {
    use super::*;

    fn params() -> GroupParams {
        GroupParams {
            keep_distance: 2.0,
            keep_weight: 1.0,
            target_close_distance: 4.0,
            target_weight: 1.25,
            move_weight: 0.8,
            stop_distance: 1.0,
        }
    }

    #[test]
    fn group_direction_adds_target_keep_and_move() {
        let params = params();
        let alone = group_direction(Vector::ZERO, Vector::new(10.0, 0.0), [], &params);
        assert_eq!(alone, Vector::new(1.25, 0.0));
        let near = group_direction(Vector::ZERO, Vector::new(2.0, 0.0), [], &params);
        assert_eq!(near, Vector::new(0.625, 0.0));
        // Itself (no push, its own movement), a mate 1 below moving up, one out of reach.
        let with_mate = group_direction(
            Vector::ZERO,
            Vector::new(10.0, 0.0),
            [
                (Vector::ZERO, Vector::new(0.0, 1.0)),
                (Vector::new(0.0, -1.0), Vector::new(0.0, 3.0)),
                (Vector::new(0.0, 5.0), Vector::X),
            ],
            &params,
        );
        assert!((with_mate - Vector::new(1.25, 1.8)).length() < 1e-6);
        // Its own movement alone still counts.
        let own = group_direction(
            Vector::ZERO,
            Vector::new(10.0, 0.0),
            [(Vector::ZERO, Vector::new(0.0, -2.0))],
            &params,
        );
        assert!((own - Vector::new(1.25, -0.8)).length() < 1e-6);
        assert_eq!(group_speed(0.0, 10.0, 4.0, &params, 0.25), 2.0);
        assert_eq!(group_speed(2.0, 0.5, 4.0, &params, 0.25), 1.0);
        assert_eq!(group_speed(2.0, 10.0, 4.0, &params, 2.0), 4.0);
    }

    #[test]
    fn straight_ahead_drives_at_full_speed_without_turning() {
        let mut state = DriveState::facing(Vector::Y);
        let velocity = drive(&mut state, Vector::new(0.01, 2.0), 5.0, 1.0, 0.1);
        // Inside the dead zone: no turn; |direction| > 1 keeps the full speed, less the
        // slowing for the small sideways part.
        assert_eq!(state.heading, Vector::Y);
        let turn = Vector::new(0.01, 2.0).normalize().x;
        assert!((velocity - Vector::Y * 5.0 * (1.0 - 0.8 * turn)).length() < 1e-5);
        assert_eq!(state.movement, Vector::new(0.01, 2.0) * state.current_speed);
    }

    #[test]
    fn a_turn_is_limited_and_slows_the_tank() {
        let mut state = DriveState::facing(Vector::Y);
        // Wanted: to the right and ahead, 45 degrees; half strength.
        let direction = Vector::new(1.0, 1.0).normalize() * 0.5;
        let velocity = drive(&mut state, direction, 4.0, 0.2, 0.5);
        let turn = std::f32::consts::FRAC_1_SQRT_2;
        assert!((velocity - Vector::Y * 4.0 * 0.5 * (1.0 - 0.8 * turn)).length() < 1e-5);
        // 0.2 rad/s for 0.5 s, clockwise.
        assert!((Vector::Y.angle_to(state.heading) + 0.1).abs() < 1e-6);
    }

    #[test]
    fn behind_turns_at_full_rate_and_reverses() {
        let mut state = DriveState::facing(Vector::Y);
        state.current_speed = 1.0;
        // Wanted: almost straight behind, a little to the left.
        let direction = Vector::new(-0.1, -1.0);
        let velocity = drive(&mut state, direction, 5.0, 0.3, 0.1);
        // Full turn: sign(-) = -1, so left (anticlockwise) at the full rate.
        assert!((Vector::Y.angle_to(state.heading) - 0.03).abs() < 1e-6);
        // Reverse: lerp(1, -40, 0.4) = -15.4, times clamp01(|direction|) = 1, times 0.2.
        assert!((state.current_speed - (-15.4 * 0.2)).abs() < 1e-4);
        assert!((velocity - Vector::Y * state.current_speed).length() < 1e-5);
        // Behind but not by more than 0.2: full turn, no reversing, 0.2 of the speed.
        let mut state = DriveState::facing(Vector::Y);
        let velocity = drive(&mut state, Vector::new(1.0, -0.1), 5.0, 0.3, 0.1);
        assert!((velocity - Vector::Y * 1.0).length() < 1e-5);
    }
}
