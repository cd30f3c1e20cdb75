//! Turning a boid to face its velocity: about z in 2D; in 3D forward along the velocity with a
//! carried-over up rolled towards level (or into a bank, with `Banking`) at most
//! `MAX_ROLL_RATE` a second, eight boids at a time through the lanes of `facing_lanes` where
//! they do not bank. And both ways between a heading and the rotation that faces it, for the
//! behaviours that need them.

use bevy::prelude::*;
use flock_core::Vector;
#[cfg(flock_3d)]
use {
    super::facing_lanes::{LANES, facing_towards_level, facings_towards_level},
    crate::parallel::compute_pool,
    bevy::ecs::change_detection::Tick,
    core::panic::Location,
    flock_core::{Executor, lockstep},
};

use crate::components::{Boid, Velocity};

/// [`FlockSystems::TransformSync`](crate::FlockSystems::TransformSync) in 2D: turns each boid
/// to face its velocity (sprites are drawn pointing along +x). A boid at rest keeps its
/// rotation.
#[cfg(not(flock_3d))]
pub(crate) fn face_velocity(
    mut boids: Query<(&mut Transform, &Velocity), (With<Boid>, Changed<Velocity>)>,
) {
    boids.par_iter_mut().for_each(|(mut transform, velocity)| {
        if let Some(heading) = velocity.0.try_normalize() {
            // From the two unit vectors directly: no trigonometry for 100k boids a step.
            transform.rotation = Quat::from_rotation_arc_2d(Vec2::X, heading);
        }
    });
}

/// [`FlockSystems::TransformSync`](crate::FlockSystems::TransformSync) in 3D: turns each boid
/// so that its forward (`-z`, Bevy's `Transform::forward`) is its velocity and its up (`+y`)
/// stays level, or banks into turns with [`Banking`]. A boid at rest, or whose velocity did
/// not change, keeps its rotation.
///
/// Whole tables at a time (contiguous slices), one part per thread, and without banking eight
/// boids at once ([`facings_towards_level`], in vector instructions): the same rotations as
/// [`facing`] one boid at a time, which runs the same lane code. Only the transforms it turns
/// are marked changed.
#[cfg(flock_3d)]
pub(crate) fn face_velocity(
    time: Res<Time>,
    mut boids: Query<(&mut Transform, Ref<Velocity>, Option<&Banking>), With<Boid>>,
    mut turned: Local<Vec<bool>>,
) {
    let dt = time.delta_secs();
    let Ok(tables) = boids.contiguous_iter_mut() else {
        // Not reached: the three components are stored in tables. One boid at a time.
        for (mut transform, velocity, banking) in &mut boids {
            let banking = banking.filter(|banking| banking.is_valid());
            if velocity.is_changed()
                && let Some(rotation) = facing(transform.rotation, velocity.0, banking, dt)
            {
                transform.rotation = rotation;
            }
        }
        return;
    };
    let executor = compute_pool();
    for (mut transforms, velocities, banking) in tables {
        let (last_run, this_run) = (velocities.last_run_tick(), velocities.this_run_tick());
        let len = velocities.len();
        turned.clear();
        turned.resize(len, false);
        // One part a thread, of whole batches.
        let part_len = len
            .div_ceil(executor.threads())
            .next_multiple_of(LANES)
            .max(LANES);
        let mut parts: Vec<FacingPart> = transforms
            .bypass_change_detection()
            .chunks_mut(part_len)
            .zip(velocities.chunks(part_len))
            .zip(velocities.changed_ticks_slice().chunks(part_len))
            .zip(turned.chunks_mut(part_len))
            .enumerate()
            .map(
                |(part, (((transforms, velocities), changed), turned))| FacingPart {
                    banking: banking.map(|banking| &banking[part * part_len..][..changed.len()]),
                    transforms,
                    velocities,
                    changed,
                    last_run,
                    this_run,
                    turned,
                },
            )
            .collect();
        executor.for_each_chunk(&mut parts, 1, |_, parts| {
            for part in parts {
                part.face(dt);
            }
        });
        drop(parts);
        // Change detection for the turned transforms only, as a `Mut` would have done.
        let turned_ticks = transforms
            .changed_ticks_slice_mut()
            .iter_mut()
            .zip(turned.iter());
        for (tick, _) in turned_ticks.filter(|(_, turned)| **turned) {
            *tick = this_run;
        }
        if let Some(callers) = transforms.changed_by_ticks_slice_mut().into_option() {
            let turned_callers = callers.iter_mut().zip(turned.iter());
            for (caller, _) in turned_callers.filter(|(_, turned)| **turned) {
                *caller = Location::caller();
            }
        }
    }
}

