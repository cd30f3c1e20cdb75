//! Running the kernel's parallel work on Bevy's compute task pool.

use bevy::app::{TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::tasks::{ComputeTaskPool, TaskPool};
use flock_core::Executor;

/// A [`flock_core::Executor`] on a Bevy [`TaskPool`]: the flock's steering runs on Bevy's own
/// threads, so no second pool competes with them.
#[derive(Clone, Copy, Debug)]
pub struct TaskPoolExecutor<'a>(pub &'a TaskPool);

impl Executor for TaskPoolExecutor<'_> {
    fn threads(&self) -> usize {
        // The thread that opens the scope works on its tasks too, unless it is one of the
        // pool's own (as a system of Bevy's multi-threaded executor is): either way no more
        // threads run at once than there are cores. Counting more would only cut the work
        // finer, and the grid's build into more parts, each a pass over every cell.
        (self.0.thread_num() + 1).min(cores())
    }

    fn for_each_chunk<T, F>(&self, data: &mut [T], chunk_len: usize, task: F)
    where
        T: Send,
        F: Fn(usize, &mut [T]) + Sync,
    {
        let chunk_len = chunk_len.max(1);
        if data.len() <= chunk_len {
            task(0, data);
            return;
        }
        let task = &task;
        self.0.scope(|scope| {
            for (i, chunk) in data.chunks_mut(chunk_len).enumerate() {
                scope.spawn(async move { task(i * chunk_len, chunk) });
            }
        });
    }
}

/// Bevy's compute task pool, made with Bevy's defaults if no `TaskPoolPlugin` made it.
pub(crate) fn compute_pool() -> TaskPoolExecutor<'static> {
    TaskPoolExecutor(ComputeTaskPool::get_or_init(TaskPool::default))
}

/// The cores this process may run on, asked once (the standard library reads the system's
/// limits every time).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(bevy::tasks::available_parallelism)
}

/// A [`TaskPoolPlugin`] that gives the compute pool one thread per core.
///
/// Bevy's default split leaves a two-core machine one compute thread (the I/O and async pools
/// take one each), so the flock's steering would mostly use one core. The I/O and async
/// threads sleep while there is no I/O, so sharing the cores with them costs little. Replace
/// the default plugin with this one to steer on all cores:
///
/// ```no_run
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// App::new()
///     .add_plugins(DefaultPlugins.set(bevy_flock::all_cores_for_compute()))
///     .add_plugins(BoidsPlugin::default())
///     .run();
/// ```
pub fn all_cores_for_compute() -> TaskPoolPlugin {
    let mut plugin = TaskPoolPlugin::default();
    plugin.task_pool_options.compute = TaskPoolThreadAssignmentPolicy {
        // Bevy hands compute whatever the other pools leave, which is nothing on two cores;
        // the minimum is what gets the threads.
        min_threads: bevy::tasks::available_parallelism(),
        max_threads: usize::MAX,
        percent: 1.0,
        on_thread_spawn: None,
        on_thread_destroy: None,
    };
    plugin
}

#[cfg(test)]
mod tests {
    use bevy::tasks::TaskPoolBuilder;

    use super::*;

    #[test]
    fn a_pool_counts_its_caller_but_never_more_threads_than_cores() {
        let cores = cores();
        let small = TaskPoolBuilder::new().num_threads(1).build();
        assert_eq!(TaskPoolExecutor(&small).threads(), 2.min(cores));
        // More threads than cores (an app that asked for them, or a pool of one thread per
        // core plus the caller) run no more at once than the cores.
        let large = TaskPoolBuilder::new().num_threads(cores + 3).build();
        assert_eq!(TaskPoolExecutor(&large).threads(), cores);
    }
}
