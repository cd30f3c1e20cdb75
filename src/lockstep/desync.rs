//! Finding the first boids that differ after a desync, without sending the flock: each peer
//! keeps its boids' hashes for the ticks not yet compared; after a desync the peers exchange
//! hashes of id ranges ([`Message::Digest`]), each reply narrowing to the first range that
//! differs, until single ids are left (a few round trips for millions of boids).

use std::collections::VecDeque;

use bevy::prelude::*;
use flock_core::lockstep::identified_boid_hash;

use super::wire::{MAX_DIGEST_BUCKETS, Message};
use crate::components::{Boid, Velocity};
use crate::dimension::position_of;
use crate::identity::BoidId;

/// The most ticks of boid hashes held: ticks are compared a round trip after they run.
const HELD_TICKS: usize = 32;

/// How many differing boids a report names.
const NAMED: usize = 8;

/// Each boid's hash (id, share of the state hash) for the recent ticks not yet compared.
#[derive(Default)]
pub(super) struct BoidHashes {
    ticks: VecDeque<(u64, Vec<(u64, u64)>)>,
    spare: Vec<Vec<(u64, u64)>>,
    query: Option<QueryState<(&'static BoidId, &'static Transform, &'static Velocity), With<Boid>>>,
}

/// What a digest from another peer leads to.
pub(super) enum DigestReply<I> {
    /// A digest of the first range that differs, to send back.
    Narrower(Message<I>),
    /// The first boids that differ, found.
    Found(String),
    /// No answer: the tick is gone, or the digest does not fit.
    Nothing(String),
}

impl BoidHashes {
    /// Hashes the boids after `tick` (the [`FlockStateHash`](crate::FlockStateHash)) and keeps
    /// each one's share.
    pub(super) fn record(&mut self, world: &mut World, tick: u64) -> u64 {
        let query = self.query.get_or_insert_with(|| world.query_filtered());
        let mut shares = self.spare.pop().unwrap_or_default();
        shares.clear();
        let mut hash = 0u64;
        for (id, transform, velocity) in query.iter(world) {
            let share = identified_boid_hash(id.0, position_of(transform.translation), velocity.0);
            hash = hash.wrapping_add(share);
            shares.push((id.0, share));
        }
        if self.ticks.len() == HELD_TICKS
            && let Some((_, oldest)) = self.ticks.pop_front()
        {
            self.spare.push(oldest);
        }
        self.ticks.push_back((tick, shares));
        hash
    }

    /// Drops the ticks every peer agreed on.
    pub(super) fn forget_through(&mut self, tick: u64) {
        while self.ticks.front().is_some_and(|(held, _)| *held <= tick) {
            if let Some((_, shares)) = self.ticks.pop_front() {
                self.spare.push(shares);
            }
        }
        self.spare.truncate(2);
    }

    fn shares(&self, tick: u64) -> Option<&[(u64, u64)]> {
        (self.ticks.iter())
            .find(|(held, _)| *held == tick)
            .map(|(_, shares)| shares.as_slice())
    }

    /// The digest of every boid after `tick`, to open the search.
    pub(super) fn first_digest<I>(&self, tick: u64) -> Option<Message<I>> {
        let shares = self.shares(tick)?;
        let hi = shares.iter().map(|(id, _)| id + 1).max().unwrap_or(1);
        Some(Message::Digest {
            tick,
            lo: 0,
            hi,
            buckets: buckets(shares, 0, hi),
        })
    }

