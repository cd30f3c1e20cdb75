//! The engine-free kernel of `bevy_flock`: Craig Reynolds' boids over plain slices.
//!
//! The kernel works on contiguous buffers (structure of arrays): one slice of positions, one of
//! velocities, one of per-boid rule weights. One step is
//!
//! 1. build a [`NeighbourIndex`] over the positions: the uniform [`Grid`] (the default), a
//!    [`KdTree`] or [`BruteForce`], chosen by [`IndexKind`] through [`AnyIndex`];
//! 2. [`AnyIndex::compute_forces`]: for every boid, one pass over its neighbours gives separation,
//!    alignment and cohesion (the merged pass of Processing's *Flocking* as ported to Unity), each
//!    rule with its own radius and weight, every boid reading the same snapshot; the grid's pass is
//!    vectorised, the others go through [`compute_forces`], the reference;
//! 3. [`integrate`]: velocity, speed limits, position;
//! 4. [`apply_edge`]: wrap or bounce at the bounds.
//!
//! Work is split over threads by an [`Executor`] the caller passes in ([`Serial`],
//! [`ScopedThreads`], or a task pool's), and the result does not depend on the thread count.
//! [`Flock`] bundles the buffers and runs these steps in order; the Bevy plugin calls the same
//! functions on buffers it copies out of the ECS.
//!
//! The result is also the same on every x86-64 processor, whatever SIMD width the grid picks,
//! and [`Flock::state_hash`] gives a lockstep game a cheap check of it each tick
//! ([`lockstep`] says exactly what is guaranteed and what is not tested).
//!
//! Units are world units and seconds. With `dt = 1` the kernel reproduces the per-frame formulas
//! of the source documents.
//!
//! ```
//! # #[cfg(flock_3d)] extern crate flock_core3d as flock_core;
//! use flock_core::{Flock, FlockConfig};
//!
//! let config = FlockConfig::default();
//! let mut flock = Flock::random(100, &config, 7);
//! for _ in 0..10 {
//!     flock.step(&config, 1.0 / 60.0);
//! }
//! assert!(flock.positions().iter().all(|p| config.bounds.contains(*p)));
//! ```
#![warn(missing_docs)]

mod config;
mod edges;
mod flock;
pub mod group;
pub mod index;
mod integrate;
pub mod lockstep;
mod math;
pub mod metrics;
pub mod parallel;
mod prefetch;
mod presets;
mod rules;
pub mod shape;
mod sight;
mod space;
pub mod steering;

pub use config::{
    ConfigError, EdgeMode, FlockConfig, IndexKind, Neighbours, RuleWeights, SpeedMode,
};
pub use edges::{apply_edge, jump_point, wrap_point};
pub use flock::Flock;
pub use index::{AnyIndex, BruteForce, Grid, KdTree, NeighbourIndex};
pub use integrate::{integrate, limit_speed, limit_speed_to};
pub use math::{
    Bounds, DIMENSIONS, ForceLimit, Vector, limit_force, planar, random_direction, random_point,
    world_size,
};
pub use parallel::{Executor, ScopedThreads, Serial};
pub use presets::DOCUMENT_FPS;
pub use rules::{
    ForceInputs, NeighbourStats, RESCALE_DEAD_ZONE, RuleForces, RuleSums, StepConstants,
    compute_forces, keep_nearest, rule_forces,
};
pub use space::Space;

// The README's code blocks are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
