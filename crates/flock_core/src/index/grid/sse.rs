//! The portable lane code: four candidates at a time in `glam::Vec4`, which is SIMD-backed
//! (SSE2 on x86_64, NEON on aarch64), so this is vector code without any `unsafe`.
//!
//! Every vector quantity is an array of one `Vec4` per axis; loops over the axes have a
//! constant length, so they unroll into the same code as writing x and y (and z) out.

use glam::{BVec4A, Vec4};

use super::steer::{BoidQuery, Run, Sorted};
use crate::math::{DIMENSIONS, Vector};
use crate::rules::RuleSums;

const LANES: usize = 4;

/// The position of empty lanes in the last, partial batch of a run: NaN, whose distance fails
/// every comparison, so it is nobody's neighbour wherever the boid is (a finite "far away" spot
/// would be somebody's neighbour in a world without edges), and every sum masks its products.
pub(super) const EMPTY: f32 = f32::NAN;

/// One value per axis, each in every lane.
type Axes = [Vec4; DIMENSIONS];

/// Sums the rules over every candidate of `runs`.
pub(super) fn accumulate_runs(sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
    let mut lanes = Lanes::default();
    let constants = Constants::new(query);
    for run in runs {
        let origin = query.position - run.offset;
        let origin: Axes = std::array::from_fn(|axis| Vec4::splat(origin[axis]));
        if query.cos_half_view.is_some() {
            lanes.add_run::<true>(sorted, run, &origin, &constants);
        } else {
            lanes.add_run::<false>(sorted, run, &origin, &constants);
        }
    }
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

/// Per-lane partial sums; lanes are added together once per boid.
#[derive(Default)]
struct Lanes {
    away: Axes,
    separation: Vec4,
    velocity: Axes,
    alignment: Vec4,
    offset: Axes,
    cohesion: Vec4,
}

/// One batch of candidates: positions and velocities, one `Vec4` per axis.
struct Batch {
    position: Axes,
    velocity: Axes,
}

impl Lanes {
    #[inline(always)]
    fn add_run<const FIELD_OF_VIEW: bool>(
        &mut self,
        sorted: &Sorted,
        run: &Run,
        origin: &Axes,
        constants: &Constants,
    ) {
        let mut start = run.start;
        while start + LANES <= run.end {
            let batch = Batch {
                position: load(&sorted.coordinates, start),
                velocity: load(&sorted.speeds, start),
            };
            self.add::<FIELD_OF_VIEW>(&batch, origin, constants);
            start += LANES;
        }
        if start < run.end {
            // The last, partial batch: load the four slots that end the run (reaching back
            // into slots already done, or before the run) and put the lanes that are not
            // this batch's at the EMPTY position, where they count for nothing.
            let Some(first) = run.end.checked_sub(LANES) else {
                self.add_padded::<FIELD_OF_VIEW>(sorted, start, run.end, origin, constants);
                return;
            };
            let keep = Vec4::new(0.0, 1.0, 2.0, 3.0).cmpge(Vec4::splat((start - first) as f32));
            let empty = Vec4::splat(EMPTY);
            let batch = Batch {
                position: load(&sorted.coordinates, first)
                    .map(|axis| Vec4::select(keep, axis, empty)),
                velocity: load(&sorted.speeds, first),
            };
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
        origin: &Axes,
        constants: &Constants,
    ) {
        let padded = |values: &[f32], fill: f32| {
            let mut padded = [fill; LANES];
            padded[..end - start].copy_from_slice(&values[start..end]);
            Vec4::from_array(padded)
        };
        let batch = Batch {
            position: std::array::from_fn(|axis| padded(sorted.coordinates[axis], EMPTY)),
            velocity: std::array::from_fn(|axis| padded(sorted.speeds[axis], 0.0)),
        };
        self.add::<FIELD_OF_VIEW>(&batch, origin, constants);
    }

    /// One batch of candidates: distance, field of view and each rule's share, in all lanes
    /// at once; each rule's mask selects its contribution.
    #[inline(always)]
    fn add<const FIELD_OF_VIEW: bool>(
        &mut self,
        batch: &Batch,
        origin: &Axes,
        constants: &Constants,
    ) {
        let offset: Axes = std::array::from_fn(|axis| batch.position[axis] - origin[axis]);
        let distance_squared = dot(&offset, &offset);
        // Distance zero is the boid itself, or one on the very same spot (skipped, as in
        // seed 002).
        let mut counts = distance_squared.cmpgt(Vec4::ZERO);
        if FIELD_OF_VIEW {
            // Inside the cone around the heading (a wedge in 2D).
            let ahead = dot(&offset, &constants.heading);
            counts &= ahead.cmpge(constants.cos_half_view * distance_squared.sqrt());
        }
        let separation = counts & distance_squared.cmplt(constants.separation_squared);
        let alignment = counts & distance_squared.cmplt(constants.alignment_squared);
        let cohesion = counts & distance_squared.cmplt(constants.cohesion_squared);
        // Mask the product, not the factor: a slot whose position is not finite has an
        // infinite or NaN offset, and `inf * 0` is NaN, which would poison every sum it meets.
        let inverse = Vec4::ONE / distance_squared;
        for (away, offset) in self.away.iter_mut().zip(&offset) {
            *away -= Vec4::select(separation, *offset * inverse, Vec4::ZERO);
        }
        self.separation += ones(separation);
        for (sum, velocity) in self.velocity.iter_mut().zip(&batch.velocity) {
            *sum += Vec4::select(alignment, *velocity, Vec4::ZERO);
        }
        self.alignment += ones(alignment);
        for (sum, offset) in self.offset.iter_mut().zip(&offset) {
            *sum += Vec4::select(cohesion, *offset, Vec4::ZERO);
        }
        self.cohesion += ones(cohesion);
    }

    fn total(&self) -> RuleSums {
        let sum = |axes: &Axes| {
            let mut sum = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                sum[axis] = axes[axis].element_sum();
            }
            sum
        };
        RuleSums {
            away: sum(&self.away),
            separation_count: self.separation.element_sum(),
            velocity_sum: sum(&self.velocity),
            alignment_count: self.alignment.element_sum(),
            offset_sum: sum(&self.offset),
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

/// The dot product of two vectors, lane by lane, summed in axis order.
#[inline(always)]
fn dot(a: &Axes, b: &Axes) -> Vec4 {
    (1..DIMENSIONS).fold(a[0] * b[0], |sum, axis| sum + a[axis] * b[axis])
}

/// 1 in the lanes where `mask` is set, 0 elsewhere.
#[inline(always)]
fn ones(mask: BVec4A) -> Vec4 {
    Vec4::select(mask, Vec4::ONE, Vec4::ZERO)
}
