// Containment on the device: flock_core's `contain` (Reynolds' probes ahead and to the sides,
// turning back from the boundary of an `Enclosure`), as the Bevy plugin's `StayInside` with a
// `Pen` does it: a polygon in the plane, a box in space. The host lays it out (containment.rs).

const ENCLOSURE_POLYGON: u32 = 0u;
const ENCLOSURE_BOX: u32 = 1u;
// cos 30 degrees (the nearest f32), as flock_core's `COS_30_DEGREES`.
const COS_30_DEGREES: f32 = 0.8660254;

struct Enclosure {
    // Whether there is one, its kind, its number of vertices (a polygon's).
    shape: vec4<u32>,
    // A box's centre and half size.
    centre: vec4<f32>,
    half_size: vec4<f32>,
    // Look-ahead, weight.
    containment: vec4<f32>,
    vertices: array<vec4<f32>, 64>,
}

@group(1) @binding(4) var<uniform> enclosure: Enclosure;

fn pen_vertex(index: u32) -> Vector {
    return vector_of(enclosure.vertices[index]);
}

// The pen's boundary point nearest `point` and its outward normal there (a polygon's edge).
fn pen_nearest_edge(point: Vector) -> EdgePoint {
    let count = enclosure.shape.z;
    var best = FAR;
    var result = EdgePoint(Vector(0.0), unit_x());
    for (var i = 0u; i < count; i++) {
        let a = pen_vertex(i);
        let b = pen_vertex((i + 1u) % count);
        let nearest = nearest_on_segment(point, a, b);
        let offset = nearest - point;
        let distance = dot(offset, offset);
        if distance < best {
            let edge = normalize_or_zero(perpendicular(b - a));
            let outward = select(edge, unit_x(), all(edge == Vector(0.0))) * -1.0;
            best = distance;
            result = EdgePoint(nearest, outward);
        }
    }
    return result;
}

fn pen_contains(point: Vector) -> bool {
    if enclosure.shape.y == ENCLOSURE_BOX {
        return all(abs(point - vector_of(enclosure.centre)) < vector_of(enclosure.half_size));
    }
    let count = enclosure.shape.z;
    var inside = false;
    for (var i = 0u; i < count; i++) {
        let a = pen_vertex(i);
        let b = pen_vertex((i + 1u) % count);
        if (a[1] > point[1]) != (b[1] > point[1]) {
            let x = a[0] + (point[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if point[0] < x {
                inside = !inside;
            }
        }
    }
    return inside;
}

fn signum_vector(v: Vector) -> Vector {
    var out = v;
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        out[axis] = signum(v[axis]);
    }
    return out;
}

// flock_core's `Enclosure::way_in`: from outside towards the nearest boundary point; from
// inside away from the nearest boundary.
fn pen_way_in(point: Vector) -> Vector {
    if enclosure.shape.y == ENCLOSURE_BOX {
        let half_size = vector_of(enclosure.half_size);
        let offset = point - vector_of(enclosure.centre);
        let outside = abs(offset) - half_size;
        if any(outside > Vector(0.0)) {
            let toward = normalize_or_zero(clamp(offset, -half_size, half_size) - offset);
            return select(toward, -signum_vector(offset), all(toward == Vector(0.0)));
        }
        // Back from the nearest face (the first axis of a tie).
        var nearest = 0u;
        for (var axis = 1u; axis < DIMENSIONS; axis++) {
            if outside[axis] > outside[nearest] {
                nearest = axis;
            }
        }
        var way = Vector(0.0);
        way[nearest] = -signum(offset[nearest]);
        return way;
    }
    let edge = pen_nearest_edge(point);
    if pen_contains(point) {
        return -edge.outward;
    }
    let toward = normalize_or_zero(edge.point - point);
    return select(toward, -edge.outward, all(toward == Vector(0.0)));
}

// Where the segment `start`-`end` first crosses the boundary (a fraction of the way), with the
// inward normal of the side it crosses.
struct Crossing {
    hit: bool,
    at: f32,
    inward: Vector,
}

fn pen_crossing(start: Vector, end: Vector) -> Crossing {
    let way = end - start;
    var best = Crossing(false, FAR, Vector(0.0));
    if enclosure.shape.y == ENCLOSURE_BOX {
        let centre = vector_of(enclosure.centre);
        let half_size = vector_of(enclosure.half_size);
        for (var axis = 0u; axis < DIMENSIONS; axis++) {
            if way[axis] == 0.0 {
                continue;
            }
            let side = centre[axis] + half_size[axis] * signum(way[axis]);
            let at = (side - start[axis]) / way[axis];
            if at >= 0.0 && at <= 1.0 && (!best.hit || at < best.at) {
                var inward = Vector(0.0);
                inward[axis] = -signum(way[axis]);
                best = Crossing(true, at, inward);
            }
        }
        return best;
    }
    let count = enclosure.shape.z;
    for (var i = 0u; i < count; i++) {
        let a = pen_vertex(i);
        let b = pen_vertex((i + 1u) % count);
        let crossing = ray_crosses_segment(start, way, a, b);
        if crossing.hit && crossing.distance <= 1.0 && (!best.hit || crossing.distance < best.at) {
            // Counter-clockwise: the inside is on the left of each edge.
            best = Crossing(true, crossing.distance, normalize_or_zero(perpendicular(b - a)));
        }
    }
    return best;
}

// flock_core's `contain`.
fn contain(vehicle: Vehicle, heading: Vector) -> Vector {
    let full = vehicle.max_speed / params.response_time;
    if !pen_contains(vehicle.position) {
        return pen_way_in(vehicle.position) * full;
    }
    let look_ahead = enclosure.containment.x;
    if all(heading == Vector(0.0)) {
        return Vector(0.0);
    }
    var push = Vector(0.0);
    for (var probe = 0u; probe <= SIDE_PROBES; probe++) {
        var direction = heading;
        var weight = 1.0;
        if probe > 0u {
            direction = heading * COS_30_DEGREES + side_probe(heading, probe - 1u) * 0.5;
            weight = 0.5;
        }
        let crossing = pen_crossing(vehicle.position, vehicle.position + direction * look_ahead);
        if crossing.hit {
            push += crossing.inward * weight * (1.0 - 0.5 * crossing.at);
        }
    }
    // A push straight against the heading only brakes: turn to a side as well, away from the
    // nearest boundary.
    let lateral = push - heading * dot(push, heading);
    if dot(lateral, lateral) < 0.0625 * dot(push, push) {
        let way_in = pen_way_in(vehicle.position);
        var turn = normalize_or_zero(way_in - heading * dot(way_in, heading));
        if all(turn == Vector(0.0)) {
            turn = side_probe(heading, 0u);
        }
        push += turn * length(push);
    }
    let length_squared = dot(push, push);
    if length_squared > 1.0 {
        push = 1.0 * (push / sqrt(length_squared));
    }
    return push * full;
}
