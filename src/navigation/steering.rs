//! Moving agents to their destinations: plan (each agent on its own, in parallel), report what
//! the plans found, then follow each path as a corridor and arrive.

use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{Polyline, Vehicle, arrive, follow_path};

use crate::behaviours::limits::MotionLimits;
use crate::behaviours::steerers::{Prioritised, prioritised, vehicle};
use crate::components::Velocity;
use crate::dimension::position_of;
use crate::navigation::agent::{Destination, NavPath, NavStatus, PlanNote};
use crate::navigation::mesh::{FlockNavMesh, NavMeshSettings, PathFailure};
use crate::navigation::plan::flatten;
use crate::settings::ActiveFlockSettings;
use crate::steering_force::SteeringForce;

prioritised!(Destination => FollowPath);

impl Destination {
    /// Whether every number is usable: a finite point, radii and look-ahead finite and not
    /// negative, a finite weight and prediction time.
    pub fn is_valid(&self) -> bool {
        self.point.is_finite()
            && [
                self.arrival_radius,
                self.slow_radius,
                self.follow.look_ahead,
            ]
            .iter()
            .all(|value| value.is_finite() && *value >= 0.0)
            && self.weight.is_finite()
            && self.follow.predict_time.is_finite()
    }
}

/// The same point, bit for bit (a NaN destination is the same as itself, so it is not planned
/// again every step).
fn same_point(a: Vector, b: Vector) -> bool {
    a.to_array().map(f32::to_bits) == b.to_array().map(f32::to_bits)
}

/// Whether the agent must plan (again) this step.
fn needs_plan(path: &NavPath, destination: &Destination, level_key: u64) -> bool {
    let current = path.planned_for.is_some_and(|(point, planned)| {
        same_point(point, destination.point) && planned == level_key
    });
    match path.status {
        NavStatus::Planning => true,
        _ if !current => true,
        NavStatus::Moving | NavStatus::Stuck | NavStatus::Arrived => path.replan,
        NavStatus::Unreachable | NavStatus::InvalidDestination | NavStatus::NoNavMesh => false,
    }
}

/// The corridor's half width: the agent radius the mesh keeps from the walls, or a quarter of
/// the replanning distance for agents of no size.
fn corridor_radius(settings: &NavMeshSettings) -> f32 {
    if settings.agent_radius > 0.0 {
        settings.agent_radius
    } else {
        settings.replan_distance / 4.0
    }
}

/// Plans `path` from `position` to the destination on `navmesh`.
fn plan(
    path: &mut NavPath,
    position: Vector,
    destination: &Destination,
    navmesh: &FlockNavMesh,
    corridor_radius: f32,
) {
    let new_destination = !path
        .planned_for
        .is_some_and(|(point, _)| same_point(point, destination.point));
    if new_destination {
        path.closest = f32::INFINITY;
        path.stalls = 0;
    }
    path.planned_for = Some((destination.point, navmesh.level_key()));
    path.replan = false;
    path.stalled_for = 0.0;
    path.waypoints.clear();
    path.corridor = None;
    if !destination.is_valid() {
        path.status = NavStatus::InvalidDestination;
        path.note = Some(PlanNote::InvalidDestination(destination.point));
        return;
    }
    let found = match navmesh.path(position, destination.point) {
        Ok(found) => found,
        // The agent's own position is broken: the core reports that; try again next step.
        Err(PathFailure::NotFinite) => {
            path.status = NavStatus::Planning;
            return;
        }
        Err(PathFailure::NoMesh | PathFailure::OffMesh) => {
            path.status = NavStatus::NoNavMesh;
            path.note = Some(PlanNote::NoNavMesh);
            return;
        }
        Err(PathFailure::Unreachable) => {
            path.status = NavStatus::Unreachable;
            path.note = Some(PlanNote::Unreachable(destination.point));
            return;
        }
    };
    if found.start_moved {
        path.waypoints.push(position);
        path.note = Some(PlanNote::StartMoved(position));
    }
    path.waypoints.extend(&found.points);
    if found.destination_moved {
        path.note = Some(PlanNote::DestinationMoved {
            asked: destination.point,
            going: found.points[found.points.len() - 1],
        });
    }
    path.corridor = corridor_along(&path.waypoints, corridor_radius);
    path.status = match (&path.corridor, path.stalls) {
        // Already there: a path of no length.
        (None, _) => NavStatus::Arrived,
        (Some(_), 0 | 1) => NavStatus::Moving,
        (Some(_), _) => NavStatus::Stuck,
    };
}

