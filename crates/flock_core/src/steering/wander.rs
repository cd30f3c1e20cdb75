//! Wander: a point jittering on a circle (2D) or sphere (3D) ahead of the vehicle.

use super::Vehicle;
use crate::math::Vector;

/// The cocos2d-x crowd demo's wander: a circle `circle_distance` ahead of the vehicle, a point on
/// it at a wandering angle that jitters each step, and an optional home it is pulled back to.
///
/// The demo adds the vector `circle centre - displacement` to its steering sum as it is, a
/// velocity change per frame like its other steering; here the circle's distance and radius are
/// therefore speeds (world units per second), and the force is that vector over the response
/// time, as every steering force is. The demo's 30 and 15 per frame are 1800 and 900 px/s.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WanderParams {
    /// How far ahead of the vehicle the circle's centre is, as a speed.
    pub circle_distance: f32,
    /// The circle's radius, as a speed: larger turns more.
    pub circle_radius: f32,
    /// The most the angle changes in one step, radians (the jitter is uniform in plus or
    /// minus half of it; the crowd demo uses 180 degrees).
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
    /// pull is Reynolds' `desired - velocity` (the crowd demo's `_wanderPullBackSteering`, 50 per
    /// frame: 3000 px/s, far above the wanderer's top speed, so the pull wins).
    pub pull_back_speed: f32,
}

impl WanderParams {
    /// The cocos2d-x crowd demo's wanderer in pixels and seconds at 60 fps: circle 30 ahead and
    /// radius 15 (per frame: 1800 and 900 px/s), the angle jittering by up to 180 degrees a step;
    /// no home.
    pub const COCOS2D_DEMO: Self = Self {
        circle_distance: 30.0 * 60.0,
        circle_radius: 15.0 * 60.0,
        angle_change: std::f32::consts::PI,
        home: None,
    };

    /// [`WanderParams::COCOS2D_DEMO`], under the name of its source document's file.
    #[deprecated(note = "named after its source: use `WanderParams::COCOS2D_DEMO`")]
    pub const SEED_003: Self = Self::COCOS2D_DEMO;
}

impl Default for WanderParams {
    /// [`WanderParams::COCOS2D_DEMO`].
    fn default() -> Self {
        Self::COCOS2D_DEMO
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

/// One step of the cocos2d-x crowd demo's wander. `state` is the wanderer's own: in 2D the angle of
/// its point on the circle (radians, measured from +x in world space, as the demo's `changeAngle`
/// does), moved by `jitter * angle_change` after it is used; in 3D its point on a sphere, turned
/// towards the jitter's direction across the sphere by at most `angle_change / 2`. The caller draws
/// the jitter from its seeded generator ([`wander_jitter`]). The force is
/// `(circle centre - displacement) / response_time`, plus, outside the home radius,
/// `(towards home * pull_back_speed - velocity) / response_time`.
pub fn wander(
    vehicle: &Vehicle,
    state: &mut WanderState,
    params: &WanderParams,
    jitter: WanderJitter,
) -> Vector {
    // At rest the demo's `getNormalized` gives zero: the circle sits on the vehicle.
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
    crate::math::from_angle(*angle)
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
    let turned = *direction * crate::math::cos(angle) + way * crate::math::sin(angle);
    if let Some(turned) = turned.try_normalize() {
        *direction = turned;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::test_support::vehicle;

    #[test]
    #[allow(deprecated)]
    fn the_old_name_is_the_crowd_demo_wanderer() {
        assert_eq!(WanderParams::SEED_003, WanderParams::COCOS2D_DEMO);
        assert_eq!(WanderParams::default(), WanderParams::COCOS2D_DEMO);
    }

    /// The 2D state is an angle; flock_core3d's `tests/steering_3d.rs` checks the sphere.
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
}
