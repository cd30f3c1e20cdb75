//! Unaligned collision avoidance (Reynolds, "Steering Behaviors For Autonomous Characters",
//! 1999): predict when each nearby vehicle will pass closest, and dodge the soonest pass that
//! would be a collision.
//!
//! The neighbours come from the caller, as candidates from the flock's neighbour index (see
//! [`CollisionParams::query_radius`] for how far to ask), not from every pair.

use super::Vehicle;
use crate::math::{Vector, sideways_away};

/// How unaligned collision avoidance looks ahead.
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollisionParams {
    /// Two vehicles whose centres pass closer than this collide (twice a body's radius for
    /// bodies of one size), world units.
    pub min_distance: f32,
    /// How far ahead to predict, seconds: passes later than this are ignored.
    pub horizon: f32,
}

impl CollisionParams {
    /// Whether both numbers are finite and positive; invalid parameters steer nobody.
    pub fn is_valid(&self) -> bool {
        [self.min_distance, self.horizon]
            .iter()
            .all(|value| value.is_finite() && *value > 0.0)
    }

    /// How far from a vehicle moving at `speed` a neighbour moving at most at `others_speed`
    /// can be and still collide with it within the horizon: the radius to ask the index for.
    /// Two vehicles close in at most at the sum of their speeds.
    pub fn query_radius(&self, speed: f32, others_speed: f32) -> f32 {
        (speed + others_speed) * self.horizon + self.min_distance
    }
}

/// A predicted collision: when, and where both vehicles will be then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    /// Seconds from now to the closest approach (zero for vehicles already too close).
    pub time: f32,
    /// The vehicle's position then.
    pub position: Vector,
    /// The other vehicle's position then.
    pub other_position: Vector,
    /// The other vehicle's position now.
    pub other_now: Vector,
}

/// The time (not before now) at which two bodies moving in straight lines are closest, and
/// their distance then: `offset` is the other's position minus this one's, `relative_velocity`
/// the other's velocity minus this one's.
pub fn closest_approach(offset: Vector, relative_velocity: Vector) -> (f32, f32) {
    let speed_squared = relative_velocity.length_squared();
    let time = if speed_squared > 0.0 {
        (-offset.dot(relative_velocity) / speed_squared).max(0.0)
    } else {
        0.0
    };
    (time, (offset + relative_velocity * time).length())
}

/// Of `others` (their positions and velocities; the vehicle itself must not be among them),
/// the soonest one to pass within `params.min_distance` of the vehicle within
/// `params.horizon` seconds, or `None`. A neighbour with a position or velocity that is not
/// finite is never a collision.
pub fn nearest_collision(
    vehicle: &Vehicle,
    others: impl IntoIterator<Item = (Vector, Vector)>,
    params: &CollisionParams,
) -> Option<Encounter> {
    if !params.is_valid() {
        return None;
    }
    let mut nearest: Option<Encounter> = None;
    for (other_position, other_velocity) in others {
        let offset = other_position - vehicle.position;
        let (time, distance) = closest_approach(offset, other_velocity - vehicle.velocity);
        // NaN fails every comparison, so a broken neighbour is skipped here.
        let collides = distance < params.min_distance && time <= params.horizon;
        if collides && nearest.is_none_or(|soonest| time < soonest.time) {
            nearest = Some(Encounter {
                time,
                position: vehicle.position + vehicle.velocity * time,
                other_position: other_position + other_velocity * time,
                other_now: other_position,
            });
        }
    }
    nearest
}

