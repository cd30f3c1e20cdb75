//! [`OrcaCrowd`]'s neighbour search against brute force: every agent's velocity from the
//! crowd's grid, on one thread and on several, is the bits [`orca_velocity`] gives with every
//! agent offered, for crowds packed in a box (the grid's dense layout), spread far apart (its
//! hashed layout), in a wrapping world (neighbours across the seams), on a lattice (neighbours
//! at equal distances, ordered by id), far more crowded than the neighbour count (the search
//! narrows as it goes), moving between steps (the search starts near where each agent's
//! neighbours were, and looks again where that was too near), and with agents whose position or
//! velocity is not a number among them.
//! `flock_core3d` runs the same cases in 3D.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::unit;
use kernel::parallel::{ScopedThreads, Serial};
use kernel::steering::{
    CrowdAgent, OrcaAgent, OrcaCrowd, OrcaNeighbour, OrcaParams, OrcaScratch, Shape, orca_velocity,
};
use kernel::{Bounds, DIMENSIONS, Space, Vector};

/// `count` agents at random in a box of `side` about the origin, every tenth far out at
/// `outlier` (if not zero), with mixed radii, speeds and neighbour counts.
fn crowd(count: usize, side: f32, outlier: f32) -> Vec<CrowdAgent> {
    let mut state = 11;
    (0..count)
        .map(|i| {
            let mut position = Vector::ZERO;
            let mut velocity = Vector::ZERO;
            let mut preferred = Vector::ZERO;
            for axis in 0..DIMENSIONS {
                position[axis] = (unit(&mut state) - 0.5) * side;
                velocity[axis] = unit(&mut state) * 2.0 - 1.0;
                preferred[axis] = unit(&mut state) * 4.0 - 2.0;
            }
            if outlier > 0.0 && i % 10 == 0 {
                position[0] += outlier * (i as f32 / count as f32);
            }
            CrowdAgent {
                position,
                velocity,
                preferred_velocity: preferred,
                max_speed: 2.0,
                params: OrcaParams {
                    radius: 0.4 + 0.2 * (i % 3) as f32,
                    neighbour_distance: 3.0 + (i % 4) as f32,
                    max_neighbours: 4 + i % 8,
                    yield_at_rest: i % 2 == 0,
                    ..OrcaParams::rvo2(5.0, 10, 2.0, 1.0, 0.5)
                },
            }
        })
        .collect()
}

/// Every agent's velocity with every other offered, each seen from the agent across the seams
/// of `space`.
fn brute_force(agents: &[CrowdAgent], space: &Space) -> Vec<Vector> {
    let mut scratch = OrcaScratch::default();
    agents
        .iter()
        .enumerate()
        .map(|(i, agent)| {
            let me = OrcaAgent {
                position: agent.position,
                velocity: agent.velocity,
                preferred_velocity: agent.preferred_velocity,
                max_speed: agent.max_speed,
                id: i as u64,
            };
            let others = agents.iter().enumerate().map(|(j, other)| OrcaNeighbour {
                position: agent.position + space.delta(agent.position, other.position),
                velocity: other.velocity,
                radius: other.params.radius,
                share: other.params.share(
                    other.preferred_velocity.clamp_length_max(other.max_speed),
                    other.max_speed,
                ),
                id: j as u64,
            });
            orca_velocity(
                &me,
                others,
                [] as [Shape; 0],
                &agent.params,
                0.25,
                &mut scratch,
            )
        })
        .collect()
}

fn check(agents: &[CrowdAgent], space: Space) {
    check_with(&mut OrcaCrowd::default(), agents, space);
}

/// [`check`] with a crowd that may have worked out other agents before (its searches start
/// near where those agents' neighbours were).
fn check_with(crowd: &mut OrcaCrowd, agents: &[CrowdAgent], space: Space) {
    let expected = brute_force(agents, &space);
    let differs = |got: &[Vector]| {
        got.iter()
            .zip(&expected)
            .position(|(a, b)| a != b)
            .map(|i| (i, got[i], expected[i]))
    };
    crowd.compute_in(Some(&space), agents, &[] as &[Shape], 0.25, &Serial);
    assert_eq!(
        differs(crowd.new_velocities()),
        None,
        "(agent, grid, brute force)"
    );
    for threads in [2, 3, 4, 7] {
        crowd.compute_in(
            Some(&space),
            agents,
            &[] as &[Shape],
            0.25,
            &ScopedThreads(threads),
        );
        assert_eq!(
            differs(crowd.new_velocities()),
            None,
            "on {threads} threads"
        );
    }
}

