//! The grid's steering pass: for each boid in cell order, the 3 x 3 cells around it as at most
//! six contiguous runs, read in fixed-width lanes without branches so the compiler vectorises
//! the loop, then Reynolds' formulas as everywhere else ([`RuleSums::into_forces`]).

use std::sync::atomic::{AtomicU64, Ordering};

use glam::{BVec4A, Vec4};

use super::{Grid, Layout};
use crate::config::RuleWeights;
use crate::math::Vector;
use crate::parallel::{Executor, chunk_len_for};
use crate::rules::{NeighbourStats, RuleSums, StepConstants, compute_forces};

/// Candidates handled side by side: one SSE register of f32 (`glam::Vec4` is SIMD-backed on
/// x86_64 and aarch64), so the loop below is vector code by construction.
const LANES: usize = 4;

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

/// One boid's question to its neighbours, each value in every lane.
#[derive(Clone, Copy)]
struct Query {
    x: Vec4,
    y: Vec4,
    heading_x: Vec4,
    heading_y: Vec4,
    cos_half_view: Vec4,
    separation_squared: Vec4,
    alignment_squared: Vec4,
    cohesion_squared: Vec4,
}

/// The sorted buffers the pass reads.
#[derive(Clone, Copy)]
struct Sorted<'a> {
    layout: &'a Layout,
    cell_start: &'a [u32],
    xs: &'a [f32],
    ys: &'a [f32],
    vxs: &'a [f32],
    vys: &'a [f32],
}

impl Grid {
    /// Every boid's weighted flocking force into `forces` (by original index), from the
    /// positions this grid was last rebuilt over and their `velocities`, split over
    /// `executor`'s threads. Returns the neighbour and candidate counts.
    ///
    /// Worlds that wrap with fewer than three cells across fall back to the candidate path.
    pub fn compute_forces(
        &mut self,
        constants: &StepConstants,
        positions: &[Vector],
        velocities: &[Vector],
        weights: &[RuleWeights],
        forces: &mut [Vector],
        executor: &impl Executor,
    ) -> NeighbourStats {
        let count = self.order.len();
        assert_eq!(
            positions.len(),
            count,
            "rebuild the grid over these positions first"
        );
        assert_eq!(velocities.len(), count, "one velocity per boid");
        assert_eq!(weights.len(), count, "one set of weights per boid");
        assert_eq!(forces.len(), count, "one force per boid");
        if !self.layout.supports_runs() {
            return compute_forces(
                &*self, constants, positions, velocities, weights, forces, executor,
            );
        }

        self.vxs.clear();
        self.vys.clear();
        for &boid in &self.order {
            let velocity = velocities[boid as usize];
            self.vxs.push(velocity.x);
            self.vys.push(velocity.y);
        }
        self.sorted_forces.clear();
        self.sorted_forces.resize(count, Vector::ZERO);

        let sorted = Sorted {
            layout: &self.layout,
            cell_start: &self.cell_start,
            xs: &self.xs,
            ys: &self.ys,
            vxs: &self.vxs,
            vys: &self.vys,
        };
        let order = &self.order;
        let neighbours = AtomicU64::new(0);
        let candidates = AtomicU64::new(0);
        let chunk_len = chunk_len_for(count, executor.threads());
        executor.for_each_chunk(&mut self.sorted_forces, chunk_len, |start, chunk| {
            let (mut chunk_neighbours, mut chunk_candidates) = (0u64, 0u64);
            for (slot, force) in (start..).zip(chunk.iter_mut()) {
                let (sums, seen) = sorted.sums(slot, constants);
                let velocity = Vector::new(sorted.vxs[slot], sorted.vys[slot]);
                let weights = &weights[order[slot] as usize];
                *force = sums.into_forces(velocity, constants).weighted(weights);
                chunk_neighbours += sums.neighbours as u64;
                chunk_candidates += seen;
            }
            neighbours.fetch_add(chunk_neighbours, Ordering::Relaxed);
            candidates.fetch_add(chunk_candidates, Ordering::Relaxed);
        });
        for (&boid, force) in self.order.iter().zip(&self.sorted_forces) {
            forces[boid as usize] = *force;
        }
        NeighbourStats {
            neighbours: neighbours.into_inner(),
            candidates: candidates.into_inner(),
        }
    }
}

