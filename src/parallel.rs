//! Running the kernel's parallel work on Bevy's compute task pool.

use bevy::app::{TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::tasks::TaskPool;
use flock_core::Executor;

/// A [`flock_core::Executor`] on a Bevy [`TaskPool`]: the flock's steering runs on Bevy's own
/// threads, so no second pool competes with them.
#[derive(Clone, Copy, Debug)]
pub struct TaskPoolExecutor<'a>(pub &'a TaskPool);

impl Executor for TaskPoolExecutor<'_> {
    fn threads(&self) -> usize {
        // The thread that opens the scope works on its tasks too.
        self.0.thread_num() + 1
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

/// A [`TaskPoolPlugin`] that gives the compute pool one thread per core.
///
/// Bevy's default split leaves a two-core machine one compute thread (the I/O and async pools
/// take one each), so the flock's steering would mostly use one core. The I/O and async
/// threads sleep while there is no I/O, so sharing the cores with them costs little. Replace
/// the default plugin with this one to steer on all cores:
///
/// ```no_run
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
