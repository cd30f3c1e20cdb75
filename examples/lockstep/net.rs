//! A lockstep peer in a Bevy app: the connection (renet's reliable ordered channel over
//! netcode's UDP transport), the game's flock, and the loop that runs a tick of the flock only
//! when [`Lockstep`] has both players' inputs for it.
//!
//! The flock runs in its own schedule, [`LockstepTick`], which nothing but [`play`] runs: one
//! run per agreed tick, with a clock that advances one fixed step per run, so the wall clock
//! (frame rate, a slow machine, a peer that waits) never reaches the simulation.

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant, SystemTime};

use bevy::app::AppExit;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy_flock::FlockStateHash;
use bevy_flock::flock_core::Bounds;
use bevy_flock::prelude::*;
use bevy_renet::netcode::{
    ClientAuthentication, NetcodeClientPlugin, NetcodeClientTransport, NetcodeServerPlugin,
    NetcodeServerTransport, ServerAuthentication, ServerConfig,
};
use bevy_renet::renet::{ClientId, ConnectionConfig, DefaultChannel};
use bevy_renet::{RenetClient, RenetClientPlugin, RenetServer, RenetServerPlugin};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

use super::hunt::{PREY, predator, predators_hunt_prey};
use super::peer::{Lockstep, Player, Received};
use super::protocol::{Game, Input, MAX_SPAWN_PER_INPUT, Message, PROTOCOL_VERSION, Rule};

/// netcode's protocol id: peers of other applications or versions are refused at connection.
const NETCODE_PROTOCOL_ID: u64 = 0x666c_6f63_6b00_0000 | PROTOCOL_VERSION as u64;

/// The flock's simulated time per tick.
pub const TICK: Duration = Duration::from_nanos(16_666_667);

/// With no tick run for this long, the other peer is taken to have stopped.
const STALL_LIMIT: Duration = Duration::from_secs(10);

/// After a desync, how long a peer keeps its connection so that the other gets the hash that
/// shows it too.
const LINGER: Duration = Duration::from_secs(1);

/// Room above the starting flock for the boids the players' clicks add.
const SPAWN_ROOM: usize = 4096;

/// The schedule the flock's systems run in: one run per lockstep tick.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct LockstepTick;

/// Which end of the connection this peer is.
#[derive(Debug, Clone, Copy)]
pub enum Role {
    /// Hosts the game on this socket's address and waits for one peer.
    Host,
    /// Joins the game hosted at this address.
    Guest { host: SocketAddr },
}

/// What a peer is asked to do.
#[derive(Debug, Clone, Copy)]
pub struct PeerOptions {
    pub role: Role,
    /// The game the host offers (a guest plays the host's).
    pub game: Game,
    /// Makes inputs at random, as a player who clicks a lot would.
    pub random_inputs: bool,
    /// After this tick, this peer moves one boid a little: the next hash exchange must catch it.
    pub desync_at: Option<u64>,
    /// Ticks run per app update at most: 1 in a window (a tick a frame), more headless.
    pub ticks_per_update: u32,
    /// Prints a line every this many ticks (0: never).
    pub report_every: u64,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Every tick ran and every hash agreed.
    Finished,
    /// The hashes of one tick differed.
    Desync(super::peer::Desync),
    /// The other peer left before the game's end.
    OtherLeft { tick: u64 },
    /// The other peer broke the protocol (a garbled, oversized or out-of-place message).
    Protocol(String),
    /// No connection, or the other peer stopped sending.
    Stalled(String),
}

impl Outcome {
    /// The process's exit: success only for a finished game, or an endless one that the other
    /// player left.
    pub fn exit(&self, endless: bool) -> AppExit {
        let code = match self {
            Self::Finished => return AppExit::Success,
            Self::OtherLeft { .. } if endless => return AppExit::Success,
            Self::Desync(_) => 1,
            Self::OtherLeft { .. } => 2,
            Self::Protocol(_) => 3,
            Self::Stalled(_) => 4,
        };
        AppExit::from_code(code)
    }
}

/// One peer's state, beside its connection.
#[derive(Resource)]
pub struct Peer {
    pub options: PeerOptions,
    pub lockstep: Lockstep,
    /// The game being played, once the host has said which.
    pub game: Option<Game>,
    /// The host's peer, once one has joined.
    guest_id: Option<ClientId>,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
    ended_at: Option<Instant>,
    sent_done: bool,
    /// This peer's hash after its last tick.
    pub last_hash: u64,
    /// Bytes of lockstep messages sent, and how many messages.
    pub bytes_sent: u64,
    pub messages_sent: u64,
    started: Instant,
    last_progress: Instant,
    random: Xoshiro256PlusPlus,
    /// The flock's clock: one fixed step per tick.
    tick_time: Time,
}

