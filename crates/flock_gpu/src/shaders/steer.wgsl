// One invocation per boid in cell order: separation, alignment and cohesion in one pass over
// the boids of the neighbouring cells (flock_core's `rule_forces` and `RuleSums::into_forces`),
// then integration, the speed mode and the edges (flock_core's `integrate` and `apply_edge`).
// The result goes back to the boid's own slot, so boids keep their order between steps.
//
// With gameplay (the `GAMEPLAY` pipeline constant, shaders/gameplay.wgsl), each boid takes its
// species' rules and flocks only with its own kind, the same walk over the neighbours finds
// the hunts' predators and prey, and the points, obstacles (shaders/obstacles.wgsl) and the
// enclosure (shaders/containment.wgsl) add their forces. The pipeline without it is
// the plain flock, so a flock without species, hunts or points pays nothing for them.

override GAMEPLAY: bool = false;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> boids: array<Boid>;
// The boids in cell order, positions apart from velocities (shaders/grid.wgsl).
@group(0) @binding(2) var<storage, read_write> sorted: array<Vector>;
@group(0) @binding(3) var<storage, read_write> sorted_index: array<u32>;
@group(0) @binding(6) var<storage, read_write> cell_start: array<u32>;
// The grid this step's cells were counted on (shaders/grid.wgsl's `fit_grid`).
@group(0) @binding(5) var<storage, read_write> fitted: GridFit;

// The vector from `here` to `there`: across the seams (the minimum image) when the world wraps.
fn delta(here: Vector, there: Vector) -> Vector {
    let plain = there - here;
    if params.periodic == 0u {
        return plain;
    }
    let size = vector_of(params.bounds_size);
    let ratio = plain / size;
    // Rust's `round`: halves away from zero.
    let rounded = sign(ratio) * floor(abs(ratio) + 0.5);
    return plain - size * rounded;
}

// glam's `normalize_or_zero`.
fn normalize_or_zero(v: Vector) -> Vector {
    let reciprocal = 1.0 / length(v);
    if is_finite(reciprocal) && reciprocal > 0.0 {
        return v * reciprocal;
    }
    return Vector(0.0);
}

// A velocity as the rules read it: one that is not finite counts as rest.
fn usable_velocity(velocity: Vector) -> Vector {
    if is_finite_vector(velocity) {
        return velocity;
    }
    return Vector(0.0);
}

// Reynolds' steering for one rule: the sum's direction at max speed is the desired velocity,
// the force `(desired - velocity) / response_time`, limited. A rule acts only with neighbours
// in its radius; separation also needs a non-zero push; a force beyond f32 gives none.
fn rule_force(sum: Vector, count: f32, velocity: Vector, needs_direction: bool, rule: Rule) -> Vector {
    let max_speed = rule.limits.x;
    let max_force = rule.limits.y;
    let length_squared = dot(sum, sum);
    let has_direction = length_squared > 0.0;
    var to_speed = 0.0;
    if has_direction {
        to_speed = max_speed / sqrt(length_squared);
    }
    let force = (sum * to_speed - velocity) * params.per_response_time;
    let force_squared = dot(force, force);
    let limit = max_force / sqrt(force_squared);
    var scale = 1.0;
    if params.force_limit == FORCE_TRUNCATE {
        if force_squared > max_force * max_force {
            scale = limit;
        }
    } else {
        scale = select(0.0, limit, force_squared > rule.limits.z);
    }
    let limited = force * scale;
    if count <= 0.0 || (needs_direction && !has_direction) || !is_finite_vector(limited) {
        return Vector(0.0);
    }
    return limited;
}

