//! The library behind the `flock` command line tool: its subcommands, and the benchmark
//! scenarios that `cargo bench` shares with `flock bench`.

/// Declares the modules under `dim/`: [`dim2`] and [`dim3`] each compile them once, over the
/// crates they name `kernel`, `gpu_kernel`, `plugin`, `Settings` and `PoolExecutor`.
macro_rules! dimension_modules {
    () => {
        #[path = "dim/app_bench.rs"]
        #[allow(clippy::duplicate_mod)] // compiled once per dimension, on purpose
        pub mod app_bench;
        #[path = "dim/boids.rs"]
        #[allow(clippy::duplicate_mod)]
        pub mod boids;
        #[path = "dim/crowd_bench.rs"]
        #[allow(clippy::duplicate_mod)]
        pub mod crowd_bench;
        #[path = "dim/crowd_circle.rs"]
        #[allow(clippy::duplicate_mod)]
        pub mod crowd_circle;
        #[path = "dim/gpu_bench.rs"]
        #[allow(clippy::duplicate_mod)]
        pub mod gpu_bench;
        #[path = "dim/kernel_bench.rs"]
        #[allow(clippy::duplicate_mod)]
        pub mod kernel_bench;
        #[path = "dim/settings.rs"]
        #[allow(clippy::duplicate_mod)]
        pub mod settings;
        #[path = "dim/simulate.rs"]
        #[allow(clippy::duplicate_mod)]
        pub mod simulate;
    };
}

pub mod bench;
pub mod crowd_bench;
pub mod crowd_circle;
pub mod dim2;
pub mod dim3;
pub mod input;
pub mod memory;
pub mod simulate;
pub mod soak;
