//! Steering behaviours for one vehicle: seek, arrive, flee, pursue, evade, wander, wall and
//! obstacle avoidance, their combination and turn-rate-limited driving (seed 003's catalogue);
//! the tank group of seed 004 is in [`group`](crate::group), re-exported here.
//!
//! Every behaviour follows Reynolds' formula as the flocking rules do: a *desired velocity*,
//! and the steering force `(desired - velocity) / response_time` (see
//! [`FlockConfig::response_time`](crate::FlockConfig)). Forces are in world units per second
//! squared times mass; [`combine`] turns their weighted sum into an acceleration as seed 003
//! does: truncate to the maximum force, divide by mass.

pub use crate::sight::{SightParams, in_sight, sight_flock};

pub use crate::group::{DriveParams, DriveState, GroupParams, drive, group_direction, group_speed};

use crate::config::Bounds;
use crate::config::ForceLimit;
use crate::math::{DIMENSIONS, Vector, cross_length, limit_force, sideways_away, turn_towards};

/// What a behaviour needs to know about the vehicle it steers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vehicle {
    /// Where it is.
    pub position: Vector,
    /// How it moves, world units per second.
    pub velocity: Vector,
    /// The speed it wants to travel at, world units per second.
    pub max_speed: f32,
    /// How quickly it wants to reach a desired velocity, seconds (one frame by default).
    pub response_time: f32,
}

impl Vehicle {
    /// Reynolds' steering force towards a desired velocity.
    #[inline]
    pub fn steer_to(&self, desired_velocity: Vector) -> Vector {
        (desired_velocity - self.velocity) / self.response_time
    }

    /// Its heading, or zero at rest.
    #[inline]
    pub fn heading(&self) -> Vector {
        self.velocity.normalize_or_zero()
    }
}

/// Full speed towards `target` (Reynolds' seek; seed 000's `seek`).
pub fn seek(vehicle: &Vehicle, target: Vector) -> Vector {
    arrive(vehicle, target, 0.0)
}

/// Seek that slows down inside `slow_radius`, its desired speed falling in proportion to the
/// distance, so it stops at the target (seed 003's `_tarSlowRadius`). A radius of zero is
/// plain seek. At the target itself the desired velocity is zero: it brakes.
pub fn arrive(vehicle: &Vehicle, target: Vector, slow_radius: f32) -> Vector {
    let offset = target - vehicle.position;
    let distance = offset.length();
    let speed = if distance < slow_radius {
        vehicle.max_speed * distance / slow_radius
    } else {
        vehicle.max_speed
    };
    vehicle.steer_to(offset.normalize_or_zero() * speed)
}

/// Full speed directly away from `threat` while it is closer than `radius` (use
/// `f32::INFINITY` to always flee); no force beyond it (seed 003's `flee`, seed 001's
/// `tooClose`). A threat exactly on the vehicle gives no direction, so no force.
pub fn flee(vehicle: &Vehicle, threat: Vector, radius: f32) -> Vector {
    let away = vehicle.position - threat;
    if away.length_squared() >= radius * radius {
        return Vector::ZERO;
    }
    match away.try_normalize() {
        Some(direction) => vehicle.steer_to(direction * vehicle.max_speed),
        None => Vector::ZERO,
    }
}

/// The sum of [`flee`] over several threats, as seed 003 sums one flee force per threat.
pub fn flee_all(
    vehicle: &Vehicle,
    threats: impl IntoIterator<Item = Vector>,
    radius: f32,
) -> Vector {
    threats
        .into_iter()
        .map(|threat| flee(vehicle, threat, radius))
        .sum()
}

/// Where a moving target will be when the vehicle could reach it: its position plus its
/// velocity times the time to cover the distance at full speed, that time capped at
/// `max_look_ahead` seconds so a far or fast target is not predicted beyond reason.
pub fn predict(
    vehicle: &Vehicle,
    target: Vector,
    target_velocity: Vector,
    max_look_ahead: f32,
) -> Vector {
    let distance = (target - vehicle.position).length();
    let time = if vehicle.max_speed > 0.0 {
        (distance / vehicle.max_speed).min(max_look_ahead)
    } else {
        0.0
    };
    target + target_velocity * time
}

