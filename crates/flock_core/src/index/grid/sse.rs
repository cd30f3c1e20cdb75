//! The portable lane code: four candidates at a time in `glam::Vec4`, which is SIMD-backed
//! (SSE2 on x86_64, NEON on aarch64), so this is vector code without any `unsafe`.

use glam::{BVec4A, Vec4};

use super::steer::{BoidQuery, Run, Sorted};
use crate::math::Vector;
use crate::rules::RuleSums;

const LANES: usize = 4;

/// The position of empty lanes in the last, partial batch of a run: NaN, whose distance fails
/// every comparison, so it is nobody's neighbour wherever the boid is (a finite "far away" spot
/// would be somebody's neighbour in a world without edges), and every sum masks its products.
pub(super) const EMPTY: f32 = f32::NAN;

/// Sums the rules over every candidate of `runs`.
pub(super) fn accumulate_runs(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
    let mut lanes = Lanes::default();
    let constants = Constants::new(query);
    for run in runs {
        let origin = query.position - run.offset;
        let origin = (Vec4::splat(origin.x), Vec4::splat(origin.y));
        if query.cos_half_view.is_some() {
            lanes.add_run::<true>(sorted, run, origin, &constants);
        } else {
            lanes.add_run::<false>(sorted, run, origin, &constants);
        }
    }
    lanes.total()
}

/// The query's values, in every lane.
struct Constants {
    heading_x: Vec4,
    heading_y: Vec4,
    cos_half_view: Vec4,
    separation_squared: Vec4,
    alignment_squared: Vec4,
    cohesion_squared: Vec4,
}

impl Constants {
    fn new(query: &BoidQuery) -> Self {
        Self {
            heading_x: Vec4::splat(query.heading.x),
            heading_y: Vec4::splat(query.heading.y),
            cos_half_view: Vec4::splat(query.cos_half_view.unwrap_or(-1.0)),
            separation_squared: Vec4::splat(query.separation_squared),
            alignment_squared: Vec4::splat(query.alignment_squared),
            cohesion_squared: Vec4::splat(query.cohesion_squared),
        }
    }
}

/// Per-lane partial sums; lanes are added together once per boid.
#[derive(Default)]
struct Lanes {
    away_x: Vec4,
    away_y: Vec4,
    separation: Vec4,
    velocity_x: Vec4,
    velocity_y: Vec4,
    alignment: Vec4,
    offset_x: Vec4,
    offset_y: Vec4,
    cohesion: Vec4,
}

impl Lanes {
    #[inline(always)]
    fn add_run<const FIELD_OF_VIEW: bool>(
        &mut self,
        sorted: &Sorted,
        run: &Run,
        origin: (Vec4, Vec4),
        constants: &Constants,
    ) {
        let range = run.start..run.end;
        let xs = sorted.xs[range.clone()].chunks_exact(LANES);
        let ys = sorted.ys[range.clone()].chunks_exact(LANES);
        let vxs = sorted.vxs[range.clone()].chunks_exact(LANES);
        let vys = sorted.vys[range].chunks_exact(LANES);
        let whole = xs.len() * LANES;
        for (((x, y), vx), vy) in xs.zip(ys).zip(vxs).zip(vys) {
            let batch = [x, y, vx, vy].map(Vec4::from_slice);
            self.add::<FIELD_OF_VIEW>(&batch, origin, constants);
        }
        let done = run.start + whole;
        if done < run.end {
            // The last, partial batch: load the four slots that end the run (reaching back
            // into slots already done, or before the run) and put the lanes that are not
            // this batch's at the EMPTY position, where they count for nothing.
            let Some(first) = run.end.checked_sub(LANES) else {
                self.add_padded::<FIELD_OF_VIEW>(sorted, done, run.end, origin, constants);
                return;
            };
            let slots = first..run.end;
            let keep = Vec4::new(0.0, 1.0, 2.0, 3.0).cmpge(Vec4::splat((done - first) as f32));
            let empty = Vec4::splat(EMPTY);
            let batch = [
                Vec4::select(keep, Vec4::from_slice(&sorted.xs[slots.clone()]), empty),
                Vec4::select(keep, Vec4::from_slice(&sorted.ys[slots.clone()]), empty),
                Vec4::from_slice(&sorted.vxs[slots.clone()]),
                Vec4::from_slice(&sorted.vys[slots]),
            ];
            self.add::<FIELD_OF_VIEW>(&batch, origin, constants);
        }
    }

