//! The lockstep's settings, and the fingerprint peers must share to play together.

use std::time::Duration;

use flock_core::lockstep::mix;

use super::session::MAX_DELAY;
use super::snapshot::LockstepRegistry;
use super::wire::{MAX_PLAYERS, PROTOCOL_VERSION};

/// Which end of the game this peer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockstepRole {
    /// Hosts the game: player 0. Starts once `start_with` players (itself included) are
    /// seated, and seats at most `max_players` (up to [`MAX_PLAYERS`]).
    Host {
        /// The most players seated at once, the host included.
        max_players: u8,
        /// How many players (the host included) must be seated before the first tick.
        start_with: u8,
    },
    /// Joins the host on its transport's link, and plays from the simulation the host sends.
    Guest,
}

/// How ticks follow the wall clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pacing {
    /// `tick_rate` ticks a second of real time, whatever the frame rate: a 60 Hz peer and a
    /// 144 Hz peer play at the same speed.
    RealTime,
    /// As many ticks as the other players allow (up to `max_ticks_per_update` an update): for
    /// servers, tests and replays.
    Unpaced,
}

/// The lockstep's settings. Every peer of a game must use the same ones (they are part of the
/// [`Fingerprint`]), except the role and the pacing.
#[derive(Debug, Clone, PartialEq)]
pub struct LockstepConfig {
    /// Host or guest.
    pub role: LockstepRole,
    /// Ticks per second; each tick steps the flock `1 / tick_rate` seconds.
    pub tick_rate: f64,
    /// Real time or as fast as possible.
    pub pacing: Pacing,
    /// The most ticks one update runs (catching up after a hitch).
    pub max_ticks_per_update: u32,
    /// The smallest input delay, ticks; the delay grows with the measured round trip.
    pub min_delay: u64,
    /// The game's own build or content version, part of the fingerprint: peers with other
    /// rules must not play together.
    pub build: u64,
    /// With no tick run for this long, the players the game waits for are taken to have left
    /// (on the host) or the host to have stopped (on a guest).
    pub stall_timeout: Duration,
    /// The game's last tick, if it has one: the peer stops there and, once every player's
    /// hashes through it agree, is [`LockstepState::Finished`](super::LockstepState::Finished).
    pub last_tick: Option<u64>,
    /// After a desync, the host sends the players whose hash differs from its own the whole
    /// simulation again (they rejoin under a new player index) and the game goes on; without
    /// it, a desync ends the game on every peer.
    pub resync: bool,
}

impl Default for LockstepConfig {
    fn default() -> Self {
        Self {
            role: LockstepRole::Host {
                max_players: 8,
                start_with: 1,
            },
            tick_rate: 60.0,
            pacing: Pacing::RealTime,
            max_ticks_per_update: 8,
            min_delay: 2,
            build: 0,
            stall_timeout: Duration::from_secs(10),
            last_tick: None,
            resync: true,
        }
    }
}

impl LockstepConfig {
    /// Checks every field; the first invalid one is named.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.tick_rate.is_finite() && (1.0..=1000.0).contains(&self.tick_rate)) {
            return Err(format!(
                "tick_rate {} (1 to 1000 ticks a second)",
                self.tick_rate
            ));
        }
        if self.max_ticks_per_update == 0 {
            return Err("max_ticks_per_update 0 (at least 1)".into());
        }
        if !(1..=MAX_DELAY).contains(&self.min_delay) {
            return Err(format!(
                "min_delay {} (1 to {MAX_DELAY} ticks)",
                self.min_delay
            ));
        }
        if self.stall_timeout.is_zero() {
            return Err("stall_timeout 0 (a peer would be dropped at once)".into());
        }
        if let LockstepRole::Host {
            max_players,
            start_with,
        } = self.role
        {
            let max = MAX_PLAYERS as u8;
            if !(1..=max).contains(&max_players) {
                return Err(format!("max_players {max_players} (1 to {max})"));
            }
            if !(1..=max_players).contains(&start_with) {
                return Err(format!(
                    "start_with {start_with} (1 to max_players {max_players})"
                ));
            }
        }
        Ok(())
    }

    /// The simulated time of one tick.
    pub fn tick_duration(&self) -> Duration {
        Duration::from_secs_f64(1.0 / self.tick_rate.clamp(1.0, 1000.0))
    }
}

/// What a peer must share with the host to play: the protocol, this crate's version and
/// dimension, the game's build, the lockstep's tick rate, minimum delay and last tick, the game's input
/// type and every type the snapshot holds. A peer whose fingerprint differs is refused at the
/// handshake, with both values in the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint(pub u64);

impl Fingerprint {
    pub(super) fn of<I>(config: &LockstepConfig, registry: &LockstepRegistry) -> Self {
        let mut hash = mix(u64::from(PROTOCOL_VERSION));
        let mut add = |bytes: &[u8]| {
            for chunk in bytes.chunks(8) {
                let mut word = [0; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                hash = mix(hash ^ u64::from_le_bytes(word));
            }
            hash = mix(hash ^ bytes.len() as u64);
        };
        add(env!("CARGO_PKG_VERSION").as_bytes());
        add(std::env::consts::ARCH.as_bytes());
        add(&[u8::from(cfg!(flock_3d))]);
        add(&config.build.to_le_bytes());
        add(&config.tick_rate.to_bits().to_le_bytes());
        add(&config.min_delay.to_le_bytes());
        add(&config.last_tick.unwrap_or(0).to_le_bytes());
        add(std::any::type_name::<I>().as_bytes());
        for path in registry.type_paths() {
            add(path.as_bytes());
        }
        Self(hash)
    }
}
