//! The grid's steering pass: for each boid in cell order, the 3 x 3 cells around it as at most
//! six contiguous runs of candidates (in 3D the 3 x 3 x 3 cells as at most eighteen: nine rows
//! of three cells, each split in two where it crosses a seam), read in SIMD lanes without
//! branches ([`sse`] everywhere,
//! [`avx`] or [`avx512`] where the processor has them), then Reynolds' formulas as everywhere else
//! ([`crate::RuleSums::into_forces`]).
//!
//! # One summation order for every lane width
//!
//! Floating-point addition is not associative, so a sum's last bits depend on the order its
//! terms are added in. Every lane width therefore adds in the same order, that of sixteen
//! *logical lanes*: candidate `j` of a run (counting from the run's first slot) goes to logical
//! lane `j % 16`, each logical lane adds its candidates in slot order, run after run, and the
//! sixteen lanes are summed at the end by one fixed tree (`LOGICAL_LANES` and `sum_four`, in
//! [`super::pass`] with the rest the lanes share).
//! AVX-512 holds the sixteen lanes in one register; AVX in two registers of eight (lanes 0-7
//! and 8-15), SSE in four of four. A lane a width skips (past a run's end) is one that adds
//! nothing in the others, and adding `+0.0` to a sum that starts at `+0.0` never changes it, so
//! the forces are the same bit for bit whichever width runs, as they are whatever the number
//! of threads. The counts are whole numbers, exact in any order.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use super::pass::{BoidQuery, PADDING, Run, Sorted};
use super::{Grid, Layout, cell_run, sse};
#[cfg(target_arch = "x86_64")]
use super::{avx, avx512};
use crate::config::RuleWeights;
use crate::math::{DIMENSIONS, Vector};
use crate::parallel::{Executor, chunk_len_for, fill};
use crate::rules::{
    ForceInputs, NeighbourStats, RuleSums, StepConstants, compute_forces, usable_velocity,
};

/// Boids whose sums are gathered before their forces are computed.
const BLOCK: usize = 32;

/// The grid's cells in sorted order, and the columns the lanes read.
#[derive(Clone, Copy)]
struct Cells<'a> {
    layout: &'a Layout,
    cell_start: &'a [u32],
    slot_cell: &'a [u32],
    sorted: Sorted<'a>,
}

/// The rows of the stencil: 3 in 2D, 3 x 3 in 3D.
const STENCIL_ROWS: usize = 3usize.pow(DIMENSIONS as u32 - 1);

/// The most runs of one stencil: every row split in two at a seam.
const MAX_RUNS: usize = 2 * STENCIL_ROWS;

/// Which lane code runs: chosen once per step from what the processor has.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// Four lanes (`glam::Vec4`): everywhere.
    Sse,
    /// Eight lanes: x86_64 with AVX and FMA.
    Avx,
    /// Sixteen lanes: x86_64 with AVX-512F.
    Avx512,
}

/// The lanes [`Lanes::force`] set: 0 for none, else one more than the variant's number.
static FORCED: AtomicU8 = AtomicU8::new(0);

impl Lanes {
    /// Every lane width, narrowest first.
    pub const ALL: [Self; 3] = [Self::Sse, Self::Avx, Self::Avx512];

    /// Makes every grid of this process steer on `lanes` from the next step on (where the
    /// processor has them; the widest it has otherwise), or on the widest again for `None`: for
    /// tests and benchmarks that compare widths. The forces are the same bit for bit on every
    /// width, so this changes speed only.
    pub fn force(lanes: Option<Self>) {
        let code = lanes.map_or(0, |lanes| lanes as u8 + 1);
        FORCED.store(code, Ordering::Relaxed);
    }

    /// The lanes a step runs on: the forced ones if this processor has them, else the widest.
    pub fn in_use() -> Self {
        let forced = match FORCED.load(Ordering::Relaxed) {
            1 => Some(Self::Sse),
            2 => Some(Self::Avx),
            3 => Some(Self::Avx512),
            _ => None,
        };
        forced
            .filter(|lanes| lanes.available())
            .unwrap_or_else(Self::detect)
    }

