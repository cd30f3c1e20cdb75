//! Lockstep multiplayer: every peer runs the same flock from the same state and the same
//! inputs, and compares a hash of it each tick.
//!
//! [`FlockStateHash`] is always here. With the `lockstep` feature, [`LockstepPlugin`] plays a
//! game over any transport ([`LockstepNetwork`] is where a transport plugs in; [`LocalLink`]
//! joins apps in one process; the `renet` feature adds renet's):
//!
//! - **Ticks at a fixed rate**, paced by the wall clock ([`Pacing::RealTime`]), in the
//!   [`LockstepTick`] schedule, where the flock and the game's systems run with a clock that
//!   advances one fixed step per tick.
//! - **The game's own inputs** ([`LockstepInput`]), scheduled a few ticks ahead: the delay
//!   follows the measured round trip, as Age of Empires' turn length does. Each tick's inputs
//!   reach the game in [`TickInputs`], in the same order on every peer.
//! - **The flock's own changes as inputs** ([`FlockCommand`]): a local write to
//!   [`FlockSettings`](crate::FlockSettings) or [`FlockClock`](crate::FlockClock) (a panel, a
//!   pause key) is caught, undone, warned about once and sent as a command.
//! - **Hashes every tick**: at a desync the peers narrow down the first boids by id whose state
//!   differs and log them; the host then sends the players that differ from it the whole
//!   simulation again and the game goes on (or, without `resync`, the game stops).
//! - **A handshake**: a peer of another build or lockstep settings ([`Fingerprint`]) is refused
//!   at join, with both fingerprints in the message; so is one over `max_players`.
//! - **Up to [`MAX_PLAYERS`] players**, a host relaying each one's messages to the others; a
//!   player joins at any tick from a [`FlockSnapshot`] of the whole simulation (also what a
//!   replay or a resync restores); a player that leaves or stalls is unseated and the game goes
//!   on.

mod hash;

pub use hash::FlockStateHash;

#[cfg(feature = "lockstep")]
mod commands;
#[cfg(feature = "lockstep")]
mod config;
#[cfg(feature = "lockstep")]
mod desync;
#[cfg(feature = "lockstep")]
mod guest;
#[cfg(feature = "lockstep")]
mod host;
#[cfg(feature = "lockstep")]
mod network;
#[cfg(feature = "lockstep")]
mod peer;
#[cfg(feature = "lockstep")]
mod plugin;
#[cfg(feature = "lockstep")]
mod registry;
#[cfg(feature = "renet")]
mod renet;
#[cfg(feature = "lockstep")]
mod session;
#[cfg(feature = "lockstep")]
mod snapshot;
#[cfg(feature = "lockstep")]
mod ticks;
#[cfg(feature = "lockstep")]
mod wire;

#[cfg(feature = "lockstep")]
pub use commands::FlockCommand;
#[cfg(feature = "lockstep")]
pub use config::{Fingerprint, LockstepConfig, LockstepRole, Pacing};
#[cfg(feature = "lockstep")]
pub use network::{LinkEvent, LinkId, LocalLink, LocalLinks, LockstepNetwork};
#[cfg(feature = "lockstep")]
pub use peer::{Lockstep, LockstepEnd, LockstepState, TickInputs};
#[cfg(feature = "lockstep")]
pub use plugin::{LockstepPlugin, LockstepTick};
#[cfg(feature = "lockstep")]
pub use registry::LockstepAppExt;
#[cfg(feature = "renet")]
pub use renet::{
    LockstepRenetPlugin, NETCODE_PROTOCOL_ID, lockstep_connection_config, renet_guest, renet_host,
};
#[cfg(feature = "lockstep")]
pub use session::{Desync, MAX_DELAY};
#[cfg(feature = "lockstep")]
pub use snapshot::{FlockSnapshot, LockstepRegistry, MAX_SNAPSHOT_BYTES, SnapshotError};
#[cfg(feature = "lockstep")]
pub use wire::{
    Command, LockstepInput, MAX_COMMANDS_PER_TICK, MAX_MESSAGE_BYTES, MAX_PLAYERS, Message,
    PROTOCOL_VERSION, WireError, WireReader,
};
