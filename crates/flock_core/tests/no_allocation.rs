//! Once a flock stops growing, a step on the grid allocates nothing: every buffer is kept. The
//! same holds for ORCA's contact pass, chunked buffers and all.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use flock_core::steering::{
    ContactPass, ContactScratch, CrowdAgent, OrcaObstacles, OrcaParams, Shape,
};
use flock_core::{Flock, FlockConfig, IndexKind, Serial, Vector};

/// Counts allocations made on threads that asked for it, each thread its own count (the steps
/// run on the `Serial` executor, on the test's own thread): the test harness's main thread
/// allocates now and then while it waits, more often on a loaded machine, and the tests run
/// side by side, so a count shared between threads would see allocations not the test's own.
struct Counting;

thread_local! {
    // Const-initialised `Cell`s need no allocation and no destructor, so the allocator can
    // use them.
    static COUNT_HERE: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    if COUNT_HERE.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
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
        let before = ALLOCATIONS.get();
        for _ in 0..20 {
            flock.step_with(&config, 1.0 / 60.0, &Serial);
        }
        let allocations = ALLOCATIONS.get() - before;
        assert_eq!(
            allocations, 0,
            "view {view_angle_degrees}: {allocations} allocations in 20 steps"
        );
    }
}

#[test]
fn contact_passes_allocate_nothing_after_warm_up() {
    // A dense lattice, jittered, with boxes among the agents: many pairs, many chunks.
    let start: Vec<CrowdAgent> = (0..4_000)
        .map(|i| {
            let (x, y) = ((i % 64) as f32, (i / 64) as f32);
            let jitter = ((i * 7919) % 13) as f32 * 0.05;
            let params = OrcaParams::rvo2(3.0, 10, 2.0, 1.0, 0.6);
            CrowdAgent::standing(Vector::new(x + jitter, y), Vector::ZERO, 1.0, params)
        })
        .collect();
    let shapes: Vec<Shape> = (0..16)
        .map(|i| Shape::Rect {
            centre: Vector::new(8.0 * (i % 4) as f32 + 4.0, 16.0 * (i / 4) as f32 + 8.0),
            half_size: Vector::splat(1.5),
        })
        .collect();
    let pass = ContactPass {
        iterations: 20,
        ..ContactPass::default()
    };
    for obstacles in [
        OrcaObstacles::default(),
        OrcaObstacles::from_shapes(&shapes),
    ] {
        let mut agents = start.clone();
        let mut scratch = ContactScratch::default();
        COUNT_HERE.set(true);
        pass.separate(&mut agents, &obstacles, &mut scratch);
        let before = ALLOCATIONS.get();
        for _ in 0..5 {
            agents.copy_from_slice(&start);
            pass.separate(&mut agents, &obstacles, &mut scratch);
        }
        let allocations = ALLOCATIONS.get() - before;
        COUNT_HERE.set(false);
        assert_eq!(allocations, 0, "{allocations} allocations in 5 passes");
    }
}