    /// The widest this processor runs.
    pub fn detect() -> Self {
        [Self::Avx512, Self::Avx]
            .into_iter()
            .find(|lanes| lanes.available())
            .unwrap_or(Self::Sse)
    }

    /// Whether this processor runs these lanes.
    pub fn available(self) -> bool {
        match self {
            Self::Sse => true,
            #[cfg(target_arch = "x86_64")]
            Self::Avx => avx::available(),
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => avx512::available(),
            #[cfg(not(target_arch = "x86_64"))]
            Self::Avx | Self::Avx512 => false,
        }
    }

    /// Sums the rules over the candidates of `runs` in these lanes.
    #[inline]
    fn accumulate(self, sorted: &Sorted, runs: &[Run], query: &BoidQuery) -> RuleSums {
        let mut sums = match self {
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => avx512::accumulate_runs(sorted, runs, query),
            #[cfg(target_arch = "x86_64")]
            Self::Avx => avx::accumulate_runs(sorted, runs, query),
            _ => sse::accumulate_runs(sorted, runs, query),
        };
        if query.shared_reach {
            sums.cohesion_count = sums.alignment_count;
        }
        sums
    }
}

impl Grid {
    /// Every boid's weighted flocking force into `forces` (by original index), from the
    /// positions this grid was last rebuilt over and their `velocities`, split over
    /// `executor`'s threads. Returns the neighbour and candidate counts.
    ///
    /// Worlds that wrap with fewer than three cells across, and flocks that count only their
    /// nearest neighbours ([`Neighbours::Nearest`]), take the candidate path.
    ///
    /// [`Neighbours::Nearest`]: crate::Neighbours::Nearest
    pub fn compute_forces(
        &mut self,
        inputs: ForceInputs,
        forces: &mut [Vector],
        executor: &impl Executor,
    ) -> NeighbourStats {
        self.compute_forces_with_lanes(inputs, forces, executor, Lanes::in_use())
    }

    /// [`Grid::compute_forces`] on the given lanes, if this processor runs them: for checking
    /// that every lane width gives the same forces.
    #[doc(hidden)]
    pub fn compute_forces_on_lanes(
        &mut self,
        lanes: Lanes,
        inputs: ForceInputs,
        forces: &mut [Vector],
        executor: &impl Executor,
    ) -> Option<NeighbourStats> {
        (lanes.available()).then(|| self.compute_forces_with_lanes(inputs, forces, executor, lanes))
    }

