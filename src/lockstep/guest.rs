//! A guest's side: the host's welcome, the snapshot it restores, and the messages relayed to it.

use std::time::Instant;

use bevy::prelude::*;

use super::peer::{Joining, Lockstep, LockstepEnd, LockstepState};
use super::session::{Session, SessionError};
use super::snapshot::{FlockSnapshot, MAX_SNAPSHOT_BYTES, SnapshotError};
use super::wire::{LockstepInput, MAX_MESSAGE_BYTES, Message};
use crate::clock::FlockClock;
use crate::settings::FlockSettings;

pub(super) fn guest_message<I: LockstepInput>(
    world: &mut World,
    lockstep: &mut Lockstep<I>,
    message: Message<I>,
) -> Result<(), String> {
    if lockstep.state == LockstepState::Resyncing
        && matches!(
            message,
            Message::Inputs { .. }
                | Message::Hash { .. }
                | Message::Seat { .. }
                | Message::Unseat { .. }
        )
    {
        // The old game's traffic, until the host's state arrives.
        return Ok(());
    }
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
            let resyncing = lockstep.state == LockstepState::Resyncing;
            if (lockstep.session.is_some() && !resyncing) || lockstep.joining.is_some() {
                return Err("a second welcome".into());
            }
            let most_parts = (MAX_SNAPSHOT_BYTES / MAX_MESSAGE_BYTES + 1) as u32;
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
            if player == session.me() {
                warn!("lockstep: the host takes this peer's seat back to send it the game again");
                lockstep.state = LockstepState::Resyncing;
                return Ok(());
            }
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
pub(super) fn finish_joining<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
    let Some(joining) = lockstep.joining.take() else {
        return;
    };
    let started = Instant::now();
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
    lockstep.boid_hashes = Default::default();
    lockstep.desync_seen = None;
    lockstep.settings_after_tick = world.get_resource::<FlockSettings>().cloned();
    lockstep.clock_after_tick = world.get_resource::<FlockClock>().copied();
    let opening = session.open();
    let me = session.me();
    lockstep.session = Some(session);
    lockstep.state = LockstepState::Playing;
    lockstep.last_progress = Instant::now();
    info!(
        "lockstep: joined as player {me} at tick {} ({} bytes of snapshot, restored in {:.1} ms)",
        joining.tick,
        lockstep.snapshot_bytes,
        started.elapsed().as_secs_f64() * 1e3
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
