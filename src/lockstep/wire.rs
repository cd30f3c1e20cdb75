//! The messages lockstep peers exchange, and their bytes.
//!
//! Little-endian, one tag byte per message and per command, no padding. Decoding checks
//! everything a peer could get wrong or forge: the size (at most [`MAX_MESSAGE_BYTES`]), the
//! tags, the counts, the player indexes, the game's own inputs (through
//! [`LockstepInput::decode`]) and that no byte is left over. A message that fails is refused
//! with a [`WireError`] that says why; nothing here panics on any input.

use std::fmt;

use super::commands::FlockCommand;

/// Bumped whenever the encoding or the lockstep rules change: peers of other versions refuse
/// each other at the handshake.
pub const PROTOCOL_VERSION: u16 = 1;

/// The largest message a peer sends or accepts, bytes (a snapshot travels in parts below it).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// The most players in one game.
pub const MAX_PLAYERS: usize = 16;

/// The most commands one player schedules for one tick; more wait for the next tick.
pub const MAX_COMMANDS_PER_TICK: usize = 32;

/// The most buckets in one [`Message::Digest`].
pub const MAX_DIGEST_BUCKETS: usize = 64;

/// The longest reason a refusal gives, bytes.
pub const MAX_REASON_BYTES: usize = 512;

/// A game's input: what a player does, sent to every peer and applied on each at the tick it is
/// scheduled for (see [`TickInputs`](super::TickInputs)).
///
/// Decoding is the game's guard against a peer that sends garbage or lies: refuse every value
/// the game could not apply safely (non-finite or far-out numbers, unknown tags, counts that
/// would spawn too much), with a message that says why.
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy_flock::lockstep::{LockstepInput, WireError, WireReader};
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Click { x: f32, y: f32 }
///
/// impl LockstepInput for Click {
///     fn encode(&self, bytes: &mut Vec<u8>) {
///         bytes.extend(self.x.to_le_bytes());
///         bytes.extend(self.y.to_le_bytes());
///     }
///     fn decode(reader: &mut WireReader) -> Result<Self, WireError> {
///         Ok(Click { x: reader.f32_within("x", 1e5)?, y: reader.f32_within("y", 1e5)? })
///     }
/// }
/// ```
pub trait LockstepInput: Clone + PartialEq + fmt::Debug + Send + Sync + 'static {
    /// Appends the input's bytes.
    fn encode(&self, bytes: &mut Vec<u8>);

    /// Reads one input from the front of `reader`, refusing anything invalid.
    fn decode(reader: &mut WireReader) -> Result<Self, WireError>;
}

/// One scheduled command: the game's input, or a change of the flock's own settings or clock.
#[derive(Debug, Clone, PartialEq)]
pub enum Command<I> {
    /// The game's input.
    Game(I),
    /// A change to the flock's resources, applied by the plugin before the tick's step.
    Flock(FlockCommand),
}

/// One message between peers. `player` fields name the player whose inputs or hash it carries:
/// the host relays each guest's messages to the others.
#[derive(Debug, Clone, PartialEq)]
pub enum Message<I> {
    /// A guest asks to join.
    Hello {
        /// Its [`PROTOCOL_VERSION`].
        version: u16,
        /// Its [fingerprint](super::Fingerprint).
        fingerprint: u64,
    },
    /// The host seats the guest; the simulation follows in [`Message::SnapshotPart`]s.
    Welcome {
        /// The guest's player.
        player: u8,
        /// The guest's first tick.
        tick: u64,
        /// Every player still playing then, and the tick it plays from.
        seats: Vec<(u8, u64)>,
        /// How many parts the snapshot comes in.
        snapshot_parts: u32,
    },
    /// The host refuses the guest, or drops it.
    Refused {
        /// Why, for the guest's log.
        reason: String,
    },
    /// One part of the simulation's state at the tick before the guest's first.
    SnapshotPart {
        /// Which part, from 0.
        index: u32,
        /// Its bytes.
        bytes: Vec<u8>,
    },
    /// A player takes a seat.
    Seat {
        /// The player.
        player: u8,
        /// The first tick its inputs are needed for.
        tick: u64,
    },
    /// A player leaves.
    Unseat {
        /// The player.
        player: u8,
        /// The first tick its inputs are no longer needed for.
        tick: u64,
    },
    /// A player's commands for one tick, and none for the ticks before it it skipped.
    Inputs {
        /// The player.
        player: u8,
        /// The first tick this message covers (those before `last` have no commands).
        first: u64,
        /// The tick the commands are for.
        last: u64,
        /// The commands, in the order the player made them.
        commands: Vec<Command<I>>,
    },
    /// A player's [`FlockStateHash`](crate::FlockStateHash) after a tick.
    Hash {
        /// The player.
        player: u8,
        /// The tick.
        tick: u64,
        /// The hash.
        hash: u64,
    },
    /// A round-trip probe, answered by [`Message::Pong`] with the same stamp.
    Ping {
        /// The sender's clock, nanoseconds.
        stamp: u64,
    },
    /// The answer to a [`Message::Ping`].
    Pong {
        /// The ping's stamp.
        stamp: u64,
    },
    /// After a desync: the sender's hashes of its boids in an id range, split into equal
    /// ranges, to find the first boids that differ.
    Digest {
        /// The desynced tick.
        tick: u64,
        /// The first id of the range.
        lo: u64,
        /// One past its last id.
        hi: u64,
        /// Each sub-range's hash.
        buckets: Vec<u64>,
    },
}

