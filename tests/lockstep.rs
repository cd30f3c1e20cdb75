//! Lockstep through the plugin: a flock with every steering behaviour gives the same state hash
//! after 1,000 steps on every lane width this processor has (`tests/common/lockstep.rs`; the
//! thread count is covered by `tests/determinism.rs`). `bevy_flock3d` runs it in 3D too
//! (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

#[test]
fn every_lane_width_gives_the_same_state_hash() {
    common::lockstep::check_every_lane_width_gives_the_same_hash();
}
