//! The vector type of this build and the small helpers every rule shares, with the two settings
//! types they take: [`Bounds`] (a random point in them) and [`ForceLimit`] (how a force is
//! limited).
//!
//! The kernel is written against the alias [`Vector`] and mostly uses operations that `Vec2`
//! and `Vec3` both have. `flock_core` compiles it with `Vector = Vec2`; `flock_core3d` compiles
//! the same source with the `flock_3d` cfg, which makes it `Vec3` (the way avian keeps one source
//! per dimension behind type aliases). The few helpers that differ per dimension are here.

/// The vector type the kernel computes with: `Vec2` in `flock_core`, `Vec3` in `flock_core3d`.
#[cfg(not(flock_3d))]
pub type Vector = glam::Vec2;
/// The vector type the kernel computes with: `Vec2` in `flock_core`, `Vec3` in `flock_core3d`.
#[cfg(flock_3d)]
pub type Vector = glam::Vec3;

/// A rotation of this dimension: a 2 x 2 rotation matrix in 2D, a quaternion in 3D.
#[cfg(not(flock_3d))]
pub type Rotation = glam::Mat2;
/// A rotation of this dimension: a 2 x 2 rotation matrix in 2D, a quaternion in 3D.
#[cfg(flock_3d)]
pub type Rotation = glam::Quat;

/// [`Vector`] in f64, for the reference sums.
#[cfg(not(flock_3d))]
pub(crate) type DVector = glam::DVec2;
#[cfg(flock_3d)]
pub(crate) type DVector = glam::DVec3;

/// How many axes a [`Vector`] has: 2 in `flock_core`, 3 in `flock_core3d`.
#[cfg(not(flock_3d))]
pub const DIMENSIONS: usize = 2;
/// How many axes a [`Vector`] has: 2 in `flock_core`, 3 in `flock_core3d`.
#[cfg(flock_3d)]
pub const DIMENSIONS: usize = 3;

/// The vector `(x, y)`, in 3D in the plane z = 0: for code and tests that mean a point of the
/// plane in either dimension.
#[inline]
pub fn planar(x: f32, y: f32) -> Vector {
    #[cfg(not(flock_3d))]
    return Vector::new(x, y);
    #[cfg(flock_3d)]
    return Vector::new(x, y, 0.0);
}

/// The size of a world `width` wide and `height` high: in 3D as deep as it is high, so a
/// preset's screen-shaped world becomes a box around the same view.
#[inline]
pub fn world_size(width: f32, height: f32) -> Vector {
    #[cfg(not(flock_3d))]
    return Vector::new(width, height);
    #[cfg(flock_3d)]
    return Vector::new(width, height, height);
}

/// `v` in f64.
#[inline]
pub(crate) fn widen(v: Vector) -> DVector {
    DVector::from_array(v.to_array().map(f64::from))
}

/// `v` back in f32, each axis rounded to the nearest.
#[inline]
pub(crate) fn narrow(v: DVector) -> Vector {
    Vector::from_array(v.to_array().map(|axis| axis as f32))
}

/// A direction uniformly distributed over the circle (2D) or the sphere (3D), from `rng`.
pub fn random_direction(rng: &mut impl rand::Rng) -> Vector {
    use rand::RngExt;
    #[cfg(not(flock_3d))]
    {
        from_angle(rng.random_range(0.0..std::f32::consts::TAU))
    }
    #[cfg(flock_3d)]
    {
        // Archimedes: z uniform in [-1, 1] and the angle around z uniform give a uniform
        // point on the sphere.
        let z: f32 = rng.random_range(-1.0..=1.0);
        let angle = rng.random_range(0.0..std::f32::consts::TAU);
        let ring = (1.0 - z * z).max(0.0).sqrt();
        Vector::new(ring * cos(angle), ring * sin(angle), z)
    }
}

/// An axis-aligned rectangle (a box in 3D) of world space.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bounds {
    /// The lowest corner.
    pub min: Vector,
    /// The highest corner.
    pub max: Vector,
}

impl Bounds {
    /// Bounds centred on the origin with the given full size.
    pub fn centered(size: Vector) -> Self {
        Self {
            min: -size / 2.0,
            max: size / 2.0,
        }
    }

    /// The full size, `max - min`.
    pub fn size(&self) -> Vector {
        self.max - self.min
    }

    /// The centre point.
    pub fn center(&self) -> Vector {
        (self.min + self.max) / 2.0
    }

