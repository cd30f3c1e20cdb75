//! [`LockstepPlugin`]: the flock played in lockstep by up to [`MAX_PLAYERS`] peers over any
//! transport. The host seats players (refusing other builds), relays each player's messages to
//! the others and sends a joining player the simulation; every peer runs a tick only with every
//! seated player's inputs for it, and compares every player's hash after it.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use super::commands::FlockCommand;
use super::desync::{BoidHashes, DigestReply};
use super::network::{LinkEvent, LinkId, LocalLinks, LockstepNetwork, receive_local, send_local};
use super::session::{Desync, MAX_DELAY, Session, SessionError};
use super::snapshot::{FlockSnapshot, LockstepRegistry, SnapshotError};
use super::wire::{
    Command, LockstepInput, MAX_MESSAGE_BYTES, MAX_PLAYERS, Message, PROTOCOL_VERSION,
};
use crate::clock::FlockClock;
use crate::settings::FlockSettings;

/// The schedule the flock's systems run in under lockstep: one run per agreed tick, on a clock
/// that advances one fixed step per run. Give it to [`BoidsPlugin::new`](crate::BoidsPlugin::new),
/// and put the game's systems that read [`TickInputs`] in it too.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct LockstepTick;

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
    /// hashes through it agree, is [`LockstepState::Finished`].
    pub last_tick: Option<u64>,
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
    fn of<I>(config: &LockstepConfig, registry: &LockstepRegistry) -> Self {
        let mut hash = flock_core::lockstep::identified_boid_hash(
            u64::from(PROTOCOL_VERSION),
            Default::default(),
            Default::default(),
        );
        let mut add = |bytes: &[u8]| {
            for chunk in bytes.chunks(8) {
                let mut word = [0; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                hash = splitmix(hash ^ u64::from_le_bytes(word));
            }
            hash = splitmix(hash ^ bytes.len() as u64);
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

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

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
    /// Over (see the log for the desync's first differing boids).
    Ended(LockstepEnd),
}

/// The game's inputs of the tick being run, each with its player, in the order every peer
/// applies them (player by player, each in the order it made them). Read it from systems in
/// [`LockstepTick`].
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
struct Guest {
    link: LinkId,
    player: u8,
    /// Its first tick: it is sent the snapshot once the host has run the tick before.
    from: u64,
    /// Whether it has had its snapshot (messages are relayed to it from then on).
    live: bool,
}

/// A snapshot coming in parts.
#[derive(Debug, Clone)]
struct Joining {
    player: u8,
    tick: u64,
    seats: Vec<(u8, u64)>,
    parts: Vec<Option<Vec<u8>>>,
}

/// One peer's lockstep: its state, its session, and what it measured. `queue` what the local
/// player does; read `state`, `tick` and the counters.
#[derive(Resource)]
pub struct Lockstep<I: LockstepInput> {
    config: LockstepConfig,
    fingerprint: Fingerprint,
    state: LockstepState,
    session: Option<Session<Command<I>>>,
    /// The host's guests by link.
    guests: BTreeMap<LinkId, Guest>,
    /// A guest's link to the host, once open.
    host_link: Option<LinkId>,
    joining: Option<Joining>,
    /// Commands made before the session exists.
    early: Vec<Command<I>>,
    outbox: Vec<(LinkId, Vec<u8>)>,
    /// Round trips measured on each link, seconds (smoothed).
    round_trips: BTreeMap<LinkId, f64>,
    last_ping: Option<Instant>,
    started: Instant,
    last_progress: Instant,
    /// Real time not yet spent on ticks.
    budget: Duration,
    /// The flock's clock: one fixed step per tick.
    tick_time: Time,
    boid_hashes: BoidHashes,
    /// What the simulation's resources were after the last tick, to catch local writes.
    settings_after_tick: Option<FlockSettings>,
    clock_after_tick: Option<FlockClock>,
    warned_local_write: bool,
    last_hash: u64,
    ticks_run: u64,
    snapshot_bytes: u64,
    desync_report: Option<String>,
}

impl<I: LockstepInput> Lockstep<I> {
    fn new(config: LockstepConfig, fingerprint: Fingerprint) -> Self {
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

    fn queue_command(&mut self, command: Command<I>) {
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

    fn is_host(&self) -> bool {
        matches!(self.config.role, LockstepRole::Host { .. })
    }

    fn send(&mut self, link: LinkId, message: &Message<I>) {
        let bytes = message.encode();
        self.outbox.push((link, bytes));
    }

    /// The host sends `message` to every guest that has its snapshot, but `except`.
    fn broadcast(&mut self, message: &Message<I>, except: Option<LinkId>) {
        let links: Vec<LinkId> = (self.guests.values())
            .filter(|guest| guest.live && Some(guest.link) != except)
            .map(|guest| guest.link)
            .collect();
        let bytes = message.encode();
        for link in links {
            self.outbox.push((link, bytes.clone()));
        }
    }

    fn end(&mut self, end: LockstepEnd) {
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

/// Plays the flock in lockstep with other peers (see the [module](crate::lockstep)). `I` is
/// the game's input.
pub struct LockstepPlugin<I> {
    config: LockstepConfig,
    input: PhantomData<fn() -> I>,
}

impl<I> LockstepPlugin<I> {
    /// The plugin with `config`.
    pub fn new(config: LockstepConfig) -> Self {
        Self {
            config,
            input: PhantomData,
        }
    }
}

impl<I: LockstepInput> Plugin for LockstepPlugin<I> {
    fn build(&self, app: &mut App) {
        let config = match self.config.validate() {
            Ok(()) => self.config.clone(),
            Err(why) => {
                error!("lockstep: invalid LockstepConfig: {why}; using the defaults for it");
                LockstepConfig {
                    role: self.config.role,
                    pacing: self.config.pacing,
                    ..default()
                }
            }
        };
        app.init_resource::<LockstepNetwork>()
            .init_resource::<LocalLinks>()
            .init_resource::<TickInputs<I>>()
            .insert_resource(PendingConfig(config))
            .add_systems(PreUpdate, receive_local)
            .add_systems(Update, run_lockstep::<I>)
            .add_systems(PostUpdate, send_local);
        super::registry::register_simulation(app);
    }

    fn finish(&self, app: &mut App) {
        // The registry is complete once every plugin (the game's types too) has been built.
        let Some(PendingConfig(config)) = app.world_mut().remove_resource::<PendingConfig>() else {
            return;
        };
        let fingerprint = Fingerprint::of::<I>(&config, app.world().resource::<LockstepRegistry>());
        app.insert_resource(Lockstep::<I>::new(config, fingerprint));
    }
}

#[derive(Resource)]
struct PendingConfig(LockstepConfig);

/// The peer's whole turn, once an update: link events and messages in, joins, ticks, messages
/// out.
fn run_lockstep<I: LockstepInput>(world: &mut World) {
    if !world.contains_resource::<Lockstep<I>>() {
        return;
    }
    world.resource_scope(|world, mut lockstep: Mut<Lockstep<I>>| {
        let events = world.resource_mut::<LockstepNetwork>().take_events();
        for event in events {
            handle_event(world, &mut lockstep, event);
        }
        if !matches!(lockstep.state, LockstepState::Ended(_)) {
            adapt_delay(&mut lockstep);
            if lockstep.is_host() {
                start_when_seated(&mut lockstep);
                send_snapshots(world, &mut lockstep);
            }
            catch_local_writes(world, &mut lockstep);
            if lockstep.state == LockstepState::Playing {
                run_ticks(world, &mut lockstep);
                check_hashes(&mut lockstep);
                check_stall(&mut lockstep);
            }
        }
        let outbox = std::mem::take(&mut lockstep.outbox);
        let mut network = world.resource_mut::<LockstepNetwork>();
        for (link, bytes) in outbox {
            network.send(link, bytes);
        }
    });
}

fn handle_event<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>, event: LinkEvent) {
    match event {
        LinkEvent::Connected(link) if lockstep.is_host() => {
            debug!("lockstep: link {link:?} open; waiting for its hello");
        }
        LinkEvent::Connected(link) => {
            if lockstep.host_link.is_none() {
                lockstep.host_link = Some(link);
                let hello = Message::Hello {
                    version: PROTOCOL_VERSION,
                    fingerprint: lockstep.fingerprint.0,
                };
                lockstep.send(link, &hello);
            }
        }
        LinkEvent::Disconnected(link) => disconnected(lockstep, link),
        LinkEvent::Received(link, bytes) => match Message::<I>::decode(&bytes) {
            Ok(message) => {
                if let Err(why) = handle_message(world, lockstep, link, message) {
                    protocol_error(world, lockstep, link, why);
                }
            }
            Err(error) => protocol_error(world, lockstep, link, format!("it sent {error}")),
        },
    }
}

/// A peer broke the rules: the host drops that guest (the game goes on without it); a guest,
/// whose only peer is the host, ends its game.
fn protocol_error<I: LockstepInput>(
    world: &mut World,
    lockstep: &mut Lockstep<I>,
    link: LinkId,
    why: String,
) {
    if lockstep.is_host() {
        let who = lockstep.guests.get(&link).map_or_else(
            || format!("link {}", link.0),
            |guest| format!("player {}", guest.player),
        );
        warn!("lockstep: {who} broke the protocol ({why}); dropping it");
        let refusal = Message::Refused {
            reason: format!("you broke the protocol: {why}"),
        };
        lockstep.send(link, &refusal);
        world.resource_mut::<LockstepNetwork>().close(link);
        disconnected(lockstep, link);
    } else {
        lockstep.end(LockstepEnd::Protocol(why));
    }
}

/// A link closed: the host unseats its player from the first tick it has not scheduled; a
/// guest's game is over.
fn disconnected<I: LockstepInput>(lockstep: &mut Lockstep<I>, link: LinkId) {
    lockstep.round_trips.remove(&link);
    if !lockstep.is_host() {
        if lockstep.host_link == Some(link) {
            let tick = lockstep.tick();
            lockstep.end(LockstepEnd::HostLeft { tick });
        }
        return;
    }
    let Some(guest) = lockstep.guests.remove(&link) else {
        return;
    };
    let Some(session) = &mut lockstep.session else {
        return;
    };
    let Some(seat) = session.seat(guest.player) else {
        return;
    };
    let tick = seat.scheduled_through + 1;
    if session.remove_seat(guest.player, tick).is_ok() {
        info!(
            "lockstep: player {} left; the game goes on without it from tick {tick}",
            guest.player
        );
        lockstep.broadcast(
            &Message::Unseat {
                player: guest.player,
                tick,
            },
            None,
        );
    }
}

fn handle_message<I: LockstepInput>(
    world: &mut World,
    lockstep: &mut Lockstep<I>,
    link: LinkId,
    message: Message<I>,
) -> Result<(), String> {
    match message {
        Message::Ping { stamp } => {
            lockstep.send(link, &Message::Pong { stamp });
            Ok(())
        }
        Message::Pong { stamp } => {
            let sent = Duration::from_nanos(stamp);
            let rtt = lockstep
                .started
                .elapsed()
                .saturating_sub(sent)
                .as_secs_f64();
            let smoothed = lockstep.round_trips.entry(link).or_insert(rtt);
            *smoothed = 0.8 * *smoothed + 0.2 * rtt;
            Ok(())
        }
        Message::Digest {
            tick,
            lo,
            hi,
            buckets,
        } => {
            match lockstep.boid_hashes.answer(tick, lo, hi, &buckets) {
                DigestReply::Narrower(reply) => lockstep.send(link, &reply),
                DigestReply::Found(report) => {
                    error!("lockstep: {report}");
                    lockstep.desync_report = Some(report);
                }
                DigestReply::Nothing(why) => warn!("lockstep: cannot locate the desync: {why}"),
            }
            Ok(())
        }
        message if lockstep.is_host() => host_message(lockstep, link, message),
        message => guest_message(world, lockstep, message),
    }
}

fn host_message<I: LockstepInput>(
    lockstep: &mut Lockstep<I>,
    link: LinkId,
    message: Message<I>,
) -> Result<(), String> {
    match message {
        Message::Hello {
            version,
            fingerprint,
        } => {
            if lockstep.guests.contains_key(&link) {
                return Err("a second hello".into());
            }
            match seat_guest(lockstep, link, version, fingerprint) {
                Ok(()) => {}
                Err(reason) => {
                    info!("lockstep: refused a peer: {reason}");
                    lockstep.send(link, &Message::Refused { reason });
                }
            }
            Ok(())
        }
        Message::Inputs {
            player,
            first,
            last,
            commands,
        } => {
            let guest = claimed_player(lockstep, link, player)?;
            let session = lockstep.session.as_mut().ok_or("inputs before the game")?;
            let taken = session
                .receive_inputs(player, first, last, commands.clone())
                .map_err(|error| error.to_string())?;
            if taken == super::session::Taken::Accepted {
                relay_inputs(lockstep, guest.link, player, first, last, commands);
            }
            Ok(())
        }
        Message::Hash { player, tick, hash } => {
            let guest = claimed_player(lockstep, link, player)?;
            let session = lockstep.session.as_mut().ok_or("a hash before the game")?;
            let taken = session
                .receive_hash(player, tick, hash)
                .map_err(|error| error.to_string())?;
            if taken == super::session::Taken::Accepted {
                let message = Message::Hash { player, tick, hash };
                let links: Vec<LinkId> = (lockstep.guests.values())
                    .filter(|other| other.live && other.link != guest.link && tick >= other.from)
                    .map(|other| other.link)
                    .collect();
                for other in links {
                    lockstep.send(other, &message);
                }
            }
            Ok(())
        }
        Message::Welcome { .. }
        | Message::Refused { .. }
        | Message::SnapshotPart { .. }
        | Message::Seat { .. }
        | Message::Unseat { .. } => Err("a message only the host sends".into()),
        Message::Ping { .. } | Message::Pong { .. } | Message::Digest { .. } => Ok(()),
    }
}

/// The guest on `link`, if it is `player`'s: a guest speaks only for itself.
fn claimed_player<I: LockstepInput>(
    lockstep: &Lockstep<I>,
    link: LinkId,
    player: u8,
) -> Result<Guest, String> {
    let guest = lockstep
        .guests
        .get(&link)
        .ok_or("a game message before its hello")?;
    if guest.player != player {
        return Err(format!("player {} spoke for player {player}", guest.player));
    }
    Ok(guest.clone())
}

/// Sends `player`'s inputs to every other guest that plays any of their ticks.
fn relay_inputs<I: LockstepInput>(
    lockstep: &mut Lockstep<I>,
    from: LinkId,
    player: u8,
    first: u64,
    last: u64,
    commands: Vec<Command<I>>,
) {
    let targets: Vec<(LinkId, u64)> = (lockstep.guests.values())
        .filter(|guest| guest.live && guest.link != from && last >= guest.from)
        .map(|guest| (guest.link, guest.from))
        .collect();
    for (link, guest_from) in targets {
        let message = Message::Inputs {
            player,
            first: first.max(guest_from),
            last,
            commands: commands.clone(),
        };
        lockstep.send(link, &message);
    }
}

/// The host's answer to a hello: a seat from the first tick no peer can have run, or why not.
fn seat_guest<I: LockstepInput>(
    lockstep: &mut Lockstep<I>,
    link: LinkId,
    version: u16,
    fingerprint: u64,
) -> Result<(), String> {
    if version != PROTOCOL_VERSION {
        return Err(format!(
            "protocol version {version}; the host speaks version {PROTOCOL_VERSION}"
        ));
    }
    if fingerprint != lockstep.fingerprint.0 {
        return Err(format!(
            "another build or lockstep settings (fingerprint {fingerprint:016x}, the host's {:016x}): \
             peers must run the same binary with the same LockstepConfig",
            lockstep.fingerprint.0
        ));
    }
    let LockstepRole::Host { max_players, .. } = lockstep.config.role else {
        return Err("not a host".into());
    };
    if matches!(lockstep.state, LockstepState::Ended(_)) {
        return Err("the game is over".into());
    }
    let session = lockstep.session.as_mut().ok_or("no game")?;
    let seated = session.players_at(session.first_free_tick()).count();
    if seated >= usize::from(max_players) {
        return Err(format!("the game is full ({max_players} players)"));
    }
    let player = session.free_player().ok_or("every player index is taken")?;
    let from = session.first_free_tick();
    session
        .add_seat(player, from)
        .map_err(|error| error.to_string())?;
    info!("lockstep: seating player {player} from tick {from}");
    lockstep.broadcast(&Message::Seat { player, tick: from }, None);
    lockstep.guests.insert(
        link,
        Guest {
            link,
            player,
            from,
            live: false,
        },
    );
    Ok(())
}

fn guest_message<I: LockstepInput>(
    world: &mut World,
    lockstep: &mut Lockstep<I>,
    message: Message<I>,
) -> Result<(), String> {
    match message {
        Message::Refused { reason } => {
            lockstep.end(LockstepEnd::Refused(reason));
            Ok(())
        }
        Message::Welcome {
            player,
            tick,
            seats,
            snapshot_parts,
        } => {
            if lockstep.session.is_some() || lockstep.joining.is_some() {
                return Err("a second welcome".into());
            }
            let most_parts = (super::snapshot::MAX_SNAPSHOT_BYTES / MAX_MESSAGE_BYTES + 1) as u32;
            if snapshot_parts == 0 || snapshot_parts > most_parts || tick == 0 {
                return Err(format!(
                    "a welcome with {snapshot_parts} snapshot parts at tick {tick}"
                ));
            }
            if !seats.iter().any(|&(seat, _)| seat == player) {
                return Err("a welcome without this peer's seat".into());
            }
            lockstep.joining = Some(Joining {
                player,
                tick,
                seats,
                parts: vec![None; snapshot_parts as usize],
            });
            Ok(())
        }
        Message::SnapshotPart { index, bytes } => {
            let joining = lockstep
                .joining
                .as_mut()
                .ok_or("a snapshot part out of place")?;
            let part = joining
                .parts
                .get_mut(index as usize)
                .ok_or_else(|| format!("snapshot part {index} of {}", 0))?;
            if part.is_some() {
                return Err(format!("snapshot part {index} twice"));
            }
            *part = Some(bytes);
            if joining.parts.iter().all(Option::is_some) {
                finish_joining(world, lockstep);
            }
            Ok(())
        }
        Message::Seat { player, tick } => {
            let session = lockstep.session.as_mut().ok_or("a seat before the game")?;
            session
                .add_seat(player, tick)
                .map_err(|error| error.to_string())
        }
        Message::Unseat { player, tick } => {
            let session = lockstep
                .session
                .as_mut()
                .ok_or("an unseat before the game")?;
            session
                .remove_seat(player, tick)
                .map_err(|error| error.to_string())?;
            info!("lockstep: player {player} left; the game goes on without it from tick {tick}");
            Ok(())
        }
        Message::Inputs {
            player,
            first,
            last,
            commands,
        } => {
            let session = lockstep.session.as_mut().ok_or("inputs before the game")?;
            if player == session.me() {
                return Err("this peer's own inputs, from another".into());
            }
            session
                .receive_inputs(player, first, last, commands)
                .map(drop)
                .map_err(|error: SessionError| error.to_string())
        }
        Message::Hash { player, tick, hash } => {
            let session = lockstep.session.as_mut().ok_or("a hash before the game")?;
            session
                .receive_hash(player, tick, hash)
                .map(drop)
                .map_err(|error| error.to_string())
        }
        Message::Hello { .. } => Err("a hello to a guest".into()),
        Message::Ping { .. } | Message::Pong { .. } | Message::Digest { .. } => Ok(()),
    }
}

/// Every part of the snapshot is in: restore it, open the session, send the opening inputs.
fn finish_joining<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
    let Some(joining) = lockstep.joining.take() else {
        return;
    };
    let bytes: Vec<u8> = joining.parts.into_iter().flatten().flatten().collect();
    lockstep.snapshot_bytes = bytes.len() as u64;
    let restored = FlockSnapshot::from_bytes(&bytes).and_then(|snapshot| {
        if snapshot.tick + 1 != joining.tick {
            return Err(SnapshotError(format!(
                "a snapshot of tick {} for a game from tick {}",
                snapshot.tick, joining.tick
            )));
        }
        snapshot.restore(world)
    });
    if let Err(error) = restored {
        lockstep.end(LockstepEnd::Snapshot(error.to_string()));
        return;
    }
    let mut session = Session::new(
        joining.player,
        joining.tick,
        &joining.seats,
        lockstep.delay(),
    );
    for command in lockstep.early.drain(..) {
        session.queue(command);
    }
    lockstep.tick_time = Time::default();
    lockstep.settings_after_tick = world.get_resource::<FlockSettings>().cloned();
    lockstep.clock_after_tick = world.get_resource::<FlockClock>().copied();
    let opening = session.open();
    let me = session.me();
    lockstep.session = Some(session);
    lockstep.state = LockstepState::Playing;
    lockstep.last_progress = Instant::now();
    info!(
        "lockstep: joined as player {me} at tick {} ({} bytes of snapshot)",
        joining.tick, lockstep.snapshot_bytes
    );
    if let (Some((first, last, commands)), Some(host)) = (opening, lockstep.host_link) {
        let message = Message::Inputs {
            player: me,
            first,
            last,
            commands,
        };
        lockstep.send(host, &message);
    }
}

/// The host starts once enough players are seated: it opens its own schedule.
fn start_when_seated<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
    let LockstepRole::Host { start_with, .. } = lockstep.config.role else {
        return;
    };
    if lockstep.state != LockstepState::WaitingForPlayers {
        return;
    }
    let Some(session) = &lockstep.session else {
        return;
    };
    if session.players_at(1).count() < usize::from(start_with) {
        return;
    }
    let session = lockstep.session.as_mut().expect("checked above");
    for command in lockstep.early.drain(..) {
        session.queue(command);
    }
    if let Some((first, last, commands)) = session.open() {
        let message = Message::Inputs {
            player: 0,
            first,
            last,
            commands,
        };
        lockstep.broadcast(&message, None);
    }
    info!("lockstep: the game starts with {start_with} player(s)");
    lockstep.state = LockstepState::Playing;
    lockstep.last_progress = Instant::now();
}

/// The host sends each seated guest its welcome, the simulation as it is before the guest's
/// first tick, and every input already scheduled for that tick on.
fn send_snapshots<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
    let Some(session) = &lockstep.session else {
        return;
    };
    let next = session.next_tick();
    let due: Vec<Guest> = (lockstep.guests.values())
        .filter(|guest| !guest.live && guest.from == next)
        .cloned()
        .collect();
    if due.is_empty() {
        return;
    }
    if lockstep.settings_after_tick.is_none() {
        lockstep.settings_after_tick = world.get_resource::<FlockSettings>().cloned();
        lockstep.clock_after_tick = world.get_resource::<FlockClock>().copied();
    }
    let started = Instant::now();
    let bytes = FlockSnapshot::save(world, next - 1).to_bytes();
    lockstep.snapshot_bytes = bytes.len() as u64;
    let part_size = MAX_MESSAGE_BYTES - 64;
    let parts: Vec<&[u8]> = bytes.chunks(part_size).collect();
    let session = lockstep.session.as_ref().expect("checked above");
    // Every player still to play at or after the guest's first tick, and when those that
    // have left stop.
    let seated: Vec<(u8, super::session::Seat)> = (0..MAX_PLAYERS as u8)
        .filter_map(|player| session.seat(player).map(|seat| (player, seat)))
        .filter(|(_, seat)| seat.until.is_none_or(|until| until > next))
        .collect();
    let seats: Vec<(u8, u64)> = seated
        .iter()
        .map(|(player, seat)| (*player, seat.from))
        .collect();
    let leaving: Vec<Message<I>> = (seated.iter())
        .filter_map(|(player, seat)| {
            seat.until.map(|tick| Message::Unseat {
                player: *player,
                tick,
            })
        })
        .collect();
    // Each player's inputs already scheduled from the guest's first tick.
    let mut scheduled: Vec<Message<I>> = Vec::new();
    for &(player, _) in &seats {
        let through = session
            .seat(player)
            .map_or(0, |seat| seat.scheduled_through);
        for tick in next..=through {
            if let Some(commands) = session.inputs_of(player, tick) {
                scheduled.push(Message::Inputs {
                    player,
                    first: tick,
                    last: tick,
                    commands: commands.to_vec(),
                });
            }
        }
    }
    for guest in due {
        let welcome = Message::Welcome {
            player: guest.player,
            tick: next,
            seats: seats.clone(),
            snapshot_parts: parts.len().max(1) as u32,
        };
        lockstep.send(guest.link, &welcome);
        if parts.is_empty() {
            lockstep.send(
                guest.link,
                &Message::SnapshotPart {
                    index: 0,
                    bytes: Vec::new(),
                },
            );
        }
        for (index, part) in parts.iter().enumerate() {
            let message = Message::SnapshotPart {
                index: index as u32,
                bytes: part.to_vec(),
            };
            lockstep.send(guest.link, &message);
        }
        for message in &leaving {
            lockstep.send(guest.link, message);
        }
        for message in &scheduled {
            let Message::Inputs { player, .. } = message else {
                continue;
            };
            if *player != guest.player {
                lockstep.send(guest.link, message);
            }
        }
        if let Some(entry) = lockstep.guests.get_mut(&guest.link) {
            entry.live = true;
        }
        info!(
            "lockstep: sent player {} the game at tick {next}: {} bytes in {:.1} ms",
            guest.player,
            bytes.len(),
            started.elapsed().as_secs_f64() * 1e3
        );
    }
}

/// The input delay follows the round trip: the ticks a message takes to reach every peer, and
/// one more (Age of Empires' turn length, in ticks). Pings go out four times a second.
fn adapt_delay<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
    let now = Instant::now();
    if lockstep
        .last_ping
        .is_none_or(|last| now - last >= Duration::from_millis(250))
    {
        lockstep.last_ping = Some(now);
        let stamp = lockstep.started.elapsed().as_nanos() as u64;
        let links: Vec<LinkId> = if lockstep.is_host() {
            lockstep
                .guests
                .values()
                .filter(|guest| guest.live)
                .map(|guest| guest.link)
                .collect()
        } else {
            lockstep.host_link.into_iter().collect()
        };
        for link in links {
            lockstep.send(link, &Message::Ping { stamp });
        }
    }
    let Some(round_trip) = lockstep.round_trip() else {
        return;
    };
    // A guest's input reaches the others through the host: about one round trip.
    let ticks = (round_trip.as_secs_f64() * lockstep.config.tick_rate).ceil() as u64 + 1;
    let delay = ticks.clamp(lockstep.config.min_delay, MAX_DELAY);
    if let Some(session) = &mut lockstep.session {
        session.set_delay(delay);
    }
}

/// A local write to the flock's settings or clock (a panel, a key) outside a tick would change
/// this peer alone: it is undone and sent as a command instead, and said once.
fn catch_local_writes<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
    if lockstep.session.is_none() || lockstep.joining.is_some() {
        return;
    }
    let mut commands = Vec::new();
    if let (Some(after), Some(now)) = (
        &lockstep.settings_after_tick,
        world.get_resource::<FlockSettings>(),
    ) && after != now
    {
        match FlockCommand::settings(now.clone()) {
            Ok(command) => commands.push(command),
            Err(error) => warn!("lockstep: local settings not sent: {error}"),
        }
        world.insert_resource(after.clone());
    }
    if let (Some(after), Some(now)) = (
        lockstep.clock_after_tick,
        world.get_resource::<FlockClock>().copied(),
    ) && after != now
    {
        if now.is_paused() != after.is_paused() {
            commands.push(if now.is_paused() {
                FlockCommand::Pause
            } else {
                FlockCommand::Resume
            });
        } else {
            commands.push(FlockCommand::StepOnce);
        }
        world.insert_resource(after);
    }
    if commands.is_empty() {
        return;
    }
    if !lockstep.warned_local_write {
        lockstep.warned_local_write = true;
        warn!(
            "lockstep: FlockSettings or FlockClock was written outside a lockstep tick; the change \
             is sent to every peer as a command and made at its tick (send FlockCommands with \
             Lockstep::queue_flock to say so yourself)"
        );
    }
    for command in commands {
        lockstep.queue_flock(command);
    }
}

