//! One peer's lockstep bookkeeping, without Bevy or a network: which ticks it may run, which
//! inputs each seated player sent for each tick, and whether every player's hashes agree.
//!
//! A player schedules its commands `delay` ticks ahead of the tick it runs, so that they reach
//! every peer before anyone needs them: after running tick `t` it sends its commands for tick
//! `t + delay` (and says the ticks it skipped over have none). A peer runs tick `t` only once it
//! holds every seated player's inputs for `t`, so no peer runs ahead of what the slowest player
//! has scheduled. The delay may change during the game (it follows the measured round trip):
//! a longer one sends empty ticks to close the gap; a shorter one sends nothing until the
//! player's own runs catch up with what it has scheduled, so each player's ticks are scheduled
//! once, in order.

use std::collections::BTreeMap;
use std::fmt;

use super::wire::{MAX_COMMANDS_PER_TICK, MAX_PLAYERS};

/// The longest input delay, ticks: half a second at 60 ticks a second.
pub const MAX_DELAY: u64 = 30;

/// How far past its last scheduled tick a player may schedule in one message: more is a peer
/// that lies or has broken.
const MAX_SCHEDULE_JUMP: u64 = 2 * MAX_DELAY + 2;

/// Ticks of hashes kept after they were compared, for late messages to be told apart from
/// forgeries.
const HASH_HISTORY: u64 = 64;

/// A player's place in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seat {
    /// The first tick its inputs are needed for.
    pub from: u64,
    /// The first tick they are no longer needed for, once it has left.
    pub until: Option<u64>,
    /// The last tick its inputs cover so far.
    pub scheduled_through: u64,
}

impl Seat {
    /// Whether the player's inputs are needed for `tick`.
    pub fn plays(&self, tick: u64) -> bool {
        tick >= self.from && self.until.is_none_or(|until| tick < until)
    }
}

/// A message that breaks the lockstep rules: the game cannot go on in step with its sender.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionError {
    /// Inputs or a hash of a player that has no seat.
    NoSeat { player: u8 },
    /// Inputs that do not start right after the player's last scheduled tick.
    OutOfOrder {
        player: u8,
        first: u64,
        expected: u64,
    },
    /// Inputs for ticks too far ahead for any delay.
    TooFarAhead { player: u8, last: u64, now: u64 },
    /// A hash for a tick the player cannot have run, or one already compared.
    HashOutOfPlace { player: u8, tick: u64 },
    /// Two different hashes from one player for one tick.
    ConflictingHash { player: u8, tick: u64 },
    /// A seat for a player that has one, or for a tick already run.
    BadSeat { player: u8, tick: u64 },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::NoSeat { player } => write!(f, "a message for player {player}, who has no seat"),
            Self::OutOfOrder {
                player,
                first,
                expected,
            } => write!(
                f,
                "player {player}'s inputs from tick {first}, where tick {expected} was next \
                 (replayed, lost or forged)"
            ),
            Self::TooFarAhead { player, last, now } => write!(
                f,
                "player {player}'s inputs for tick {last}, too far ahead of tick {now}"
            ),
            Self::HashOutOfPlace { player, tick } => {
                write!(f, "player {player}'s hash for tick {tick} out of place")
            }
            Self::ConflictingHash { player, tick } => {
                write!(
                    f,
                    "two different hashes from player {player} for tick {tick}"
                )
            }
            Self::BadSeat { player, tick } => {
                write!(
                    f,
                    "a seat for player {player} from tick {tick} that cannot be"
                )
            }
        }
    }
}

impl std::error::Error for SessionError {}

/// The hashes of one tick that differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Desync {
    /// The first tick whose hashes differ.
    pub tick: u64,
    /// Each seated player's hash of it.
    pub hashes: Vec<(u8, u64)>,
}

impl fmt::Display for Desync {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "desync at tick {}: ", self.tick)?;
        for (index, (player, hash)) in self.hashes.iter().enumerate() {
            let separator = if index == 0 { "" } else { ", " };
            write!(f, "{separator}player {player} {hash:016x}")?;
        }
        Ok(())
    }
}

/// Inputs that arrived, as the session took them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// New: kept.
    Accepted,
    /// Already held (a repeated message): dropped.
    Duplicate,
}

