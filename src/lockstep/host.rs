//! The host's side: seating players, relaying each one's messages to the others, starting the
//! game, and sending a joining player the simulation.

use std::time::Instant;

use bevy::prelude::*;

use super::config::LockstepRole;
use super::network::LinkId;
use super::peer::{Guest, Lockstep, LockstepState};
use super::session::{Seat, Taken};
use super::snapshot::FlockSnapshot;
use super::wire::{
    Command, LockstepInput, MAX_MESSAGE_BYTES, MAX_PLAYERS, Message, PROTOCOL_VERSION,
};
use crate::clock::FlockClock;
use crate::settings::FlockSettings;

pub(super) fn host_message<I: LockstepInput>(
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
            if !guest.live {
                // Sent before it was told to take the game again: no longer its say.
                return Ok(());
            }
            let session = lockstep.session.as_mut().ok_or("inputs before the game")?;
            let taken = session
                .receive_inputs(player, first, last, commands.clone())
                .map_err(|error| error.to_string())?;
            if taken == Taken::Accepted {
                relay_inputs(lockstep, guest.link, player, first, last, commands);
            }
            Ok(())
        }
        Message::Hash { player, tick, hash } => {
            let guest = claimed_player(lockstep, link, player)?;
            if !guest.live {
                return Ok(());
            }
            let session = lockstep.session.as_mut().ok_or("a hash before the game")?;
            let taken = session
                .receive_hash(player, tick, hash)
                .map_err(|error| error.to_string())?;
            if taken == Taken::Accepted {
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
pub(super) fn claimed_player<I: LockstepInput>(
    lockstep: &Lockstep<I>,
    link: LinkId,
    player: u8,
) -> Result<Guest, String> {
    let guest = lockstep
        .guests
        .get(&link)
        .ok_or("a game message before its hello")?;
    // A guest waiting for its snapshot (joining, or sent the game again after a desync) may
    // still have its old messages in flight: the caller drops them.
    if guest.live && guest.player != player {
        return Err(format!("player {} spoke for player {player}", guest.player));
    }
    Ok(guest.clone())
}

/// Sends `player`'s inputs to every other guest that plays any of their ticks.
pub(super) fn relay_inputs<I: LockstepInput>(
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
pub(super) fn seat_guest<I: LockstepInput>(
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
    if matches!(
        lockstep.state,
        LockstepState::Ended(_) | LockstepState::Finished
    ) {
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

/// The host starts once enough players are seated: it opens its own schedule.
pub(super) fn start_when_seated<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
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
pub(super) fn send_snapshots<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
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
    let seated: Vec<(u8, Seat)> = (0..MAX_PLAYERS as u8)
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

/// After a desync, sends `player` the game again: it is unseated from its first unscheduled
/// tick and seated under a new index from the first tick nobody can have run, then sent the
/// snapshot as a joining player is.
pub(super) fn resync_player<I: LockstepInput>(lockstep: &mut Lockstep<I>, player: u8) {
    let Some(link) = (lockstep.guests.values())
        .find(|guest| guest.player == player)
        .map(|guest| guest.link)
    else {
        return;
    };
    let Some(session) = &mut lockstep.session else {
        return;
    };
    let Some(seat) = session.seat(player) else {
        return;
    };
    let until = seat.scheduled_through + 1;
    if session.remove_seat(player, until).is_err() {
        return;
    }
    lockstep.broadcast(
        &Message::Unseat {
            player,
            tick: until,
        },
        None,
    );
    let session = lockstep.session.as_mut().expect("checked above");
    let (Some(again), from) = (session.free_player(), session.first_free_tick()) else {
        warn!(
            "lockstep: no player index left to send player {player} the game again; it is dropped"
        );
        lockstep.guests.remove(&link);
        return;
    };
    if session.add_seat(again, from).is_err() {
        return;
    }
    info!(
        "lockstep: player {player} plays on as player {again} from tick {from}, from the host's state"
    );
    lockstep.broadcast(
        &Message::Seat {
            player: again,
            tick: from,
        },
        Some(link),
    );
    lockstep.guests.insert(
        link,
        Guest {
            link,
            player: again,
            from,
            live: false,
        },
    );
}
