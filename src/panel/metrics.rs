//! The flock's state over time: polarisation and mean nearest-neighbour distance, sampled every
//! few steps from the last step's buffers, for the panel's plots.

use std::collections::VecDeque;
use std::time::Duration;

use bevy::platform::time::Instant;
use bevy::prelude::*;
use flock_core::metrics::{mean_nearest_neighbour_distance, polarisation};

use crate::clock::FlockClock;
use crate::settings::ActiveFlockSettings;
use crate::steer::FlockBuffers;

/// One sample of the flock's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MetricSample {
    /// The step the sample was taken after ([`FlockClock::steps_taken`]).
    pub step: u64,
    /// The length of the mean unit heading: 0 disordered, 1 aligned.
    pub polarisation: f32,
    /// The mean distance from a boid to its nearest neighbour (world units); `None` with fewer
    /// than two boids.
    pub nearest_neighbour: Option<f32>,
}

/// The recent history of the flock's metrics, and how it is sampled.
///
/// Sampling is kept cheap for large flocks: one sample every `every` steps, and the
/// nearest-neighbour distance measured for at most `samples` boids through the step's own
/// neighbour index (see [`flock_core::metrics`]).
#[derive(Resource, Debug, Clone)]
pub struct FlockMetrics {
    /// Steps between samples.
    pub every: u64,
    /// Boids measured for the nearest-neighbour distance.
    pub samples: usize,
    /// How many steps of history to keep.
    pub window: u64,
    history: VecDeque<MetricSample>,
    cost: Duration,
}

impl Default for FlockMetrics {
    fn default() -> Self {
        Self {
            every: 5,
            samples: 256,
            window: 600,
            history: VecDeque::new(),
            cost: Duration::ZERO,
        }
    }
}

impl FlockMetrics {
    /// The samples of the last `window` steps, oldest first.
    pub fn history(&self) -> impl ExactSizeIterator<Item = &MetricSample> + '_ {
        self.history.iter()
    }

    /// The newest sample.
    pub fn latest(&self) -> Option<&MetricSample> {
        self.history.back()
    }

    /// How long the last sample took to compute (wall clock).
    pub fn cost(&self) -> Duration {
        self.cost
    }

    /// Forgets the history (after a reset, the step count starts again).
    pub fn clear(&mut self) {
        self.history.clear();
    }

    fn push(&mut self, sample: MetricSample) {
        self.history.push_back(sample);
        while let Some(oldest) = self.history.front()
            && oldest.step + self.window < sample.step
        {
            self.history.pop_front();
        }
    }
}

/// Samples [`FlockMetrics`] in `Update` (part of the panel; on its own for apps and tests that
/// want the numbers without egui).
#[derive(Debug, Default)]
pub struct FlockMetricsPlugin;

impl Plugin for FlockMetricsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<FlockMetrics>()
            .add_systems(Update, sample_flock_metrics);
    }
}

/// Samples the metrics from the last step's snapshot once `every` steps have passed since the
/// last sample. Runs in `Update`, so it works whatever schedule the flock steps in.
fn sample_flock_metrics(
    clock: Res<FlockClock>,
    buffers: Res<FlockBuffers>,
    settings: Res<ActiveFlockSettings>,
    mut metrics: ResMut<FlockMetrics>,
) {
    let step = clock.steps_taken();
    if let Some(last) = metrics.latest()
        && step < last.step + metrics.every.max(1)
    {
        return;
    }
    if step == 0 {
        return;
    }
    let started = Instant::now();
    let config = &settings.0.config;
    let sample = MetricSample {
        step,
        polarisation: polarisation(buffers.velocities()),
        nearest_neighbour: mean_nearest_neighbour_distance(
            buffers.positions(),
            &flock_core::Space::of(config),
            buffers.index(),
            config.max_radius(),
            metrics.samples,
        ),
    };
    metrics.push(sample);
    metrics.cost = started.elapsed();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_keeps_only_the_window() {
        let mut metrics = FlockMetrics {
            window: 100,
            ..default()
        };
        for step in (5..=500).step_by(5) {
            metrics.push(MetricSample {
                step,
                polarisation: 0.5,
                nearest_neighbour: None,
            });
        }
        let steps: Vec<u64> = metrics.history().map(|sample| sample.step).collect();
        assert_eq!(steps.first(), Some(&400));
        assert_eq!(steps.last(), Some(&500));
        assert_eq!(steps.len(), 21);
    }
}
