//! The 3D facing without banking, for eight boids at once: the rotation that faces the velocity
//! with the old up carried over and rolled towards level, at most a given roll a step
//! ([`MAX_ROLL_RATE`](super::MAX_ROLL_RATE) times the time step). Every boid of a flock that
//! does not bank takes this path, save the few that need [`facing`](super::facing::facing)'s
//! full one (headings within a hair of the vertical, an up carried onto the heading, a roll of
//! more than a radian a step, a rotation other code broke).
//!
//! One boid at a time, the path waits on each of its square roots and divisions in turn.
//! Written lane by lane over arrays and without branches, it is worked by the compiler with
//! vector instructions across the lanes instead. It has no trigonometry: the level rotation
//! comes from half-angle identities, the roll's angle is compared through its cosine, and the
//! step's roll comes from a short series. One boid alone ([`facing`](super::facing::facing))
//! runs the same lane function, so a boid's rotation has the same bits whichever way it went: a
//! replay does not depend on it.
//!
//! It takes the step's roll as an argument and imports nothing from the facing module, which
//! builds on it.

use bevy::math::{Quat, Vec3};

/// Boids faced at once: two vectors of SSE (baseline x86-64), one of AVX.
pub(crate) const LANES: usize = 8;

/// The largest roll a step the series in [`small_sin_cos`] is used for, radians; a step that
/// may roll more (a time step of over 0.16 s at [`MAX_ROLL_RATE`](super::MAX_ROLL_RATE)) takes
/// the full path.
const MAX_SERIES_ROLL: f32 = 1.0;

/// For each of `LANES` boids, the rotation [`facing`](super::facing::facing) gives it without
/// banking, or `None` where it needs the full path or has no direction. `roll_per_horizontal`
/// is the step's largest roll for a level heading, radians, as in [`facing_towards_level`].
pub(crate) fn facings_towards_level(
    previous: &[Quat; LANES],
    velocity: &[Vec3; LANES],
    roll_per_horizontal: f32,
) -> [Option<Quat>; LANES] {
    // Each lane's inputs and outputs as plain arrays, so the loop's lanes are independent.
    let velocity = velocity.map(|v| v.to_array());
    let previous = previous.map(|q| q.to_array());
    let mut taken = [false; LANES];
    let mut rotation = [[0.0; 4]; LANES];
    for lane in 0..LANES {
        (taken[lane], rotation[lane]) =
            facing_towards_level(velocity[lane], previous[lane], roll_per_horizontal);
    }
    std::array::from_fn(|lane| taken[lane].then(|| Quat::from_array(rotation[lane])))
}