/// Each player's predator, which its `MovePredator` inputs steer.
#[derive(Resource)]
struct Predators([Entity; 2]);

/// A peer: the renet transport for its role, the flock in [`LockstepTick`], and [`play`].
/// `socket` is bound already (the host's, where guests connect; any local one for a guest).
/// The app brings its own base plugins (a window, or none).
pub fn add_peer(app: &mut App, options: PeerOptions, socket: UdpSocket) -> std::io::Result<()> {
    let me = match options.role {
        Role::Host => Player::Host,
        Role::Guest { .. } => Player::Guest,
    };
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    match options.role {
        Role::Host => {
            let config = ServerConfig {
                current_time: now,
                max_clients: 1,
                protocol_id: NETCODE_PROTOCOL_ID,
                public_addresses: vec![socket.local_addr()?],
                authentication: ServerAuthentication::Unsecure,
            };
            let transport = NetcodeServerTransport::new(config, socket)?;
            app.add_plugins((RenetServerPlugin, NetcodeServerPlugin))
                .insert_resource(RenetServer::new(ConnectionConfig::default()))
                .insert_resource(transport);
        }
        Role::Guest { host } => {
            let authentication = ClientAuthentication::Unsecure {
                protocol_id: NETCODE_PROTOCOL_ID,
                // Any id: a host takes one guest.
                client_id: now.as_nanos() as u64,
                server_addr: host,
                user_data: None,
            };
            let transport = NetcodeClientTransport::new(now, authentication, socket)
                .map_err(std::io::Error::other)?;
            app.add_plugins((RenetClientPlugin, NetcodeClientPlugin))
                .insert_resource(RenetClient::new(ConnectionConfig::default()))
                .insert_resource(transport);
        }
    }
    let random_seed = options.game.seed ^ (me == Player::Guest) as u64 ^ 0x5eed;
    app.insert_resource(Peer {
        options,
        lockstep: Lockstep::new(me),
        game: None,
        guest_id: None,
        outcome: None,
        ended_at: None,
        sent_done: false,
        last_hash: 0,
        bytes_sent: 0,
        messages_sent: 0,
        started: Instant::now(),
        last_progress: Instant::now(),
        random: Xoshiro256PlusPlus::seed_from_u64(random_seed),
        tick_time: Time::default(),
    })
    .insert_resource(predators_hunt_prey())
    .add_plugins(BoidsPlugin::new(LockstepTick))
    .add_systems(Update, play);
    Ok(())
}

/// The bounds of a game of `boids`: room for each like the headless example's, at least a
/// window's worth. The same arithmetic on both peers, so the same bits.
pub fn game_bounds(boids: u32) -> Bounds {
    let width = (boids as f32 * 1280.0 * 1.5).sqrt().max(1200.0);
    Bounds::centered(Vec2::new(width, width / 1.5))
}

/// The flock of `game`, the same on every peer: the settings, the seed, the prey, and one
/// predator per player.
fn start_game(world: &mut World, game: Game) {
    world.insert_resource(FlockSettings {
        config: FlockConfig {
            bounds: game_bounds(game.boids),
            ..FlockConfig::processing()
        },
        max_boids: game.boids as usize + 2 + SPAWN_ROOM,
        ..default()
    });
    world.resource_mut::<FlockRng>().reseed(game.seed);
    for prey in bevy_flock::spawn_boids(world, game.boids as usize, Placement::RandomInBounds) {
        world.entity_mut(prey).insert(Species(PREY));
    }
    let hunters = bevy_flock::spawn_boids(world, 2, Placement::RandomInBounds);
    for &hunter in &hunters {
        world.entity_mut(hunter).insert(predator());
    }
    if let [host, guest] = hunters[..] {
        world.insert_resource(Predators([host, guest]));
    }
    let mut peer = world.resource_mut::<Peer>();
    peer.game = Some(game);
    peer.started = Instant::now();
    peer.last_progress = Instant::now();
    let me = peer.lockstep.me();
    println!(
        "{me:?}: game on: seed {}, {} boids, {}",
        game.seed,
        game.boids,
        match game.ticks {
            0 => "until a player leaves".to_string(),
            ticks => format!("{ticks} ticks"),
        }
    );
}

