//! ORCA (optimal reciprocal collision avoidance): the properties the paper promises, checked
//! against brute force, and hostile inputs (RVO2 itself: `rvo2.rs`; its Circle family:
//! `crowd_circle.rs`). `flock_core3d` runs the same
//! cases in 3D (`[[test]] path` in its manifest).

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

mod common;

use common::*;
use kernel::steering::{
    HalfSpace, OrcaAgent, OrcaNeighbour, OrcaParams, OrcaScratch, Shape, orca_velocity,
};
use kernel::{DIMENSIONS, Vector};

const NO_OBSTACLES: [Shape; 0] = [];

fn params(radius: f32) -> OrcaParams {
    OrcaParams {
        radius,
        time_horizon: 10.0,
        obstacle_time_horizon: 10.0,
        neighbour_distance: 15.0,
        max_neighbours: 10,
        clearance: 0.0,
        responsibility: 0.5,
        yield_at_rest: true,
    }
}

fn agent(position: Vector, velocity: Vector, preferred_velocity: Vector, id: u64) -> OrcaAgent {
    OrcaAgent {
        position,
        velocity,
        preferred_velocity,
        max_speed: 2.0,
        id,
    }
}

fn neighbour(position: Vector, velocity: Vector, id: u64) -> OrcaNeighbour {
    OrcaNeighbour {
        position,
        velocity,
        radius: 1.0,
        share: 0.5,
        id,
    }
}

/// Every velocity of a grid over the cube around the ball of `radius`, `per_axis` points a side.
fn grid_velocities(radius: f32, per_axis: usize) -> impl Iterator<Item = Vector> {
    let count = per_axis.pow(DIMENSIONS as u32);
    (0..count).filter_map(move |index| {
        let mut v = Vector::ZERO;
        let mut rest = index;
        for axis in 0..DIMENSIONS {
            let step = rest % per_axis;
            rest /= per_axis;
            v[axis] = -radius + 2.0 * radius * step as f32 / (per_axis - 1) as f32;
        }
        (v.length() <= radius).then_some(v)
    })
}

fn worst_violation(constraints: &[HalfSpace], velocity: Vector) -> f32 {
    constraints
        .iter()
        .map(|constraint| constraint.violation(velocity))
        .fold(f32::MIN, f32::max)
}

/// Agents moving towards each other along the axes, crossing near the origin.
fn crossing_case() -> (OrcaAgent, Vec<OrcaNeighbour>) {
    let me = agent(
        xyz(-6.0, 0.5, 0.3),
        xyz(1.5, 0.0, 0.0),
        xyz(2.0, 0.0, 0.0),
        0,
    );
    let others = vec![
        neighbour(xyz(6.0, -0.5, 0.0), xyz(-1.5, 0.0, 0.0), 1),
        neighbour(xyz(0.5, 5.0, -0.2), xyz(0.0, -1.2, 0.0), 2),
        neighbour(xyz(-0.5, -4.0, 0.4), xyz(0.2, 1.0, 0.1), 3),
    ];
    (me, others)
}

#[test]
fn two_agents_head_on_pass_without_touching() {
    let radius = 1.0;
    let start = [xyz(-20.0, 0.0, 0.0), xyz(20.0, 0.0, 0.0)];
    let goals = [start[1], start[0]];
    let mut positions = start;
    let mut velocities = [Vector::ZERO; 2];
    let mut scratch = OrcaScratch::default();
    let mut closest = f32::MAX;
    let dt = 0.1;
    for _ in 0..400 {
        let next: Vec<Vector> = (0..2)
            .map(|i| {
                let other = 1 - i;
                let me = agent(
                    positions[i],
                    velocities[i],
                    (goals[i] - positions[i]).clamp_length_max(2.0),
                    i as u64,
                );
                let them = OrcaNeighbour {
                    radius,
                    ..neighbour(positions[other], velocities[other], other as u64)
                };
                orca_velocity(&me, [them], NO_OBSTACLES, &params(radius), dt, &mut scratch)
            })
            .collect();
        for ((position, velocity), new) in positions.iter_mut().zip(&mut velocities).zip(&next) {
            *velocity = *new;
            *position += *new * dt;
        }
        closest = closest.min(positions[0].distance(positions[1]));
    }
    assert!(closest >= 2.0 * radius - 1e-3, "closest centres {closest}");
    for i in 0..2 {
        assert!(
            positions[i].distance(goals[i]) < 0.1,
            "agent {i} at {} short of {}",
            positions[i],
            goals[i]
        );
    }
}

