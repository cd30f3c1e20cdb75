// The plane's geometry that space's differs from (flock_core's `math` in 2D).

// The length of the part of `a` square to unit `b`, signed: glam's `perp_dot`.
fn cross_length(a: Vector, b: Vector) -> f32 {
    return a.x * b.y - a.y * b.x;
}

// flock_core's `sideways_away`: the heading turned a quarter, to the side away from `offset`.
fn sideways_away(heading: Vector, offset: Vector) -> Vector {
    let side = Vector(-heading.y, heading.x);
    if dot(offset, side) > 0.0 {
        return -side;
    }
    return side;
}

// A vector square to `v`: glam's `perp`.
fn perpendicular(v: Vector) -> Vector {
    return Vector(-v.y, v.x);
}

// Directions square to a unit heading, for containment's side probes: flock_core's
// `square_to` (the heading turned a quarter each way).
const SIDE_PROBES: u32 = 2u;

fn side_probe(heading: Vector, index: u32) -> Vector {
    let side = Vector(-heading.y, heading.x);
    return select(side, -side, index == 1u);
}