/// Applies one player's input to the flock.
fn apply(world: &mut World, player: Player, input: Input) {
    match input {
        Input::Spawn { x, y, count } => {
            bevy_flock::spawn_boids(world, count as usize, Placement::At(Vec2::new(x, y)))
                .into_iter()
                .for_each(|boid| {
                    world.entity_mut(boid).insert(Species(PREY));
                });
        }
        Input::MovePredator { x, y } => {
            let Some(predators) = world.get_resource::<Predators>() else {
                return;
            };
            let hunter = predators.0[player.index()];
            if let Ok(mut entity) = world.get_entity_mut(hunter) {
                entity.insert(Seek {
                    target: Target::Point(Vec2::new(x, y)),
                    weight: 1.5,
                });
            }
        }
        Input::SetWeight { rule, value } => {
            let mut settings = world.resource_mut::<FlockSettings>();
            let weights = &mut settings.config.weights;
            match rule {
                Rule::Separation => weights.separation = value,
                Rule::Alignment => weights.alignment = value,
                Rule::Cohesion => weights.cohesion = value,
            }
        }
    }
}

/// An input a restless player might make: now and then a click, a predator's move or a
/// settings change, somewhere in `bounds`.
fn random_input(random: &mut Xoshiro256PlusPlus, bounds: Bounds) -> Option<Input> {
    let half = (bounds.max - bounds.min) / 2.0;
    let roll: f32 = random.random();
    let x = random.random_range(-half.x..=half.x);
    let y = random.random_range(-half.y..=half.y);
    if roll < 0.02 {
        let count = random.random_range(1..=MAX_SPAWN_PER_INPUT / 4);
        Some(Input::Spawn { x, y, count })
    } else if roll < 0.06 {
        Some(Input::MovePredator { x, y })
    } else if roll < 0.07 {
        let rule = [Rule::Separation, Rule::Alignment, Rule::Cohesion][random.random_range(0..3)];
        let value = random.random_range(0.5..=2.0);
        Some(Input::SetWeight { rule, value })
    } else {
        None
    }
}

fn flock_hash(hash: FlockStateHash) -> u64 {
    hash.get()
}

/// Sends `message` to the other peer over the reliable ordered channel.
fn send(world: &mut World, message: &Message) {
    let bytes = message.encode();
    let length = bytes.len() as u64;
    let guest = world.resource::<Peer>().guest_id;
    if let Some(mut server) = world.get_resource_mut::<RenetServer>() {
        let Some(guest) = guest else { return };
        server.send_message(guest, DefaultChannel::ReliableOrdered, bytes);
    } else if let Some(mut client) = world.get_resource_mut::<RenetClient>() {
        client.send_message(DefaultChannel::ReliableOrdered, bytes);
    }
    let mut peer = world.resource_mut::<Peer>();
    peer.bytes_sent += length;
    peer.messages_sent += 1;
}

/// The other peer's messages since the last update, as bytes.
fn receive(world: &mut World) -> Vec<Vec<u8>> {
    let mut messages = Vec::new();
    let guest = world.resource::<Peer>().guest_id;
    if let Some(mut server) = world.get_resource_mut::<RenetServer>() {
        if let Some(guest) = guest {
            while let Some(bytes) = server.receive_message(guest, DefaultChannel::ReliableOrdered) {
                messages.push(bytes.to_vec());
            }
        }
    } else if let Some(mut client) = world.get_resource_mut::<RenetClient>() {
        while let Some(bytes) = client.receive_message(DefaultChannel::ReliableOrdered) {
            messages.push(bytes.to_vec());
        }
    }
    messages
}

/// Whether the other peer is connected: `None` while none has joined yet.
fn other_connected(world: &mut World) -> Option<bool> {
    let guest = world.resource::<Peer>().guest_id;
    if let Some(server) = world.get_resource::<RenetServer>() {
        return guest.map(|guest| server.is_connected(guest));
    }
    let client = world.get_resource::<RenetClient>()?;
    if client.is_connecting() {
        None
    } else {
        Some(client.is_connected())
    }
}

