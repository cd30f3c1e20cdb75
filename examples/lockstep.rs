//! Multiplayer flocks in lockstep over renet, on the library's `LockstepPlugin`: every peer runs
//! the same flock, players send only their inputs (a click that spawns boids, a predator sent
//! somewhere, a flocking weight changed), scheduled a few ticks ahead and applied everywhere at
//! that tick, and every peer's `FlockStateHash` is compared after every tick.
//!
//! ```text
//! cargo run --release --example lockstep                     # a window, and a second player in this process
//! cargo run --release --example lockstep -- --server [ADDR]  # host (default 127.0.0.1:5000)
//! cargo run --release --example lockstep -- --client ADDR    # join, at any tick
//! options: --headless  --ticks N  --boids N  --seed S  --players N (to start)  --max-players N
//!          --random-inputs  --mark-thirds  --desync-at N  --resync
//! ```
//!
//! The host chooses the game (its seed, boids and ticks travel in the snapshot a joining player
//! receives). With `--resync` (on the host), a desync sends the peers that differ from the host
//! the game again instead of ending it. Headless, a peer exits when the game's ticks are done: 0
//! when every hash agreed,
//! 1 on a desync, 2 when the host left early, 3 when a peer broke the protocol, 4 when it could
//! not join or the game stalled.

mod support;

#[path = "lockstep/game.rs"]
mod game;
#[path = "lockstep/window.rs"]
mod window;

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use bevy::app::{AppExit, ScheduleRunnerPlugin};
use bevy::log::LogPlugin;
use bevy::prelude::*;
use bevy_flock::lockstep::{
    LinkId, LocalLink, LocalLinks, Lockstep, LockstepAppExt, LockstepConfig, LockstepEnd,
    LockstepNetwork, LockstepPlugin, LockstepRole, LockstepState, LockstepTick, Pacing, TickInputs,
    renet_guest, renet_host,
};
use bevy_flock::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use support::hunt;

use game::{MAX_BOIDS, Play, PlayerPredator, RandomMove, game_bounds, random_move};

const DEFAULT_ADDRESS: &str = "127.0.0.1:5000";

/// How long a finished host keeps relaying for the players still finishing.
const HOST_LINGER: Duration = Duration::from_secs(5);

/// How long a desynced peer keeps its links, for the other peers to find the boids that differ.
const DESYNC_LINGER: Duration = Duration::from_secs(1);

/// Where this process's peers are.
enum Setup {
    /// Hosts at this address.
    Host(SocketAddr),
    /// Joins the host at this address.
    Guest(SocketAddr),
    /// A window hosting, with a second player (random inputs) in this process.
    LocalPair,
}

/// What one peer does, beside the game.
#[derive(Resource, Clone)]
struct Options {
    headless: bool,
    boids: u32,
    seed: u64,
    random_inputs: bool,
    mark_thirds: bool,
    desync_at: Option<u64>,
}

struct Arguments {
    setup: Setup,
    options: Options,
    ticks: Option<u64>,
    players: u8,
    max_players: u8,
    resync: bool,
}

