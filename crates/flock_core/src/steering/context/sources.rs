//! What writes the maps: interest from targets and the current heading, danger from
//! obstacles, walls and neighbours. Each raises slots (see [`ContextMaps`]), so they may be
//! called in any order and as often as there are targets or obstacles.
//!
//! A value that is not finite (a target, a weight, a distance) writes nothing, so a bad input
//! never reaches a decision.

use super::ContextMaps;
use crate::math::{Bounds, DIMENSIONS, Vector};
use crate::shape::Shape;

/// How much a slot pointing along `direction` serves a wish to go along unit `wish`: 1 along
/// it, falling off with the angle to 0 straight against it. Wide on purpose: a way round an
/// obstacle, at right angles to the wish, still has half the interest.
#[inline]
fn alignment(direction: Vector, wish: Vector) -> f32 {
    0.5 * (1.0 + direction.dot(wish))
}

/// A weight that is finite and positive, or `None`.
fn usable(weight: f32) -> Option<f32> {
    (weight.is_finite() && weight > 0.0).then_some(weight)
}

/// Interest towards `target` from `position`: `weight` along the way to it, falling off with
/// the angle (see the module's shape). Nothing when the vehicle is on the target.
pub fn seek_interest(maps: &mut ContextMaps, position: Vector, target: Vector, weight: f32) {
    let Some(weight) = usable(weight) else {
        return;
    };
    let Some(wish) = (target - position).try_normalize() else {
        return;
    };
    maps.raise_interest_by(|direction| weight * alignment(direction, wish));
}

/// [`seek_interest`] that fades inside `slow_radius`, in proportion to the distance, so the
/// speed (the interest of the way chosen) falls to zero at the target, as arrive's does.
pub fn arrive_interest(
    maps: &mut ContextMaps,
    position: Vector,
    target: Vector,
    slow_radius: f32,
    weight: f32,
) {
    let distance = (target - position).length();
    let fade = if slow_radius.is_finite() && distance < slow_radius {
        distance / slow_radius
    } else {
        1.0
    };
    seek_interest(maps, position, target, weight * fade);
}

/// Fleeing `threat` while it is closer than `radius`: danger in its direction and interest
/// away from it, both from nothing at `radius` to `weight` at the threat.
pub fn flee_context(
    maps: &mut ContextMaps,
    position: Vector,
    threat: Vector,
    radius: f32,
    weight: f32,
) {
    let Some(weight) = usable(weight) else {
        return;
    };
    let Some((towards, closeness)) = closeness(position, threat, radius) else {
        return;
    };
    let strength = weight * closeness;
    maps.raise_danger_by(|direction| strength * direction.dot(towards));
    maps.raise_interest_by(|direction| strength * alignment(direction, -towards));
}

/// The momentum term: every direction within a right angle of the vehicle's heading (along
/// `velocity`) gains interest, up to `share` of the strongest interest in the map along the
/// heading itself, so the vehicle keeps to the way it is on when another becomes only a
/// little more interesting (sliding along a wall whose far end is away from the target, it
/// does not turn back halfway). Call it after the other interest. Scaled by the strongest
/// interest, it never makes a vehicle move that has nowhere to go, and fades as an arriving
/// vehicle's interest does. Nothing at rest.
pub fn momentum(maps: &mut ContextMaps, velocity: Vector, share: f32) {
    let Some(share) = usable(share) else {
        return;
    };
    let Some(heading) = velocity.try_normalize() else {
        return;
    };
    let strongest = maps.interest().iter().copied().fold(0.0, f32::max);
    let bonus = share * strongest;
    maps.add_interest_by(|direction| bonus * direction.dot(heading));
}