    /// Whether `point` lies inside, edges included.
    #[inline]
    pub fn contains(&self, point: Vector) -> bool {
        point.cmpge(self.min).all() && point.cmple(self.max).all()
    }
}

impl Default for Bounds {
    fn default() -> Self {
        Self::centered(world_size(1280.0, 720.0))
    }
}

/// A point uniformly distributed in `bounds`, from `rng`.
pub fn random_point(bounds: &Bounds, rng: &mut impl rand::Rng) -> Vector {
    use rand::RngExt;
    let mut point = bounds.min;
    for axis in 0..DIMENSIONS {
        point[axis] = rng.random_range(bounds.min[axis]..=bounds.max[axis]);
    }
    point
}

/// The length of the part of `a` square to unit `b` (in 2D signed: the perp dot product).
#[inline]
pub(crate) fn cross_length(a: Vector, b: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return a.perp_dot(b);
    #[cfg(flock_3d)]
    return a.cross(b).length();
}

/// The unit push square to unit `heading` away from the side `offset` lies on: for dodging an
/// obstacle whose centre is at `offset`. Dead ahead it pushes along the heading turned a
/// quarter anticlockwise in 2D, and in 3D along `heading x +y` (sideways in the horizontal
/// plane, up being +y), or +x when the heading is vertical.
#[inline]
pub(crate) fn sideways_away(heading: Vector, offset: Vector) -> Vector {
    #[cfg(not(flock_3d))]
    {
        let side = heading.perp();
        if offset.dot(side) > 0.0 { -side } else { side }
    }
    #[cfg(flock_3d)]
    {
        let lateral = offset - heading * offset.dot(heading);
        (-lateral).try_normalize().unwrap_or_else(|| {
            heading
                .cross(Vector::Y)
                .try_normalize()
                .unwrap_or(Vector::X)
        })
    }
}

/// The unit direction along a wall whose unit normal towards the follower is `normal`, with
/// the wall on the follower's left hand (seen from above: +z in 2D, +y in 3D): `Ok`. In 3D,
/// where the wall faces straight up or down, no direction along it is to either hand: `Err`
/// with the direction along it nearest `heading` (any, for a heading square to it).
#[inline]
pub(crate) fn left_along_wall(normal: Vector, heading: Vector) -> Result<Vector, Vector> {
    #[cfg(not(flock_3d))]
    {
        let _ = heading;
        Ok(normal.perp())
    }
    #[cfg(flock_3d)]
    Vector::Y.cross(normal).try_normalize().ok_or_else(|| {
        (heading - normal * heading.dot(normal))
            .try_normalize()
            .unwrap_or_else(|| normal.any_orthonormal_vector())
    })
}

/// Unit directions square to unit `heading`: its two sides in 2D, four in 3D.
pub(crate) fn square_to(heading: Vector) -> [Vector; 2 * (DIMENSIONS - 1)] {
    #[cfg(not(flock_3d))]
    {
        let side = heading.perp();
        [side, -side]
    }
    #[cfg(flock_3d)]
    {
        let (a, b) = heading.any_orthonormal_pair();
        [a, -a, b, -b]
    }
}

/// `value` as a time or distance for a behaviour: negative counts as zero, and so does a
/// value that is not finite.
#[inline]
pub(crate) fn non_negative(value: f32) -> f32 {
    if value.is_finite() {
        value.max(0.0)
    } else {
        0.0
    }
}

/// Unit `from` turned towards unit `to` by at most `max_angle` radians (`to` itself when the
/// angle between them is smaller). In 3D the turn is in the plane of the two headings; exactly
/// opposite headings turn about +y (or +x for vertical ones), in 2D anticlockwise.
#[inline]
pub(crate) fn turn_towards(from: Vector, to: Vector, max_angle: f32) -> Vector {
    #[cfg(not(flock_3d))]
    {
        let turn = from.angle_to(to);
        if turn.abs() <= max_angle {
            to
        } else {
            from.rotate(from_angle(max_angle.copysign(turn)))
        }
    }
    #[cfg(flock_3d)]
    {
        // The angle from the parts of `to` along and across `from`: exact for small and
        // nearly opposite angles, where `acos` of the dot product is not.
        let along = to.dot(from);
        let across = to - from * along;
        let turn = atan2(across.length(), along);
        if turn <= max_angle {
            return to;
        }
        let way = across
            .try_normalize()
            .unwrap_or_else(|| from.cross(Vector::Y).try_normalize().unwrap_or(Vector::X));
        (from * cos(max_angle) + way * sin(max_angle)).normalize_or(from)
    }
}

