// Gameplay on the device: species (their own rules, flocking only with their own kind), hunts
// between species, and points the game moves every frame. The host checks and lays out every
// table (species.rs, points.rs); a count of zero skips its part of the step.
//
// The behaviours are flock_core's steering functions (`seek`/`arrive`, `flee`, `pursue`,
// `evade`), with its `Vehicle`: a position, a velocity, a max speed and the response time.

const MAX_SPECIES: u32 = 8u;
const MAX_POINTS: u32 = 64u;
const POINT_ATTRACTOR: u32 = 0u;
const POINT_REPELLER: u32 = 1u;
const POINT_PREDATOR: u32 = 2u;
// No prey found (a slot in the sorted boids that cannot be one).
const NO_PREY: u32 = 0xffffffffu;

// One species' rules (the flock's own when there are no species).
struct Rule {
    // Separation, alignment and cohesion radii, squared.
    radii_squared: vec4<f32>,
    // Separation, alignment and cohesion weights.
    weights: vec4<f32>,
    // Max speed, max force, the rescale dead zone squared, min speed.
    limits: vec4<f32>,
}

// What a predator species does to a prey species: flee radius and weight, chase radius and
// weight; then the look-ahead and whether the hunt exists (1 or 0).
struct HuntRule {
    flee_chase: vec4<f32>,
    look_ahead: vec4<f32>,
}

struct Kinds {
    // Species, hunts.
    counts: vec4<u32>,
    species: array<Rule, 8>,
    // Indexed predator * MAX_SPECIES + prey.
    hunts: array<HuntRule, 64>,
}

struct Point {
    position: vec4<f32>,
    velocity: vec4<f32>,
    radius: f32,
    weight: f32,
    max_look_ahead: f32,
    kind: u32,
}

struct Points {
    // The number of points in `x`.
    count: vec4<u32>,
    items: array<Point, 64>,
}

@group(1) @binding(0) var<uniform> kinds: Kinds;
@group(1) @binding(1) var<uniform> points: Points;
// Each boid's species, in upload order.
@group(1) @binding(2) var<storage, read> species_of: array<u32>;

struct Vehicle {
    position: Vector,
    velocity: Vector,
    max_speed: f32,
}

// flock_core's `Vehicle::steer_to`.
fn steer_to(vehicle: Vehicle, desired: Vector) -> Vector {
    return (desired - vehicle.velocity) / params.response_time;
}

// flock_core's `arrival_velocity`, then `arrive` (`seek` when `slow_radius` is zero).
fn arrive(vehicle: Vehicle, goal: Vector, slow_radius: f32) -> Vector {
    let offset = goal - vehicle.position;
    let distance = length(offset);
    var speed = vehicle.max_speed;
    if distance < slow_radius {
        speed = vehicle.max_speed * distance / slow_radius;
    }
    return steer_to(vehicle, normalize_or_zero(offset) * speed);
}

// flock_core's `flee` with the radius test already done: full speed away, none on the threat.
fn flee_from(vehicle: Vehicle, threat: Vector) -> Vector {
    let direction = normalize_or_zero(vehicle.position - threat);
    if all(direction == Vector(0.0)) {
        return Vector(0.0);
    }
    return steer_to(vehicle, direction * vehicle.max_speed);
}

// flock_core's `flee`: only while the threat is closer than `radius`.
fn flee(vehicle: Vehicle, threat: Vector, radius: f32) -> Vector {
    let away = vehicle.position - threat;
    if dot(away, away) >= radius * radius {
        return Vector(0.0);
    }
    return flee_from(vehicle, threat);
}

// flock_core's `predict`: where a moving goal will be, at most `max_look_ahead` ahead.
fn predict(vehicle: Vehicle, goal: Vector, goal_velocity: Vector, max_look_ahead: f32) -> Vector {
    let distance = length(goal - vehicle.position);
    var time = 0.0;
    if vehicle.max_speed > 0.0 {
        time = min(distance / vehicle.max_speed, max_look_ahead);
    }
    return goal + goal_velocity * time;
}

// flock_core's `pursue`: seek where the goal will be.
fn pursue(vehicle: Vehicle, goal: Vector, goal_velocity: Vector, max_look_ahead: f32) -> Vector {
    return arrive(vehicle, predict(vehicle, goal, goal_velocity, max_look_ahead), 0.0);
}

// flock_core's `evade`: flee where the threat will be, while it is closer than `radius`.
fn evade(vehicle: Vehicle, threat: Vector, threat_velocity: Vector, max_look_ahead: f32, radius: f32) -> Vector {
    let away = vehicle.position - threat;
    if dot(away, away) >= radius * radius {
        return Vector(0.0);
    }
    return flee_from(vehicle, predict(vehicle, threat, threat_velocity, max_look_ahead));
}

// The weighted sum of every point's force on `vehicle`.
fn point_forces(vehicle: Vehicle) -> Vector {
    var sum = Vector(0.0);
    for (var i = 0u; i < min(points.count.x, MAX_POINTS); i++) {
        let point = points.items[i];
        let at = vector_of(point.position);
        var force = Vector(0.0);
        switch point.kind {
            case POINT_ATTRACTOR: {
                force = arrive(vehicle, at, point.radius);
            }
            case POINT_REPELLER: {
                force = flee(vehicle, at, point.radius);
            }
            case POINT_PREDATOR: {
                force = evade(vehicle, at, vector_of(point.velocity), point.max_look_ahead, point.radius);
            }
            default: {}
        }
        sum += point.weight * force;
    }
    return sum;
}

// flock_core's `limit_force` in its truncate mode (the behaviours' `combine`).
fn truncate_force(force: Vector, max_force: f32) -> Vector {
    let length_squared = dot(force, force);
    if length_squared > max_force * max_force {
        return force * (max_force / sqrt(length_squared));
    }
    return force;
}
