//! Once a flock stops growing, a step on the grid allocates nothing: every buffer is kept.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use flock_core::{Flock, FlockConfig, IndexKind, Serial};

/// Counts allocations made by this test binary.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged, only counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees for `alloc` are passed on as they are.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees for `realloc` are passed on as they are.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn grid_steps_allocate_nothing_after_warm_up() {
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