    /// A run's last candidates in a flock of fewer than four boids: copy into padded lanes.
    #[inline(never)]
    fn add_padded<const FIELD_OF_VIEW: bool>(
        &mut self,
        sorted: &Sorted,
        start: usize,
        end: usize,
        origin: (Vec4, Vec4),
        constants: &Constants,
    ) {
        let columns = [sorted.xs, sorted.ys, sorted.vxs, sorted.vys];
        let fills = [EMPTY, EMPTY, 0.0, 0.0];
        let mut batch = [Vec4::ZERO; 4];
        for ((lane, values), fill) in batch.iter_mut().zip(columns).zip(fills) {
            let mut padded = [fill; LANES];
            padded[..end - start].copy_from_slice(&values[start..end]);
            *lane = Vec4::from_array(padded);
        }
        self.add::<FIELD_OF_VIEW>(&batch, origin, constants);
    }

    /// One batch of candidates (x, y, vx, vy): distance, field of view and each rule's share,
    /// in all lanes at once; each rule's mask selects its contribution.
    #[inline(always)]
    fn add<const FIELD_OF_VIEW: bool>(
        &mut self,
        [x, y, vx, vy]: &[Vec4; 4],
        (origin_x, origin_y): (Vec4, Vec4),
        constants: &Constants,
    ) {
        let dx = *x - origin_x;
        let dy = *y - origin_y;
        let distance_squared = dx * dx + dy * dy;
        // Distance zero is the boid itself, or one on the very same spot (skipped, as in
        // seed 002).
        let mut counts = distance_squared.cmpgt(Vec4::ZERO);
        if FIELD_OF_VIEW {
            let ahead = dx * constants.heading_x + dy * constants.heading_y;
            counts &= ahead.cmpge(constants.cos_half_view * distance_squared.sqrt());
        }
        let separation = counts & distance_squared.cmplt(constants.separation_squared);
        let alignment = counts & distance_squared.cmplt(constants.alignment_squared);
        let cohesion = counts & distance_squared.cmplt(constants.cohesion_squared);
        // Mask the product, not the factor: a slot whose position is not finite has an
        // infinite or NaN `dx`, and `inf * 0` is NaN, which would poison every sum it meets.
        let inverse = Vec4::ONE / distance_squared;
        self.away_x -= Vec4::select(separation, dx * inverse, Vec4::ZERO);
        self.away_y -= Vec4::select(separation, dy * inverse, Vec4::ZERO);
        self.separation += ones(separation);
        self.velocity_x += Vec4::select(alignment, *vx, Vec4::ZERO);
        self.velocity_y += Vec4::select(alignment, *vy, Vec4::ZERO);
        self.alignment += ones(alignment);
        self.offset_x += Vec4::select(cohesion, dx, Vec4::ZERO);
        self.offset_y += Vec4::select(cohesion, dy, Vec4::ZERO);
        self.cohesion += ones(cohesion);
    }

    fn total(&self) -> RuleSums {
        RuleSums {
            away: Vector::new(self.away_x.element_sum(), self.away_y.element_sum()),
            separation_count: self.separation.element_sum(),
            velocity_sum: Vector::new(self.velocity_x.element_sum(), self.velocity_y.element_sum()),
            alignment_count: self.alignment.element_sum(),
            offset_sum: Vector::new(self.offset_x.element_sum(), self.offset_y.element_sum()),
            cohesion_count: self.cohesion.element_sum(),
            neighbours: 0.0,
        }
    }
}

/// 1 in the lanes where `mask` is set, 0 elsewhere.
#[inline(always)]
fn ones(mask: BVec4A) -> Vec4 {
    Vec4::select(mask, Vec4::ONE, Vec4::ZERO)
}
