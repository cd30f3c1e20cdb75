//! The widest lane code: sixteen candidates at a time in AVX-512 registers, used where the
//! processor has AVX-512F (checked at run time). The same arithmetic as [`super::sse`] and
//! [`super::avx`], one register per axis; AVX-512's mask registers select each rule's lanes,
//! so a run's last, partial batch needs no padding. The sixteen lanes are the sixteen logical
//! lanes every width adds in (see [`super::steer`]), summed by the same tree.

use super::pass::{BoidQuery, Run, Sorted};
use crate::rules::RuleSums;

pub(super) use x86::{accumulate_runs, available};

mod x86 {
    use std::arch::x86_64::*;

    use super::super::pass::add_each_run;
    use super::{BoidQuery, RuleSums, Run, Sorted};
    use crate::math::{DIMENSIONS, Vector};

    const LANES: usize = 16;

    /// One value per axis, in sixteen lanes.
    type Axes = [__m512; DIMENSIONS];

    /// Whether this processor runs the AVX-512 lanes (cached by the standard library).
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx512f")
    }

    /// Sums the rules over every candidate of `runs`, sixteen lanes at a time.
    pub fn accumulate_runs(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        if available() {
            // SAFETY: the processor has AVX-512F, which is all `accumulate_runs_avx512` needs.
            unsafe { accumulate_runs_avx512(sorted, runs, query) }
        } else {
            super::super::avx::accumulate_runs(sorted, runs, query)
        }
    }

    /// The query's values in every lane, and the per-lane partial sums.
    struct Lanes {
        heading: Axes,
        cos_half_view: __m512,
        separation_squared: __m512,
        alignment_squared: __m512,
        cohesion_squared: __m512,
        away: Axes,
        separation: __m512,
        velocity: Axes,
        alignment: __m512,
        offset: Axes,
        cohesion: __m512,
    }

    #[target_feature(enable = "avx512f")]
    fn accumulate_runs_avx512(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        let zero = _mm512_setzero_ps();
        let mut lanes = Lanes {
            heading: std::array::from_fn(|axis| _mm512_set1_ps(query.heading[axis])),
            cos_half_view: _mm512_set1_ps(query.cos_half_view.unwrap_or(-1.0)),
            separation_squared: _mm512_set1_ps(query.separation_squared),
            alignment_squared: _mm512_set1_ps(query.alignment_squared),
            cohesion_squared: _mm512_set1_ps(query.cohesion_squared),
            away: [zero; DIMENSIONS],
            separation: zero,
            velocity: [zero; DIMENSIONS],
            alignment: zero,
            offset: [zero; DIMENSIONS],
            cohesion: zero,
        };
        add_each_run!(&mut lanes, sorted, runs, query, _mm512_set1_ps, add_run);
        // Every sum's registers in one list (three rules of an axis each and a count), summed
        // four registers at a time.
        let mut registers = [zero; SUMS];
        let rules = [
            (&lanes.away, lanes.separation),
            (&lanes.velocity, lanes.alignment),
            (&lanes.offset, lanes.cohesion),
        ];
        for (rule, (axes, count)) in rules.into_iter().enumerate() {
            let first = rule * (DIMENSIONS + 1);
            registers[first..first + DIMENSIONS].copy_from_slice(axes);
            registers[first + DIMENSIONS] = count;
        }
        let sums = sum_each(registers);
        let rule = |rule: usize| {
            let first = rule * (DIMENSIONS + 1);
            let mut total = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                total[axis] = sums[first + axis];
            }
            (total, sums[first + DIMENSIONS])
        };
        let (
            (away, separation_count),
            (velocity_sum, alignment_count),
            (offset_sum, cohesion_count),
        ) = (rule(0), rule(1), rule(2));
        RuleSums {
            away,
            separation_count,
            velocity_sum,
            alignment_count,
            offset_sum,
            cohesion_count,
            neighbours: 0.0,
        }
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn add_run<const FIELD_OF_VIEW: bool, const SHARED_REACH: bool>(
        lanes: &mut Lanes,
        sorted: &Sorted,
        run: &Run,
        origin: &Axes,
    ) {
        let mut start = run.start;
        while start + LANES <= run.end {
            let load = |columns: &[&[f32]; DIMENSIONS]| -> Axes {
                std::array::from_fn(|axis| load(&columns[axis][start..start + LANES]))
            };
            let (position, velocity) = (load(&sorted.coordinates), load(&sorted.speeds));
            add::<FIELD_OF_VIEW, SHARED_REACH>(lanes, &position, &velocity, origin, u16::MAX);
            start += LANES;
        }
        if start < run.end {
            // The last, partial batch: only the lanes of the slots `start..run.end` are loaded,
            // the others are zero and masked off, so no slot outside the run is read.
            let keep = ((1u32 << (run.end - start)) - 1) as u16;
            let load = |columns: &[&[f32]; DIMENSIONS]| -> Axes {
                std::array::from_fn(|axis| load_masked(&columns[axis][start..run.end], keep))
            };
            let (position, velocity) = (load(&sorted.coordinates), load(&sorted.speeds));
            add::<FIELD_OF_VIEW, SHARED_REACH>(lanes, &position, &velocity, origin, keep);
        }
    }

    /// One batch of sixteen candidates, lanes outside `keep` ignored: the same arithmetic as
    /// the portable lanes' `add`, sixteen lanes wide. Each comparison is masked by the lanes
    /// still in play rather than followed by a mask `and` (one instruction instead of two). With
    /// `SHARED_REACH`, cohesion's lanes are alignment's and its count is not kept (see
    /// [`BoidQuery::shared_reach`]).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn add<const FIELD_OF_VIEW: bool, const SHARED_REACH: bool>(
        lanes: &mut Lanes,
        position: &Axes,
        velocity: &Axes,
        origin: &Axes,
        keep: __mmask16,
    ) {
        let one = _mm512_set1_ps(1.0);
        let offset: Axes = std::array::from_fn(|axis| _mm512_sub_ps(position[axis], origin[axis]));
        let distance_squared = dot(&offset, &offset);
        let mut counts =
            _mm512_mask_cmp_ps_mask::<_CMP_GT_OQ>(keep, distance_squared, _mm512_setzero_ps());
        if FIELD_OF_VIEW {
            let ahead = dot(&offset, &lanes.heading);
            let cone = _mm512_mul_ps(lanes.cos_half_view, _mm512_sqrt_ps(distance_squared));
            counts = _mm512_mask_cmp_ps_mask::<_CMP_GE_OQ>(counts, ahead, cone);
        }
        let inside = |radius_squared| {
            _mm512_mask_cmp_ps_mask::<_CMP_LT_OQ>(counts, distance_squared, radius_squared)
        };
        let separation = inside(lanes.separation_squared);
        let alignment = inside(lanes.alignment_squared);
        let cohesion = if SHARED_REACH {
            alignment
        } else {
            inside(lanes.cohesion_squared)
        };
        // The fused subtraction is masked, not the factor: `inf * 0` is NaN for a slot whose
        // position is not finite.
        let inverse = _mm512_maskz_div_ps(separation, one, distance_squared);
        for axis in 0..DIMENSIONS {
            lanes.away[axis] =
                _mm512_mask3_fnmadd_ps(offset[axis], inverse, lanes.away[axis], separation);
            let sum = lanes.velocity[axis];
            lanes.velocity[axis] = _mm512_mask_add_ps(sum, alignment, sum, velocity[axis]);
            let sum = lanes.offset[axis];
            lanes.offset[axis] = _mm512_mask_add_ps(sum, cohesion, sum, offset[axis]);
        }
        lanes.separation = _mm512_mask_add_ps(lanes.separation, separation, lanes.separation, one);
        lanes.alignment = _mm512_mask_add_ps(lanes.alignment, alignment, lanes.alignment, one);
        if !SHARED_REACH {
            lanes.cohesion = _mm512_mask_add_ps(lanes.cohesion, cohesion, lanes.cohesion, one);
        }
    }

    /// The dot product of two vectors, lane by lane, rounded as `Vector::dot` rounds it (see
    /// the portable lanes' `dot`).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn dot(a: &Axes, b: &Axes) -> __m512 {
        let mut sum = _mm512_mul_ps(a[0], b[0]);
        for axis in 1..DIMENSIONS {
            sum = _mm512_add_ps(sum, _mm512_mul_ps(a[axis], b[axis]));
        }
        sum
    }

    /// Sixteen consecutive values.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn load(values: &[f32]) -> __m512 {
        assert!(values.len() >= LANES);
        // SAFETY: `values` holds at least sixteen f32, and the load needs no alignment.
        unsafe { _mm512_loadu_ps(values.as_ptr()) }
    }

    /// The values of the lanes set in `mask`, zeros in the others.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn load_masked(values: &[f32], mask: __mmask16) -> __m512 {
        assert!(values.len() >= LANES - mask.leading_zeros() as usize);
        // SAFETY: only the lanes set in `mask` are read, the highest of which is inside
        // `values`; a masked-off lane touches no memory.
        unsafe { _mm512_maskz_loadu_ps(mask, values.as_ptr()) }
    }

    /// The registers [`sum_each`] sums: a vector and a count for each of the three rules,
    /// padded to a whole number of fours.
    const SUMS: usize = (3 * (DIMENSIONS + 1)).div_ceil(4) * 4;

    /// The sum of each register's sixteen lanes by the shared tree: lane i plus lane i + 8,
    /// then i plus i + 4, then the last four `[a, b, c, d]` as `(a + c) + (b + d)`
    /// ([`sum_four`](super::super::pass::sum_four)'s order). Each level works on four
    /// registers at once, their halves or quarters shuffled side by side, rather than on one
    /// register's at a time.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn sum_each(registers: [__m512; SUMS]) -> [f32; SUMS] {
        // Two registers A and B -> [A(0..8) + A(8..16), B(0..8) + B(8..16)].
        let eights: [__m512; SUMS / 2] = std::array::from_fn(|pair| {
            let (a, b) = (registers[2 * pair], registers[2 * pair + 1]);
            let low = _mm512_shuffle_f32x4::<0b01_00_01_00>(a, b);
            let high = _mm512_shuffle_f32x4::<0b11_10_11_10>(a, b);
            _mm512_add_ps(low, high)
        });
        // Two of those -> four registers' (i) + (i + 4), a quarter each.
        let fours: [__m512; SUMS / 4] = std::array::from_fn(|quad| {
            let (ab, cd) = (eights[2 * quad], eights[2 * quad + 1]);
            let low = _mm512_shuffle_f32x4::<0b10_00_10_00>(ab, cd);
            let high = _mm512_shuffle_f32x4::<0b11_01_11_01>(ab, cd);
            _mm512_add_ps(low, high)
        });
        let mut sums = [0.0; SUMS];
        for (quad, four) in fours.into_iter().enumerate() {
            // Each quarter [a, b, c, d] -> [a + c, b + d, ..] -> (a + c) + (b + d) first.
            let pairs = _mm512_add_ps(four, _mm512_permute_ps::<0b01_00_11_10>(four));
            let total = _mm512_add_ps(pairs, _mm512_permute_ps::<0b10_11_00_01>(pairs));
            let mut lanes = [0.0f32; LANES];
            // SAFETY: `lanes` has room for sixteen f32, and the store needs no alignment.
            unsafe { _mm512_storeu_ps(lanes.as_mut_ptr(), total) };
            for quarter in 0..4 {
                sums[4 * quad + quarter] = lanes[4 * quarter];
            }
        }
        sums
    }
}
