//! Formations: a [`Formation`] on an anchor entity (a leader boid, or a point you move) and a
//! [`FormationMember`] on each boid that takes a slot in it.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::{FormationShape, arrive_moving, assign_slots, formation_slots};

use crate::behaviours::frame::frame_of;
use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::steerers::{SteererQuery, vehicle};
use crate::behaviours::target::Bodies;
use crate::dimension::position_of;
use crate::identity::BoidId;
use crate::settings::ActiveFlockSettings;
use crate::steering_force::{SteeringForce, SteeringPriority};

/// A formation laid out in its entity's frame: put it on the anchor (a leader boid, or any
/// entity with a `Transform` that you move and turn) and give each member a
/// [`FormationMember`] naming that entity. The slots turn with the anchor's heading (its
/// velocity, or the way it faces at rest) and move with it.
///
/// Built-in shapes have one slot per member, so when a member is lost (despawned, or its
/// `FormationMember` removed) the formation closes up; a [`FormationShape::Custom`] list fills
/// its first slots. Every step members are assigned slots afresh, keeping their slots where
/// nothing is gained, without two members' straight paths crossing
/// ([`assign_slots`]). A custom list with no slots, or fewer than the members, a grid of no
/// columns and a spacing that is not finite and positive are reported once: members without a
/// slot get no force from the formation.
///
/// The assignment looks at every pair of slots each step, so its cost grows with the square of
/// the members: meant for squads of tens, up to a hundred or so (a few microseconds for 30
/// members, about a tenth of a millisecond for 128, a millisecond for 512).
#[derive(Component, Reflect, Debug, Clone, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
pub struct Formation {
    /// The layout.
    pub shape: FormationShape,
    /// The distance between neighbouring slots.
    pub spacing: f32,
    /// Where the layout sits in the anchor's frame (moved back one spacing, say, so that a
    /// leader anchoring a wedge is not in its first slot).
    pub offset: Vector,
}

impl Default for Formation {
    fn default() -> Self {
        Self {
            shape: FormationShape::Line,
            spacing: 30.0,
            offset: Vector::ZERO,
        }
    }
}

/// A boid that takes a slot in the [`Formation`] on entity `formation` and arrives at it,
/// moving with the anchor once there (see [`arrive_moving`]).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(SteeringForce)]
pub struct FormationMember {
    /// The entity holding the [`Formation`].
    #[entities]
    pub formation: Entity,
    /// The distance from its slot at which it starts to slow down.
    pub slow_radius: f32,
    /// The longest prediction of where its slot will be while far from it, seconds.
    pub max_look_ahead: f32,
    /// How much this force counts in the boid's sum.
    pub weight: f32,
    /// The slot it was given last step (an index into the formation's layout), set by the
    /// plugin; `None` before its first step or when it has none.
    pub slot: Option<usize>,
}

impl FormationMember {
    /// A member of `formation`, slowing within 60 units of its slot, at weight 1.
    pub fn new(formation: Entity) -> Self {
        Self {
            formation,
            slow_radius: 60.0,
            max_look_ahead: 1.0,
            weight: 1.0,
            slot: None,
        }
    }
}

/// What the formation system keeps between steps, so it allocates nothing once the
/// formations stop growing.
#[derive(Default)]
pub(crate) struct FormationScratch {
    /// Each formation's members, in id order.
    members: EntityHashMap<Vec<(BoidId, Entity)>>,
    positions: Vec<Vector>,
    previous: Vec<Option<usize>>,
}

pub(crate) fn steer_formations(
    settings: Res<ActiveFlockSettings>,
    formations: Query<&Formation>,
    bodies: Bodies,
    mut scratch: Local<FormationScratch>,
    mut reported: Local<ReportedOnce>,
    ids: Query<&BoidId>,
    mut members: Members,
) {
    let FormationScratch {
        members: by_formation,
        positions,
        previous,
    } = &mut *scratch;
    by_formation.values_mut().for_each(Vec::clear);
    for (entity, .., member, _) in &members {
        let id = ids.get(entity).copied().unwrap_or(BoidId::UNASSIGNED);
        by_formation
            .entry(member.formation)
            .or_default()
            .push((id, entity));
    }
    by_formation.retain(|_, group| !group.is_empty());
    let config = &settings.0.config;
    for (&anchor, group) in by_formation.iter_mut() {
        // Id order, so the assignment does not depend on the query's order or the entities.
        group.sort_unstable();
        let (Ok(formation), Some(frame)) = (formations.get(anchor), frame_of(&bodies, anchor))
        else {
            reported.warn(anchor, || {
                format!("{anchor} is named by formation members but holds no Formation; no force")
            });
            clear_slots(&mut members, group);
            continue;
        };
        let slots = match formation_slots(&formation.shape, group.len(), formation.spacing) {
            Ok(slots) => slots,
            Err(error) => {
                reported.warn(anchor, || {
                    format!("the formation on {anchor} is ignored: {error}")
                });
                clear_slots(&mut members, group);
                continue;
            }
        };
        if slots.len() < group.len() {
            reported.warn(anchor, || {
                format!(
                    "the formation on {anchor} has {} slots for {} members; the furthest get none",
                    slots.len(),
                    group.len()
                )
            });
        } else {
            reported.clear(anchor);
        }
        // A custom list longer than the formation fills its first slots.
        let slots: Vec<Vector> = slots
            .iter()
            .take(group.len())
            .map(|&slot| frame.point_at(slot + formation.offset))
            .collect();
        positions.clear();
        previous.clear();
        for &(_, entity) in group.iter() {
            // Every entity grouped above is a member this step.
            if let Ok((_, transform, .., member, _)) = members.get(entity) {
                positions.push(position_of(transform.translation));
                previous.push(member.slot);
            }
        }
        let assigned = assign_slots(positions, &slots, previous);
        for (&(_, entity), slot) in group.iter().zip(assigned) {
            let Ok((_, transform, velocity, limits, mut member, mut sum)) = members.get_mut(entity)
            else {
                continue;
            };
            if member.slot != slot {
                member.slot = slot;
            }
            if let Some(slot) = slot {
                let me = vehicle(transform, velocity, limits, config);
                let force = arrive_moving(
                    &me,
                    slots[slot],
                    frame.velocity,
                    member.slow_radius,
                    member.max_look_ahead,
                );
                sum.add(SteeringPriority::Formation, member.weight * force);
            }
        }
    }
}

/// The formations' members, and what steering them needs.
type Members<'w, 's> = SteererQuery<'w, 's, &'static mut FormationMember>;

/// Members of a formation that cannot be laid out have no slot.
fn clear_slots(members: &mut Members, group: &[(BoidId, Entity)]) {
    for &(_, entity) in group {
        if let Ok((.., mut member, _)) = members.get_mut(entity) {
            member.slot = None;
        }
    }
}
