// Obstacle avoidance on the device: flock_core's `avoid_obstacles` over its `Shape`s (balls,
// boxes aligned or turned, capsules; polygons in the plane), with the geometry of its
// `shape::parts`. The host lays the shapes out (obstacles.rs) with each turned box's rotation
// and inverse as columns, and each polygon's vertices in one shared table.

const MAX_OBSTACLES: u32 = 32u;
const SHAPE_BALL: u32 = 0u;
const SHAPE_BOX: u32 = 1u;
const SHAPE_TURNED_BOX: u32 = 2u;
const SHAPE_CAPSULE: u32 = 3u;
const SHAPE_POLYGON: u32 = 4u;
// Larger than any distance a valid obstacle gives (the host keeps them within 1e9).
const FAR: f32 = 3.0e38;

struct Obstacle {
    // A ball's or box's centre; a capsule's first end; a polygon's mean vertex.
    centre: vec4<f32>,
    // A ball's radius (x); a box's half size; a capsule's other end, its radius in w.
    size: vec4<f32>,
    // A turned box's rotation and its inverse, as columns.
    rotation: array<vec4<f32>, 3>,
    inverse: array<vec4<f32>, 3>,
    // The shape, a polygon's first vertex and its number of vertices.
    shape: vec4<u32>,
}

struct Obstacles {
    // The number of obstacles in `x`.
    counts: vec4<u32>,
    // Look-ahead, clearance, weight (the Bevy plugin's `AvoidObstacles`).
    avoidance: vec4<f32>,
    items: array<Obstacle, 32>,
    vertices: array<vec4<f32>, 256>,
}

@group(1) @binding(3) var<uniform> obstacles: Obstacles;

// A way out of a shape, for a point inside it.
struct WayOut {
    inside: bool,
    direction: Vector,
}

// Where a path first meets a shape, if it does.
struct Entry {
    hit: bool,
    distance: f32,
}

fn unit_x() -> Vector {
    var x = Vector(0.0);
    x[0] = 1.0;
    return x;
}

// Rust's `signum`: the sign bit decides, so a zero has a side too.
fn signum(value: f32) -> f32 {
    return select(1.0, -1.0, (bitcast<u32>(value) & 0x80000000u) != 0u);
}

// glam's `perp_dot` on the first two axes (polygons are in the plane).
fn perp_dot(a: Vector, b: Vector) -> f32 {
    return a[0] * b[1] - a[1] * b[0];
}

// A matrix of columns times a vector.
fn turn(columns: array<vec4<f32>, 3>, v: Vector) -> Vector {
    var matrix = columns;
    var out = Vector(0.0);
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        out += vector_of(matrix[axis]) * v[axis];
    }
    return out;
}

fn vertex(index: u32) -> Vector {
    return vector_of(obstacles.vertices[index]);
}

// flock_core's `nearest_on_segment`.
fn nearest_on_segment(point: Vector, a: Vector, b: Vector) -> Vector {
    let along = b - a;
    let length_squared = dot(along, along);
    if length_squared == 0.0 {
        return a;
    }
    return a + along * clamp(dot(point - a, along) / length_squared, 0.0, 1.0);
}

fn ball_way_out(centre: Vector, radius: f32, point: Vector) -> WayOut {
    let out = point - centre;
    if dot(out, out) < radius * radius {
        let direction = normalize_or_zero(out);
        return WayOut(true, select(direction, unit_x(), all(direction == Vector(0.0))));
    }
    return WayOut(false, Vector(0.0));
}

// Out through the nearest face (the last axis of a tie).
fn box_way_out(centre: Vector, half_size: Vector, point: Vector) -> WayOut {
    let out = point - centre;
    let depth = half_size - abs(out);
    if !all(depth > Vector(0.0)) {
        return WayOut(false, Vector(0.0));
    }
    var nearest = 0u;
    for (var axis = 1u; axis < DIMENSIONS; axis++) {
        if depth[axis] <= depth[nearest] {
            nearest = axis;
        }
    }
    var way = Vector(0.0);
    way[nearest] = signum(out[nearest]);
    return WayOut(true, way);
}