    /// Compares another peer's digest with this one's boids.
    pub(super) fn answer<I>(&self, tick: u64, lo: u64, hi: u64, theirs: &[u64]) -> DigestReply<I> {
        let Some(shares) = self.shares(tick) else {
            return DigestReply::Nothing(format!("tick {tick}'s boids are no longer held"));
        };
        let ours = buckets(shares, lo, hi);
        if ours.len() != theirs.len() {
            return DigestReply::Nothing(format!(
                "a digest of {} ranges where {} were expected",
                theirs.len(),
                ours.len()
            ));
        }
        let width = bucket_width(lo, hi);
        let differing: Vec<usize> = (0..ours.len()).filter(|&k| ours[k] != theirs[k]).collect();
        let Some(&first) = differing.first() else {
            let beyond = shares.iter().filter(|(id, _)| *id >= hi).count();
            return DigestReply::Nothing(format!(
                "tick {tick}: boids {lo} to {} agree here ({beyond} boids with larger ids only here)",
                hi - 1
            ));
        };
        if width == 1 {
            let ids: Vec<u64> = differing
                .iter()
                .take(NAMED)
                .map(|&k| lo + k as u64)
                .collect();
            return DigestReply::Found(format!(
                "after tick {tick} the first boids whose state differs from the other peer's are ids {ids:?}"
            ));
        }
        let sub_lo = lo + first as u64 * width;
        let sub_hi = (sub_lo + width).min(hi);
        DigestReply::Narrower(Message::Digest {
            tick,
            lo: sub_lo,
            hi: sub_hi,
            buckets: buckets(shares, sub_lo, sub_hi),
        })
    }
}

/// The width of each of a digest's id ranges over `lo..hi`.
fn bucket_width(lo: u64, hi: u64) -> u64 {
    (hi - lo).div_ceil(MAX_DIGEST_BUCKETS as u64).max(1)
}

/// The hashes of `lo..hi` split into ranges of [`bucket_width`]: each the wrapping sum of its
/// boids' shares.
fn buckets(shares: &[(u64, u64)], lo: u64, hi: u64) -> Vec<u64> {
    let width = bucket_width(lo, hi);
    let count = (hi - lo).div_ceil(width) as usize;
    let mut buckets = vec![0u64; count];
    for &(id, share) in shares {
        if (lo..hi).contains(&id) {
            let bucket = &mut buckets[((id - lo) / width) as usize];
            *bucket = bucket.wrapping_add(share);
        }
    }
    buckets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(shares: Vec<(u64, u64)>) -> BoidHashes {
        let mut hashes = BoidHashes::default();
        hashes.ticks.push_back((5, shares));
        hashes
    }

    #[test]
    fn the_search_narrows_to_the_first_differing_ids() {
        let ours: Vec<(u64, u64)> = (0..10_000).map(|id| (id, id * 7)).collect();
        let mut theirs = ours.clone();
        theirs[4321].1 += 1;
        theirs[9000].1 += 1;
        let (a, b) = (held(ours), held(theirs));
        let mut message = a.first_digest::<()>(5).unwrap();
        // Each digest goes to the other peer, which answers from its own boids.
        for answering in [&b, &a].into_iter().cycle().take(10) {
            let Message::Digest {
                tick,
                lo,
                hi,
                buckets,
            } = message
            else {
                unreachable!()
            };
            match answering.answer::<()>(tick, lo, hi, &buckets) {
                DigestReply::Narrower(reply) => message = reply,
                DigestReply::Found(report) => {
                    assert!(report.contains("[4321]"), "{report}");
                    return;
                }
                DigestReply::Nothing(why) => panic!("{why}"),
            }
        }
        panic!("the search did not end");
    }

    #[test]
    fn a_missing_boid_is_found_and_agreeing_peers_find_nothing() {
        let ours: Vec<(u64, u64)> = (0..100).map(|id| (id, id)).collect();
        let theirs: Vec<(u64, u64)> = ours.iter().copied().filter(|(id, _)| *id != 42).collect();
        let Some(Message::Digest {
            lo, hi, buckets, ..
        }) = held(ours.clone()).first_digest::<()>(5)
        else {
            unreachable!()
        };
        match held(theirs).answer::<()>(5, lo, hi, &buckets) {
            DigestReply::Narrower(Message::Digest { lo, .. }) => assert!(lo <= 42),
            DigestReply::Found(report) => assert!(report.contains("42"), "{report}"),
            _ => panic!("the missing boid was not seen"),
        }
        assert!(matches!(
            held(ours).answer::<()>(5, lo, hi, &buckets),
            DigestReply::Nothing(_)
        ));
        assert!(matches!(
            BoidHashes::default().answer::<()>(5, 0, 10, &[0; 10]),
            DigestReply::Nothing(_)
        ));
    }
}
