//! Formations: slots laid out in a leader's or an anchor's frame (line, column, wedge, ring,
//! grid, or a list of your own), and the assignment of members to slots.
//!
//! The assignment minimises, locally, the sum of the distances from members to their slots:
//! start from the slots members already had, give the others the nearest free slot, then swap
//! pairs while a swap shortens the total. Why this and not the Hungarian algorithm: it starts
//! from last step's assignment, so a formation that barely moved costs one pass over the pairs
//! (the Hungarian method would redo its O(n^3) work every step), and it guarantees what matters
//! here. If two members' straight paths to their slots crossed at a point `p`, swapping their
//! slots would make the total shorter (each new path is no longer than the two pieces through
//! `p`, by the triangle inequality, and strictly shorter unless all four points are on a line),
//! so after the swaps no two paths cross: members never cut across each other to reach their
//! slots. Paths along one line (a member heading for a slot straight behind the slot another
//! member heads for, one behind the other) gain nothing from a swap and stay as they are. It
//! is not always the global minimum, which nothing here needs.

use std::fmt;

use super::level;
use crate::math::{Vector, cos, sin};

/// The shapes of a formation, laid out on the ground of the anchor's frame (see
/// [`level`](super::level)) with the anchor at the front and centre of the first row (the
/// ring around it).
#[derive(Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FormationShape {
    /// Side by side, abreast.
    #[default]
    Line,
    /// One behind the other.
    Column,
    /// A V opening backwards, the first slot at its point.
    Wedge,
    /// A circle round the anchor, neighbours `spacing` apart.
    Ring,
    /// Rows of `columns` slots, one behind the other.
    Grid {
        /// Slots per row.
        columns: u32,
    },
    /// These slots, in the anchor's frame (see [`local_to_world`](super::local_to_world)), in
    /// order of importance: with fewer members than slots the first ones are filled.
    Custom(Vec<Vector>),
}

/// Why a formation has no layout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FormationError {
    /// A custom formation with no slots.
    NoSlots,
    /// The spacing is not a finite positive number.
    BadSpacing(f32),
    /// A grid with no columns.
    NoColumns,
    /// The slot at this index is not finite (a custom slot, or one too far out for `f32`).
    SlotNotFinite(usize),
}

impl fmt::Display for FormationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoSlots => write!(f, "the formation has no slots"),
            Self::BadSpacing(spacing) => write!(
                f,
                "a formation's spacing must be finite and positive, not {spacing}"
            ),
            Self::NoColumns => write!(f, "a grid formation needs at least one column"),
            Self::SlotNotFinite(index) => write!(f, "the formation's slot {index} is not finite"),
        }
    }
}

impl std::error::Error for FormationError {}

/// The slots of `shape` for `count` members, `spacing` apart, in the anchor's frame (built-in
/// shapes on its ground: see [`level`](super::level)). Built-in shapes have exactly `count`
/// slots; a custom one has its own list, whatever the count.
pub fn formation_slots(
    shape: &FormationShape,
    count: usize,
    spacing: f32,
) -> Result<Vec<Vector>, FormationError> {
    if !(spacing.is_finite() && spacing > 0.0) {
        return Err(FormationError::BadSpacing(spacing));
    }
    let slot = |i: usize| -> Vector {
        let i = i as f32;
        match shape {
            FormationShape::Line => level(0.0, (i - (count as f32 - 1.0) / 2.0) * spacing),
            FormationShape::Column => level(-i * spacing, 0.0),
            FormationShape::Wedge => {
                // 0 at the point, then pairs: 1 left and 2 right one row back, and so on.
                let row = ((i + 1.0) / 2.0).floor();
                let side = if i as usize % 2 == 1 { 1.0 } else { -1.0 };
                level(-row * spacing, side * row * spacing)
            }
            FormationShape::Ring => {
                if count < 2 {
                    return Vector::ZERO;
                }
                // The chord between neighbours is `spacing`.
                // Through the deterministic functions: lockstep peers lay out the same ring.
                let radius = spacing / (2.0 * sin(std::f32::consts::PI / count as f32));
                let angle = std::f32::consts::TAU * i / count as f32;
                level(cos(angle), sin(angle)) * radius
            }
            FormationShape::Grid { columns } => {
                let columns = (*columns as usize).min(count).max(1);
                let (row, column) = (i as usize / columns, i as usize % columns);
                let centre = (columns as f32 - 1.0) / 2.0;
                level(-(row as f32) * spacing, (column as f32 - centre) * spacing)
            }
            FormationShape::Custom(_) => unreachable!("custom slots are copied, not laid out"),
        }
    };
    let slots = match shape {
        FormationShape::Custom(slots) if slots.is_empty() => return Err(FormationError::NoSlots),
        FormationShape::Custom(slots) => slots.clone(),
        FormationShape::Grid { columns: 0 } => return Err(FormationError::NoColumns),
        _ => (0..count).map(slot).collect(),
    };
    match slots.iter().position(|slot| !slot.is_finite()) {
        Some(index) => Err(FormationError::SlotNotFinite(index)),
        None => Ok(slots),
    }
}