/// Runs the ticks every player's inputs are in for, as the pacing allows, sending this peer's
/// inputs and hash after each.
fn run_ticks<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
    let max = lockstep.config.max_ticks_per_update;
    let mut allowed = match lockstep.config.pacing {
        Pacing::Unpaced => max,
        Pacing::RealTime => {
            let real = world.resource::<Time<Real>>().delta();
            let tick = lockstep.config.tick_duration();
            // Never more than a few updates' worth behind: a long hitch is not caught up.
            lockstep.budget = (lockstep.budget + real).min(tick * max);
            (lockstep.budget.as_nanos() / tick.as_nanos().max(1)) as u32
        }
    };
    while allowed > 0 {
        let Some(session) = &lockstep.session else {
            return;
        };
        if lockstep
            .config
            .last_tick
            .is_some_and(|last| session.next_tick() > last)
        {
            break;
        }
        let Some((tick, commands)) = session.ready_tick() else {
            break;
        };
        run_tick(world, lockstep, tick, commands);
        allowed -= 1;
        if lockstep.config.pacing == Pacing::RealTime {
            lockstep.budget = lockstep
                .budget
                .saturating_sub(lockstep.config.tick_duration());
        }
    }
}

fn run_tick<I: LockstepInput>(
    world: &mut World,
    lockstep: &mut Lockstep<I>,
    tick: u64,
    commands: Vec<(u8, Command<I>)>,
) {
    let mut inputs = Vec::new();
    for (player, command) in commands {
        match command {
            Command::Flock(command) => command.apply(world),
            Command::Game(input) => inputs.push((player, input)),
        }
    }
    world.insert_resource(TickInputs { tick, inputs });
    let frame_time = *world.resource::<Time>();
    lockstep
        .tick_time
        .advance_by(lockstep.config.tick_duration());
    world.insert_resource(lockstep.tick_time);
    world.run_schedule(LockstepTick);
    world.insert_resource(frame_time);
    world.resource_mut::<TickInputs<I>>().inputs.clear();
    lockstep.settings_after_tick = world.get_resource::<FlockSettings>().cloned();
    lockstep.clock_after_tick = world.get_resource::<FlockClock>().copied();

    let hash = lockstep.boid_hashes.record(world, tick);
    lockstep.last_hash = hash;
    lockstep.ticks_run += 1;
    lockstep.last_progress = Instant::now();
    let Some(session) = &mut lockstep.session else {
        return;
    };
    let me = session.me();
    let scheduled = session.finish_tick(hash);
    let hash_message = Message::Hash {
        player: me,
        tick,
        hash,
    };
    let inputs_message = scheduled.map(|(first, last, commands)| Message::Inputs {
        player: me,
        first,
        last,
        commands,
    });
    if lockstep.is_host() {
        if let Some(message) = &inputs_message {
            lockstep.broadcast(message, None);
        }
        lockstep.broadcast(&hash_message, None);
    } else if let Some(host) = lockstep.host_link {
        if let Some(message) = &inputs_message {
            lockstep.send(host, message);
        }
        lockstep.send(host, &hash_message);
    }
}

