//! The 3D kernel compiles the 2D kernel's source (`[lib] path` in Cargo.toml names
//! `../flock_core/src/lib.rs`) with the `flock_3d` cfg, which turns `Vector` into `Vec3` and the
//! few per-dimension parts on. A cfg rather than a feature: no feature set (`default-features =
//! false` included) can give this crate the 2D kernel.

fn main() {
    println!("cargo::rustc-cfg=flock_3d");
    println!("cargo::rerun-if-changed=build.rs");
}
