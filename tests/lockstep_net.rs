//! The lockstep example's protocol and state machine against bad input (malformed, oversized,
//! garbage, stale, duplicated, reordered), and a pair of peers over real loopback sockets
//! through renet: hashes that agree tick after tick, and a desync caught at its tick.

#[path = "../examples/support/hunt.rs"]
mod hunt;
#[path = "../examples/lockstep/net.rs"]
mod net;
#[path = "../examples/lockstep/peer.rs"]
mod peer;
#[path = "../examples/lockstep/protocol.rs"]
mod protocol;

use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use net::{Outcome, Peer, PeerOptions, Role, add_peer};
use peer::{INPUT_DELAY, Lockstep, Player, ProtocolError, Received};
use protocol::{DecodeError, Game, Input, MAX_MESSAGE_BYTES, Message, PROTOCOL_VERSION, Rule};

fn inputs(tick: u64, inputs: Vec<Input>) -> Message {
    Message::Inputs { tick, inputs }
}

const CLICK: Input = Input::Spawn {
    x: 10.0,
    y: -20.0,
    count: 4,
};

#[test]
fn every_message_survives_its_encoding() {
    let messages = [
        Message::Welcome {
            version: PROTOCOL_VERSION,
            game: Game {
                seed: 7,
                boids: 5000,
                ticks: 600,
            },
        },
        inputs(
            9,
            vec![
                CLICK,
                Input::MovePredator { x: -1.5, y: 3.25 },
                Input::SetWeight {
                    rule: Rule::Cohesion,
                    value: 2.0,
                },
            ],
        ),
        inputs(4, Vec::new()),
        Message::Hash {
            tick: 3,
            hash: 0xdead_beef_0123_4567,
        },
        Message::Done,
    ];
    for message in messages {
        assert_eq!(Message::decode(&message.encode()), Ok(message));
    }
}

#[test]
fn malformed_messages_are_refused_with_the_reason() {
    let good = inputs(9, vec![CLICK]).encode();
    assert_eq!(Message::decode(&[]), Err(DecodeError::Empty));
    assert_eq!(
        Message::decode(&[99]),
        Err(DecodeError::UnknownMessage { tag: 99 })
    );
    // Cut short anywhere.
    for end in 1..good.len() {
        assert!(
            matches!(
                Message::decode(&good[..end]),
                Err(DecodeError::Truncated { .. })
            ),
            "cut at {end}"
        );
    }
    // A byte too many.
    let mut long = good.clone();
    long.push(0);
    assert_eq!(
        Message::decode(&long),
        Err(DecodeError::TrailingBytes { left: 1 })
    );
    // An input count above the limit, an unknown input, an unknown rule.
    let mut many = good.clone();
    many[9] = 200;
    assert_eq!(
        Message::decode(&many),
        Err(DecodeError::TooManyInputs { count: 200 })
    );
    let mut unknown = good.clone();
    unknown[10] = 77;
    assert_eq!(
        Message::decode(&unknown),
        Err(DecodeError::UnknownInput { tag: 77 })
    );
    let weight = inputs(
        9,
        vec![Input::SetWeight {
            rule: Rule::Alignment,
            value: 1.0,
        }],
    );
    let mut bad_rule = weight.encode();
    bad_rule[11] = 3;
    assert_eq!(
        Message::decode(&bad_rule),
        Err(DecodeError::UnknownRule { tag: 3 })
    );
}

#[test]
fn inputs_out_of_range_are_refused() {
    let refused = [
        Input::Spawn {
            x: f32::NAN,
            y: 0.0,
            count: 1,
        },
        Input::Spawn {
            x: 0.0,
            y: f32::INFINITY,
            count: 1,
        },
        Input::Spawn {
            x: 1e9,
            y: 0.0,
            count: 1,
        },
        Input::Spawn {
            x: 0.0,
            y: 0.0,
            count: 0,
        },
        Input::Spawn {
            x: 0.0,
            y: 0.0,
            count: 255,
        },
        Input::MovePredator {
            x: f32::NEG_INFINITY,
            y: 0.0,
        },
        Input::SetWeight {
            rule: Rule::Separation,
            value: -1.0,
        },
        Input::SetWeight {
            rule: Rule::Separation,
            value: f32::NAN,
        },
        Input::SetWeight {
            rule: Rule::Separation,
            value: 1e6,
        },
    ];
    for input in refused {
        // What a forging peer would send: the bytes of an input no honest peer makes.
        let bytes = inputs(9, vec![input]).encode();
        assert!(input.validate().is_err(), "{input:?}");
        assert!(
            matches!(
                Message::decode(&bytes),
                Err(DecodeError::OutOfRange { .. } | DecodeError::SpawnCount { .. })
            ),
            "{input:?} was accepted"
        );
    }
    let huge_game = Message::Welcome {
        version: PROTOCOL_VERSION,
        game: Game {
            seed: 0,
            boids: u32::MAX,
            ticks: 0,
        },
    };
    assert_eq!(
        Message::decode(&huge_game.encode()),
        Err(DecodeError::TooManyBoids { boids: u32::MAX })
    );
}

