//! `flock crowd-circle`: RVO2's Circle scenario (agents on a circle, each walking to its
//! antipode) with a choice of how agents avoid each other, and how it went: when the last one
//! arrived, and how close two of them came.

use clap::{Args, ValueEnum};

use crate::arguments::{parse_boid_count, parse_dims};

/// How the agents avoid each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Optimal reciprocal collision avoidance as RVO2 computes it
    /// (`flock_core::steering::OrcaCrowd` with `OrcaParams::rvo2`).
    Orca,
    /// Reynolds' unaligned collision avoidance (`flock_core::steering::avoid_collisions`) added
    /// to the walk towards the goal.
    AvoidCollisions,
    /// Reynolds' separation (away from neighbours within the personal space, weighted as *The
    /// Nature of Code* weighs it against seeking) added to the walk towards the goal.
    Separation,
}

/// Options of `flock crowd-circle`. The defaults are RVO2's Circle example, like for like: its
/// agents, and its preferred velocity (the vector to the goal, at most 1 long). The faster
/// variant, agents preferring their maximum speed, is `--preferred-speed 2`.
#[derive(Args, Debug, Clone)]
pub struct CircleArgs {
    /// 2 (the default) or 3 (the 3D kernel; agents on the same circle, or on a sphere with
    /// `--sphere`).
    #[arg(long, default_value_t = 2, value_parser = parse_dims)]
    pub dims: usize,
    /// How the agents avoid each other.
    #[arg(long, value_enum, default_value_t = Method::Orca)]
    pub method: Method,
    /// How many agents.
    #[arg(long, default_value_t = 250, value_parser = parse_boid_count)]
    pub count: usize,
    /// In 3D, spread the agents evenly over a sphere of the circle's radius instead.
    #[arg(long)]
    pub sphere: bool,
    /// The circle's radius.
    #[arg(long, default_value_t = 200.0)]
    pub circle_radius: f32,
    /// Each agent's radius.
    #[arg(long, default_value_t = 1.5)]
    pub radius: f32,
    /// Seconds per step.
    #[arg(long, default_value_t = 0.25)]
    pub dt: f32,
    /// The maximum speed.
    #[arg(long, default_value_t = 2.0)]
    pub max_speed: f32,
    /// The speed each agent prefers towards its goal (at most the maximum speed); RVO2's Circle
    /// example normalises the vector to the goal, a speed of 1.
    #[arg(long, default_value_t = 1.0)]
    pub preferred_speed: f32,
    /// ORCA: neighbours farther than this are ignored.
    #[arg(long, default_value_t = 15.0)]
    pub neighbour_distance: f32,
    /// ORCA: at most this many neighbours.
    #[arg(long, default_value_t = 10)]
    pub max_neighbours: usize,
    /// ORCA's time horizon, and unaligned collision avoidance's look-ahead, seconds.
    #[arg(long, default_value_t = 10.0)]
    pub time_horizon: f32,
    /// ORCA: extra distance kept between two agents' outlines (0 is the paper's).
    #[arg(long, default_value_t = 0.0)]
    pub clearance: f32,
    /// ORCA: after each step, part the agents that still overlap (`ContactPass`): no two
    /// bodies overlap by more than 1e-3 after any step. Off is RVO2's own.
    #[arg(long)]
    pub contact_pass: bool,
    /// Give up after this many simulated seconds.
    #[arg(long, default_value_t = 4000.0)]
    pub max_time: f32,
}

/// How a run went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CircleOutcome {
    /// Steps until every agent was within its radius of its goal at once (RVO2's test), or
    /// `None` within the time allowed.
    pub arrival_step: Option<u64>,
    /// Steps run.
    pub steps: u64,
    /// Agents at their goals at the end.
    pub home: usize,
    /// The closest two centres came at any step.
    pub closest: f32,
}

/// Runs `flock crowd-circle`.
pub fn run(args: &CircleArgs) -> Result<(), String> {
    check(args)?;
    let outcome = if args.dims == 3 {
        crate::dim3::crowd_circle::run(args)
    } else {
        crate::dim2::crowd_circle::run(args)
    };
    println!("{}", report(args, &outcome));
    Ok(())
}

/// Refuses numbers the scenario cannot run with.
fn check(args: &CircleArgs) -> Result<(), String> {
    let positive = [
        ("--circle-radius", args.circle_radius),
        ("--radius", args.radius),
        ("--dt", args.dt),
        ("--max-speed", args.max_speed),
        ("--time-horizon", args.time_horizon),
        ("--max-time", args.max_time),
    ];
    for (name, value) in positive {
        if !(value.is_finite() && value > 0.0) {
            return Err(format!(
                "{name} {value}: must be a finite number above zero"
            ));
        }
    }
    let not_negative = [
        ("--preferred-speed", args.preferred_speed),
        ("--neighbour-distance", args.neighbour_distance),
        ("--clearance", args.clearance),
    ];
    for (name, value) in not_negative {
        if !(value.is_finite() && value >= 0.0) {
            return Err(format!(
                "{name} {value}: must be a finite number, zero or more"
            ));
        }
    }
    if args.sphere && args.dims != 3 {
        return Err("--sphere needs --dims 3".to_string());
    }
    if args.count < 2 {
        return Err("--count: at least two agents".to_string());
    }
    Ok(())
}

/// One line: the method, when the last agent arrived, the steps, the closest approach and the
/// overlap it means.
pub fn report(args: &CircleArgs, outcome: &CircleOutcome) -> String {
    let method = args
        .method
        .to_possible_value()
        .map_or_else(String::new, |value| value.get_name().to_string());
    let arrival = match outcome.arrival_step {
        Some(step) => format!("last arrival after {:.2} s", step as f32 * args.dt),
        None => format!(
            "did not arrive within {} s ({} of {} home)",
            args.max_time, outcome.home, args.count
        ),
    };
    let contact = 2.0 * args.radius;
    let overlap = ((contact - outcome.closest) / contact).max(0.0) * 100.0;
    let contact = if args.method == Method::Orca && args.contact_pass {
        " with the contact pass"
    } else {
        ""
    };
    format!(
        "{method}{contact} ({}D, {} agents on a circle of {}, preferred speed {}): {arrival}, {} \
         steps, closest centres {:.3} ({overlap:.1} % overlap of the radii)",
        args.dims,
        args.count,
        args.circle_radius,
        args.preferred_speed,
        outcome.steps,
        outcome.closest
    )
}
