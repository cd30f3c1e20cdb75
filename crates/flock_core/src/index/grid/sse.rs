//! The portable lane code: four candidates at a time in `glam::Vec4`, which is SIMD-backed
//! (SSE2 on x86_64, NEON on aarch64), so this is vector code without any `unsafe`.
//!
//! Every vector quantity is an array of one `Vec4` per axis; loops over the axes have a
//! constant length, so they unroll into the same code as writing x and y (and z) out. The sums
//! are kept in four registers of four, the sixteen logical lanes every width adds in (see
//! [`super::steer`]).

use glam::{BVec4A, Vec4};

use super::pass::{BoidQuery, EMPTY, LOGICAL_LANES, Run, Sorted, add_each_run, sum_four};
use crate::math::{DIMENSIONS, Vector};
use crate::rules::RuleSums;

const LANES: usize = 4;

/// Registers of four that make up the sixteen logical lanes.
const QUARTERS: usize = LOGICAL_LANES / LANES;

/// One value per axis, each in every lane.
type Axes = [Vec4; DIMENSIONS];

/// Sums the rules over every candidate of `runs`.
pub(super) fn accumulate_runs(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
    let mut lanes = Lanes::default();
    let constants = Constants::new(query);
    add_each_run!(
        &mut lanes,
        sorted,
        runs,
        query,
        Vec4::splat,
        Lanes::add_run,
        &constants
    );
    lanes.total()
}

/// The query's values, in every lane.
struct Constants {
    heading: Axes,
    cos_half_view: Vec4,
    separation_squared: Vec4,
    alignment_squared: Vec4,
    cohesion_squared: Vec4,
}

impl Constants {
    fn new(query: &BoidQuery) -> Self {
        Self {
            heading: std::array::from_fn(|axis| Vec4::splat(query.heading[axis])),
            cos_half_view: Vec4::splat(query.cos_half_view.unwrap_or(-1.0)),
            separation_squared: Vec4::splat(query.separation_squared),
            alignment_squared: Vec4::splat(query.alignment_squared),
            cohesion_squared: Vec4::splat(query.cohesion_squared),
        }
    }
}

/// The vector sums of four logical lanes.
#[derive(Default)]
struct Quarter {
    away: Axes,
    velocity: Axes,
    offset: Axes,
}

/// Per-lane partial sums: the vector sums in sixteen logical lanes, the counts (whole numbers,
/// exact in any order) in four.
#[derive(Default)]
struct Lanes {
    quarters: [Quarter; QUARTERS],
    separation: Vec4,
    alignment: Vec4,
    cohesion: Vec4,
}

/// One batch of candidates: positions and velocities, one `Vec4` per axis.
struct Batch {
    position: Axes,
    velocity: Axes,
}

impl Lanes {
    #[inline(always)]
    fn add_run<const FIELD_OF_VIEW: bool, const SHARED_REACH: bool>(
        &mut self,
        sorted: &Sorted,
        run: &Run,
        origin: &Axes,
        constants: &Constants,
    ) {
        let mut start = run.start;
        while start + LOGICAL_LANES <= run.end {
            for quarter in 0..QUARTERS {
                let batch = Batch {
                    position: load(&sorted.coordinates, start + quarter * LANES),
                    velocity: load(&sorted.speeds, start + quarter * LANES),
                };
                self.add::<FIELD_OF_VIEW, SHARED_REACH>(quarter, &batch, origin, constants);
            }
            start += LOGICAL_LANES;
        }
        // The last, partial sixteen: batches of four from `start`, the lanes past the run's end
        // at the EMPTY position, where they count for nothing (the sorted arrays are padded,
        // so the loads stay inside them).
        for quarter in 0..QUARTERS {
            let first = start + quarter * LANES;
            if first >= run.end {
                break;
            }
            let keep = Vec4::new(0.0, 1.0, 2.0, 3.0).cmplt(Vec4::splat((run.end - first) as f32));
            let empty = Vec4::splat(EMPTY);
            let batch = Batch {
                position: load(&sorted.coordinates, first)
                    .map(|axis| Vec4::select(keep, axis, empty)),
                velocity: load(&sorted.speeds, first),
            };
            self.add::<FIELD_OF_VIEW, SHARED_REACH>(quarter, &batch, origin, constants);
        }
    }

