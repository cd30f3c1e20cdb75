//! Changes to the flock's own resources, scheduled like a player's inputs so that every peer
//! makes them at the same tick.

use bevy::prelude::*;

use super::wire::{WireError, WireReader};
use crate::clock::FlockClock;
use crate::settings::{BoundsSource, FlockSettings};

/// The longest settings a command carries, bytes of RON.
pub const MAX_SETTINGS_BYTES: usize = 16 * 1024;

/// A change to the flock's resources that travels as an input: the panel's sliders, a pause
/// key, a preset. [`LockstepPlugin`](super::LockstepPlugin) turns a local write to
/// [`FlockSettings`] or [`FlockClock`] into one of these (and warns once), so every peer
/// applies it at one tick.
#[derive(Debug, Clone, PartialEq)]
pub enum FlockCommand {
    /// Pauses the flock ([`FlockClock::pause`]).
    Pause,
    /// Resumes it ([`FlockClock::resume`]).
    Resume,
    /// While paused, one more step ([`FlockClock::step_once`]).
    StepOnce,
    /// New settings, valid ([`FlockSettings::validate`]) and with fixed bounds: bounds that
    /// follow a camera differ from peer to peer.
    Settings(Box<FlockSettings>),
}

const PAUSE: u8 = 0;
const RESUME: u8 = 1;
const STEP_ONCE: u8 = 2;
const SETTINGS: u8 = 3;

impl FlockCommand {
    /// Settings a peer may schedule: valid, with fixed bounds.
    pub fn settings(settings: FlockSettings) -> Result<Self, WireError> {
        let invalid = |why: String| WireError::Invalid {
            what: "flock settings",
            why,
        };
        settings
            .validate()
            .map_err(|error| invalid(error.to_string()))?;
        if settings.bounds_source != BoundsSource::Fixed {
            return Err(invalid(
                "bounds that follow a camera (each peer's camera differs)".into(),
            ));
        }
        Ok(Self::Settings(Box::new(settings)))
    }

    /// Makes the change in `world`.
    pub fn apply(&self, world: &mut World) {
        match self {
            Self::Pause => world.resource_mut::<FlockClock>().pause(),
            Self::Resume => world.resource_mut::<FlockClock>().resume(),
            Self::StepOnce => world.resource_mut::<FlockClock>().step_once(),
            Self::Settings(settings) => world.insert_resource(FlockSettings::clone(settings)),
        }
    }

    pub(super) fn encode(&self, bytes: &mut Vec<u8>) {
        match self {
            Self::Pause => bytes.push(PAUSE),
            Self::Resume => bytes.push(RESUME),
            Self::StepOnce => bytes.push(STEP_ONCE),
            Self::Settings(settings) => {
                bytes.push(SETTINGS);
                // The settings were validated when the command was made; RON writes every f32
                // in its shortest exact form, so they read back to the same bits.
                let text = ron::to_string(&**settings).unwrap_or_default();
                bytes.extend((text.len() as u32).to_le_bytes());
                bytes.extend(text.as_bytes());
            }
        }
    }

    pub(super) fn decode(reader: &mut WireReader) -> Result<Self, WireError> {
        match reader.u8()? {
            PAUSE => Ok(Self::Pause),
            RESUME => Ok(Self::Resume),
            STEP_ONCE => Ok(Self::StepOnce),
            SETTINGS => {
                let length = reader.u32()? as usize;
                if length > MAX_SETTINGS_BYTES {
                    return Err(WireError::TooMany {
                        what: "bytes of settings",
                        count: length,
                        max: MAX_SETTINGS_BYTES,
                    });
                }
                let invalid = |why: String| WireError::Invalid {
                    what: "flock settings",
                    why,
                };
                let text = std::str::from_utf8(reader.bytes(length)?)
                    .map_err(|error| invalid(error.to_string()))?;
                let settings: FlockSettings =
                    ron::from_str(text).map_err(|error| invalid(error.to_string()))?;
                Self::settings(settings)
            }
            tag => Err(WireError::UnknownTag {
                what: "flock command",
                tag,
            }),
        }
    }
}
