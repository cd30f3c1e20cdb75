//! Every shape query behind obstacle avoidance, wall following, containment and context
//! steering's danger, pinned to the bit: vehicles that avoid, follow, stay in and decide among
//! obstacles of every shape for a few hundred steps, and the queries asked directly over a
//! lattice of points, hashed. A change to the geometry that moves any result by one bit fails
//! here. `flock_core3d` runs the same case in 3D (`[[test]] path` in its manifest).

#[cfg(not(flock_3d))]
extern crate flock_core as kernel;
#[cfg(flock_3d)]
extern crate flock_core3d as kernel;

use kernel::lockstep::{cos, sin};
use kernel::steering::context::{ContextMaps, decide, obstacle_danger, seek_interest, wall_danger};
use kernel::steering::{
    Enclosure, Rotation, Shape, Vehicle, Wall, WallFollowParams, WallSide, avoid_obstacles,
    combine, contain, follow_wall,
};
use kernel::{Bounds, Vector, planar};

/// One of every obstacle shape this dimension has, some overlapping, spread over the pen.
fn shapes() -> Vec<Shape> {
    #[cfg(not(flock_3d))]
    {
        use kernel::steering::Polygon;
        let l_shape = Polygon::new([
            planar(-40.0, -40.0),
            planar(-40.0, -10.0),
            planar(-30.0, -10.0),
            planar(-30.0, -30.0),
            planar(-10.0, -30.0),
            planar(-10.0, -40.0),
        ])
        .unwrap();
        vec![
            Shape::Circle {
                centre: planar(20.0, 15.0),
                radius: 8.0,
            },
            Shape::Rect {
                centre: planar(-25.0, 25.0),
                half_size: planar(10.0, 4.0),
            },
            Shape::RotatedRect {
                centre: planar(25.0, -25.0),
                half_size: planar(12.0, 3.0),
                // A turn of 0.7 radians, written out so no sine of the platform's enters.
                rotation: Rotation::from_cols_array(&[
                    0.764_842_2,
                    0.644_217_7,
                    -0.644_217_7,
                    0.764_842_2,
                ]),
            },
            Shape::Polygon(l_shape),
        ]
    }
    #[cfg(flock_3d)]
    {
        vec![
            Shape::Sphere {
                centre: Vector::new(20.0, 15.0, 5.0),
                radius: 8.0,
            },
            Shape::Cuboid {
                centre: Vector::new(-25.0, 25.0, -5.0),
                half_size: Vector::new(10.0, 4.0, 6.0),
            },
            Shape::OrientedCuboid {
                centre: Vector::new(25.0, -25.0, 0.0),
                half_size: Vector::new(12.0, 3.0, 5.0),
                rotation: Rotation::from_xyzw(0.1, 0.2, 0.3, 0.9).normalize(),
            },
            Shape::Capsule {
                start: Vector::new(-35.0, -35.0, -10.0),
                end: Vector::new(-15.0, -20.0, 10.0),
                radius: 5.0,
            },
        ]
    }
}

/// A pen around the shapes: a concave polygon in 2D, a box in 3D.
fn pen() -> Enclosure {
    #[cfg(not(flock_3d))]
    return Enclosure::Polygon(
        kernel::steering::Polygon::new([
            planar(-60.0, -60.0),
            planar(60.0, -60.0),
            planar(60.0, 60.0),
            planar(0.0, 40.0),
            planar(-60.0, 60.0),
        ])
        .unwrap(),
    );
    #[cfg(flock_3d)]
    return Enclosure::Cuboid {
        centre: Vector::ZERO,
        half_size: Vector::splat(60.0),
    };
}

/// FNV-1a over the bits of every value fed in.
struct Hash(u64);

