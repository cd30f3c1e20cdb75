//! The lockstep state machine of one peer in a game of two, without any networking or Bevy:
//! what it may run, what it sends, what it accepts.
//!
//! A player's inputs are scheduled [`INPUT_DELAY`] ticks ahead: when a peer runs tick `t` it
//! sends the inputs it gathered for tick `t + INPUT_DELAY` (possibly none), and it runs tick `t`
//! only once it holds both players' inputs for it (the first `INPUT_DELAY` ticks have none).
//! So a peer is never more than `INPUT_DELAY` ticks ahead of the other: one that falls behind
//! makes the other wait. Both apply a tick's inputs in one order (the host's, then the
//! guest's, each in the order they were made). After each tick both send their flock's hash;
//! the hashes are compared tick by tick, and the first that differ is a desync.

use std::collections::BTreeMap;
use std::fmt;

use super::protocol::{Input, MAX_INPUTS_PER_TICK, Message};

/// Ticks between a player's input and the tick it is applied at: time for it to reach the
/// other peer, so neither waits while the network keeps up.
pub const INPUT_DELAY: u64 = 3;

/// Ticks of past inputs and hashes remembered, to tell a duplicate from a forgery.
const HISTORY: u64 = 64;

/// The host (0) or the peer that joined it (1): the order their inputs are applied in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    Host,
    Guest,
}

impl Player {
    /// 0 for the host, 1 for the guest.
    pub fn index(self) -> usize {
        match self {
            Self::Host => 0,
            Self::Guest => 1,
        }
    }

    /// The other player.
    pub fn other(self) -> Self {
        match self {
            Self::Host => Self::Guest,
            Self::Guest => Self::Host,
        }
    }
}

/// A message from the other peer that breaks the protocol: the game cannot go on in step.
#[derive(Debug, Clone, PartialEq)]
pub enum ProtocolError {
    /// Inputs for a tick that has run, unlike the ones that were applied (or too old to know).
    StaleInputs { tick: u64, now: u64 },
    /// Inputs for a tick the other peer cannot have reached, or one that has no inputs.
    InputsOutOfWindow { tick: u64, now: u64 },
    /// Two different sets of inputs for one tick.
    ConflictingInputs { tick: u64 },
    /// A hash for a tick the other peer cannot have run, or one already forgotten.
    HashOutOfWindow { tick: u64, now: u64 },
    /// Two different hashes for one tick.
    ConflictingHash { tick: u64 },
    /// A message that only starts a game, in the middle of one.
    Unexpected { what: &'static str },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::StaleInputs { tick, now } => write!(
                f,
                "inputs for tick {tick} arrived after it ran (next tick {now}), unlike the ones applied"
            ),
            Self::InputsOutOfWindow { tick, now } => write!(
                f,
                "inputs for tick {tick}, which no input may be scheduled for (next tick {now})"
            ),
            Self::ConflictingInputs { tick } => write!(f, "two different inputs for tick {tick}"),
            Self::HashOutOfWindow { tick, now } => {
                write!(f, "a hash for tick {tick} out of place (next tick {now})")
            }
            Self::ConflictingHash { tick } => write!(f, "two different hashes for tick {tick}"),
            Self::Unexpected { what } => write!(f, "an unexpected {what} message"),
        }
    }
}

impl std::error::Error for ProtocolError {}

/// What became of a message that broke no rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// Taken in.
    Accepted,
    /// The same as one already taken in: dropped.
    Duplicate,
    /// The other peer finished the game.
    Done,
}

/// Two hashes of one tick that differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Desync {
    pub tick: u64,
    pub local: u64,
    pub remote: u64,
}

impl fmt::Display for Desync {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "desync at tick {}: this peer's flock hashes to {:016x}, the other's to {:016x}",
            self.tick, self.local, self.remote
        )
    }
}

/// One peer's side of the game.
#[derive(Debug)]
pub struct Lockstep {
    me: Player,
    /// The tick to run next (the first is 1).
    next_tick: u64,
    /// Inputs made here and not sent yet.
    pending: Vec<Input>,
    /// Each player's inputs by tick: to come, and the last `HISTORY` applied.
    inputs: [BTreeMap<u64, Vec<Input>>; 2],
    /// Each player's hash by tick, until compared (and `HISTORY` ticks after).
    hashes: [BTreeMap<u64, u64>; 2],
    /// Every tick up to this one has equal hashes on both peers.
    checked_through: u64,
    other_done: bool,
}

impl Lockstep {
    pub fn new(me: Player) -> Self {
        Self {
            me,
            next_tick: 1,
            pending: Vec::new(),
            inputs: Default::default(),
            hashes: Default::default(),
            checked_through: 0,
            other_done: false,
        }
    }

    pub fn me(&self) -> Player {
        self.me
    }

    /// The tick to run next.
    pub fn next_tick(&self) -> u64 {
        self.next_tick
    }

