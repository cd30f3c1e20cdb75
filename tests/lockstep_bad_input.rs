//! `LockstepPlugin` against peers that get it wrong or lie: malformed, oversized, replayed,
//! past and far-future messages; a peer that stalls, leaves, or joins with another build; more
//! players than allowed; invalid settings and snapshots. Each gets a clear refusal, nothing
//! hangs, and the honest players' game goes on with every hash agreeing.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::time::Duration;

use bevy::prelude::*;
use bevy_flock::lockstep::{
    Command, FlockCommand, FlockSnapshot, LinkId, LocalLink, LocalLinks, LockstepConfig,
    LockstepEnd, LockstepRole, LockstepState, MAX_PLAYERS, Message, PROTOCOL_VERSION, WireError,
};
use bevy_flock::prelude::*;
use common::lockstep_game::{Play, config, connect, ended, lockstep, peer, start_flock};

type PlayMessage = Message<Play>;

fn host(max_players: u8, start_with: u8) -> App {
    let mut host = peer(config(LockstepRole::Host {
        max_players,
        start_with,
    }));
    start_flock(&mut host, 120, max_players);
    host
}

/// Updates every app `updates` times, in turn.
fn run(apps: &mut [&mut App], updates: usize) {
    for _ in 0..updates {
        for app in apps.iter_mut() {
            app.update();
        }
    }
}

/// A peer that speaks the protocol by hand: the test's end of a link to `host`.
fn raw_guest(host: &mut App, link: u64) -> LocalLink {
    let (host_end, guest_end) = LocalLink::pair(LinkId(link), Duration::ZERO);
    host.world_mut()
        .resource_mut::<LocalLinks>()
        .0
        .push(host_end);
    guest_end
}

fn hello(host: &App) -> Vec<u8> {
    PlayMessage::Hello {
        version: PROTOCOL_VERSION,
        fingerprint: lockstep(host).fingerprint().0,
    }
    .encode()
}

fn decoded(messages: Vec<Vec<u8>>) -> Vec<PlayMessage> {
    (messages.iter())
        .map(|bytes| PlayMessage::decode(bytes).expect("the host sends valid messages"))
        .collect()
}

/// Seats a raw guest: its hello, the host's welcome once the host has run the tick before the
/// guest's first (with `other`, the honest guest); the raw guest's player and first tick.
fn seat_raw(host: &mut App, other: &mut App, guest: &mut LocalLink) -> (u8, u64) {
    guest.send_raw(hello(host));
    run(&mut [host, other], 10);
    let welcome = decoded(guest.receive_raw())
        .into_iter()
        .find_map(|message| match message {
            PlayMessage::Welcome { player, tick, .. } => Some((player, tick)),
            _ => None,
        });
    welcome.expect("a welcome")
}

fn inputs(player: u8, first: u64, last: u64, commands: Vec<Command<Play>>) -> Vec<u8> {
    PlayMessage::Inputs {
        player,
        first,
        last,
        commands,
    }
    .encode()
}

