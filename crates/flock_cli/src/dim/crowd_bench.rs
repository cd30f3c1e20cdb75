//! `flock crowd-bench` in this module's dimension: `App::update()` of a flock whose every boid
//! avoids the others by ORCA, against the same flock with unaligned collision avoidance; and the
//! kernel's ORCA crowd step alone, as RVO2's `doStep` is timed.

use std::time::{Duration, Instant};

use bevy::tasks::TaskPool;

use super::PoolExecutor;
use super::kernel::steering::{CollisionParams, CrowdAgent, OrcaCrowd, OrcaParams, Shape};
use super::kernel::{IndexKind, Vector};
use super::kernel_bench::bench_config;
use super::plugin::{AvoidCollisions, Boid, Orca, TimeSlicing};
use crate::bench::median;
use crate::crowd_bench::Avoidance;

/// The median `App::update()` of `count` boids in `flock bench`'s 32-neighbour world (the
/// Processing flock, wrapping), each with `avoidance` worked out one step in `every` (time
/// slicing with no focus), after `warmup` updates, over `samples`.
pub fn measure(
    count: usize,
    avoidance: Avoidance,
    every: u32,
    warmup: usize,
    samples: usize,
) -> Duration {
    let config = bench_config(count, 32, IndexKind::Grid);
    let reach = config.max_radius();
    let mut app = super::app_bench::bench_app(config, count, 7);
    app.insert_resource(TimeSlicing::new(every, 0.0));
    let mut boids = app.world_mut().query_filtered::<bevy::prelude::Entity, bevy::prelude::With<Boid>>();
    let entities: Vec<_> = boids.iter(app.world()).collect();
    for entity in entities {
        let mut boid = app.world_mut().entity_mut(entity);
        match avoidance {
            Avoidance::Orca => {
                boid.insert(Orca {
                    params: bench_orca(reach),
                });
            }
            Avoidance::AvoidCollisions => {
                boid.insert(AvoidCollisions {
                    params: CollisionParams {
                        min_distance: reach / 5.0,
                        horizon: 2.0,
                    },
                    weight: 1.0,
                });
            }
        }
    }
    for _ in 0..warmup {
        app.update();
    }
    let times = (0..samples)
        .map(|_| {
            let begin = Instant::now();
            app.update();
            begin.elapsed()
        })
        .collect();
    median(times)
}

/// The ORCA parameters both benchmarks give every agent (and `tools/orca_vs_rvo2.py` gives
/// RVO2's): RVO2's agent with a neighbour distance of the flock's reach, a tenth of it as the
/// radius, ten neighbours, horizons of 2 s (agents) and 1 s (obstacles).
pub fn bench_orca(reach: f32) -> OrcaParams {
    OrcaParams::rvo2(reach, 10, 2.0, 1.0, reach / 10.0)
}

/// The median [`OrcaCrowd::step`] of `count` agents placed at random in `flock bench`'s
/// 32-neighbour world (not wrapping, as RVO2's), each preferring its maximum speed in a random
/// direction, time step 1/60 s, on `pool`; after `warmup` steps, over `samples`.
pub fn measure_kernel(
    pool: &TaskPool,
    count: usize,
    warmup: usize,
    samples: usize,
) -> Duration {
    let config = bench_config(count, 32, IndexKind::Grid);
    let params = bench_orca(config.max_radius());
    let mut state = 7_u64;
    let (low, size) = (config.bounds.min, config.bounds.size());
    let mut agents: Vec<CrowdAgent> = (0..count)
        .map(|_| {
            let mut position = Vector::ZERO;
            let mut direction = Vector::ZERO;
            for axis in 0..position.to_array().len() {
                position[axis] = low[axis] + size[axis] * unit(&mut state);
                direction[axis] = 2.0 * unit(&mut state) - 1.0;
            }
            CrowdAgent {
                position,
                velocity: Vector::ZERO,
                preferred_velocity: direction.normalize_or(Vector::X) * config.max_speed,
                max_speed: config.max_speed,
                params,
            }
        })
        .collect();
    let mut crowd = OrcaCrowd::default();
    let executor = PoolExecutor(pool);
    let mut step = || crowd.step(&mut agents, &[] as &[Shape], 1.0 / 60.0, None, &executor);
    for _ in 0..warmup {
        step();
    }
    let times = (0..samples)
        .map(|_| {
            let begin = Instant::now();
            step();
            begin.elapsed()
        })
        .collect();
    median(times)
}

/// A number in `[0, 1)` from SplitMix64, advancing `state`.
fn unit(state: &mut u64) -> f32 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 24) as f32
}