/// A thread's share of a table of boids for [`face_velocity`].
#[cfg(flock_3d)]
struct FacingPart<'a> {
    transforms: &'a mut [Transform],
    velocities: &'a [Velocity],
    /// When each velocity last changed, and the system's last and this run to compare it with.
    changed: &'a [Tick],
    last_run: Tick,
    this_run: Tick,
    banking: Option<&'a [Banking]>,
    /// Set for each transform given a new rotation.
    turned: &'a mut [bool],
}

#[cfg(flock_3d)]
impl FacingPart<'_> {
    fn face(&mut self, dt: f32) {
        let len = self.velocities.len();
        let mut start = 0;
        // Without banking, whole batches of eight; a lane that needs the full path takes it.
        if self.banking.is_none() {
            while start + LANES <= len {
                let previous = std::array::from_fn(|lane| self.transforms[start + lane].rotation);
                let velocity = std::array::from_fn(|lane| self.velocities[start + lane].0);
                let level = facings_towards_level(&previous, &velocity, MAX_ROLL_RATE * dt);
                for (lane, level) in level.into_iter().enumerate() {
                    if self.velocity_changed(start + lane) {
                        let rotation =
                            level.or_else(|| facing(previous[lane], velocity[lane], None, dt));
                        self.turn(start + lane, rotation);
                    }
                }
                start += LANES;
            }
        }
        for boid in start..len {
            if self.velocity_changed(boid) {
                let banking = self.banking.map(|banking| &banking[boid]);
                let banking = banking.filter(|banking| banking.is_valid());
                let rotation = facing(
                    self.transforms[boid].rotation,
                    self.velocities[boid].0,
                    banking,
                    dt,
                );
                self.turn(boid, rotation);
            }
        }
    }

    fn velocity_changed(&self, boid: usize) -> bool {
        self.changed[boid].is_newer_than(self.last_run, self.this_run)
    }

    /// Gives the boid its new rotation, if it has one.
    fn turn(&mut self, boid: usize, rotation: Option<Quat>) {
        if let Some(rotation) = rotation {
            self.transforms[boid].rotation = rotation;
            self.turned[boid] = true;
        }
    }
}

/// The rotation that faces `heading` upright: about z in 2D; in 3D forward (-z) along it with
/// +y up (a tank's heading lies on the ground). `None` for no direction.
pub(crate) fn heading_rotation(heading: Vector) -> Option<Quat> {
    let heading = heading.try_normalize()?;
    #[cfg(not(flock_3d))]
    return Some(Quat::from_rotation_arc_2d(Vec2::X, heading));
    #[cfg(flock_3d)]
    return Some(Transform::default().looking_to(heading, Vec3::Y).rotation);
}

/// The way a rotation faces, the inverse of [`heading_rotation`]: +x turned by it in 2D
/// (sprites are drawn pointing along +x), forward (-z) in 3D.
pub(crate) fn facing_of(rotation: Quat) -> Vector {
    #[cfg(not(flock_3d))]
    return (rotation * Vec3::X).truncate();
    #[cfg(flock_3d)]
    return rotation * Vec3::NEG_Z;
}

/// How fast a boid rolls towards level (or its bank), radians per second: a boid that comes
/// out of a vertical climb upside down rolls upright in half a second rather than flipping in
/// one step.
#[cfg(flock_3d)]
pub const MAX_ROLL_RATE: f32 = std::f32::consts::TAU;

