//! Lockstep through the 3D plugin: a flock with every steering behaviour gives the same state
//! hash after 1,000 steps on every lane width this processor has (the shared
//! `tests/common/lockstep.rs`).

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

#[test]
fn every_lane_width_gives_the_same_state_hash() {
    common::lockstep::check_every_lane_width_gives_the_same_hash();
}