/// The host takes the first guest that connects and tells it the game.
fn welcome_guest(world: &mut World) {
    if world.resource::<Peer>().guest_id.is_some() {
        return;
    }
    let Some(guest) = world
        .get_resource::<RenetServer>()
        .and_then(|server| server.clients_id().into_iter().next())
    else {
        return;
    };
    let game = world.resource::<Peer>().options.game;
    world.resource_mut::<Peer>().guest_id = Some(guest);
    send(
        world,
        &Message::Welcome {
            version: PROTOCOL_VERSION,
            game,
        },
    );
    start_game(world, game);
}

/// Ends the game: says how, and exits (after a short wait when the other peer should see it
/// too).
fn end(world: &mut World, outcome: Outcome) {
    let mut peer = world.resource_mut::<Peer>();
    if peer.outcome.is_some() {
        return;
    }
    let me = peer.lockstep.me();
    let ticks_run = peer.lockstep.next_tick() - 1;
    match &outcome {
        Outcome::Finished => {
            let seconds = peer.started.elapsed().as_secs_f64();
            println!(
                "{me:?}: done: {ticks_run} ticks, hashes agreed on every tick (the last {:016x}); \
                 sent {} bytes in {} messages ({:.1} bytes/tick) in {seconds:.2} s ({:.0} ticks/s)",
                peer.last_hash,
                peer.bytes_sent,
                peer.messages_sent,
                peer.bytes_sent as f64 / ticks_run.max(1) as f64,
                ticks_run as f64 / seconds.max(1e-9),
            );
        }
        Outcome::Desync(desync) => println!("{me:?}: DESYNC: {desync}; stopping"),
        Outcome::OtherLeft { tick } => {
            println!("{me:?}: the other player left at tick {tick}: game over")
        }
        Outcome::Protocol(why) => println!("{me:?}: the other peer broke the protocol: {why}"),
        Outcome::Stalled(why) => println!("{me:?}: {why}"),
    }
    peer.outcome = Some(outcome);
    peer.ended_at = Some(Instant::now());
}

/// Exits once the game has ended: at once, or after [`LINGER`] so that the other peer sees the
/// desync too.
fn exit_when_over(world: &mut World) {
    let peer = world.resource::<Peer>();
    let (Some(outcome), Some(ended_at)) = (&peer.outcome, peer.ended_at) else {
        return;
    };
    let linger = matches!(outcome, Outcome::Desync(_)) && ended_at.elapsed() < LINGER;
    let other_gone = matches!(outcome, Outcome::Desync(_)) && peer.lockstep.other_done();
    if linger && !other_gone {
        return;
    }
    let endless = peer.game.is_none_or(|game| game.ticks == 0);
    let exit = outcome.exit(endless);
    world.write_message(exit);
}

