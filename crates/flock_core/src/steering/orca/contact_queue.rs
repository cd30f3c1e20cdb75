//! Which pairs and agents a contact sweep looks at. A pair neither of whose agents has moved
//! since it was last looked at (or since the pairs were found) overlaps exactly as it did then,
//! within the tolerance, so looking again would part nothing. A sweep therefore looks at the
//! pairs that overlapped when they were found, and at those of each agent moved since, still in
//! the pairs' order: the same pushes, in the same order, as a sweep over every pair, for the
//! cost of the pairs near agents that move rather than of all of them. The obstacle round after
//! each sweep looks at every agent the first time, then only at those moved since and those it
//! had not yet settled.

use super::counting_sort::counting_sort;

/// The pairs and agents each sweep of a contact pass looks at (see the module's docs); its
/// buffers are kept between passes.
#[derive(Clone, Debug, Default)]
pub(super) struct SweepQueue {
    /// The pairs this sweep has still to look at.
    pairs: Bits,
    /// Where this sweep has come to among `pairs`' words.
    word: usize,
    /// The agents moved in this sweep, whose pairs the next sweep looks at.
    moved: Bits,
    /// The agents this sweep's obstacle round looks at, and those the next round looks at.
    agents_now: Bits,
    agents_next: Bits,
    /// Whether this sweep's obstacle round looks at every agent (the first one after the pairs
    /// were found).
    every_agent: bool,
    /// Each agent's pairs as the second of them, in their order:
    /// `seconds[second_starts[a]..second_starts[a + 1]]` for agent `a`. Worked out when an agent
    /// first moves after the pairs were found (a pass whose pairs all stay apart needs none).
    second_starts: Vec<usize>,
    seconds: Vec<usize>,
    seconds_found: bool,
    /// Looks at every pair and agent in every sweep: the sweep over all pairs, against which
    /// the tests check this one.
    #[cfg(test)]
    pub every: bool,
    #[cfg(test)]
    pair_count: usize,
}

impl SweepQueue {
    /// Starts the first sweep over `pair_count` pairs newly found among `agent_count` agents:
    /// it looks at the pairs `overlapping` (by index), those that overlapped when found.
    pub fn begin(&mut self, pair_count: usize, agent_count: usize, overlapping: &[usize]) {
        self.pairs.clear(pair_count);
        self.word = 0;
        self.moved.clear(agent_count);
        self.agents_now.clear(agent_count);
        self.agents_next.clear(agent_count);
        self.every_agent = true;
        self.seconds_found = false;
        #[cfg(test)]
        {
            self.pair_count = pair_count;
            if self.every {
                self.pairs.fill(pair_count);
                return;
            }
        }
        for &pair in overlapping {
            self.pairs.set(pair);
        }
    }

    /// Starts the next sweep: it looks at every pair of each agent moved in the last one.
    pub fn next_sweep(&mut self, pairs: &[(u32, u32)], first_starts: &[usize]) {
        // The last sweep has taken every pair it queued.
        self.word = 0;
        #[cfg(test)]
        if self.every {
            self.pairs.fill(self.pair_count);
        }
        if !self.seconds_found {
            self.find_seconds(pairs, first_starts.len().saturating_sub(1));
        }
        let mut moved = std::mem::take(&mut self.moved);
        for agent in moved.drain() {
            let seconds = &self.seconds[self.second_starts[agent]..self.second_starts[agent + 1]];
            for pair in
                (first_starts[agent]..first_starts[agent + 1]).chain(seconds.iter().copied())
            {
                self.pairs.set(pair);
            }
        }
        self.moved = moved;
    }

    /// The next pair the sweep looks at, in the pairs' order (pairs queued after the last one
    /// taken, while the sweep goes on, are still seen).
    pub fn next_pair(&mut self) -> Option<usize> {
        self.pairs.take_next(&mut self.word)
    }

