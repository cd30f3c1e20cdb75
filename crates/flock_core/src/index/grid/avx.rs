//! The wide lane code: eight candidates at a time in AVX registers, used where the processor
//! has AVX (checked at run time, so the crate still runs on any x86_64). It does exactly what
//! [`super::sse`] does, lane for lane.

use super::steer::{BoidQuery, Run, Sorted};
use crate::rules::RuleSums;

pub(super) use x86::{accumulate_runs, available};

mod x86 {
    use std::arch::x86_64::*;

    use super::super::sse::EMPTY;
    use super::{BoidQuery, RuleSums, Run, Sorted};
    use crate::math::Vector;

    const LANES: usize = 8;

    /// Whether this processor runs the AVX lanes (the answer is cached by the standard library).
    pub fn available() -> bool {
        std::is_x86_feature_detected!("avx")
    }

    /// Sums the rules over every candidate of `runs`, eight lanes at a time.
    pub fn accumulate_runs(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        if available() {
            // SAFETY: the processor has AVX, which is all `accumulate_runs_avx` needs.
            unsafe { accumulate_runs_avx(sorted, runs, query) }
        } else {
            super::super::sse::accumulate_runs(sorted, runs, query)
        }
    }

    /// The query's values in every lane, and the per-lane partial sums.
    struct Lanes {
        heading_x: __m256,
        heading_y: __m256,
        cos_half_view: __m256,
        separation_squared: __m256,
        alignment_squared: __m256,
        cohesion_squared: __m256,
        away_x: __m256,
        away_y: __m256,
        separation: __m256,
        velocity_x: __m256,
        velocity_y: __m256,
        alignment: __m256,
        offset_x: __m256,
        offset_y: __m256,
        cohesion: __m256,
    }

    #[target_feature(enable = "avx")]
    fn accumulate_runs_avx(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        let zero = _mm256_setzero_ps();
        let mut lanes = Lanes {
            heading_x: _mm256_set1_ps(query.heading.x),
            heading_y: _mm256_set1_ps(query.heading.y),
            cos_half_view: _mm256_set1_ps(query.cos_half_view.unwrap_or(-1.0)),
            separation_squared: _mm256_set1_ps(query.separation_squared),
            alignment_squared: _mm256_set1_ps(query.alignment_squared),
            cohesion_squared: _mm256_set1_ps(query.cohesion_squared),
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
            let origin = (_mm256_set1_ps(origin.x), _mm256_set1_ps(origin.y));
            if query.cos_half_view.is_some() {
                add_run::<true>(&mut lanes, sorted, run, origin);
            } else {
                add_run::<false>(&mut lanes, sorted, run, origin);
            }
        }
        RuleSums {
            away: Vector::new(sum(lanes.away_x), sum(lanes.away_y)),
            separation_count: sum(lanes.separation),
            velocity_sum: Vector::new(sum(lanes.velocity_x), sum(lanes.velocity_y)),
            alignment_count: sum(lanes.alignment),
            offset_sum: Vector::new(sum(lanes.offset_x), sum(lanes.offset_y)),
            cohesion_count: sum(lanes.cohesion),
            neighbours: 0.0,
        }
    }