/// Seek where a moving target will be (Reynolds' pursuit; seed 003 leaves the prediction
/// commented out and seeks the present position).
pub fn pursue(
    vehicle: &Vehicle,
    target: Vector,
    target_velocity: Vector,
    max_look_ahead: f32,
) -> Vector {
    seek(
        vehicle,
        predict(vehicle, target, target_velocity, max_look_ahead),
    )
}

/// Flee where a moving threat will be, while the threat itself is closer than `radius`.
pub fn evade(
    vehicle: &Vehicle,
    threat: Vector,
    threat_velocity: Vector,
    max_look_ahead: f32,
    radius: f32,
) -> Vector {
    if (vehicle.position - threat).length_squared() >= radius * radius {
        return Vector::ZERO;
    }
    let predicted = predict(vehicle, threat, threat_velocity, max_look_ahead);
    flee(vehicle, predicted, f32::INFINITY)
}

/// Seed 003's wander: a circle `circle_distance` ahead of the vehicle, a point on it at a
/// wandering angle that jitters each step, and an optional home it is pulled back to.
///
/// Seed 003 adds the vector `circle centre - displacement` to its steering sum as it is, a
/// velocity change per frame like its other steering; here the circle's distance and radius are
/// therefore speeds (world units per second), and the force is that vector over the response
/// time, as every steering force is. Seed 003's 30 and 15 per frame are 1800 and 900 px/s.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WanderParams {
    /// How far ahead of the vehicle the circle's centre is, as a speed.
    pub circle_distance: f32,
    /// The circle's radius, as a speed: larger turns more.
    pub circle_radius: f32,
    /// The most the angle changes in one step, radians (the jitter is uniform in plus or
    /// minus half of it; seed 003 uses 180 degrees).
    pub angle_change: f32,
    /// Where to stay near, if anywhere.
    pub home: Option<WanderHome>,
}

/// The home of a wanderer: outside `radius` around `centre` it is pulled back.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WanderHome {
    /// The home point.
    pub centre: Vector,
    /// How far it may wander freely.
    pub radius: f32,
    /// The desired speed towards home once outside the radius, world units per second: the
    /// pull is Reynolds' `desired - velocity` (seed 003's `_wanderPullBackSteering`, 50 per
    /// frame: 3000 px/s, far above the wanderer's top speed, so the pull wins).
    pub pull_back_speed: f32,
}

impl WanderParams {
    /// Seed 003's wanderer in pixels and seconds at 60 fps: circle 30 ahead and radius 15 (per
    /// frame: 1800 and 900 px/s), the angle jittering by up to 180 degrees a step; no home.
    pub const SEED_003: Self = Self {
        circle_distance: 30.0 * 60.0,
        circle_radius: 15.0 * 60.0,
        angle_change: std::f32::consts::PI,
        home: None,
    };
}

impl Default for WanderParams {
    /// [`WanderParams::SEED_003`].
    fn default() -> Self {
        Self::SEED_003
    }
}

/// The wanderer's own state: where its point on the circle is, as an angle in radians (2D),
/// or on the sphere, as a unit direction (3D; zero starts it straight ahead).
#[cfg(not(flock_3d))]
pub type WanderState = f32;
/// The wanderer's own state: where its point on the circle is, as an angle in radians (2D),
/// or on the sphere, as a unit direction (3D; zero starts it straight ahead).
#[cfg(flock_3d)]
pub type WanderState = Vector;

/// One step's random jitter of the wander point: a number in `[-0.5, 0.5]` (2D), or a vector
/// with each component in `[-0.5, 0.5]` (3D). See [`wander_jitter`].
#[cfg(not(flock_3d))]
pub type WanderJitter = f32;
/// One step's random jitter of the wander point: a number in `[-0.5, 0.5]` (2D), or a vector
/// with each component in `[-0.5, 0.5]` (3D). See [`wander_jitter`].
#[cfg(flock_3d)]
pub type WanderJitter = Vector;