/// The unit vector to the right of unit `heading` on the ground: in 2D the heading turned a
/// quarter clockwise; in 3D `heading x +y` (the ground is the x-z plane and up is +y, as in
/// Bevy).
#[inline]
pub(crate) fn right_of(heading: Vector) -> Vector {
    #[cfg(not(flock_3d))]
    return Vector::new(heading.y, -heading.x);
    #[cfg(flock_3d)]
    return Vector::new(-heading.z, 0.0, heading.x);
}

/// `heading` turned by `angle` radians about the up axis (+y in 3D): a positive angle turns
/// it to the left, a negative one to the right (see [`right_of`]).
#[inline]
pub(crate) fn turn_about_up(heading: Vector, angle: f32) -> Vector {
    #[cfg(not(flock_3d))]
    return from_angle(angle).rotate(heading);
    #[cfg(flock_3d)]
    {
        // `Quat::from_rotation_y`, with the sine and cosine of `lockstep`.
        let half = angle * 0.5;
        glam::Quat::from_xyzw(0.0, sin(half), 0.0, cos(half)) * heading
    }
}

/// The unit vector `angle` radians anticlockwise from +x: `Vec2::from_angle` with the sine and
/// cosine of [`crate::lockstep`], the same bits on every processor.
#[cfg(not(flock_3d))]
#[inline]
pub(crate) fn from_angle(angle: f32) -> Vector {
    Vector::new(cos(angle), sin(angle))
}

/// How a steering force is limited to `max_force`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ForceLimit {
    /// Shorten forces longer than `max_force`, keep shorter ones (Reynolds, Processing, *The
    /// Nature of Code*).
    #[default]
    Truncate,
    /// Give every force exactly `max_force` (Processing's *Flocking* as ported to Unity,
    /// `steer.normalized * maxforce`); as Unity's `normalized`, a force within a dead zone of
    /// almost nothing gives no force ([`RESCALE_DEAD_ZONE`](crate::RESCALE_DEAD_ZONE)).
    Rescale,
}

/// Applies a [`ForceLimit`] to a steering force.
///
/// `Truncate` (Reynolds, Processing, *The Nature of Code*) only shortens forces longer than
/// `max_force`; `Rescale` (Processing's *Flocking* as ported to Unity, `steer.normalized *
/// maxforce`) gives every non-zero force exactly `max_force`. A zero force stays zero in both
/// modes.
#[inline]
pub fn limit_force(force: Vector, max_force: f32, mode: ForceLimit) -> Vector {
    match mode {
        ForceLimit::Truncate => {
            let length_squared = force.length_squared();
            if length_squared > max_force * max_force {
                force * (max_force / length_squared.sqrt())
            } else {
                force
            }
        }
        ForceLimit::Rescale => force.normalize_or_zero() * max_force,
    }
}

/// The sine of `angle` radians, the same bits on every processor (pure Rust, unlike the
/// system's `sinf`; see [`lockstep`](crate::lockstep)).
#[inline]
pub fn sin(angle: f32) -> f32 {
    libm::sinf(angle)
}

/// The cosine of `angle` radians, the same bits on every processor.
#[inline]
pub fn cos(angle: f32) -> f32 {
    libm::cosf(angle)
}

/// The angle of the point `(x, y)` from the x axis, in `[-pi, pi]`, the same bits on every
/// processor.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_only_shortens_long_forces() {
        let short = planar(0.3, 0.4);
        assert_eq!(limit_force(short, 1.0, ForceLimit::Truncate), short);
        let long = planar(3.0, 4.0);
        let limited = limit_force(long, 1.0, ForceLimit::Truncate);
        assert!((limited - planar(0.6, 0.8)).length() < 1e-6);
    }

    #[test]
    fn rescale_gives_every_nonzero_force_the_max() {
        let short = planar(0.3, 0.4);
        let scaled = limit_force(short, 2.0, ForceLimit::Rescale);
        assert!((scaled - planar(1.2, 1.6)).length() < 1e-6);
        assert_eq!(
            limit_force(Vector::ZERO, 2.0, ForceLimit::Rescale),
            Vector::ZERO
        );
    }
}