/// One lane of [`facings_towards_level`], for a `previous` rotation of unit length (others are
/// refused): whether the boid takes this path, and its rotation (`x, y, z, w`) if so.
/// `roll_per_horizontal` is the step's largest roll for a level heading, radians.
///
/// The rotation is the level one facing the heading, then a roll about the heading by what is
/// left of the way from the old up (carried over to the new heading) to level after this step's
/// roll: none when level is within reach. Branch-free (`&` rather than `&&`, both forms of each
/// half angle worked out), so the lanes vectorise.
#[inline(always)]
pub(crate) fn facing_towards_level(
    velocity: [f32; 3],
    previous: [f32; 4],
    roll_per_horizontal: f32,
) -> (bool, [f32; 4]) {
    let [vx, vy, vz] = velocity;
    let [qx, qy, qz, qw] = previous;
    // The heading (`Vec3::try_normalize`).
    let recip = ((vx * vx) + (vy * vy) + (vz * vz)).sqrt().recip();
    let (fx, fy, fz) = (vx * recip, vy * recip, vz * recip);
    // Unit to within 1e-5, as `facing` leaves a rotation (the sum in glam's SSE order).
    let unit = ((qx * qx + qz * qz) + (qy * qy + qw * qw) - 1.0).abs() < 1e-5;
    // The old up, `previous * Vec3::Y` written out for a unit rotation.
    let ux = 2.0 * (qx * qy - qw * qz);
    let uy = 1.0 - 2.0 * (qx * qx + qz * qz);
    let uz = 2.0 * (qy * qz + qw * qx);
    // Level up: world up made square to the heading, as long as the heading's horizontal part.
    let horizontal_squared = fx * fx + fz * fz;
    let horizontal = horizontal_squared.sqrt();
    let to_unit = horizontal.recip();
    let (tx, ty, tz) = (
        -fx * fy * to_unit,
        horizontal_squared * to_unit,
        -fz * fy * to_unit,
    );
    // The old up carried over: made square to the heading, unit.
    let along = (ux * fx) + (uy * fy) + (uz * fz);
    let (cx, cy, cz) = (ux - fx * along, uy - fy * along, uz - fz * along);
    let carried_recip = ((cx * cx) + (cy * cy) + (cz * cz)).sqrt().recip();
    let (cx, cy, cz) = (cx * carried_recip, cy * carried_recip, cz * carried_recip);
    // The roll from the carried up to level, about the heading: its cosine and sine.
    let cos_level = (cx * tx) + (cy * ty) + (cz * tz);
    let (rx, ry, rz) = (cy * tz - ty * cz, cz * tx - tz * cx, cx * ty - tx * cy);
    let sin_level = (fx * rx) + (fy * ry) + (fz * rz);
    // This step's roll: less the nearer the heading is to the vertical, where level swings
    // round with the smallest turn.
    let max_roll = (roll_per_horizontal * horizontal).max(0.0);
    let (sin_step, cos_step) = small_sin_cos(max_roll);
    // Level is within reach when its roll is no larger than the step's (for rolls up to half a
    // turn, the smaller the roll the larger its cosine). Otherwise the boid rolls by the
    // step's its way, and keeps the rest, `level - step`, as a roll off level.
    let within = cos_level >= cos_step;
    let side = 1.0f32.copysign(sin_level);
    let cos_rest = cos_level * cos_step + side * sin_level * sin_step;
    let sin_rest = sin_level * cos_step - side * cos_level * sin_step;
    let (cos_rest, sin_rest) = if within {
        (1.0, 0.0)
    } else {
        (cos_rest, sin_rest)
    };
    // The level rotation, and the rest as a roll about the body's own z (its back), by the
    // half-angle identity `(cos a/2, sin a/2) ~ (1 + cos a, sin a)`, or `(sin a, 1 - cos a)`
    // near half a turn.
    let [lx, ly, lz, lw] = level_rotation(fx, fy, fz, horizontal);
    let near_half_turn = cos_rest < 0.0;
    let roll_w = if near_half_turn {
        sin_rest
    } else {
        1.0 + cos_rest
    };
    let roll_z = if near_half_turn {
        1.0 - cos_rest
    } else {
        sin_rest
    };
    let roll_scale = (roll_w * roll_w + roll_z * roll_z).sqrt().recip();
    let (roll_w, roll_z) = (roll_w * roll_scale, roll_z * roll_scale);
    // level * (0, 0, roll_z, roll_w).
    let rotation = [
        lx * roll_w + ly * roll_z,
        ly * roll_w - lx * roll_z,
        lz * roll_w + lw * roll_z,
        lw * roll_w - lz * roll_z,
    ];
    let finite = rotation
        .iter()
        .fold(true, |finite, x| finite & x.is_finite());
    let taken = recip.is_finite()
        & (recip > 0.0)
        & unit
        & (horizontal > 1e-3)
        & carried_recip.is_finite()
        & (max_roll <= MAX_SERIES_ROLL)
        & finite;
    (taken, rotation)
}

