//! The widest lane code: sixteen candidates at a time in AVX-512 registers, used where the
//! processor has AVX-512F (checked at run time). The same arithmetic as [`super::sse`] and
//! [`super::avx`]; AVX-512's mask registers select each rule's lanes, so a run's last, partial
//! batch needs no padding.

use super::steer::{BoidQuery, Run, Sorted};
use crate::rules::RuleSums;

pub(super) use x86::{accumulate_runs, available};

mod x86 {
    use std::arch::x86_64::*;

    use super::{BoidQuery, RuleSums, Run, Sorted};
    use crate::math::Vector;

    const LANES: usize = 16;

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
        heading_x: __m512,
        heading_y: __m512,
        cos_half_view: __m512,
        separation_squared: __m512,
        alignment_squared: __m512,
        cohesion_squared: __m512,
        away_x: __m512,
        away_y: __m512,
        separation: __m512,
        velocity_x: __m512,
        velocity_y: __m512,
        alignment: __m512,
        offset_x: __m512,
        offset_y: __m512,
        cohesion: __m512,
    }

    #[target_feature(enable = "avx512f")]
    fn accumulate_runs_avx512(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        let zero = _mm512_setzero_ps();
        let mut lanes = Lanes {
            heading_x: _mm512_set1_ps(query.heading.x),
            heading_y: _mm512_set1_ps(query.heading.y),
            cos_half_view: _mm512_set1_ps(query.cos_half_view.unwrap_or(-1.0)),
            separation_squared: _mm512_set1_ps(query.separation_squared),
            alignment_squared: _mm512_set1_ps(query.alignment_squared),
            cohesion_squared: _mm512_set1_ps(query.cohesion_squared),
            away_x: zero,
            away_y: zero,
            separation: zero,
            velocity_x: zero,
            velocity_y: zero,
            alignment: zero,
            offset_x: zero,
            offset_y: zero,
            cohesion: zero,
        };
        for run in runs {
            let origin = query.position - run.offset;
            let origin = (_mm512_set1_ps(origin.x), _mm512_set1_ps(origin.y));
            if query.cos_half_view.is_some() {
                add_run::<true>(&mut lanes, sorted, run, origin);
            } else {
                add_run::<false>(&mut lanes, sorted, run, origin);
            }
        }
        RuleSums {
            away: Vector::new(
                _mm512_reduce_add_ps(lanes.away_x),
                _mm512_reduce_add_ps(lanes.away_y),
            ),
            separation_count: _mm512_reduce_add_ps(lanes.separation),
            velocity_sum: Vector::new(
                _mm512_reduce_add_ps(lanes.velocity_x),
                _mm512_reduce_add_ps(lanes.velocity_y),
            ),
            alignment_count: _mm512_reduce_add_ps(lanes.alignment),
            offset_sum: Vector::new(
                _mm512_reduce_add_ps(lanes.offset_x),
                _mm512_reduce_add_ps(lanes.offset_y),
            ),
            cohesion_count: _mm512_reduce_add_ps(lanes.cohesion),
            neighbours: 0.0,
        }
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn add_run<const FIELD_OF_VIEW: bool>(
        lanes: &mut Lanes,
        sorted: &Sorted,
        run: &Run,
        origin: (__m512, __m512),
    ) {
        let mut start = run.start;
        while start + LANES <= run.end {
            let slots = start..start + LANES;
            let batch = [sorted.xs, sorted.ys, sorted.vxs, sorted.vys]
                .map(|column| load(&column[slots.clone()]));
            add::<FIELD_OF_VIEW>(lanes, batch, origin, u16::MAX);
            start += LANES;
        }
        if start < run.end {
            // The last, partial batch: only the lanes of the slots `start..run.end` are loaded,
            // the others are zero and masked off, so no slot outside the run is read.
            let keep = ((1u32 << (run.end - start)) - 1) as u16;
            let batch = [sorted.xs, sorted.ys, sorted.vxs, sorted.vys]
                .map(|column| load_masked(&column[start..run.end], keep));
            add::<FIELD_OF_VIEW>(lanes, batch, origin, keep);
        }
    }

    /// One batch of sixteen candidates (x, y, vx, vy), lanes outside `keep` ignored: the same
    /// arithmetic as the portable lanes' `add`, sixteen lanes wide.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn add<const FIELD_OF_VIEW: bool>(
        lanes: &mut Lanes,
        [x, y, vx, vy]: [__m512; 4],
        (origin_x, origin_y): (__m512, __m512),
        keep: __mmask16,
    ) {
        let one = _mm512_set1_ps(1.0);
        let dx = _mm512_sub_ps(x, origin_x);
        let dy = _mm512_sub_ps(y, origin_y);
        let distance_squared = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
        let mut counts =
            keep & _mm512_cmp_ps_mask::<_CMP_GT_OQ>(distance_squared, _mm512_setzero_ps());
        if FIELD_OF_VIEW {
            let ahead = _mm512_add_ps(
                _mm512_mul_ps(dx, lanes.heading_x),
                _mm512_mul_ps(dy, lanes.heading_y),
            );
            let cone = _mm512_mul_ps(lanes.cos_half_view, _mm512_sqrt_ps(distance_squared));
            counts &= _mm512_cmp_ps_mask::<_CMP_GE_OQ>(ahead, cone);
        }
        let inside = |radius_squared| {
            counts & _mm512_cmp_ps_mask::<_CMP_LT_OQ>(distance_squared, radius_squared)
        };
        let separation = inside(lanes.separation_squared);
        let alignment = inside(lanes.alignment_squared);
        let cohesion = inside(lanes.cohesion_squared);
        // The subtraction is masked, not the factor: `inf * 0` is NaN for a slot whose
        // position is not finite.
        let inverse = _mm512_maskz_div_ps(separation, one, distance_squared);
        let away_x = _mm512_mul_ps(dx, inverse);
        let away_y = _mm512_mul_ps(dy, inverse);
        lanes.away_x = _mm512_mask_sub_ps(lanes.away_x, separation, lanes.away_x, away_x);
        lanes.away_y = _mm512_mask_sub_ps(lanes.away_y, separation, lanes.away_y, away_y);
        lanes.separation = _mm512_mask_add_ps(lanes.separation, separation, lanes.separation, one);
        lanes.velocity_x = _mm512_mask_add_ps(lanes.velocity_x, alignment, lanes.velocity_x, vx);
        lanes.velocity_y = _mm512_mask_add_ps(lanes.velocity_y, alignment, lanes.velocity_y, vy);
        lanes.alignment = _mm512_mask_add_ps(lanes.alignment, alignment, lanes.alignment, one);
        lanes.offset_x = _mm512_mask_add_ps(lanes.offset_x, cohesion, lanes.offset_x, dx);
        lanes.offset_y = _mm512_mask_add_ps(lanes.offset_y, cohesion, lanes.offset_y, dy);
        lanes.cohesion = _mm512_mask_add_ps(lanes.cohesion, cohesion, lanes.cohesion, one);
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
}