/// The peer's whole turn, once an update: connection, messages in, ticks, messages out, the end.
pub fn play(world: &mut World) {
    if world.resource::<Peer>().outcome.is_some() {
        exit_when_over(world);
        return;
    }
    welcome_guest(world);
    let mut protocol_error = None;
    for bytes in receive(world) {
        match Message::decode(&bytes) {
            Ok(Message::Welcome { version, game }) => {
                if world.resource::<Peer>().game.is_some() {
                    protocol_error = Some("a second welcome".to_string());
                } else if version != PROTOCOL_VERSION {
                    protocol_error = Some(format!(
                        "the host speaks protocol version {version}, this peer {PROTOCOL_VERSION}"
                    ));
                } else {
                    start_game(world, game);
                }
            }
            Ok(_) if world.resource::<Peer>().game.is_none() => {
                protocol_error = Some("a game message before the welcome".to_string());
            }
            Ok(message) => match world.resource_mut::<Peer>().lockstep.receive(message) {
                Ok(Received::Accepted | Received::Done) => {}
                Ok(Received::Duplicate) => debug!("dropped a duplicated message"),
                Err(error) => protocol_error = Some(error.to_string()),
            },
            Err(error) => protocol_error = Some(format!("it sent {error}")),
        }
        if protocol_error.is_some() {
            break;
        }
    }
    if let Some(why) = protocol_error {
        end(world, Outcome::Protocol(why));
        return;
    }
    let connected = other_connected(world);
    let peer = world.resource::<Peer>();
    let Some(game) = peer.game else {
        if peer.started.elapsed() > STALL_LIMIT && peer.guest_id.is_none() {
            let why = match peer.options.role {
                Role::Host => "no player joined in time",
                Role::Guest { .. } => "could not join the host in time",
            };
            end(world, Outcome::Stalled(why.to_string()));
        }
        if connected == Some(false) {
            end(
                world,
                Outcome::Stalled("the host refused the connection".into()),
            );
        }
        return;
    };
    let ticks_run = run_ready_ticks(world, game);
    let mut peer = world.resource_mut::<Peer>();
    if let Err(desync) = peer.lockstep.check() {
        end(world, Outcome::Desync(desync));
        return;
    }
    let finished = game.ticks > 0
        && peer.lockstep.next_tick() > game.ticks
        && peer.lockstep.checked_through() >= game.ticks;
    if finished && !peer.sent_done {
        peer.sent_done = true;
        send(world, &Message::Done);
    }
    let peer = world.resource::<Peer>();
    if finished && (peer.lockstep.other_done() || connected == Some(false)) {
        end(world, Outcome::Finished);
    } else if connected == Some(false) {
        let tick = peer.lockstep.next_tick() - 1;
        end(world, Outcome::OtherLeft { tick });
    } else if ticks_run == 0 && !finished && peer.last_progress.elapsed() > STALL_LIMIT {
        let why = format!(
            "no inputs from the other peer for tick {} in {} s: it stopped",
            peer.lockstep.next_tick(),
            STALL_LIMIT.as_secs()
        );
        end(world, Outcome::Stalled(why));
    } else if ticks_run == 0 && peer.options.ticks_per_update > 1 {
        // Headless, waiting on the other peer: leave the core to it.
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Runs the ticks both players' inputs are here for (at most `ticks_per_update`), sending this
/// peer's inputs and hash after each; how many ran.
fn run_ready_ticks(world: &mut World, game: Game) -> u32 {
    let mut ran = 0;
    while ran < world.resource::<Peer>().options.ticks_per_update {
        let peer = world.resource::<Peer>();
        if game.ticks > 0 && peer.lockstep.next_tick() > game.ticks {
            break;
        }
        let Some((tick, inputs)) = peer.lockstep.ready_tick() else {
            break;
        };
        let me = peer.lockstep.me();
        step_flock(world);
        // A tick's inputs take effect at its end, after the step, so the boids a click adds
        // first move in the next tick's step. The host's inputs first, then the guest's: the
        // same order on both peers, so their boids get the same ids.
        for (player, input) in inputs {
            apply(world, player, input);
        }
        if peer_desyncs_at(world, tick) {
            nudge_one_boid(world);
        }
        let hash = world.run_system_cached(flock_hash).unwrap_or_default();
        let mut peer = world.resource_mut::<Peer>();
        if peer.options.random_inputs {
            let bounds = game_bounds(game.boids);
            if let Some(input) = random_input(&mut peer.random, bounds) {
                peer.lockstep.queue(input);
            }
        }
        peer.last_hash = hash;
        let messages = peer.lockstep.finish_tick(hash);
        peer.last_progress = Instant::now();
        let every = peer.options.report_every;
        if every > 0 && tick.is_multiple_of(every) {
            let seconds = peer.started.elapsed().as_secs_f64();
            println!(
                "{me:?}: tick {tick}: hashes agree through tick {}; {:.0} ticks/s",
                peer.lockstep.checked_through(),
                tick as f64 / seconds.max(1e-9)
            );
        }
        for message in &messages {
            send(world, message);
        }
        ran += 1;
    }
    ran
}

fn peer_desyncs_at(world: &World, tick: u64) -> bool {
    world.resource::<Peer>().options.desync_at == Some(tick)
}

/// One step of the flock, on a clock of its own that advances [`TICK`] per step.
fn step_flock(world: &mut World) {
    let frame_time = *world.resource::<Time>();
    let mut tick_time = world.resource::<Peer>().tick_time;
    tick_time.advance_by(TICK);
    world.resource_mut::<Peer>().tick_time = tick_time;
    world.insert_resource(tick_time);
    world.run_schedule(LockstepTick);
    world.insert_resource(frame_time);
}

/// Moves one boid by a pixel on this peer alone: the desync `--desync-at` asks for.
fn nudge_one_boid(world: &mut World) {
    let mut boids = world.query_filtered::<&mut Transform, With<Boid>>();
    if let Some(mut transform) = boids.iter_mut(world).next() {
        transform.translation.x += 1.0;
        let tick = world.resource::<Peer>().lockstep.next_tick();
        println!("nudged one boid after tick {tick} (--desync-at)");
    }
}