#[test]
fn a_feasible_answer_satisfies_every_constraint_and_is_nearest_the_preferred_velocity() {
    let (me, others) = crossing_case();
    let mut scratch = OrcaScratch::default();
    let wall = aligned_box(xyz(0.0, 6.0, 0.0), xyz(10.0, 2.0, 10.0));
    let velocity = orca_velocity(&me, others, [&wall], &params(1.0), 0.25, &mut scratch);
    let constraints = scratch.constraints();
    assert_eq!(scratch.obstacle_constraints(), 1, "the wall");
    assert_eq!(constraints.len(), 4, "and one for each neighbour");
    assert!(worst_violation(constraints, velocity) <= 1e-4);
    assert!(velocity.length() <= me.max_speed + 1e-5);

    // The feasible grid velocity nearest the preferred one is no nearer than the answer.
    let per_axis = if DIMENSIONS == 2 { 801 } else { 121 };
    let spacing = 2.0 * me.max_speed / (per_axis - 1) as f32;
    let best = grid_velocities(me.max_speed, per_axis)
        .filter(|&v| worst_violation(constraints, v) <= 0.0)
        .map(|v| v.distance(me.preferred_velocity))
        .fold(f32::MAX, f32::min);
    let answer = velocity.distance(me.preferred_velocity);
    assert!(best < f32::MAX, "the grid found the program feasible");
    assert!(
        answer <= best + 1e-4,
        "ORCA's answer is {answer} from the preferred velocity, the grid's best {best}"
    );
    assert!(
        answer >= best - spacing * (DIMENSIONS as f32).sqrt(),
        "no grid point is much nearer than the optimum ({answer} against {best})"
    );
}

/// Checks the fallback's answer for the last call's constraints against brute force over a
/// grid: the obstacles' constraints kept, the largest violation of the neighbours' no larger
/// than the grid's least (RVO2's `linearProgram3` minimises it over the constraints from the
/// first that failed on, which here, surrounded on every side, bind it as all of them would).
fn check_fallback(scratch: &OrcaScratch, velocity: Vector, max_speed: f32) {
    let constraints = scratch.constraints();
    let (kept, minimised) = constraints.split_at(scratch.obstacle_constraints());
    let per_axis = if DIMENSIONS == 2 { 401 } else { 81 };
    let best = grid_velocities(max_speed, per_axis)
        .filter(|&v| worst_violation(kept, v) <= 0.0)
        .map(|v| worst_violation(minimised, v))
        .fold(f32::MAX, f32::min);
    let answer = worst_violation(minimised, velocity);
    assert!(answer > 0.0, "the case is infeasible");
    assert!(kept.is_empty() || worst_violation(kept, velocity) <= 1e-3);
    assert!(
        answer <= best + 1e-3,
        "the fallback's largest violation {answer}, the grid's least {best}"
    );
}

#[test]
fn an_infeasible_program_minimises_the_largest_violation() {
    let directions: Vec<Vector> = [
        xyz(1.0, 0.0, 0.0),
        xyz(-1.0, 0.0, 0.0),
        xyz(0.0, 1.0, 0.0),
        xyz(0.0, -1.0, 0.0),
        xyz(0.0, 0.0, 1.0),
        xyz(0.0, 0.0, -1.0),
    ]
    .into_iter()
    .filter(|direction| direction.length() > 0.5)
    .map(Vector::normalize)
    .collect();
    let me = agent(Vector::ZERO, Vector::ZERO, xyz(2.0, 0.0, 0.0), 0);
    let mut scratch = OrcaScratch::default();
    // Surrounded at `distance`, each neighbour rushing in: no velocity avoids them all.
    for distance in [2.2, 4.0] {
        let others = directions
            .iter()
            .enumerate()
            .map(|(i, &direction)| neighbour(direction * distance, -direction * 2.0, i as u64 + 1));
        let velocity = orca_velocity(&me, others, NO_OBSTACLES, &params(1.0), 0.25, &mut scratch);
        assert!(velocity.is_finite() && velocity.length() <= me.max_speed + 1e-5);
        check_fallback(&scratch, velocity, me.max_speed);
    }
}