    fn compute_forces_with_lanes(
        &mut self,
        inputs: ForceInputs,
        forces: &mut [Vector],
        executor: &impl Executor,
        lanes: Lanes,
    ) -> NeighbourStats {
        let count = self.order.len();
        assert_eq!(
            inputs.positions.len(),
            count,
            "rebuild the grid over these positions first"
        );
        inputs.check(forces);
        if !self.layout.supports_runs() || inputs.constants.nearest.is_some() {
            return compute_forces(&*self, inputs, forces, executor);
        }
        let ForceInputs {
            constants,
            velocities,
            weights,
            ..
        } = inputs;

        // Gather what the pass reads per boid into cell order once, in parallel loops that
        // keep many loads in flight, rather than one random read per boid inside the pass.
        let order = &self.order;
        let chunk_len = chunk_len_for(count, executor.threads());
        self.sorted_forces.resize(count, Vector::ZERO);
        let boid = |slot: usize| order[slot] as usize;
        // The velocities are read at random (boid order is not cell order), once: gathered
        // whole into `sorted_forces`, which the pass overwrites later, and split into one
        // array per axis from there in order. A random read per axis instead missed the
        // cache three times a boid in 3D once the velocities outgrew it (a fifth of the 3D
        // app's step at 1M boids).
        fill(executor, &mut self.sorted_forces, chunk_len, |slot| {
            usable_velocity(velocities[boid(slot)])
        });
        let sorted_velocities = &self.sorted_forces;
        for (axis, speeds) in self.speeds.iter_mut().enumerate() {
            speeds.resize(count + PADDING, 0.0);
            speeds[count..].fill(0.0);
            fill(executor, &mut speeds[..count], chunk_len, |slot| {
                sorted_velocities[slot][axis]
            });
        }
        // Most flocks give every boid the flock's weights: then there is nothing to gather.
        let uniform = uniform_weights(weights);
        if uniform.is_none() {
            self.sorted_weights.resize(count, RuleWeights::default());
            fill(executor, &mut self.sorted_weights, chunk_len, |slot| {
                weights[boid(slot)]
            });
        }

        let cells = Cells {
            layout: &self.layout,
            cell_start: &self.cell_start,
            slot_cell: &self.slot_cell,
            sorted: Sorted {
                coordinates: std::array::from_fn(|axis| self.coordinates[axis].as_slice()),
                speeds: std::array::from_fn(|axis| self.speeds[axis].as_slice()),
            },
        };
        let sorted_weights = &self.sorted_weights;
        let neighbours = AtomicU64::new(0);
        let candidates = AtomicU64::new(0);
        executor.for_each_chunk(&mut self.sorted_forces, chunk_len, |start, chunk| {
            let (mut chunk_neighbours, mut chunk_candidates) = (0u64, 0u64);
            // Boids come in cell order, and every boid of a cell has the same runs.
            let mut cell_runs = (u32::MAX, [Run::default(); MAX_RUNS], 0);
            // Sums for a block of boids first, then their forces: the forces' square roots and
            // divisions are long chains, which overlap when a block of independent boids
            // follows rather than each boid waiting for its own.
            let mut block = [RuleSums::default(); BLOCK];
            for (block_start, forces) in (start..).step_by(BLOCK).zip(chunk.chunks_mut(BLOCK)) {
                let slots = block_start..block_start + forces.len();
                for (sums, slot) in block.iter_mut().zip(slots.clone()) {
                    let cell = cells.slot_cell[slot];
                    if cell != cell_runs.0 {
                        let (runs, count) = cells.runs(cell);
                        cell_runs = (cell, runs, count);
                    }
                    let runs = &cell_runs.1[..cell_runs.2];
                    let query = cells.query(slot, constants);
                    *sums = lanes.accumulate(&cells.sorted, runs, &query);
                    // Every neighbour is inside the largest radius, so the rule with that
                    // radius counted them all: no separate neighbour count in the hot loop.
                    sums.neighbours = sums
                        .separation_count
                        .max(sums.alignment_count)
                        .max(sums.cohesion_count);
                    chunk_neighbours += sums.neighbours as u64;
                    chunk_candidates += runs
                        .iter()
                        .map(|run| (run.end - run.start) as u64)
                        .sum::<u64>();
                }
                for ((force, sums), slot) in forces.iter_mut().zip(&block).zip(slots) {
                    let velocity = cells.sorted.velocity(slot);
                    let forces = sums.into_forces(velocity, constants);
                    let weights = match &uniform {
                        Some(weights) => weights,
                        None => &sorted_weights[slot],
                    };
                    *force = forces.weighted(weights);
                }
            }
            neighbours.fetch_add(chunk_neighbours, Ordering::Relaxed);
            candidates.fetch_add(chunk_candidates, Ordering::Relaxed);
        });
        // Back to the caller's order, as a parallel gather through each boid's slot.
        let (slot_of, sorted_forces) = (&self.slot_of, &self.sorted_forces);
        fill(executor, forces, chunk_len, |boid| {
            sorted_forces[slot_of[boid] as usize]
        });
        NeighbourStats {
            neighbours: neighbours.into_inner(),
            candidates: candidates.into_inner(),
        }
    }
}

