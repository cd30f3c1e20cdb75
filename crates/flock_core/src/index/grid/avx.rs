//! The wide lane code: eight candidates at a time in AVX registers, used where the processor
//! has AVX and FMA (checked at run time, so the crate still runs on any x86_64). It does
//! exactly what [`super::sse`] does, lane for lane, one register per axis; the sums are kept
//! in two registers of eight, the sixteen logical lanes every width adds in (see
//! [`super::steer`]).

use super::pass::{BoidQuery, Run, Sorted};
use crate::rules::RuleSums;

pub(super) use x86::{accumulate_runs, available};

mod x86 {
    use std::arch::x86_64::*;

    use super::super::pass::{EMPTY, LOGICAL_LANES, add_each_run, sum_four};
    use super::{BoidQuery, RuleSums, Run, Sorted};
    use crate::math::{DIMENSIONS, Vector};

    const LANES: usize = 8;

    /// Registers of eight that make up the sixteen logical lanes.
    const HALVES: usize = LOGICAL_LANES / LANES;

    /// One value per axis, in eight lanes.
    type Axes = [__m256; DIMENSIONS];

    /// Whether this processor runs the AVX lanes: AVX and FMA (the answers are cached by the
    /// standard library). The few processors with AVX and without FMA (Sandy Bridge and Ivy
    /// Bridge) take the portable lanes.
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx") && std::is_x86_feature_detected!("fma")
    }

    /// Sums the rules over every candidate of `runs`, eight lanes at a time.
    pub fn accumulate_runs(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        if available() {
            // SAFETY: the processor has AVX and FMA, which is all `accumulate_runs_avx` needs.
            unsafe { accumulate_runs_avx(sorted, runs, query) }
        } else {
            super::super::sse::accumulate_runs(sorted, runs, query)
        }
    }

    /// The vector sums of eight logical lanes.
    #[derive(Clone, Copy)]
    struct Half {
        away: Axes,
        velocity: Axes,
        offset: Axes,
    }

    /// The query's values in every lane, and the per-lane partial sums: the vector sums in
    /// sixteen logical lanes, the counts (whole numbers, exact in any order) in eight.
    struct Lanes {
        heading: Axes,
        cos_half_view: __m256,
        separation_squared: __m256,
        alignment_squared: __m256,
        cohesion_squared: __m256,
        halves: [Half; HALVES],
        separation: __m256,
        alignment: __m256,
        cohesion: __m256,
    }

    #[target_feature(enable = "avx,fma")]
    fn accumulate_runs_avx(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        let zero = _mm256_setzero_ps();
        let mut lanes = Lanes {
            heading: std::array::from_fn(|axis| _mm256_set1_ps(query.heading[axis])),
            cos_half_view: _mm256_set1_ps(query.cos_half_view.unwrap_or(-1.0)),
            separation_squared: _mm256_set1_ps(query.separation_squared),
            alignment_squared: _mm256_set1_ps(query.alignment_squared),
            cohesion_squared: _mm256_set1_ps(query.cohesion_squared),
            halves: [Half {
                away: [zero; DIMENSIONS],
                velocity: [zero; DIMENSIONS],
                offset: [zero; DIMENSIONS],
            }; HALVES],
            separation: zero,
            alignment: zero,
            cohesion: zero,
        };
        add_each_run!(&mut lanes, sorted, runs, query, _mm256_set1_ps, add_run);
        let [low, high] = &lanes.halves;
        RuleSums {
            away: sum_axes(&low.away, &high.away),
            separation_count: sum(lanes.separation),
            velocity_sum: sum_axes(&low.velocity, &high.velocity),
            alignment_count: sum(lanes.alignment),
            offset_sum: sum_axes(&low.offset, &high.offset),
            cohesion_count: sum(lanes.cohesion),
            neighbours: 0.0,
        }
    }

    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn add_run<const FIELD_OF_VIEW: bool, const SHARED_REACH: bool>(
        lanes: &mut Lanes,
        sorted: &Sorted,
        run: &Run,
        origin: &Axes,
    ) {
        let mut start = run.start;
        while start + LOGICAL_LANES <= run.end {
            for half in 0..HALVES {
                let position = load(&sorted.coordinates, start + half * LANES);
                let velocity = load(&sorted.speeds, start + half * LANES);
                add::<FIELD_OF_VIEW, SHARED_REACH>(lanes, half, &position, &velocity, origin);
            }
            start += LOGICAL_LANES;
        }
        // The last, partial sixteen: batches of eight from `start`, the lanes past the run's
        // end at the EMPTY position, where they count for nothing (the sorted arrays are
        // padded, so the loads stay inside them).
        for half in 0..HALVES {
            let first = start + half * LANES;
            if first >= run.end {
                break;
            }
            let keep = _mm256_cmp_ps::<_CMP_LT_OQ>(
                _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0),
                _mm256_set1_ps((run.end - first) as f32),
            );
            let empty = _mm256_set1_ps(EMPTY);
            let position =
                load(&sorted.coordinates, first).map(|axis| _mm256_blendv_ps(empty, axis, keep));
            let velocity = load(&sorted.speeds, first);
            add::<FIELD_OF_VIEW, SHARED_REACH>(lanes, half, &position, &velocity, origin);
        }
    }

    /// One batch of eight candidates into logical lanes `8 * half ..`: the same arithmetic as
    /// the portable lanes' `add`, eight lanes wide. With `SHARED_REACH`, cohesion's lanes are
    /// alignment's and its count is not kept (see [`BoidQuery::shared_reach`]).
    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn add<const FIELD_OF_VIEW: bool, const SHARED_REACH: bool>(
        lanes: &mut Lanes,
        half: usize,
        position: &Axes,
        velocity: &Axes,
        origin: &Axes,
    ) {
        let zero = _mm256_setzero_ps();
        let one = _mm256_set1_ps(1.0);
        let offset: Axes = std::array::from_fn(|axis| _mm256_sub_ps(position[axis], origin[axis]));
        let distance_squared = dot(&offset, &offset);
        let mut counts = _mm256_cmp_ps::<_CMP_GT_OQ>(distance_squared, zero);
        if FIELD_OF_VIEW {
            let ahead = dot(&offset, &lanes.heading);
            let cone = _mm256_mul_ps(lanes.cos_half_view, _mm256_sqrt_ps(distance_squared));
            counts = _mm256_and_ps(counts, _mm256_cmp_ps::<_CMP_GE_OQ>(ahead, cone));
        }
        let inside = |radius_squared| {
            _mm256_and_ps(
                counts,
                _mm256_cmp_ps::<_CMP_LT_OQ>(distance_squared, radius_squared),
            )
        };
        let separation = inside(lanes.separation_squared);
        let alignment = inside(lanes.alignment_squared);
        let cohesion = if SHARED_REACH {
            alignment
        } else {
            inside(lanes.cohesion_squared)
        };
        // A mask is all ones or all zeros per lane: `and` keeps a value or zeroes it. The
        // separation term masks both factors: the inverse is infinite for the boid itself, and
        // the offset for a slot whose position is not finite, and `inf * 0` is NaN.
        let inverse = _mm256_and_ps(separation, _mm256_div_ps(one, distance_squared));
        let sums = &mut lanes.halves[half];
        for axis in 0..DIMENSIONS {
            let offset_near = _mm256_and_ps(separation, offset[axis]);
            sums.away[axis] = _mm256_fnmadd_ps(offset_near, inverse, sums.away[axis]);
            let moving = _mm256_and_ps(alignment, velocity[axis]);
            sums.velocity[axis] = _mm256_add_ps(sums.velocity[axis], moving);
            let towards = _mm256_and_ps(cohesion, offset[axis]);
            sums.offset[axis] = _mm256_add_ps(sums.offset[axis], towards);
        }
        lanes.separation = _mm256_add_ps(lanes.separation, _mm256_and_ps(separation, one));
        lanes.alignment = _mm256_add_ps(lanes.alignment, _mm256_and_ps(alignment, one));
        if !SHARED_REACH {
            lanes.cohesion = _mm256_add_ps(lanes.cohesion, _mm256_and_ps(cohesion, one));
        }
    }

    /// The dot product of two vectors, lane by lane, rounded as `Vector::dot` rounds it (see
    /// the portable lanes' `dot`).
    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn dot(a: &Axes, b: &Axes) -> __m256 {
        let mut sum = _mm256_mul_ps(a[0], b[0]);
        for axis in 1..DIMENSIONS {
            sum = _mm256_add_ps(sum, _mm256_mul_ps(a[axis], b[axis]));
        }
        sum
    }

    /// The eight slots from `start` of every axis' column.
    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn load(columns: &[&[f32]; DIMENSIONS], start: usize) -> Axes {
        std::array::from_fn(|axis| load_lane(&columns[axis][start..start + LANES]))
    }

    /// Eight consecutive values.
    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn load_lane(values: &[f32]) -> __m256 {
        assert!(values.len() >= LANES);
        // SAFETY: `values` holds at least eight f32, and the load needs no alignment.
        unsafe { _mm256_loadu_ps(values.as_ptr()) }
    }

    /// The sums of the sixteen logical lanes of each axis, `low` holding lanes 0-7 and `high`
    /// lanes 8-15, by the shared tree.
    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn sum_axes(low: &Axes, high: &Axes) -> Vector {
        let mut total = Vector::ZERO;
        for axis in 0..DIMENSIONS {
            total[axis] = sum(_mm256_add_ps(low[axis], high[axis]));
        }
        total
    }

    /// The sum of eight lanes by the shared tree: lane i plus lane i + 4, then the last four.
    #[target_feature(enable = "avx,fma")]
    #[inline]
    fn sum(lanes: __m256) -> f32 {
        let four = _mm_add_ps(
            _mm256_castps256_ps128(lanes),
            _mm256_extractf128_ps::<1>(lanes),
        );
        let mut values = [0.0f32; 4];
        // SAFETY: `values` has room for four f32, and the store needs no alignment.
        unsafe { _mm_storeu_ps(values.as_mut_ptr(), four) };
        sum_four(values)
    }
}