#[test]
fn only_the_nearest_neighbours_count_and_their_order_does_not() {
    let me = agent(Vector::ZERO, xyz(1.0, 0.2, 0.0), xyz(2.0, 0.0, 0.0), 0);
    // Fifteen neighbours, some pairs at the same distance (ties broken by id).
    let mut others: Vec<OrcaNeighbour> = (1..=15)
        .map(|i| {
            let ring = 3.0 + (i / 2) as f32;
            let angle = i as f32 * 0.9;
            neighbour(
                xyz(ring * angle.cos(), ring * angle.sin(), 0.5 * (i % 3) as f32),
                xyz(-angle.cos(), 0.3, 0.1),
                i,
            )
        })
        .collect();
    let params = OrcaParams {
        max_neighbours: 10,
        neighbour_distance: 100.0,
        ..params(1.0)
    };
    let mut scratch = OrcaScratch::default();
    let all = orca_velocity(
        &me,
        others.clone(),
        NO_OBSTACLES,
        &params,
        0.25,
        &mut scratch,
    );
    assert_eq!(scratch.constraints().len(), 10);

    let mut by_distance = others.clone();
    by_distance.sort_by(|a, b| {
        (a.position.length_squared(), a.id)
            .partial_cmp(&(b.position.length_squared(), b.id))
            .unwrap()
    });
    let nearest_ten = orca_velocity(
        &me,
        by_distance[..10].iter().copied(),
        NO_OBSTACLES,
        &params,
        0.25,
        &mut scratch,
    );
    assert_eq!(all, nearest_ten, "the five farthest were ignored");

    for rotation in 1..others.len() {
        others.rotate_left(rotation);
        others.reverse();
        let reordered = orca_velocity(
            &me,
            others.clone(),
            NO_OBSTACLES,
            &params,
            0.25,
            &mut scratch,
        );
        assert_eq!(all.to_array(), reordered.to_array(), "order {rotation}");
    }
}

#[test]
fn agents_on_one_point_part_each_their_own_way() {
    let here = xyz(3.0, 4.0, 5.0);
    let mut scratch = OrcaScratch::default();
    let still = params(1.0).share(Vector::ZERO, 2.0);
    let neighbour = |id| OrcaNeighbour {
        share: still,
        ..neighbour(here, Vector::ZERO, id)
    };
    let first = orca_velocity(
        &agent(here, Vector::ZERO, Vector::ZERO, 1),
        [neighbour(2)],
        NO_OBSTACLES,
        &params(1.0),
        0.25,
        &mut scratch,
    );
    let second = orca_velocity(
        &agent(here, Vector::ZERO, Vector::ZERO, 2),
        [neighbour(1)],
        NO_OBSTACLES,
        &params(1.0),
        0.25,
        &mut scratch,
    );
    assert!(
        first.length() > 1.0 && second.length() > 1.0,
        "{first} {second}"
    );
    assert!(first.dot(second) < 0.0, "{first} and {second} part");
}

