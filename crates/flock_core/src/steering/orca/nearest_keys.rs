//! The crowd step's neighbour selection: the same choice as [`NearestSet`](super::NearestSet)
//! (RVO2's nearest `k` strictly within the neighbour distance, nearest first, ties by id, each
//! candidate once), made in batches: the candidates of a run of the grid are taken without a
//! branch on their distance, and once there are twice `k` of them the nearest `k` are kept
//! (not by inserting them one by one in order), which also shrinks the range the rest of the
//! search looks in. A search may start narrowed to a guess (where a crowd's agent found its
//! nearest the step before), and says when the guess was too near to be sure.

use super::sorting_network::sort_keys;
use crate::math::Vector;

/// How many candidates beyond twice the capacity are taken before the nearest are picked.
const SLACK: usize = 0;

/// A candidate as the grid holds it: what its distance and order need, so that a search reads
/// little memory.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    /// Where it is.
    pub position: Vector,
    /// Its id (its index among the crowd's agents).
    pub id: u32,
}

/// The candidates within range taken so far, each as a key.
///
/// A key is the squared distance's bits above the candidate's id. Both are non-negative, so the
/// keys' integer order is the order by distance, then id: [`NearestSet`](super::NearestSet)'s.
pub(super) struct NearestKeys<'a> {
    own_id: u32,
    capacity: usize,
    reach_squared: f32,
    range_squared: f32,
    /// Whether a candidate may be offered twice (through two images of a wrapping world).
    repeats: bool,
    /// Whether the range was narrowed below the reach before the search (see
    /// [`narrow`](Self::narrow)).
    narrowed: bool,
    /// The candidates taken are `kept[..count]`; the rest is room to write into.
    kept: &'a mut Vec<u64>,
    count: usize,
}

impl<'a> NearestKeys<'a> {
    /// An empty selection of at most `capacity` candidates nearer than `reach`, for the agent
    /// `own_id` (which is never kept); `repeats` if a candidate may be offered more than once.
    /// `kept` is its buffer.
    pub fn new(
        own_id: u32,
        reach: f32,
        capacity: usize,
        repeats: bool,
        kept: &'a mut Vec<u64>,
    ) -> Self {
        Self {
            own_id,
            capacity,
            reach_squared: reach * reach,
            range_squared: reach * reach,
            repeats,
            narrowed: false,
            kept,
            count: 0,
        }
    }

    /// Narrows the range to `range_squared` before the search, if that is nearer than the
    /// reach: a guess at where the nearest `capacity` lie (a crowd's last step's), so that the
    /// search skips what lies beyond from the start. If the guess is too near,
    /// [`finish`](Self::finish) says so, and the search must be made again without it.
    pub fn narrow(&mut self, range_squared: f32) {
        if range_squared < self.range_squared {
            self.range_squared = range_squared;
            self.narrowed = true;
        }
    }

    /// The squared distance a candidate must be nearer than to come in now.
    #[inline]
    pub fn range_squared(&self) -> f32 {
        self.range_squared
    }

    /// Takes those of `run` that lie within range, each at `offset(candidate)` from the agent
    /// (towards its nearest image in a wrapping world), then, once many more than `capacity`
    /// are taken, keeps the nearest `capacity` and shrinks the range to them. Not a number
    /// (positions too far apart to subtract) is out of range; the agent itself is skipped.
    #[inline]
    pub fn offer_run(&mut self, run: &[Candidate], offset: impl Fn(&Candidate) -> Vector) {
        if self.kept.len() < self.count + run.len() {
            self.kept.resize(self.count + run.len(), 0);
        }
        let (range_squared, own_id) = (self.range_squared, self.own_id);
        let room = &mut self.kept[self.count..self.count + run.len()];
        let mut taken = 0;
        for (candidate, _) in run.iter().zip(0..room.len()) {
            let distance_squared = offset(candidate).length_squared();
            // Written in any case, counted only if within range: no branch to mispredict.
            // Within range means a number, zero or more, whose bits order as it does.
            let key = (u64::from(distance_squared.to_bits()) << 32) | u64::from(candidate.id);
            room[taken] = key;
            taken += usize::from(distance_squared < range_squared && candidate.id != own_id);
        }
        self.count += taken;
        // Selecting after every run would cost more than the candidates it saves: only once
        // there are many more than wanted (a crowd much denser than the neighbour count).
        if self.count > 2 * self.capacity + SLACK {
            self.keep_nearest();
        }
    }