/// A flyer that banks into its turns (3D only; without it a boid stays level): it rolls
/// towards the side it accelerates to, as an aeroplane's lift leans into a turn, by
/// `atan(sideways acceleration / gravity)`, at most `max_angle`. Off by default (no
/// component). Values that are not finite, a `gravity` that is not positive or a negative
/// `max_angle` turn banking off for that boid.
#[cfg(flock_3d)]
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct Banking {
    /// The acceleration that balances the bank, world units per second squared: smaller
    /// banks harder.
    pub gravity: f32,
    /// The steepest bank, radians.
    pub max_angle: f32,
}

#[cfg(flock_3d)]
impl Default for Banking {
    /// A bird of the default flock (120 units a second): up to 60 degrees.
    fn default() -> Self {
        Self {
            gravity: 400.0,
            max_angle: std::f32::consts::FRAC_PI_3,
        }
    }
}

#[cfg(flock_3d)]
impl Banking {
    /// Whether banking with these values is applied.
    pub fn is_valid(&self) -> bool {
        self.gravity.is_finite()
            && self.gravity > 0.0
            && self.max_angle.is_finite()
            && self.max_angle >= 0.0
    }
}

/// `v`'s part square to unit `axis`, normalised, or `None` when `v` lies along it.
#[cfg(flock_3d)]
fn square_to(v: Vec3, axis: Vec3) -> Option<Vec3> {
    (v - axis * v.dot(axis)).try_normalize()
}

/// The rotation that faces `velocity` after `previous`, or `None` for a velocity with no
/// direction (at rest, or not finite).
///
/// The up vector is carried over from the previous rotation and rolled, at most
/// [`MAX_ROLL_RATE`] a second, towards level (world +y) or the bank. Level is undefined for a
/// vertical heading, so a boid climbing or diving straight keeps its carried-over up: no spin
/// and no flip, and the rotation is always finite.
#[cfg(flock_3d)]
pub(crate) fn facing(
    previous: Quat,
    velocity: Vec3,
    banking: Option<&Banking>,
    dt: f32,
) -> Option<Quat> {
    let forward = velocity.try_normalize()?;
    // A rotation other code broke (not finite, or zero) starts over from the identity; the
    // ones this function writes are unit already.
    let length_squared = previous.length_squared();
    let previous = if (length_squared - 1.0).abs() < 1e-5 {
        previous
    } else if previous.is_finite() && length_squared > 1e-6 {
        previous.normalize()
    } else {
        Quat::IDENTITY
    };
    if banking.is_none() {
        let (taken, rotation) =
            facing_towards_level(velocity.to_array(), previous.to_array(), MAX_ROLL_RATE * dt);
        if taken {
            return Some(Quat::from_array(rotation));
        }
    }
    rolled_facing(previous, forward, velocity.length(), banking, dt)
}

/// [`facing`]'s full path, for unit `previous` and `forward`: carry the old up over, find the
/// target up (level or banked), roll towards it at most a step's roll.
#[cfg(flock_3d)]
fn rolled_facing(
    previous: Quat,
    forward: Vec3,
    speed: f32,
    banking: Option<&Banking>,
    dt: f32,
) -> Option<Quat> {
    let (previous_up, previous_forward) = (previous * Vec3::Y, previous * Vec3::NEG_Z);
    // The old up carried to the new heading. A heading that turned onto the old up (or down)
    // in one step is a quarter pitch: the new up is the old back (or forward).
    let carried = square_to(previous_up, forward)
        .or_else(|| {
            square_to(
                -previous_forward * forward.dot(previous_up).signum(),
                forward,
            )
        })
        .unwrap_or_else(|| forward.any_orthonormal_vector());
    let mut target = square_to(Vec3::Y, forward).unwrap_or(carried);
    if let Some(banking) = banking
        && dt > 0.0
    {
        // The heading's change over the step, times the speed: the sideways acceleration.
        let sideways = (forward - previous_forward) * (speed / dt);
        let sideways = sideways - forward * sideways.dot(forward);
        let lift = target * banking.gravity + sideways;
        if let Some(lift) = square_to(lift, forward) {
            let bank = target.angle_between(lift).min(banking.max_angle);
            target = rotate_about(target, forward, bank * roll_sign(target, lift, forward));
        }
    }
    // Level is ill-defined near the vertical, where a small change of heading swings it round:
    // the roll rate fades to nothing there, so a boid climbing straight does not spin.
    let max_roll = (MAX_ROLL_RATE * dt * forward.with_y(0.0).length()).max(0.0);
    let up = roll_towards(carried, target, forward, max_roll);
    let right = forward.cross(up).try_normalize()?;
    let up = right.cross(forward);
    let rotation = Quat::from_mat3(&Mat3::from_cols(right, up, -forward)).normalize();
    rotation.is_finite().then_some(rotation)
}