/// Why a message was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum WireError {
    /// No bytes at all.
    Empty,
    /// More than [`MAX_MESSAGE_BYTES`].
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// A message or command tag this version does not know.
    UnknownTag {
        /// What the tag names (a message, a command).
        what: &'static str,
        /// The tag.
        tag: u8,
    },
    /// Fewer bytes than the message needs.
    Truncated {
        /// Bytes the next value needs.
        needed: usize,
        /// Bytes left.
        left: usize,
    },
    /// Bytes after the message's end.
    TrailingBytes {
        /// How many.
        left: usize,
    },
    /// A count over its limit.
    TooMany {
        /// What was counted.
        what: &'static str,
        /// The count sent.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A value the game or the flock cannot take.
    Invalid {
        /// What the value is.
        what: &'static str,
        /// What is wrong with it.
        why: String,
    },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "an empty message"),
            Self::TooLong { bytes } => {
                write!(
                    f,
                    "a message of {bytes} bytes (at most {MAX_MESSAGE_BYTES})"
                )
            }
            Self::UnknownTag { what, tag } => write!(f, "an unknown {what} type {tag}"),
            Self::Truncated { needed, left } => write!(
                f,
                "a message cut short ({needed} more bytes needed, {left} left)"
            ),
            Self::TrailingBytes { left } => write!(f, "{left} bytes after the message's end"),
            Self::TooMany { what, count, max } => {
                write!(f, "{count} {what} (at most {max})")
            }
            Self::Invalid { what, why } => write!(f, "an invalid {what}: {why}"),
        }
    }
}

impl std::error::Error for WireError {}

/// Reads a message's bytes front to back, each read checked.
#[derive(Debug)]
pub struct WireReader<'a>(&'a [u8]);

impl<'a> WireReader<'a> {
    /// A reader of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self(bytes)
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.0.len()
    }

    /// The next `N` bytes.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], WireError> {
        let Some((head, rest)) = self.0.split_first_chunk::<N>() else {
            return Err(WireError::Truncated {
                needed: N,
                left: self.0.len(),
            });
        };
        self.0 = rest;
        Ok(*head)
    }

    /// The next `count` bytes.
    pub fn bytes(&mut self, count: usize) -> Result<&'a [u8], WireError> {
        if count > self.0.len() {
            return Err(WireError::Truncated {
                needed: count,
                left: self.0.len(),
            });
        }
        let (head, rest) = self.0.split_at(count);
        self.0 = rest;
        Ok(head)
    }

    /// A byte.
    pub fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.array::<1>()?[0])
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, WireError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64, WireError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A little-endian `f32`, refused unless finite and within `limit` of zero.
    pub fn f32_within(&mut self, what: &'static str, limit: f32) -> Result<f32, WireError> {
        let value = f32::from_le_bytes(self.array()?);
        if value.is_finite() && value.abs() <= limit {
            Ok(value)
        } else {
            Err(WireError::Invalid {
                what,
                why: format!("{value} (finite, at most {limit} from 0)"),
            })
        }
    }

    /// A count in one byte, refused over `max`.
    pub fn count(&mut self, what: &'static str, max: usize) -> Result<usize, WireError> {
        let count = self.u8()? as usize;
        if count > max {
            return Err(WireError::TooMany { what, count, max });
        }
        Ok(count)
    }

    /// Refuses bytes left over.
    fn finish(&self) -> Result<(), WireError> {
        match self.0.len() {
            0 => Ok(()),
            left => Err(WireError::TrailingBytes { left }),
        }
    }
}

