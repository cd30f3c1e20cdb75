//! Paths, leaders, offset pursuit and formations (Reynolds 1999) through the plugin in 3D: the
//! same cases as bevy_flock's `tests/reynolds.rs`, on the ground (x-z).

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

mod common;

#[path = "../../../tests/reynolds/cases.rs"]
mod cases;
