//! Containment on the device: every boid stays inside one [`Enclosure`] (a polygon in 2D, a box
//! in 3D) as flock_core's `contain` steers it, as the Bevy plugin's `StayInside` with a `Pen`
//! does. Checked on the host and laid out as the shaders' `Enclosure` uniform
//! (shaders/containment.wgsl) reads it.

use flock_core::steering::Enclosure;
use flock_core::{ConfigError, DIMENSIONS, FlockConfig, Vector};

use crate::error::GpuError;
use crate::layout::to_bytes;
use crate::species::{check_size, check_weight};

/// The most vertices an enclosure's polygon has (`vertices` in shaders/containment.wgsl).
pub const MAX_ENCLOSURE_VERTICES: usize = 64;

/// Where every boid stays, and how (the Bevy plugin's `StayInside`): probe `look_ahead` ahead
/// (and to the sides) and turn back from the enclosure's boundary; a boid outside heads
/// straight back in. The force is weighted by `weight` in each boid's sum.
#[derive(Clone, Debug, PartialEq)]
pub struct Containment {
    /// The region to stay inside.
    pub enclosure: Enclosure,
    /// How far ahead to probe, world units; more than zero.
    pub look_ahead: f32,
    /// How much this force counts in a boid's sum.
    pub weight: f32,
}

/// The enclosures as the shaders number them (`ENCLOSURE_*` in shaders/containment.wgsl).
#[cfg(not(flock_3d))]
const POLYGON: u32 = 0;
#[cfg(flock_3d)]
const BOX: u32 = 1;

/// Checks containment: a valid enclosure ([`Enclosure::is_valid`]: a polygon of at least three
/// finite vertices, a box with a finite centre and positive finite half sizes) within
/// [`FlockConfig::MAX_MAGNITUDE`] of the origin, a polygon of at most
/// [`MAX_ENCLOSURE_VERTICES`]; a look-ahead more than zero and within
/// [`FlockConfig::MAX_MAGNITUDE`]; a finite weight.
pub fn check_containment(containment: &Containment) -> Result<(), GpuError> {
    check_settings(containment).map_err(GpuError::Containment)?;
    let enclosure = &containment.enclosure;
    if !enclosure.is_valid() {
        return Err(GpuError::Enclosure(
            "not a region: a polygon of fewer than three vertices or one not finite, or a box \
             not finite or not of positive size",
        ));
    }
    let points = enclosure_points(enclosure);
    if points.len() > MAX_ENCLOSURE_VERTICES {
        return Err(GpuError::TooMany {
            what: "enclosure vertices",
            requested: points.len(),
            limit: MAX_ENCLOSURE_VERTICES,
        });
    }
    let far = points
        .iter()
        .flat_map(|point| point.to_array())
        .any(|value| value.abs() > FlockConfig::MAX_MAGNITUDE);
    if far {
        return Err(GpuError::Enclosure(
            "it lies or reaches beyond 1e9 (FlockConfig::MAX_MAGNITUDE)",
        ));
    }
    Ok(())
}

fn check_settings(containment: &Containment) -> Result<(), ConfigError> {
    check_size("look_ahead", containment.look_ahead)?;
    if containment.look_ahead == 0.0 {
        return Err(ConfigError {
            field: "look_ahead",
            value: 0.0,
            reason: "must be more than zero",
        });
    }
    check_weight("weight", containment.weight)
}

/// The points that say how far the enclosure reaches: a polygon's vertices; a box's centre
/// and its two far corners.
fn enclosure_points(enclosure: &Enclosure) -> Vec<Vector> {
    #[cfg(not(flock_3d))]
    {
        let Enclosure::Polygon(polygon) = enclosure;
        polygon.vertices().to_vec()
    }
    #[cfg(flock_3d)]
    {
        let &Enclosure::Cuboid { centre, half_size } = enclosure;
        vec![centre, centre - half_size, centre + half_size]
    }
}

/// A vector as a `vec4`.
fn padded(v: Vector) -> [f32; 4] {
    let mut out = [0.0; 4];
    out[..DIMENSIONS].copy_from_slice(&v.to_array()[..DIMENSIONS]);
    out
}

/// The `Enclosure` uniform: whether there is one, its kind and vertex count; a box's centre
/// and half size; the look-ahead and weight; then [`MAX_ENCLOSURE_VERTICES`] vertices, unused
/// ones zero. `containment` is checked.
pub(crate) fn enclosure_bytes(containment: Option<&Containment>) -> Vec<u8> {
    let mut words: Vec<[u8; 4]> = Vec::with_capacity(ENCLOSURE_WORDS);
    let Some(containment) = containment else {
        words.resize(ENCLOSURE_WORDS, [0; 4]);
        return to_bytes(words);
    };
    #[cfg(not(flock_3d))]
    let (kind, centre, half_size, vertices) = {
        let Enclosure::Polygon(polygon) = &containment.enclosure;
        (POLYGON, Vector::ZERO, Vector::ZERO, polygon.vertices())
    };
    #[cfg(flock_3d)]
    let (kind, centre, half_size, vertices): (u32, Vector, Vector, &[Vector]) = {
        let &Enclosure::Cuboid { centre, half_size } = &containment.enclosure;
        (BOX, centre, half_size, &[])
    };
    words.extend([1, kind, vertices.len() as u32, 0].map(u32::to_le_bytes));
    words.extend(padded(centre).map(f32::to_le_bytes));
    words.extend(padded(half_size).map(f32::to_le_bytes));
    words.extend([containment.look_ahead, containment.weight, 0.0, 0.0].map(f32::to_le_bytes));
    words.extend(
        vertices
            .iter()
            .flat_map(|&vertex| padded(vertex))
            .map(f32::to_le_bytes),
    );
    words.resize(ENCLOSURE_WORDS, [0; 4]);
    to_bytes(words)
}

/// The `Enclosure` uniform's size in words and bytes.
const ENCLOSURE_WORDS: usize = 16 + MAX_ENCLOSURE_VERTICES * 4;
pub(crate) const ENCLOSURE_BYTES: u64 = ENCLOSURE_WORDS as u64 * 4;
