//! The 3D GPU kernel compiles the 2D crate's source (`[lib] path` in Cargo.toml names
//! `../flock_gpu/src/lib.rs`) with the `flock_3d` cfg, as flock_core3d does: `Vector` becomes
//! `Vec3` and the shaders get the 3D prelude.

fn main() {
    println!("cargo::rustc-cfg=flock_3d");
    println!("cargo::rerun-if-changed=build.rs");
}