/// Compares the hashes in; on a desync, ends the game and starts finding the first boids that
/// differ with the other peers.
fn check_hashes<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
    let Some(session) = &mut lockstep.session else {
        return;
    };
    let before = session.checked_through();
    let result = session.check();
    let checked = session.checked_through();
    if checked > before {
        lockstep.last_progress = Instant::now();
    }
    lockstep.boid_hashes.forget_through(checked);
    let Err(desync) = result else {
        if lockstep
            .config
            .last_tick
            .is_some_and(|last| checked >= last)
        {
            info!("lockstep: finished: every player's hashes agreed through tick {checked}");
            lockstep.state = LockstepState::Finished;
        }
        return;
    };
    let links: Vec<LinkId> = if lockstep.is_host() {
        lockstep
            .guests
            .values()
            .filter(|guest| guest.live)
            .map(|guest| guest.link)
            .collect()
    } else {
        lockstep.host_link.into_iter().collect()
    };
    match lockstep.boid_hashes.first_digest(desync.tick) {
        Some(digest) => {
            for link in links {
                lockstep.send(link, &digest);
            }
        }
        None => warn!(
            "lockstep: tick {}'s boids are no longer held: cannot locate the desync",
            desync.tick
        ),
    }
    lockstep.end(LockstepEnd::Desync(desync));
}