const HELLO: u8 = 1;
const WELCOME: u8 = 2;
const REFUSED: u8 = 3;
const SNAPSHOT_PART: u8 = 4;
const SEAT: u8 = 5;
const UNSEAT: u8 = 6;
const INPUTS: u8 = 7;
const HASH: u8 = 8;
const PING: u8 = 9;
const PONG: u8 = 10;
const DIGEST: u8 = 11;

const GAME_COMMAND: u8 = 0;
const FLOCK_COMMAND: u8 = 1;

impl<I: LockstepInput> Message<I> {
    /// The message's bytes. A sender encodes only messages it would accept itself (its
    /// commands were checked when made), so what one peer encodes the other decodes.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(32);
        match self {
            Self::Hello {
                version,
                fingerprint,
            } => {
                bytes.push(HELLO);
                bytes.extend(version.to_le_bytes());
                bytes.extend(fingerprint.to_le_bytes());
            }
            Self::Welcome {
                player,
                tick,
                seats,
                snapshot_parts,
            } => {
                bytes.push(WELCOME);
                bytes.push(*player);
                bytes.extend(tick.to_le_bytes());
                bytes.push(seats.len() as u8);
                for (seat, from) in seats {
                    bytes.push(*seat);
                    bytes.extend(from.to_le_bytes());
                }
                bytes.extend(snapshot_parts.to_le_bytes());
            }
            Self::Refused { reason } => {
                bytes.push(REFUSED);
                let reason = truncated(reason, MAX_REASON_BYTES);
                bytes.extend((reason.len() as u16).to_le_bytes());
                bytes.extend(reason.as_bytes());
            }
            Self::SnapshotPart { index, bytes: part } => {
                bytes.push(SNAPSHOT_PART);
                bytes.extend(index.to_le_bytes());
                bytes.extend((part.len() as u32).to_le_bytes());
                bytes.extend(part);
            }
            Self::Seat { player, tick } | Self::Unseat { player, tick } => {
                bytes.push(if matches!(self, Self::Seat { .. }) {
                    SEAT
                } else {
                    UNSEAT
                });
                bytes.push(*player);
                bytes.extend(tick.to_le_bytes());
            }
            Self::Inputs {
                player,
                first,
                last,
                commands,
            } => {
                bytes.push(INPUTS);
                bytes.push(*player);
                bytes.extend(first.to_le_bytes());
                bytes.extend(last.to_le_bytes());
                bytes.push(commands.len() as u8);
                for command in commands {
                    match command {
                        Command::Game(input) => {
                            bytes.push(GAME_COMMAND);
                            input.encode(&mut bytes);
                        }
                        Command::Flock(command) => {
                            bytes.push(FLOCK_COMMAND);
                            command.encode(&mut bytes);
                        }
                    }
                }
            }
            Self::Hash { player, tick, hash } => {
                bytes.push(HASH);
                bytes.push(*player);
                bytes.extend(tick.to_le_bytes());
                bytes.extend(hash.to_le_bytes());
            }
            Self::Ping { stamp } | Self::Pong { stamp } => {
                bytes.push(if matches!(self, Self::Ping { .. }) {
                    PING
                } else {
                    PONG
                });
                bytes.extend(stamp.to_le_bytes());
            }
            Self::Digest {
                tick,
                lo,
                hi,
                buckets,
            } => {
                bytes.push(DIGEST);
                bytes.extend(tick.to_le_bytes());
                bytes.extend(lo.to_le_bytes());
                bytes.extend(hi.to_le_bytes());
                bytes.push(buckets.len() as u8);
                for bucket in buckets {
                    bytes.extend(bucket.to_le_bytes());
                }
            }
        }
        bytes
    }

    /// The message in `bytes`, checked (see the module's documentation).
    pub fn decode(bytes: &[u8]) -> Result<Self, WireError> {
        if bytes.len() > MAX_MESSAGE_BYTES {
            return Err(WireError::TooLong { bytes: bytes.len() });
        }
        let mut reader = WireReader::new(bytes);
        let message = match reader.u8().map_err(|_| WireError::Empty)? {
            HELLO => Self::Hello {
                version: reader.u16()?,
                fingerprint: reader.u64()?,
            },
            WELCOME => {
                let player = player(&mut reader)?;
                let tick = reader.u64()?;
                let count = reader.count("seats", MAX_PLAYERS)?;
                let seats = (0..count)
                    .map(|_| Ok((self::player(&mut reader)?, reader.u64()?)))
                    .collect::<Result<_, WireError>>()?;
                Self::Welcome {
                    player,
                    tick,
                    seats,
                    snapshot_parts: reader.u32()?,
                }
            }
            REFUSED => {
                let length = reader.u16()? as usize;
                if length > MAX_REASON_BYTES {
                    return Err(WireError::TooMany {
                        what: "bytes of reason",
                        count: length,
                        max: MAX_REASON_BYTES,
                    });
                }
                let reason = String::from_utf8_lossy(reader.bytes(length)?).into_owned();
                Self::Refused { reason }
            }
            SNAPSHOT_PART => {
                let index = reader.u32()?;
                let length = reader.u32()? as usize;
                Self::SnapshotPart {
                    index,
                    bytes: reader.bytes(length)?.to_vec(),
                }
            }
            SEAT => Self::Seat {
                player: player(&mut reader)?,
                tick: reader.u64()?,
            },
            UNSEAT => Self::Unseat {
                player: player(&mut reader)?,
                tick: reader.u64()?,
            },
            INPUTS => {
                let player = player(&mut reader)?;
                let first = reader.u64()?;
                let last = reader.u64()?;
                if first > last {
                    return Err(WireError::Invalid {
                        what: "tick range",
                        why: format!("from {first} to {last}"),
                    });
                }
                let count = reader.count("commands for one tick", MAX_COMMANDS_PER_TICK)?;
                let commands = (0..count)
                    .map(|_| match reader.u8()? {
                        GAME_COMMAND => I::decode(&mut reader).map(Command::Game),
                        FLOCK_COMMAND => FlockCommand::decode(&mut reader).map(Command::Flock),
                        tag => Err(WireError::UnknownTag {
                            what: "command",
                            tag,
                        }),
                    })
                    .collect::<Result<_, _>>()?;
                Self::Inputs {
                    player,
                    first,
                    last,
                    commands,
                }
            }
            HASH => Self::Hash {
                player: player(&mut reader)?,
                tick: reader.u64()?,
                hash: reader.u64()?,
            },
            PING => Self::Ping {
                stamp: reader.u64()?,
            },
            PONG => Self::Pong {
                stamp: reader.u64()?,
            },
            DIGEST => {
                let tick = reader.u64()?;
                let lo = reader.u64()?;
                let hi = reader.u64()?;
                if lo >= hi {
                    return Err(WireError::Invalid {
                        what: "id range",
                        why: format!("from {lo} to {hi}"),
                    });
                }
                let count = reader.count("digest buckets", MAX_DIGEST_BUCKETS)?;
                let buckets = (0..count).map(|_| reader.u64()).collect::<Result<_, _>>()?;
                Self::Digest {
                    tick,
                    lo,
                    hi,
                    buckets,
                }
            }
            tag => {
                return Err(WireError::UnknownTag {
                    what: "message",
                    tag,
                });
            }
        };
        reader.finish()?;
        Ok(message)
    }
}

/// A player index, refused at [`MAX_PLAYERS`] or more.
fn player(reader: &mut WireReader) -> Result<u8, WireError> {
    let player = reader.u8()?;
    if player as usize >= MAX_PLAYERS {
        return Err(WireError::Invalid {
            what: "player",
            why: format!("{player} (players are 0 to {})", MAX_PLAYERS - 1),
        });
    }
    Ok(player)
}

/// At most `max` bytes of `text`, cut at a character boundary.
fn truncated(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