    /// One batch of candidates into logical lanes `4 * quarter ..`: distance, field of view
    /// and each rule's share, in all lanes at once; each rule's mask selects its contribution.
    /// With `SHARED_REACH`, cohesion's lanes are alignment's and its count is not kept (see
    /// [`BoidQuery::shared_reach`]).
    #[inline(always)]
    fn add<const FIELD_OF_VIEW: bool, const SHARED_REACH: bool>(
        &mut self,
        quarter: usize,
        batch: &Batch,
        origin: &Axes,
        constants: &Constants,
    ) {
        let offset: Axes = std::array::from_fn(|axis| batch.position[axis] - origin[axis]);
        let distance_squared = dot(&offset, &offset);
        // Distance zero is the boid itself, or one on the very same spot (skipped, as in
        // the Unity port of Processing's *Flocking*).
        let mut counts = distance_squared.cmpgt(Vec4::ZERO);
        if FIELD_OF_VIEW {
            // Inside the cone around the heading (a wedge in 2D).
            let ahead = dot(&offset, &constants.heading);
            counts &= ahead.cmpge(constants.cos_half_view * distance_squared.sqrt());
        }
        let separation = counts & distance_squared.cmplt(constants.separation_squared);
        let alignment = counts & distance_squared.cmplt(constants.alignment_squared);
        let cohesion = if SHARED_REACH {
            alignment
        } else {
            counts & distance_squared.cmplt(constants.cohesion_squared)
        };
        // Mask both factors: the inverse is infinite for the boid itself, a slot whose position
        // is not finite has an infinite or NaN offset, and `inf * 0` is NaN, which would poison
        // every sum it meets. Outside the mask the sum then gains `-(0 * 0)`, which changes no
        // sum.
        let inverse = Vec4::select(separation, Vec4::ONE / distance_squared, Vec4::ZERO);
        let sums = &mut self.quarters[quarter];
        for (away, offset) in sums.away.iter_mut().zip(&offset) {
            let offset_near = Vec4::select(separation, *offset, Vec4::ZERO);
            *away = mul_add(-offset_near, inverse, *away);
        }
        self.separation += ones(separation);
        for (sum, velocity) in sums.velocity.iter_mut().zip(&batch.velocity) {
            *sum += Vec4::select(alignment, *velocity, Vec4::ZERO);
        }
        self.alignment += ones(alignment);
        for (sum, offset) in sums.offset.iter_mut().zip(&offset) {
            *sum += Vec4::select(cohesion, *offset, Vec4::ZERO);
        }
        if !SHARED_REACH {
            self.cohesion += ones(cohesion);
        }
    }

    fn total(&self) -> RuleSums {
        let [first, second, third, fourth] = &self.quarters;
        // The shared tree: logical lane i plus i + 8 (quarters 0 + 2 and 1 + 3), then i plus
        // i + 4 (the two results), then the last four lanes.
        let sum = |pick: fn(&Quarter) -> &Axes| {
            let mut total = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                let low = pick(first)[axis] + pick(third)[axis];
                let high = pick(second)[axis] + pick(fourth)[axis];
                total[axis] = sum_four((low + high).to_array());
            }
            total
        };
        RuleSums {
            away: sum(|quarter| &quarter.away),
            separation_count: self.separation.element_sum(),
            velocity_sum: sum(|quarter| &quarter.velocity),
            alignment_count: self.alignment.element_sum(),
            offset_sum: sum(|quarter| &quarter.offset),
            cohesion_count: self.cohesion.element_sum(),
            neighbours: 0.0,
        }
    }
}

/// The four slots from `start` of every axis' column.
#[inline(always)]
fn load(columns: &[&[f32]; DIMENSIONS], start: usize) -> Axes {
    std::array::from_fn(|axis| Vec4::from_slice(&columns[axis][start..start + LANES]))
}

/// The dot product of two vectors, lane by lane, each product rounded and added in axis order:
/// the rounding of `Vector::dot` and `length_squared`, which the reference path
/// ([`crate::rule_forces`]) measures with. Whether a boid lies inside a radius or the view cone
/// is then decided alike by every index and lane width, to the last boid on the edge; a fused
/// multiply-add here would count some of those otherwise.
#[inline(always)]
fn dot(a: &Axes, b: &Axes) -> Vec4 {
    (1..DIMENSIONS).fold(a[0] * b[0], |sum, axis| sum + a[axis] * b[axis])
}

/// `a * b + c` in every lane, rounded once, as the wider lanes' fused instructions round it:
/// one instruction where the build targets one (NEON; x86_64 built for processors with FMA),
/// else lane by lane in software through the pure-Rust `libm`, exactly rounded as well. On
/// x86_64 these lanes run only on processors without AVX and FMA, or when forced.
#[inline(always)]
fn mul_add(a: Vec4, b: Vec4, c: Vec4) -> Vec4 {
    #[cfg(any(target_feature = "fma", target_arch = "aarch64"))]
    let fused = a.mul_add(b, c);
    #[cfg(not(any(target_feature = "fma", target_arch = "aarch64")))]
    let fused = Vec4::from_array(std::array::from_fn(|lane| {
        libm::fmaf(a[lane], b[lane], c[lane])
    }));
    fused
}

/// 1 in the lanes where `mask` is set, 0 elsewhere.
#[inline(always)]
fn ones(mask: BVec4A) -> Vec4 {
    Vec4::select(mask, Vec4::ONE, Vec4::ZERO)
}