#[test]
fn an_oversized_message_is_refused_before_it_is_read() {
    let oversized = vec![2u8; MAX_MESSAGE_BYTES + 1];
    assert_eq!(
        Message::decode(&oversized),
        Err(DecodeError::TooLong {
            bytes: MAX_MESSAGE_BYTES + 1
        })
    );
    // The largest message an honest peer sends fits.
    let full = inputs(9, vec![CLICK; protocol::MAX_INPUTS_PER_TICK]).encode();
    assert!(full.len() <= MAX_MESSAGE_BYTES);
    assert!(Message::decode(&full).is_ok());
}

#[test]
fn garbage_never_panics_and_what_decodes_is_valid() {
    // SplitMix64: a reproducible stream of garbage of every length up to the limit and beyond.
    let mut state = 0x1234_5678_u64;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = state;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    };
    let mut decoded = 0;
    for round in 0..20_000 {
        let length = (next() % (MAX_MESSAGE_BYTES as u64 + 40)) as usize;
        let mut bytes: Vec<u8> = (0..length).map(|_| next() as u8).collect();
        // Half start with a real tag, so the decoder goes past the first byte.
        if round % 2 == 0 && !bytes.is_empty() {
            bytes[0] = (round / 2 % 4 + 1) as u8;
        }
        if let Ok(message) = Message::decode(&bytes) {
            decoded += 1;
            if let Message::Inputs { inputs, .. } = &message {
                assert!(inputs.iter().all(|input| input.validate().is_ok()));
            }
            assert_eq!(message.encode(), bytes, "decoding is exact");
        }
    }
    // Some garbage is a well-formed hash or done message; most is refused.
    assert!(decoded < 20_000);
}

/// A host that has run `ticks` ticks with the guest's (empty) inputs.
fn host_after(ticks: u64) -> Lockstep {
    let mut host = Lockstep::new(Player::Host);
    for tick in 1..=ticks {
        if tick > INPUT_DELAY {
            let message = inputs(tick, Vec::new());
            assert_eq!(host.receive(message), Ok(Received::Accepted));
        }
        let (ready, _) = host.ready_tick().expect("both players' inputs are here");
        assert_eq!(ready, tick);
        host.finish_tick(tick);
    }
    host
}

#[test]
fn an_input_for_a_tick_already_past_is_an_error_unless_it_is_a_duplicate() {
    let mut host = host_after(10);
    // The guest's inputs for tick 8 were empty: a click for it now would rewrite the past.
    assert_eq!(
        host.receive(inputs(8, vec![CLICK])),
        Err(ProtocolError::StaleInputs { tick: 8, now: 11 })
    );
    // The same (empty) inputs again: a duplicate, dropped.
    assert_eq!(host.receive(inputs(8, Vec::new())), Ok(Received::Duplicate));
    // The first ticks take no input at all.
    assert_eq!(
        host.receive(inputs(INPUT_DELAY, Vec::new())),
        Err(ProtocolError::InputsOutOfWindow {
            tick: INPUT_DELAY,
            now: 11
        })
    );
}

#[test]
fn duplicated_messages_are_dropped_and_conflicting_ones_refused() {
    let mut host = host_after(5);
    let click = inputs(7, vec![CLICK]);
    assert_eq!(host.receive(click.clone()), Ok(Received::Accepted));
    assert_eq!(host.receive(click), Ok(Received::Duplicate));
    assert_eq!(
        host.receive(inputs(7, Vec::new())),
        Err(ProtocolError::ConflictingInputs { tick: 7 })
    );
    let hash = Message::Hash { tick: 5, hash: 5 };
    assert_eq!(host.receive(hash.clone()), Ok(Received::Accepted));
    assert_eq!(host.receive(hash), Ok(Received::Duplicate));
    assert_eq!(
        host.receive(Message::Hash { tick: 5, hash: 6 }),
        Err(ProtocolError::ConflictingHash { tick: 5 })
    );
}

