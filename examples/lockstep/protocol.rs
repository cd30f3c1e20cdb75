//! The messages two lockstep peers exchange, and their byte encoding.
//!
//! Little-endian, one tag byte per message and per input, no padding. Decoding checks
//! everything a peer could get wrong or forge: the size (at most [`MAX_MESSAGE_BYTES`]), the
//! tags, the counts, finite numbers within range, and no bytes left over. A message that fails
//! is refused with a [`DecodeError`] that says why; nothing here panics on any input.

use std::fmt;

/// Bumped whenever the encoding or the simulation's rules change: peers of different versions
/// would desync, so they refuse each other.
pub const PROTOCOL_VERSION: u16 = 1;

/// The largest message either peer sends or accepts, bytes.
pub const MAX_MESSAGE_BYTES: usize = 512;

/// The most inputs one player schedules for one tick; more wait for the next tick.
pub const MAX_INPUTS_PER_TICK: usize = 16;

/// The most boids one click spawns.
pub const MAX_SPAWN_PER_INPUT: u8 = 32;

/// The most boids a game starts with.
pub const MAX_BOIDS: u32 = 1_000_000;

/// How far from the origin an input may point, world units: far outside any flock's bounds,
/// small enough that the flock's arithmetic stays finite.
pub const MAX_COORDINATE: f32 = 100_000.0;

/// The largest weight a settings change may give a flocking rule.
pub const MAX_RULE_WEIGHT: f32 = 10.0;

/// One flocking rule whose weight a player can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Separation,
    Alignment,
    Cohesion,
}

/// What a player does, applied on every peer at the tick it is scheduled for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Input {
    /// A click: `count` boids at `(x, y)`.
    Spawn { x: f32, y: f32, count: u8 },
    /// The player's predator now seeks `(x, y)`.
    MovePredator { x: f32, y: f32 },
    /// A settings change: the flock's weight of `rule`.
    SetWeight { rule: Rule, value: f32 },
}

/// A game's parameters, sent by the host to the peer that joins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    pub seed: u64,
    pub boids: u32,
    /// Ticks to play; 0 plays until a player leaves.
    pub ticks: u64,
}

/// One message between peers.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// The host's answer to a peer that joins: the game they both play.
    Welcome { version: u16, game: Game },
    /// The sender's inputs for `tick`, in the order it made them (possibly none).
    Inputs { tick: u64, inputs: Vec<Input> },
    /// The sender's [`FlockStateHash`](bevy_flock::FlockStateHash) after `tick`.
    Hash { tick: u64, hash: u64 },
    /// The sender played every tick of the game and compared every hash.
    Done,
}

