//! What can go wrong, each case said plainly before anything reaches the device.

use std::fmt;

use flock_core::ConfigError;

/// Why a [`DeviceFlock`](crate::DeviceFlock) call was refused or failed.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuError {
    /// No GPU adapter (no driver, or none that wgpu can use).
    NoAdapter(String),
    /// The adapter would not give a device.
    NoDevice(String),
    /// The settings are invalid, as [`flock_core::FlockConfig::validate`] says; the flock keeps
    /// its previous settings.
    Config(ConfigError),
    /// More boids than the device's buffers can hold.
    TooManyBoids {
        /// The boids asked for.
        requested: usize,
        /// The most this device can hold.
        limit: usize,
    },
    /// Positions and velocities of different lengths.
    LengthMismatch {
        /// How many positions.
        positions: usize,
        /// How many velocities.
        velocities: usize,
    },
    /// A position or velocity that is not a finite number.
    NotFinite {
        /// The boid's index.
        boid: usize,
        /// `"position"` or `"velocity"`.
        what: &'static str,
    },
    /// A time step that is negative or not finite.
    InvalidTimeStep(f32),
    /// The device lacks something the kernel needs (compute shaders, enough storage buffers
    /// per shader stage, a large enough workgroup): the flock cannot run on it.
    Unsupported(String),
    /// The device reported an error (a lost device, a failed read-back).
    Device(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoAdapter(why) => write!(f, "no GPU adapter: {why}"),
            Self::NoDevice(why) => write!(f, "the GPU adapter gave no device: {why}"),
            Self::Config(error) => error.fmt(f),
            Self::TooManyBoids { requested, limit } => write!(
                f,
                "{requested} boids do not fit on this device: at most {limit}"
            ),
            Self::LengthMismatch {
                positions,
                velocities,
            } => write!(
                f,
                "{positions} positions but {velocities} velocities: one velocity per boid"
            ),
            Self::NotFinite { boid, what } => {
                write!(f, "boid {boid}'s {what} is not a finite number")
            }
            Self::InvalidTimeStep(dt) => write!(
                f,
                "time step {dt} refused: it must be a finite number of seconds, zero or more"
            ),
            Self::Unsupported(why) => write!(f, "the GPU cannot run the flock: {why}"),
            Self::Device(why) => write!(f, "GPU device error: {why}"),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<ConfigError> for GpuError {
    fn from(error: ConfigError) -> Self {
        Self::Config(error)
    }
}