#[test]
fn a_stationary_agent_leaves_most_of_the_avoidance_to_a_moving_one() {
    let p = params(1.0);
    let moving = p.share(xyz(2.0, 0.0, 0.0), 2.0);
    let still = p.share(Vector::ZERO, 2.0);
    assert_eq!(moving, 0.5);
    assert!(still > 0.0 && still <= 0.1 * moving, "{still}");
    // The moving agent walks straight at a still one; the still one moves little.
    let mut scratch = OrcaScratch::default();
    let walker = agent(Vector::ZERO, xyz(2.0, 0.0, 0.0), xyz(2.0, 0.0, 0.0), 1);
    let sitter = agent(xyz(8.0, 0.0, 0.0), Vector::ZERO, Vector::ZERO, 2);
    let walker_as_neighbour = OrcaNeighbour {
        share: moving,
        ..neighbour(walker.position, walker.velocity, 1)
    };
    let sitter_as_neighbour = OrcaNeighbour {
        share: still,
        ..neighbour(sitter.position, sitter.velocity, 2)
    };
    let walker_turn = orca_velocity(
        &walker,
        [sitter_as_neighbour],
        NO_OBSTACLES,
        &p,
        0.25,
        &mut scratch,
    ) - walker.velocity;
    let sitter_step = orca_velocity(
        &sitter,
        [walker_as_neighbour],
        NO_OBSTACLES,
        &p,
        0.25,
        &mut scratch,
    );
    assert!(
        sitter_step.length() < 0.2 * walker_turn.length(),
        "the sitter moves {sitter_step}, the walker turns by {walker_turn}"
    );
}

#[test]
fn an_agent_walking_at_obstacles_keeps_its_radius_from_them() {
    // A box across its way (it stops in front) and a ball off-centre (it goes round).
    let cases = [
        (
            aligned_box(xyz(10.0, 0.0, 0.0), xyz(1.0, 5.0, 5.0)),
            xyz(0.0, 0.5, 0.2),
        ),
        (ball(xyz(10.0, 12.0, 0.0), 3.0), xyz(0.0, 12.5, 0.0)),
    ];
    let clearance = |position: Vector, case: usize| {
        match case {
            0 => (position - xyz(10.0, 0.0, 0.0)).abs() - xyz(1.0, 5.0, 5.0),
            _ => Vector::splat(position.distance(xyz(10.0, 12.0, 0.0)) - 3.0),
        }
        .max_element()
    };
    let mut scratch = OrcaScratch::default();
    for (case, (wall, start)) in cases.iter().enumerate() {
        let mut me = agent(*start, Vector::ZERO, Vector::ZERO, 0);
        for _ in 0..400 {
            me.preferred_velocity = xyz(2.0, 0.0, 0.0);
            me.velocity = orca_velocity(&me, [], [wall], &params(1.0), 0.1, &mut scratch);
            me.position += me.velocity * 0.1;
            assert!(
                clearance(me.position, case) >= 1.0 - 1e-3,
                "{wall:?}: at {}",
                me.position
            );
        }
        if case == 0 {
            assert!(me.position.x > 7.5, "it stopped at {}", me.position);
        } else {
            assert!(me.position.x > 20.0, "it went round, to {}", me.position);
        }
    }
}

#[cfg(not(flock_3d))]
#[test]
fn a_concave_polygon_keeps_an_agent_out_of_its_notch_walls() {
    use kernel::steering::Polygon;
    // An L-shaped wall opening towards the agent, which is asked to walk through it.
    let polygon = Polygon::new([
        Vector::new(5.0, -5.0),
        Vector::new(8.0, -5.0),
        Vector::new(8.0, 5.0),
        Vector::new(5.0, 5.0),
        Vector::new(5.0, 3.0),
        Vector::new(6.0, 3.0),
        Vector::new(6.0, -3.0),
        Vector::new(5.0, -3.0),
    ])
    .unwrap();
    let wall = Shape::Polygon(polygon.clone());
    let mut scratch = OrcaScratch::default();
    let mut me = agent(Vector::new(0.0, 0.2), Vector::ZERO, Vector::ZERO, 0);
    for _ in 0..600 {
        me.preferred_velocity = Vector::new(2.0, 0.0);
        me.velocity = orca_velocity(&me, [], [&wall], &params(1.0), 0.1, &mut scratch);
        me.position += me.velocity * 0.1;
        let (nearest, _) = polygon.nearest_edge(me.position);
        assert!(!polygon.contains(me.position));
        assert!(
            me.position.distance(nearest) >= 1.0 - 1e-3,
            "at {}",
            me.position
        );
    }
}