fn main() -> AppExit {
    let arguments = match parse_arguments(std::env::args().skip(1)) {
        Ok(arguments) => arguments,
        Err(message) => {
            eprintln!("lockstep: {message}");
            return AppExit::from_code(64);
        }
    };
    let options = arguments.options.clone();
    let config = |role| LockstepConfig {
        role,
        pacing: Pacing::RealTime,
        last_tick: arguments.ticks,
        build: game::GAME_BUILD,
        resync: arguments.resync,
        ..default()
    };
    let host_role = LockstepRole::Host {
        max_players: arguments.max_players,
        start_with: arguments.players,
    };
    let mut app = if options.headless {
        headless_app()
    } else {
        support::example_app("lockstep")
    };
    let connected = match arguments.setup {
        Setup::Host(address) => UdpSocket::bind(address)
            .and_then(|socket| renet_host(&mut app, socket))
            .map(|()| config(host_role)),
        Setup::Guest(host) => UdpSocket::bind(SocketAddr::from(([0, 0, 0, 0], 0)))
            .and_then(|socket| renet_guest(&mut app, socket, host))
            .map(|()| config(LockstepRole::Guest)),
        Setup::LocalPair => {
            let (host_end, guest_end) = LocalLink::pair(LinkId(1), Duration::ZERO);
            app.insert_resource(LocalLinks(vec![host_end]));
            let guest = Options {
                random_inputs: true,
                mark_thirds: false,
                desync_at: None,
                headless: true,
                ..options.clone()
            };
            let guest_config = config(LockstepRole::Guest);
            std::thread::spawn(move || run_local_guest(guest, guest_config, guest_end));
            Ok(LockstepConfig {
                role: LockstepRole::Host {
                    max_players: arguments.max_players.max(2),
                    start_with: 2,
                },
                ..config(host_role)
            })
        }
    };
    let config = match connected {
        Ok(config) => config,
        Err(error) => {
            eprintln!("lockstep: cannot start the connection: {error}");
            return AppExit::from_code(74);
        }
    };
    let host = matches!(config.role, LockstepRole::Host { .. });
    add_peer(&mut app, options.clone(), config);
    if host {
        game::start_flock(
            app.world_mut(),
            options.seed,
            options.boids,
            arguments.max_players,
        );
    }
    if !options.headless {
        window::add_player(&mut app);
    }
    app.run()
}

/// A peer without a window: its updates run back to back, the lockstep paces the ticks.
fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins
            .set(bevy_flock::all_cores_for_compute())
            .set(ScheduleRunnerPlugin::run_loop(Duration::from_millis(1))),
        LogPlugin::default(),
    ));
    app
}

/// The flock in the lockstep's tick schedule, the game's rules, and this peer's own doings.
fn add_peer(app: &mut App, options: Options, config: LockstepConfig) {
    app.add_plugins((
        BoidsPlugin::new(LockstepTick),
        LockstepPlugin::<Play>::new(config),
    ))
    .add_lockstep_component::<PlayerPredator>()
    .insert_resource(Random(Xoshiro256PlusPlus::seed_from_u64(
        options.seed ^ std::process::id() as u64,
    )))
    .insert_resource(options.clone())
    .insert_resource(Report::default())
    .add_systems(
        LockstepTick,
        nudge_one_boid.after(FlockSystems::TransformSync),
    )
    .add_systems(Update, (random_player, mark_thirds, report_and_exit));
    game::add_rules(app, options.boids);
}

/// The second player of the local pair, on a thread of its own: no window, no log plugin (the
/// process has one), random inputs, over an in-process link.
fn run_local_guest(options: Options, config: LockstepConfig, link: LocalLink) {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::from_millis(1))));
    app.insert_resource(LocalLinks(vec![link]));
    add_peer(&mut app, options, config);
    app.run();
}

#[derive(Resource)]
struct Random(Xoshiro256PlusPlus);

/// A restless player's inputs, one chance a tick.
fn random_player(
    options: Res<Options>,
    settings: Res<FlockSettings>,
    mut random: ResMut<Random>,
    mut lockstep: ResMut<Lockstep<Play>>,
    mut last_tick: Local<u64>,
) {
    if !options.random_inputs || lockstep.state() != &LockstepState::Playing {
        return;
    }
    let tick = lockstep.tick();
    for _ in *last_tick..tick {
        match random_move(&mut random.0, game_bounds(options.boids), &settings) {
            Some(RandomMove::Play(play)) => lockstep.queue(play),
            Some(RandomMove::Flock(command)) => lockstep.queue_flock(command),
            None => {}
        }
    }
    *last_tick = tick;
}

/// What a game's selection or level of detail does on one peer: a marker of its own on a third
/// of the boids (ids divisible by 3), on from tick 50 to 400. The lockstep must not notice.
#[derive(Component)]
struct Selected;

