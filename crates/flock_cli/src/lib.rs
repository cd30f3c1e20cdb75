//! The library behind the `flock` command line tool: its subcommands, and the benchmark
//! scenarios that `cargo bench` shares with `flock bench`.

pub mod bench;
pub mod dim2;
pub mod dim3;
pub mod input;
pub mod memory;
pub mod simulate;
pub mod soak;