/// One peer's side of the game (see the module's documentation). `C` is one command.
#[derive(Debug, Clone)]
pub struct Session<C> {
    me: u8,
    next_tick: u64,
    delay: u64,
    seats: [Option<Seat>; MAX_PLAYERS],
    /// Each tick's commands, by player: a player's entry exists once its inputs for the tick
    /// are in (empty when it had none).
    inputs: BTreeMap<u64, [Option<Vec<C>>; MAX_PLAYERS]>,
    hashes: BTreeMap<u64, [Option<u64>; MAX_PLAYERS]>,
    checked_through: u64,
    pending: Vec<C>,
}

impl<C: Clone + PartialEq> Session<C> {
    /// A session for player `me`, whose first tick to run is `tick`, with `seats` (each player
    /// and the tick it plays from; `me` among them) and an input delay of `delay` ticks.
    pub fn new(me: u8, tick: u64, seats: &[(u8, u64)], delay: u64) -> Self {
        let mut session = Self {
            me,
            next_tick: tick.max(1),
            delay: delay.clamp(1, MAX_DELAY),
            seats: [None; MAX_PLAYERS],
            inputs: BTreeMap::new(),
            hashes: BTreeMap::new(),
            checked_through: tick.max(1) - 1,
            pending: Vec::new(),
        };
        for &(player, from) in seats {
            if let Some(seat) = session.seats.get_mut(player as usize) {
                *seat = Some(Seat {
                    from,
                    until: None,
                    scheduled_through: from.max(tick) - 1,
                });
            }
        }
        session
    }

    /// This peer's player.
    pub fn me(&self) -> u8 {
        self.me
    }

    /// The tick to run next.
    pub fn next_tick(&self) -> u64 {
        self.next_tick
    }

    /// Every tick up to this one had the same hash on every seated player.
    pub fn checked_through(&self) -> u64 {
        self.checked_through
    }

    /// The input delay, ticks.
    pub fn delay(&self) -> u64 {
        self.delay
    }

    /// Sets the input delay (1 to [`MAX_DELAY`] ticks); it takes effect as the module says.
    pub fn set_delay(&mut self, delay: u64) {
        self.delay = delay.clamp(1, MAX_DELAY);
    }

    /// `player`'s seat, if it has one.
    pub fn seat(&self, player: u8) -> Option<Seat> {
        self.seats.get(player as usize).copied().flatten()
    }

