//! Multiplayer flocks in lockstep over renet: two peers run the same flock from the same seed,
//! send each other only their players' inputs (a click that spawns boids, a predator moved, a
//! flocking weight changed), scheduled a few ticks ahead and applied on both at that tick, and
//! compare their `FlockStateHash` after every tick. A mismatch stops the game with the tick.
//!
//! ```text
//! cargo run --release --example lockstep                  # a window, and a second player in this process
//! cargo run --release --example lockstep -- --server [ADDR]   # host (default 127.0.0.1:5000)
//! cargo run --release --example lockstep -- --client ADDR     # join
//! options: --headless  --ticks N  --boids N  --seed S  --random-inputs  --desync-at N
//! ```
//!
//! The host chooses the game (seed, boids, ticks); the peer that joins plays it. Headless, a
//! peer runs as fast as the other lets it and exits when the game's ticks are done: 0 when
//! every hash agreed, 1 on a desync, 2 when the other player left early, 3 when it broke the
//! protocol, 4 when it never came or stopped sending.

mod support;

#[path = "lockstep/net.rs"]
mod net;
#[path = "lockstep/peer.rs"]
mod peer;
#[path = "lockstep/protocol.rs"]
mod protocol;
#[path = "lockstep/window.rs"]
mod window;

use std::net::{SocketAddr, UdpSocket};
use std::time::Duration;

use bevy::app::{AppExit, ScheduleRunnerPlugin};
use bevy::log::LogPlugin;
use bevy::prelude::*;
use support::hunt;

use net::{PeerOptions, Role, add_peer};
use protocol::{Game, MAX_BOIDS};

const DEFAULT_ADDRESS: &str = "127.0.0.1:5000";

/// Where this process's peers are.
enum Setup {
    /// Hosts at this address.
    Host(SocketAddr),
    /// Joins the host at this address.
    Guest(SocketAddr),
    /// Hosts on a free loopback port, with a second player (random inputs) in this process.
    LocalPair,
}

struct Arguments {
    setup: Setup,
    headless: bool,
    game: Game,
    random_inputs: bool,
    desync_at: Option<u64>,
}

fn main() -> AppExit {
    let arguments = match parse_arguments(std::env::args().skip(1)) {
        Ok(arguments) => arguments,
        Err(message) => {
            eprintln!("lockstep: {message}");
            return AppExit::from_code(64);
        }
    };
    let options = |role| PeerOptions {
        role,
        game: arguments.game,
        random_inputs: arguments.random_inputs,
        desync_at: arguments.desync_at,
        ticks_per_update: if arguments.headless { 8 } else { 1 },
        report_every: if arguments.headless { 100 } else { 0 },
    };
    let bind = |address: SocketAddr| {
        UdpSocket::bind(address).map_err(|error| format!("cannot use {address}: {error}"))
    };
    let result = match arguments.setup {
        Setup::Host(address) => bind(address).map(|socket| (options(Role::Host), socket)),
        Setup::Guest(host) => bind(SocketAddr::from(([0, 0, 0, 0], 0)))
            .map(|socket| (options(Role::Guest { host }), socket)),
        Setup::LocalPair => bind(SocketAddr::from(([127, 0, 0, 1], 0))).and_then(|socket| {
            let host = socket
                .local_addr()
                .map_err(|error| format!("no local address: {error}"))?;
            let guest = PeerOptions {
                random_inputs: true,
                desync_at: None,
                ticks_per_update: 8,
                report_every: 0,
                ..options(Role::Guest { host })
            };
            std::thread::spawn(move || run_local_guest(guest));
            Ok((
                PeerOptions {
                    random_inputs: true,
                    ..options(Role::Host)
                },
                socket,
            ))
        }),
    };
    let (options, socket) = match result {
        Ok(peer) => peer,
        Err(message) => {
            eprintln!("lockstep: {message}");
            return AppExit::from_code(74);
        }
    };
    let mut app = if arguments.headless {
        headless_app()
    } else {
        support::example_app("lockstep")
    };
    if let Err(error) = add_peer(&mut app, options, socket) {
        eprintln!("lockstep: cannot start the connection: {error}");
        return AppExit::from_code(74);
    }
    if !arguments.headless {
        window::add_player(&mut app);
    }
    app.run()
}

/// A peer without a window: its updates run back to back (the lockstep paces them).
fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins
            .set(bevy_flock::all_cores_for_compute())
            .set(ScheduleRunnerPlugin::run_loop(Duration::ZERO)),
        LogPlugin::default(),
    ));
    app
}

/// The second player of the local pair, on a thread of its own: no window, no log plugin (the
/// process has one), random inputs.
fn run_local_guest(options: PeerOptions) {
    let socket = match UdpSocket::bind(SocketAddr::from(([127, 0, 0, 1], 0))) {
        Ok(socket) => socket,
        Err(error) => return eprintln!("lockstep: the local player has no socket: {error}"),
    };
    let mut app = App::new();
    app.add_plugins(MinimalPlugins.set(ScheduleRunnerPlugin::run_loop(Duration::ZERO)));
    if let Err(error) = add_peer(&mut app, options, socket) {
        return eprintln!("lockstep: the local player cannot connect: {error}");
    }
    app.run();
}

fn parse_arguments(arguments: impl Iterator<Item = String>) -> Result<Arguments, String> {
    let mut arguments = arguments.peekable();
    let mut setup = Setup::LocalPair;
    let mut headless = false;
    let mut boids = None;
    let mut ticks = None;
    let mut seed = 1;
    let mut random_inputs = false;
    let mut desync_at = None;
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
            "--random-inputs" => random_inputs = true,
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
    Ok(Arguments {
        setup,
        headless,
        game: Game {
            seed,
            boids: boids as u32,
            ticks: ticks.unwrap_or(if headless { 600 } else { 0 }),
        },
        random_inputs,
        desync_at,
    })
}