/// Draws one step's [`WanderJitter`] from the caller's seeded generator.
pub fn wander_jitter(rng: &mut impl rand::Rng) -> WanderJitter {
    use rand::RngExt;
    #[cfg(not(flock_3d))]
    return rng.random_range(-0.5..=0.5);
    #[cfg(flock_3d)]
    return Vector::new(
        rng.random_range(-0.5..=0.5),
        rng.random_range(-0.5..=0.5),
        rng.random_range(-0.5..=0.5),
    );
}

/// One step of seed 003's wander. `state` is the wanderer's own: in 2D the angle of its point
/// on the circle (radians, measured from +x in world space, as the seed's `changeAngle` does),
/// moved by `jitter * angle_change` after it is used; in 3D its point on a sphere, turned
/// towards the jitter's direction across the sphere by at most `angle_change / 2`. The caller
/// draws the jitter from its seeded generator ([`wander_jitter`]). The force is
/// `(circle centre - displacement) / response_time`, plus, outside the home radius,
/// `(towards home * pull_back_speed - velocity) / response_time`.
pub fn wander(
    vehicle: &Vehicle,
    state: &mut WanderState,
    params: &WanderParams,
    jitter: WanderJitter,
) -> Vector {
    // At rest the seed's `getNormalized` gives zero: the circle sits on the vehicle.
    let heading = vehicle.heading();
    let circle_centre = heading * params.circle_distance;
    let displacement = wander_point(state, heading) * params.circle_radius;
    move_wander_point(state, jitter, params.angle_change);
    let mut force = (circle_centre - displacement) / vehicle.response_time;
    if let Some(home) = params.home {
        let to_home = home.centre - vehicle.position;
        if to_home.length_squared() > home.radius * home.radius {
            force += vehicle.steer_to(to_home.normalize_or_zero() * home.pull_back_speed);
        }
    }
    force
}

/// The unit direction of the wander point from the circle's (sphere's) centre.
#[cfg(not(flock_3d))]
fn wander_point(angle: &mut f32, _heading: Vector) -> Vector {
    Vector::from_angle(*angle)
}

/// The unit direction of the wander point from the circle's (sphere's) centre.
#[cfg(flock_3d)]
fn wander_point(direction: &mut Vector, heading: Vector) -> Vector {
    // A new wanderer (or a state other code broke) starts with its point straight ahead.
    *direction = direction.try_normalize().unwrap_or(heading);
    *direction
}

#[cfg(not(flock_3d))]
fn move_wander_point(angle: &mut f32, jitter: f32, angle_change: f32) {
    *angle = (*angle + jitter * angle_change).rem_euclid(std::f32::consts::TAU);
}

#[cfg(flock_3d)]
fn move_wander_point(direction: &mut Vector, jitter: Vector, angle_change: f32) {
    // The jitter's part across the sphere at the point gives the way to turn; its length, up
    // to one half (the 2D jitter's most), the share of `angle_change` to turn by.
    let across = jitter - *direction * jitter.dot(*direction);
    let Some(way) = across.try_normalize() else {
        return;
    };
    let angle = across.length().min(0.5) * angle_change;
    let turned = *direction * angle.cos() + way * angle.sin();
    if let Some(turned) = turned.try_normalize() {
        *direction = turned;
    }
}

/// Seed 003's wall avoidance: look `look_ahead` along the heading; for every wall that point is
/// beyond (or on), a push straight inwards at `speed` per frame, summed (a corner pushes along
/// the diagonal, `sqrt 2` times as hard). The result is a velocity change over the response
/// time, `inwards * speed / response_time`; seed 003 adds it to the velocity after truncating
/// its other steering (`_velocity += wallAvoid()`, with `_dtSpeed` as the speed). Zero when the
/// point is inside.
pub fn avoid_walls(vehicle: &Vehicle, bounds: &Bounds, look_ahead: f32, speed: f32) -> Vector {
    let probe = vehicle.position + vehicle.heading() * look_ahead;
    let mut inwards = Vector::ZERO;
    for axis in 0..DIMENSIONS {
        inwards[axis] = inward_component(probe[axis], bounds.min[axis], bounds.max[axis]);
    }
    inwards * speed / vehicle.response_time
}

