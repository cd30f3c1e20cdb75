//! One peer's lockstep as a resource: where its game stands, its session, what it measured.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::commands::FlockCommand;
use super::config::{Fingerprint, LockstepConfig, LockstepRole};
use super::desync::BoidHashes;
use super::network::LinkId;
use super::session::{Desync, Session};
use super::wire::{Command, LockstepInput, Message};
use crate::clock::FlockClock;
use crate::settings::FlockSettings;

/// How a game ended for this peer.
#[derive(Debug, Clone, PartialEq)]
pub enum LockstepEnd {
    /// The hashes of one tick differed: the game cannot go on in step.
    Desync(Desync),
    /// The host refused this peer (another build, a full game).
    Refused(String),
    /// The host left or its link closed.
    HostLeft {
        /// The last tick this peer ran.
        tick: u64,
    },
    /// Another peer broke the protocol (a garbled, oversized, replayed or out-of-place message).
    Protocol(String),
    /// Nothing came from the host for the stall timeout.
    Stalled(String),
    /// The snapshot the host sent could not be restored.
    Snapshot(String),
}

impl std::fmt::Display for LockstepEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Self::Desync(desync) => write!(f, "{desync}"),
            Self::Refused(why) => write!(f, "the host refused this peer: {why}"),
            Self::HostLeft { tick } => write!(f, "the host left at tick {tick}"),
            Self::Protocol(why) => write!(f, "a peer broke the protocol: {why}"),
            Self::Stalled(why) => write!(f, "stalled: {why}"),
            Self::Snapshot(why) => write!(f, "{why}"),
        }
    }
}

/// Where this peer's game stands.
#[derive(Debug, Clone, PartialEq)]
pub enum LockstepState {
    /// A guest waiting for its link to the host, or for the host's welcome and snapshot.
    Joining,
    /// The host waiting for `start_with` players.
    WaitingForPlayers,
    /// Ticks run.
    Playing,
    /// Every tick through the game's last ran, and every player's hashes of them agreed. The
    /// host still relays what the others send.
    Finished,
    /// A guest whose state differed from the host's after a desync, waiting for the host to
    /// send it the game again.
    Resyncing,
    /// Over (see the log for the desync's first differing boids).
    Ended(LockstepEnd),
}

/// The game's inputs of the tick being run, each with its player, in the order every peer
/// applies them (player by player, each in the order it made them). Read it from systems in
/// [`LockstepTick`](super::LockstepTick).
#[derive(Resource, Debug)]
pub struct TickInputs<I> {
    /// The tick being run.
    pub tick: u64,
    /// Each input and its player.
    pub inputs: Vec<(u8, I)>,
}

impl<I> Default for TickInputs<I> {
    fn default() -> Self {
        Self {
            tick: 0,
            inputs: Vec::new(),
        }
    }
}

/// A guest, as the host sees it.
#[derive(Debug, Clone)]
pub(super) struct Guest {
    pub(super) link: LinkId,
    pub(super) player: u8,
    /// Its first tick: it is sent the snapshot once the host has run the tick before.
    pub(super) from: u64,
    /// Whether it has had its snapshot (messages are relayed to it from then on).
    pub(super) live: bool,
}

/// A snapshot coming in parts.
#[derive(Debug, Clone)]
pub(super) struct Joining {
    pub(super) player: u8,
    pub(super) tick: u64,
    pub(super) seats: Vec<(u8, u64)>,
    pub(super) parts: Vec<Option<Vec<u8>>>,
}

/// One peer's lockstep: its state, its session, and what it measured. `queue` what the local
/// player does; read `state`, `tick` and the counters.
#[derive(Resource)]
pub struct Lockstep<I: LockstepInput> {
    pub(super) config: LockstepConfig,
    pub(super) fingerprint: Fingerprint,
    pub(super) state: LockstepState,
    pub(super) session: Option<Session<Command<I>>>,
    /// The host's guests by link.
    pub(super) guests: BTreeMap<LinkId, Guest>,
    /// A guest's link to the host, once open.
    pub(super) host_link: Option<LinkId>,
    pub(super) joining: Option<Joining>,
    /// Commands made before the session exists.
    pub(super) early: Vec<Command<I>>,
    pub(super) outbox: Vec<(LinkId, Vec<u8>)>,
    /// Round trips measured on each link, seconds (smoothed).
    pub(super) round_trips: BTreeMap<LinkId, f64>,
    pub(super) last_ping: Option<Instant>,
    pub(super) started: Instant,
    pub(super) last_progress: Instant,
    /// Real time not yet spent on ticks.
    pub(super) budget: Duration,
    /// The flock's clock: one fixed step per tick.
    pub(super) tick_time: Time,
    pub(super) boid_hashes: BoidHashes,
    /// What the simulation's resources were after the last tick, to catch local writes.
    pub(super) settings_after_tick: Option<FlockSettings>,
    pub(super) clock_after_tick: Option<FlockClock>,
    pub(super) warned_local_write: bool,
    pub(super) last_hash: u64,
    pub(super) ticks_run: u64,
    pub(super) snapshot_bytes: u64,
    pub(super) desync_report: Option<String>,
    /// The tick of the desync being dealt with, so it is reported once.
    pub(super) desync_seen: Option<u64>,
}