/// Why a message was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum DecodeError {
    Empty,
    TooLong { bytes: usize },
    UnknownMessage { tag: u8 },
    UnknownInput { tag: u8 },
    UnknownRule { tag: u8 },
    Truncated { needed: usize, left: usize },
    TrailingBytes { left: usize },
    TooManyInputs { count: usize },
    SpawnCount { count: u8 },
    OutOfRange { what: &'static str, value: f32 },
    TooManyBoids { boids: u32 },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "an empty message"),
            Self::TooLong { bytes } => {
                write!(
                    f,
                    "a message of {bytes} bytes (at most {MAX_MESSAGE_BYTES})"
                )
            }
            Self::UnknownMessage { tag } => write!(f, "an unknown message type {tag}"),
            Self::UnknownInput { tag } => write!(f, "an unknown input type {tag}"),
            Self::UnknownRule { tag } => write!(f, "an unknown flocking rule {tag}"),
            Self::Truncated { needed, left } => {
                write!(
                    f,
                    "a message cut short ({needed} more bytes needed, {left} left)"
                )
            }
            Self::TrailingBytes { left } => write!(f, "{left} bytes after the message's end"),
            Self::TooManyInputs { count } => {
                write!(
                    f,
                    "{count} inputs for one tick (at most {MAX_INPUTS_PER_TICK})"
                )
            }
            Self::SpawnCount { count } => write!(
                f,
                "a click spawning {count} boids (1 to {MAX_SPAWN_PER_INPUT})"
            ),
            Self::OutOfRange { what, value } => write!(f, "{what} out of range: {value}"),
            Self::TooManyBoids { boids } => {
                write!(f, "a game of {boids} boids (at most {MAX_BOIDS})")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

const WELCOME: u8 = 1;
const INPUTS: u8 = 2;
const HASH: u8 = 3;
const DONE: u8 = 4;

const SPAWN: u8 = 1;
const MOVE_PREDATOR: u8 = 2;
const SET_WEIGHT: u8 = 3;

impl Rule {
    fn tag(self) -> u8 {
        match self {
            Self::Separation => 0,
            Self::Alignment => 1,
            Self::Cohesion => 2,
        }
    }

    fn from_tag(tag: u8) -> Result<Self, DecodeError> {
        match tag {
            0 => Ok(Self::Separation),
            1 => Ok(Self::Alignment),
            2 => Ok(Self::Cohesion),
            _ => Err(DecodeError::UnknownRule { tag }),
        }
    }
}

impl Input {
    /// Whether a peer may send this input: what [`Message::decode`] accepts.
    pub fn validate(&self) -> Result<(), DecodeError> {
        let coordinate = |what, value: f32| {
            if value.is_finite() && value.abs() <= MAX_COORDINATE {
                Ok(())
            } else {
                Err(DecodeError::OutOfRange { what, value })
            }
        };
        match *self {
            Self::Spawn { x, y, count } => {
                coordinate("spawn x", x)?;
                coordinate("spawn y", y)?;
                if count == 0 || count > MAX_SPAWN_PER_INPUT {
                    return Err(DecodeError::SpawnCount { count });
                }
                Ok(())
            }
            Self::MovePredator { x, y } => {
                coordinate("predator x", x)?;
                coordinate("predator y", y)
            }
            Self::SetWeight { value, .. } => {
                if value.is_finite() && (0.0..=MAX_RULE_WEIGHT).contains(&value) {
                    Ok(())
                } else {
                    Err(DecodeError::OutOfRange {
                        what: "rule weight",
                        value,
                    })
                }
            }
        }
    }
}

impl Message {
    /// The message's bytes. Only valid messages are encoded (the sender checks its own inputs
    /// with [`Input::validate`] when it makes them), so what one peer encodes the other decodes.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(32);
        match self {
            Self::Welcome { version, game } => {
                bytes.push(WELCOME);
                bytes.extend(version.to_le_bytes());
                bytes.extend(game.seed.to_le_bytes());
                bytes.extend(game.boids.to_le_bytes());
                bytes.extend(game.ticks.to_le_bytes());
            }
            Self::Inputs { tick, inputs } => {
                bytes.push(INPUTS);
                bytes.extend(tick.to_le_bytes());
                bytes.push(inputs.len().min(u8::MAX as usize) as u8);
                for input in inputs {
                    encode_input(input, &mut bytes);
                }
            }
            Self::Hash { tick, hash } => {
                bytes.push(HASH);
                bytes.extend(tick.to_le_bytes());
                bytes.extend(hash.to_le_bytes());
            }
            Self::Done => bytes.push(DONE),
        }
        bytes
    }

    /// The message in `bytes`, checked (see the module's documentation).
    pub fn decode(bytes: &[u8]) -> Result<Self, DecodeError> {
        if bytes.len() > MAX_MESSAGE_BYTES {
            return Err(DecodeError::TooLong { bytes: bytes.len() });
        }
        let mut reader = Reader(bytes);
        let message = match reader.u8().map_err(|_| DecodeError::Empty)? {
            WELCOME => {
                let version = u16::from_le_bytes(reader.array()?);
                let game = Game {
                    seed: reader.u64()?,
                    boids: u32::from_le_bytes(reader.array()?),
                    ticks: reader.u64()?,
                };
                if game.boids > MAX_BOIDS {
                    return Err(DecodeError::TooManyBoids { boids: game.boids });
                }
                Self::Welcome { version, game }
            }
            INPUTS => {
                let tick = reader.u64()?;
                let count = reader.u8()? as usize;
                if count > MAX_INPUTS_PER_TICK {
                    return Err(DecodeError::TooManyInputs { count });
                }
                let inputs = (0..count)
                    .map(|_| decode_input(&mut reader))
                    .collect::<Result<Vec<_>, _>>()?;
                Self::Inputs { tick, inputs }
            }
            HASH => Self::Hash {
                tick: reader.u64()?,
                hash: reader.u64()?,
            },
            DONE => Self::Done,
            tag => return Err(DecodeError::UnknownMessage { tag }),
        };
        if !reader.0.is_empty() {
            return Err(DecodeError::TrailingBytes {
                left: reader.0.len(),
            });
        }
        Ok(message)
    }
}

fn encode_input(input: &Input, bytes: &mut Vec<u8>) {
    match *input {
        Input::Spawn { x, y, count } => {
            bytes.push(SPAWN);
            bytes.extend(x.to_le_bytes());
            bytes.extend(y.to_le_bytes());
            bytes.push(count);
        }
        Input::MovePredator { x, y } => {
            bytes.push(MOVE_PREDATOR);
            bytes.extend(x.to_le_bytes());
            bytes.extend(y.to_le_bytes());
        }
        Input::SetWeight { rule, value } => {
            bytes.push(SET_WEIGHT);
            bytes.push(rule.tag());
            bytes.extend(value.to_le_bytes());
        }
    }
}

fn decode_input(reader: &mut Reader) -> Result<Input, DecodeError> {
    let input = match reader.u8()? {
        SPAWN => Input::Spawn {
            x: reader.f32()?,
            y: reader.f32()?,
            count: reader.u8()?,
        },
        MOVE_PREDATOR => Input::MovePredator {
            x: reader.f32()?,
            y: reader.f32()?,
        },
        SET_WEIGHT => Input::SetWeight {
            rule: Rule::from_tag(reader.u8()?)?,
            value: reader.f32()?,
        },
        tag => return Err(DecodeError::UnknownInput { tag }),
    };
    input.validate()?;
    Ok(input)
}

/// The bytes not read yet.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let Some((head, rest)) = self.0.split_first_chunk::<N>() else {
            return Err(DecodeError::Truncated {
                needed: N,
                left: self.0.len(),
            });
        };
        self.0 = rest;
        Ok(*head)
    }

    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.array::<1>()?[0])
    }

    fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn f32(&mut self) -> Result<f32, DecodeError> {
        Ok(f32::from_le_bytes(self.array()?))
    }
}