/// The level rotation (`x, y, z, w`) facing unit heading `f`, whose horizontal part is
/// `horizontal` long (more than zero): a yaw about +y after a pitch about +x, each straight from
/// its cosine and sine by the half-angle identity `(cos a/2, sin a/2) ~ (1 + cos a, sin a)`,
/// normalised once; no trigonometry, no division and no matrix.
#[inline(always)]
pub(crate) fn level_rotation(fx: f32, fy: f32, fz: f32, horizontal: f32) -> [f32; 4] {
    // The yaw turns -z to the heading's horizontal direction (x, z) / horizontal: its cosine
    // is -z / horizontal and its sine -x / horizontal. Scaled by `horizontal` (the one
    // normalisation at the end takes any scale), `(1 + cos, sin)` is `(horizontal - z, -x)`.
    // Near half a turn (heading +z) that vanishes: the same half angle is then
    // `(sin, 1 - cos)`, scaled `(-x, horizontal + z)`.
    let ahead = fz <= 0.0;
    let yaw_w = if ahead { horizontal - fz } else { -fx };
    let yaw_y = if ahead { -fx } else { horizontal + fz };
    // The pitch raises -z by the heading's climb: cos = horizontal > 0, sin = y.
    let (pitch_w, pitch_x) = (1.0 + horizontal, fy);
    let scale = ((yaw_w * yaw_w + yaw_y * yaw_y) * (pitch_w * pitch_w + pitch_x * pitch_x))
        .sqrt()
        .recip();
    // (0, yaw_y, 0, yaw_w) * (pitch_x, 0, 0, pitch_w), each unnormalised.
    [
        yaw_w * pitch_x * scale,
        yaw_y * pitch_w * scale,
        -yaw_y * pitch_x * scale,
        yaw_w * pitch_w * scale,
    ]
}

/// The sine and cosine of `x` in `[0, 1]` ([`MAX_SERIES_ROLL`]), from their Taylor series to
/// the ninth and tenth powers: within 1e-7 of the true values there, from additions and
/// multiplications only, so the same bits on every processor and vectorisable (the kernel's
/// `sin` and `cos` are neither).
#[inline(always)]
pub(crate) fn small_sin_cos(x: f32) -> (f32, f32) {
    let x2 = x * x;
    // In Horner's form: each term is the one before times x^2 / (k (k + 1)).
    let term = |k: f32| x2 * (1.0 / (k * (k + 1.0)));
    let sin = x * (1.0 - term(2.0) * (1.0 - term(4.0) * (1.0 - term(6.0) * (1.0 - term(8.0)))));
    let cos = 1.0
        - term(1.0) * (1.0 - term(3.0) * (1.0 - term(5.0) * (1.0 - term(7.0) * (1.0 - term(9.0)))));
    (sin, cos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_series_is_the_sine_and_cosine_to_float_precision() {
        for step in 0..=1000 {
            let x = step as f32 / 1000.0 * MAX_SERIES_ROLL;
            let (sin, cos) = small_sin_cos(x);
            assert!((sin - x.sin()).abs() < 1e-7, "{x}: {sin}");
            assert!((cos - x.cos()).abs() < 1e-7, "{x}: {cos}");
        }
    }

    #[test]
    fn the_level_rotation_faces_its_heading_with_a_level_up_all_round() {
        // Every 5 degrees of yaw (heading +z, where the half-angle form switches, among them)
        // and of pitch up to 85 degrees, and a heading a hair off +z on either side.
        let mut headings: Vec<Vec3> = (0..72)
            .flat_map(|yaw| {
                (-17..=17).map(move |pitch| {
                    let (yaw, pitch) = ((yaw * 5) as f32, (pitch * 5) as f32);
                    Quat::from_rotation_y(yaw.to_radians())
                        * Quat::from_rotation_x(pitch.to_radians())
                        * Vec3::NEG_Z
                })
            })
            .collect();
        headings.extend([
            Vec3::Z,
            Vec3::new(1e-6, 0.0, 1.0),
            Vec3::new(-1e-6, 0.3, 1.0),
        ]);
        for forward in headings {
            let forward = forward.normalize();
            let horizontal = forward.with_y(0.0).length();
            let rotation =
                Quat::from_array(level_rotation(forward.x, forward.y, forward.z, horizontal));
            assert!((rotation.length() - 1.0).abs() < 1e-5, "{forward}");
            assert!(
                (rotation * Vec3::NEG_Z).distance(forward) < 1e-5,
                "{forward}"
            );
            assert!((rotation * Vec3::X).y.abs() < 1e-5, "{forward}: not level");
            assert!((rotation * Vec3::Y).y > 0.0, "{forward}: upside down");
        }
    }
}
