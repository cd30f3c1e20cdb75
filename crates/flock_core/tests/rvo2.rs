//! ORCA against RVO2 itself: small scenarios run through the authors' C++ library (the `pyrvo`
//! Python bindings, `pip install pyrvo`, driven by `tests/rvo2/run_rvo2.py`) and through
//! [`OrcaCrowd`] with [`OrcaParams::rvo2`], step for step; the velocities must agree within
//! 1e-4 for the first steps (before the scenarios' chaos lets rounding grow). The scenarios with
//! polygon obstacles pass the same vertex lists to RVO2 (`addObstacle`, `processObstacles`) and
//! to [`OrcaObstacles::from_polygons`].
//!
//! Without `python3` and `pyrvo` the tests print that they skipped, unless
//! `FLOCK_REQUIRE_RVO2=1` is set (CI sets it), where they fail.

use std::io::Write;
use std::process::{Command, Stdio};

use flock_core::Vector;
use flock_core::parallel::{ScopedThreads, Serial};
use flock_core::steering::{CrowdAgent, OrcaCrowd, OrcaObstacles, OrcaParams};

/// RVO2's agent defaults (`RVOSimulator::setAgentDefaults`) and time step.
#[derive(Clone, Copy)]
struct Defaults {
    neighbour_distance: f32,
    max_neighbours: usize,
    time_horizon: f32,
    time_horizon_obst: f32,
    radius: f32,
    max_speed: f32,
    time_step: f32,
}

/// RVO2's Circle example's: `setAgentDefaults(15, 10, 10, 10, 1.5, 2)`, a step of 0.25 s.
const CIRCLE: Defaults = Defaults {
    neighbour_distance: 15.0,
    max_neighbours: 10,
    time_horizon: 10.0,
    time_horizon_obst: 10.0,
    radius: 1.5,
    max_speed: 2.0,
    time_step: 0.25,
};

/// RVO2's Blocks example's: `setAgentDefaults(15, 10, 5, 5, 2, 2)`, a step of 0.25 s.
const BLOCKS: Defaults = Defaults {
    neighbour_distance: 15.0,
    max_neighbours: 10,
    time_horizon: 5.0,
    time_horizon_obst: 5.0,
    radius: 2.0,
    max_speed: 2.0,
    time_step: 0.25,
};

/// How far the two may differ, world units per second.
const TOLERANCE: f32 = 1e-4;

/// A scenario: each agent's start and goal, and the obstacles (vertex lists as RVO2 takes them).
#[derive(Clone)]
struct Scenario {
    defaults: Defaults,
    starts_and_goals: Vec<(Vector, Vector)>,
    obstacles: Vec<Vec<Vector>>,
    steps: usize,
}

/// RVO2's examples' preferred velocity: to the goal, normalised when longer than one (divided by
/// its length, as RVO2's `normalize` does).
fn preferred(position: Vector, goal: Vector) -> Vector {
    let to_goal = goal - position;
    let length_squared = to_goal.length_squared();
    if length_squared > 1.0 {
        to_goal / length_squared.sqrt()
    } else {
        to_goal
    }
}

/// An agent's position and velocity after a step of RVO2's.
#[derive(Clone, Copy)]
struct State {
    position: Vector,
    velocity: Vector,
}

/// RVO2's agents after each step, or `None` where pyrvo is missing (and not required).
fn rvo2_states(scenario: &Scenario) -> Option<Vec<Vec<State>>> {
    let text = run_rvo2(&scenario_json(scenario, false))?;
    let steps: Vec<Vec<State>> = text
        .lines()
        .map(|line| {
            numbers(line)
                .chunks(4)
                .map(|four| State {
                    position: Vector::new(four[0], four[1]),
                    velocity: Vector::new(four[2], four[3]),
                })
                .collect()
        })
        .collect();
    assert_eq!(steps.len(), scenario.steps, "one line per step");
    Some(steps)
}

/// The numbers of one line of the script's output.
fn numbers(line: &str) -> Vec<f32> {
    line.split_whitespace()
        .map(|word| word.parse::<f64>().expect("a number") as f32)
        .collect()
}