/// The weights every boid has, when all have the same to the bit (so the forces are the bits
/// a gather of them would give); `None` otherwise. A scan in order, a small part of the random
/// gather it saves.
fn uniform_weights(weights: &[RuleWeights]) -> Option<RuleWeights> {
    let bits = |weights: &RuleWeights| {
        [weights.separation, weights.alignment, weights.cohesion].map(f32::to_bits)
    };
    let first = *weights.first()?;
    let first_bits = bits(&first);
    // Blocks without an early exit inside, which the compiler vectorises.
    let same = weights.chunks(64).all(|block| {
        block
            .iter()
            .fold(true, |same, weights| same & (bits(weights) == first_bits))
    });
    same.then_some(first)
}

impl Cells<'_> {
    /// The question of the boid in sorted `slot`.
    #[inline]
    fn query(&self, slot: usize, constants: &StepConstants) -> BoidQuery {
        // Only a limited view reads the heading: a boid that sees all around (the default)
        // skips the square root and division.
        let heading = match constants.cos_half_view {
            Some(_) => self.sorted.velocity(slot).normalize_or_zero(),
            None => Vector::ZERO,
        };
        BoidQuery {
            position: self.sorted.position(slot),
            heading,
            // A boid at rest has no heading and sees all around.
            cos_half_view: constants.cos_half_view.filter(|_| heading != Vector::ZERO),
            separation_squared: constants.separation_radius_squared,
            alignment_squared: constants.alignment_radius_squared,
            cohesion_squared: constants.cohesion_radius_squared,
            shared_reach: constants.alignment_radius_squared == constants.cohesion_radius_squared,
        }
    }

    /// The runs of the 3 x 3 (x 3) cells around `cell`: one per row of three cells, or two
    /// where a periodic row wraps around the seam, in cell order.
    fn runs(&self, cell: u32) -> ([Run; MAX_RUNS], usize) {
        let layout = self.layout;
        let centre = layout.coordinates_of(cell);
        let column = centre[0];
        let mut runs = [Run::default(); MAX_RUNS];
        let mut count = 0;
        let mut push = |row_start: u32, first: u32, last: u32, offset: Vector| {
            let (start, end) = cell_run(self.cell_start, row_start, first, last);
            if start < end {
                runs[count] = Run { start, end, offset };
                count += 1;
            }
        };
        'rows: for row in 0..STENCIL_ROWS {
            // The row's step along each axis above x (-1, 0, 1), its first cell, and the
            // offset of the seams it crosses.
            let mut row_start = 0;
            let mut offset = Vector::ZERO;
            for axis in (1..DIMENSIONS).rev() {
                let step = (row / 3usize.pow(axis as u32 - 1)) % 3;
                let Some((coordinate, seam)) =
                    neighbour_cell(layout, axis, centre[axis], step as i64 - 1)
                else {
                    continue 'rows;
                };
                row_start = row_start * layout.cells[axis] + coordinate;
                offset[axis] = seam * layout.world_size[axis];
            }
            let row_start = row_start * layout.cells[0];
            let last_column = layout.cells[0] - 1;
            let mut across = offset;
            if !layout.periodic || (1..last_column).contains(&column) {
                let first = column.saturating_sub(1);
                let last = (column + 1).min(last_column);
                push(row_start, first, last, offset);
            } else if column == 0 {
                push(row_start, 0, 1, offset);
                across[0] = -layout.world_size[0];
                push(row_start, last_column, last_column, across);
            } else {
                push(row_start, column - 1, column, offset);
                across[0] = layout.world_size[0];
                push(row_start, 0, 0, across);
            }
        }
        (runs, count)
    }
}

/// The cell `step` away from `coordinate` along `axis`, and which way it crossed the seam
/// (-1, 0, 1); `None` past the edge of a bounded grid.
#[inline]
fn neighbour_cell(layout: &Layout, axis: usize, coordinate: u32, step: i64) -> Option<(u32, f32)> {
    let count = i64::from(layout.cells[axis]);
    let next = i64::from(coordinate) + step;
    if (0..count).contains(&next) {
        Some((next as u32, 0.0))
    } else if layout.periodic {
        let seam = if next < 0 { -1.0 } else { 1.0 };
        Some((next.rem_euclid(count) as u32, seam))
    } else {
        None
    }
}