// A polygon's outline point nearest `point` and the outward normal of that edge.
struct EdgePoint {
    point: Vector,
    outward: Vector,
}

fn polygon_nearest_edge(first: u32, count: u32, point: Vector) -> EdgePoint {
    var best = FAR;
    var result = EdgePoint(Vector(0.0), unit_x());
    for (var i = 0u; i < count; i++) {
        let a = vertex(first + i);
        let b = vertex(first + (i + 1u) % count);
        let nearest = nearest_on_segment(point, a, b);
        let offset = nearest - point;
        let distance = dot(offset, offset);
        if distance < best {
            // Counter-clockwise: the outside is on the right of each edge.
            let edge = normalize_or_zero(perpendicular(b - a));
            let outward = select(edge, unit_x(), all(edge == Vector(0.0))) * -1.0;
            best = distance;
            result = EdgePoint(nearest, outward);
        }
    }
    return result;
}

// By the crossing number.
fn polygon_contains(first: u32, count: u32, point: Vector) -> bool {
    var inside = false;
    for (var i = 0u; i < count; i++) {
        let a = vertex(first + i);
        let b = vertex(first + (i + 1u) % count);
        if (a[1] > point[1]) != (b[1] > point[1]) {
            let x = a[0] + (point[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if point[0] < x {
                inside = !inside;
            }
        }
    }
    return inside;
}

// flock_core's `Shape::way_out`.
fn way_out(obstacle: Obstacle, point: Vector) -> WayOut {
    let centre = vector_of(obstacle.centre);
    switch obstacle.shape.x {
        case SHAPE_BALL: {
            return ball_way_out(centre, obstacle.size.x, point);
        }
        case SHAPE_BOX: {
            return box_way_out(centre, vector_of(obstacle.size), point);
        }
        case SHAPE_TURNED_BOX: {
            let local = turn(obstacle.inverse, point - centre);
            let way = box_way_out(Vector(0.0), vector_of(obstacle.size), local);
            return WayOut(way.inside, turn(obstacle.rotation, way.direction));
        }
        case SHAPE_CAPSULE: {
            let end = vector_of(obstacle.size);
            let out = point - nearest_on_segment(point, centre, end);
            if dot(out, out) < obstacle.size.w * obstacle.size.w {
                let direction = normalize_or_zero(out);
                let across = perpendicular(end - centre);
                return WayOut(true, select(direction, across, all(direction == Vector(0.0))));
            }
            return WayOut(false, Vector(0.0));
        }
        case SHAPE_POLYGON: {
            let first = obstacle.shape.y;
            let count = obstacle.shape.z;
            if polygon_contains(first, count, point) {
                return WayOut(true, polygon_nearest_edge(first, count, point).outward);
            }
            return WayOut(false, Vector(0.0));
        }
        default: {
            return WayOut(false, Vector(0.0));
        }
    }
}

fn ball_entry(centre: Vector, radius: f32, position: Vector, heading: Vector, clearance: f32) -> Entry {
    let offset = centre - position;
    let reach = radius + clearance;
    let lateral = cross_length(offset, heading);
    let half_chord_squared = reach * reach - lateral * lateral;
    if half_chord_squared > 0.0 {
        return Entry(true, max(dot(offset, heading) - sqrt(half_chord_squared), 0.0));
    }
    return Entry(false, 0.0);
}

// The slab method: the ray inside the box between the last entry and the first exit.
fn box_entry(centre: Vector, half_size: Vector, position: Vector, heading: Vector, clearance: f32) -> Entry {
    let grown = half_size + Vector(clearance);
    let low = centre - grown - position;
    let high = centre + grown - position;
    var entry = -FAR;
    var exit = FAR;
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        if heading[axis] == 0.0 {
            if low[axis] > 0.0 || high[axis] < 0.0 {
                return Entry(false, 0.0);
            }
            continue;
        }
        let a = low[axis] / heading[axis];
        let b = high[axis] / heading[axis];
        entry = max(entry, min(a, b));
        exit = min(exit, max(a, b));
    }
    return Entry(exit >= max(entry, 0.0), max(entry, 0.0));
}

// flock_core's `capsule_entry`: the ray against the points within `radius` of segment a-b.
fn capsule_entry(origin: Vector, heading: Vector, a: Vector, b: Vector, radius: f32) -> Entry {
    let to_axis = origin - nearest_on_segment(origin, a, b);
    if dot(to_axis, to_axis) <= radius * radius {
        return Entry(true, 0.0);
    }
    let axis = b - a;
    let from_a = origin - a;
    let axis_squared = dot(axis, axis);
    let axis_heading = dot(axis, heading);
    let axis_from_a = dot(axis, from_a);
    let k2 = axis_squared - axis_heading * axis_heading;
    let k1 = axis_squared * dot(heading, from_a) - axis_from_a * axis_heading;
    let k0 = axis_squared * dot(from_a, from_a) - axis_from_a * axis_from_a - radius * radius * axis_squared;
    let discriminant = k1 * k1 - k2 * k0;
    if discriminant < 0.0 {
        return Entry(false, 0.0);
    }
    if k2 > 0.0 {
        let t = (-k1 - sqrt(discriminant)) / k2;
        let along = axis_from_a + t * axis_heading;
        if t >= 0.0 && along > 0.0 && along < axis_squared {
            return Entry(true, t);
        }
    }
    var result = Entry(false, FAR);
    for (var end_index = 0u; end_index < 2u; end_index++) {
        let end = select(a, b, end_index == 1u);
        let to_origin = origin - end;
        let half_b = dot(heading, to_origin);
        let h = half_b * half_b - (dot(to_origin, to_origin) - radius * radius);
        let t = -half_b - sqrt(max(h, 0.0));
        if h >= 0.0 && t >= 0.0 && (!result.hit || t < result.distance) {
            result = Entry(true, t);
        }
    }
    return result;
}

// flock_core's `ray_crosses_segment` (polygon edges, in the plane).
fn ray_crosses_segment(origin: Vector, heading: Vector, a: Vector, b: Vector) -> Entry {
    let edge = b - a;
    let denominator = perp_dot(heading, edge);
    if denominator == 0.0 {
        return Entry(false, 0.0);
    }
    let to_a = a - origin;
    let distance = perp_dot(to_a, edge) / denominator;
    let along_edge = perp_dot(to_a, heading) / denominator;
    return Entry(distance >= 0.0 && along_edge >= 0.0 && along_edge <= 1.0, distance);
}

// The nearer of two entries.
fn nearer(a: Entry, b: Entry) -> Entry {
    if !a.hit || (b.hit && b.distance < a.distance) {
        return b;
    }
    return a;
}

// flock_core's `Shape::ray_entry`.
fn ray_entry(obstacle: Obstacle, position: Vector, heading: Vector, clearance: f32) -> Entry {
    let centre = vector_of(obstacle.centre);
    switch obstacle.shape.x {
        case SHAPE_BALL: {
            return ball_entry(centre, obstacle.size.x, position, heading, clearance);
        }
        case SHAPE_BOX: {
            return box_entry(centre, vector_of(obstacle.size), position, heading, clearance);
        }
        case SHAPE_TURNED_BOX: {
            let local_position = turn(obstacle.inverse, position - centre);
            let local_heading = turn(obstacle.inverse, heading);
            return box_entry(Vector(0.0), vector_of(obstacle.size), local_position, local_heading, clearance);
        }
        case SHAPE_CAPSULE: {
            return capsule_entry(position, heading, centre, vector_of(obstacle.size), obstacle.size.w + clearance);
        }
        case SHAPE_POLYGON: {
            // The polygon grown by the clearance is the union of the polygon and a capsule
            // around each edge.
            let first = obstacle.shape.y;
            let count = obstacle.shape.z;
            var best = Entry(false, FAR);
            for (var i = 0u; i < count; i++) {
                let a = vertex(first + i);
                let b = vertex(first + (i + 1u) % count);
                best = nearer(best, ray_crosses_segment(position, heading, a, b));
                best = nearer(best, capsule_entry(position, heading, a, b, clearance));
            }
            return best;
        }
        default: {
            return Entry(false, 0.0);
        }
    }
}

// flock_core's `Shape::dodge_point`: the centre; for a turned box or a polygon, the centre
// while it is ahead, then the point nearest the hit; for a capsule, its axis point nearest
// the hit.
fn dodge_point(obstacle: Obstacle, position: Vector, hit: Vector) -> Vector {
    let centre = vector_of(obstacle.centre);
    switch obstacle.shape.x {
        case SHAPE_TURNED_BOX: {
            if dot(centre - position, hit - position) > 0.0 {
                return centre;
            }
            let half_size = vector_of(obstacle.size);
            let local = turn(obstacle.inverse, hit - centre);
            return centre + turn(obstacle.rotation, clamp(local, -half_size, half_size));
        }
        case SHAPE_CAPSULE: {
            return nearest_on_segment(hit, centre, vector_of(obstacle.size));
        }
        case SHAPE_POLYGON: {
            if dot(centre - position, hit - position) > 0.0 {
                return centre;
            }
            return polygon_nearest_edge(obstacle.shape.y, obstacle.shape.z, hit).point;
        }
        default: {
            return centre;
        }
    }
}

// flock_core's `escape`: straight out at full speed in one response time.
fn escape(vehicle: Vehicle, out: Vector) -> Vector {
    if !is_finite_vector(out) {
        return Vector(0.0);
    }
    return steer_to(vehicle, out * vehicle.max_speed);
}

// flock_core's `dodge`: sideways, from nothing at the look-ahead to full speed at the obstacle.
fn dodge_along(vehicle: Vehicle, heading: Vector, entry: f32, away_from: Vector, look_ahead: f32) -> Vector {
    let offset = away_from - vehicle.position;
    let within_reach = entry <= look_ahead;
    let ahead = is_finite_vector(offset) && dot(offset, heading) > 0.0;
    if all(heading == Vector(0.0)) || !ahead || !within_reach {
        return Vector(0.0);
    }
    let push = sideways_away(heading, offset) * (1.0 - entry / look_ahead);
    return push * vehicle.max_speed / params.response_time;
}

// flock_core's `avoid_obstacles`: out of the first obstacle the boid is inside, else a push
// from the nearest one its path meets within the look-ahead.
fn avoid_obstacles(vehicle: Vehicle, heading: Vector) -> Vector {
    let look_ahead = obstacles.avoidance.x;
    let clearance = obstacles.avoidance.y;
    var found = false;
    var nearest = 0.0;
    var push = Vector(0.0);
    for (var i = 0u; i < min(obstacles.counts.x, MAX_OBSTACLES); i++) {
        let obstacle = obstacles.items[i];
        let way = way_out(obstacle, vehicle.position);
        if way.inside {
            return escape(vehicle, way.direction);
        }
        if all(heading == Vector(0.0)) {
            continue;
        }
        let entry = ray_entry(obstacle, vehicle.position, heading, clearance);
        if !entry.hit {
            continue;
        }
        let hit = vehicle.position + heading * entry.distance;
        let away_from = dodge_point(obstacle, vehicle.position, hit);
        if !found || entry.distance < nearest {
            let dodge = dodge_along(vehicle, heading, entry.distance, away_from, look_ahead);
            if any(dodge != Vector(0.0)) {
                found = true;
                nearest = entry.distance;
                push = dodge;
            }
        }
    }
    return push;
}