#[test]
fn reordered_inputs_wait_for_their_tick_and_far_ones_are_refused() {
    let mut host = host_after(4);
    // Tick 7's inputs before tick 5's and 6's.
    assert_eq!(host.receive(inputs(7, vec![CLICK])), Ok(Received::Accepted));
    assert_eq!(host.ready_tick(), None, "tick 5 waits for the guest");
    assert_eq!(host.receive(inputs(6, Vec::new())), Ok(Received::Accepted));
    assert_eq!(host.receive(inputs(5, Vec::new())), Ok(Received::Accepted));
    for tick in 5..=7 {
        let (ready, _) = host.ready_tick().expect("inputs are here");
        assert_eq!(ready, tick);
        host.finish_tick(tick);
    }
    // Tick 7 had the host's own (none) and the guest's click, in the host-then-guest order.
    // Beyond what the guest can have reached: refused.
    let now = host.next_tick();
    let too_far = now + 2 * INPUT_DELAY;
    assert_eq!(
        host.receive(inputs(too_far, Vec::new())),
        Err(ProtocolError::InputsOutOfWindow { tick: too_far, now })
    );
    assert!(matches!(
        host.receive(Message::Hash {
            tick: now + INPUT_DELAY,
            hash: 1
        }),
        Err(ProtocolError::HashOutOfWindow { .. })
    ));
    assert!(matches!(
        host.receive(Message::Welcome {
            version: PROTOCOL_VERSION,
            game: Game {
                seed: 0,
                boids: 1,
                ticks: 0
            }
        }),
        Err(ProtocolError::Unexpected { .. })
    ));
}

#[test]
fn inputs_apply_in_host_then_guest_order_at_their_tick() {
    let mut guest = Lockstep::new(Player::Guest);
    let guest_click = Input::MovePredator { x: 1.0, y: 2.0 };
    guest.queue(guest_click);
    let [sent, _] = guest.ready_tick().map(|_| guest.finish_tick(1)).unwrap();
    assert_eq!(sent, inputs(1 + INPUT_DELAY, vec![guest_click]));
    for tick in 2..=INPUT_DELAY {
        guest.ready_tick().expect("the first ticks need no inputs");
        guest.finish_tick(tick);
    }
    assert_eq!(
        guest.ready_tick(),
        None,
        "a peer waits for the other's inputs"
    );
    guest.receive(inputs(1 + INPUT_DELAY, vec![CLICK])).unwrap();
    let (tick, applied) = guest.ready_tick().unwrap();
    assert_eq!(tick, 1 + INPUT_DELAY);
    assert_eq!(
        applied,
        vec![(Player::Host, CLICK), (Player::Guest, guest_click)]
    );
}

#[test]
fn the_first_differing_hash_is_the_desync() {
    let mut host = host_after(6);
    for tick in 1..=3 {
        host.receive(Message::Hash { tick, hash: tick }).unwrap();
    }
    host.receive(Message::Hash { tick: 4, hash: 99 }).unwrap();
    host.receive(Message::Hash { tick: 5, hash: 98 }).unwrap();
    let desync = host.check().unwrap_err();
    assert_eq!((desync.tick, desync.local, desync.remote), (4, 4, 99));
    assert_eq!(host.checked_through(), 3);
}

/// A peer in an app of its own, without a window or a runner: the test updates it.
fn peer_app(role: Role, game: Game, desync_at: Option<u64>, socket: UdpSocket) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    let options = PeerOptions {
        role,
        game,
        random_inputs: true,
        desync_at,
        ticks_per_update: 8,
        report_every: 0,
    };
    add_peer(&mut app, options, socket).expect("a loopback socket");
    app.finish();
    app.cleanup();
    app
}

/// Host and guest over loopback, updated in turn until both have ended (or a minute passed).
fn play_pair(game: Game, guest_desync_at: Option<u64>) -> [(Option<Outcome>, u64); 2] {
    let host_socket = UdpSocket::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    let host_address = host_socket.local_addr().unwrap();
    let guest_socket = UdpSocket::bind(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    let mut host = peer_app(Role::Host, game, None, host_socket);
    let mut guest = peer_app(
        Role::Guest { host: host_address },
        game,
        guest_desync_at,
        guest_socket,
    );
    let started = Instant::now();
    let outcome = |app: &App| app.world().resource::<Peer>().outcome.clone();
    while (outcome(&host).is_none() || outcome(&guest).is_none())
        && started.elapsed() < Duration::from_secs(60)
    {
        host.update();
        guest.update();
    }
    [&host, &guest].map(|app| (outcome(app), app.world().resource::<Peer>().last_hash))
}

#[test]
fn a_pair_over_loopback_agrees_on_every_tick_with_random_inputs() {
    let game = Game {
        seed: 5,
        boids: 300,
        ticks: 300,
    };
    let [(host, host_hash), (guest, guest_hash)] = play_pair(game, None);
    assert_eq!(host, Some(Outcome::Finished));
    assert_eq!(guest, Some(Outcome::Finished));
    assert_eq!(host_hash, guest_hash);
    assert_ne!(host_hash, 0, "the flock is there");
}

#[test]
fn a_nudged_boid_is_caught_at_its_tick_on_both_peers() {
    let game = Game {
        seed: 5,
        boids: 300,
        ticks: 300,
    };
    let [(host, _), (guest, _)] = play_pair(game, Some(120));
    for outcome in [host, guest] {
        let Some(Outcome::Desync(desync)) = outcome else {
            panic!("no desync: {outcome:?}");
        };
        assert_eq!(desync.tick, 120);
        assert_ne!(desync.local, desync.remote);
    }
}
