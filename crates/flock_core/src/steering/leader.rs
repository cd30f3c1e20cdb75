//! Leader following (Reynolds 1999): followers arrive at a point behind the leader, step out
//! of its way when they find themselves in front of it, and keep apart from each other.

use super::{Vehicle, arrive, flee};
use crate::math::{Vector, sideways_away};

/// How followers follow a leader.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeaderFollowParams {
    /// How far behind the leader the point they arrive at is.
    pub behind: f32,
    /// The distance from that point at which they start to slow down.
    pub slow_radius: f32,
    /// The length of the leader's way: the stretch ahead of it that followers leave.
    pub way_length: f32,
    /// Half the width of the leader's way.
    pub way_radius: f32,
    /// Followers closer than this to each other push apart.
    pub separation: f32,
}

impl Default for LeaderFollowParams {
    fn default() -> Self {
        Self {
            behind: 40.0,
            slow_radius: 60.0,
            way_length: 80.0,
            way_radius: 25.0,
            separation: 25.0,
        }
    }
}

/// Where a leader is and which way it faces (unit, or zero when it has no heading).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leader {
    /// Its position.
    pub position: Vector,
    /// Its heading: its velocity's direction, or the way it faces at rest.
    pub heading: Vector,
}

/// Whether `point` is in the leader's way: ahead of it by less than `way_length`, and within
/// `way_radius` of the line it heads along.
pub fn in_leader_way(leader: &Leader, point: Vector, params: &LeaderFollowParams) -> bool {
    let offset = point - leader.position;
    let ahead = offset.dot(leader.heading);
    let across = (offset - leader.heading * ahead).length();
    ahead > 0.0 && ahead < params.way_length && across < params.way_radius
}

