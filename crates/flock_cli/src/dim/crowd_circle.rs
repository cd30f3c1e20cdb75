//! `flock crowd-circle`'s run in this module's dimension. ORCA steps the crowd as RVO2's
//! `doStep` does (`OrcaCrowd`, neighbours from its grid, on two threads); the Reynolds methods
//! find neighbours by brute force.

use super::kernel::Vector;
use super::kernel::parallel::ScopedThreads;
use super::kernel::steering::{
    CollisionParams, ContactPass, CrowdAgent, OrcaCrowd, OrcaParams, Shape, Vehicle,
    avoid_collisions, combine,
};
use crate::crowd_circle::{CircleArgs, CircleOutcome, Method};

/// The Reynolds methods reach their desired velocity within this many seconds: one step.
fn response_time(args: &CircleArgs) -> f32 {
    args.dt
}

/// Runs the scenario and measures it.
pub fn run(args: &CircleArgs) -> CircleOutcome {
    let count = args.count;
    let mut positions = start_positions(args);
    let goals: Vec<Vector> = positions.iter().map(|p| -*p).collect();
    let mut velocities = vec![Vector::ZERO; count];
    let mut next = vec![Vector::ZERO; count];
    let mut preferred = vec![Vector::ZERO; count];
    let mut crowd = OrcaCrowd::default();
    let mut agents: Vec<CrowdAgent> = Vec::with_capacity(count);

    let max_steps = (args.max_time / args.dt).ceil() as u64;
    let mut closest = closest_pair(&positions);
    let home = |positions: &[Vector]| {
        (0..count)
            .filter(|&i| positions[i].distance(goals[i]) <= args.radius)
            .count()
    };
    for step in 1..=max_steps {
        for ((wish, position), goal) in preferred.iter_mut().zip(&positions).zip(&goals) {
            *wish = (*goal - *position).clamp_length_max(args.preferred_speed.min(args.max_speed));
        }
        if args.method == Method::Orca {
            orca_step(args, &mut crowd, &mut agents, &positions, &velocities, &preferred);
            for ((position, velocity), agent) in
                positions.iter_mut().zip(&mut velocities).zip(&agents)
            {
                *position = agent.position;
                *velocity = agent.velocity;
            }
        } else {
            for (i, new) in next.iter_mut().enumerate() {
                *new = reynolds(args, i, &positions, &velocities, &preferred);
            }
            for ((position, velocity), new) in
                positions.iter_mut().zip(&mut velocities).zip(&next)
            {
                *velocity = *new;
                *position += *new * args.dt;
            }
        }
        closest = closest.min(closest_pair(&positions));
        if home(&positions) == count {
            return CircleOutcome {
                arrival_step: Some(step),
                steps: step,
                home: count,
                closest,
            };
        }
    }
    CircleOutcome {
        arrival_step: None,
        steps: max_steps,
        home: home(&positions),
        closest,
    }
}

/// The agents evenly round the circle in the plane z = 0, or (in 3D, `--sphere`) evenly over
/// the sphere along a Fibonacci spiral.
fn start_positions(args: &CircleArgs) -> Vec<Vector> {
    let count = args.count;
    (0..count)
        .map(|i| {
            let point = if args.sphere {
                let golden = std::f32::consts::PI * (3.0 - 5.0_f32.sqrt());
                let z = 1.0 - 2.0 * (i as f32 + 0.5) / count as f32;
                let ring = (1.0 - z * z).sqrt();
                let angle = golden * i as f32;
                [ring * angle.cos(), ring * angle.sin(), z]
            } else {
                let angle = i as f32 * std::f32::consts::TAU / count as f32;
                [angle.cos(), angle.sin(), 0.0]
            };
            Vector::from_slice(&point) * args.circle_radius
        })
        .collect()
}

/// One ORCA step of the whole crowd (RVO2's agents, with `--clearance`), with the contact pass
/// if asked for: `agents` ends with the new positions and velocities.
fn orca_step(
    args: &CircleArgs,
    crowd: &mut OrcaCrowd,
    agents: &mut Vec<CrowdAgent>,
    positions: &[Vector],
    velocities: &[Vector],
    preferred: &[Vector],
) {
    let params = OrcaParams {
        clearance: args.clearance,
        ..OrcaParams::rvo2(
            args.neighbour_distance,
            args.max_neighbours,
            args.time_horizon,
            args.time_horizon,
            args.radius,
        )
    };
    agents.clear();
    agents.extend(
        positions
            .iter()
            .zip(velocities)
            .zip(preferred)
            .map(|((&position, &velocity), &preferred_velocity)| CrowdAgent {
                position,
                velocity,
                preferred_velocity,
                max_speed: args.max_speed,
                params,
            }),
    );
    let contact = args.contact_pass.then(ContactPass::default);
    crowd.step(
        agents,
        &[] as &[Shape],
        args.dt,
        contact.as_ref(),
        &ScopedThreads(2),
    );
}

/// The walk to the goal plus Reynolds' unaligned collision avoidance or separation, weighted
/// as the crate's behaviours are, truncated to the maximum force, integrated for one step.
fn reynolds(
    args: &CircleArgs,
    i: usize,
    positions: &[Vector],
    velocities: &[Vector],
    preferred: &[Vector],
) -> Vector {
    let vehicle = Vehicle {
        position: positions[i],
        velocity: velocities[i],
        max_speed: args.max_speed,
        response_time: response_time(args),
    };
    let others = (0..positions.len())
        .filter(|&j| j != i)
        .map(|j| (positions[j], velocities[j]));
    let avoidance = match args.method {
        Method::AvoidCollisions => {
            let params = CollisionParams {
                min_distance: 2.0 * args.radius,
                horizon: args.time_horizon,
            };
            avoid_collisions(&vehicle, others, &params)
        }
        _ => SEPARATION_WEIGHT * separation(&vehicle, others, personal_space(args)),
    };
    let force = vehicle.steer_to(preferred[i]) + avoidance;
    let max_force = 2.0 * args.max_speed / vehicle.response_time;
    let acceleration = combine(force, max_force, 1.0);
    (vehicle.velocity + acceleration * args.dt).clamp_length_max(args.max_speed)
}

/// Separation's weight against the walk's, as *The Nature of Code* weighs it against seeking.
const SEPARATION_WEIGHT: f32 = 1.5;

/// Separation reacts to neighbours whose centres are closer than this: two radii and one more
/// radius of room.
fn personal_space(args: &CircleArgs) -> f32 {
    3.0 * args.radius
}

/// Reynolds' separation: the desired velocity is at full speed away from the neighbours within
/// `space`, each weighted by the inverse of its distance.
fn separation(
    vehicle: &Vehicle,
    others: impl Iterator<Item = (Vector, Vector)>,
    space: f32,
) -> Vector {
    let away: Vector = others
        .filter_map(|(position, _)| {
            let offset = vehicle.position - position;
            let distance = offset.length();
            (distance > 0.0 && distance < space).then(|| offset / (distance * distance))
        })
        .sum();
    match away.try_normalize() {
        Some(direction) => vehicle.steer_to(direction * vehicle.max_speed),
        None => Vector::ZERO,
    }
}

/// The distance between the two closest centres (a sweep along x).
fn closest_pair(positions: &[Vector]) -> f32 {
    let mut sorted = positions.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut closest = f32::MAX;
    for (i, a) in sorted.iter().enumerate() {
        for b in &sorted[i + 1..] {
            if b.x - a.x >= closest {
                break;
            }
            closest = closest.min(a.distance(*b));
        }
    }
    closest
}
