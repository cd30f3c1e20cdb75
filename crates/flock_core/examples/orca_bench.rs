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
//! 10000 100000); prints one line per count: `COUNT STEPS_PER_SECOND`. Counts above
//! [`MAX_AGENTS`], boxes above [`MAX_BOXES`], and boxes that leave no room for the agents are
//! refused with a message, as is anything that is not a whole number.

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

/// The most agents one measurement takes (about a gigabyte of agents and buffers).
const MAX_AGENTS: usize = 10_000_000;
/// The most boxes: building their obstacle tree grows faster than their count.
const MAX_BOXES: usize = 100_000;
/// How many random places an agent may try before the boxes count as leaving it no room.
const PLACEMENT_TRIES: usize = 10_000;
/// How to call it.
const USAGE: &str =
    "usage: orca_bench [--threads N] [--samples N] [--boxes N] [--contact] [COUNT ...]";

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

/// The median step of `count` agents, in steps per second; an error if the boxes leave them no
/// room.
fn steps_per_second(count: usize, options: &Options) -> Result<f64, String> {
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
    // Agents start outside every box (with room for their radius).
    let inside = |position: Vector, shape: &Shape| {
        shape
            .bounding_ball()
            .is_some_and(|(centre, radius)| position.distance(centre) < radius + REACH / 10.0)
    };
    let mut agents: Vec<CrowdAgent> = Vec::with_capacity(count);
    for _ in 0..count {
        let (mut position, mut direction) = (Vector::ZERO, Vector::ZERO);
        let mut tries = 0;
        loop {
            for axis in 0..DIMENSIONS {
                position[axis] = (unit(&mut state) - 0.5) * side;
                direction[axis] = 2.0 * unit(&mut state) - 1.0;
            }
            if !shapes.iter().any(|shape| inside(position, shape)) {
                break;
            }
            tries += 1;
            if tries == PLACEMENT_TRIES {
                return Err(format!(
                    "{box_count} boxes leave no room for {count} agents: try fewer boxes or more agents"
                ));
            }
        }
        agents.push(CrowdAgent::standing(
            position,
            direction.normalize_or(Vector::X) * MAX_SPEED,
            MAX_SPEED,
            params,
        ));
    }
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
    Ok(1.0 / times[times.len() / 2])
}

/// The options and counts of the command line, or why they are refused.
fn parse(args: impl IntoIterator<Item = String>) -> Result<(Options, Vec<usize>), String> {
    let mut options = Options {
        threads: 2,
        samples: 5,
        box_count: 0,
        contact: false,
    };
    let mut counts = Vec::new();
    let mut args = args.into_iter();
    let whole = |name: &str, value: Option<String>, most: usize| {
        let value = value.ok_or_else(|| format!("{name} needs a number"))?;
        let number: usize = value
            .parse()
            .map_err(|_| format!("{name}: `{value}` is not a whole number"))?;
        if number > most {
            return Err(format!("{name}: {number} is more than the {most} allowed"));
        }
        Ok(number)
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--threads" => options.threads = whole("--threads", args.next(), 1024)?.max(1),
            "--samples" => options.samples = whole("--samples", args.next(), 100_000)?.max(1),
            "--boxes" => options.box_count = whole("--boxes", args.next(), MAX_BOXES)?,
            "--contact" => options.contact = true,
            flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
            count => counts.push(whole(
                "a count of agents",
                Some(count.to_owned()),
                MAX_AGENTS,
            )?),
        }
    }
    if counts.is_empty() {
        counts = vec![1000, 10_000, 100_000];
    }
    Ok((options, counts))
}

fn main() {
    let fail = |message: String| -> ! {
        eprintln!("orca_bench: {message}\n{USAGE}");
        std::process::exit(2)
    };
    let (options, counts) = parse(std::env::args().skip(1)).unwrap_or_else(|message| fail(message));
    for count in counts {
        match steps_per_second(count, &options) {
            Ok(rate) => println!("{count} {rate:.1}"),
            Err(message) => fail(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<(Options, Vec<usize>), String> {
        parse(args.iter().map(|arg| arg.to_string()))
    }

    #[test]
    fn options_and_counts_are_read() {
        let (options, counts) = parsed(&[
            "--threads",
            "3",
            "--samples",
            "0",
            "--boxes",
            "4",
            "--contact",
            "7",
            "0",
        ])
        .unwrap();
        assert_eq!(
            (
                options.threads,
                options.samples,
                options.box_count,
                options.contact
            ),
            (3, 1, 4, true)
        );
        assert_eq!(counts, vec![7, 0]);
        assert_eq!(parsed(&[]).unwrap().1, vec![1000, 10_000, 100_000]);
    }

    #[test]
    fn what_is_not_a_whole_number_within_its_cap_is_refused() {
        for args in [
            &["--threads"][..],
            &["--samples", "NaN"],
            &["--boxes", "-1"],
            &["--boxes", "1e3"],
            &["--threads", "99999999999999999999999"],
            &["ten"],
            &["--fast"],
            &["-5"],
            &["10000001"],
            &["--boxes", "100001"],
        ] {
            assert!(parsed(args).is_err(), "{args:?} accepted");
        }
    }

    #[test]
    fn boxes_that_leave_no_room_are_an_error_not_a_hang() {
        let options = Options {
            threads: 1,
            samples: 1,
            box_count: 100,
            contact: false,
        };
        // A hundred boxes over the square of ten agents cover it; in 3D they stand on one
        // plane, and the agents find room above and below.
        let placed = steps_per_second(10, &options);
        if DIMENSIONS == 2 {
            let error = placed.unwrap_err();
            assert!(error.contains("no room"), "{error}");
        } else {
            assert!(placed.unwrap() > 0.0);
        }
        let options = Options {
            box_count: 0,
            ..options
        };
        assert!(steps_per_second(0, &options).unwrap().is_finite());
        assert!(steps_per_second(50, &options).unwrap() > 0.0);
    }
}
