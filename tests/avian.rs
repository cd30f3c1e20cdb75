//! `AvoidColliders` (feature `avian`) through the plugin in 2D, with avian2d; the cases are
//! shared with bevy_flock3d's tests.
#![cfg(feature = "avian")]

mod common;

#[path = "avian/cases.rs"]
mod cases;
