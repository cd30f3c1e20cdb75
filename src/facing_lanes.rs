//! The 3D facing's level path (`level_within_reach` and `level_rotation` in
//! [`crate::dimension`]) for eight boids at once. Most boids of a flock that does not bank take
//! it most steps. One boid at a time, it waits on each of its three square roots and two
//! divisions in turn; written lane by lane over arrays, branch-free, the compiler works the
//! lanes with vector instructions instead, about twice as fast per boid. Each lane's arithmetic
//! is the one-boid path's, in the same order, so the bits are the same (the tests compare
//! them): a replay does not depend on which path a boid took.

use bevy::math::{Quat, Vec3};

use crate::dimension::MAX_ROLL_RATE;

/// Boids faced at once: two vectors of SSE (baseline x86-64), one of AVX.
pub(crate) const LANES: usize = 8;

/// For each of `LANES` boids, the rotation [`facing`](crate::dimension::facing) gives it without banking when it takes
/// the level path (`level_within_reach`), or `None` where it needs the full path or has no
/// direction.
pub(crate) fn level_facings(
    previous: &[Quat; LANES],
    velocity: &[Vec3; LANES],
    dt: f32,
) -> [Option<Quat>; LANES] {
    // Each lane's inputs and outputs as plain arrays, so the loop's lanes are independent.
    let velocity = velocity.map(|v| v.to_array());
    let previous = previous.map(|q| q.to_array());
    let roll_per_horizontal = MAX_ROLL_RATE * dt;
    let mut taken = [false; LANES];
    let mut rotation = [[0.0; 4]; LANES];
    for lane in 0..LANES {
        (taken[lane], rotation[lane]) =
            level_lane(velocity[lane], previous[lane], roll_per_horizontal);
    }
    std::array::from_fn(|lane| taken[lane].then(|| Quat::from_array(rotation[lane])))
}

/// One lane of [`level_facings`]: whether the boid takes the level path, and its rotation
/// there. Branch-free (`&` rather than `&&`, both yaw forms worked out) so that the lanes
/// vectorise.
#[inline(always)]
fn level_lane(
    velocity: [f32; 3],
    previous: [f32; 4],
    roll_per_horizontal: f32,
) -> (bool, [f32; 4]) {
    let [vx, vy, vz] = velocity;
    let [qx, qy, qz, qw] = previous;
    // `Vec3::try_normalize`.
    let recip = ((vx * vx) + (vy * vy) + (vz * vz)).sqrt().recip();
    let (fx, fy, fz) = (vx * recip, vy * recip, vz * recip);
    // `facing` takes a previous rotation as it is when it is unit to within 1e-5 (the sum in
    // glam's SSE order: x and z, y and w).
    let unit = ((qx * qx + qz * qz) + (qy * qy + qw * qw) - 1.0).abs() < 1e-5;
    // `up_of_unit`.
    let ux = 2.0 * (qx * qy - qw * qz);
    let uy = 1.0 - 2.0 * (qx * qx + qz * qz);
    let uz = 2.0 * (qy * qz + qw * qx);
    // `level_within_reach`.
    let horizontal_squared = fx * fx + fz * fz;
    let horizontal = horizontal_squared.sqrt();
    let (lx, ly, lz) = (-fx * fy, horizontal_squared, -fz * fy);
    let along = (ux * fx) + (uy * fy) + (uz * fz);
    let (cx, cy, cz) = (ux - fx * along, uy - fy * along, uz - fz * along);
    let max_roll = roll_per_horizontal * horizontal;
    let reach = max_roll - max_roll * max_roll * max_roll / 6.0;
    let cos = (cx * lx) + (cy * ly) + (cz * lz);
    let (rx, ry, rz) = (cy * lz - ly * cz, cz * lx - lz * cx, cx * ly - lx * cy);
    let sin = (fx * rx) + (fy * ry) + (fz * rz);
    let carried_squared = (cx * cx) + (cy * cy) + (cz * cz);
    let within = (horizontal > 1e-3)
        & (cos > 0.0)
        & (reach > 0.0)
        & (sin * sin <= reach * reach * carried_squared * horizontal_squared);
    // `level_rotation`.
    let ahead = fz <= 0.0;
    let yaw_w = if ahead { horizontal - fz } else { -fx };
    let yaw_y = if ahead { -fx } else { horizontal + fz };
    let (pitch_w, pitch_x) = (1.0 + horizontal, fy);
    let scale = ((yaw_w * yaw_w + yaw_y * yaw_y) * (pitch_w * pitch_w + pitch_x * pitch_x))
        .sqrt()
        .recip();
    let rotation = [
        yaw_w * pitch_x * scale,
        yaw_y * pitch_w * scale,
        -yaw_y * pitch_x * scale,
        yaw_w * pitch_w * scale,
    ];
    let finite = rotation
        .iter()
        .fold(true, |finite, x| finite & x.is_finite());
    let taken = recip.is_finite() & (recip > 0.0) & unit & within & finite;
    (taken, rotation)
}

