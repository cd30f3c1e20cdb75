//! Once a flock stops growing, a step on the grid allocates nothing: every buffer is kept.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use flock_core::{Flock, FlockConfig, IndexKind, Serial};

/// Counts allocations made on threads that asked for it (the steps run on the `Serial`
/// executor, on the test's own thread). The test harness's main thread allocates now and then
/// while it waits, more often on a loaded machine; counting it made the test flaky.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // A const-initialised `Cell` needs no allocation and no destructor, so the allocator can
    // read it.
    static COUNT_HERE: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNT_HERE.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards every call to the system allocator unchanged, only counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees for `alloc` are passed on as they are.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees for `realloc` are passed on as they are.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn grid_steps_allocate_nothing_after_warm_up() {
    COUNT_HERE.set(true);
    for view_angle_degrees in [360.0, 200.0] {
        let config = FlockConfig {
            index: IndexKind::Grid,
            view_angle_degrees,
            ..FlockConfig::default()
        };
        let mut flock = Flock::random(5_000, &config, 4);
        for _ in 0..3 {
            flock.step_with(&config, 1.0 / 60.0, &Serial);
        }
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for _ in 0..20 {
            flock.step_with(&config, 1.0 / 60.0, &Serial);
        }
        let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
        assert_eq!(
            allocations, 0,
            "view {view_angle_degrees}: {allocations} allocations in 20 steps"
        );
    }
}