/// No tick for the stall timeout: the host unseats the players it waits for; a guest stops.
fn check_stall<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
    if lockstep.last_progress.elapsed() < lockstep.config.stall_timeout {
        return;
    }
    let Some(session) = &lockstep.session else {
        return;
    };
    // Waiting for a tick's inputs, or (at the game's last tick) for the hashes of one.
    let inputs = session.waiting_for();
    let unchecked = session.checked_through() + 1;
    let (waiting, what) = if !inputs.is_empty() {
        (inputs, format!("inputs for tick {}", session.next_tick()))
    } else if unchecked < session.next_tick() {
        (
            session.missing_hashes(unchecked),
            format!("hashes of tick {unchecked}"),
        )
    } else {
        return;
    };
    if waiting.is_empty() {
        return;
    }
    let seconds = lockstep.config.stall_timeout.as_secs_f64();
    if !lockstep.is_host() {
        lockstep.end(LockstepEnd::Stalled(format!(
            "no {what} from players {waiting:?} in {seconds} s"
        )));
        return;
    }
    for player in waiting {
        let link = (lockstep.guests.values())
            .find(|guest| guest.player == player)
            .map(|guest| guest.link);
        warn!("lockstep: player {player} sent no {what} in {seconds} s; dropping it");
        if let Some(link) = link {
            let reason = format!("you sent no {what} in {seconds} s");
            lockstep.send(link, &Message::Refused { reason });
            disconnected(lockstep, link);
        }
    }
    lockstep.last_progress = Instant::now();
}