/// Danger from one obstacle: each slot's ray from `position` that meets the obstacle grown by
/// `clearance` within `look_ahead` is dangerous, from nothing at `look_ahead` to 1 at the
/// obstacle. Within the clearance already, only the rays that meet the obstacle itself count
/// (so the vehicle may still slide along or away from it). Inside the obstacle, every way but
/// out is dangerous, and out is interesting, as [`escape`](crate::steering::escape) pushes out.
pub fn obstacle_danger(
    maps: &mut ContextMaps,
    position: Vector,
    obstacle: &Shape,
    look_ahead: f32,
    clearance: f32,
) {
    if !(position.is_finite() && look_ahead.is_finite() && look_ahead > 0.0) {
        return;
    }
    let clearance = if clearance.is_finite() {
        clearance.max(0.0)
    } else {
        0.0
    };
    if let Some((centre, radius)) = obstacle.bounding_ball()
        && position.distance(centre) > radius + clearance + look_ahead
    {
        return;
    }
    if let Some(out) = obstacle.way_out(position) {
        maps.raise_danger_by(|direction| 0.5 * (1.0 - direction.dot(out)));
        maps.raise_interest_by(|direction| alignment(direction, out));
        return;
    }
    maps.raise_danger_by(|direction| {
        let entry = match obstacle.ray_entry(position, direction, clearance) {
            Some(entry) if entry <= 0.0 => obstacle.ray_entry(position, direction, 0.0),
            entry => entry,
        };
        entry.map_or(0.0, |entry| 1.0 - entry / look_ahead)
    });
}

/// Danger from the walls of `bounds`: each slot's ray that leaves the bounds (shrunk by
/// `clearance` on every side) within `look_ahead` is dangerous, from nothing at `look_ahead` to
/// 1 at the wall; outside them, every ray that goes further out is fully dangerous.
pub fn wall_danger(
    maps: &mut ContextMaps,
    position: Vector,
    bounds: &Bounds,
    look_ahead: f32,
    clearance: f32,
) {
    let finite = bounds.min.is_finite() && bounds.max.is_finite() && position.is_finite();
    if !(finite && look_ahead.is_finite() && look_ahead > 0.0) {
        return;
    }
    let clearance = if clearance.is_finite() {
        clearance.max(0.0)
    } else {
        0.0
    };
    // Shrunk by the clearance, but never past the centre.
    let centre = bounds.center();
    let low = (bounds.min + Vector::splat(clearance)).min(centre);
    let high = (bounds.max - Vector::splat(clearance)).max(centre);
    maps.raise_danger_by(|direction| {
        let mut exit = f32::INFINITY;
        for axis in 0..DIMENSIONS {
            let distance = if direction[axis] > 0.0 {
                (high[axis] - position[axis]) / direction[axis]
            } else if direction[axis] < 0.0 {
                (low[axis] - position[axis]) / direction[axis]
            } else {
                continue;
            };
            exit = exit.min(distance.max(0.0));
        }
        1.0 - exit / look_ahead
    });
}

/// Danger from neighbours (their positions, the vehicle itself not among them) closer than
/// `separation`: in each one's direction, from nothing at `separation` to 1 at the vehicle,
/// falling off with the angle to nothing at right angles. A neighbour on the vehicle's own
/// point, or not finite, has no direction and writes nothing.
pub fn neighbour_danger(
    maps: &mut ContextMaps,
    position: Vector,
    others: impl IntoIterator<Item = Vector>,
    separation: f32,
) {
    for other in others {
        if let Some((towards, closeness)) = closeness(position, other, separation) {
            maps.raise_danger_by(|direction| closeness * direction.dot(towards));
        }
    }
}

/// The unit direction from `position` to `point` and how close it is within `radius` (1 on
/// it, 0 at `radius`), or `None` when it is farther, on `position`, or not finite.
fn closeness(position: Vector, point: Vector, radius: f32) -> Option<(Vector, f32)> {
    let offset = point - position;
    let distance = offset.length();
    let towards = offset.try_normalize()?;
    (radius.is_finite() && distance < radius).then(|| (towards, 1.0 - distance / radius))
}