#[test]
fn malformed_messages_are_refused_with_the_reason_and_never_panic() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (vec![], "empty"),
        (vec![200], "unknown message"),
        (vec![1, 1], "cut short"),
        ([hello_bytes(), vec![0]].concat(), "after the message's end"),
        (vec![0; 70_000], "at most"),
        (inputs(0, 5, 4, vec![]), "tick range"),
        (inputs(MAX_PLAYERS as u8, 1, 1, vec![]), "player"),
        (
            [
                vec![7, 0],
                1u64.to_le_bytes().to_vec(),
                1u64.to_le_bytes().to_vec(),
                vec![200],
            ]
            .concat(),
            "commands",
        ),
        (
            [
                vec![7, 0],
                1u64.to_le_bytes().to_vec(),
                1u64.to_le_bytes().to_vec(),
                vec![1, 0, 9],
            ]
            .concat(),
            "play",
        ),
        (
            [
                vec![7, 0],
                1u64.to_le_bytes().to_vec(),
                1u64.to_le_bytes().to_vec(),
                vec![1, 1, 99],
            ]
            .concat(),
            "flock command",
        ),
        (
            [
                vec![11],
                3u64.to_le_bytes().to_vec(),
                5u64.to_le_bytes().to_vec(),
                5u64.to_le_bytes().to_vec(),
                vec![0],
            ]
            .concat(),
            "id range",
        ),
    ];
    for (bytes, why) in cases {
        let error = PlayMessage::decode(&bytes).expect_err(why);
        assert!(error.to_string().contains(why), "{why}: {error}");
    }
    // A game input with a number no game could take: NaN, infinity, far out.
    for value in [f32::NAN, f32::INFINITY, 1e30] {
        let mut bytes = inputs(0, 1, 1, vec![]);
        let last = bytes.len() - 1;
        bytes[last] = 1;
        bytes.extend([0, 1]);
        bytes.extend(value.to_le_bytes());
        for _ in 1..bevy_flock::flock_core::DIMENSIONS {
            bytes.extend(0f32.to_le_bytes());
        }
        let error = PlayMessage::decode(&bytes).expect_err("a non-finite coordinate");
        assert!(matches!(error, WireError::Invalid { .. }), "{error}");
    }
    // Random bytes: refused or decoded, never a panic; what decodes encodes back the same.
    let mut state = 0x1234_5678_u64;
    for length in 0..2_000 {
        let bytes: Vec<u8> = (0..length % 80)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 56) as u8
            })
            .collect();
        if let Ok(message) = PlayMessage::decode(&bytes) {
            assert_eq!(PlayMessage::decode(&message.encode()), Ok(message));
        }
    }
}

fn hello_bytes() -> Vec<u8> {
    PlayMessage::Hello {
        version: PROTOCOL_VERSION,
        fingerprint: 1,
    }
    .encode()
}

#[test]
fn a_peer_of_another_build_or_version_is_refused_at_join_with_both_fingerprints() {
    let mut host = host(3, 1);
    let mut other_build = peer(LockstepConfig {
        build: 99,
        ..config(LockstepRole::Guest)
    });
    connect(&mut host, &mut other_build, 1, Duration::ZERO);
    run(&mut [&mut host, &mut other_build], 10);
    match lockstep(&other_build).state() {
        LockstepState::Ended(LockstepEnd::Refused(why)) => {
            assert!(why.contains("fingerprint"), "{why}");
            assert!(
                why.contains(&format!("{:016x}", lockstep(&host).fingerprint().0)),
                "{why}"
            );
        }
        other => panic!("not refused: {other:?}"),
    }
    let mut old = raw_guest(&mut host, 2);
    old.send_raw(
        PlayMessage::Hello {
            version: PROTOCOL_VERSION + 1,
            fingerprint: lockstep(&host).fingerprint().0,
        }
        .encode(),
    );
    run(&mut [&mut host], 3);
    let refusal = decoded(old.receive_raw());
    assert!(
        matches!(&refusal[..], [PlayMessage::Refused { reason }] if reason.contains("protocol version")),
        "{refusal:?}"
    );
    assert_eq!(lockstep(&host).players(), vec![0], "nobody was seated");
}

#[test]
fn more_players_than_allowed_are_refused_and_the_game_goes_on() {
    let mut host = host(2, 2);
    let mut guest = peer(config(LockstepRole::Guest));
    connect(&mut host, &mut guest, 1, Duration::ZERO);
    run(&mut [&mut host, &mut guest], 20);
    let mut third = peer(config(LockstepRole::Guest));
    connect(&mut host, &mut third, 2, Duration::ZERO);
    run(&mut [&mut host, &mut guest, &mut third], 60);
    match lockstep(&third).state() {
        LockstepState::Ended(LockstepEnd::Refused(why)) => assert!(why.contains("full"), "{why}"),
        other => panic!("not refused: {other:?}"),
    }
    assert!(!ended(&host) && !ended(&guest));
    assert!(lockstep(&guest).checked_through() > 20);
}