/// Reynolds' unaligned collision avoidance: dodge the soonest predicted collision (see
/// [`nearest_collision`]) sideways, away from where the other will be, and brake if the other
/// will be ahead then (speed up if behind), harder the sooner the collision. The force is at
/// most `max_speed` per response time, the same scale as obstacle avoidance.
pub fn avoid_collisions(
    vehicle: &Vehicle,
    others: impl IntoIterator<Item = (Vector, Vector)>,
    params: &CollisionParams,
) -> Vector {
    let Some(encounter) = nearest_collision(vehicle, others, params) else {
        return Vector::ZERO;
    };
    let urgency = 1.0 - encounter.time / params.horizon;
    let heading = vehicle.heading();
    let away_now = vehicle.position - encounter.other_now;
    let away = encounter.position - encounter.other_position;
    // A dead-centre hit has no direction at the collision itself: use today's.
    let away = if away.length_squared() > 1e-6 * params.min_distance * params.min_distance {
        away
    } else {
        away_now
    };
    if heading == Vector::ZERO {
        // At rest there is no side: step straight away (or anywhere, for a perfect overlap).
        let away = away.try_normalize().unwrap_or(Vector::X);
        return away * urgency * vehicle.max_speed / vehicle.response_time;
    }
    let lateral = away - heading * away.dot(heading);
    let sideways = lateral
        .try_normalize()
        // Head on: both pick the side `sideways_away` gives, which is the same hand for
        // both, so they pass each other instead of dodging into each other.
        .unwrap_or_else(|| sideways_away(heading, -away_now));
    // Half as strong along the heading: mostly a dodge, partly a change of pace.
    let pace = heading * 0.5 * away.dot(heading).signum();
    let push = (sideways + pace).normalize_or_zero();
    push * urgency * vehicle.max_speed / vehicle.response_time
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{BruteForce, Grid, KdTree, NeighbourIndex};
    use crate::math::{DIMENSIONS, planar};
    use crate::parallel::Serial;
    use crate::steering::test_support::vehicle;
    use rand::{RngExt, SeedableRng};

    const PARAMS: CollisionParams = CollisionParams {
        min_distance: 1.0,
        horizon: 3.0,
    };

    #[test]
    fn closest_approach_of_crossing_paths() {
        // The other comes from (4, -4) upwards at 1/s while this one goes right at 1/s: they
        // meet at (4, 0) after 4 s.
        let (time, distance) = closest_approach(planar(4.0, -4.0), planar(-1.0, 1.0));
        assert!(
            (time - 4.0).abs() < 1e-5 && distance < 1e-5,
            "{time} {distance}"
        );
        // Moving apart: closest now.
        assert_eq!(
            closest_approach(planar(2.0, 0.0), planar(1.0, 0.0)),
            (0.0, 2.0)
        );
        // Same velocity: the distance never changes.
        assert_eq!(closest_approach(planar(0.0, 3.0), Vector::ZERO), (0.0, 3.0));
    }

    #[test]
    fn dodges_a_head_on_collision_sideways_and_brakes() {
        let me = vehicle(Vector::ZERO, planar(1.0, 0.0));
        let other = (planar(4.0, 0.0), planar(-1.0, 0.0));
        let force = avoid_collisions(&me, [other], &PARAMS);
        let sideways = |force: Vector| force - planar(force.x, 0.0);
        assert!(sideways(force).length() > 0.0, "dodges sideways: {force}");
        assert!(force.x < 0.0, "brakes: {force}");
        // The other dodges to the opposite side (the same hand of its own heading), so they
        // pass each other.
        let them = vehicle(other.0, other.1);
        let theirs = avoid_collisions(&them, [(me.position, me.velocity)], &PARAMS);
        assert!(
            sideways(theirs).dot(sideways(force)) < 0.0,
            "{force} {theirs}"
        );
    }

    #[test]
    fn ignores_misses_late_passes_and_broken_neighbours() {
        let me = vehicle(Vector::ZERO, planar(1.0, 0.0));
        // Passes 2 units away: no collision.
        let wide = (planar(4.0, 2.0), planar(-1.0, 0.0));
        // Would collide in 5 s, beyond the 3 s horizon.
        let late = (planar(10.0, 0.0), planar(-1.0, 0.0));
        let nan = (planar(f32::NAN, 0.0), planar(-1.0, 0.0));
        let infinite = (planar(2.0, 0.0), planar(f32::INFINITY, 0.0));
        let others = [wide, late, nan, infinite];
        assert_eq!(avoid_collisions(&me, others, &PARAMS), Vector::ZERO);
        // Invalid parameters steer nobody.
        let head_on = [(planar(2.0, 0.0), planar(-1.0, 0.0))];
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let params = CollisionParams {
                horizon: bad,
                ..PARAMS
            };
            assert_eq!(avoid_collisions(&me, head_on, &params), Vector::ZERO);
        }
    }

    #[test]
    fn the_soonest_collision_wins_and_sooner_pushes_harder() {
        let me = vehicle(Vector::ZERO, planar(1.0, 0.0));
        // From above at t = 2, and from below at t = 1.
        let above = (planar(2.0, 2.0), planar(0.0, -1.0));
        let below = (planar(1.0, -1.0), planar(0.0, 1.0));
        let encounter = nearest_collision(&me, [above, below], &PARAMS).unwrap();
        assert!((encounter.time - 1.0).abs() < 1e-5, "{encounter:?}");
        assert_eq!(encounter.other_now, below.0);
        let soon = avoid_collisions(&me, [below], &PARAMS);
        let later = avoid_collisions(&me, [above], &PARAMS);
        assert!(soon.length() > later.length(), "{soon} {later}");
        assert!(
            soon.y > 0.0 && later.y < 0.0,
            "away from each: {soon} {later}"
        );
    }

    #[test]
    fn at_rest_or_overlapping_steps_away_without_nan() {
        let me = vehicle(Vector::ZERO, Vector::ZERO);
        let force = avoid_collisions(&me, [(planar(0.5, 0.0), Vector::ZERO)], &PARAMS);
        assert!(force.x < 0.0, "{force}");
        let same_spot = avoid_collisions(&me, [(Vector::ZERO, Vector::ZERO)], &PARAMS);
        assert!(same_spot.is_finite() && same_spot != Vector::ZERO);
    }

    /// The index's candidates within [`CollisionParams::query_radius`] give the same force as
    /// every other boid: the index loses no collision.
    #[test]
    fn index_candidates_match_the_brute_force_reference() {
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(14);
        let speed = 2.0;
        let count = 400;
        let positions: Vec<Vector> = (0..count)
            .map(|_| crate::math::random_point(&world(), &mut rng))
            .collect();
        let velocities: Vec<Vector> = (0..count)
            .map(|_| crate::math::random_direction(&mut rng) * rng.random_range(0.0..=speed))
            .collect();
        let space = crate::Space::of(&crate::FlockConfig {
            bounds: world(),
            edges: crate::EdgeMode::Free,
            ..crate::FlockConfig::default()
        });
        let mut grid = Grid::default();
        grid.rebuild(&positions, &space, 1.0, &Serial);
        let mut tree = KdTree::default();
        tree.rebuild(&positions, &space, 1.0, &Serial);
        let mut brute = BruteForce::default();
        brute.rebuild(&positions, &space, 1.0, &Serial);
        let mut candidates = Vec::new();
        let mut dodging = 0;
        for boid in 0..count {
            let me = Vehicle {
                max_speed: speed,
                ..vehicle(positions[boid], velocities[boid])
            };
            let all = (0..count)
                .filter(|&other| other != boid)
                .map(|other| (positions[other], velocities[other]));
            let reference = avoid_collisions(&me, all, &PARAMS);
            dodging += usize::from(reference != Vector::ZERO);
            let radius = PARAMS.query_radius(me.velocity.length(), speed);
            for index in [&grid as &dyn Candidates, &tree, &brute] {
                index.candidates_of(me.position, radius, &mut candidates);
                let near = candidates
                    .iter()
                    .map(|&other| other as usize)
                    .filter(|&other| other != boid)
                    .map(|other| (positions[other], velocities[other]));
                assert_eq!(
                    avoid_collisions(&me, near, &PARAMS),
                    reference,
                    "boid {boid}"
                );
            }
        }
        assert!(dodging > count / 10, "the scene tests something: {dodging}");
    }

    fn world() -> crate::Bounds {
        crate::Bounds {
            min: Vector::splat(0.0),
            // As crowded in 3D as in 2D.
            max: Vector::splat(if DIMENSIONS == 2 { 40.0 } else { 12.0 }),
        }
    }

    /// `NeighbourIndex` is not object safe (its rebuild is generic); this is its query alone.
    trait Candidates {
        fn candidates_of(&self, point: Vector, radius: f32, out: &mut Vec<u32>);
    }

    impl<T: NeighbourIndex> Candidates for T {
        fn candidates_of(&self, point: Vector, radius: f32, out: &mut Vec<u32>) {
            self.candidates(point, radius, out);
        }
    }
}
