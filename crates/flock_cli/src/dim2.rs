//! `flock`'s kernel paths in 2D: `flock_core`, with the plugin's settings and task-pool
//! executor. The files under `dim/` are compiled here and again in [`crate::dim3`]: one source
//! for both dimensions, as `flock_core3d` compiles `flock_core`'s.

pub use bevy_flock as plugin;
pub use bevy_flock::{FlockSettings as Settings, TaskPoolExecutor as PoolExecutor};
pub use flock_core as kernel;
pub use flock_gpu as gpu_kernel;

/// The other dimension, for naming its files when they are given to this one.
pub use crate::dim3 as other;

dimension_modules!();