    /// Keeps the nearest `capacity` of the candidates taken (each once) and shrinks the range
    /// so that only as near or nearer ones may still come in.
    fn keep_nearest(&mut self) {
        let taken = &mut self.kept[..self.count];
        // A sort, not `select_nth_unstable`: at these sizes (one to three times the capacity)
        // a small sort is the faster, and it leaves the keys kept in the order `chosen` gives
        // them. A search most often ends with a few more than its capacity (ten in RVO2's
        // examples): few enough for a sorting network.
        sort_keys(taken);
        let mut unique = taken.len();
        if self.repeats {
            // The same candidate at the same distance: equal keys, side by side.
            unique = 0;
            for index in 0..taken.len() {
                if unique == 0 || taken[index] != taken[unique - 1] {
                    taken[unique] = taken[index];
                    unique += 1;
                }
            }
        }
        self.count = unique.min(self.capacity);
        if let Some(&farthest) = self
            .capacity
            .checked_sub(1)
            .and_then(|last| self.kept[..self.count].get(last))
        {
            // Sorting leaves the farthest kept last.
            self.range_squared = f32::from_bits((farthest >> 32) as u32).next_up();
        }
        if self.capacity == 0 {
            self.range_squared = 0.0;
        }
    }

    /// Drops what was taken and the narrowed range, for the search to be made again over the
    /// whole reach.
    pub fn widen(&mut self) {
        self.range_squared = self.reach_squared;
        self.narrowed = false;
        self.count = 0;
    }

    /// Ends the search: keeps the nearest candidates, and says whether they are the nearest
    /// within the reach. They are unless the range was [narrowed](Self::narrow) and fewer than
    /// `capacity` lie within it (then nearer ones beyond it may have been missed).
    pub fn finish(&mut self) -> bool {
        // Sorted, and with repeats each once, however few.
        self.keep_nearest();
        !self.narrowed || self.count >= self.capacity
    }