/// The corridor an agent follows along `waypoints` (on the floor plan), if they make a path.
fn corridor_along(waypoints: &[Vector], radius: f32) -> Option<Polyline> {
    let flat: Vec<Vector> = waypoints.iter().map(|&p| flatten(p)).collect();
    Polyline::new(flat, radius, false).ok()
}

/// The plans of this step: every agent that needs one plans (in parallel: each reads only the
/// mesh and writes only its own path), then what they found is reported, one warning per kind
/// of problem a step, however many agents share it.
pub(crate) fn plan_paths(
    navmesh: Res<FlockNavMesh>,
    mut agents: Query<(Entity, &Transform, &Destination, &mut NavPath)>,
) {
    let level_key = navmesh.level_key();
    let corridor_radius = corridor_radius(navmesh.settings());
    agents
        .par_iter_mut()
        .for_each(|(_, transform, destination, mut path)| {
            if needs_plan(&path, destination, level_key) {
                let position = position_of(transform.translation);
                plan(&mut path, position, destination, &navmesh, corridor_radius);
            } else if matches!(path.status, NavStatus::Moving | NavStatus::Stuck)
                && path.corridor.is_none()
                && path.waypoints.len() > 1
            {
                // A path restored from a lockstep snapshot has its corners but not the
                // corridor built from them (not part of the state): built again as the plan
                // built it, so the agent goes on as it would have. Only where it is followed:
                // an arrived agent whose corners make no corridor would build it every step.
                path.corridor = corridor_along(&path.waypoints, corridor_radius);
            }
        });
    let mut notes: Vec<(Entity, PlanNote)> = Vec::new();
    for (entity, _, _, mut path) in &mut agents {
        if path.note.is_some() {
            notes.extend(path.note.take().map(|note| (entity, note)));
        }
    }
    report(&notes);
}

/// One warning for each kind of note, with how many agents have it and the first of them.
fn report(notes: &[(Entity, PlanNote)]) {
    let kinds: [(&str, fn(&PlanNote) -> bool); 5] = [
        (
            "have a destination that is not valid (a point or number not finite, a negative radius); they stay where they are",
            |n| matches!(n, PlanNote::InvalidDestination(_)),
        ),
        (
            "cannot reach their destination: no way leads there on the navigation mesh; they stay where they are until it or the level changes",
            |n| matches!(n, PlanNote::Unreachable(_)),
        ),
        (
            "have no navigation mesh to plan on (see FlockNavMesh::error) or are off it with no walkable point near; they stay where they are",
            |n| matches!(n, PlanNote::NoNavMesh),
        ),
        (
            "start off the navigation mesh (in an obstacle or outside the outline); they head for the nearest walkable point first",
            |n| matches!(n, PlanNote::StartMoved(_)),
        ),
        (
            "have a destination off the navigation mesh; they go to the nearest walkable point instead",
            |n| matches!(n, PlanNote::DestinationMoved { .. }),
        ),
    ];
    for (what, is_kind) in kinds {
        let mut matching = notes.iter().filter(|(_, note)| is_kind(note));
        if let Some((first, note)) = matching.next() {
            let count = 1 + matching.count();
            warn!("bevy_flock: {count} agent(s) {what} (first: {first}, {note:?})");
        }
    }
}

