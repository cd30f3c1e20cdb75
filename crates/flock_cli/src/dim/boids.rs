//! Boids as CSV in this module's dimension: `x,y,vx,vy` (2D) or `x,y,z,vx,vy,vz` (3D) in,
//! `step,id,` and the same columns out. Every error names the line and field.

use std::io::Write;
use std::path::Path;

use bevy_flock::FlockSettings;

use super::kernel::{DIMENSIONS, Flock, Vector};

const AXES: [&str; 3] = ["x", "y", "z"];
const SPEEDS: [&str; 3] = ["vx", "vy", "vz"];

/// The columns of one boid: its position's coordinates, then its velocity's.
pub fn columns() -> Vec<&'static str> {
    AXES[..DIMENSIONS]
        .iter()
        .chain(&SPEEDS[..DIMENSIONS])
        .copied()
        .collect()
}

/// The header of an input file: `x,y,vx,vy` or `x,y,z,vx,vy,vz`.
pub fn header() -> String {
    columns().join(",")
}

/// Reads boids from a CSV file with the header [`header`].
pub fn read_boids(path: &Path) -> Result<(Vec<Vector>, Vec<Vector>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read boids `{}`: {e}", path.display()))?;
    parse_boids(&text).map_err(|e| format!("boids `{}`: {e}", path.display()))
}

/// Parses boids from CSV text: the header line [`header`], then one boid per line. Blank lines
/// are skipped; anything else that is not one finite number per column is an error naming the
/// line (and the other dimension's header is named as such).
pub fn parse_boids(text: &str) -> Result<(Vec<Vector>, Vec<Vector>), String> {
    let columns = columns();
    let expected = header();
    let mut lines = text.lines().enumerate();
    let header: Vec<&str> = lines
        .next()
        .ok_or_else(|| format!("the file is empty; expected the header `{expected}`"))?
        .1
        .split(',')
        .map(str::trim)
        .collect();
    if header != columns {
        let found = header.join(",");
        if found == super::other::boids::header() {
            return Err(format!(
                "line 1: the header `{found}` is for {other}D boids; a {DIMENSIONS}D run \
                 (`--dims {DIMENSIONS}`) reads `{expected}`",
                other = super::other::kernel::DIMENSIONS,
            ));
        }
        return Err(format!(
            "line 1: the header is `{found}`; expected `{expected}`"
        ));
    }
    let mut positions = Vec::new();
    let mut velocities = Vec::new();
    for (index, line) in lines {
        let line_number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != columns.len() {
            return Err(format!(
                "line {line_number}: {} fields; expected {} ({expected})",
                fields.len(),
                columns.len()
            ));
        }
        let mut values = [0.0f32; 6];
        for ((value, field), name) in values.iter_mut().zip(&fields).zip(&columns) {
            *value = field
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    format!("line {line_number}: field `{name}`: `{field}` is not a finite number")
                })?;
        }
        if positions.len() == FlockSettings::MAX_BOIDS {
            return Err(format!(
                "line {line_number}: more than {} boids (FlockSettings::MAX_BOIDS)",
                FlockSettings::MAX_BOIDS
            ));
        }
        positions.push(Vector::from_slice(&values[..DIMENSIONS]));
        velocities.push(Vector::from_slice(&values[DIMENSIONS..2 * DIMENSIONS]));
    }
    Ok((positions, velocities))
}

/// The header of the output: `step,id,` and the columns of one boid.
pub fn output_header() -> String {
    format!("step,id,{}", header())
}

/// Writes one line per boid of `flock` at `step`.
pub fn write_state(out: &mut dyn Write, step: u64, flock: &Flock) -> std::io::Result<()> {
    write_boids(out, step, flock.positions(), flock.velocities())
}

/// Writes one line per boid at `step`, from its position and velocity.
pub fn write_boids(
    out: &mut dyn Write,
    step: u64,
    positions: &[Vector],
    velocities: &[Vector],
) -> std::io::Result<()> {
    for (id, (p, v)) in positions.iter().zip(velocities).enumerate() {
        write!(out, "{step},{id}")?;
        for value in p.to_array().iter().chain(&v.to_array()) {
            write!(out, ",{value}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
