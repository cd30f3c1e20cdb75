//! A stable counting sort by a small integer key, into buffers the caller keeps: the contact
//! pass joins its chunks' pairs by their first agent with it, and indexes each agent's pairs by
//! their second.

/// Places `items` by `bucket_of` (each below `bucket_count`), stably: `place(slot, item)` for
/// each item in the order given, at its slot in bucket order. `items` is walked twice (counted,
/// then placed). Leaves `starts` with each bucket's first slot, and the number of items last
/// (`bucket_count + 1` entries).
pub(super) fn counting_sort<T>(
    bucket_count: usize,
    items: impl Iterator<Item = T> + Clone,
    bucket_of: impl Fn(&T) -> usize,
    starts: &mut Vec<usize>,
    mut place: impl FnMut(usize, T),
) {
    starts.clear();
    starts.resize(bucket_count + 1, 0);
    for item in items.clone() {
        starts[bucket_of(&item) + 1] += 1;
    }
    for bucket in 0..bucket_count {
        starts[bucket + 1] += starts[bucket];
    }
    // `starts` used as the cursors, then moved back.
    for item in items {
        let cursor = &mut starts[bucket_of(&item)];
        place(*cursor, item);
        *cursor += 1;
    }
    // Each cursor now stands at the next bucket's start.
    for bucket in (0..bucket_count).rev() {
        starts[bucket + 1] = starts[bucket];
    }
    starts[0] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_and_leaves_each_buckets_start() {
        let items = [(2, 'a'), (0, 'b'), (2, 'c'), (3, 'd'), (0, 'e')];
        let mut starts = vec![9; 2];
        let mut sorted = [(0, ' '); 5];
        counting_sort(
            5,
            items.iter().copied(),
            |&(key, _)| key,
            &mut starts,
            |slot, item| sorted[slot] = item,
        );
        assert_eq!(sorted, [(0, 'b'), (0, 'e'), (2, 'a'), (2, 'c'), (3, 'd')]);
        assert_eq!(starts, [0, 2, 2, 4, 5, 5]);
        counting_sort(
            0,
            std::iter::empty::<usize>(),
            |_| 0,
            &mut starts,
            |_, _| {},
        );
        assert_eq!(starts, [0]);
    }
}