impl Sorted<'_> {
    /// The rule sums of the boid in sorted `slot`, and how many candidates it looked at.
    #[inline]
    fn sums(&self, slot: usize, constants: &StepConstants) -> (RuleSums, u64) {
        let layout = self.layout;
        let position = Vector::new(self.xs[slot], self.ys[slot]);
        let heading = Vector::new(self.vxs[slot], self.vys[slot]).normalize_or_zero();
        let field_of_view = constants.cos_half_view.filter(|_| heading != Vector::ZERO);
        let query = Query {
            x: Vec4::splat(position.x),
            y: Vec4::splat(position.y),
            heading_x: Vec4::splat(heading.x),
            heading_y: Vec4::splat(heading.y),
            cos_half_view: Vec4::splat(field_of_view.unwrap_or(-1.0)),
            separation_squared: Vec4::splat(constants.separation_radius_squared),
            alignment_squared: Vec4::splat(constants.alignment_radius_squared),
            cohesion_squared: Vec4::splat(constants.cohesion_radius_squared),
        };
        let (column, row) = layout.cell_coordinates(position);
        let mut lanes = Lanes::default();
        let mut seen = 0u64;
        let mut visit = |row: u32, first: u32, last: u32, offset: Vector| {
            let start = self.cell_start[layout.cell_index(first, row) as usize] as usize;
            let end = self.cell_start[layout.cell_index(last, row) as usize + 1] as usize;
            seen += (end - start) as u64;
            // A neighbour seen through the seam sits one world away: move the query instead.
            let shifted = Query {
                x: query.x - Vec4::splat(offset.x),
                y: query.y - Vec4::splat(offset.y),
                ..query
            };
            if field_of_view.is_some() {
                self.accumulate::<true>(&mut lanes, start, end, &shifted);
            } else {
                self.accumulate::<false>(&mut lanes, start, end, &shifted);
            }
        };
        for row_step in [-1i64, 0, 1] {
            let Some((row, y_offset)) = neighbour_row(layout, row, row_step) else {
                continue;
            };
            let offset_y = y_offset * layout.world_size.y;
            let last_column = layout.columns - 1;
            if !layout.periodic || (1..last_column).contains(&column) {
                let first = column.saturating_sub(1);
                let last = (column + 1).min(last_column);
                visit(row, first, last, Vector::new(0.0, offset_y));
            } else if column == 0 {
                visit(row, 0, 1, Vector::new(0.0, offset_y));
                let across = Vector::new(-layout.world_size.x, offset_y);
                visit(row, last_column, last_column, across);
            } else {
                visit(row, column - 1, column, Vector::new(0.0, offset_y));
                visit(row, 0, 0, Vector::new(layout.world_size.x, offset_y));
            }
        }
        let mut sums = lanes.total();
        // Every neighbour is inside the largest radius, so the rule with that radius counted
        // them all: no separate neighbour count in the hot loop.
        sums.neighbours = sums
            .separation_count
            .max(sums.alignment_count)
            .max(sums.cohesion_count);
        (sums, seen)
    }

    /// Adds the candidates in sorted slots `start..end` to the lanes.
    #[inline(always)]
    fn accumulate<const FIELD_OF_VIEW: bool>(
        &self,
        lanes: &mut Lanes,
        start: usize,
        end: usize,
        query: &Query,
    ) {
        let xs = self.xs[start..end].chunks_exact(LANES);
        let ys = self.ys[start..end].chunks_exact(LANES);
        let vxs = self.vxs[start..end].chunks_exact(LANES);
        let vys = self.vys[start..end].chunks_exact(LANES);
        let tail = Candidates::padded(
            xs.remainder(),
            ys.remainder(),
            vxs.remainder(),
            vys.remainder(),
        );
        for (((x, y), vx), vy) in xs.zip(ys).zip(vxs).zip(vys) {
            let candidates = Candidates {
                x: Vec4::from_slice(x),
                y: Vec4::from_slice(y),
                vx: Vec4::from_slice(vx),
                vy: Vec4::from_slice(vy),
            };
            lanes.add::<FIELD_OF_VIEW>(query, &candidates);
        }
        if !xs_is_whole(end - start) {
            lanes.add::<FIELD_OF_VIEW>(query, &tail);
        }
    }
}

