//! The flock on the GPU: `flock_core`'s rules in WGSL compute shaders, on the `wgpu` that Bevy
//! builds, with no engine.
//!
//! [`DeviceFlock`] keeps the boids in storage buffers and runs one step as a few compute passes:
//!
//! 1. the uniform grid, rebuilt every step on the device: each boid's cell counted with
//!    atomics, an exclusive prefix scan of the counts (three levels, so up to [`MAX_CELLS`]
//!    cells), a scatter of the boids into cell order (each cell's boids in index order), so a
//!    boid's neighbours are read from contiguous memory, a row of cells at a time. The grid
//!    has about two cells per boid at most (and as many as the device's buffers hold): cells
//!    are one look wide while the cap allows and widen only as far as it needs, so the work
//!    per boid grows smoothly with the flock;
//! 2. steering, one invocation per boid: separation, alignment and cohesion over the boids of
//!    the neighbouring cells, as `flock_core`'s `rule_forces` defines them (radii, weights,
//!    field of view, force limits, response time), then integration (mass, the speed mode) and
//!    the edges, written back to the boid's own slot.
//!
//! The settings are the CPU's [`FlockConfig`], checked by [`check_config`] (as
//! [`FlockConfig::validate`] checks them, with metric neighbours: the topological rule is the
//! CPU kernel's): invalid settings, states that are not finite, a capacity the device cannot
//! hold and a bad time step are a [`GpuError`] before anything reaches the device. A device
//! that cannot run the flock is named by [`check_limits`], and [`max_boids`] says how many
//! boids it holds, both from its limits alone, so a caller can refuse a count before it makes
//! a single boid. Every buffer and dispatch is sized within those limits; wgpu's error scopes
//! are not used (in Bevy's build of wgpu they are one stack per device shared by all threads,
//! which the renderer's own scopes use too).
//!
//! **Gameplay**, as the Bevy plugin's CPU behaviours define it, in a second build of the
//! steering pass (a flock without gameplay steps exactly as before):
//! - up to [`MAX_SPECIES`] species ([`SpeciesSettings`]: each its own weights, radii, max
//!   speed and force), which flock only with their own kind, and hunts between them
//!   ([`GpuHunt`]: prey flee predators, predators pursue the nearest prey);
//! - up to [`MAX_POINTS`] points the game moves every frame ([`GpuPoint`]: attractors,
//!   repellers, predators);
//! - up to [`MAX_OBSTACLES`] of flock_core's `Shape`s, avoided as its `avoid_obstacles` does
//!   ([`ObstacleAvoidance`]: circles, rectangles, rotated rectangles and polygons in 2D;
//!   spheres, boxes, rotated boxes and capsules in 3D);
//! - one enclosure every boid keeps to ([`Containment`]: flock_core's `contain`, in a polygon
//!   in 2D, a box in 3D).
//!
//! **Queries** without reading the flock back ([`DeviceFlock::query_near`],
//! [`DeviceFlock::poll_query`]): how many boids are within a radius of a point and the nearest
//! few ([`NearQuery`]), answered by two small passes and read back asynchronously.
//!
//! The behaviours' forces are summed, truncated to the max force and added to the flocking
//! force, as the plugin combines them. Everything is checked on the host first, and too many
//! of anything is an error, never a truncation.
//!
//! **Deterministic on one device:** each cell's boids are visited in index order (not in the
//! order the atomics counted them), so the same flock stepped with the same settings gives the
//! same buffers, bit for bit, from run to run on one GPU and driver. The result matches the CPU
//! kernel's step to within rounding (the CPU sums neighbours in another order), not bit for
//! bit.
//!
//! `flock_gpu3d` compiles this source with the `flock_3d` cfg, as `flock_core3d` does:
//! [`Vector`] is then `Vec3` and the shaders get the 3D prelude. The WGSL is written once,
//! against `alias Vector` and a `DIMENSIONS` constant that the host prepends.
//!
//! ```no_run
//! # #[cfg(flock_3d)] extern crate flock_gpu3d as flock_gpu;
//! use flock_core::{Flock, FlockConfig};
//! use flock_gpu::{DeviceFlock, request_device};
//!
//! let (device, queue, _adapter) = request_device().expect("a GPU adapter");
//! let config = FlockConfig::default();
//! let start = Flock::random(10_000, &config, 7);
//! let mut flock = DeviceFlock::new(&device, &queue, config, 10_000).unwrap();
//! flock.upload(start.positions(), start.velocities()).unwrap();
//! for _ in 0..60 {
//!     flock.step(1.0 / 60.0).unwrap();
//! }
//! let (positions, velocities) = flock.read_back().unwrap();
//! ```
#![warn(missing_docs)]

mod capability;
mod containment;
mod device;
mod error;
mod flock;
mod grid;
mod layout;
mod obstacles;
mod params;
mod points;
mod query;
mod shaders;
mod species;
mod timing;

pub use capability::{MAX_BOIDS, check_limits, max_boids};
pub use device::{block_on, request_device};
pub use error::GpuError;
pub use flock::{DeviceFlock, FlockPipelines, check_config};

/// The kernel's flock under its earlier name, which the Bevy plugin's handle
/// (`bevy_flock::gpu::GpuFlock`) also has.
#[deprecated(
    note = "renamed `DeviceFlock`, so it is not confused with the Bevy plugin's `GpuFlock` handle"
)]
pub type GpuFlock = DeviceFlock;
pub use containment::{Containment, MAX_ENCLOSURE_VERTICES, check_containment};
pub use grid::MAX_CELLS;
pub use layout::{BOID_BYTES, boid_from_floats, boid_to_floats};
pub use obstacles::{MAX_OBSTACLES, MAX_POLYGON_VERTICES, ObstacleAvoidance, check_obstacles};
pub use points::{GpuPoint, MAX_POINTS, check_points};
pub use query::{MAX_NEAREST, NearQuery, QueryResult, check_query};
pub use species::{GpuHunt, MAX_HUNTS, MAX_SPECIES, SpeciesSettings, check_hunts, check_species};

/// The kernel's vector type: `Vec2` in `flock_gpu`, `Vec3` in `flock_gpu3d`.
pub use flock_core::{DIMENSIONS, FlockConfig, Vector};

/// The `wgpu` this crate was built with.
pub use wgpu;

/// An engine keeps the flock in a resource shared between threads: it must stay `Send` and
/// `Sync` (a compile-time check).
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<DeviceFlock>();
};