fn mark_thirds(
    mut commands: Commands,
    options: Res<Options>,
    lockstep: Res<Lockstep<Play>>,
    boids: Query<(Entity, &BoidId, Has<Selected>), With<Boid>>,
) {
    if !options.mark_thirds {
        return;
    }
    let wanted = (50..400).contains(&lockstep.tick());
    for (entity, id, selected) in &boids {
        if id.0 % 3 == 0 && selected != wanted {
            if wanted {
                commands.entity(entity).insert(Selected);
            } else {
                commands.entity(entity).remove::<Selected>();
            }
        }
    }
}

/// Moves one boid by a unit at the end of tick `--desync-at`, on this peer alone: the hash
/// exchange must catch it at that tick.
fn nudge_one_boid(
    options: Res<Options>,
    inputs: Res<TickInputs<Play>>,
    mut boids: Query<(&BoidId, &mut Transform), With<Boid>>,
) {
    if options.desync_at != Some(inputs.tick) {
        return;
    }
    if let Some((id, mut transform)) = boids.iter_mut().min_by_key(|(id, _)| **id) {
        transform.translation.x += 1.0;
        println!(
            "nudged boid {} after tick {} (--desync-at)",
            id.0, inputs.tick
        );
    }
}

#[derive(Resource, Default)]
struct Report {
    reported_tick: u64,
    ended_at: Option<Instant>,
}

/// Prints progress every 100 ticks, and the outcome once; exits a headless peer when its game
/// is over.
fn report_and_exit(
    options: Res<Options>,
    lockstep: Res<Lockstep<Play>>,
    network: Res<LockstepNetwork>,
    mut report: ResMut<Report>,
    mut exit: MessageWriter<AppExit>,
) {
    let who = lockstep
        .player()
        .map_or_else(|| "peer".to_string(), |player| format!("player {player}"));
    let tick = lockstep.tick();
    if tick / 100 > report.reported_tick / 100 {
        let (_, seconds) = lockstep.ticks_run();
        println!(
            "{who}: tick {tick}: hashes agree through tick {}; delay {} ticks; {:.0} ticks/s",
            lockstep.checked_through(),
            lockstep.delay(),
            lockstep.ticks_run().0 as f64 / seconds.max(1e-9)
        );
    }
    report.reported_tick = tick;
    let (code, linger) = match lockstep.state() {
        LockstepState::Joining
        | LockstepState::WaitingForPlayers
        | LockstepState::Playing
        | LockstepState::Resyncing => {
            return;
        }
        LockstepState::Finished => {
            let is_host = lockstep.player() == Some(0);
            (0, if is_host { HOST_LINGER } else { Duration::ZERO })
        }
        LockstepState::Ended(LockstepEnd::Desync(_)) => (1, DESYNC_LINGER),
        LockstepState::Ended(LockstepEnd::HostLeft { .. }) => (2, Duration::ZERO),
        LockstepState::Ended(LockstepEnd::Protocol(_)) => (3, Duration::ZERO),
        LockstepState::Ended(_) => (4, Duration::ZERO),
    };
    let ended_at = *report.ended_at.get_or_insert_with(|| {
        print_outcome(&who, &lockstep, &network);
        Instant::now()
    });
    let others_gone = lockstep.players().len() <= 1 || lockstep.player() != Some(0);
    if options.headless
        && (ended_at.elapsed() >= linger || (code == 0 && others_gone && linger.is_zero()))
    {
        exit.write(if code == 0 {
            AppExit::Success
        } else {
            AppExit::from_code(code)
        });
    }
}