/// The largest sine of a roll of less than a quarter turn that is surely at most `max_roll`
/// radians, so a roll can be checked without an angle: `sin(x) >= x - x^3 / 6` for `x >= 0`.
#[cfg(flock_3d)]
fn sine_within(max_roll: f32) -> f32 {
    max_roll - max_roll * max_roll * max_roll / 6.0
}

/// `from` rolled about unit `axis` towards `to` (both unit and square to it) by at most
/// `max_roll` radians. Most steps `to` is within reach ([`sine_within`]) and is the answer,
/// found without an angle or a rotation; otherwise the roll's cosine is compared with
/// `max_roll`'s, so no angle is needed either: `to` if it is within reach, else a roll of
/// `max_roll` its way.
#[cfg(flock_3d)]
fn roll_towards(from: Vec3, to: Vec3, axis: Vec3, max_roll: f32) -> Vec3 {
    let (cos, sin) = (from.dot(to), axis.dot(from.cross(to)));
    if cos > 0.0 && sin.abs() <= sine_within(max_roll) {
        return to;
    }
    // For rolls up to half a turn, the smaller the roll the larger its cosine.
    let (max_sin, max_cos) = (lockstep::sin(max_roll), lockstep::cos(max_roll));
    if max_roll >= std::f32::consts::PI || cos >= max_cos {
        return to;
    }
    rotate_by(from, axis, max_sin * sin.signum(), max_cos)
}

/// The angle from `a` to `b` about unit `axis`, both square to it, in `(-pi, pi]`.
#[cfg(flock_3d)]
fn signed_angle(a: Vec3, b: Vec3, axis: Vec3) -> f32 {
    lockstep::atan2(axis.dot(a.cross(b)), a.dot(b))
}

/// The sign of the roll that turns `from` towards `to` about `axis`.
#[cfg(flock_3d)]
fn roll_sign(from: Vec3, to: Vec3, axis: Vec3) -> f32 {
    signed_angle(from, to, axis).signum()
}

/// `v` rotated by `angle` about unit `axis` (Rodrigues' formula). The sine and cosine are the
/// kernel's pure-Rust ones, not the system's: a leader at rest heads the way its rotation
/// faces, so the rotation reaches its followers' state, which must be the same bits on every
/// machine (see `flock_core::lockstep`).
#[cfg(flock_3d)]
fn rotate_about(v: Vec3, axis: Vec3, angle: f32) -> Vec3 {
    rotate_by(v, axis, lockstep::sin(angle), lockstep::cos(angle))
}

/// [`rotate_about`] by the angle with this sine and cosine.
#[cfg(flock_3d)]
fn rotate_by(v: Vec3, axis: Vec3, sin: f32, cos: f32) -> Vec3 {
    v * cos + axis.cross(v) * sin + axis * (axis.dot(v) * (1.0 - cos))
}

#[cfg(all(test, flock_3d))]
mod tests {
    use super::*;

    fn up_of(rotation: Quat) -> Vec3 {
        rotation * Vec3::Y
    }

    #[test]
    fn faces_the_velocity_and_stays_level() {
        for velocity in [Vec3::X, Vec3::NEG_Z, Vec3::new(1.0, 0.5, -2.0)] {
            let rotation = facing(Quat::IDENTITY, velocity, None, 1.0).unwrap();
            assert!((rotation * Vec3::NEG_Z).distance(velocity.normalize()) < 1e-5);
            // Level: the right wing is horizontal.
            assert!((rotation * Vec3::X).y.abs() < 1e-5, "{velocity}");
            assert!(up_of(rotation).y > 0.0);
        }
    }

