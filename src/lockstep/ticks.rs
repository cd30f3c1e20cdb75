//! Running ticks: the pacing, the input delay, the local writes caught, the hashes compared and
//! the stalls noticed.

use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::commands::FlockCommand;
use super::config::Pacing;
use super::host::resync_player;
use super::peer::{Lockstep, LockstepEnd, LockstepState, TickInputs};
use super::plugin::{LockstepTick, disconnected};
use super::session::MAX_DELAY;
use super::wire::{Command, LockstepInput, Message};
use crate::clock::FlockClock;
use crate::settings::FlockSettings;

/// The input delay follows the round trip: the ticks a message takes to reach every peer, and
/// one more (Age of Empires' turn length, in ticks). Pings go out four times a second.
pub(super) fn adapt_delay<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
    let now = Instant::now();
    if lockstep
        .last_ping
        .is_none_or(|last| now - last >= Duration::from_millis(250))
    {
        lockstep.last_ping = Some(now);
        let stamp = lockstep.started.elapsed().as_nanos() as u64;
        let links = lockstep.peer_links();
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
pub(super) fn catch_local_writes<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
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
pub(super) fn run_ticks<I: LockstepInput>(world: &mut World, lockstep: &mut Lockstep<I>) {
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

pub(super) fn run_tick<I: LockstepInput>(
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

/// Compares the hashes in. On a desync, starts finding the first boids that differ with the
/// other peers; then the host sends whoever differs from it the game again (a guest that
/// differs waits for it), or, without `resync`, the game ends.
pub(super) fn check_hashes<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
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
    if lockstep.desync_seen == Some(desync.tick) {
        return;
    }
    lockstep.desync_seen = Some(desync.tick);
    let links = lockstep.peer_links();
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
    if !lockstep.config.resync {
        lockstep.end(LockstepEnd::Desync(desync));
        return;
    }
    // The host's state is the game's: whoever differs from it is sent the game again.
    let host_hash = desync.hashes.iter().find(|(player, _)| *player == 0);
    let differs =
        |player: u8, hash: u64| host_hash.is_some_and(|&(_, host)| host != hash) && player != 0;
    if lockstep.is_host() {
        let culprits: Vec<u8> = (desync.hashes.iter())
            .filter(|&&(player, hash)| differs(player, hash))
            .map(|&(player, _)| player)
            .collect();
        warn!("lockstep: {desync}; sending players {culprits:?} the game again");
        for player in culprits {
            resync_player(lockstep, player);
        }
        return;
    }
    let me = lockstep.session.as_ref().map(|session| session.me());
    let mine = desync.hashes.iter().find(|(player, _)| Some(*player) == me);
    if mine.is_some_and(|&(player, hash)| differs(player, hash)) {
        warn!("lockstep: {desync}; this peer differs from the host: waiting for the game again");
        lockstep.state = LockstepState::Resyncing;
    } else {
        info!("lockstep: {desync}; the host sends the players that differ the game again");
    }
}

/// No tick for the stall timeout: the host unseats the players it waits for; a guest stops.
pub(super) fn check_stall<I: LockstepInput>(lockstep: &mut Lockstep<I>) {
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
