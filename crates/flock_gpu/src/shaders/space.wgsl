// Space's geometry that the plane's differs from (flock_core's `math` in 3D).

// The length of the part of `a` square to unit `b`.
fn cross_length(a: Vector, b: Vector) -> f32 {
    return length(cross(a, b));
}

// flock_core's `sideways_away`: away from the side `offset` lies on, square to the heading;
// dead ahead along `heading x +y`, or +x when the heading is vertical.
fn sideways_away(heading: Vector, offset: Vector) -> Vector {
    let lateral = offset - heading * dot(offset, heading);
    let away = normalize_or_zero(-lateral);
    if any(away != Vector(0.0)) {
        return away;
    }
    let level = normalize_or_zero(cross(heading, Vector(0.0, 1.0, 0.0)));
    if any(level != Vector(0.0)) {
        return level;
    }
    return Vector(1.0, 0.0, 0.0);
}

// A vector square to `v`: glam's `any_orthonormal_vector` (Pixar's orthonormal basis).
fn perpendicular(v: Vector) -> Vector {
    let sign = select(1.0, -1.0, (bitcast<u32>(v.z) & 0x80000000u) != 0u);
    let a = -1.0 / (sign + v.z);
    let b = v.x * v.y * a;
    return Vector(b, sign + v.y * v.y * a, -v.y);
}