/// Each agent with a path steers along it: Reynolds' path following in its corridor, then
/// arrival over the last `slow_radius`; it notes when it should plan again (pushed off the
/// corridor, or no closer for `stuck_after` seconds), by the settings the mesh was built with.
/// Agents that have been stuck are reported once until none is.
pub(crate) fn follow_nav_paths(
    time: Res<Time>,
    navmesh: Res<FlockNavMesh>,
    flock: Res<ActiveFlockSettings>,
    mut agents: Query<(
        Entity,
        &Transform,
        &Velocity,
        Option<&MotionLimits>,
        &Destination,
        &mut NavPath,
        &mut SteeringForce,
    )>,
    mut stuck_reported: Local<bool>,
) {
    let dt = time.delta_secs();
    let config = &flock.0.config;
    let settings = navmesh.settings();
    let (stuck, newly_stuck) = (AtomicUsize::new(0), AtomicUsize::new(0));
    agents.par_iter_mut().for_each(
        |(_, transform, velocity, limits, destination, mut path, mut sum)| {
            let mut me = vehicle(transform, velocity, limits, config);
            me.position = flatten(me.position);
            me.velocity = flatten(me.velocity);
            let was_stuck = path.status == NavStatus::Stuck;
            let force = steer(&mut path, &me, destination, settings, dt);
            if path.status == NavStatus::Stuck {
                stuck.fetch_add(1, Ordering::Relaxed);
                if !was_stuck {
                    newly_stuck.fetch_add(1, Ordering::Relaxed);
                }
            }
            if let Some(force) = force.filter(|force| force.is_finite()) {
                sum.add(Destination::PRIORITY, destination.weight * force);
            }
        },
    );
    let stuck = stuck.into_inner();
    if stuck == 0 {
        *stuck_reported = false;
    } else if newly_stuck.into_inner() > 0 && !*stuck_reported {
        *stuck_reported = true;
        warn!(
            "bevy_flock: {stuck} navigating agent(s) have gone {:.1} s twice without getting \
             closer to their destination (NavStatus::Stuck); they keep planning again",
            settings.stuck_after
        );
    }
}

/// Path following's force, or where it has none (on the corridor, going the right way), the
/// force that brings the agent up to its top speed as it is heading: Reynolds' vehicles keep
/// their speed by themselves, an agent that starts at rest needs the push.
fn cruise(me: &Vehicle, follow: Vector) -> Vector {
    if follow != Vector::ZERO {
        return follow;
    }
    me.steer_to(me.velocity.normalize_or_zero() * me.max_speed)
}

/// One agent's force along its path this step, and its status and progress brought up to date.
fn steer(
    path: &mut NavPath,
    me: &Vehicle,
    destination: &Destination,
    settings: &NavMeshSettings,
    dt: f32,
) -> Option<Vector> {
    let slow_radius = destination.slow_radius;
    let goal = path.waypoints.last().map(|&goal| flatten(goal));
    match path.status {
        NavStatus::Arrived => {
            // Holds its place; pushed far from it, it finds its way back.
            let goal = goal?;
            if me.position.distance(goal) > settings.replan_distance {
                path.replan = true;
            }
            return Some(arrive(me, goal, slow_radius));
        }
        NavStatus::Moving | NavStatus::Stuck => {}
        NavStatus::Planning => return None,
        // No way to go: it stays where it is.
        NavStatus::Unreachable | NavStatus::InvalidDestination | NavStatus::NoNavMesh => {
            return Some(me.steer_to(Vector::ZERO));
        }
    }
    let (goal, corridor) = (goal?, path.corridor.as_ref()?);
    let here = corridor.project(me.position);
    if here.off_path > settings.replan_distance {
        path.replan = true;
    }
    if me.position.distance(goal) <= destination.arrival_radius {
        path.status = NavStatus::Arrived;
        path.stalls = 0;
        return Some(arrive(me, goal, slow_radius));
    }
    let left = corridor.length() - here.along + here.off_path;
    let force = if left <= slow_radius {
        arrive(me, goal, slow_radius)
    } else {
        cruise(me, follow_path(me, corridor, &destination.follow))
    };
    // Progress: closer by a tenth of the corridor's half width since the best so far.
    if left < path.closest - corridor.radius() / 10.0 {
        path.closest = left;
        path.stalled_for = 0.0;
        path.stalls = 0;
        path.status = NavStatus::Moving;
    } else if dt.is_finite() && dt > 0.0 {
        path.stalled_for += dt;
        if path.stalled_for > settings.stuck_after {
            path.stalled_for = 0.0;
            path.stalls += 1;
            path.replan = true;
            if path.stalls >= 2 {
                path.status = NavStatus::Stuck;
            }
        }
    }
    Some(force)
}
