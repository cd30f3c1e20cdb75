//! Low-poly boid meshes built in code (3D, feature `render`): a bird and a fish, a few dozen
//! flat-shaded triangles each, so a scene of thousands draws fast and needs no asset file.
//!
//! Both point along -z (Bevy's `Transform::forward`) with +y up, the way
//! [`FlockSystems::TransformSync`](crate::FlockSystems::TransformSync) turns boids in 3D.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Mesh, PrimitiveTopology};
use bevy::prelude::*;

/// A bird `length` long from beak to tail: a double cone of a body, two swept wings spanning
/// about 1.2 lengths, and a tail.
pub fn bird_mesh(length: f32) -> Mesh {
    let l = length;
    let (nose, tail) = (Vec3::new(0.0, 0.0, -0.5 * l), Vec3::new(0.0, 0.0, 0.35 * l));
    let ring = [
        Vec3::new(0.0, 0.09 * l, -0.05 * l),
        Vec3::new(0.08 * l, 0.0, -0.05 * l),
        Vec3::new(0.0, -0.07 * l, -0.05 * l),
        Vec3::new(-0.08 * l, 0.0, -0.05 * l),
    ];
    let mut builder = Triangles::default();
    builder.solid_around(nose, tail, &ring);
    // Wings: from the shoulders out, swept back and slightly up.
    for side in [-1.0, 1.0] {
        let shoulder_front = Vec3::new(0.06 * side * l, 0.01 * l, -0.15 * l);
        let shoulder_back = Vec3::new(0.06 * side * l, 0.01 * l, 0.12 * l);
        let tip = Vec3::new(0.6 * side * l, 0.08 * l, 0.18 * l);
        builder.sheet([shoulder_front, shoulder_back, tip]);
    }
    // A fanned tail.
    builder.sheet([
        Vec3::new(0.0, 0.0, 0.25 * l),
        Vec3::new(-0.16 * l, 0.0, 0.5 * l),
        Vec3::new(0.16 * l, 0.0, 0.5 * l),
    ]);
    builder.mesh()
}

/// A fish `length` long: a body deeper than wide, a forked tail fin and a dorsal fin.
pub fn fish_mesh(length: f32) -> Mesh {
    let l = length;
    let (nose, tail) = (Vec3::new(0.0, 0.0, -0.5 * l), Vec3::new(0.0, 0.0, 0.25 * l));
    let ring = [
        Vec3::new(0.0, 0.16 * l, -0.1 * l),
        Vec3::new(0.07 * l, 0.03 * l, -0.1 * l),
        Vec3::new(0.0, -0.12 * l, -0.1 * l),
        Vec3::new(-0.07 * l, 0.03 * l, -0.1 * l),
    ];
    let mut builder = Triangles::default();
    builder.solid_around(nose, tail, &ring);
    // The tail fin, upright, forked into two lobes.
    builder.sheet([
        Vec3::new(0.0, 0.0, 0.2 * l),
        Vec3::new(0.0, 0.2 * l, 0.5 * l),
        Vec3::new(0.0, 0.0, 0.4 * l),
    ]);
    builder.sheet([
        Vec3::new(0.0, 0.0, 0.2 * l),
        Vec3::new(0.0, 0.0, 0.4 * l),
        Vec3::new(0.0, -0.2 * l, 0.5 * l),
    ]);
    // The dorsal fin.
    builder.sheet([
        Vec3::new(0.0, 0.14 * l, -0.12 * l),
        Vec3::new(0.0, 0.26 * l, 0.02 * l),
        Vec3::new(0.0, 0.1 * l, 0.08 * l),
    ]);
    builder.mesh()
}

/// Flat-shaded triangles, each wound to face outwards.
#[derive(Default)]
struct Triangles {
    positions: Vec<Vec3>,
}

impl Triangles {
    /// A closed body: a ring of points joined to a point in front and one behind. Faces are
    /// wound to face away from the body's middle, whatever order the ring is in.
    fn solid_around(&mut self, front: Vec3, back: Vec3, ring: &[Vec3]) {
        let middle = (front + back) / 2.0;
        for (i, &a) in ring.iter().enumerate() {
            let b = ring[(i + 1) % ring.len()];
            for apex in [front, back] {
                let triangle = [apex, a, b];
                let centre = (apex + a + b) / 3.0;
                if normal(triangle).dot(centre - middle) >= 0.0 {
                    self.positions.extend(triangle);
                } else {
                    self.positions.extend([apex, b, a]);
                }
            }
        }
    }

    /// A thin sheet (a wing, a fin) seen from both sides: the triangle in both windings, since
    /// back faces are culled.
    fn sheet(&mut self, [a, b, c]: [Vec3; 3]) {
        self.positions.extend([a, b, c, a, c, b]);
    }

    fn mesh(self) -> Mesh {
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::RENDER_WORLD,
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
        .with_computed_flat_normals()
    }
}

/// A triangle's normal by Bevy's front-face rule (counter-clockwise seen from the front).
fn normal([a, b, c]: [Vec3; 3]) -> Vec3 {
    (b - a).cross(c - a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::mesh::VertexAttributeValues;

    fn positions(mesh: &Mesh) -> Vec<Vec3> {
        match mesh.attribute(Mesh::ATTRIBUTE_POSITION) {
            Some(VertexAttributeValues::Float32x3(values)) => {
                values.iter().map(|&p| Vec3::from(p)).collect()
            }
            other => panic!("positions: {other:?}"),
        }
    }

    #[test]
    fn meshes_point_forward_and_have_their_length() {
        for (mesh, length) in [(bird_mesh(10.0), 10.0), (fish_mesh(4.0), 4.0)] {
            let points = positions(&mesh);
            assert_eq!(points.len() % 3, 0);
            assert!(points.iter().all(|p| p.is_finite()));
            let front = points.iter().map(|p| p.z).fold(f32::INFINITY, f32::min);
            let back = points.iter().map(|p| p.z).fold(f32::NEG_INFINITY, f32::max);
            // The nose is the frontmost point, on -z.
            assert_eq!(front, -0.5 * length);
            assert!((back - front - length).abs() < 1e-4 * length);
            // Flat normals, one per vertex, all unit length.
            let normals = mesh.attribute(Mesh::ATTRIBUTE_NORMAL).unwrap();
            assert_eq!(normals.len(), points.len());
        }
    }

    #[test]
    fn the_body_faces_outwards() {
        let mut builder = Triangles::default();
        let ring = [Vec3::Y, Vec3::X, Vec3::NEG_Y, Vec3::NEG_X];
        builder.solid_around(Vec3::NEG_Z, Vec3::Z, &ring);
        for triangle in builder.positions.chunks(3) {
            let triangle = [triangle[0], triangle[1], triangle[2]];
            let centre = triangle.iter().sum::<Vec3>() / 3.0;
            assert!(normal(triangle).dot(centre) > 0.0);
        }
    }
}
