//! bevy_flock3d compiles bevy_flock's source (`src` is a link to `../../src`) with the
//! `flock_3d` cfg, which makes the components `Vec3` and turns the few per-dimension parts on
//! (`src/dimension.rs`). A cfg rather than a feature: no feature set can give this crate the
//! 2D plugin, and no 3D line compiles into the 2D crate.

fn main() {
    println!("cargo::rustc-cfg=flock_3d");
    println!("cargo::rerun-if-changed=build.rs");
}
