//! The WGSL sources, each with the dimension's prelude in front: the shaders are written once
//! against `Vector` and `DIMENSIONS`.

#[cfg(not(flock_3d))]
const PRELUDE: &str = "alias Vector = vec2<f32>;
const DIMENSIONS: u32 = 2u;
fn vector_of(v: vec4<f32>) -> Vector { return v.xy; }
";

/// The geometry that differs between the dimensions.
#[cfg(not(flock_3d))]
const GEOMETRY: &str = include_str!("shaders/plane.wgsl");

#[cfg(flock_3d)]
const PRELUDE: &str = "alias Vector = vec3<f32>;
const DIMENSIONS: u32 = 3u;
fn vector_of(v: vec4<f32>) -> Vector { return v.xyz; }
";

/// The geometry that differs between the dimensions.
#[cfg(flock_3d)]
const GEOMETRY: &str = include_str!("shaders/space.wgsl");

const COMMON: &str = include_str!("shaders/common.wgsl");

/// The query passes: count and find the nearest boids to a point.
pub(crate) fn query_source() -> String {
    [PRELUDE, include_str!("shaders/query.wgsl")].concat()
}

/// The grid passes: clear, count, scan, scatter.
pub(crate) fn grid_source() -> String {
    [PRELUDE, COMMON, include_str!("shaders/grid.wgsl")].concat()
}

/// The steering, integration and edges pass, with the gameplay (species, hunts, points,
/// obstacles) it runs when its `GAMEPLAY` constant is set.
pub(crate) fn steer_source() -> String {
    [
        PRELUDE,
        COMMON,
        GEOMETRY,
        include_str!("shaders/gameplay.wgsl"),
        include_str!("shaders/obstacles.wgsl"),
        include_str!("shaders/containment.wgsl"),
        include_str!("shaders/steer.wgsl"),
    ]
    .concat()
}