/// The honest pair plays on while `cheat` does its worst through a raw link; the cheater is
/// dropped and the pair keeps agreeing.
fn pair_survives(cheat: impl FnOnce(&mut App, &mut LocalLink, u8, u64)) {
    let mut host = host(3, 2);
    let mut guest = peer(config(LockstepRole::Guest));
    connect(&mut host, &mut guest, 1, Duration::ZERO);
    run(&mut [&mut host, &mut guest], 10);
    let mut raw = raw_guest(&mut host, 2);
    let (player, first) = seat_raw(&mut host, &mut guest, &mut raw);
    assert_eq!(lockstep(&host).players(), vec![0, 1, 2]);
    cheat(&mut host, &mut raw, player, first);
    run(&mut [&mut host, &mut guest], 80);
    assert_eq!(
        lockstep(&host).players(),
        vec![0, 1],
        "the cheater was unseated"
    );
    for app in [&host, &guest] {
        assert_eq!(lockstep(app).state(), &LockstepState::Playing);
    }
    let checked = lockstep(&guest).checked_through();
    run(&mut [&mut host, &mut guest], 40);
    assert!(
        lockstep(&guest).checked_through() > checked,
        "the game went on"
    );
    let refused = decoded(raw.receive_raw())
        .into_iter()
        .any(|message| matches!(message, PlayMessage::Refused { .. }));
    assert!(refused, "the cheater was told why");
}

#[test]
fn a_peer_sending_garbage_is_dropped() {
    pair_survives(|host, raw, _, _| {
        raw.send_raw(vec![7, 7, 7]);
        run(&mut [host], 2);
    });
}

#[test]
fn an_oversized_message_is_dropped() {
    pair_survives(|host, raw, _, _| {
        raw.send_raw(vec![0; 100_000]);
        run(&mut [host], 2);
    });
}

#[test]
fn replayed_past_and_rewritten_inputs_are_dropped() {
    pair_survives(|host, raw, player, first| {
        let opening = inputs(player, first, first + 1, vec![]);
        raw.send_raw(opening.clone());
        // The same again: a harmless repeat, dropped.
        raw.send_raw(opening);
        run(&mut [host], 2);
        assert_eq!(
            lockstep(host).players(),
            vec![0, 1, 2],
            "a repeat is no offence"
        );
        // The same ticks with other inputs: rewriting the past.
        let play = Command::Game(Play::Hunt {
            at: Default::default(),
        });
        raw.send_raw(inputs(player, first, first + 1, vec![play]));
        run(&mut [host], 2);
    });
}

#[test]
fn inputs_far_in_the_future_are_dropped() {
    pair_survives(|host, raw, player, first| {
        raw.send_raw(inputs(player, first, first + 10_000, vec![]));
        run(&mut [host], 2);
    });
}

#[test]
fn a_peer_speaking_for_another_player_is_dropped() {
    pair_survives(|host, raw, _, first| {
        raw.send_raw(inputs(1, first, first + 1, vec![]));
        run(&mut [host], 2);
    });
}