    #[test]
    fn the_lane_path_gives_the_full_paths_rotation_or_steps_aside() {
        // Headings all round and at every pitch up to two degrees off the vertical, from
        // previous rotations level, rolled a little (within a step's reach), rolled a lot
        // either way and upside down, at two time steps.
        let lane = |previous: Quat, forward: Vec3, dt: f32| {
            let (taken, rotation) =
                facing_towards_level(forward.to_array(), previous.to_array(), MAX_ROLL_RATE * dt);
            taken.then(|| Quat::from_array(rotation))
        };
        let mut taken = 0;
        for dt in [1.0 / 60.0, 0.1] {
            for yaw in 0..24 {
                for pitch in -11..=11 {
                    let (yaw, pitch) = (yaw as f32 * 0.26, pitch as f32 * 0.14);
                    let forward =
                        Quat::from_rotation_y(yaw) * Quat::from_rotation_x(pitch) * Vec3::NEG_Z;
                    let level = rolled_facing(Quat::IDENTITY, forward, 1.0, None, 1.0).unwrap();
                    for roll in [0.0, 0.05, -0.08, 0.5, -1.0, 3.0] {
                        let previous = level * Quat::from_rotation_z(roll);
                        let full = rolled_facing(previous, forward, 1.0, None, dt).unwrap();
                        let rotation = lane(previous, forward, dt).expect("taken");
                        taken += 1;
                        // The same nose and top (`angle_between` is not defined for two
                        // rotations this close).
                        for axis in [Vec3::NEG_Z, Vec3::Y] {
                            assert!(
                                (rotation * axis).distance(full * axis) < 1e-4,
                                "{forward} {roll}: {rotation} {full}"
                            );
                        }
                        assert!((rotation.length() - 1.0).abs() < 1e-6);
                    }
                }
            }
        }
        assert_eq!(taken, 2 * 24 * 23 * 6);
        // Stepped aside, for the full path: a vertical heading, a roll of more than a radian a
        // step, a rotation not of unit length, and no direction.
        let dt = 1.0 / 60.0;
        assert_eq!(lane(Quat::IDENTITY, Vec3::Y, dt), None);
        assert_eq!(lane(Quat::IDENTITY, Vec3::X, 0.2), None);
        assert_eq!(lane(Quat::IDENTITY * 1.01, Vec3::X, dt), None);
        assert_eq!(lane(Quat::IDENTITY, Vec3::ZERO, dt), None);
        assert_eq!(lane(Quat::IDENTITY, Vec3::NAN, dt), None);
        // A time step of zero or less rolls nothing: the carried up stays.
        let rolled = Quat::from_rotation_z(0.3);
        for dt in [0.0, -1.0] {
            let rotation = lane(rolled, Vec3::NEG_Z, dt).unwrap();
            assert!((rotation * Vec3::Y).distance(rolled * Vec3::Y) < 1e-6);
        }
    }

    #[test]
    fn a_roll_goes_all_the_way_within_reach_and_max_roll_its_way_beyond() {
        let axis = Vec3::new(0.3, -0.8, 0.52).normalize();
        let from = axis.any_orthonormal_vector();
        for max_roll in [0.0, 0.05, 0.3, 1.0, 2.0, 4.0] {
            for wanted in [
                -3.1, -1.0, -0.31, -0.29, -0.04, 0.0, 0.02, 0.29, 0.31, 1.5, 3.1,
            ] {
                let to = rotate_about(from, axis, wanted);
                let rolled = roll_towards(from, to, axis, max_roll);
                let expected = if wanted.abs() <= max_roll {
                    to
                } else {
                    rotate_about(from, axis, max_roll * f32::signum(wanted))
                };
                assert!(
                    rolled.distance(expected) < 1e-5,
                    "{max_roll} {wanted}: {rolled} {expected}"
                );
            }
        }
    }

