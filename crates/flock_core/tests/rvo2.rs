//! ORCA against RVO2 itself: small scenarios run through the authors' C++ library (the `pyrvo`
//! Python bindings, `pip install pyrvo`, driven by `tests/rvo2/run_rvo2.py`) and through
//! [`OrcaCrowd`] with [`OrcaParams::rvo2`], step for step; the velocities must agree within
//! 1e-4 for the first steps (before the scenarios' chaos lets rounding grow).
//!
//! Without `python3` and `pyrvo` the tests print that they skipped, unless
//! `FLOCK_REQUIRE_RVO2=1` is set (CI sets it), where they fail.

use std::io::Write;
use std::process::{Command, Stdio};

use flock_core::Vector;
use flock_core::parallel::{ScopedThreads, Serial};
use flock_core::steering::{CrowdAgent, OrcaCrowd, OrcaParams, Shape};

/// RVO2's Circle example's agent: `setAgentDefaults(15, 10, 10, 10, 1.5, 2)`.
const NEIGHBOUR_DISTANCE: f32 = 15.0;
const MAX_NEIGHBOURS: usize = 10;
const TIME_HORIZON: f32 = 10.0;
const RADIUS: f32 = 1.5;
const MAX_SPEED: f32 = 2.0;
const TIME_STEP: f32 = 0.25;

/// How far the two may differ, world units per second.
const TOLERANCE: f32 = 1e-4;

/// A scenario: each agent's start and goal.
struct Scenario {
    starts_and_goals: Vec<(Vector, Vector)>,
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

/// RVO2's velocities after each step, or `None` where pyrvo is missing (and not required).
fn rvo2_velocities(scenario: &Scenario) -> Option<Vec<Vec<Vector>>> {
    let agents: Vec<String> = scenario
        .starts_and_goals
        .iter()
        .map(|(start, goal)| format!("[{:?}, {:?}, {:?}, {:?}]", start.x, start.y, goal.x, goal.y))
        .collect();
    let json = format!(
        "{{\"time_step\": {TIME_STEP:?}, \"steps\": {}, \"agent\": {{\"neighbour_distance\": \
         {NEIGHBOUR_DISTANCE:?}, \"max_neighbours\": {MAX_NEIGHBOURS}, \"time_horizon\": \
         {TIME_HORIZON:?}, \"time_horizon_obst\": {TIME_HORIZON:?}, \"radius\": {RADIUS:?}, \
         \"max_speed\": {MAX_SPEED:?}}}, \"agents\": [{}]}}",
        scenario.steps,
        agents.join(", ")
    );
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
    let text = String::from_utf8(output.stdout).expect("text");
    let steps: Vec<Vec<Vector>> = text
        .lines()
        .map(|line| {
            let numbers: Vec<f32> = line
                .split_whitespace()
                .map(|word| word.parse::<f64>().expect("a number") as f32)
                .collect();
            numbers
                .chunks(2)
                .map(|pair| Vector::new(pair[0], pair[1]))
                .collect()
        })
        .collect();
    assert_eq!(steps.len(), scenario.steps, "one line per step");
    Some(steps)
}

/// Our velocities after each step: [`OrcaCrowd::step`] with RVO2's agents, on `threads`.
fn our_velocities(scenario: &Scenario, threads: usize) -> Vec<Vec<Vector>> {
    let params = OrcaParams::rvo2(
        NEIGHBOUR_DISTANCE,
        MAX_NEIGHBOURS,
        TIME_HORIZON,
        TIME_HORIZON,
        RADIUS,
    );
    let mut agents: Vec<CrowdAgent> = scenario
        .starts_and_goals
        .iter()
        .map(|&(start, _)| CrowdAgent::standing(start, Vector::ZERO, MAX_SPEED, params))
        .collect();
    let mut crowd = OrcaCrowd::default();
    let mut steps = Vec::new();
    for _ in 0..scenario.steps {
        for (agent, (_, goal)) in agents.iter_mut().zip(&scenario.starts_and_goals) {
            agent.preferred_velocity = preferred(agent.position, *goal);
        }
        if threads == 1 {
            crowd.step(&mut agents, &[] as &[Shape], TIME_STEP, None, &Serial);
        } else {
            crowd.step(
                &mut agents,
                &[] as &[Shape],
                TIME_STEP,
                None,
                &ScopedThreads(threads),
            );
        }
        steps.push(agents.iter().map(|agent| agent.velocity).collect());
    }
    steps
}

/// Runs `scenario` through both and requires the same velocities at every step; returns how
/// many steps had an infeasible-looking crowd (some agent slower than it preferred), so a test
/// can check it exercised more than free walking.
fn compare(name: &str, scenario: &Scenario) {
    let Some(theirs) = rvo2_velocities(scenario) else {
        return;
    };
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
        starts_and_goals,
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
            starts_and_goals,
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