    /// The candidates kept by [`finish`](Self::finish), nearest first: each one's squared
    /// distance and id.
    pub fn chosen(&self) -> impl Iterator<Item = (f32, u32)> + '_ {
        self.kept[..self.count]
            .iter()
            .map(|&key| (f32::from_bits((key >> 32) as u32), key as u32))
    }

    /// The nearest candidates, nearest first: each one's squared distance and id.
    #[cfg(test)]
    pub fn nearest(&mut self) -> impl Iterator<Item = (f32, u32)> + '_ {
        self.finish();
        self.chosen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Candidate `id` at `distance` along the first axis from the agent, which stands at the
    /// origin (so a candidate's offset is its position).
    fn at(distance: f32, id: u32) -> Candidate {
        let mut position = Vector::ZERO;
        position[0] = distance;
        Candidate { position, id }
    }

    fn chosen(keys: &mut NearestKeys<'_>) -> Vec<(f32, u32)> {
        keys.nearest().collect()
    }

    #[test]
    fn keeps_the_nearest_by_distance_then_id_without_itself() {
        let mut kept = Vec::new();
        let mut keys = NearestKeys::new(7, 3.0, 3, false, &mut kept);
        // The agent itself, one beyond the reach, a tie at 2 broken by id, one too far to
        // subtract, in three runs.
        let first = [at(0.0, 7), at(10.0, 1), at(3.0 - 1e-6, 2), at(2.0, 5)];
        keys.offer_run(&first, |c| c.position);
        let second = [at(2.0, 3), at(f32::NAN, 8), at(1.0, 9), at(2.0, 4)];
        keys.offer_run(&second, |c| c.position);
        keys.offer_run(&[at(2.0, 0), at(2.5, 6)], |c| c.position);
        assert_eq!(chosen(&mut keys), vec![(1.0, 9), (4.0, 0), (4.0, 3)]);
    }

    #[test]
    fn many_candidates_shrink_the_range_to_the_nearest_kept() {
        let mut kept = Vec::new();
        let mut keys = NearestKeys::new(0, 100.0, 3, false, &mut kept);
        // Ids 1 to 40 at distances 40 down to 1, then ties with the third nearest.
        let far_first: Vec<Candidate> = (1..=40).map(|id| at((41 - id) as f32, id)).collect();
        keys.offer_run(&far_first, |c| c.position);
        assert_eq!(keys.range_squared(), 9.0_f32.next_up());
        keys.offer_run(&[at(3.0, 41), at(3.0, 2), at(3.5, 1)], |c| c.position);
        // Ids 40, 39 and 38 at 1, 2 and 3; the tie at 3 with id 2 beats 38.
        assert_eq!(chosen(&mut keys), vec![(1.0, 40), (4.0, 39), (9.0, 2)]);
    }

    #[test]
    fn a_candidate_offered_twice_comes_in_once() {
        let mut kept = Vec::new();
        let mut keys = NearestKeys::new(0, 10.0, 3, true, &mut kept);
        keys.offer_run(&[at(1.0, 1), at(2.0, 2)], |c| c.position);
        keys.offer_run(&[at(1.0, 1), at(2.0, 2)], |c| c.position);
        assert_eq!(chosen(&mut keys), vec![(1.0, 1), (4.0, 2)]);
        keys.offer_run(&[at(3.0, 3), at(4.0, 4)], |c| c.position);
        keys.offer_run(&[at(1.0, 1)], |c| c.position);
        assert_eq!(chosen(&mut keys), vec![(1.0, 1), (4.0, 2), (9.0, 3)]);
    }

    #[test]
    fn a_narrowed_search_says_whether_it_found_enough() {
        let mut kept = Vec::new();
        let mut keys = NearestKeys::new(0, 10.0, 2, false, &mut kept);
        keys.narrow(200.0);
        assert_eq!(keys.range_squared(), 100.0, "never wider than the reach");
        keys.narrow(3.0);
        let run = [at(1.0, 1), at(2.0, 2), at(3.0, 3)];
        keys.offer_run(&run, |c| c.position);
        // Only one within the narrowed range: the second nearest may lie beyond it.
        assert!(!keys.finish());
        keys.widen();
        assert_eq!(keys.range_squared(), 100.0);
        keys.offer_run(&run, |c| c.position);
        assert!(keys.finish());
        assert_eq!(keys.chosen().collect::<Vec<_>>(), vec![(1.0, 1), (4.0, 2)]);
        // Narrowed, with enough within: the nearest, as without narrowing.
        let mut keys = NearestKeys::new(0, 10.0, 2, false, &mut kept);
        keys.narrow(5.0);
        keys.offer_run(&[at(2.0, 2), at(0.5, 4), at(1.0, 1)], |c| c.position);
        assert!(keys.finish());
        assert_eq!(keys.chosen().collect::<Vec<_>>(), vec![(0.25, 4), (1.0, 1)]);
        // Fewer than the capacity in the whole reach is all there is.
        let mut keys = NearestKeys::new(0, 10.0, 5, false, &mut kept);
        keys.offer_run(&run, |c| c.position);
        assert!(keys.finish());
    }

    #[test]
    fn a_capacity_of_zero_keeps_nothing() {
        let mut kept = Vec::new();
        let mut keys = NearestKeys::new(0, 10.0, 0, false, &mut kept);
        keys.offer_run(&[at(1.0, 1)], |c| c.position);
        assert!(chosen(&mut keys).is_empty());
        assert_eq!(keys.range_squared(), 0.0);
    }
}