    #[test]
    fn rodrigues_rotation_is_glams_axis_angle_rotation() {
        let axes = [Vec3::Y, Vec3::new(0.3, -0.8, 0.52).normalize(), Vec3::NEG_Z];
        for axis in axes {
            for angle in [0.0, 0.1, -0.7, 2.5, -3.1] {
                for v in [Vec3::X, Vec3::new(-0.2, 0.9, 0.4), axis] {
                    let ours = rotate_about(v, axis, angle);
                    let glams = Quat::from_axis_angle(axis, angle) * v;
                    assert!(
                        ours.distance(glams) < 1e-5,
                        "{axis} {angle} {v}: {ours} {glams}"
                    );
                }
            }
        }
    }

    #[test]
    fn climbing_and_diving_straight_keep_a_finite_up_without_flipping() {
        for vertical in [Vec3::Y, Vec3::NEG_Y] {
            let mut rotation = facing(Quat::IDENTITY, Vec3::X, None, 1.0 / 60.0).unwrap();
            // Pitch through the vertical and beyond, a few degrees a step.
            for step in 0..=60 {
                let angle = step as f32 * 3.0_f32.to_radians();
                let heading = Vec3::X * angle.cos() + vertical * angle.sin();
                let next = facing(rotation, heading, None, 1.0 / 60.0).unwrap();
                assert!(next.is_finite());
                assert!((next * Vec3::NEG_Z).distance(heading.normalize()) < 1e-4);
                // The up turns by the pitch and at most the roll rate, never half a turn.
                let turned = up_of(rotation).angle_between(up_of(next));
                assert!(turned < 0.2, "step {step}: up turned by {turned}");
                rotation = next;
            }
        }
        // Straight up from nothing: still finite and facing.
        let rotation = facing(Quat::IDENTITY, Vec3::Y, None, 1.0 / 60.0).unwrap();
        assert!((rotation * Vec3::NEG_Z).distance(Vec3::Y) < 1e-5);
    }

    #[test]
    fn banks_into_a_turn_only_when_asked_and_at_most_max_angle() {
        let dt = 1.0 / 60.0;
        let banking = Banking {
            gravity: 100.0,
            max_angle: 0.5,
        };
        // A right turn (from -z towards +x) of 2 degrees a step at 100 units a second.
        let heading = |step: usize| {
            let angle = (step as f32 * 2.0).to_radians();
            Vec3::new(angle.sin(), 0.0, -angle.cos()) * 100.0
        };
        let (mut level, mut banked) = (Quat::IDENTITY, Quat::IDENTITY);
        for step in 0..120 {
            level = facing(level, heading(step), None, dt).unwrap();
            banked = facing(banked, heading(step), Some(&banking), dt).unwrap();
        }
        assert!(
            (level * Vec3::X).y.abs() < 1e-5,
            "without banking it stays level"
        );
        let up = up_of(banked);
        let right = banked * Vec3::X;
        // Rolled towards the turn's centre (the up leans right), by the most allowed.
        assert!(up.dot(right.with_y(0.0)) > 0.0, "up {up}");
        assert!((up.angle_between(Vec3::Y) - 0.5).abs() < 0.01, "up {up}");
    }

    /// The entities whose transforms changed since this system last ran.
    #[derive(Resource, Default)]
    struct ChangedTransforms(Vec<Entity>);

    fn record_changed_transforms(
        mut changed: ResMut<ChangedTransforms>,
        transforms: Query<Entity, Changed<Transform>>,
    ) {
        changed.0 = transforms.iter().collect();
    }

