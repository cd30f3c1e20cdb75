//! bevy_flock3d compiles bevy_flock's source (`[lib] path` in Cargo.toml names
//! `../../src/lib.rs`) with the `flock_3d` cfg, which makes the components `Vec3` and turns the
//! few per-dimension parts on. A cfg rather than a feature: no feature set can give this crate
//! the 2D plugin, and no 3D line compiles into the 2D crate. The cfg reaches every target of the
//! package (tests and examples too), so shared test files can tell which crate they test.

fn main() {
    println!("cargo::rustc-cfg=flock_3d");
    println!("cargo::rerun-if-changed=build.rs");
}