impl<I: LockstepInput> Lockstep<I> {
    pub(super) fn new(config: LockstepConfig, fingerprint: Fingerprint) -> Self {
        let state = match config.role {
            LockstepRole::Host { .. } => LockstepState::WaitingForPlayers,
            LockstepRole::Guest => LockstepState::Joining,
        };
        let session = match config.role {
            LockstepRole::Host { .. } => Some(Session::new(0, 1, &[(0, 1)], config.min_delay)),
            LockstepRole::Guest => None,
        };
        Self {
            config,
            fingerprint,
            state,
            session,
            guests: BTreeMap::new(),
            host_link: None,
            joining: None,
            early: Vec::new(),
            outbox: Vec::new(),
            round_trips: BTreeMap::new(),
            last_ping: None,
            started: Instant::now(),
            last_progress: Instant::now(),
            budget: Duration::ZERO,
            tick_time: Time::default(),
            boid_hashes: BoidHashes::default(),
            settings_after_tick: None,
            clock_after_tick: None,
            warned_local_write: false,
            last_hash: 0,
            ticks_run: 0,
            snapshot_bytes: 0,
            desync_report: None,
            desync_seen: None,
        }
    }

    /// An input of the local player, scheduled for a tick `delay` ahead (commands made while
    /// joining wait for the game).
    pub fn queue(&mut self, input: I) {
        self.queue_command(Command::Game(input));
    }

    /// A change to the flock's resources, scheduled like an input.
    pub fn queue_flock(&mut self, command: FlockCommand) {
        self.queue_command(Command::Flock(command));
    }

    pub(super) fn queue_command(&mut self, command: Command<I>) {
        match &mut self.session {
            Some(session) if !matches!(self.state, LockstepState::Ended(_)) => {
                session.queue(command)
            }
            _ => self.early.push(command),
        }
    }

    /// Where the game stands.
    pub fn state(&self) -> &LockstepState {
        &self.state
    }

    /// This peer's player, once seated.
    pub fn player(&self) -> Option<u8> {
        self.session
            .as_ref()
            .filter(|_| self.joining.is_none())
            .map(Session::me)
    }

    /// The last tick run (0 before the first).
    pub fn tick(&self) -> u64 {
        self.session
            .as_ref()
            .map_or(0, |session| session.next_tick() - 1)
    }

    /// Every tick up to this one had the same hash on every player.
    pub fn checked_through(&self) -> u64 {
        self.session.as_ref().map_or(0, Session::checked_through)
    }

    /// The players seated for the next tick.
    pub fn players(&self) -> Vec<u8> {
        let Some(session) = &self.session else {
            return Vec::new();
        };
        session.players_at(session.next_tick()).collect()
    }

    /// The input delay now, ticks.
    pub fn delay(&self) -> u64 {
        self.session
            .as_ref()
            .map_or(self.config.min_delay, Session::delay)
    }

    /// This peer's hash after its last tick.
    pub fn last_hash(&self) -> u64 {
        self.last_hash
    }

    /// Ticks this peer has run, and the seconds since it started.
    pub fn ticks_run(&self) -> (u64, f64) {
        (self.ticks_run, self.started.elapsed().as_secs_f64())
    }

    /// The bytes of the last snapshot sent or received.
    pub fn snapshot_bytes(&self) -> u64 {
        self.snapshot_bytes
    }

    /// After a desync, once found with the other peers: which boids first differ (also logged).
    pub fn desync_report(&self) -> Option<&str> {
        self.desync_report.as_deref()
    }

    /// This peer's fingerprint.
    pub fn fingerprint(&self) -> Fingerprint {
        self.fingerprint
    }

    /// The smoothed round trip to the host (a guest) or the slowest guest (the host).
    pub fn round_trip(&self) -> Option<Duration> {
        let slowest = self
            .round_trips
            .values()
            .copied()
            .fold(None, |max: Option<f64>, rtt| {
                Some(max.map_or(rtt, |max| max.max(rtt)))
            });
        slowest.map(Duration::from_secs_f64)
    }

    pub(super) fn is_host(&self) -> bool {
        matches!(self.config.role, LockstepRole::Host { .. })
    }

    pub(super) fn send(&mut self, link: LinkId, message: &Message<I>) {
        let bytes = message.encode();
        self.outbox.push((link, bytes));
    }

    /// The links this peer talks to: the host's guests that have their snapshot, or a guest's
    /// link to its host.
    pub(super) fn peer_links(&self) -> Vec<LinkId> {
        if self.is_host() {
            (self.guests.values())
                .filter(|guest| guest.live)
                .map(|guest| guest.link)
                .collect()
        } else {
            self.host_link.into_iter().collect()
        }
    }

    /// The host sends `message` to every guest that has its snapshot, but `except`.
    pub(super) fn broadcast(&mut self, message: &Message<I>, except: Option<LinkId>) {
        let links: Vec<LinkId> = (self.guests.values())
            .filter(|guest| guest.live && Some(guest.link) != except)
            .map(|guest| guest.link)
            .collect();
        let bytes = message.encode();
        for link in links {
            self.outbox.push((link, bytes.clone()));
        }
    }

    pub(super) fn end(&mut self, end: LockstepEnd) {
        if matches!(self.state, LockstepState::Ended(_)) {
            return;
        }
        match &end {
            LockstepEnd::Desync(_) => error!("lockstep: {end}; the game stops"),
            _ => warn!("lockstep: {end}; the game stops"),
        }
        self.state = LockstepState::Ended(end);
    }
}
