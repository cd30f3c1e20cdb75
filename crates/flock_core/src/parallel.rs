//! Splitting a step's work over threads without owning a thread pool.
//!
//! The kernel never starts threads of its own: the caller passes an [`Executor`], so inside
//! Bevy the work runs on Bevy's compute task pool and no second pool competes with it.

/// Runs a function over disjoint chunks of a mutable slice, possibly in parallel.
///
/// Implementations must call `task` exactly once for every chunk of
/// `data.chunks_mut(chunk_len)`, passing the chunk's start index. Results must not depend on
/// which thread runs which chunk: the kernel only writes each chunk's own elements.
pub trait Executor {
    /// How many threads may work at once; the kernel sizes chunks from it.
    fn threads(&self) -> usize;

    /// Calls `task(start, chunk)` for every chunk of `data.chunks_mut(chunk_len)`.
    fn for_each_chunk<T, F>(&self, data: &mut [T], chunk_len: usize, task: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Sync;

    /// Calls `task(start, a_chunk, b_chunk)` for matching chunks of two equally long slices.
    ///
    /// # Panics
    /// If the slices differ in length.
    fn for_each_chunk_pair<A, B, F>(&self, a: &mut [A], b: &mut [B], chunk_len: usize, task: F)
    where
        A: Send,
        B: Send,
        F: Fn(usize, &mut [A], &mut [B]) + Sync,
    {
        let mut pairs: Vec<_> = chunk_pairs(a, b, chunk_len).collect();
        self.for_each_chunk(&mut pairs, 1, |_, pair| {
            for (start, a, b) in pair {
                task(*start, a, b);
            }
        });
    }
}

/// Everything on the calling thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serial;

impl Executor for Serial {
    fn threads(&self) -> usize {
        1
    }

    fn for_each_chunk<T, F>(&self, data: &mut [T], chunk_len: usize, task: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Sync,
    {
        // A chunk length of zero means one (as `chunks_mut` would panic on it), for the start
        // indexes too.
        let chunk_len = chunk_len.max(1);
        for (i, chunk) in data.chunks_mut(chunk_len).enumerate() {
            task(i * chunk_len, chunk);
        }
    }

    fn for_each_chunk_pair<A, B, F>(&self, a: &mut [A], b: &mut [B], chunk_len: usize, task: F)
    where
        A: Send,
        B: Send,
        F: Fn(usize, &mut [A], &mut [B]) + Sync,
    {
        for (start, a, b) in chunk_pairs(a, b, chunk_len) {
            task(start, a, b);
        }
    }
}

/// The matching chunks of two equally long slices, each with its start index; a chunk length of
/// zero means one, as in [`Serial::for_each_chunk`].
///
/// # Panics
/// If the slices differ in length.
fn chunk_pairs<'a, A, B>(
    a: &'a mut [A],
    b: &'a mut [B],
    chunk_len: usize,
) -> impl Iterator<Item = (usize, &'a mut [A], &'a mut [B])> {
    assert_eq!(a.len(), b.len(), "the slices must match");
    let chunk_len = chunk_len.max(1);
    a.chunks_mut(chunk_len)
        .zip(b.chunks_mut(chunk_len))
        .enumerate()
        .map(move |(i, (a, b))| (i * chunk_len, a, b))
}

/// Scoped standard-library threads, started for each call: for tests and tools without a task
/// pool of their own. (Bevy apps use the compute task pool instead.)
#[derive(Clone, Copy, Debug)]
pub struct ScopedThreads(pub usize);

impl Executor for ScopedThreads {
    fn threads(&self) -> usize {
        self.0.max(1)
    }

    fn for_each_chunk<T, F>(&self, data: &mut [T], chunk_len: usize, task: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Sync,
    {
        let chunk_len = chunk_len.max(1);
        let threads = self.threads();
        let chunks: Vec<(usize, &mut [T])> = data
            .chunks_mut(chunk_len)
            .enumerate()
            .map(|(i, chunk)| (i * chunk_len, chunk))
            .collect();
        let per_thread = chunks.len().div_ceil(threads).max(1);
        let task = &task;
        std::thread::scope(|scope| {
            let mut chunks = chunks.into_iter();
            loop {
                let batch: Vec<_> = chunks.by_ref().take(per_thread).collect();
                if batch.is_empty() {
                    break;
                }
                scope.spawn(move || {
                    for (start, chunk) in batch {
                        task(start, chunk);
                    }
                });
            }
        });
    }
}

/// Sets `out[i] = value(i)` for every index of `out`, on `executor`'s threads.
pub fn fill<T, F>(executor: &impl Executor, out: &mut [T], chunk_len: usize, value: F)
where
    T: Send,
    F: Fn(usize) -> T + Sync,
{
    executor.for_each_chunk(out, chunk_len, |start, chunk| {
        for (index, slot) in (start..).zip(chunk.iter_mut()) {
            *slot = value(index);
        }
    });
}

/// A chunk length that gives each thread several chunks (for balance) without making chunks
/// so small that the per-chunk overhead shows.
pub fn chunk_len_for(len: usize, threads: usize) -> usize {
    const CHUNKS_PER_THREAD: usize = 8;
    const MIN_CHUNK: usize = 256;
    len.div_ceil(threads.max(1) * CHUNKS_PER_THREAD)
        .max(MIN_CHUNK)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunk_length_of_zero_means_one_for_the_start_indexes_too() {
        fn check(executor: &impl Executor) {
            let mut starts = vec![usize::MAX; 5];
            executor.for_each_chunk(&mut starts, 0, |start, chunk| {
                assert_eq!(chunk.len(), 1);
                chunk[0] = start;
            });
            assert_eq!(starts, [0, 1, 2, 3, 4]);
            let (mut a, mut b) = (vec![usize::MAX; 3], vec![0u8; 3]);
            executor.for_each_chunk_pair(&mut a, &mut b, 0, |start, a, _| a[0] = start);
            assert_eq!(a, [0, 1, 2]);
        }
        check(&Serial);
        check(&ScopedThreads(2));
        let mut filled = vec![0; 4];
        fill(&Serial, &mut filled, 0, |i| i * 10);
        assert_eq!(filled, [0, 10, 20, 30]);
    }
}