fn xs_is_whole(len: usize) -> bool {
    len % LANES == 0
}

/// One lane-width of candidates.
struct Candidates {
    x: Vec4,
    y: Vec4,
    vx: Vec4,
    vy: Vec4,
}

/// Where empty lanes of the last, partial batch sit: far enough that they are nobody's
/// neighbour, near enough that their squared distance stays finite.
const FAR_AWAY: f32 = 1e15;

impl Candidates {
    /// The last few candidates of a run, the empty lanes filled with far-away boids.
    #[inline(always)]
    fn padded(x: &[f32], y: &[f32], vx: &[f32], vy: &[f32]) -> Self {
        let pad = |values: &[f32], fill: f32| {
            let mut lanes = [fill; LANES];
            lanes[..values.len()].copy_from_slice(values);
            Vec4::from_array(lanes)
        };
        Self {
            x: pad(x, FAR_AWAY),
            y: pad(y, FAR_AWAY),
            vx: pad(vx, 0.0),
            vy: pad(vy, 0.0),
        }
    }
}

impl Lanes {
    /// One batch of candidates: distance, field of view and each rule's share, in all lanes
    /// at once; each rule's mask selects its contribution.
    #[inline(always)]
    fn add<const FIELD_OF_VIEW: bool>(&mut self, query: &Query, batch: &Candidates) {
        let dx = batch.x - query.x;
        let dy = batch.y - query.y;
        let distance_squared = dx * dx + dy * dy;
        // Distance zero is the boid itself, or one on the very same spot (skipped, as in
        // seed 002).
        let mut counts = distance_squared.cmpgt(Vec4::ZERO);
        if FIELD_OF_VIEW {
            let ahead = dx * query.heading_x + dy * query.heading_y;
            counts &= ahead.cmpge(query.cos_half_view * distance_squared.sqrt());
        }
        let separation = counts & distance_squared.cmplt(query.separation_squared);
        let alignment = counts & distance_squared.cmplt(query.alignment_squared);
        let cohesion = counts & distance_squared.cmplt(query.cohesion_squared);
        let inverse = Vec4::select(separation, Vec4::ONE / distance_squared, Vec4::ZERO);
        self.away_x -= dx * inverse;
        self.away_y -= dy * inverse;
        self.separation += ones(separation);
        self.velocity_x += Vec4::select(alignment, batch.vx, Vec4::ZERO);
        self.velocity_y += Vec4::select(alignment, batch.vy, Vec4::ZERO);
        self.alignment += ones(alignment);
        self.offset_x += Vec4::select(cohesion, dx, Vec4::ZERO);
        self.offset_y += Vec4::select(cohesion, dy, Vec4::ZERO);
        self.cohesion += ones(cohesion);
    }
}

/// 1 in the lanes where `mask` is set, 0 elsewhere.
#[inline(always)]
fn ones(mask: BVec4A) -> Vec4 {
    Vec4::select(mask, Vec4::ONE, Vec4::ZERO)
}

/// The row `step` away from `row`, and which way it crossed the seam (-1, 0, 1); `None` past
/// the edge of a bounded grid.
#[inline]
fn neighbour_row(layout: &Layout, row: u32, step: i64) -> Option<(u32, f32)> {
    let count = i64::from(layout.rows);
    let next = i64::from(row) + step;
    if (0..count).contains(&next) {
        Some((next as u32, 0.0))
    } else if layout.periodic {
        let seam = if next < 0 { -1.0 } else { 1.0 };
        Some((next.rem_euclid(count) as u32, seam))
    } else {
        None
    }
}
