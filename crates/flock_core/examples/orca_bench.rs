//! Steps per second of the kernel's ORCA crowd step (`OrcaCrowd::step`), as
//! `tools/orca_vs_rvo2.py` times RVO2's `doStep` beside it: agents at random in a square (cube
//! in 3D, where `flock_core3d` compiles this file) holding 32 agents within the neighbour
//! distance of 50 on average (`flock bench`'s world), 10 neighbours used, radius 5, horizons
//! 2 s and 1 s, maximum speed 120, each preferring its maximum speed in a random direction,
//! time step 1/60 s; the median of `--samples` steps after one, on `--threads` threads.
//!
//! With `--boxes N`, N square obstacles (cubes in 3D, on the plane z = 0) stand on a grid over
//! the square, each a fifth of its grid cell wide, built once into [`OrcaObstacles`]; agents
//! start outside them. With `--contact`, each step ends with the default contact pass.
//!
//! `cargo run --release -p flock_core --example orca_bench -- [--threads N] [--samples N]
//! [--boxes N] [--contact] [COUNT ...]` (default two threads, five samples, no boxes, 1000
//! 10000 100000); prints one line per count: `COUNT STEPS_PER_SECOND`.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

use std::time::Instant;

use kernel::parallel::ScopedThreads;
use kernel::steering::{ContactPass, CrowdAgent, OrcaCrowd, OrcaObstacles, OrcaParams, Shape};
use kernel::{DIMENSIONS, Vector};

/// The neighbour distance, and the radius of the disc (ball) holding 32 agents on average.
const REACH: f32 = 50.0;
const NEIGHBOURS: f32 = 32.0;
const MAX_SPEED: f32 = 120.0;

/// A number in `[0, 1)` from SplitMix64, advancing `state`.
fn unit(state: &mut u64) -> f32 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 24) as f32
}

/// `count` boxes on a square grid over the square of `side` about the origin, each a fifth of
/// its cell wide.
fn boxes(count: usize, side: f32) -> Vec<Shape> {
    let per_row = (count as f32).sqrt().ceil() as usize;
    let cell = side / per_row.max(1) as f32;
    (0..count)
        .map(|index| {
            let mut centre = Vector::ZERO;
            centre[0] = ((index % per_row) as f32 + 0.5) * cell - side / 2.0;
            centre[1] = ((index / per_row) as f32 + 0.5) * cell - side / 2.0;
            let half_size = Vector::splat(cell / 10.0);
            #[cfg(not(flock_3d))]
            return Shape::Rect { centre, half_size };
            #[cfg(flock_3d)]
            return Shape::Cuboid { centre, half_size };
        })
        .collect()
}

/// What to run.
struct Options {
    threads: usize,
    samples: usize,
    box_count: usize,
    contact: bool,
}

/// The median step of `count` agents, in steps per second.
fn steps_per_second(count: usize, options: &Options) -> f64 {
    let &Options {
        threads,
        samples,
        box_count,
        contact,
    } = options;
    let per_neighbour = count as f32 / NEIGHBOURS;
    let side = if DIMENSIONS == 2 {
        (per_neighbour * std::f32::consts::PI * REACH * REACH).sqrt()
    } else {
        (per_neighbour * 4.0 / 3.0 * std::f32::consts::PI * REACH.powi(3)).cbrt()
    };
    let params = OrcaParams::rvo2(REACH, 10, 2.0, 1.0, REACH / 10.0);
    let shapes = boxes(box_count, side);
    let begin = Instant::now();
    let obstacles = OrcaObstacles::from_shapes(&shapes);
    if box_count > 0 {
        eprintln!("{box_count} boxes built in {:?}", begin.elapsed());
    }
    let mut state = 7;
    let mut agents: Vec<CrowdAgent> = (0..count)
        .map(|_| {
            let (mut position, mut direction) = (Vector::ZERO, Vector::ZERO);
            // Outside every box (with room for the agent's radius).
            loop {
                for axis in 0..DIMENSIONS {
                    position[axis] = (unit(&mut state) - 0.5) * side;
                    direction[axis] = 2.0 * unit(&mut state) - 1.0;
                }
                let inside = |shape: &Shape| {
                    let (centre, radius) = shape.bounding_ball().expect("finite");
                    position.distance(centre) < radius + REACH / 10.0
                };
                if !shapes.iter().any(inside) {
                    break;
                }
            }
            CrowdAgent::standing(
                position,
                direction.normalize_or(Vector::X) * MAX_SPEED,
                MAX_SPEED,
                params,
            )
        })
        .collect();
    let mut crowd = OrcaCrowd::default();
    let executor = ScopedThreads(threads);
    let pass = contact.then(ContactPass::default);
    let mut step = || {
        crowd.step(
            &mut agents,
            &obstacles,
            1.0 / 60.0,
            pass.as_ref(),
            &executor,
        )
    };
    step();
    let mut times: Vec<f64> = (0..samples.max(1))
        .map(|_| {
            let begin = Instant::now();
            step();
            begin.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    1.0 / times[times.len() / 2]
}

fn main() {
    let mut options = Options {
        threads: 2,
        samples: 5,
        box_count: 0,
        contact: false,
    };
    let mut counts = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |name: &str| {
            args.next()
                .and_then(|value| value.parse().ok())
                .unwrap_or_else(|| panic!("{name} needs a number"))
        };
        match arg.as_str() {
            "--threads" => options.threads = number("--threads"),
            "--samples" => options.samples = number("--samples"),
            "--boxes" => options.box_count = number("--boxes"),
            "--contact" => options.contact = true,
            count => counts.push(count.parse().expect("a count of agents")),
        }
    }
    if counts.is_empty() {
        counts = vec![1000, 10_000, 100_000];
    }
    for count in counts {
        println!("{count} {:.1}", steps_per_second(count, &options));
    }
}
