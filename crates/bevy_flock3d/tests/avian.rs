//! `AvoidColliders` (feature `avian`) through the plugin in 3D, with avian3d: the same cases as
//! bevy_flock's `tests/avian.rs`, on the ground (x-z).
#![cfg(feature = "avian")]

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

#[path = "../../../tests/avian/cases.rs"]
mod cases;