/// The scenario as `run_rvo2.py` reads it; with `dump_obstacles`, asking for RVO2's obstacle
/// vertices instead of the steps.
fn scenario_json(scenario: &Scenario, dump_obstacles: bool) -> String {
    let agents: Vec<String> = scenario
        .starts_and_goals
        .iter()
        .map(|(start, goal)| format!("[{:?}, {:?}, {:?}, {:?}]", start.x, start.y, goal.x, goal.y))
        .collect();
    let obstacles: Vec<String> = (scenario.obstacles.iter())
        .map(|vertices| {
            let vertices: Vec<String> = (vertices.iter())
                .map(|vertex| format!("[{:?}, {:?}]", vertex.x, vertex.y))
                .collect();
            format!("[{}]", vertices.join(", "))
        })
        .collect();
    let Defaults {
        neighbour_distance,
        max_neighbours,
        time_horizon,
        time_horizon_obst,
        radius,
        max_speed,
        time_step,
    } = scenario.defaults;
    format!(
        "{{\"time_step\": {time_step:?}, \"steps\": {}, \"agent\": {{\"neighbour_distance\": \
         {neighbour_distance:?}, \"max_neighbours\": {max_neighbours}, \"time_horizon\": \
         {time_horizon:?}, \"time_horizon_obst\": {time_horizon_obst:?}, \"radius\": \
         {radius:?}, \"max_speed\": {max_speed:?}}}, \"agents\": [{}], \"obstacles\": [{}], \
         \"dump_obstacles\": {dump_obstacles}}}",
        scenario.steps,
        agents.join(", "),
        obstacles.join(", ")
    )
}

/// What `run_rvo2.py` prints for `json`, or `None` where pyrvo is missing (and not required).
fn run_rvo2(json: &str) -> Option<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/rvo2/run_rvo2.py");
    let required = std::env::var("FLOCK_REQUIRE_RVO2").is_ok_and(|value| value == "1");
    let child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) => {
            assert!(
                !required,
                "FLOCK_REQUIRE_RVO2=1 but python3 did not start: {error}"
            );
            eprintln!("skipped: python3 did not start ({error})");
            return None;
        }
    };
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(json.as_bytes())
        .expect("the scenario written to python3");
    let output = child.wait_with_output().expect("python3 ran");
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(3) {
        assert!(!required, "FLOCK_REQUIRE_RVO2=1 but {stderr}");
        eprintln!("skipped: {stderr} (python3 -m pip install pyrvo)");
        return None;
    }
    assert!(output.status.success(), "run_rvo2.py failed: {stderr}");
    Some(String::from_utf8(output.stdout).expect("text"))
}

/// Our velocities after each step: [`OrcaCrowd::step`] with RVO2's agents, on `threads`.
fn our_velocities(scenario: &Scenario, threads: usize) -> Vec<Vec<Vector>> {
    let defaults = scenario.defaults;
    let params = params_of(&defaults);
    let obstacles = OrcaObstacles::from_polygons(&scenario.obstacles).expect("valid obstacles");
    let mut agents: Vec<CrowdAgent> = scenario
        .starts_and_goals
        .iter()
        .map(|&(start, _)| CrowdAgent::standing(start, Vector::ZERO, defaults.max_speed, params))
        .collect();
    let mut crowd = OrcaCrowd::default();
    let mut steps = Vec::new();
    for _ in 0..scenario.steps {
        for (agent, (_, goal)) in agents.iter_mut().zip(&scenario.starts_and_goals) {
            agent.preferred_velocity = preferred(agent.position, *goal);
        }
        if threads == 1 {
            crowd.step(&mut agents, &obstacles, defaults.time_step, None, &Serial);
        } else {
            crowd.step(
                &mut agents,
                &obstacles,
                defaults.time_step,
                None,
                &ScopedThreads(threads),
            );
        }
        steps.push(agents.iter().map(|agent| agent.velocity).collect());
    }
    steps
}

/// RVO2's parameters as ours.
fn params_of(defaults: &Defaults) -> OrcaParams {
    OrcaParams::rvo2(
        defaults.neighbour_distance,
        defaults.max_neighbours,
        defaults.time_horizon,
        defaults.time_horizon_obst,
        defaults.radius,
    )
}