#[test]
fn hostile_values_give_finite_velocities_within_the_speed() {
    let good = params(1.0);
    let mut scratch = OrcaScratch::default();
    let normal = agent(Vector::ZERO, xyz(1.0, 0.0, 0.0), xyz(2.0, 0.0, 0.0), 0);
    let (_, others) = crossing_case();
    let bad_numbers = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -1.0,
        0.0,
        1e30,
        -1e30,
    ];

    // Broken parameters: no avoidance, the preferred velocity limited to the speed.
    for value in bad_numbers {
        for field in 0..6 {
            let mut p = good;
            match field {
                0 => p.radius = value,
                1 => p.time_horizon = value,
                2 => p.obstacle_time_horizon = value,
                3 => p.neighbour_distance = value,
                4 => p.responsibility = value,
                _ => p.max_neighbours = if value > 0.0 { usize::MAX } else { 0 },
            }
            let v = orca_velocity(
                &normal,
                others.clone(),
                NO_OBSTACLES,
                &p,
                0.25,
                &mut scratch,
            );
            assert!(
                v.is_finite() && v.length() <= 2.0 + 1e-5,
                "{field} = {value}: {v}"
            );
            if !p.is_valid() {
                assert_eq!(v, normal.preferred_velocity, "{field} = {value}");
            }
        }
        let v = orca_velocity(
            &normal,
            others.clone(),
            NO_OBSTACLES,
            &good,
            value,
            &mut scratch,
        );
        assert!(
            v.is_finite() && v.length() <= 2.0 + 1e-5,
            "time step {value}: {v}"
        );
    }

    // A broken agent or neighbour, and huge or non-finite obstacles.
    for value in bad_numbers {
        let broken = [
            OrcaAgent {
                position: xyz(value, 0.0, 0.0),
                ..normal
            },
            OrcaAgent {
                velocity: xyz(0.0, value, 0.0),
                ..normal
            },
            OrcaAgent {
                preferred_velocity: xyz(value, value, value),
                ..normal
            },
            OrcaAgent {
                max_speed: value,
                ..normal
            },
        ];
        for me in broken {
            let v = orca_velocity(&me, others.clone(), NO_OBSTACLES, &good, 0.25, &mut scratch);
            let limit = if me.max_speed.is_finite() {
                me.max_speed.max(0.0)
            } else {
                0.0
            };
            assert!(v.is_finite() && v.length() <= limit + 1e-5, "{me:?}: {v}");
        }
        let weird = [
            neighbour(xyz(value, 1.0, 0.0), Vector::ZERO, 7),
            neighbour(xyz(1.0, 1.0, 0.0), xyz(value, 0.0, 0.0), 8),
            OrcaNeighbour {
                radius: value,
                ..neighbour(xyz(2.0, 0.0, 0.0), Vector::ZERO, 9)
            },
            OrcaNeighbour {
                share: value,
                ..neighbour(xyz(0.0, 2.0, 0.0), Vector::ZERO, 10)
            },
        ];
        let obstacles = [
            ball(xyz(value, 0.0, 0.0), 1.0),
            ball(xyz(3.0, 0.0, 0.0), value),
            aligned_box(xyz(0.0, 3.0, 0.0), xyz(value, 1.0, 1.0)),
        ];
        let v = orca_velocity(&normal, weird, &obstacles, &good, 0.25, &mut scratch);
        assert!(
            v.is_finite() && v.length() <= 2.0 + 1e-5,
            "neighbours of {value}: {v}"
        );
    }

    // Everyone on one point, at rest: the agent is pushed out, finitely.
    let crowd: Vec<OrcaNeighbour> = (1..20)
        .map(|i| neighbour(Vector::ZERO, Vector::ZERO, i))
        .collect();
    let still = agent(Vector::ZERO, Vector::ZERO, Vector::ZERO, 0);
    let v = orca_velocity(&still, crowd, NO_OBSTACLES, &good, 0.25, &mut scratch);
    assert!(v.is_finite() && v.length() <= 2.0 + 1e-5, "{v}");
}
