//! What the tank-group examples (2D and 3D) share: the groups' colours, and the pairs of mates
//! to join with lines.

use bevy::prelude::*;
use bevy_flock::flock_core::{NeighbourIndex, Vector};
use bevy_flock::{BoidGroup, FlockBuffers, GroupMember};

use super::Selection;

/// Each group of the selection that is still there, in its colour of `colours`: with alpha
/// `alphas.0` for the selected group, `alphas.1` for the others.
pub fn groups_in_colour<'a>(
    selection: &'a Selection,
    groups: &'a Query<&BoidGroup>,
    colours: [Color; 3],
    alphas: (f32, f32),
) -> impl Iterator<Item = (&'a BoidGroup, Color)> {
    selection
        .each()
        .zip(colours)
        .filter_map(move |((entity, selected), colour)| {
            let alpha = if selected { alphas.0 } else { alphas.1 };
            Some((groups.get(entity).ok()?, colour.with_alpha(alpha)))
        })
}

/// Calls `join(a, b)` once for each pair of tanks of one group closer than `keep_distance`: the
/// mates each keeps its distance from, found through the plugin's neighbour index as the group
/// behaviour finds them (the Unity tank group's `Debug.DrawLine`).
pub fn for_each_mate_pair(
    buffers: &FlockBuffers,
    members: &Query<&GroupMember>,
    keep_distance: f32,
    candidates: &mut Vec<u32>,
    mut join: impl FnMut(Vector, Vector),
) {
    for (boid, &entity) in buffers.entities().iter().enumerate() {
        let Ok(member) = members.get(entity) else {
            continue;
        };
        let at = buffers.positions()[boid];
        buffers.index().candidates(at, keep_distance, candidates);
        for &other in candidates.iter() {
            let other = other as usize;
            let mate_at = buffers.positions()[other];
            let is_mate = other > boid
                && at.distance(mate_at) < keep_distance
                && members
                    .get(buffers.entities()[other])
                    .is_ok_and(|mate| mate.group == member.group);
            if is_mate {
                join(at, mate_at);
            }
        }
    }
}
