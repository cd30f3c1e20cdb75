//! RVO2's Circle family (agents evenly round a circle, each walking to its antipode) at RVO2's
//! parameters, through [`OrcaCrowd`] with the [`ContactPass`]: after every step no two agents
//! overlap by more than 1e-3, and everyone is home no later than RVO2 (its own library's times,
//! from `tools/rvo2_circle.py`). `flock_core3d` runs the same circles in 3D (on the plane
//! z = 0) with the same bounds.

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

use kernel::Vector;
use kernel::parallel::ScopedThreads;
use kernel::steering::{ContactPass, CrowdAgent, OrcaCrowd, OrcaParams, Shape};

/// RVO2's Circle example: `setAgentDefaults(15, 10, 10, 10, 1.5, 2)`, time step 0.25.
const RADIUS: f32 = 1.5;
const MAX_SPEED: f32 = 2.0;
const TIME_STEP: f32 = 0.25;

/// How much two bodies may overlap after a step.
const OVERLAP: f32 = 1e-3;

/// How a circle went.
struct Outcome {
    /// Seconds until every agent was within its radius of its goal at once.
    arrival: Option<f32>,
    /// The closest two centres came after any step.
    closest: f32,
}

/// The closest two of `positions` (sorted by x, pairs nearer than `reach` along it).
fn closest_pair(positions: &[Vector], reach: f32) -> f32 {
    let mut sorted: Vec<Vector> = positions.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut closest = f32::MAX;
    for (i, a) in sorted.iter().enumerate() {
        for b in &sorted[i + 1..] {
            if b.x - a.x >= reach {
                break;
            }
            closest = closest.min(a.distance(*b));
        }
    }
    closest
}

/// The Circle of `count` agents on a circle of `circle_radius`, for at most `max_time` seconds.
fn circle(
    count: usize,
    circle_radius: f32,
    contact: Option<&ContactPass>,
    max_time: f32,
) -> Outcome {
    let params = OrcaParams::rvo2(15.0, 10, 10.0, 10.0, RADIUS);
    let goals: Vec<Vector> = (0..count)
        .map(|i| {
            let angle = i as f32 * std::f32::consts::TAU / count as f32;
            let mut start = Vector::ZERO;
            start[0] = angle.cos() * circle_radius;
            start[1] = angle.sin() * circle_radius;
            -start
        })
        .collect();
    let mut agents: Vec<CrowdAgent> = goals
        .iter()
        .map(|goal| CrowdAgent::standing(-*goal, Vector::ZERO, MAX_SPEED, params))
        .collect();
    let mut crowd = OrcaCrowd::default();
    let mut closest = f32::MAX;
    let mut positions = Vec::with_capacity(count);
    let steps = (max_time / TIME_STEP) as usize;
    for step in 1..=steps {
        for (agent, goal) in agents.iter_mut().zip(&goals) {
            let to_goal = *goal - agent.position;
            agent.preferred_velocity = if to_goal.length_squared() > 1.0 {
                to_goal / to_goal.length()
            } else {
                to_goal
            };
        }
        crowd.step(
            &mut agents,
            &[] as &[Shape],
            TIME_STEP,
            contact,
            &ScopedThreads(2),
        );
        positions.clear();
        positions.extend(agents.iter().map(|agent| agent.position));
        closest = closest.min(closest_pair(&positions, 2.0 * RADIUS));
        if let Some(contact) = contact {
            assert!(
                closest >= 2.0 * RADIUS - OVERLAP - contact.tolerance,
                "{count} on {circle_radius}: two centres {closest} apart after step {step}"
            );
        }
        if agents
            .iter()
            .zip(&goals)
            .all(|(agent, goal)| agent.position.distance_squared(*goal) <= RADIUS * RADIUS)
        {
            return Outcome {
                arrival: Some(step as f32 * TIME_STEP),
                closest,
            };
        }
    }
    Outcome {
        arrival: None,
        closest,
    }
}

/// RVO2's own arrival on each circle (`tools/rvo2_circle.py`: RVO2 2.0.3 through pyrvo 0.4.3),
/// `None` where RVO2's agents never all arrive (a jam in the middle that its symmetry holds).
const FAMILY: [(usize, f32, Option<f32>); 8] = [
    (50, 40.0, None),
    (100, 60.0, Some(392.25)),
    (150, 80.0, Some(467.75)),
    (250, 100.0, None),
    (250, 200.0, Some(961.25)),
    (400, 200.0, Some(949.75)),
    (500, 250.0, Some(1364.0)),
    (1000, 500.0, Some(1884.25)),
];

#[test]
fn the_contact_pass_leaves_no_overlap_and_arrives_no_later_than_rvo2() {
    let contact = ContactPass::default();
    for (count, circle_radius, rvo2_arrival) in FAMILY {
        // Where RVO2 never gets everyone home, as long as a straight walk at speed 1 takes.
        let budget = rvo2_arrival.unwrap_or(2.0 * circle_radius);
        let outcome = circle(count, circle_radius, Some(&contact), budget);
        eprintln!(
            "{count} on {circle_radius}: home after {:?} s (RVO2 {rvo2_arrival:?}), closest {}",
            outcome.arrival, outcome.closest
        );
        if let Some(rvo2) = rvo2_arrival {
            let arrival = outcome.arrival.expect("everyone home no later than RVO2");
            assert!(
                arrival <= rvo2,
                "{count} on {circle_radius}: {arrival} s, RVO2 {rvo2} s"
            );
        }
    }
}

#[test]
fn a_crowd_step_is_the_same_for_any_number_of_threads() {
    let params = OrcaParams::rvo2(15.0, 10, 10.0, 10.0, RADIUS);
    // 3,000 agents on a jittered lattice, each going somewhere else: many chunks.
    let start: Vec<CrowdAgent> = (0..3000)
        .map(|i| {
            let mut position = Vector::ZERO;
            position[0] = (i % 60) as f32 * 3.2 + 0.3 * ((i * 7 % 13) as f32 / 13.0);
            position[1] = (i / 60) as f32 * 3.1;
            let mut preferred = Vector::ZERO;
            preferred[0] = ((i * 37 % 17) as f32 / 8.0) - 1.0;
            preferred[1] = ((i * 11 % 19) as f32 / 9.0) - 1.0;
            CrowdAgent::standing(position, preferred, MAX_SPEED, params)
        })
        .collect();
    let run = |threads: usize| {
        let mut agents = start.clone();
        let mut crowd = OrcaCrowd::default();
        for _ in 0..20 {
            crowd.step(
                &mut agents,
                &[] as &[Shape],
                TIME_STEP,
                Some(&ContactPass::default()),
                &ScopedThreads(threads),
            );
        }
        agents
    };
    let one = run(1);
    for threads in [2, 3, 8] {
        assert_eq!(run(threads), one, "{threads} threads");
    }
    assert_ne!(one, start, "the crowd moved");
}