    /// Every tick up to this one had equal hashes on both peers.
    pub fn checked_through(&self) -> u64 {
        self.checked_through
    }

    /// Whether the other peer said it finished the game.
    pub fn other_done(&self) -> bool {
        self.other_done
    }

    /// An input made on this peer, sent with the next tick's message.
    pub fn queue(&mut self, input: Input) {
        self.pending.push(input);
    }

    /// Takes in a message from the other peer.
    pub fn receive(&mut self, message: Message) -> Result<Received, ProtocolError> {
        let other = self.me.other().index();
        match message {
            Message::Inputs { tick, inputs } => {
                let now = self.next_tick;
                // The other peer runs at most `INPUT_DELAY` ticks past our last tick and
                // schedules `INPUT_DELAY` past its own; the first ticks take no input.
                if tick <= INPUT_DELAY || tick > now - 1 + 2 * INPUT_DELAY {
                    return Err(ProtocolError::InputsOutOfWindow { tick, now });
                }
                match self.inputs[other].get(&tick) {
                    Some(known) if *known == inputs => Ok(Received::Duplicate),
                    Some(_) if tick < now => Err(ProtocolError::StaleInputs { tick, now }),
                    Some(_) => Err(ProtocolError::ConflictingInputs { tick }),
                    None if tick < now => Err(ProtocolError::StaleInputs { tick, now }),
                    None => {
                        self.inputs[other].insert(tick, inputs);
                        Ok(Received::Accepted)
                    }
                }
            }
            Message::Hash { tick, hash } => {
                let now = self.next_tick;
                let oldest_known = self.checked_through.saturating_sub(HISTORY);
                if tick == 0 || tick <= oldest_known || tick > now - 1 + INPUT_DELAY {
                    return Err(ProtocolError::HashOutOfWindow { tick, now });
                }
                match self.hashes[other].get(&tick) {
                    Some(known) if *known == hash => Ok(Received::Duplicate),
                    Some(_) => Err(ProtocolError::ConflictingHash { tick }),
                    None if tick <= self.checked_through => {
                        Err(ProtocolError::HashOutOfWindow { tick, now })
                    }
                    None => {
                        self.hashes[other].insert(tick, hash);
                        Ok(Received::Accepted)
                    }
                }
            }
            Message::Done => {
                self.other_done = true;
                Ok(Received::Done)
            }
            Message::Welcome { .. } => Err(ProtocolError::Unexpected { what: "welcome" }),
        }
    }

    /// The next tick and its inputs, each with its player, in the order to apply them, if both
    /// players' are here.
    pub fn ready_tick(&self) -> Option<(u64, Vec<(Player, Input)>)> {
        let tick = self.next_tick;
        if tick <= INPUT_DELAY {
            return Some((tick, Vec::new()));
        }
        let host = self.inputs[Player::Host.index()].get(&tick)?;
        let guest = self.inputs[Player::Guest.index()].get(&tick)?;
        let host = host.iter().map(|&input| (Player::Host, input));
        let guest = guest.iter().map(|&input| (Player::Guest, input));
        Some((tick, host.chain(guest).collect()))
    }

    /// Records that the tick from [`ready_tick`](Self::ready_tick) ran and left the flock
    /// hashing to `hash`; the messages to send the other peer.
    pub fn finish_tick(&mut self, hash: u64) -> [Message; 2] {
        let tick = self.next_tick;
        self.next_tick += 1;
        self.hashes[self.me.index()].insert(tick, hash);
        let count = self.pending.len().min(MAX_INPUTS_PER_TICK);
        let mine: Vec<Input> = self.pending.drain(..count).collect();
        self.inputs[self.me.index()].insert(tick + INPUT_DELAY, mine.clone());
        let forget_before = tick.saturating_sub(HISTORY);
        for book in &mut self.inputs {
            book.retain(|&t, _| t >= forget_before);
        }
        [
            Message::Inputs {
                tick: tick + INPUT_DELAY,
                inputs: mine,
            },
            Message::Hash { tick, hash },
        ]
    }

    /// Compares the hashes both peers have sent, in tick order, as far as both have; the first
    /// pair that differ is a desync.
    pub fn check(&mut self) -> Result<(), Desync> {
        let [host, guest] = &self.hashes;
        loop {
            let tick = self.checked_through + 1;
            let (Some(&a), Some(&b)) = (host.get(&tick), guest.get(&tick)) else {
                break;
            };
            if a != b {
                let (local, remote) = match self.me {
                    Player::Host => (a, b),
                    Player::Guest => (b, a),
                };
                return Err(Desync {
                    tick,
                    local,
                    remote,
                });
            }
            self.checked_through = tick;
        }
        let forget_before = self.checked_through.saturating_sub(HISTORY);
        for book in &mut self.hashes {
            book.retain(|&t, _| t > forget_before);
        }
        Ok(())
    }
}