// flock_core's `limit_speed_to` for a velocity whose length f32 cannot hold.
fn limit_extreme_speed(velocity: Vector, max_speed: f32, min_speed: f32) -> Vector {
    if !is_finite_vector(velocity) {
        return Vector(0.0);
    }
    var largest = 0.0;
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        largest = max(largest, abs(velocity[axis]));
    }
    let scaled = velocity / largest;
    let speed = largest * length(scaled);
    var target_speed = max_speed;
    if params.speed_mode != SPEED_CONSTANT {
        if speed > max_speed {
            target_speed = max_speed;
        } else if speed < min_speed {
            target_speed = min_speed;
        } else {
            return velocity;
        }
    }
    return normalize_or_zero(scaled) * target_speed;
}

// flock_core's `limit_speed_to`: the speed mode.
fn limit_speed(velocity: Vector, max_speed: f32, min_speed: f32) -> Vector {
    let speed = length(velocity);
    if !is_normal(speed) && any(velocity != Vector(0.0)) {
        return limit_extreme_speed(velocity, max_speed, min_speed);
    }
    if params.speed_mode == SPEED_CONSTANT {
        return normalize_or_zero(velocity) * max_speed;
    }
    if speed > max_speed {
        return velocity * (max_speed / speed);
    }
    if speed < min_speed && speed > 0.0 {
        return velocity * (min_speed / speed);
    }
    return velocity;
}

// flock_core's `apply_edge`: a coordinate that is not finite goes to the centre, then the mode.
fn apply_edge(boid: ptr<function, Boid>) {
    let low = vector_of(params.bounds_min);
    let high = vector_of(params.bounds_max);
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        let value = (*boid).position[axis];
        if !is_finite(value) {
            (*boid).position[axis] = (low[axis] + high[axis]) / 2.0;
        }
    }
    switch params.edges {
        case EDGE_WRAP: {
            for (var axis = 0u; axis < DIMENSIONS; axis++) {
                (*boid).position[axis] = wrap_coordinate((*boid).position[axis], low[axis], high[axis]);
            }
        }
        case EDGE_JUMP: {
            for (var axis = 0u; axis < DIMENSIONS; axis++) {
                let value = (*boid).position[axis];
                if value < low[axis] {
                    (*boid).position[axis] = high[axis];
                } else if value > high[axis] {
                    (*boid).position[axis] = low[axis];
                }
            }
        }
        case EDGE_BOUNCE: {
            for (var axis = 0u; axis < DIMENSIONS; axis++) {
                let value = (*boid).position[axis];
                if value < low[axis] {
                    (*boid).position[axis] = 2.0 * low[axis] - value;
                    (*boid).velocity[axis] = abs((*boid).velocity[axis]);
                } else if value > high[axis] {
                    (*boid).position[axis] = 2.0 * high[axis] - value;
                    (*boid).velocity[axis] = -abs((*boid).velocity[axis]);
                }
            }
            // An overshoot larger than the whole world would reflect out the other side.
            (*boid).position = clamp((*boid).position, low, high);
        }
        default: {}
    }
}

// The first and last cell to visit on each axis around `home`: its neighbours (wrapping round
// in a periodic world), every cell of an axis with fewer than three, so none is visited twice.
fn visit_range(grid: GridFit, home: vec3<i32>) -> array<vec3<i32>, 2> {
    var low = vec3<i32>(0);
    var high = vec3<i32>(0);
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        let cells = i32(grid.cells[axis]);
        if params.periodic != 0u && cells < 3 {
            low[axis] = 0;
            high[axis] = cells - 1;
        } else if params.periodic != 0u {
            low[axis] = home[axis] - 1;
            high[axis] = home[axis] + 1;
        } else {
            low[axis] = max(home[axis] - 1, 0);
            high[axis] = min(home[axis] + 1, cells - 1);
        }
    }
    return array<vec3<i32>, 2>(low, high);
}

fn wrapped_cell(grid: GridFit, cell: vec3<i32>) -> vec3<i32> {
    let cells = vec3<i32>(grid.cells.xyz);
    return (cell % cells + cells) % cells;
}

