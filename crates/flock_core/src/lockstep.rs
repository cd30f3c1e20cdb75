//! Lockstep: the same bits on every machine, and a cheap hash to check it each tick.
//!
//! Networked games that run the simulation on every machine (lockstep) need every machine to
//! compute the same bits. What the kernel guarantees, for one binary:
//!
//! - **Any thread count.** Work is split by boid, never inside a sum, so the result is the same
//!   whatever the [`Executor`](crate::Executor) and its threads.
//! - **Any x86-64 processor.** The grid's steering pass picks SSE, AVX or AVX-512 lanes at run
//!   time, and every width adds each boid's candidates in one fixed order (sixteen logical
//!   lanes and one reduction tree; see `index/grid/steer.rs`), so they give the same bits. The
//!   grid's lanes fuse the same multiply-adds on every width, in hardware or in software (a
//!   fused multiply-add is exactly rounded either way), the rest of the state's path fuses
//!   none (Rust never fuses on its own), and it makes no call to the system's maths library,
//!   whose `sin`, `cos` and `atan2` may pick different code on different processors: the few
//!   angles it needs go through the pure-Rust `libm` crate ([`sin`], [`cos`], [`atan2`]).
//!   Square roots and divisions are exactly rounded by IEEE 754 everywhere.
//!
//! What is checked: a test forces every lane width this processor has and compares
//! [`state_hash`] after 1,000 steps, under one and several threads, in 2D and 3D, and the
//! plugin's tests do the same through Bevy with every steering behaviour. What is **not**
//! tested: other architectures (aarch64's NEON lanes follow the same order, but nothing here
//! has run them), different binaries (another compiler version or other optimisation flags may
//! order or contract operations differently), and code outside the kernel's state path (a
//! game's own systems, Bevy's transforms, rendering).

// The deterministic trigonometry lives in `math`, beside the vectors; here as well because
// lockstep is where a game looks for it.
use crate::math::Vector;
pub use crate::math::{atan2, cos, sin};

/// A 64-bit hash of a flock's state: the bits of every position and velocity. Equal states
/// hash equal; a state that differs in any bit almost surely does not. The boids' order does
/// not matter (each boid's hash is added, wrapping), so a game may hash boids in whatever order
/// its query visits them. Not cryptographic: it detects a desync, nothing more.
///
/// # Panics
/// If the slices differ in length.
pub fn state_hash(positions: &[Vector], velocities: &[Vector]) -> u64 {
    assert_eq!(positions.len(), velocities.len(), "one velocity per boid");
    positions
        .iter()
        .zip(velocities)
        .fold(0, |hash, (position, velocity)| {
            hash.wrapping_add(boid_hash(*position, *velocity))
        })
}

/// One boid's share of [`state_hash`]: the bits of its position and velocity, mixed.
#[inline]
pub fn boid_hash(position: Vector, velocity: Vector) -> u64 {
    let mut hash = 0x9E37_79B9_7F4A_7C15;
    for value in position.to_array().into_iter().chain(velocity.to_array()) {
        hash = mix(hash ^ u64::from(value.to_bits()));
    }
    hash
}

/// One identified boid's share of a state hash: [`boid_hash`] with the boid's id mixed in, so
/// two boids that swap states (or ids) change the hash.
#[inline]
pub fn identified_boid_hash(id: u64, position: Vector, velocity: Vector) -> u64 {
    mix(boid_hash(position, velocity) ^ mix(id))
}

