//! `flock simulate`'s run in this module's dimension: settings, boids, steps, CSV.

use std::io::Write;

use bevy::tasks::available_parallelism;

use super::Settings;
use super::boids::{output_header, read_boids, write_state};
use super::kernel::{Flock, ScopedThreads};
use super::settings::read_settings;
use crate::simulate::SimulateArgs;

/// Builds the flock the arguments ask for and returns a writer that steps it, writing the
/// states as CSV.
pub fn run(
    args: &SimulateArgs,
) -> Result<impl FnOnce(&mut dyn Write) -> std::io::Result<()>, String> {
    let settings = match &args.settings {
        Some(path) => read_settings(path)?,
        None => Settings::default(),
    };
    let config = settings.config;
    let mut flock = match (&args.input, args.count) {
        (Some(path), _) => {
            let (positions, velocities) = read_boids(path)?;
            Flock::new(positions, velocities, &config)
        }
        (None, Some(count)) => Flock::random(count, &config, args.seed.unwrap_or(0)),
        (None, None) => return Err("give --input FILE or --count N".to_string()),
    };
    let executor = ScopedThreads(args.threads.unwrap_or_else(available_parallelism));
    let (steps, every, dt) = (args.steps, args.every, args.dt);
    Ok(move |out: &mut dyn Write| -> std::io::Result<()> {
        writeln!(out, "{}", output_header())?;
        write_state(out, 0, &flock)?;
        for step in 1..=steps {
            flock.step_with(&config, dt, &executor);
            if step % every == 0 {
                write_state(out, step, &flock)?;
            }
        }
        out.flush()
    })
}
