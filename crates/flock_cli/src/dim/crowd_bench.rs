//! `flock crowd-bench` in this module's dimension: `App::update()` of a flock whose every boid
//! avoids the others by ORCA, against the same flock with unaligned collision avoidance.

use std::time::{Duration, Instant};

use super::kernel::IndexKind;
use super::kernel::steering::{CollisionParams, OrcaParams};
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
                    params: OrcaParams {
                        radius: reach / 10.0,
                        neighbour_distance: reach,
                        clearance: 0.0,
                        ..OrcaParams::default()
                    },
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