// A row's cells along x are contiguous in the sorted order, so a boid walks each row of its
// neighbourhood as one run of boids instead of cell by cell: the run from the first cell's
// start to the last cell's end. A periodic row that crosses the seam is two runs, the wrapped
// cell's first where it comes first, so the boids are visited in the cells' order either way.
// `part` 0 is the first run, 1 the second (empty when the row does not cross the seam).
fn row_run(grid: GridFit, y: i32, z: i32, low_x: i32, high_x: i32, part: u32) -> vec2<u32> {
    let cells = vec3<i32>(grid.cells.xyz);
    let row = cell_index(grid, wrapped_cell(grid, vec3<i32>(0, y, z)));
    var first = low_x;
    var last = high_x;
    if low_x < 0 {
        // The row starts across the low seam: the last cell, then 0 to high.
        if part == 0u {
            first = cells.x - 1;
            last = cells.x - 1;
        } else {
            first = 0;
        }
    } else if high_x >= cells.x {
        // The row ends across the high seam: low to the last cell, then the first cell.
        if part == 0u {
            last = cells.x - 1;
        } else {
            first = 0;
            last = 0;
        }
    } else if part == 1u {
        return vec2<u32>(0u, 0u);
    }
    return vec2<u32>(cell_start[row + u32(first)], cell_start[row + u32(last) + 1u]);
}

// The flock's own rules, which every boid follows when there are no species.
fn flock_rule() -> Rule {
    return Rule(
        vec4<f32>(params.separation_radius_squared, params.alignment_radius_squared, params.cohesion_radius_squared, 0.0),
        vec4<f32>(params.separation_weight, params.alignment_weight, params.cohesion_weight, 0.0),
        vec4<f32>(params.max_speed, params.max_force, params.dead_zone_squared, params.min_speed),
    );
}