fn plain() -> Space {
    Space {
        bounds: Bounds::centered(Vector::splat(1.0)),
        periodic: false,
    }
}

#[test]
fn a_packed_crowd_finds_the_neighbours_brute_force_finds() {
    check(&crowd(1500, 60.0, 0.0), plain());
}

#[test]
fn a_crowd_spread_far_apart_finds_the_neighbours_brute_force_finds() {
    check(&crowd(1500, 60.0, 1e7), plain());
}

#[test]
fn a_wrapping_world_finds_neighbours_across_its_seams() {
    let agents = crowd(1200, 50.0, 0.0);
    check(
        &agents,
        Space {
            bounds: Bounds::centered(Vector::splat(50.0)),
            periodic: true,
        },
    );
}

#[test]
fn a_lattice_orders_neighbours_at_equal_distances_by_id() {
    // Agents on the points of a square (cubic) lattice of spacing 1: many neighbours at exactly
    // the same distance, fewer kept than tie, so the id decides which.
    let per_side: usize = if DIMENSIONS == 2 { 30 } else { 10 };
    let count = per_side.pow(DIMENSIONS as u32);
    let mut agents = crowd(count, 1.0, 0.0);
    for (index, agent) in agents.iter_mut().enumerate() {
        let mut rest = index;
        for axis in 0..DIMENSIONS {
            agent.position[axis] = (rest % per_side) as f32 - per_side as f32 / 2.0;
            rest /= per_side;
        }
        agent.params.neighbour_distance = 2.5;
        agent.params.max_neighbours = 3 + index % 4;
        agent.params.radius = 0.3;
    }
    check(&agents, plain());
}

#[test]
fn a_crowd_far_denser_than_its_neighbour_count_finds_the_nearest() {
    // About three hundred agents within each one's reach, four to seven of them used.
    let mut agents = crowd(1500, 20.0, 0.0);
    for (index, agent) in agents.iter_mut().enumerate() {
        agent.params.neighbour_distance = 5.0;
        agent.params.max_neighbours = 4 + index % 4;
        agent.params.radius = 0.1;
    }
    check(&agents, plain());
}

#[test]
fn a_crowd_that_moves_between_steps_finds_the_neighbours_brute_force_finds() {
    // Each step's search starts near where each agent's neighbours were the step before: most
    // agents drift a little, one in seven jumps across the crowd (its last neighbours no guide,
    // its new ones perhaps nearer or farther), and agents leave (the ids after them shift).
    let mut agents = crowd(1500, 60.0, 0.0);
    let mut crowd = OrcaCrowd::default();
    let mut state = 5;
    for round in 0..6 {
        check_with(&mut crowd, &agents, plain());
        for (index, agent) in agents.iter_mut().enumerate() {
            let stride = if index % 7 == round { 60.0 } else { 0.5 };
            for axis in 0..DIMENSIONS {
                agent.position[axis] += (unit(&mut state) - 0.5) * stride;
            }
        }
        agents.drain(100 * round..100 * round + 17);
    }
}

#[test]
fn agents_whose_position_or_velocity_is_not_a_number_are_nobodys_neighbour() {
    let mut agents = crowd(1200, 40.0, 0.0);
    for (index, agent) in agents.iter_mut().enumerate() {
        match index % 50 {
            3 => agent.velocity = Vector::splat(f32::NAN),
            7 => agent.velocity = Vector::splat(f32::INFINITY),
            11 => agent.position = Vector::splat(f32::NAN),
            13 => agent.position = Vector::splat(f32::NEG_INFINITY),
            _ => {}
        }
    }
    check(&agents, plain());
    let mut crowd = OrcaCrowd::default();
    crowd.compute(&agents, &[] as &[Shape], 0.25, &ScopedThreads(2));
    for (index, velocity) in crowd.new_velocities().iter().enumerate() {
        assert!(velocity.is_finite(), "agent {index}: {velocity}");
        if [3, 7, 11, 13].contains(&(index % 50)) {
            assert_eq!(*velocity, Vector::ZERO, "agent {index}");
        }
    }
}
