//! `flock simulate`: run a flock headless and write its states as CSV.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use crate::arguments::{parse_boid_count, parse_dims, parse_threads};

/// Options of `flock simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// 2 (the default) or 3: the 3D kernel, with boids as `x,y,z,vx,vy,vz` in and out and
    /// settings whose bounds have three coordinates.
    #[arg(long, default_value_t = 2, value_parser = parse_dims)]
    pub(crate) dims: usize,
    /// Flock settings as RON (the plugin's `FlockSettings`); default: Processing's flock.
    #[arg(long)]
    pub(crate) settings: Option<PathBuf>,
    /// Initial boids as CSV with the header `x,y,vx,vy` (`x,y,z,vx,vy,vz` with `--dims 3`).
    #[arg(long, conflicts_with_all = ["count", "seed"])]
    pub(crate) input: Option<PathBuf>,
    /// Or this many boids (at most 10 million), random in the bounds with random headings at
    /// max speed.
    #[arg(long, required_unless_present = "input", value_parser = parse_boid_count)]
    pub(crate) count: Option<usize>,
    /// Seed of the random boids.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// How many steps to run.
    #[arg(long)]
    pub(crate) steps: u64,
    /// Seconds per step, above zero and at most one.
    #[arg(long, default_value_t = 1.0 / 60.0)]
    pub(crate) dt: f32,
    /// Write every K-th step (step 0, the initial state, is always written).
    #[arg(long, default_value_t = 1)]
    pub(crate) every: u64,
    /// Where to write the CSV; standard output when absent.
    #[arg(long)]
    output: Option<PathBuf>,
    /// Step the flock on the GPU kernel (flock_gpu) instead: the same settings, boids and CSV;
    /// the results match the CPU's to within rounding, not bit for bit.
    #[arg(long)]
    pub(crate) gpu: bool,
    /// Threads for the steering (default: one per core). Results don't depend on it.
    #[arg(long, value_parser = parse_threads)]
    pub(crate) threads: Option<usize>,
}

/// The longest step `--dt` accepts, in seconds. Valid settings keep every speed at most 1e9
/// (`FlockConfig::MAX_MAGNITUDE`), so a step moves a boid at most 1e9 and positions stay far
/// from f32's limit; with `--dt 1e30` one step made them infinite.
pub const MAX_DT: f32 = 1.0;

/// Runs `flock simulate`.
pub fn run(args: &SimulateArgs) -> Result<(), String> {
    if !(args.dt > 0.0 && args.dt <= MAX_DT) {
        return Err(format!(
            "--dt {}: must be above zero and at most {MAX_DT} second",
            args.dt
        ));
    }
    if args.every == 0 {
        return Err("--every 0: must be at least 1".to_string());
    }
    let write = if args.dims == 3 {
        crate::dim3::simulate::run(args)?
    } else {
        crate::dim2::simulate::run(args)?
    };
    match &args.output {
        Some(path) if writes_in_place(path) => {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| format!("cannot open `{}`: {e}", path.display()))?;
            write(&mut BufWriter::new(file))
                .map_err(|e| format!("cannot write `{}`: {e}", path.display()))
        }
        Some(path) => write_atomically(path, write),
        None => {
            let stdout = std::io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            write(&mut out).map_err(|e| format!("cannot write to standard output: {e}"))
        }
    }
}

/// Whether `path` is something other than a regular file (a device such as `/dev/stdout` or
/// `/dev/full`, a named pipe): written directly, since a file renamed over it would replace
/// the device rather than write to it.
fn writes_in_place(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir())
}

/// Writes through a temporary file beside `path` and renames it into place, so a failure
/// leaves no half-written file and an existing file stays as it was. The temporary file's name
/// is new for every run (the process id and a counter, created only if it does not exist yet),
/// so two runs writing the same output never write into each other's.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let file_name = path
        .file_name()
        .ok_or_else(|| format!("--output `{}` is not a file name", path.display()))?;
    let (temporary, file) = create_temporary(path, &file_name.to_string_lossy())
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    let result = (|| {
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()
    })();
    match result.and_then(|()| std::fs::rename(&temporary, path)) {
        Ok(()) => Ok(()),
        Err(error) => {
            let _ = std::fs::remove_file(&temporary);
            Err(format!("cannot write `{}`: {error}", path.display()))
        }
    }
}

/// A temporary file beside `path` that no other run is using: `.NAME.PID-N.partial`, for the
/// first N whose file does not exist yet.
fn create_temporary(path: &Path, file_name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    let pid = std::process::id();
    let mut attempt = 0u32;
    loop {
        let temporary = path.with_file_name(format!(".{file_name}.{pid}-{attempt}.partial"));
        match std::fs::File::create_new(&temporary) {
            Ok(file) => return Ok((temporary, file)),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && attempt < 1000 => {
                attempt += 1;
            }
            Err(error) => return Err(error),
        }
    }
}
