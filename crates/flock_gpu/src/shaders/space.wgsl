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

// Directions square to a unit heading, for containment's side probes: flock_core's
// `square_to` (glam's `any_orthonormal_pair`, each both ways).
const SIDE_PROBES: u32 = 4u;

fn side_probe(heading: Vector, index: u32) -> Vector {
    let sign = select(1.0, -1.0, (bitcast<u32>(heading.z) & 0x80000000u) != 0u);
    let a = -1.0 / (sign + heading.z);
    let b = heading.x * heading.y * a;
    let first = Vector(1.0 + sign * heading.x * heading.x * a, sign * b, -sign * heading.x);
    let second = Vector(b, sign + heading.y * heading.y * a, -heading.y);
    switch index {
        case 0u: { return first; }
        case 1u: { return -first; }
        case 2u: { return second; }
        default: { return -second; }
    }
}