#[test]
fn a_peer_that_stalls_is_dropped_after_the_timeout() {
    let mut host = peer(LockstepConfig {
        stall_timeout: Duration::from_millis(300),
        ..config(LockstepRole::Host {
            max_players: 3,
            start_with: 2,
        })
    });
    start_flock(&mut host, 120, 3);
    let mut guest = peer(config(LockstepRole::Guest));
    connect(&mut host, &mut guest, 1, Duration::ZERO);
    run(&mut [&mut host, &mut guest], 10);
    let mut raw = raw_guest(&mut host, 2);
    seat_raw(&mut host, &mut guest, &mut raw);
    // It never sends its inputs: the game waits, then drops it.
    let waited = lockstep(&guest).tick();
    for _ in 0..200 {
        run(&mut [&mut host, &mut guest], 1);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(lockstep(&host).players(), vec![0, 1]);
    assert!(lockstep(&guest).tick() > waited + 20, "the game went on");
    assert!(!ended(&host) && !ended(&guest));
}

#[test]
fn a_peer_that_leaves_is_unseated_and_the_others_play_on() {
    let mut host = host(3, 3);
    let mut stays = peer(config(LockstepRole::Guest));
    let mut leaves = peer(config(LockstepRole::Guest));
    connect(&mut host, &mut stays, 1, Duration::ZERO);
    connect(&mut host, &mut leaves, 2, Duration::ZERO);
    run(&mut [&mut host, &mut stays, &mut leaves], 30);
    assert_eq!(lockstep(&host).players(), vec![0, 1, 2]);
    let tick = lockstep(&stays).tick();
    drop(leaves);
    run(&mut [&mut host, &mut stays], 60);
    assert_eq!(lockstep(&host).players(), vec![0, 1]);
    assert_eq!(lockstep(&stays).players(), vec![0, 1]);
    assert!(lockstep(&stays).checked_through() > tick);
    // The host leaving ends a guest's game with that reason.
    drop(host);
    run(&mut [&mut stays], 3);
    assert!(matches!(
        lockstep(&stays).state(),
        LockstepState::Ended(LockstepEnd::HostLeft { .. })
    ));
}

#[test]
fn invalid_lockstep_settings_are_named() {
    let valid = config(LockstepRole::Host {
        max_players: 4,
        start_with: 2,
    });
    assert_eq!(valid.validate(), Ok(()));
    let cases = [
        (
            LockstepConfig {
                tick_rate: f64::NAN,
                ..valid.clone()
            },
            "tick_rate",
        ),
        (
            LockstepConfig {
                tick_rate: 0.0,
                ..valid.clone()
            },
            "tick_rate",
        ),
        (
            LockstepConfig {
                tick_rate: 1e9,
                ..valid.clone()
            },
            "tick_rate",
        ),
        (
            LockstepConfig {
                max_ticks_per_update: 0,
                ..valid.clone()
            },
            "max_ticks_per_update",
        ),
        (
            LockstepConfig {
                min_delay: 0,
                ..valid.clone()
            },
            "min_delay",
        ),
        (
            LockstepConfig {
                min_delay: 1_000,
                ..valid.clone()
            },
            "min_delay",
        ),
        (
            LockstepConfig {
                stall_timeout: Duration::ZERO,
                ..valid.clone()
            },
            "stall_timeout",
        ),
        (
            LockstepConfig {
                role: LockstepRole::Host {
                    max_players: 40,
                    start_with: 2,
                },
                ..valid.clone()
            },
            "max_players",
        ),
        (
            LockstepConfig {
                role: LockstepRole::Host {
                    max_players: 2,
                    start_with: 3,
                },
                ..valid.clone()
            },
            "start_with",
        ),
    ];
    for (config, field) in cases {
        let error = config.validate().expect_err(field);
        assert!(error.contains(field), "{field}: {error}");
    }
}

#[test]
fn settings_commands_must_be_valid_and_fixed_bounds() {
    let mut settings = FlockSettings::default();
    assert!(FlockCommand::settings(settings.clone()).is_ok());
    settings.config.weights.cohesion = f32::NAN;
    assert!(FlockCommand::settings(settings.clone()).is_err());
    let camera = FlockSettings {
        bounds_source: BoundsSource::FollowCamera,
        ..default()
    };
    let error = FlockCommand::settings(camera).expect_err("a camera's bounds");
    assert!(error.to_string().contains("camera"), "{error}");
}

#[test]
fn a_damaged_snapshot_is_refused_and_changes_nothing() {
    let mut host = host(1, 1);
    run(&mut [&mut host], 20);
    let bytes = FlockSnapshot::save(host.world(), 19).to_bytes();
    let boids = |app: &mut App| {
        let world = app.world_mut();
        world.query_filtered::<(), With<Boid>>().iter(world).count()
    };
    let mut target = peer(config(LockstepRole::Guest));
    bevy_flock::spawn_boids(target.world_mut(), 7, Placement::RandomInBounds);
    for cut in [0, 8, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            FlockSnapshot::from_bytes(&bytes[..cut]).is_err(),
            "cut at {cut}"
        );
    }
    assert!(FlockSnapshot::from_bytes(&[bytes.clone(), vec![1]].concat()).is_err());
    // A count that promises more than the bytes hold is refused before any allocation.
    let mut huge = bytes.clone();
    huge[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(FlockSnapshot::from_bytes(&huge).is_err());
    // A value that does not read back: the whole restore is refused before the world changes.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if let Some(at) = text.find("(x:") {
        let mut broken = bytes.clone();
        broken[at + 1] = b'!';
        if let Ok(snapshot) = FlockSnapshot::from_bytes(&broken) {
            assert!(snapshot.restore(target.world_mut()).is_err());
        }
    }
    assert_eq!(boids(&mut target), 7, "nothing changed");
    let snapshot = FlockSnapshot::from_bytes(&bytes).expect("whole bytes read");
    snapshot.restore(target.world_mut()).expect("it restores");
    assert_eq!(boids(&mut target), boids(&mut host));
}
