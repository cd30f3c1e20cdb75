//! `flock`'s kernel paths in 3D: `flock_core3d`, with the 3D plugin's settings and task-pool
//! executor. The files under `dim/` are compiled here and in [`crate::dim2`], one source for
//! both dimensions.

pub use bevy_flock3d as plugin;
pub use bevy_flock3d::{FlockSettings as Settings, TaskPoolExecutor as PoolExecutor};
pub use flock_core3d as kernel;
pub use flock_gpu3d as gpu_kernel;

/// The other dimension, for naming its files when they are given to this one.
pub use crate::dim2 as other;

dimension_modules!();