/// +1 below the low wall, -1 above the high wall, 0 between (both walls count, as seed 003's
/// `>=` and `<=` do).
fn inward_component(value: f32, low: f32, high: f32) -> f32 {
    f32::from(u8::from(value <= low)) - f32::from(u8::from(value >= high))
}

/// An obstacle's outline: a circle or a rectangle aligned with the axes in 2D; a sphere or a
/// box aligned with the axes in 3D. The variants are named for their dimension, as Bevy's
/// primitives are; the code below reads them as `Round` and `Aligned` in both.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// A round obstacle.
    #[cfg(not(flock_3d))]
    Circle {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A rectangular obstacle.
    #[cfg(not(flock_3d))]
    Rect {
        /// Its centre.
        centre: Vector,
        /// Half its width and half its height.
        half_size: Vector,
    },
    /// A round obstacle.
    #[cfg(flock_3d)]
    Sphere {
        /// Its centre.
        centre: Vector,
        /// Its radius.
        radius: f32,
    },
    /// A box-shaped obstacle.
    #[cfg(flock_3d)]
    Cuboid {
        /// Its centre.
        centre: Vector,
        /// Half its width, height and depth.
        half_size: Vector,
    },
}

#[cfg(not(flock_3d))]
use Shape::{Circle as Round, Rect as Aligned};
#[cfg(flock_3d)]
use Shape::{Cuboid as Aligned, Sphere as Round};

impl Shape {
    fn centre(&self) -> Vector {
        match *self {
            Round { centre, .. } | Aligned { centre, .. } => centre,
        }
    }

    /// How far along `heading` from `position` the path first meets this shape grown by
    /// `clearance` (zero if it starts inside the grown shape), or `None` if it never does.
    fn path_entry(&self, position: Vector, heading: Vector, clearance: f32) -> Option<f32> {
        match *self {
            Round { centre, radius } => {
                let offset = centre - position;
                let reach = radius + clearance;
                let lateral = cross_length(offset, heading);
                let half_chord_squared = reach * reach - lateral * lateral;
                (half_chord_squared > 0.0)
                    .then(|| (offset.dot(heading) - half_chord_squared.sqrt()).max(0.0))
            }
            Aligned { centre, half_size } => {
                // The slab method: the ray is inside the box between the last entry and the
                // first exit over both axes.
                let grown = half_size + Vector::splat(clearance);
                let (low, high) = (centre - grown - position, centre + grown - position);
                let mut entry = f32::NEG_INFINITY;
                let mut exit = f32::INFINITY;
                for axis in 0..DIMENSIONS {
                    if heading[axis] == 0.0 {
                        if low[axis] > 0.0 || high[axis] < 0.0 {
                            return None;
                        }
                        continue;
                    }
                    let (a, b) = (low[axis] / heading[axis], high[axis] / heading[axis]);
                    entry = entry.max(a.min(b));
                    exit = exit.min(a.max(b));
                }
                (exit >= entry.max(0.0)).then(|| entry.max(0.0))
            }
        }
    }

    /// The direction out of this shape for a point inside it, or `None` for a point outside.
    fn way_out(&self, point: Vector) -> Option<Vector> {
        match *self {
            Round { centre, radius } => {
                let out = point - centre;
                (out.length_squared() < radius * radius).then(|| out.normalize_or(Vector::X))
            }
            Aligned { centre, half_size } => {
                let out = point - centre;
                let depth = half_size - out.abs();
                // Out through the nearest side (the last axis of a tie).
                depth.cmpgt(Vector::ZERO).all().then(|| {
                    let nearest = (1..DIMENSIONS).fold(0, |best, axis| {
                        if depth[axis] <= depth[best] {
                            axis
                        } else {
                            best
                        }
                    });
                    let mut way = Vector::ZERO;
                    way[nearest] = out[nearest].signum();
                    way
                })
            }
        }
    }
}

