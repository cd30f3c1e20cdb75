//! What the kernel's tests share, in both dimensions. The shared test files (`steering.rs`,
//! `hostile_inputs.rs`, `index_equivalence.rs`) are compiled by `flock_core` and, through
//! `[[test]] path` in its manifest, by `flock_core3d`; each names its kernel `kernel`
//! (`extern crate flock_core as kernel`, or `flock_core3d` under the `flock_3d` cfg), as these
//! helpers do. The few that differ per dimension are here, not in the cases.
#![allow(dead_code)] // Each test file uses some of these.

use kernel::steering::{Shape, Vehicle, avoid_obstacles, combine, seek};
use kernel::{
    Bounds, DIMENSIONS, EdgeMode, FlockConfig, Grid, Vector, random_direction, random_point,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

pub mod forces;
pub use forces::*;

/// A number in `[0, 1)` from SplitMix64, advancing `state`.
pub fn unit(state: &mut u64) -> f32 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 40) as f32 / (1u64 << 24) as f32
}

/// The point `(x, y)` of a case in 2D, `(x, y, z)` in 3D: one literal for both dimensions,
/// with the depth a planar bug would miss only in 3D.
pub fn xyz(x: f32, y: f32, z: f32) -> Vector {
    Vector::from_slice(&[x, y, z])
}

/// A vector with `value` on the last axis (y in 2D, z in 3D) and zero on the others.
pub fn on_last_axis(value: f32) -> Vector {
    let mut v = Vector::ZERO;
    v[DIMENSIONS - 1] = value;
    v
}

/// `v` on the ground that [`kernel::steering::level`] lays things on: `v` itself in 2D, where
/// the plane is the ground; `v` with y = 0 in 3D.
pub fn on_the_ground(v: Vector) -> Vector {
    #[cfg(not(flock_3d))]
    return v;
    #[cfg(flock_3d)]
    return v.with_y(0.0);
}

/// The angle between two non-zero vectors, accurate for small and large angles.
pub fn angle_between(a: Vector, b: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return a.perp_dot(b).abs().atan2(a.dot(b));
    #[cfg(flock_3d)]
    return a.cross(b).length().atan2(a.dot(b));
}

/// A unit vector at right angles to the non-zero `v`.
pub fn perpendicular(v: Vector) -> Vector {
    #[cfg(not(flock_3d))]
    return v.perp().normalize();
    #[cfg(flock_3d)]
    return v.any_orthonormal_vector();
}

/// A ball obstacle: a circle in 2D, a sphere in 3D.
pub fn ball(centre: Vector, radius: f32) -> Shape {
    #[cfg(not(flock_3d))]
    return Shape::Circle { centre, radius };
    #[cfg(flock_3d)]
    return Shape::Sphere { centre, radius };
}

/// A box obstacle along the axes: a rectangle in 2D, a cuboid in 3D.
pub fn aligned_box(centre: Vector, half_size: Vector) -> Shape {
    #[cfg(not(flock_3d))]
    return Shape::Rect { centre, half_size };
    #[cfg(flock_3d)]
    return Shape::Cuboid { centre, half_size };
}

/// How many cells `grid` has along each axis.
pub fn cells_per_axis(grid: &Grid) -> Vec<u32> {
    let cells = grid.dimensions();
    #[cfg(not(flock_3d))]
    return vec![cells.0, cells.1];
    #[cfg(flock_3d)]
    return vec![cells.0, cells.1, cells.2];
}

/// The steering tests' time step, and their vehicles' force limit and mass.
pub const DT: f32 = 1.0 / 60.0;
pub const MAX_FORCE: f32 = 400.0;
pub const MASS: f32 = 1.0;

/// A vehicle at `position` moving at `velocity`, whose response time is one frame (the
/// default: arrive is then critically damped or better, see `arrive`).
pub fn vehicle(position: Vector, velocity: Vector, max_speed: f32) -> Vehicle {
    Vehicle {
        position,
        velocity,
        max_speed,
        response_time: DT,
    }
}

/// One Euler step as the plugin takes it: combine, `v += a dt`, clamp to max speed, move.
pub fn step(vehicle: &mut Vehicle, force: Vector) {
    let acceleration = combine(force, MAX_FORCE, MASS);
    vehicle.velocity = (vehicle.velocity + acceleration * DT).clamp_length_max(vehicle.max_speed);
    vehicle.position += vehicle.velocity * DT;
}

/// Where a vehicle seeking past the obstacles goes: from the origin along +x towards
/// `(400, 0)`, avoiding `obstacle`. The closest it comes to its outline (`outline_distance`,
/// negative inside) and where it ends.
pub fn seek_past(obstacle: Shape, outline_distance: impl Fn(Vector) -> f32) -> (f32, Vector) {
    let target = Vector::X * 400.0;
    let mut v = vehicle(Vector::ZERO, Vector::X * 100.0, 100.0);
    let mut closest = f32::MAX;
    for _ in 0..600 {
        let force = seek(&v, target) + 3.0 * avoid_obstacles(&v, [&obstacle], 120.0, 10.0);
        step(&mut v, force);
        closest = closest.min(outline_distance(v.position));
    }
    (closest, v.position)
}

/// `count` boids uniformly in `area`, with random velocities up to `max_speed` in random
/// directions (on the circle, or the sphere).
pub fn random_state(count: usize, area: Bounds, max_speed: f32, seed: u64) -> State {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let positions = (0..count).map(|_| random_point(&area, &mut rng)).collect();
    let velocities = (0..count)
        .map(|_| random_direction(&mut rng) * rng.random_range(0.0..max_speed))
        .collect();
    State {
        positions,
        velocities,
    }
}

/// Where the random flocks live: the default bounds in 2D (1280 x 720); in 3D a cube 400
/// wide. Either way 2,000 boids have about 17 neighbours each within 50 (the default 3D box,
/// 1280 x 720 x 720, would leave them few).
pub fn world() -> Bounds {
    #[cfg(not(flock_3d))]
    return Bounds::default();
    #[cfg(flock_3d)]
    return Bounds::centered(Vector::splat(400.0));
}

/// The default settings (radii 25 / 50 / 50, neighbours across the seams) in [`world`], with
/// `edges`. In 2D with wrapping edges, exactly `FlockConfig::default()`.
pub fn in_world(edges: EdgeMode) -> FlockConfig {
    FlockConfig {
        bounds: world(),
        edges,
        ..FlockConfig::default()
    }
}
