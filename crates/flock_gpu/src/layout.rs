//! The boid buffer's layout, as WGSL lays out `struct Boid { position: Vector, velocity: Vector }`:
//! 2D `[x, y, vx, vy]` (16 bytes); 3D `[x, y, z, _, vx, vy, vz, _]` (32 bytes: a `vec3<f32>` is
//! aligned to 16). A renderer reading the buffer uses the same layout.

use flock_core::{DIMENSIONS, Vector};

/// Floats a vector takes in the buffer, padding included.
const VECTOR_FLOATS: usize = if DIMENSIONS == 3 { 4 } else { 2 };

/// Floats a boid takes in the buffer.
pub(crate) const BOID_FLOATS: usize = 2 * VECTOR_FLOATS;

/// Bytes a boid takes in the buffer: 16 in 2D, 32 in 3D.
pub const BOID_BYTES: usize = BOID_FLOATS * 4;

/// A boid as the buffer holds it.
pub fn boid_to_floats(position: Vector, velocity: Vector) -> [f32; BOID_FLOATS] {
    let mut floats = [0.0; BOID_FLOATS];
    for axis in 0..DIMENSIONS {
        floats[axis] = position[axis];
        floats[VECTOR_FLOATS + axis] = velocity[axis];
    }
    floats
}

/// A boid's position and velocity from the buffer's floats.
pub fn boid_from_floats(floats: &[f32]) -> (Vector, Vector) {
    let mut position = Vector::ZERO;
    let mut velocity = Vector::ZERO;
    for axis in 0..DIMENSIONS {
        position[axis] = floats[axis];
        velocity[axis] = floats[VECTOR_FLOATS + axis];
    }
    (position, velocity)
}

/// Floats as the little-endian bytes the device reads.
pub(crate) fn to_bytes(words: impl IntoIterator<Item = [u8; 4]>) -> Vec<u8> {
    words.into_iter().flatten().collect()
}

/// Floats from the bytes of a read-back.
pub(crate) fn floats_of(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|word| f32::from_le_bytes([word[0], word[1], word[2], word[3]]))
        .collect()
}
