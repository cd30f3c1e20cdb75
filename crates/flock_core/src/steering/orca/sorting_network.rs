//! The sort of the few keys a crowd agent's neighbour search ends with: up to sixteen through a
//! sorting network, Batcher's odd-even merge sort of sixteen places (Knuth, The Art of Computer Programming, vol. 3,
//! 5.3.4), a fixed sequence of compare-exchanges. Each is a minimum and a maximum, with no
//! branch on the keys, so nothing is mispredicted, and sixteen keys take 63 of them (a sort by
//! rank compares every pair, an insertion sort mispredicts about once a key). The pairs are
//! written out so that the compiler unrolls them, with every place a constant.

/// The most keys the network sorts; more go to the standard sort.
const NETWORK_PLACES: usize = 16;

/// Puts the smaller of `keys[first]` and `keys[second]` first.
#[inline(always)]
fn exchange(keys: &mut [u64; NETWORK_PLACES], first: usize, second: usize) {
    let (low, high) = (keys[first], keys[second]);
    keys[first] = low.min(high);
    keys[second] = low.max(high);
}

/// The compare-exchanges, phase by phase.
macro_rules! exchanges {
    ($keys:ident: $(($first:literal, $second:literal))*) => {
        $(exchange(&mut $keys, $first, $second);)*
    };
}

/// Sorts `keys`: up to [`NETWORK_PLACES`] through the network (the places beyond them hold the
/// largest key, which sorts last), more with the standard sort.
pub(super) fn sort_keys(keys: &mut [u64]) {
    let len = keys.len();
    if len > NETWORK_PLACES {
        keys.sort_unstable();
        return;
    }
    let mut places = [u64::MAX; NETWORK_PLACES];
    places[..len].copy_from_slice(keys);
    // Sorted runs of two, then four, eight and sixteen, each merged from two of the last.
    exchanges!(places: (0, 1) (2, 3) (4, 5) (6, 7) (8, 9) (10, 11) (12, 13) (14, 15));
    exchanges!(places: (0, 2) (1, 3) (4, 6) (5, 7) (8, 10) (9, 11) (12, 14) (13, 15));
    exchanges!(places: (1, 2) (5, 6) (9, 10) (13, 14));
    exchanges!(places: (0, 4) (1, 5) (2, 6) (3, 7) (8, 12) (9, 13) (10, 14) (11, 15));
    exchanges!(places: (2, 4) (3, 5) (10, 12) (11, 13));
    exchanges!(places: (1, 2) (3, 4) (5, 6) (9, 10) (11, 12) (13, 14));
    exchanges!(places: (0, 8) (1, 9) (2, 10) (3, 11) (4, 12) (5, 13) (6, 14) (7, 15));
    exchanges!(places: (4, 8) (5, 9) (6, 10) (7, 11));
    exchanges!(places: (2, 4) (3, 5) (6, 8) (7, 9) (10, 12) (11, 13));
    exchanges!(places: (1, 2) (3, 4) (5, 6) (7, 8) (9, 10) (11, 12) (13, 14));
    keys.copy_from_slice(&places[..len]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The zero-one principle (Knuth, 5.3.4, theorem Z): a network of compare-exchanges that
    /// sorts every sequence of zeros and ones sorts every sequence. All 65,536 of sixteen.
    #[test]
    fn the_network_sorts_every_sequence_of_zeros_and_ones() {
        for bits in 0..1_u32 << NETWORK_PLACES {
            let mut keys: Vec<u64> = (0..NETWORK_PLACES)
                .map(|place| u64::from(bits >> place & 1))
                .collect();
            sort_keys(&mut keys);
            let ones = bits.count_ones() as usize;
            assert!(
                keys[..NETWORK_PLACES - ones].iter().all(|&key| key == 0)
                    && keys[NETWORK_PLACES - ones..].iter().all(|&key| key == 1),
                "{bits:016b} gave {keys:?}"
            );
        }
    }

    #[test]
    fn keys_sort_as_the_standard_sort_does_the_largest_and_repeats_included() {
        let mut state = 5_u64;
        // Up to sixteen keys through the network, and a few more through the standard sort.
        for round in 0..3000 {
            let len = round % (NETWORK_PLACES + 9);
            let mut keys: Vec<u64> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    match state >> 61 {
                        0 => u64::MAX,
                        high => (high << 32) | (state >> 59 & 7),
                    }
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_keys(&mut keys);
            assert_eq!(keys, expected, "{len} keys");
        }
    }
}
