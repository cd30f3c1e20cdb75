//! The library behind the `flock` command line tool: its subcommands, and the benchmark
//! scenarios that `cargo bench` shares with `flock bench`.

/// One dimension's module: the crates the files under `dim/` are compiled over, under the
/// names those files use (`plugin`, `kernel`, `gpu_kernel`, `Settings`, `PoolExecutor`, and
/// `other` for the other dimension's module), then the files themselves.
macro_rules! dimension {
    ($plugin:ident, $kernel:ident, $gpu_kernel:ident, $other:ident) => {
        /// The other dimension, for naming its files when they are given to this one.
        pub use crate::$other as other;
        pub use $gpu_kernel as gpu_kernel;
        pub use $kernel as kernel;
        pub use $plugin as plugin;
        pub use $plugin::{FlockSettings as Settings, TaskPoolExecutor as PoolExecutor};

        // Each file is compiled once per dimension, on purpose.
        #[allow(clippy::duplicate_mod)]
        pub mod app_bench;
        #[allow(clippy::duplicate_mod)]
        pub mod boids;
        #[allow(clippy::duplicate_mod)]
        pub mod crowd_bench;
        #[allow(clippy::duplicate_mod)]
        pub mod crowd_circle;
        #[allow(clippy::duplicate_mod)]
        pub mod gpu_bench;
        #[allow(clippy::duplicate_mod)]
        pub mod kernel_bench;
        #[allow(clippy::duplicate_mod)]
        pub mod nav_bench;
        #[allow(clippy::duplicate_mod)]
        pub mod settings;
        #[allow(clippy::duplicate_mod)]
        pub mod simulate;
    };
}

pub mod arguments;
pub mod bench;
pub mod crowd_bench;
pub mod crowd_circle;
pub mod input;
pub mod memory;
pub mod nav_bench;
pub mod simulate;
pub mod soak;

/// `flock`'s kernel paths in 2D: the files under `dim/` over `flock_core`, `flock_gpu` and
/// the plugin's settings and task-pool executor.
#[path = "dim"]
pub mod dim2 {
    dimension!(bevy_flock, flock_core, flock_gpu, dim3);
}

/// `flock`'s kernel paths in 3D: the same files, compiled again over `flock_core3d`,
/// `flock_gpu3d` and `bevy_flock3d`, as `flock_core3d` compiles `flock_core`'s source.
#[path = "dim"]
pub mod dim3 {
    dimension!(bevy_flock3d, flock_core3d, flock_gpu3d, dim2);
}