#[cfg(test)]
mod tests {
    use bevy::math::EulerRot;

    use super::*;
    use crate::dimension::facing;

    /// `facing` without banking for each boid, one at a time.
    fn one_at_a_time(previous: &[Quat; LANES], velocity: &[Vec3; LANES], dt: f32) -> [Quat; LANES] {
        std::array::from_fn(|lane| {
            facing(previous[lane], velocity[lane], None, dt).unwrap_or(Quat::NAN)
        })
    }

    #[test]
    fn every_lane_is_the_one_boid_rotation_to_the_bit_or_steps_aside() {
        let dt = 1.0 / 60.0;
        let (mut taken, mut declined) = (0, 0);
        let mut check = |previous: [Quat; LANES], velocity: [Vec3; LANES]| {
            let expected = one_at_a_time(&previous, &velocity, dt);
            for (lane, level) in level_facings(&previous, &velocity, dt)
                .into_iter()
                .enumerate()
            {
                match level {
                    Some(rotation) => {
                        taken += 1;
                        assert_eq!(
                            rotation.to_array().map(f32::to_bits),
                            expected[lane].to_array().map(f32::to_bits),
                            "{} after {}",
                            velocity[lane],
                            previous[lane]
                        );
                    }
                    None => declined += 1,
                }
            }
        };
        // Headings all round and at every pitch (heading +z, where the yaw's half angle
        // switches form, among them), at several speeds, from rotations level, rolled within a
        // step's reach, rolled beyond it, upside down and a little off unit length.
        for yaw in 0..36 {
            for pitch in -9..=9 {
                let (yaw, pitch) = (yaw as f32 * 10f32.to_radians(), pitch as f32 * 0.17);
                let heading = Quat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0);
                let level = facing(Quat::IDENTITY, heading * Vec3::NEG_Z, None, 1.0).unwrap();
                let previous = [0.0, 0.02, -0.05, 0.5, 3.1, 0.0, 0.01, -0.3]
                    .map(|roll| level * Quat::from_rotation_z(roll));
                let mut previous = previous;
                previous[5] = previous[5] * 1.000_001;
                previous[6] = previous[6] * 1.001;
                let nudge = Quat::from_euler(EulerRot::YXZ, 0.02, -0.01, 0.0);
                let velocity = [1e-3, 1.0, 120.0, 5e3, 1.0, 120.0, 120.0, 7.0]
                    .map(|speed| nudge * heading * Vec3::NEG_Z * speed);
                check(previous, velocity);
            }
        }
        // Lanes with no direction, straight up or down, huge or tiny, or not finite.
        let velocity = [
            Vec3::ZERO,
            Vec3::NAN,
            Vec3::Y,
            Vec3::NEG_Y * 3.0,
            Vec3::new(f32::MAX, 0.0, 1.0),
            Vec3::new(1e-30, 0.0, -1e-30),
            Vec3::new(f32::INFINITY, 0.0, 0.0),
            Vec3::new(1e-4, 1.0, 0.0),
        ];
        let previous = [
            Quat::IDENTITY,
            Quat::IDENTITY,
            Quat::IDENTITY,
            Quat::from_rotation_x(1.0),
            Quat::IDENTITY,
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            Quat::NAN,
            Quat::IDENTITY,
        ];
        check(previous, velocity);
        assert!(
            level_facings(&previous, &velocity, dt)[..4]
                .iter()
                .all(Option::is_none)
        );
        // Both ways are exercised.
        assert!(
            taken > 2000 && declined > 1000,
            "{taken} taken, {declined} declined"
        );
    }
}