/// Each of RVO2's steps taken again by ours from RVO2's own state before it (the starts at
/// rest, then RVO2's positions and velocities after the step before): every velocity must agree
/// within the tolerance, however long the run, since no difference can grow from step to step.
fn compare_each_step_from_rvo2s_state(name: &str, scenario: &Scenario, theirs: &[Vec<State>]) {
    let defaults = scenario.defaults;
    let params = params_of(&defaults);
    let obstacles = OrcaObstacles::from_polygons(&scenario.obstacles).expect("valid obstacles");
    let mut agents: Vec<CrowdAgent> = (scenario.starts_and_goals.iter())
        .map(|&(start, _)| CrowdAgent::standing(start, Vector::ZERO, defaults.max_speed, params))
        .collect();
    let mut crowd = OrcaCrowd::default();
    let mut worst = 0.0_f32;
    for (step, after) in theirs.iter().enumerate() {
        for (agent, (_, goal)) in agents.iter_mut().zip(&scenario.starts_and_goals) {
            agent.preferred_velocity = preferred(agent.position, *goal);
        }
        crowd.compute(&agents, &obstacles, defaults.time_step, &Serial);
        for (agent, (ours, theirs)) in crowd.new_velocities().iter().zip(after).enumerate() {
            let difference = ours.distance(theirs.velocity);
            worst = worst.max(difference);
            assert!(
                difference <= TOLERANCE,
                "{name}, from RVO2's state: step {} agent {agent}: ours {ours:?}, RVO2's {:?}",
                step + 1,
                theirs.velocity
            );
        }
        for (agent, state) in agents.iter_mut().zip(after) {
            agent.position = state.position;
            agent.velocity = state.velocity;
        }
    }
    eprintln!(
        "{name}: each of {} steps from RVO2's state agrees within {worst:e}",
        theirs.len()
    );
}

/// Runs `scenario` through both and requires the same velocities for the first `free_steps`
/// steps, each side moving on from its own state (then differences in rounding grow, as in any
/// chaotic crowd), and for every step when ours starts from RVO2's state.
fn compare_for(name: &str, scenario: &Scenario, free_steps: usize) {
    let Some(states) = rvo2_states(scenario) else {
        return;
    };
    compare_each_step_from_rvo2s_state(name, scenario, &states);
    let theirs: Vec<Vec<Vector>> = (states.iter().take(free_steps))
        .map(|step| step.iter().map(|state| state.velocity).collect())
        .collect();
    let scenario = &Scenario {
        steps: free_steps.min(scenario.steps),
        ..scenario.clone()
    };
    if !scenario.obstacles.is_empty() {
        // The obstacles must matter: without them, some agent moves otherwise.
        let free = our_velocities(
            &Scenario {
                obstacles: Vec::new(),
                ..scenario.clone()
            },
            1,
        );
        let largest = (free.iter().flatten())
            .zip(theirs.iter().flatten())
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f32::max);
        assert!(
            largest > 0.1,
            "{name}: the obstacles changed no velocity by more than {largest}"
        );
    }
    let ours = our_velocities(scenario, 1);
    let mut worst = 0.0_f32;
    for (step, (ours, theirs)) in ours.iter().zip(&theirs).enumerate() {
        for (agent, (a, b)) in ours.iter().zip(theirs).enumerate() {
            let difference = a.distance(*b);
            worst = worst.max(difference);
            assert!(
                difference <= TOLERANCE,
                "{name}: step {} agent {agent}: ours {a:?}, RVO2's {b:?} ({difference})",
                step + 1
            );
        }
    }
    eprintln!("{name}: {} steps agree within {worst:e}", scenario.steps);
    // Any number of threads: the same bits.
    assert_eq!(
        our_velocities(scenario, 3),
        ours,
        "{name}: threads changed the result"
    );
}

/// [`compare_for`] over the whole scenario.
fn compare(name: &str, scenario: &Scenario) {
    compare_for(name, scenario, scenario.steps);
}

/// `count` agents evenly round a circle of `radius`, each going to its antipode.
fn circle(count: usize, radius: f32, steps: usize) -> Scenario {
    let starts_and_goals = (0..count)
        .map(|i| {
            let angle = i as f32 * std::f32::consts::TAU / count as f32;
            let start = Vector::new(angle.cos(), angle.sin()) * radius;
            (start, -start)
        })
        .collect();
    Scenario {
        defaults: CIRCLE,
        starts_and_goals,
        obstacles: Vec::new(),
        steps,
    }
}

