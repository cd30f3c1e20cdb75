//! `flock`'s kernel paths in 3D: `flock_core3d`. The files under `dim/` are compiled here and
//! in [`crate::dim2`], one source for both dimensions.
//!
//! Until the 3D plugin crate exists, its two parts the command line needs are here: the
//! settings file's layout (the plugin's `FlockSettings` with the 3D kernel's config) and an
//! executor on a Bevy task pool.

use bevy::tasks::TaskPool;
pub use flock_core3d as kernel;
use flock_core3d::{ConfigError, Executor, FlockConfig};

/// The other dimension, for naming its files when they are given to this one.
pub use crate::dim2 as other;

#[path = "dim/boids.rs"]
#[allow(clippy::duplicate_mod)] // compiled once per dimension, on purpose
pub mod boids;
#[path = "dim/kernel_bench.rs"]
#[allow(clippy::duplicate_mod)] // compiled once per dimension, on purpose
pub mod kernel_bench;
#[path = "dim/settings.rs"]
#[allow(clippy::duplicate_mod)] // compiled once per dimension, on purpose
pub mod settings;
#[path = "dim/simulate.rs"]
#[allow(clippy::duplicate_mod)] // compiled once per dimension, on purpose
pub mod simulate;

/// The settings of a 3D run, as RON: the layout of the plugin's `FlockSettings` (a
/// `bounds_source` field is read and ignored: a headless run has no camera).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// The kernel's settings.
    pub config: FlockConfig,
    /// The most boids the flock may have.
    #[serde(default = "default_max_boids")]
    pub max_boids: usize,
}

fn default_max_boids() -> usize {
    bevy_flock::FlockSettings::default().max_boids
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            config: FlockConfig::default(),
            max_boids: default_max_boids(),
        }
    }
}

impl Settings {
    /// Checks every field, as the plugin's `FlockSettings::validate` does.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.config.validate()?;
        if !(1..=bevy_flock::FlockSettings::MAX_BOIDS).contains(&self.max_boids) {
            return Err(ConfigError {
                field: "max_boids",
                value: self.max_boids as f32,
                reason: "must be from 1 to 10 million (FlockSettings::MAX_BOIDS)",
            });
        }
        Ok(())
    }
}

/// A [`flock_core3d::Executor`] on a Bevy [`TaskPool`], as the plugin's `TaskPoolExecutor`
/// is for the 2D kernel.
#[derive(Clone, Copy, Debug)]
pub struct PoolExecutor<'a>(pub &'a TaskPool);

impl Executor for PoolExecutor<'_> {
    fn threads(&self) -> usize {
        // The thread that opens the scope works on its tasks too.
        self.0.thread_num() + 1
    }

    fn for_each_chunk<T, F>(&self, data: &mut [T], chunk_len: usize, task: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Sync,
    {
        let chunk_len = chunk_len.max(1);
        if data.len() <= chunk_len {
            task(0, data);
            return;
        }
        let task = &task;
        self.0.scope(|scope| {
            for (i, chunk) in data.chunks_mut(chunk_len).enumerate() {
                scope.spawn(async move { task(i * chunk_len, chunk) });
            }
        });
    }
}