/// The leader-following force: arrive at the point `behind` the leader; while in its way, also
/// flee the nearest point of the line it heads along (sideways out of it: the same side the
/// follower is on, or the leader's right when it is dead ahead); and flee, averaged, every mate
/// nearer than `separation`. A vehicle, leader or parameters that are not finite give no force.
pub fn follow_leader(
    vehicle: &Vehicle,
    leader: &Leader,
    mates: impl IntoIterator<Item = Vector>,
    params: &LeaderFollowParams,
) -> Vector {
    let finite = [
        vehicle.position,
        vehicle.velocity,
        leader.position,
        leader.heading,
    ]
    .iter()
    .all(|v| v.is_finite())
        && [params.behind, params.slow_radius, params.separation]
            .iter()
            .all(|value| value.is_finite());
    if !finite {
        return Vector::ZERO;
    }
    let heading = leader.heading.normalize_or_zero();
    let leader = Leader { heading, ..*leader };
    let behind = leader.position - heading * params.behind;
    let mut force = arrive(vehicle, behind, params.slow_radius.max(0.0));
    if in_leader_way(&leader, vehicle.position, params) {
        let ahead = (vehicle.position - leader.position).dot(heading);
        let on_the_line = leader.position + heading * ahead;
        let away = sideways_away(heading, on_the_line - vehicle.position);
        // Fleeing a point just across the line, so a follower exactly on it still moves off.
        force += flee(vehicle, vehicle.position - away, f32::INFINITY);
    }
    let (mut apart, mut near) = (Vector::ZERO, 0u32);
    for mate in mates {
        let push = flee(vehicle, mate, params.separation);
        if push != Vector::ZERO {
            apart += push;
            near += 1;
        }
    }
    if near > 0 {
        force += apart / near as f32;
    }
    force
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::planar;
    use crate::steering::{combine, test_support::vehicle};

    fn leader_heading_x() -> Leader {
        Leader {
            position: Vector::ZERO,
            heading: planar(1.0, 0.0),
        }
    }

    #[test]
    fn behind_the_leader_it_arrives_at_the_point_behind() {
        let params = LeaderFollowParams::default();
        let me = vehicle(planar(-100.0, 30.0), Vector::ZERO);
        let force = follow_leader(&me, &leader_heading_x(), [], &params);
        assert_eq!(force, arrive(&me, planar(-40.0, 0.0), params.slow_radius));
    }

    #[test]
    fn in_the_way_it_steps_aside_to_its_own_side() {
        let params = LeaderFollowParams::default();
        let leader = leader_heading_x();
        // Ahead and a little to the left: pushed further left (+y), and back towards the
        // point behind.
        let me = vehicle(planar(30.0, 5.0), Vector::ZERO);
        assert!(in_leader_way(&leader, me.position, &params));
        let force = follow_leader(&me, &leader, [], &params);
        let arrive_only = arrive(&me, planar(-40.0, 0.0), params.slow_radius);
        assert!(force.y > arrive_only.y + 1.0, "{force} vs {arrive_only}");
        // Dead ahead it still leaves the line.
        let dead_ahead = vehicle(planar(30.0, 0.0), Vector::ZERO);
        let force = follow_leader(&dead_ahead, &leader, [], &params);
        let sideways = force - leader.heading * force.dot(leader.heading);
        assert!(sideways.length() > 1.0, "{force}");
        // Behind the leader or beside its way it is not in the way.
        assert!(!in_leader_way(&leader, planar(-10.0, 0.0), &params));
        assert!(!in_leader_way(&leader, planar(30.0, 40.0), &params));
        assert!(!in_leader_way(&leader, planar(200.0, 0.0), &params));
    }

    #[test]
    fn mates_push_apart_averaged() {
        let params = LeaderFollowParams::default();
        let me = vehicle(planar(-40.0, 0.0), Vector::ZERO);
        // At the point behind, at rest: only the mates push.
        let one = follow_leader(&me, &leader_heading_x(), [planar(-40.0, 10.0)], &params);
        assert_eq!(one, flee(&me, planar(-40.0, 10.0), params.separation));
        let two = [planar(-40.0, 10.0), planar(-40.0, -10.0)];
        assert_eq!(
            follow_leader(&me, &leader_heading_x(), two, &params),
            Vector::ZERO
        );
        let far = [planar(-40.0, 100.0)];
        assert_eq!(
            follow_leader(&me, &leader_heading_x(), far, &params),
            Vector::ZERO
        );
    }

    #[test]
    fn bad_numbers_give_no_force() {
        let params = LeaderFollowParams::default();
        let me = vehicle(planar(-40.0, 0.0), Vector::ZERO);
        let lost = Leader {
            position: Vector::splat(f32::NAN),
            heading: planar(1.0, 0.0),
        };
        assert_eq!(follow_leader(&me, &lost, [], &params), Vector::ZERO);
        let bad = LeaderFollowParams {
            behind: f32::INFINITY,
            ..params
        };
        assert_eq!(
            follow_leader(&me, &leader_heading_x(), [], &bad),
            Vector::ZERO
        );
        // A leader with no heading: arrive at the leader itself.
        let still = Leader {
            position: planar(10.0, 0.0),
            heading: Vector::ZERO,
        };
        assert!(follow_leader(&me, &still, [], &params).x > 0.0);
    }

    #[test]
    fn followers_of_a_moving_leader_get_out_of_its_way_and_stay_behind() {
        // The leader drives along +x at 60; three followers start scattered in front of it.
        let params = LeaderFollowParams::default();
        let dt = 1.0 / 60.0;
        let mut leader = leader_heading_x();
        let mut followers: Vec<Vehicle> = [(60.0, 5.0), (90.0, -5.0), (40.0, 0.0)]
            .iter()
            .map(|&(x, y)| Vehicle {
                max_speed: 120.0,
                response_time: dt,
                ..vehicle(planar(x, y), Vector::ZERO)
            })
            .collect();
        let mut in_the_way_late = 0;
        let mut closest = f32::INFINITY;
        for step in 0..600 {
            leader.position += leader.heading * 60.0 * dt;
            let positions: Vec<Vector> = followers.iter().map(|f| f.position).collect();
            for (i, me) in followers.iter_mut().enumerate() {
                let mates = positions
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &p)| p);
                let force = combine(follow_leader(me, &leader, mates, &params), 6000.0, 1.0);
                me.velocity = (me.velocity + force * dt).clamp_length_max(me.max_speed);
                me.position += me.velocity * dt;
                closest = closest.min(me.position.distance(leader.position));
                if step >= 180 && in_leader_way(&leader, me.position, &params) {
                    in_the_way_late += 1;
                }
            }
        }
        assert_eq!(
            in_the_way_late, 0,
            "followers in the leader's way after 3 s"
        );
        // Stepping aside takes them round the leader, not through it (without it they pass
        // within a unit of it).
        assert!(closest > 10.0, "came within {closest} of the leader");
        for me in &followers {
            let offset = me.position - leader.position;
            assert!(offset.dot(leader.heading) < 0.0, "{offset}");
            assert!(offset.length() < 3.0 * params.behind, "{offset}");
        }
    }
}
