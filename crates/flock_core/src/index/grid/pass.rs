//! What the steering pass ([`super::steer`]) hands its lane code ([`super::sse`],
//! [`super::avx`], [`super::avx512`]), and the order every width adds in: the sorted columns a
//! lane reads, the runs of candidates, one boid's question, the sixteen logical lanes and the
//! last step of their reduction tree. The pass calls down into the lanes, the lanes read these
//! and nothing of the pass.

use crate::math::{DIMENSIONS, Vector};

/// The sorted columns the lanes read: one array per axis, in cell order, then [`PADDING`].
#[derive(Clone, Copy)]
pub(super) struct Sorted<'a> {
    /// Positions, one array per axis.
    pub coordinates: [&'a [f32]; DIMENSIONS],
    /// Velocities, one array per axis.
    pub speeds: [&'a [f32]; DIMENSIONS],
}

impl Sorted<'_> {
    /// The position of the boid in sorted `slot`.
    #[inline]
    pub fn position(&self, slot: usize) -> Vector {
        gather_axes(&self.coordinates, slot)
    }

    /// The velocity of the boid in sorted `slot`.
    #[inline]
    pub fn velocity(&self, slot: usize) -> Vector {
        gather_axes(&self.speeds, slot)
    }
}

/// The vector in `slot` of arrays held one per axis.
#[inline]
fn gather_axes(axes: &[&[f32]; DIMENSIONS], slot: usize) -> Vector {
    let mut vector = Vector::ZERO;
    for axis in 0..DIMENSIONS {
        vector[axis] = axes[axis][slot];
    }
    vector
}

/// The logical lanes every width sums in (see [`super::steer`]'s docs).
pub(super) const LOGICAL_LANES: usize = 16;

/// Slots past the last boid in the sorted arrays (positions NaN, velocities zero), so a batch
/// that starts inside a run may always load a full register: the lanes past the run's end are
/// masked off, and past the last boid they read the padding instead of beyond the buffer.
pub(super) const PADDING: usize = LOGICAL_LANES;

/// The position of lanes past a run's end: NaN, whose distance fails every comparison, so it
/// is nobody's neighbour wherever the boid is (a finite "far away" spot would be somebody's
/// neighbour in a world without edges), and every sum masks its products.
pub(super) const EMPTY: f32 = f32::NAN;

/// The last step of the fixed reduction tree shared by every width: sixteen logical lanes are
/// first halved (lane `i` plus lane `i + 8`), then halved again (`i` plus `i + 4`), giving four
/// lanes `[a, b, c, d]` that this adds as `(a + c) + (b + d)`.
#[inline(always)]
pub(super) fn sum_four(lanes: [f32; 4]) -> f32 {
    (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])
}

/// Sorted slots `start..end` to compare against, seen from `offset` (one world size across a
/// seam, else zero): a neighbour through the seam is `x + offset` away.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Run {
    pub start: usize,
    pub end: usize,
    pub offset: Vector,
}

/// One boid's question to its candidates.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoidQuery {
    pub position: Vector,
    /// Unit heading; only read when `cos_half_view` is set.
    pub heading: Vector,
    /// Cosine of half the view angle, when the boid has a limited view and a heading.
    pub cos_half_view: Option<f32>,
    pub separation_squared: f32,
    pub alignment_squared: f32,
    pub cohesion_squared: f32,
    /// Whether alignment and cohesion share a radius (every preset): the lanes then compare
    /// once for both rules and leave cohesion's count to the pass, which copies alignment's.
    pub shared_reach: bool,
}

/// Every run of a boid's candidates into `$lanes`, through the lane code's
/// `add_run::<FIELD_OF_VIEW, SHARED_REACH>($lanes, $sorted, run, &origin, $extra...)`, its
/// constant flags picked once per run from the query; `$splat` fills a register with one
/// value. A macro rather than a function, so each width's `#[target_feature]` code stays one
/// inlined body.
macro_rules! add_each_run {
    (
        $lanes:expr, $sorted:expr, $runs:expr, $query:expr, $splat:expr,
        $($add_run:ident)::+ $(, $extra:expr)*
    ) => {
        for run in $runs {
            let origin = $query.position - run.offset;
            let origin: Axes = std::array::from_fn(|axis| $splat(origin[axis]));
            match ($query.cos_half_view.is_some(), $query.shared_reach) {
                (true, true) => {
                    $($add_run)::+::<true, true>($lanes, $sorted, run, &origin $(, $extra)*)
                }
                (true, false) => {
                    $($add_run)::+::<true, false>($lanes, $sorted, run, &origin $(, $extra)*)
                }
                (false, true) => {
                    $($add_run)::+::<false, true>($lanes, $sorted, run, &origin $(, $extra)*)
                }
                (false, false) => {
                    $($add_run)::+::<false, false>($lanes, $sorted, run, &origin $(, $extra)*)
                }
            }
        }
    };
}
pub(super) use add_each_run;