/// SplitMix64's finaliser: every input bit reaches every output bit. The hashes above, per-boid
/// random seeds and handshake fingerprints all mix with it.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Lanes;

    #[test]
    fn swapping_two_boids_states_changes_the_identified_hash() {
        let (a, b) = (Vector::splat(1.0), Vector::splat(2.0));
        let hash = |first: Vector, second: Vector| {
            identified_boid_hash(0, first, Vector::ZERO).wrapping_add(identified_boid_hash(
                1,
                second,
                Vector::ZERO,
            ))
        };
        assert_ne!(hash(a, b), hash(b, a));
        assert_eq!(hash(a, b), hash(a, b));
    }
    use crate::math::planar;
    use crate::parallel::{ScopedThreads, Serial};
    use crate::{Bounds, EdgeMode, Flock, FlockConfig, ForceLimit, SpeedMode};

    #[test]
    fn the_hash_sees_every_bit_but_not_the_order() {
        let positions = vec![planar(1.0, 2.0), planar(3.0, 4.0)];
        let velocities = vec![planar(5.0, 6.0), planar(7.0, 8.0)];
        let hash = state_hash(&positions, &velocities);
        let swapped = state_hash(
            &[positions[1], positions[0]],
            &[velocities[1], velocities[0]],
        );
        assert_eq!(hash, swapped);
        // One bit of one coordinate, of a position or of a velocity, changes the hash.
        for boid in 0..2 {
            for axis in 0..crate::DIMENSIONS {
                let mut nudged = positions.clone();
                nudged[boid][axis] = f32::from_bits(nudged[boid][axis].to_bits() ^ 1);
                assert_ne!(state_hash(&nudged, &velocities), hash);
                let mut nudged = velocities.clone();
                nudged[boid][axis] = f32::from_bits(nudged[boid][axis].to_bits() ^ 1);
                assert_ne!(state_hash(&positions, &nudged), hash);
            }
        }
        // A boid's position and velocity are not interchangeable.
        assert_ne!(
            state_hash(&velocities, &positions),
            hash,
            "positions and velocities swapped"
        );
        assert_eq!(state_hash(&[], &[]), 0);
    }

    /// Flocks that use every part of the kernel's step: all three rules, a limited field of
    /// view, per-boid weights, both force limits and speed modes, wrapping (with neighbours
    /// across the seam) and bouncing edges; dense enough that runs are longer than sixteen and
    /// end in partial batches.
    fn lockstep_configs() -> Vec<(&'static str, FlockConfig, u64)> {
        let wrapping = FlockConfig {
            view_angle_degrees: 270.0,
            speed_mode: SpeedMode::Constant,
            edges: EdgeMode::Wrap,
            wrap_neighbours: true,
            bounds: Bounds::centered(crate::world_size(400.0, 300.0)),
            ..FlockConfig::default()
        };
        let bouncing = FlockConfig {
            force_limit: ForceLimit::Rescale,
            speed_mode: SpeedMode::Clamp { min_speed: 20.0 },
            edges: EdgeMode::Bounce,
            bounds: Bounds::centered(crate::world_size(300.0, 200.0)),
            ..FlockConfig::default()
        };
        vec![("wrapping", wrapping, 1), ("bouncing", bouncing, 2)]
    }

    /// The flock of `seed`, boids with weights of their own.
    fn lockstep_flock(config: &FlockConfig, seed: u64) -> Flock {
        let mut flock = Flock::random(600, config, seed);
        for (boid, weights) in flock.weights_mut().iter_mut().enumerate() {
            weights.separation *= 1.0 + (boid % 3) as f32 * 0.5;
            weights.cohesion *= 1.0 - (boid % 4) as f32 * 0.2;
        }
        flock
    }

    #[test]
    fn every_lane_width_and_thread_count_gives_the_same_bits_after_1000_steps() {
        // Lanes::force is process-wide; other tests in this binary may step while it is set,
        // which changes nothing they see if the widths agree, which is what this checks.
        let widths: Vec<Lanes> = Lanes::ALL.into_iter().filter(|l| l.available()).collect();
        eprintln!("lane widths on this processor: {widths:?}");
        assert!(widths.contains(&Lanes::Sse));
        for (name, config, seed) in lockstep_configs() {
            let mut hashes = Vec::new();
            for &lanes in &widths {
                for threads in [1, 3] {
                    Lanes::force(Some(lanes));
                    let mut flock = lockstep_flock(&config, seed);
                    for _ in 0..1000 {
                        if threads == 1 {
                            flock.step_with(&config, 1.0 / 60.0, &Serial);
                        } else {
                            flock.step_with(&config, 1.0 / 60.0, &ScopedThreads(threads));
                        }
                    }
                    Lanes::force(None);
                    assert!(flock.positions().iter().all(|p| p.is_finite()));
                    hashes.push((lanes, threads, flock.state_hash()));
                }
            }
            eprintln!("{name}: {hashes:x?}");
            assert!(
                hashes.iter().all(|&(.., hash)| hash == hashes[0].2),
                "{name}: {hashes:x?}"
            );
        }
    }
}