    /// The players seated for `tick`.
    pub fn players_at(&self, tick: u64) -> impl Iterator<Item = u8> + '_ {
        (0..MAX_PLAYERS as u8)
            .filter(move |&player| self.seat(player).is_some_and(|s| s.plays(tick)))
    }

    /// The first player index without a seat.
    pub fn free_player(&self) -> Option<u8> {
        (0..MAX_PLAYERS as u8).find(|&player| self.seat(player).is_none())
    }

    /// Seats `player` from `tick` on (a tick no peer can have run: after every scheduled one).
    pub fn add_seat(&mut self, player: u8, tick: u64) -> Result<(), SessionError> {
        let bad = SessionError::BadSeat { player, tick };
        let Some(slot) = self.seats.get_mut(player as usize) else {
            return Err(bad);
        };
        if slot.is_some() || tick < self.next_tick {
            return Err(bad);
        }
        *slot = Some(Seat {
            from: tick,
            until: None,
            scheduled_through: tick - 1,
        });
        Ok(())
    }

    /// `player` leaves: its inputs are needed before `tick` only (from its last scheduled
    /// tick on, none are coming).
    pub fn remove_seat(&mut self, player: u8, tick: u64) -> Result<(), SessionError> {
        let Some(Some(seat)) = self.seats.get_mut(player as usize) else {
            return Err(SessionError::NoSeat { player });
        };
        seat.until = Some(tick.max(seat.from).min(seat.scheduled_through + 1));
        // Its hashes not compared yet are dropped: a player that left, or was sent the game
        // again after a desync, has no say in the ticks still open.
        let checked = self.checked_through;
        for (_, book) in self.hashes.range_mut(checked + 1..) {
            book[player as usize] = None;
        }
        Ok(())
    }

    /// The first tick no peer can have run yet: one past every player's scheduled ticks. A
    /// player seated from there is needed by nobody before it has joined.
    pub fn first_free_tick(&self) -> u64 {
        (self.seats.iter().flatten())
            .map(|seat| seat.scheduled_through + 1)
            .fold(self.next_tick, u64::max)
    }

    /// A command made on this peer, sent with the next scheduled tick (at most
    /// [`MAX_COMMANDS_PER_TICK`] a tick; the rest wait).
    pub fn queue(&mut self, command: C) {
        self.pending.push(command);
    }

    /// Takes in `player`'s commands for tick `last` (none for `first..last`).
    pub fn receive_inputs(
        &mut self,
        player: u8,
        first: u64,
        last: u64,
        commands: Vec<C>,
    ) -> Result<Taken, SessionError> {
        let Some(seat) = self.seat(player) else {
            return Err(SessionError::NoSeat { player });
        };
        if last <= seat.scheduled_through {
            // A repeat of what is held is harmless; anything else rewrites the past.
            let held = self
                .inputs
                .get(&last)
                .and_then(|book| book[player as usize].as_ref());
            return match held {
                Some(held) if *held == commands => Ok(Taken::Duplicate),
                None if last < self.next_tick && commands.is_empty() => Ok(Taken::Duplicate),
                _ => Err(SessionError::OutOfOrder {
                    player,
                    first,
                    expected: seat.scheduled_through + 1,
                }),
            };
        }
        let expected = seat.scheduled_through + 1;
        if first != expected {
            return Err(SessionError::OutOfOrder {
                player,
                first,
                expected,
            });
        }
        if last - seat.scheduled_through > MAX_SCHEDULE_JUMP
            || commands.len() > MAX_COMMANDS_PER_TICK
        {
            return Err(SessionError::TooFarAhead {
                player,
                last,
                now: self.next_tick,
            });
        }
        self.schedule(player, first, last, commands);
        Ok(Taken::Accepted)
    }

    fn schedule(&mut self, player: u8, first: u64, last: u64, commands: Vec<C>) {
        let index = player as usize;
        for tick in first..last {
            self.inputs.entry(tick).or_default()[index] = Some(Vec::new());
        }
        self.inputs.entry(last).or_default()[index] = Some(commands);
        if let Some(Some(seat)) = self.seats.get_mut(index) {
            seat.scheduled_through = last;
        }
    }

    /// The inputs `player` has scheduled for `tick`, if they are in.
    pub fn inputs_of(&self, player: u8, tick: u64) -> Option<&[C]> {
        let book = self.inputs.get(&tick)?;
        book.get(player as usize)?.as_deref()
    }

    /// The next tick's commands, each with its player, in player order, if every seated
    /// player's are in.
    pub fn ready_tick(&self) -> Option<(u64, Vec<(u8, C)>)> {
        let tick = self.next_tick;
        let mut commands = Vec::new();
        for player in self.players_at(tick) {
            let theirs = self.inputs_of(player, tick)?;
            commands.extend(theirs.iter().map(|command| (player, command.clone())));
        }
        Some((tick, commands))
    }

    /// This peer's opening message before its first tick: its first `delay` ticks have no
    /// commands. `None` when they are scheduled already.
    pub fn open(&mut self) -> Option<(u64, u64, Vec<C>)> {
        let seat = self.seat(self.me)?;
        let last = self.next_tick + self.delay - 1;
        (last > seat.scheduled_through).then(|| {
            let first = seat.scheduled_through + 1;
            self.schedule(self.me, first, last, Vec::new());
            (first, last, Vec::new())
        })
    }

    /// Records that the tick from [`ready_tick`](Self::ready_tick) ran and left the flock
    /// hashing to `hash`; this peer's inputs to send (`first`, `last`, commands), if it
    /// scheduled a tick.
    pub fn finish_tick(&mut self, hash: u64) -> Option<(u64, u64, Vec<C>)> {
        let tick = self.next_tick;
        self.next_tick += 1;
        self.hashes.entry(tick).or_default()[self.me as usize] = Some(hash);
        let forget_before = tick.saturating_sub(HASH_HISTORY);
        self.inputs = self.inputs.split_off(&forget_before);
        let seat = self.seat(self.me)?;
        if !seat.plays(tick + 1) {
            return None;
        }
        let last = tick + self.delay;
        if last <= seat.scheduled_through {
            return None;
        }
        let first = seat.scheduled_through + 1;
        let count = self.pending.len().min(MAX_COMMANDS_PER_TICK);
        let commands: Vec<C> = self.pending.drain(..count).collect();
        self.schedule(self.me, first, last, commands.clone());
        Some((first, last, commands))
    }

    /// Takes in `player`'s hash after `tick`.
    pub fn receive_hash(
        &mut self,
        player: u8,
        tick: u64,
        hash: u64,
    ) -> Result<Taken, SessionError> {
        let Some(seat) = self.seat(player) else {
            return Err(SessionError::NoSeat { player });
        };
        let out_of_place = SessionError::HashOutOfPlace { player, tick };
        // A player runs a tick only with every player's inputs for it, so never past what the
        // slowest has scheduled.
        let reachable = self.first_free_tick();
        if !seat.plays(tick) || tick >= reachable || tick + HASH_HISTORY <= self.checked_through {
            return Err(out_of_place);
        }
        let held = self
            .hashes
            .get(&tick)
            .and_then(|book| book[player as usize]);
        match held {
            Some(held) if held == hash => Ok(Taken::Duplicate),
            Some(_) => Err(SessionError::ConflictingHash { player, tick }),
            None if tick <= self.checked_through => Err(out_of_place),
            None => {
                self.hashes.entry(tick).or_default()[player as usize] = Some(hash);
                Ok(Taken::Accepted)
            }
        }
    }

    /// Compares the hashes every seated player has sent, in tick order, as far as all have;
    /// the first tick whose hashes differ is a desync.
    pub fn check(&mut self) -> Result<(), Desync> {
        loop {
            let tick = self.checked_through + 1;
            if tick >= self.next_tick {
                break;
            }
            let Some(book) = self.hashes.get(&tick) else {
                break;
            };
            if !self.missing_hashes(tick).is_empty() {
                break;
            }
            // Every seated player's hash, and those of players who have left since, if sent.
            let hashes: Vec<(u8, u64)> = (self.players_at(tick))
                .filter_map(|player| book[player as usize].map(|hash| (player, hash)))
                .collect();
            if hashes.windows(2).any(|pair| pair[0].1 != pair[1].1) {
                return Err(Desync { tick, hashes });
            }
            self.checked_through = tick;
        }
        let forget_before = self.checked_through.saturating_sub(HASH_HISTORY);
        self.hashes = self.hashes.split_off(&forget_before);
        Ok(())
    }

    /// The players still seated whose hash of `tick` is not in. A player that has left is
    /// not waited for: it may have gone before sending its last ticks' hashes.
    pub fn missing_hashes(&self, tick: u64) -> Vec<u8> {
        let book = self.hashes.get(&tick);
        self.players_at(tick)
            .filter(|&player| self.seat(player).is_some_and(|seat| seat.until.is_none()))
            .filter(|&player| book.is_none_or(|book| book[player as usize].is_none()))
            .collect()
    }

    /// The players whose inputs the next tick waits for.
    pub fn waiting_for(&self) -> Vec<u8> {
        let tick = self.next_tick;
        self.players_at(tick)
            .filter(|&player| self.inputs_of(player, tick).is_none())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> [Session<u32>; 2] {
        let seats = [(0, 1), (1, 1)];
        [Session::new(0, 1, &seats, 2), Session::new(1, 1, &seats, 2)]
    }

    /// Runs every ready tick on every session, delivering each one's messages to the others.
    fn run(sessions: &mut [Session<u32>], hash_of: impl Fn(u8, u64) -> u64) -> Vec<Vec<(u8, u32)>> {
        let mut applied = Vec::new();
        loop {
            let mut progressed = false;
            for index in 0..sessions.len() {
                let Some((tick, commands)) = sessions[index].ready_tick() else {
                    continue;
                };
                if index == 0 {
                    applied.push(commands);
                }
                let me = sessions[index].me();
                let hash = hash_of(me, tick);
                let sent = sessions[index].finish_tick(hash);
                for (other, session) in sessions.iter_mut().enumerate() {
                    if other == index {
                        continue;
                    }
                    if let Some((first, last, commands)) = sent.clone() {
                        session.receive_inputs(me, first, last, commands).unwrap();
                    }
                    session.receive_hash(me, tick, hash).unwrap();
                }
                progressed = true;
            }
            if !progressed || applied.len() > 50 {
                return applied;
            }
        }
    }

    fn open_all(sessions: &mut [Session<u32>]) {
        for index in 0..sessions.len() {
            let me = sessions[index].me();
            if let Some((first, last, commands)) = sessions[index].open() {
                for (other, session) in sessions.iter_mut().enumerate() {
                    if other != index {
                        session
                            .receive_inputs(me, first, last, commands.clone())
                            .unwrap();
                    }
                }
            }
        }
    }

    #[test]
    fn commands_apply_at_the_same_tick_in_player_order_everywhere() {
        let mut sessions = pair();
        open_all(&mut sessions);
        sessions[1].queue(7);
        sessions[0].queue(5);
        let applied = run(&mut sessions, |_, tick| tick);
        // Queued before tick 1 ran: scheduled for 1 + delay.
        assert_eq!(applied[2], vec![(0, 5), (1, 7)]);
        assert!(
            applied
                .iter()
                .enumerate()
                .all(|(i, c)| i == 2 || c.is_empty())
        );
        assert!(sessions.iter_mut().all(|session| session.check().is_ok()));
    }

    #[test]
    fn a_peer_waits_for_a_slow_player_and_never_runs_ahead_of_its_schedule() {
        let [mut a, _b] = pair();
        a.open();
        // Player 1 sent nothing: tick 1 waits for it.
        assert_eq!(a.ready_tick(), None);
        assert_eq!(a.waiting_for(), vec![1]);
    }

    #[test]
    fn differing_hashes_are_a_desync_at_their_tick() {
        let mut sessions = pair();
        open_all(&mut sessions);
        run(&mut sessions, |player, tick| {
            if player == 1 && tick >= 9 { 99 } else { tick }
        });
        let desync = sessions[0].check().unwrap_err();
        assert_eq!(desync.tick, 9);
        assert_eq!(desync.hashes, vec![(0, 9), (1, 99)]);
    }

    #[test]
    fn a_longer_delay_schedules_empty_ticks_and_a_shorter_one_waits() {
        let [mut a, mut b] = pair();
        let (_, last, _) = a.open().unwrap();
        assert_eq!(last, 2);
        b.open();
        a.set_delay(5);
        a.receive_inputs(1, 1, 2, vec![]).unwrap();
        assert!(a.ready_tick().is_some());
        let (first, last, _) = a.finish_tick(0).unwrap();
        assert_eq!((first, last), (3, 6));
        a.set_delay(1);
        // Tick 2 + 1 is scheduled already: nothing to send until the runs catch up.
        a.receive_inputs(1, 3, 3, vec![]).unwrap();
        assert_eq!(a.finish_tick(0), None);
    }

    #[test]
    fn replayed_forged_and_far_inputs_are_refused_and_repeats_dropped() {
        let [mut a, _] = pair();
        a.receive_inputs(1, 1, 2, vec![3]).unwrap();
        assert_eq!(a.receive_inputs(1, 1, 2, vec![3]), Ok(Taken::Duplicate));
        assert!(matches!(
            a.receive_inputs(1, 1, 2, vec![4]),
            Err(SessionError::OutOfOrder { .. })
        ));
        assert!(matches!(
            a.receive_inputs(1, 5, 6, vec![]),
            Err(SessionError::OutOfOrder { .. })
        ));
        assert!(matches!(
            a.receive_inputs(1, 3, 3 + MAX_SCHEDULE_JUMP, vec![]),
            Err(SessionError::TooFarAhead { .. })
        ));
        assert_eq!(
            a.receive_inputs(5, 1, 1, vec![]),
            Err(SessionError::NoSeat { player: 5 })
        );
        assert!(
            a.receive_hash(1, 50, 0).is_err(),
            "a tick nobody can have run"
        );
    }

    #[test]
    fn a_late_seat_is_needed_only_from_its_tick_and_a_left_one_no_more() {
        let mut sessions = pair();
        open_all(&mut sessions);
        run(&mut sessions, |_, tick| tick);
        // Seat a third player at the first tick nobody can have run, on both peers.
        let from = sessions[0].first_free_tick();
        for session in &mut sessions {
            session.add_seat(2, from).unwrap();
        }
        assert_eq!(
            sessions[0].players_at(from).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(
            sessions[0].players_at(from - 1).collect::<Vec<_>>(),
            vec![0, 1]
        );
        sessions[0].remove_seat(2, from).unwrap();
        assert_eq!(sessions[0].players_at(from).collect::<Vec<_>>(), vec![0, 1]);
        assert!(sessions[0].add_seat(1, from).is_err(), "a taken seat");
    }
}