fn print_outcome(who: &str, lockstep: &Lockstep<Play>, network: &LockstepNetwork) {
    let (ticks, seconds) = lockstep.ticks_run();
    let (bytes, messages) = network.sent();
    match lockstep.state() {
        LockstepState::Finished => println!(
            "{who}: done: {} ticks, hashes agreed on every tick (the last {:016x}); ran {ticks} \
             ticks in {seconds:.2} s ({:.0} ticks/s); sent {bytes} bytes in {messages} messages \
             ({:.1} bytes/tick); snapshot {} bytes",
            lockstep.tick(),
            lockstep.last_hash(),
            ticks as f64 / seconds.max(1e-9),
            bytes as f64 / ticks.max(1) as f64,
            lockstep.snapshot_bytes(),
        ),
        LockstepState::Ended(LockstepEnd::Desync(desync)) => println!("{who}: DESYNC: {desync}"),
        LockstepState::Ended(end) => println!("{who}: game over: {end}"),
        _ => {}
    }
}

fn parse_arguments(arguments: impl Iterator<Item = String>) -> Result<Arguments, String> {
    let mut arguments = arguments.peekable();
    let mut setup = Setup::LocalPair;
    let mut headless = false;
    let mut boids = None;
    let mut ticks = None;
    let mut seed = 1;
    let mut players = 2;
    let mut max_players = 8;
    let mut random_inputs = false;
    let mut mark_thirds = false;
    let mut desync_at = None;
    let mut resync = false;
    let address = |text: &str| {
        text.parse::<SocketAddr>()
            .map_err(|_| format!("`{text}` is not an address such as {DEFAULT_ADDRESS}"))
    };
    while let Some(argument) = arguments.next() {
        let mut value = |name: &str| {
            arguments
                .next()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |name: &str, text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{name}: `{text}` is not a whole number"))
        };
        let players_count = |name: &str, count: u64| {
            u8::try_from(count)
                .ok()
                .filter(|count| (1..=bevy_flock::lockstep::MAX_PLAYERS as u8).contains(count))
                .ok_or_else(|| {
                    format!("{name}: 1 to {} players", bevy_flock::lockstep::MAX_PLAYERS)
                })
        };
        match argument.as_str() {
            "--server" => {
                let text = match arguments.peek() {
                    Some(next) if !next.starts_with("--") => arguments.next().unwrap_or_default(),
                    _ => DEFAULT_ADDRESS.to_string(),
                };
                setup = Setup::Host(address(&text)?);
            }
            "--client" => setup = Setup::Guest(address(&value("--client")?)?),
            "--headless" => headless = true,
            "--ticks" => ticks = Some(number("--ticks", value("--ticks")?)?),
            "--boids" => boids = Some(number("--boids", value("--boids")?)?),
            "--seed" => seed = number("--seed", value("--seed")?)?,
            "--players" => {
                players = players_count("--players", number("--players", value("--players")?)?)?
            }
            "--max-players" => {
                max_players = players_count(
                    "--max-players",
                    number("--max-players", value("--max-players")?)?,
                )?
            }
            "--random-inputs" => random_inputs = true,
            "--mark-thirds" => mark_thirds = true,
            "--resync" => resync = true,
            "--desync-at" => {
                let tick = number("--desync-at", value("--desync-at")?)?;
                if tick == 0 {
                    return Err("--desync-at: ticks start at 1".into());
                }
                desync_at = Some(tick);
            }
            // The examples' shared switches (the panel is not part of this one).
            "--panel" | "--no-panel" | "--debug" => {}
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let boids = boids.unwrap_or(if headless { 5_000 } else { 600 });
    if boids > u64::from(MAX_BOIDS) {
        return Err(format!("--boids: at most {MAX_BOIDS}"));
    }
    if players > max_players {
        return Err(format!(
            "--players {players} is over --max-players {max_players}"
        ));
    }
    if ticks == Some(0) {
        return Err("--ticks: at least 1".into());
    }
    Ok(Arguments {
        setup,
        options: Options {
            headless,
            boids: boids as u32,
            seed,
            random_inputs,
            mark_thirds,
            desync_at,
        },
        ticks: ticks.or(headless.then_some(600)),
        players,
        max_players,
        resync,
    })
}