    /// Pair `pair` (of the `pairs` sorted, whose first agents' runs start at `first_starts`)
    /// was pushed apart: this sweep looks at both agents' pairs after this one, its obstacle
    /// round at both agents, and the next sweep at all their pairs.
    pub fn pushed(&mut self, pair: usize, pairs: &[(u32, u32)], first_starts: &[usize]) {
        let (first, second) = (pairs[pair].0 as usize, pairs[pair].1 as usize);
        if !self.seconds_found {
            self.find_seconds(pairs, first_starts.len().saturating_sub(1));
        }
        // The pairs are sorted: the first agent's pairs after this one are the rest of its own
        // run (it is the second only of pairs of lower first agents, all before this one); the
        // second agent's are its whole run (its index is higher) and those it is the second of
        // whose first agent is higher than this pair's.
        let seconds = &self.seconds[self.second_starts[second]..self.second_starts[second + 1]];
        let later = seconds.partition_point(|&other| other <= pair);
        let first_rest = pair + 1..first_starts[first + 1];
        let second_run = first_starts[second]..first_starts[second + 1];
        for other in first_rest
            .chain(second_run)
            .chain(seconds[later..].iter().copied())
        {
            self.pairs.set(other);
        }
        for agent in [first, second] {
            self.agents_now.set(agent);
            self.moved.set(agent);
        }
    }

    /// The sweep's obstacle round: `visit` for each agent it looks at, in index order, which
    /// says whether it moved the agent and whether the agent then stayed put (one that did not,
    /// the round having given up, is looked at again in the next round). The next sweep looks
    /// at the pairs of the agents moved here.
    pub fn obstacle_round(&mut self, agent_count: usize, mut visit: impl FnMut(usize) -> Moved) {
        #[cfg(test)]
        if self.every {
            self.every_agent = true;
        }
        if self.every_agent {
            self.agents_now.fill(agent_count);
            self.every_agent = false;
        }
        let mut agents = std::mem::take(&mut self.agents_now);
        for agent in agents.drain() {
            let moved = visit(agent);
            if moved.moved {
                self.moved.set(agent);
            }
            if !moved.settled {
                self.agents_next.set(agent);
            }
        }
        self.agents_now = std::mem::replace(&mut self.agents_next, agents);
    }

    /// Each agent's pairs as the second of them (a counting sort by the second agent, stable,
    /// so each agent's come in the pairs' order).
    fn find_seconds(&mut self, pairs: &[(u32, u32)], agent_count: usize) {
        let seconds = &mut self.seconds;
        seconds.clear();
        seconds.resize(pairs.len(), 0);
        counting_sort(
            agent_count,
            pairs.iter().enumerate(),
            |&(_, &(_, second))| second as usize,
            &mut self.second_starts,
            |slot, (pair, _)| seconds[slot] = pair,
        );
        self.seconds_found = true;
    }
}

/// What an obstacle round did to an agent.
pub(super) struct Moved {
    /// Whether it moved the agent.
    pub moved: bool,
    /// Whether its last try left the agent where it was, so that trying again from there would
    /// not move it.
    pub settled: bool,
}

/// A set of indexes, a bit each.
#[derive(Clone, Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    /// Empty, with room for indexes below `len`.
    fn clear(&mut self, len: usize) {
        self.0.clear();
        self.0.resize(len.div_ceil(64), 0);
    }

    /// Every index below `len`.
    fn fill(&mut self, len: usize) {
        let words = len.div_ceil(64);
        self.0.clear();
        self.0.resize(words, u64::MAX);
        if !len.is_multiple_of(64)
            && let Some(last) = self.0.last_mut()
        {
            *last = (1 << (len % 64)) - 1;
        }
    }

    fn set(&mut self, index: usize) {
        self.0[index / 64] |= 1 << (index % 64);
    }

    /// Takes the least index out of the set, looking from word `*word` on and leaving it at
    /// the word that held it: indexes added after it since are still found by the next call.
    fn take_next(&mut self, word: &mut usize) -> Option<usize> {
        while let Some(bits) = self.0.get_mut(*word) {
            if *bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                return Some(*word * 64 + bit);
            }
            *word += 1;
        }
        None
    }

    /// The indexes in order, each taken out of the set.
    fn drain(&mut self) -> impl Iterator<Item = usize> + '_ {
        let mut word = 0;
        std::iter::from_fn(move || self.take_next(&mut word))
    }
}
