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
    /// More species, hunts, points or obstacles than the flock's buffers hold: refused whole, never
    /// truncated.
    TooMany {
        /// `"species"`, `"hunts"`, `"points"`, `"obstacles"`, `"polygon vertices"`,
        /// `"enclosure vertices"` or `"nearest boids"`.
        what: &'static str,
        /// How many were given.
        requested: usize,
        /// The most the flock holds.
        limit: usize,
    },
    /// An empty list of species: a flock has at least one (`clear_species` returns to the
    /// flock's own settings).
    NoSpecies,
    /// A species' rules are invalid (checked as the flock's settings with them in).
    Species {
        /// Its index in the list.
        index: usize,
        /// What is wrong.
        error: ConfigError,
    },
    /// A hunt is invalid.
    Hunt {
        /// Its index in the list.
        index: usize,
        /// What is wrong.
        error: ConfigError,
    },
    /// A point is invalid.
    Point {
        /// Its index in the list.
        index: usize,
        /// What is wrong.
        error: ConfigError,
    },
    /// An obstacle that is not a shape, or lies or reaches too far.
    Obstacle {
        /// Its index in the list.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// The obstacle avoidance's settings are invalid.
    Avoidance(ConfigError),
    /// An enclosure that is not a region, or lies or reaches too far.
    Enclosure(&'static str),
    /// The containment's settings are invalid.
    Containment(ConfigError),
    /// A query is invalid.
    Query(ConfigError),
    /// A query was asked while another is in flight.
    QueryInFlight,
    /// A boid's species index names no species that is set.
    SpeciesOutOfRange {
        /// The boid's index in the list given.
        boid: usize,
        /// Its species index.
        species: u32,
        /// How many species are set.
        count: usize,
    },
    /// Fewer species than the boids' indices name.
    SpeciesInUse {
        /// The highest species index a boid has.
        highest: u32,
        /// How many species were given.
        count: usize,
    },
    /// A species list of another length than the flock.
    SpeciesLengthMismatch {
        /// How many boids.
        boids: usize,
        /// How many species indices.
        species: usize,
    },
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
            Self::TooMany {
                what,
                requested,
                limit,
            } => write!(
                f,
                "{requested} {what} refused: the GPU flock holds at most {limit}"
            ),
            Self::NoSpecies => write!(
                f,
                "no species given: a flock has at least one (clear_species returns to the \
                 flock's own settings)"
            ),
            Self::Species { index, error } => write!(f, "species {index}: {error}"),
            Self::Hunt { index, error } => write!(f, "hunt {index}: {error}"),
            Self::Point { index, error } => write!(f, "point {index}: {error}"),
            Self::Obstacle { index, reason } => write!(f, "obstacle {index} refused: {reason}"),
            Self::Avoidance(error) => write!(f, "obstacle avoidance: {error}"),
            Self::Enclosure(reason) => write!(f, "enclosure refused: {reason}"),
            Self::Containment(error) => write!(f, "containment: {error}"),
            Self::Query(error) => write!(f, "query: {error}"),
            Self::QueryInFlight => write!(
                f,
                "a query is in flight: poll_query until it answers before asking another"
            ),
            Self::SpeciesOutOfRange {
                boid,
                species,
                count,
            } => write!(
                f,
                "boid {boid}'s species {species} refused: {count} species are set, \
                 numbered from 0"
            ),
            Self::SpeciesInUse { highest, count } => write!(
                f,
                "{count} species refused: a boid is of species {highest} (give its species \
                 again with upload_species first)"
            ),
            Self::SpeciesLengthMismatch { boids, species } => write!(
                f,
                "{species} species indices for {boids} boids: one per boid"
            ),
        }
    }
}

impl std::error::Error for GpuError {}

impl From<ConfigError> for GpuError {
    fn from(error: ConfigError) -> Self {
        Self::Config(error)
    }
}
