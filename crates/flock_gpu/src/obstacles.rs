//! Obstacles on the device: flock_core's [`Shape`]s, avoided as its `avoid_obstacles` does
//! (the Bevy plugin's `AvoidObstacles` with `Obstacle`s), by every boid with one
//! [`ObstacleAvoidance`]. Checked on the host and laid out as the shaders' `Obstacles` uniform
//! (shaders/obstacles.wgsl) reads them.

use flock_core::steering::Shape;
use flock_core::{ConfigError, DIMENSIONS, FlockConfig, Vector};

use crate::error::GpuError;
use crate::layout::to_bytes;
use crate::species::{check_size, check_weight};

/// The most obstacles a flock avoids at once (`MAX_OBSTACLES` in shaders/obstacles.wgsl):
/// every boid asks every obstacle, so they are few, and they fit a small uniform buffer.
pub const MAX_OBSTACLES: usize = 32;

/// The most polygon vertices, over every polygon (in 2D; space has no polygons).
pub const MAX_POLYGON_VERTICES: usize = 256;

/// How boids avoid the obstacles (the Bevy plugin's `AvoidObstacles`): a corridor
/// `clearance` wide on each side and `look_ahead` long, the force weighted by `weight` in each
/// boid's sum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleAvoidance {
    /// How far ahead to look; more than zero.
    pub look_ahead: f32,
    /// Room to leave beside an obstacle.
    pub clearance: f32,
    /// How much this force counts in a boid's sum.
    pub weight: f32,
}

/// The shapes as the shaders number them (`SHAPE_*` in shaders/obstacles.wgsl).
const BALL: u32 = 0;
const BOX: u32 = 1;
const TURNED_BOX: u32 = 2;
#[cfg(flock_3d)]
const CAPSULE: u32 = 3;
#[cfg(not(flock_3d))]
const POLYGON: u32 = 4;

/// Checks obstacles and how they are avoided: at most [`MAX_OBSTACLES`] and
/// [`MAX_POLYGON_VERTICES`] (more is an error, never a truncation); each shape valid
/// ([`Shape::is_valid`]), within [`FlockConfig::MAX_MAGNITUDE`] of the origin and in size, a
/// rotation that can be inverted; a look-ahead more than zero and a clearance not negative,
/// both finite and within [`FlockConfig::MAX_MAGNITUDE`], a finite weight. None is fine.
pub fn check_obstacles(shapes: &[Shape], avoidance: &ObstacleAvoidance) -> Result<(), GpuError> {
    check_avoidance(avoidance).map_err(GpuError::Avoidance)?;
    if shapes.len() > MAX_OBSTACLES {
        return Err(GpuError::TooMany {
            what: "obstacles",
            requested: shapes.len(),
            limit: MAX_OBSTACLES,
        });
    }
    let vertices: usize = shapes.iter().map(vertex_count).sum();
    if vertices > MAX_POLYGON_VERTICES {
        return Err(GpuError::TooMany {
            what: "polygon vertices",
            requested: vertices,
            limit: MAX_POLYGON_VERTICES,
        });
    }
    for (index, shape) in shapes.iter().enumerate() {
        check_shape(shape).map_err(|reason| GpuError::Obstacle { index, reason })?;
    }
    Ok(())
}

fn check_avoidance(avoidance: &ObstacleAvoidance) -> Result<(), ConfigError> {
    check_size("look_ahead", avoidance.look_ahead)?;
    if avoidance.look_ahead == 0.0 {
        return Err(ConfigError {
            field: "look_ahead",
            value: 0.0,
            reason: "must be more than zero",
        });
    }
    check_size("clearance", avoidance.clearance)?;
    check_weight("weight", avoidance.weight)
}

fn check_shape(shape: &Shape) -> Result<(), &'static str> {
    if !shape.is_valid() {
        return Err(
            "not a shape: a value that is not finite, a negative size, a rotation that \
                    is not one, or a polygon of fewer than three vertices",
        );
    }
    // A valid shape's bounding ball is not finite only when its size overflows: too far too.
    let far = shape.bounding_ball().is_none_or(|(centre, radius)| {
        radius > FlockConfig::MAX_MAGNITUDE
            || (centre.to_array().iter()).any(|value| value.abs() > FlockConfig::MAX_MAGNITUDE)
    });
    if far {
        return Err("it lies or reaches beyond 1e9 (FlockConfig::MAX_MAGNITUDE)");
    }
    #[cfg(not(flock_3d))]
    if let Shape::RotatedRect { rotation, .. } = shape
        && !rotation.inverse().is_finite()
    {
        return Err("its rotation cannot be inverted");
    }
    Ok(())
}

fn vertex_count(shape: &Shape) -> usize {
    vertices_of(shape).len()
}

/// A polygon's vertices; other shapes have none.
fn vertices_of(shape: &Shape) -> &[Vector] {
    match shape {
        #[cfg(not(flock_3d))]
        Shape::Polygon(polygon) => polygon.vertices(),
        _ => &[],
    }
}

/// A vector as a `vec4`, padded with `w`.
fn padded(v: Vector, w: f32) -> [f32; 4] {
    let mut out = [0.0, 0.0, 0.0, w];
    out[..DIMENSIONS].copy_from_slice(&v.to_array()[..DIMENSIONS]);
    out
}