/// Reynolds' obstacle avoidance: of the obstacles ahead that the vehicle's path (a corridor
/// `clearance` wide on each side) meets within `look_ahead`, the nearest pushes the vehicle
/// sideways, away from its centre and harder the closer it is; an obstacle the vehicle is
/// already inside pushes it straight out.
pub fn avoid_obstacles(
    vehicle: &Vehicle,
    obstacles: impl IntoIterator<Item = Shape>,
    look_ahead: f32,
    clearance: f32,
) -> Vector {
    let heading = vehicle.heading();
    let mut nearest: Option<(f32, Vector)> = None;
    for obstacle in obstacles {
        if let Some(out) = obstacle.way_out(vehicle.position) {
            // Inside: out, as urgent as it gets.
            return vehicle.steer_to(out * vehicle.max_speed);
        }
        let offset = obstacle.centre() - vehicle.position;
        if heading == Vector::ZERO || offset.dot(heading) <= 0.0 {
            continue;
        }
        let Some(entry) = obstacle.path_entry(vehicle.position, heading, clearance) else {
            continue;
        };
        if entry <= look_ahead && nearest.is_none_or(|(distance, _)| entry < distance) {
            let push = sideways_away(heading, offset);
            nearest = Some((entry, push * (1.0 - entry / look_ahead)));
        }
    }
    match nearest {
        // Sideways only: dodging does not brake the vehicle.
        Some((_, push)) => push * vehicle.max_speed / vehicle.response_time,
        None => Vector::ZERO,
    }
}

/// Seed 003's combination: the weighted forces' sum, truncated to `max_force`, divided by
/// `mass`. The result is an acceleration.
pub fn combine(force_sum: Vector, max_force: f32, mass: f32) -> Vector {
    limit_force(force_sum, max_force, ForceLimit::Truncate) / mass
}