impl Hash {
    fn float(&mut self, value: f32) {
        for byte in value.to_bits().to_le_bytes() {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn vector(&mut self, v: Vector) {
        for value in v.to_array() {
            self.float(value);
        }
    }
}

/// The point of a lattice over the pen and a little beyond it, slightly off the grid lines
/// so no point sits exactly on a face.
fn lattice() -> impl Iterator<Item = Vector> {
    (0..17).flat_map(|i| {
        (0..17).map(move |j| {
            let mut point = planar(-68.0 + 8.5 * i as f32 + 0.13, -68.0 + 8.5 * j as f32 + 0.07);
            if kernel::DIMENSIONS == 3 {
                point[2] = 0.31 * (i as f32 - j as f32);
            }
            point
        })
    })
}

fn geometry_hash() -> u64 {
    let shapes = shapes();
    let pen = pen();
    let bounds = Bounds::centered(Vector::splat(120.0));
    let mut hash = Hash(0xcbf2_9ce4_8422_2325);

    // The queries, asked directly.
    for point in lattice() {
        for shape in &shapes {
            if let Some(near) = Wall::Outside(shape).nearest(point) {
                hash.vector(near.point);
                hash.vector(near.normal);
                hash.float(near.distance);
            }
        }
        if let Some(near) = Wall::Inside(&pen).nearest(point) {
            hash.vector(near.point);
            hash.vector(near.normal);
            hash.float(near.distance);
        }
        hash.float(f32::from(u8::from(pen.contains(point))));
        hash.vector(pen.way_in(point));
    }

    // Vehicles that use them all, from every point of the lattice, for a few hundred steps.
    let mut vehicles: Vec<Vehicle> = lattice()
        .step_by(7)
        .enumerate()
        .map(|(i, position)| Vehicle {
            position,
            velocity: planar(cos(i as f32 * 0.9), sin(i as f32 * 0.9)) * 12.0,
            max_speed: 15.0,
            response_time: 0.25,
        })
        .collect();
    let mut maps = ContextMaps::new(16);
    let dt = 1.0 / 30.0;
    for step in 0..300 {
        for (i, vehicle) in vehicles.iter_mut().enumerate() {
            let mut force = avoid_obstacles(vehicle, &shapes, 25.0, 2.0);
            let side = if (i + step / 50) % 2 == 0 {
                WallSide::Left
            } else {
                WallSide::Right
            };
            let params = WallFollowParams {
                side,
                distance: 3.0 + (i % 3) as f32,
                look_ahead: 10.0,
            };
            force += follow_wall(vehicle, Wall::Outside(&shapes[i % shapes.len()]), &params);
            force += follow_wall(vehicle, Wall::Inside(&pen), &params) * 0.5;
            force += contain(vehicle, &pen, 15.0);

            maps.clear();
            seek_interest(&mut maps, vehicle.position, Vector::ZERO, 1.0);
            for shape in &shapes {
                obstacle_danger(&mut maps, vehicle.position, shape, 20.0, 1.5);
            }
            wall_danger(&mut maps, vehicle.position, &bounds, 20.0, 2.0);
            let decision = decide(&maps, 0.3);
            force += vehicle.steer_to(decision.desired_velocity(vehicle.max_speed));

            let acceleration = combine(force, 200.0, 1.0);
            vehicle.velocity = (vehicle.velocity + acceleration * dt).clamp_length_max(15.0);
            vehicle.position += vehicle.velocity * dt;
        }
    }
    for vehicle in &vehicles {
        assert!(vehicle.position.is_finite() && vehicle.velocity.is_finite());
        hash.vector(vehicle.position);
        hash.vector(vehicle.velocity);
    }
    hash.0
}

#[test]
fn the_geometry_gives_the_same_bits() {
    // Pinned on the shape code as it was before it moved into `shape`.
    #[cfg(not(flock_3d))]
    let pinned = 0xd65d_d47a_2ac2_8e93;
    #[cfg(flock_3d)]
    let pinned = 0x763d_188c_9503_50ba;
    assert_eq!(geometry_hash(), pinned, "{:#018x}", geometry_hash());
}