/// The most passes of pairwise swaps [`assign_slots`] makes (each pass looks at every pair);
/// from last step's assignment one or two are the rule, and the cap bounds a step's work.
pub const MAX_UNTANGLE_PASSES: usize = 64;

/// Each member's slot (`None` for members beyond the number of slots), keeping `previous`
/// slots where still valid, without two members' straight paths crossing (see the module's
/// documentation). `members` are positions and `slots` points in the same space; `previous`
/// is matched to `members` by index (shorter or empty is fine). Members or slots that are not
/// finite are treated as infinitely far, so they never cause a swap.
pub fn assign_slots(
    members: &[Vector],
    slots: &[Vector],
    previous: &[Option<usize>],
) -> Vec<Option<usize>> {
    let mut assigned: Vec<Option<usize>> = vec![None; members.len()];
    let mut owner: Vec<Option<usize>> = vec![None; slots.len()];
    // Keep last step's slots where they still exist and are not claimed twice.
    for (member, slot) in previous.iter().enumerate().take(members.len()) {
        if let Some(slot) = *slot
            && slot < slots.len()
            && owner[slot].is_none()
        {
            owner[slot] = Some(member);
            assigned[member] = Some(slot);
        }
    }
    let distance = |member: usize, slot: usize| -> f64 {
        let d = f64::from(members[member].distance(slots[slot]));
        if d.is_finite() { d } else { f64::MAX }
    };
    // The others take the nearest free slot, in member order.
    for (member, assignment) in assigned.iter_mut().enumerate() {
        if assignment.is_some() {
            continue;
        }
        let nearest = (0..slots.len())
            .filter(|&slot| owner[slot].is_none())
            .min_by(|&a, &b| distance(member, a).total_cmp(&distance(member, b)));
        if let Some(slot) = nearest {
            owner[slot] = Some(member);
            *assignment = Some(slot);
        }
    }
    // A change must shorten the total by more than rounding, or two equal totals could swap
    // back and forth.
    let shorter = |new: f64, old: f64| new < old - 1e-9 * old.max(1.0);
    for _ in 0..MAX_UNTANGLE_PASSES {
        let mut changed = false;
        for slot_a in 0..slots.len() {
            for slot_b in slot_a + 1..slots.len() {
                match (owner[slot_a], owner[slot_b]) {
                    (Some(a), Some(b)) => {
                        let old = distance(a, slot_a) + distance(b, slot_b);
                        if shorter(distance(a, slot_b) + distance(b, slot_a), old) {
                            owner.swap(slot_a, slot_b);
                            changed = true;
                        }
                    }
                    // A member moves to a free slot nearer to it.
                    (Some(a), None) if shorter(distance(a, slot_b), distance(a, slot_a)) => {
                        owner.swap(slot_a, slot_b);
                        changed = true;
                    }
                    (None, Some(b)) if shorter(distance(b, slot_a), distance(b, slot_b)) => {
                        owner.swap(slot_a, slot_b);
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        // With more members than slots, a member without one takes a slot from a member
        // further from it.
        for member in 0..members.len() {
            if owner.contains(&Some(member)) {
                continue;
            }
            for (slot, holder) in owner.iter_mut().enumerate() {
                if let Some(held_by) = *holder
                    && shorter(distance(member, slot), distance(held_by, slot))
                {
                    *holder = Some(member);
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
    assigned.fill(None);
    for (slot, member) in owner.iter().enumerate() {
        if let Some(member) = *member {
            assigned[member] = Some(slot);
        }
    }
    assigned
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether segments `a0-a1` and `b0-b1` properly cross, on the ground.
    fn cross(a0: Vector, a1: Vector, b0: Vector, b1: Vector) -> bool {
        let flat = |v: Vector| (v.dot(level(1.0, 0.0)), v.dot(level(0.0, 1.0)));
        let side = |p: Vector, q: Vector, r: Vector| {
            let ((px, py), (qx, qy), (rx, ry)) = (flat(p), flat(q), flat(r));
            (qx - px) * (ry - py) - (qy - py) * (rx - px)
        };
        let (d1, d2) = (side(b0, b1, a0), side(b0, b1, a1));
        let (d3, d4) = (side(a0, a1, b0), side(a0, a1, b1));
        d1 * d2 < 0.0 && d3 * d4 < 0.0
    }

    /// Points from a small linear congruential generator: the same in every run.
    fn scatter(count: usize, seed: u64, size: f32) -> Vec<Vector> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 40) as f32 / (1u64 << 24) as f32 * size
        };
        (0..count).map(|_| level(next(), next())).collect()
    }

    #[test]
    fn shapes_have_their_layouts() {
        let line = formation_slots(&FormationShape::Line, 3, 10.0).unwrap();
        assert_eq!(
            line,
            vec![level(0.0, -10.0), Vector::ZERO, level(0.0, 10.0)]
        );
        let column = formation_slots(&FormationShape::Column, 3, 10.0).unwrap();
        assert_eq!(column[2], level(-20.0, 0.0));
        let wedge = formation_slots(&FormationShape::Wedge, 5, 10.0).unwrap();
        assert_eq!(
            wedge,
            vec![
                Vector::ZERO,
                level(-10.0, 10.0),
                level(-10.0, -10.0),
                level(-20.0, 20.0),
                level(-20.0, -20.0),
            ]
        );
        let ring = formation_slots(&FormationShape::Ring, 6, 10.0).unwrap();
        // Six round a circle: the chord between neighbours equals the radius.
        for (a, b) in ring.iter().zip(ring.iter().cycle().skip(1)) {
            assert!((a.distance(*b) - 10.0).abs() < 1e-4);
            assert!((a.length() - 10.0).abs() < 1e-4);
        }
        assert_eq!(
            formation_slots(&FormationShape::Ring, 1, 10.0).unwrap(),
            vec![Vector::ZERO]
        );
        let grid = formation_slots(&FormationShape::Grid { columns: 2 }, 5, 10.0).unwrap();
        assert_eq!(grid[0], level(0.0, -5.0));
        assert_eq!(grid[3], level(-10.0, 5.0));
        assert_eq!(grid[4], level(-20.0, -5.0));
        // Built-in shapes have one slot per member, none for none.
        assert!(
            formation_slots(&FormationShape::Wedge, 0, 10.0)
                .unwrap()
                .is_empty()
        );
        let custom = FormationShape::Custom(vec![level(1.0, 2.0)]);
        assert_eq!(formation_slots(&custom, 4, 10.0).unwrap().len(), 1);
    }

    #[test]
    fn bad_formations_are_refused_with_the_reason() {
        for spacing in [0.0, -3.0, f32::NAN, f32::INFINITY] {
            let refused = formation_slots(&FormationShape::Line, 3, spacing);
            assert!(matches!(refused, Err(FormationError::BadSpacing(_))));
        }
        let empty = FormationShape::Custom(Vec::new());
        assert_eq!(
            formation_slots(&empty, 3, 1.0),
            Err(FormationError::NoSlots)
        );
        let grid = FormationShape::Grid { columns: 0 };
        assert_eq!(
            formation_slots(&grid, 3, 1.0),
            Err(FormationError::NoColumns)
        );
        let nan = FormationShape::Custom(vec![Vector::ZERO, Vector::splat(f32::NAN)]);
        assert_eq!(
            formation_slots(&nan, 3, 1.0),
            Err(FormationError::SlotNotFinite(1))
        );
        // Too far out for f32.
        assert_eq!(
            formation_slots(&FormationShape::Column, 4, f32::MAX),
            Err(FormationError::SlotNotFinite(2))
        );
        assert!(FormationError::NoSlots.to_string().contains("no slots"));
    }

    #[test]
    fn every_slot_is_filled_and_no_two_paths_cross() {
        for seed in 0..20 {
            let members = scatter(24, seed, 400.0);
            let slots: Vec<Vector> =
                formation_slots(&FormationShape::Grid { columns: 6 }, 24, 30.0)
                    .unwrap()
                    .into_iter()
                    .map(|slot| slot + level(200.0, 200.0))
                    .collect();
            let assigned = assign_slots(&members, &slots, &[]);
            let mut filled: Vec<usize> = assigned.iter().map(|slot| slot.unwrap()).collect();
            filled.sort_unstable();
            assert_eq!(filled, (0..24).collect::<Vec<_>>(), "seed {seed}");
            for i in 0..24 {
                for j in i + 1..24 {
                    let (a, b) = (slots[assigned[i].unwrap()], slots[assigned[j].unwrap()]);
                    assert!(
                        !cross(members[i], a, members[j], b),
                        "seed {seed}: members {i} and {j} cross"
                    );
                }
            }
        }
    }

    #[test]
    fn previous_slots_are_kept_when_nothing_is_gained() {
        let members = [level(0.0, 0.0), level(10.0, 0.0)];
        let slots = [level(0.0, 5.0), level(10.0, 5.0)];
        assert_eq!(
            assign_slots(&members, &slots, &[Some(0), Some(1)]),
            vec![Some(0), Some(1)]
        );
        // A previous assignment that crosses is untangled.
        assert_eq!(
            assign_slots(&members, &slots, &[Some(1), Some(0)]),
            vec![Some(0), Some(1)]
        );
        // Stale or doubled previous slots are ignored.
        assert_eq!(
            assign_slots(&members, &slots, &[Some(7), Some(7)]),
            vec![Some(0), Some(1)]
        );
    }

    #[test]
    fn more_members_than_slots_leaves_the_furthest_without_and_fewer_fill_the_nearest() {
        let members = [level(0.0, 0.0), level(100.0, 0.0), level(1.0, 0.0)];
        let slots = [level(0.0, 1.0), level(2.0, 1.0)];
        assert_eq!(
            assign_slots(&members, &slots, &[None, Some(0), None]),
            vec![Some(0), None, Some(1)]
        );
        let one = assign_slots(&[level(2.0, 0.0)], &slots, &[]);
        assert_eq!(one, vec![Some(1)]);
        // Not finite: still an assignment, no panic.
        let lost = [Vector::splat(f32::NAN), level(0.0, 0.0)];
        let assigned = assign_slots(&lost, &slots, &[]);
        assert!(assigned.iter().all(Option::is_some));
        assert!(assign_slots(&[], &slots, &[]).is_empty());
        assert_eq!(assign_slots(&members, &[], &[]), vec![None; 3]);
    }
}