/// One obstacle as the uniform holds it: centre, size, the rotation's and its inverse's
/// columns, then the shape, first vertex and vertex count.
struct Packed {
    centre: [f32; 4],
    size: [f32; 4],
    rotation: [[f32; 4]; 3],
    inverse: [[f32; 4]; 3],
    shape: [u32; 4],
}

impl Packed {
    fn new(kind: u32, centre: Vector, size: [f32; 4]) -> Self {
        Self {
            centre: padded(centre, 0.0),
            size,
            rotation: [[0.0; 4]; 3],
            inverse: [[0.0; 4]; 3],
            shape: [kind, 0, 0, 0],
        }
    }

    fn words(&self) -> impl Iterator<Item = [u8; 4]> + '_ {
        let floats = [self.centre, self.size]
            .into_iter()
            .chain(self.rotation)
            .chain(self.inverse)
            .flatten()
            .map(f32::to_le_bytes);
        floats.chain(self.shape.map(u32::to_le_bytes))
    }
}

/// Packs one shape whose vertices (a polygon's) start at `first_vertex` in the table.
fn pack(shape: &Shape, first_vertex: u32) -> Packed {
    let packed = match *shape {
        #[cfg(not(flock_3d))]
        Shape::Circle { centre, radius } => Packed::new(BALL, centre, [radius, 0.0, 0.0, 0.0]),
        #[cfg(flock_3d)]
        Shape::Sphere { centre, radius } => Packed::new(BALL, centre, [radius, 0.0, 0.0, 0.0]),
        #[cfg(not(flock_3d))]
        Shape::Rect { centre, half_size } => Packed::new(BOX, centre, padded(half_size, 0.0)),
        #[cfg(flock_3d)]
        Shape::Cuboid { centre, half_size } => Packed::new(BOX, centre, padded(half_size, 0.0)),
        #[cfg(not(flock_3d))]
        Shape::RotatedRect {
            centre,
            half_size,
            rotation,
        } => {
            let inverse = rotation.inverse();
            Packed {
                rotation: [
                    padded(rotation.x_axis, 0.0),
                    padded(rotation.y_axis, 0.0),
                    [0.0; 4],
                ],
                inverse: [
                    padded(inverse.x_axis, 0.0),
                    padded(inverse.y_axis, 0.0),
                    [0.0; 4],
                ],
                ..Packed::new(TURNED_BOX, centre, padded(half_size, 0.0))
            }
        }
        #[cfg(flock_3d)]
        Shape::OrientedCuboid {
            centre,
            half_size,
            rotation,
        } => {
            // A rotation's columns: where it turns each axis.
            let columns = |turn: flock_core::steering::Rotation| {
                [Vector::X, Vector::Y, Vector::Z].map(|axis| padded(turn * axis, 0.0))
            };
            Packed {
                rotation: columns(rotation),
                inverse: columns(rotation.inverse()),
                ..Packed::new(TURNED_BOX, centre, padded(half_size, 0.0))
            }
        }
        #[cfg(flock_3d)]
        Shape::Capsule { start, end, radius } => Packed::new(CAPSULE, start, padded(end, radius)),
        #[cfg(not(flock_3d))]
        Shape::Polygon(ref polygon) => Packed::new(POLYGON, polygon.centre(), [0.0; 4]),
    };
    Packed {
        shape: [packed.shape[0], first_vertex, vertex_count(shape) as u32, 0],
        ..packed
    }
}

/// The `Obstacles` uniform: the count, the avoidance, [`MAX_OBSTACLES`] obstacles, then
/// [`MAX_POLYGON_VERTICES`] vertices, unused ones zero. `shapes` are checked.
pub(crate) fn obstacles_bytes(shapes: &[Shape], avoidance: &ObstacleAvoidance) -> Vec<u8> {
    let mut vertices: Vec<[f32; 4]> = Vec::new();
    let mut packed = Vec::with_capacity(shapes.len());
    for shape in shapes {
        packed.push(pack(shape, vertices.len() as u32));
        vertices.extend(vertices_of(shape).iter().map(|&vertex| padded(vertex, 0.0)));
    }
    let mut words: Vec<[u8; 4]> = Vec::with_capacity(OBSTACLES_WORDS);
    words.extend([shapes.len() as u32, vertices.len() as u32, 0, 0].map(u32::to_le_bytes));
    words.extend(
        [
            avoidance.look_ahead,
            avoidance.clearance,
            avoidance.weight,
            0.0,
        ]
        .map(f32::to_le_bytes),
    );
    for obstacle in &packed {
        words.extend(obstacle.words());
    }
    words.resize(HEADER_WORDS + MAX_OBSTACLES * OBSTACLE_WORDS, [0; 4]);
    words.extend(vertices.iter().flatten().map(|value| value.to_le_bytes()));
    words.resize(OBSTACLES_WORDS, [0; 4]);
    to_bytes(words)
}

/// Words of the header (count, avoidance), of one obstacle, and of the whole uniform.
const HEADER_WORDS: usize = 8;
const OBSTACLE_WORDS: usize = 9 * 4;
const OBSTACLES_WORDS: usize =
    HEADER_WORDS + MAX_OBSTACLES * OBSTACLE_WORDS + MAX_POLYGON_VERTICES * 4;

/// The `Obstacles` uniform's size in bytes.
pub(crate) const OBSTACLES_BYTES: u64 = OBSTACLES_WORDS as u64 * 4;