@compute @workgroup_size(256)
fn steer(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let me = invocation_index(id, groups);
    if me >= params.count {
        return;
    }
    let velocities = arrayLength(&sorted) / 2u;
    var boid = Boid(sorted[me], sorted[velocities + me]);
    let position = boid.position;
    let velocity = usable_velocity(boid.velocity);
    let heading = normalize_or_zero(velocity);
    let sees_all_round = params.view_limited == 0u || all(heading == Vector(0.0));

    // The boid's species and its rules; with species, only its own kind flocks with it.
    let species_count = select(0u, kinds.counts.x, GAMEPLAY);
    let hunting = GAMEPLAY && kinds.counts.y > 0u;
    // With one species every boid is of kind 0 (the host checks every index), so the
    // neighbours' kinds need not be read.
    let mixed = species_count > 1u;
    var kind = 0u;
    var rule = flock_rule();
    if species_count > 0u {
        if mixed {
            kind = min(species_of[sorted_index[me]], MAX_SPECIES - 1u);
        }
        rule = kinds.species[kind];
    }
    let vehicle = Vehicle(position, velocity, rule.limits.x);
    // The hunts: the sum of fleeing every predator in range, and for each prey species the
    // nearest prey in chase range (its squared distance starts at the chase radius squared,
    // or below zero where this species does not hunt that one).
    var flee_sum = Vector(0.0);
    var nearest_prey: array<u32, 8>;
    var nearest_distance: array<f32, 8>;
    if hunting {
        for (var prey = 0u; prey < MAX_SPECIES; prey++) {
            let hunt = kinds.hunts[kind * MAX_SPECIES + prey];
            nearest_prey[prey] = NO_PREY;
            nearest_distance[prey] = select(-1.0, hunt.flee_chase.z * hunt.flee_chase.z, hunt.look_ahead.y > 0.0);
        }
    }

    var away = Vector(0.0);
    var velocity_sum = Vector(0.0);
    var offset_sum = Vector(0.0);
    var separation_count = 0.0;
    var alignment_count = 0.0;
    var cohesion_count = 0.0;

    let grid = fitted;
    let range = visit_range(grid, cell_coordinate(grid, position));
    for (var z = range[0].z; z <= range[1].z; z++) {
        for (var y = range[0].y; y <= range[1].y; y++) {
            for (var part = 0u; part < 2u; part++) {
                let run = row_run(grid, y, z, range[0].x, range[1].x, part);
                for (var other = run.x; other < run.y; other++) {
                    if other == me {
                        continue;
                    }
                    // Only the position until the neighbour is known to count.
                    let offset = delta(position, sorted[other]);
                    if mixed {
                        let other_kind = min(species_of[sorted_index[other]], MAX_SPECIES - 1u);
                        if other_kind != kind {
                            if hunting {
                                // Where the other appears from here: across the seam if nearer.
                                let seen = position + offset;
                                let threat = kinds.hunts[other_kind * MAX_SPECIES + kind];
                                if threat.look_ahead.y > 0.0 {
                                    flee_sum += threat.flee_chase.y * flee(vehicle, seen, threat.flee_chase.x);
                                }
                                let to_prey = seen - position;
                                let prey_distance = dot(to_prey, to_prey);
                                if prey_distance < nearest_distance[other_kind] {
                                    nearest_distance[other_kind] = prey_distance;
                                    nearest_prey[other_kind] = other;
                                }
                            }
                            continue;
                        }
                    }
                    let distance_squared = dot(offset, offset);
                    if distance_squared == 0.0 {
                        continue;
                    }
                    // Inside the cone when the angle to the heading is at most half the view.
                    if !sees_all_round && dot(offset, heading) < params.cos_half_view * sqrt(distance_squared) {
                        continue;
                    }
                    if distance_squared < rule.radii_squared.x {
                        away -= offset / distance_squared;
                        separation_count += 1.0;
                    }
                    if distance_squared < rule.radii_squared.y {
                        velocity_sum += usable_velocity(sorted[velocities + other]);
                        alignment_count += 1.0;
                    }
                    if distance_squared < rule.radii_squared.z {
                        offset_sum += offset;
                        cohesion_count += 1.0;
                    }
                }
            }
        }
    }

    let force = rule_force(away, separation_count, velocity, true, rule) * rule.weights.x
        + rule_force(velocity_sum, alignment_count, velocity, false, rule) * rule.weights.y
        + rule_force(offset_sum, cohesion_count, velocity, false, rule) * rule.weights.z;
    var acceleration = force / params.mass;
    if GAMEPLAY {
        // The behaviours' sum, truncated to the max force (flock_core's `combine`), as the
        // Bevy plugin adds its behaviours to the flocking force; a sum that is not finite is
        // dropped, as the plugin drops it.
        var behaviours = flee_sum;
        if hunting {
            for (var prey = 0u; prey < species_count; prey++) {
                let slot = nearest_prey[prey];
                if slot == NO_PREY {
                    continue;
                }
                let hunt = kinds.hunts[kind * MAX_SPECIES + prey];
                let at = position + delta(position, sorted[slot]);
                let prey_velocity = usable_velocity(sorted[velocities + slot]);
                behaviours += hunt.flee_chase.w * pursue(vehicle, at, prey_velocity, hunt.look_ahead.x);
            }
        }
        behaviours += point_forces(vehicle);
        if obstacles.counts.x > 0u {
            behaviours += obstacles.avoidance.z * avoid_obstacles(vehicle, heading);
        }
        if enclosure.shape.x != 0u {
            behaviours += enclosure.containment.y * contain(vehicle, heading);
        }
        let steering = truncate_force(behaviours, rule.limits.y);
        if is_finite_vector(steering) {
            acceleration += steering / params.mass;
        }
    }
    // flock_core's `integrate`: v += a dt, the speed mode, p += v dt (Euler).
    boid.velocity = limit_speed(boid.velocity + acceleration * params.dt, rule.limits.x, rule.limits.w);
    boid.position += boid.velocity * params.dt;
    apply_edge(&boid);
    boids[sorted_index[me]] = boid;
}
