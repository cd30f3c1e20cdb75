//! [`LockstepPlugin`]: the flock played in lockstep by up to [`MAX_PLAYERS`](super::MAX_PLAYERS) peers over any
//! transport. The host seats players (refusing other builds), relays each player's messages to
//! the others and sends a joining player the simulation; every peer runs a tick only with every
//! seated player's inputs for it, and compares every player's hash after it.

use std::marker::PhantomData;
use std::time::Duration;

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use super::config::{Fingerprint, LockstepConfig};
use super::desync::DigestReply;
use super::guest::guest_message;
use super::host::{host_message, send_snapshots, start_when_seated};
use super::network::{LinkEvent, LinkId, LocalLinks, LockstepNetwork, receive_local, send_local};
use super::peer::{Lockstep, LockstepEnd, LockstepState, TickInputs};
use super::snapshot::LockstepRegistry;
use super::ticks::{adapt_delay, catch_local_writes, check_hashes, check_stall, run_ticks};
use super::wire::{LockstepInput, Message, PROTOCOL_VERSION};

/// The schedule the flock's systems run in under lockstep: one run per agreed tick, on a clock
/// that advances one fixed step per run. Give it to [`BoidsPlugin::new`](crate::BoidsPlugin::new),
/// and put the game's systems that read [`TickInputs`] in it too.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct LockstepTick;

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
pub(super) fn protocol_error<I: LockstepInput>(
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
pub(super) fn disconnected<I: LockstepInput>(lockstep: &mut Lockstep<I>, link: LinkId) {
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