    #[test]
    fn the_system_turns_every_boid_whose_velocity_changed_and_marks_only_those() {
        let dt = 1.0 / 60.0;
        let mut world = World::new();
        let mut time = Time::<()>::default();
        time.advance_by(std::time::Duration::from_secs_f32(dt));
        world.insert_resource(time);
        world.init_resource::<ChangedTransforms>();
        let mut schedule = Schedule::default();
        schedule.add_systems((face_velocity, record_changed_transforms).chain());
        // Two tables: 21 boids without banking (two whole batches of eight and a tail of
        // five), 5 with it; in each a boid at rest.
        let velocity = |i: usize| match i {
            3 | 19 | 23 => Vec3::ZERO,
            _ => Vec3::new((i as f32 * 0.7).cos(), (i as f32 * 0.3).sin() * 0.5, -1.0) * 90.0,
        };
        let banking = Banking::default();
        let boids: Vec<Entity> = (0..26)
            .map(|i| {
                let boid = (Boid, Velocity(velocity(i)));
                if i < 21 {
                    world.spawn(boid).id()
                } else {
                    world.spawn((boid, banking)).id()
                }
            })
            .collect();
        schedule.run(&mut world);
        for (i, &boid) in boids.iter().enumerate() {
            let banking = (i >= 21).then_some(&banking);
            let expected = facing(Quat::IDENTITY, velocity(i), banking, dt).unwrap_or_default();
            let rotation = world.get::<Transform>(boid).unwrap().rotation;
            assert_eq!(rotation.to_array(), expected.to_array(), "boid {i}");
        }

        // Change some velocities (one in each batch, the tail and the banked table), roll one
        // boid whose velocity stays, and run again.
        let changed = [1, 12, 18, 22];
        for &i in &changed {
            world.get_mut::<Velocity>(boids[i]).unwrap().0 = Vec3::new(0.0, 20.0, 80.0);
        }
        let rolled =
            Quat::from_rotation_z(0.8) * world.get::<Transform>(boids[5]).unwrap().rotation;
        world.get_mut::<Transform>(boids[5]).unwrap().rotation = rolled;
        let before: Vec<Quat> = boids
            .iter()
            .map(|&boid| world.get::<Transform>(boid).unwrap().rotation)
            .collect();
        schedule.run(&mut world);
        for (i, &boid) in boids.iter().enumerate() {
            let rotation = world.get::<Transform>(boid).unwrap().rotation;
            if changed.contains(&i) {
                let banking = (i >= 21).then_some(&banking);
                let expected = facing(before[i], Vec3::new(0.0, 20.0, 80.0), banking, dt);
                assert_eq!(Some(rotation), expected, "boid {i}");
            } else {
                assert_eq!(
                    rotation, before[i],
                    "boid {i} turned without a new velocity"
                );
            }
        }
        // Marked changed: the turned boids and the one rolled by hand, no other.
        let mut marked = world.resource::<ChangedTransforms>().0.clone();
        marked.sort();
        let mut expected: Vec<Entity> = [1, 5, 12, 18, 22].map(|i| boids[i]).to_vec();
        expected.sort();
        assert_eq!(marked, expected);
    }

    #[test]
    fn no_direction_no_rotation() {
        assert_eq!(facing(Quat::IDENTITY, Vec3::ZERO, None, 1.0), None);
        assert_eq!(facing(Quat::IDENTITY, Vec3::NAN, None, 1.0), None);
        let broken = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
        assert!(facing(broken, Vec3::X, None, 1.0).unwrap().is_finite());
    }

    /// `facing` without banking for each boid, one at a time: what [`face_velocity`] gives a
    /// batch of eight through the lanes, boid by boid.
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
            for (lane, level) in facings_towards_level(&previous, &velocity, MAX_ROLL_RATE * dt)
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
        // step's reach, rolled beyond it, upside down and a little (or more) off unit length.
        for yaw in 0..36 {
            for pitch in -9..=9 {
                let (yaw, pitch) = (yaw as f32 * 10f32.to_radians(), pitch as f32 * 0.17);
                let heading = Quat::from_euler(EulerRot::YXZ, yaw, pitch, 0.0);
                let level = facing(Quat::IDENTITY, heading * Vec3::NEG_Z, None, 1.0).unwrap();
                let mut previous = [0.0, 0.02, -0.05, 0.5, 3.1, 0.0, 0.01, -0.3]
                    .map(|roll| level * Quat::from_rotation_z(roll));
                previous[5] *= 1.000_001;
                previous[6] *= 1.001;
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
            facings_towards_level(&previous, &velocity, MAX_ROLL_RATE * dt)[..4]
                .iter()
                .all(Option::is_none)
        );
        // Both ways are exercised (the rotations off unit length and the lanes above decline).
        assert!(
            taken > 4000 && declined > 600,
            "{taken} taken, {declined} declined"
        );
    }
}