#[test]
fn a_circle_of_agents_moves_as_in_rvo2() {
    compare("circle of 32", &circle(32, 20.0, 60));
}

#[test]
fn a_packed_circle_moves_as_in_rvo2() {
    // Agents nearly touching at the start, so the programs are infeasible in the middle.
    compare("packed circle of 24", &circle(24, 12.0, 40));
}

#[test]
fn two_crossing_streams_move_as_in_rvo2() {
    // Two blocks of 4 x 5 agents, one going east and one going north, meeting at the origin.
    let mut starts_and_goals = Vec::new();
    for row in 0..4 {
        for column in 0..5 {
            let (along, across) = (-24.0 - 3.5 * column as f32, -6.0 + 4.0 * row as f32);
            starts_and_goals.push((Vector::new(along, across), Vector::new(40.0, across)));
            starts_and_goals.push((
                Vector::new(across + 0.5, along),
                Vector::new(across + 0.5, 40.0),
            ));
        }
    }
    compare(
        "crossing streams",
        &Scenario {
            defaults: CIRCLE,
            starts_and_goals,
            obstacles: Vec::new(),
            steps: 60,
        },
    );
}

#[test]
fn agents_squeezed_to_one_point_move_as_in_rvo2() {
    // Thirty agents all going to the centre: the programs fail there and RVO2's fallback
    // (linearProgram3) picks their velocities.
    // Each a little off the circle: no two neighbours at the same distance, whose order RVO2
    // takes from its k-d tree and ORCA from their ids (the fallback depends on the order).
    let mut scenario = circle(30, 15.0, 40);
    for (index, (start, goal)) in scenario.starts_and_goals.iter_mut().enumerate() {
        *start *= 1.0 + 0.003 * (index * 7 % 11) as f32;
        *goal = Vector::ZERO;
    }
    compare("squeezed to the centre", &scenario);
}

/// The four square blocks of RVO2's Blocks example, counter-clockwise as it lists them.
fn blocks() -> Vec<Vec<Vector>> {
    let square = |x: f32, y: f32| {
        // RVO2's first block is (-10, 40), (-40, 40), (-40, 10), (-10, 10); the others are its
        // mirror images, listed to stay counter-clockwise.
        let (near_x, far_x) = (10.0 * x, 40.0 * x);
        let (near_y, far_y) = (10.0 * y, 40.0 * y);
        let corners = vec![
            Vector::new(near_x, far_y),
            Vector::new(far_x, far_y),
            Vector::new(far_x, near_y),
            Vector::new(near_x, near_y),
        ];
        if x * y < 0.0 {
            corners
        } else {
            corners.into_iter().rev().collect()
        }
    };
    vec![
        square(-1.0, 1.0),
        square(1.0, 1.0),
        square(1.0, -1.0),
        square(-1.0, -1.0),
    ]
}

#[test]
fn agents_round_rvo2s_blocks_move_as_in_rvo2() {
    // RVO2's Blocks example scaled down: four groups of 3 x 3 agents near the corners of the
    // four blocks, each going to the opposite corner (RVO2's groups are 5 x 5, further out).
    let mut starts_and_goals = Vec::new();
    for i in 0..3 {
        for j in 0..3 {
            let offset = Vector::new(42.0 + 5.0 * i as f32, 42.0 + 5.0 * j as f32);
            for sign in [Vector::new(1.0, 1.0), Vector::new(-1.0, 1.0)] {
                for flip in [1.0, -1.0] {
                    let start = offset * sign * flip;
                    starts_and_goals.push((start, -start));
                }
            }
        }
    }
    compare_for(
        "blocks",
        &Scenario {
            defaults: BLOCKS,
            starts_and_goals,
            obstacles: blocks(),
            steps: 240,
        },
        30,
    );
}

