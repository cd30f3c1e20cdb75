//! Paths, leaders, offset pursuit and formations (Reynolds 1999) through the plugin in 2D; the
//! cases are shared with bevy_flock3d's tests.

mod common;

#[path = "reynolds/cases.rs"]
mod cases;