/// For vehicles that cannot turn on the spot: from the velocity before a
/// step to the one integration wants, with the heading turned by at most `max_turn_rate *
/// dt` radians and the speed changed by at most `max_acceleration * dt`. A vehicle at rest
/// may start off in any direction.
///
/// Never panics, and the result is always finite: a `previous` velocity that is not finite
/// (written by other code) counts as rest, a `wanted` one that is not finite as a wish to stop,
/// and a limit that is NaN or negative allows no change.
pub fn limit_turn(
    previous: Vector,
    wanted: Vector,
    max_turn_rate: f32,
    max_acceleration: f32,
    dt: f32,
) -> Vector {
    let finite_or_zero = |v: Vector| if v.is_finite() { v } else { Vector::ZERO };
    let (previous, wanted) = (finite_or_zero(previous), finite_or_zero(wanted));
    let previous_speed = previous.length();
    // `max` drops NaN: no bound below zero or NaN reaches the comparisons (`f32::clamp` would
    // panic on a NaN bound).
    let max_change = (max_acceleration * dt).max(0.0);
    let max_turn = (max_turn_rate * dt).max(0.0);
    let speed = wanted
        .length()
        .min(previous_speed + max_change)
        .max(previous_speed - max_change)
        .max(0.0);
    let velocity = match (wanted.try_normalize(), previous.try_normalize()) {
        // No direction wanted: keep the heading, change only the speed.
        (None, _) => previous.normalize_or_zero() * speed,
        (Some(wanted_heading), None) => wanted_heading * speed,
        (Some(wanted_heading), Some(previous_heading)) => {
            turn_towards(previous_heading, wanted_heading, max_turn) * speed
        }
    };
    // A speed beyond f32 (a finite velocity whose length overflows) is the only way left to
    // a non-finite result.
    finite_or_zero(velocity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{planar, world_size};

    fn vehicle(position: Vector, velocity: Vector) -> Vehicle {
        Vehicle {
            position,
            velocity,
            max_speed: 2.0,
            response_time: 0.5,
        }
    }

    #[test]
    fn seek_steers_to_full_speed_towards_the_target() {
        let v = vehicle(Vector::ZERO, planar(0.0, 1.0));
        // desired (2, 0), minus velocity (0, 1), over 0.5 s.
        assert_eq!(seek(&v, planar(10.0, 0.0)), planar(4.0, -2.0));
    }

    #[test]
    fn arrive_slows_in_proportion_inside_the_slow_radius() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        // 1 unit away, slow radius 4: a quarter of max speed.
        assert_eq!(arrive(&v, planar(1.0, 0.0), 4.0), planar(1.0, 0.0));
        assert_eq!(arrive(&v, planar(8.0, 0.0), 4.0), planar(4.0, 0.0));
        // At the target it brakes.
        let moving = vehicle(Vector::ZERO, planar(1.0, 0.0));
        assert_eq!(arrive(&moving, Vector::ZERO, 4.0), planar(-2.0, 0.0));
    }

    #[test]
    fn flee_acts_only_inside_its_radius() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        assert_eq!(flee(&v, planar(1.0, 0.0), 2.0), planar(-4.0, 0.0));
        assert_eq!(flee(&v, planar(3.0, 0.0), 2.0), Vector::ZERO);
        assert_eq!(flee(&v, Vector::ZERO, 2.0), Vector::ZERO);
        let two = flee_all(&v, [planar(1.0, 0.0), planar(0.0, 1.0)], 2.0);
        assert_eq!(two, planar(-4.0, -4.0));
    }

    #[test]
    fn prediction_is_capped() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        // 10 units at speed 2 is 5 s, capped at 1 s.
        let predicted = predict(&v, planar(10.0, 0.0), planar(0.0, 3.0), 1.0);
        assert_eq!(predicted, planar(10.0, 3.0));
        let uncapped = predict(&v, planar(10.0, 0.0), planar(0.0, 3.0), 100.0);
        assert_eq!(uncapped, planar(10.0, 15.0));
    }

    #[test]
    fn evade_flees_the_predicted_position() {
        let v = vehicle(Vector::ZERO, Vector::ZERO);
        // The threat at (2, 0) moving up at 2: predicted at (2, 2) after 1 s.
        let force = evade(&v, planar(2.0, 0.0), planar(0.0, 2.0), 10.0, 5.0);
        let expected = planar(-1.0, -1.0).normalize() * 2.0 / 0.5;
        assert!((force - expected).length() < 1e-5);
        assert_eq!(
            evade(&v, planar(9.0, 0.0), Vector::ZERO, 10.0, 5.0),
            Vector::ZERO
        );
    }

    /// The 2D state is an angle; `tests/steering.rs` of flock_core3d checks the sphere.
    #[cfg(not(flock_3d))]
    #[test]
    fn wander_moves_its_angle_by_the_jitter() {
        let v = vehicle(Vector::ZERO, planar(1.0, 0.0));
        let params = WanderParams {
            circle_distance: 30.0,
            circle_radius: 15.0,
            angle_change: std::f32::consts::PI,
            home: None,
        };
        let mut angle = 0.0;
        let force = wander(&v, &mut angle, &params, 0.5);
        assert!((angle - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        // Circle centre (30, 0) minus the displacement at angle 0, (15, 0), over 0.5 s.
        assert!((force - planar(30.0, 0.0)).length() < 1e-5);
        // Now the angle is a quarter turn: (30, 0) - (0, 15).
        let force = wander(&v, &mut angle, &params, 0.0);
        assert!((force - planar(60.0, -30.0)).length() < 1e-4, "{force}");
    }

    #[test]
    fn wander_is_pulled_home_only_outside_the_home_radius() {
        let params = |centre| WanderParams {
            circle_distance: 0.0,
            circle_radius: 0.0,
            angle_change: 0.0,
            home: Some(WanderHome {
                centre,
                radius: 5.0,
                pull_back_speed: 50.0,
            }),
        };
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let (mut a, mut b) = (WanderState::default(), WanderState::default());
        let still = WanderJitter::default();
        let inside = wander(&v, &mut a, &params(planar(-1.0, 0.0)), still);
        assert_eq!(inside, Vector::ZERO);
        let outside = wander(&v, &mut b, &params(planar(-10.0, 0.0)), still);
        // Pull back: desired (-50, 0) minus velocity (2, 0), over 0.5 s.
        assert!((outside - planar(-104.0, 0.0)).length() < 1e-4);
    }

    #[test]
    fn walls_push_inwards_when_the_probe_is_out() {
        let bounds = Bounds::centered(world_size(10.0, 10.0));
        let v = vehicle(planar(4.0, 0.0), planar(2.0, 0.0));
        assert_eq!(avoid_walls(&v, &bounds, 0.5, 3.0), Vector::ZERO);
        // Probe at (6, 0): 3 per frame inwards, over 0.5 s; the velocity is not subtracted.
        assert_eq!(avoid_walls(&v, &bounds, 2.0, 3.0), planar(-6.0, 0.0));
        // A corner pushes along the diagonal, one unit per wall.
        let corner = vehicle(planar(4.0, 4.0), planar(1.0, 1.0));
        assert_eq!(avoid_walls(&corner, &bounds, 3.0, 1.0), planar(-2.0, -2.0));
    }

    #[test]
    fn obstacles_push_sideways_only_when_in_the_path() {
        let v = vehicle(Vector::ZERO, planar(2.0, 0.0));
        let circle = |x, y| Round {
            centre: planar(x, y),
            radius: 1.0,
        };
        let force = avoid_obstacles(&v, [circle(5.0, 0.5)], 10.0, 0.2);
        assert!(force.x == 0.0 && force.y < 0.0, "{force}");
        // Behind, beside the path, beyond the look-ahead: no force.
        let missed = [circle(-5.0, 0.0), circle(5.0, 3.0), circle(20.0, 0.0)];
        assert_eq!(avoid_obstacles(&v, missed, 10.0, 0.2), Vector::ZERO);
        let out = avoid_obstacles(&v, [circle(0.5, 0.0)], 10.0, 0.2);
        assert!(out.x < 0.0, "{out}");

        let wall = |y| Aligned {
            centre: planar(6.0, y),
            // In 3D as deep as it is high.
            half_size: world_size(1.0, 3.0),
        };
        // Its lower part is in the path, its centre above: pushed down.
        let force = avoid_obstacles(&v, [wall(2.5)], 10.0, 0.2);
        assert!(force.x == 0.0 && force.y < 0.0, "{force}");
        assert_eq!(avoid_obstacles(&v, [wall(3.5)], 10.0, 0.2), Vector::ZERO);
        // The nearer of two pushes; a nearer one pushes harder.
        let near = avoid_obstacles(&v, [wall(2.5), circle(3.0, -0.5)], 10.0, 0.2);
        assert!(near.y > 0.0, "{near}");
        let far = avoid_obstacles(&v, [circle(8.0, -0.5)], 10.0, 0.2);
        assert!(near.length() > far.length());
        // Inside a rectangle: out through the nearest side.
        let inside = vehicle(planar(6.0, 2.0), planar(2.0, 0.0));
        let out = avoid_obstacles(&inside, [wall(0.0)], 10.0, 0.2);
        assert!(out.y > 0.0, "{out}");
    }

    #[test]
    fn combine_truncates_then_divides_by_mass() {
        assert_eq!(combine(planar(30.0, 40.0), 10.0, 2.0), planar(3.0, 4.0));
        assert_eq!(combine(planar(3.0, 4.0), 10.0, 2.0), planar(1.5, 2.0));
    }

    #[test]
    fn turns_and_speed_changes_are_limited() {
        let dt = 0.1;
        // Wanting to turn 90 degrees at 1 rad/s: 0.1 rad this step.
        let v = limit_turn(planar(1.0, 0.0), planar(0.0, 1.0), 1.0, 100.0, dt);
        let turned = crate::math::cross_length(v, Vector::X)
            .abs()
            .atan2(v.dot(Vector::X));
        assert!((turned - 0.1).abs() < 1e-6);
        assert!((v.length() - 1.0).abs() < 1e-6);
        // Speed from 1 to 5 at 2 per second: 1.2.
        let faster = limit_turn(planar(1.0, 0.0), planar(5.0, 0.0), 1.0, 2.0, dt);
        assert!((faster - planar(1.2, 0.0)).length() < 1e-6);
        // From rest any heading; to rest keeps the heading.
        let start = limit_turn(Vector::ZERO, planar(0.0, -1.0), 1.0, 100.0, dt);
        assert_eq!(start, planar(0.0, -1.0));
        let stop = limit_turn(planar(1.0, 0.0), Vector::ZERO, 1.0, 5.0, dt);
        assert!((stop - planar(0.5, 0.0)).length() < 1e-6);
    }
}
