//! The contact pass on several threads ([`ContactPass::separate_on`]) against the same pass on
//! the calling thread ([`ContactPass::separate`]): the same bits, in every agent's position and
//! in the overlap left, for 1, 2, 3, 4 and 7 threads, on a dense random crowd with and without
//! obstacles (agents that take no part among them), and through [`OrcaCrowd::step`] over
//! several steps. The crowds are large enough for several chunks on every thread count, and the
//! chunks differ between thread counts, so a chunk joined out of order or at the wrong offset
//! shows. `flock_core3d` runs the same cases in 3D.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::{aligned_box, ball, unit};
use kernel::parallel::{ScopedThreads, Serial};
use kernel::steering::{
    ContactPass, ContactScratch, CrowdAgent, OrcaCrowd, OrcaObstacles, OrcaParams, Shape,
};
use kernel::{DIMENSIONS, Vector};

const THREADS: [usize; 5] = [1, 2, 3, 4, 7];

/// The side of the square (cube) that holds `count` agents about one unit of room each: radii
/// of 0.4 to 0.8 overlap everywhere.
fn side(count: usize) -> f32 {
    (count as f32).powf(1.0 / DIMENSIONS as f32)
}

/// `count` agents at random in the square of [`side`] about the origin, with mixed radii and
/// walking in random directions; one in a hundred has a position that is not a number and one
/// in a hundred a radius of zero (both take no part).
fn crowd(count: usize) -> Vec<CrowdAgent> {
    let side = side(count);
    let mut state = 5;
    (0..count)
        .map(|i| {
            let (mut position, mut velocity) = (Vector::ZERO, Vector::ZERO);
            for axis in 0..DIMENSIONS {
                position[axis] = (unit(&mut state) - 0.5) * side;
                velocity[axis] = unit(&mut state) * 2.0 - 1.0;
            }
            if i % 100 == 37 {
                position = Vector::NAN;
            }
            let radius = if i % 100 == 71 {
                0.0
            } else {
                0.4 + 0.2 * (i % 3) as f32
            };
            let params = OrcaParams::rvo2(3.0, 10, 2.0, 1.0, radius);
            CrowdAgent::standing(position, velocity, 2.0, params)
        })
        .collect()
}

/// Boxes and balls on a grid over the crowd's square, with agents inside them.
fn obstacles(count: usize) -> OrcaObstacles {
    let side = side(count);
    let per_row = 6;
    let cell = side / per_row as f32;
    let shapes: Vec<Shape> = (0..per_row * per_row)
        .map(|index| {
            let mut centre = Vector::ZERO;
            centre[0] = ((index % per_row) as f32 + 0.5) * cell - side / 2.0;
            centre[1] = ((index / per_row) as f32 + 0.5) * cell - side / 2.0;
            if index % 2 == 0 {
                aligned_box(centre, Vector::splat(cell / 5.0))
            } else {
                ball(centre, cell / 4.0)
            }
        })
        .collect();
    OrcaObstacles::from_shapes(&shapes)
}

/// Every agent's position as bits (a NaN compares equal to itself).
fn bits(agents: &[CrowdAgent]) -> Vec<Vec<u32>> {
    agents
        .iter()
        .map(|agent| {
            agent
                .position
                .to_array()
                .iter()
                .map(|x| x.to_bits())
                .collect()
        })
        .collect()
}

/// The pass stops after a hundred sweeps: enough for the pushes to travel far through the
/// crowd, and quick without optimisations.
fn pass() -> ContactPass {
    ContactPass {
        iterations: 100,
        ..ContactPass::default()
    }
}

fn check_pass(count: usize, obstacles: &OrcaObstacles) {
    let start = crowd(count);
    let mut serial = start.clone();
    let left = pass().separate(&mut serial, obstacles, &mut ContactScratch::default());
    assert!(
        left > 0.0,
        "a crowd this dense still overlaps after the pass"
    );
    let expected = bits(&serial);
    let moved = expected
        .iter()
        .zip(bits(&start))
        .filter(|(a, b)| **a != *b)
        .count();
    assert!(moved > count / 2, "only {moved} of {count} agents moved");
    // One scratch for every thread count too: a pass with fewer chunks than the last leaves
    // the others unused.
    let mut kept = ContactScratch::default();
    for threads in THREADS.into_iter().chain(THREADS.into_iter().rev()) {
        let executor = ScopedThreads(threads);
        for scratch in [&mut kept, &mut ContactScratch::default()] {
            let mut agents = start.clone();
            let got = pass().separate_on(&executor, &mut agents, obstacles, scratch);
            assert_eq!(
                got.to_bits(),
                left.to_bits(),
                "{threads} threads: overlap left"
            );
            let differs = bits(&agents)
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b);
            assert_eq!(
                differs, None,
                "{threads} threads: the first agent that differs"
            );
        }
    }
}

#[test]
fn the_pass_gives_the_same_bits_on_any_number_of_threads() {
    check_pass(5000, &OrcaObstacles::default());
}

#[test]
fn the_pass_among_obstacles_gives_the_same_bits_on_any_number_of_threads() {
    let obstacles = obstacles(5000);
    assert!(!obstacles.is_empty());
    check_pass(5000, &obstacles);
}

#[test]
fn crowd_steps_with_the_pass_give_the_same_bits_on_any_number_of_threads() {
    let count = 3000;
    let obstacles = obstacles(count);
    let contact = pass();
    let run = |threads: Option<usize>| {
        let mut agents = crowd(count);
        let mut crowd = OrcaCrowd::default();
        for _ in 0..3 {
            match threads {
                None => crowd.step(&mut agents, &obstacles, 0.1, Some(&contact), &Serial),
                Some(threads) => crowd.step(
                    &mut agents,
                    &obstacles,
                    0.1,
                    Some(&contact),
                    &ScopedThreads(threads),
                ),
            }
        }
        (
            bits(&agents),
            agents
                .iter()
                .map(|agent| agent.velocity.to_array().map(f32::to_bits).to_vec())
                .collect::<Vec<_>>(),
        )
    };
    let expected = run(None);
    for threads in THREADS {
        assert!(run(Some(threads)) == expected, "{threads} threads");
    }
}