#[test]
fn agents_passing_a_u_shaped_polygon_move_as_in_rvo2() {
    // A U open to the north (non-convex at the two inner corners), agents walking south into
    // and past it, others crossing east under it.
    let u = vec![
        Vector::new(-6.0, -6.0),
        Vector::new(6.0, -6.0),
        Vector::new(6.0, 6.0),
        Vector::new(3.0, 6.0),
        Vector::new(3.0, -3.0),
        Vector::new(-3.0, -3.0),
        Vector::new(-3.0, 6.0),
        Vector::new(-6.0, 6.0),
    ];
    let mut starts_and_goals = Vec::new();
    for column in 0..5 {
        let x = -9.0 + 4.5 * column as f32 + 0.3;
        starts_and_goals.push((Vector::new(x, 14.0), Vector::new(x, -20.0)));
    }
    for row in 0..3 {
        let y = -9.0 - 3.5 * row as f32;
        starts_and_goals.push((Vector::new(-18.0, y), Vector::new(20.0, y + 14.0)));
    }
    compare_for(
        "U-shaped polygon",
        &Scenario {
            defaults: BLOCKS,
            starts_and_goals,
            obstacles: vec![u],
            steps: 200,
        },
        70,
    );
}

#[test]
fn agents_crossing_by_an_open_wall_move_as_in_rvo2() {
    // A wall of two vertices (RVO2 links them both ways: two-sided), slanted, with agents
    // heading at it from both sides and round its ends.
    let wall = vec![Vector::new(-8.0, -2.0), Vector::new(8.0, 2.0)];
    let mut starts_and_goals = Vec::new();
    for index in 0..5 {
        let x = -10.0 + 5.0 * index as f32;
        starts_and_goals.push((Vector::new(x, 12.0), Vector::new(x + 3.0, -14.0)));
        starts_and_goals.push((Vector::new(x + 1.5, -12.0), Vector::new(x - 2.0, 14.0)));
    }
    compare_for(
        "open wall",
        &Scenario {
            defaults: BLOCKS,
            starts_and_goals,
            obstacles: vec![wall],
            steps: 200,
        },
        40,
    );
}

#[test]
fn rvo2s_obstacle_tree_splits_edges_where_ours_does() {
    // The blocks, the U and an open wall, and a slanted triangle whose edges' lines cross the
    // others: RVO2's tree cuts edges there, adding vertices at the end of its list. Ours must
    // add the same vertices, in the same order, linked the same way.
    let mut obstacles = blocks();
    obstacles.push(vec![
        Vector::new(-6.0, -6.0),
        Vector::new(6.0, -6.0),
        Vector::new(6.0, 6.0),
        Vector::new(3.0, 6.0),
        Vector::new(3.0, -3.0),
        Vector::new(-3.0, -3.0),
        Vector::new(-3.0, 6.0),
        Vector::new(-6.0, 6.0),
    ]);
    obstacles.push(vec![Vector::new(-30.0, -2.0), Vector::new(25.0, 3.0)]);
    obstacles.push(vec![
        Vector::new(-20.0, 45.0),
        Vector::new(15.0, 50.0),
        Vector::new(-5.0, 60.0),
    ]);
    let scenario = Scenario {
        defaults: BLOCKS,
        starts_and_goals: vec![(Vector::ZERO, Vector::ZERO)],
        obstacles,
        steps: 1,
    };
    let Some(text) = run_rvo2(&scenario_json(&scenario, true)) else {
        return;
    };
    let theirs: Vec<(Vector, usize)> = numbers(&text)
        .chunks(3)
        .map(|three| (Vector::new(three[0], three[1]), three[2] as usize))
        .collect();
    let ours = OrcaObstacles::from_polygons(&scenario.obstacles).expect("valid obstacles");
    let given: usize = scenario.obstacles.iter().map(Vec::len).sum();
    assert!(theirs.len() > given, "RVO2 split some edges");
    let edges: Vec<(Vector, Vector)> = ours.edges().collect();
    assert_eq!(edges.len(), theirs.len(), "as many vertices as RVO2's");
    for (index, ((start, end), (point, next))) in edges.iter().zip(&theirs).enumerate() {
        assert!(
            start.distance(*point) <= 1e-5 && end.distance(theirs[*next].0) <= 1e-5,
            "vertex {index}: ours {start} to {end}, RVO2's {point} to {}",
            theirs[*next].0
        );
    }
}