    #[target_feature(enable = "avx")]
    #[inline]
    fn add_run<const FIELD_OF_VIEW: bool>(
        lanes: &mut Lanes,
        sorted: &Sorted,
        run: &Run,
        origin: (__m256, __m256),
    ) {
        let range = run.start..run.end;
        let xs = sorted.xs[range.clone()].chunks_exact(LANES);
        let ys = sorted.ys[range.clone()].chunks_exact(LANES);
        let vxs = sorted.vxs[range.clone()].chunks_exact(LANES);
        let vys = sorted.vys[range].chunks_exact(LANES);
        let whole = xs.len() * LANES;
        for (((x, y), vx), vy) in xs.zip(ys).zip(vxs).zip(vys) {
            let batch = [load(x), load(y), load(vx), load(vy)];
            add::<FIELD_OF_VIEW>(lanes, batch, origin);
        }
        let done = run.start + whole;
        if done < run.end {
            // The last, partial batch: load the eight slots that end the run (reaching back
            // into slots already done, or before the run) and put the lanes that are not
            // this batch's at the EMPTY position, where they count for nothing.
            let Some(first) = run.end.checked_sub(LANES) else {
                add_padded::<FIELD_OF_VIEW>(lanes, sorted, done, run.end, origin);
                return;
            };
            let slots = first..run.end;
            let keep = _mm256_cmp_ps::<_CMP_GE_OQ>(
                _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0),
                _mm256_set1_ps((done - first) as f32),
            );
            let empty = _mm256_set1_ps(EMPTY);
            let x = _mm256_blendv_ps(empty, load(&sorted.xs[slots.clone()]), keep);
            let y = _mm256_blendv_ps(empty, load(&sorted.ys[slots.clone()]), keep);
            let vx = load(&sorted.vxs[slots.clone()]);
            let vy = load(&sorted.vys[slots]);
            add::<FIELD_OF_VIEW>(lanes, [x, y, vx, vy], origin);
        }
    }

    /// A run shorter than eight in a flock of fewer than eight boids: copy into padded lanes.
    #[target_feature(enable = "avx")]
    #[inline(never)]
    fn add_padded<const FIELD_OF_VIEW: bool>(
        lanes: &mut Lanes,
        sorted: &Sorted,
        start: usize,
        end: usize,
        origin: (__m256, __m256),
    ) {
        let columns = [sorted.xs, sorted.ys, sorted.vxs, sorted.vys];
        let fills = [EMPTY, EMPTY, 0.0, 0.0];
        let mut padded = [[0.0f32; LANES]; 4];
        for ((lane, values), fill) in padded.iter_mut().zip(columns).zip(fills) {
            *lane = [fill; LANES];
            lane[..end - start].copy_from_slice(&values[start..end]);
        }
        let batch = padded.map(|lane| load(&lane));
        add::<FIELD_OF_VIEW>(lanes, batch, origin);
    }

    /// One batch of eight candidates (x, y, vx, vy): the same arithmetic as the portable
    /// lanes' `add`, eight lanes wide.
    #[target_feature(enable = "avx")]
    #[inline]
    fn add<const FIELD_OF_VIEW: bool>(
        lanes: &mut Lanes,
        [x, y, vx, vy]: [__m256; 4],
        (origin_x, origin_y): (__m256, __m256),
    ) {
        let zero = _mm256_setzero_ps();
        let one = _mm256_set1_ps(1.0);
        let dx = _mm256_sub_ps(x, origin_x);
        let dy = _mm256_sub_ps(y, origin_y);
        let distance_squared = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
        let mut counts = _mm256_cmp_ps::<_CMP_GT_OQ>(distance_squared, zero);
        if FIELD_OF_VIEW {
            let ahead = _mm256_add_ps(
                _mm256_mul_ps(dx, lanes.heading_x),
                _mm256_mul_ps(dy, lanes.heading_y),
            );
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
        let cohesion = inside(lanes.cohesion_squared);
        // A mask is all ones or all zeros per lane: `and` keeps a value or zeroes it. It masks
        // the product, not the factor: `inf * 0` is NaN for a slot whose position is not finite.
        let inverse = _mm256_div_ps(one, distance_squared);
        let away_x = _mm256_and_ps(separation, _mm256_mul_ps(dx, inverse));
        let away_y = _mm256_and_ps(separation, _mm256_mul_ps(dy, inverse));
        lanes.away_x = _mm256_sub_ps(lanes.away_x, away_x);
        lanes.away_y = _mm256_sub_ps(lanes.away_y, away_y);
        lanes.separation = _mm256_add_ps(lanes.separation, _mm256_and_ps(separation, one));
        lanes.velocity_x = _mm256_add_ps(lanes.velocity_x, _mm256_and_ps(alignment, vx));
        lanes.velocity_y = _mm256_add_ps(lanes.velocity_y, _mm256_and_ps(alignment, vy));
        lanes.alignment = _mm256_add_ps(lanes.alignment, _mm256_and_ps(alignment, one));
        lanes.offset_x = _mm256_add_ps(lanes.offset_x, _mm256_and_ps(cohesion, dx));
        lanes.offset_y = _mm256_add_ps(lanes.offset_y, _mm256_and_ps(cohesion, dy));
        lanes.cohesion = _mm256_add_ps(lanes.cohesion, _mm256_and_ps(cohesion, one));
    }

    /// Eight consecutive values.
    #[target_feature(enable = "avx")]
    #[inline]
    fn load(values: &[f32]) -> __m256 {
        assert!(values.len() >= LANES);
        // SAFETY: `values` holds at least eight f32, and the load needs no alignment.
        unsafe { _mm256_loadu_ps(values.as_ptr()) }
    }

    /// The sum of the eight lanes, always added in the same order.
    #[target_feature(enable = "avx")]
    #[inline]
    fn sum(lanes: __m256) -> f32 {
        let mut values = [0.0f32; LANES];
        // SAFETY: `values` has room for eight f32, and the store needs no alignment.
        unsafe { _mm256_storeu_ps(values.as_mut_ptr(), lanes) };
        values.iter().sum()
    }
}
