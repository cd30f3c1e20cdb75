// Questions about the flock answered on the device, so a game need not read every boid back:
// how many boids are within a radius of a point, and which are the nearest few. Two passes
// over the boids as they are now (after every step submitted before the query):
//
// 1. `gather`: QUERY_GROUPS workgroups stride over every boid; each invocation counts the
//    boids in range (added to the result with one atomic) and keeps its own nearest
//    MAX_NEAREST, sorted; a merge in each workgroup keeps the workgroup's nearest.
// 2. `merge_groups`: one workgroup merges the workgroups' lists into the answer.
//
// Boids are ordered by squared distance, then index, so the answer is the same every run.
// The host prepends the dimension's prelude (`alias Vector`, `DIMENSIONS`, `vector_of`).

const QUERY_GROUPS: u32 = 64u;
const QUERY_THREADS: u32 = 64u;
const MAX_NEAREST: u32 = 16u;

// As shaders/common.wgsl lays a boid out.
struct Boid {
    position: Vector,
    velocity: Vector,
}

struct Query {
    point: vec4<f32>,
    // The world's size, for distances across the seams of a wrapping world.
    bounds_size: vec4<f32>,
    radius_squared: f32,
    // How many nearest boids to find (at most MAX_NEAREST).
    nearest: u32,
    count: u32,
    periodic: u32,
}

// A boid found: its squared distance's bits (not negative, so they order as the numbers do)
// and its index.
struct Found {
    key: u32,
    boid: u32,
}

struct Answer {
    count: atomic<u32>,
    _padding: u32,
    nearest: array<Found, 16>,
}

@group(0) @binding(0) var<uniform> query: Query;
@group(0) @binding(1) var<storage, read> boids: array<Boid>;
// Each workgroup's nearest, MAX_NEAREST per workgroup.
@group(0) @binding(2) var<storage, read_write> partial: array<Found, 1024>;
@group(0) @binding(3) var<storage, read_write> answer: Answer;

const NONE: Found = Found(0xffffffffu, 0xffffffffu);

var<workgroup> heads: array<Found, 64>;
var<workgroup> owners: array<u32, 64>;
var<workgroup> merged: array<Found, 16>;

fn before(a: Found, b: Found) -> bool {
    return a.key < b.key || (a.key == b.key && a.boid < b.boid);
}

// The vector from `here` to `there`: across the seams (the minimum image) when the world wraps,
// as the steering's `delta`.
fn delta(here: Vector, there: Vector) -> Vector {
    let plain = there - here;
    if query.periodic == 0u {
        return plain;
    }
    let size = vector_of(query.bounds_size);
    let ratio = plain / size;
    let rounded = sign(ratio) * floor(abs(ratio) + 0.5);
    return plain - size * rounded;
}

// Puts `item` in its place in the sorted `list`, dropping the last.
fn insert(list: ptr<function, array<Found, 16>>, item: Found) {
    if !before(item, (*list)[MAX_NEAREST - 1u]) {
        return;
    }
    var place = MAX_NEAREST - 1u;
    while place > 0u && before(item, (*list)[place - 1u]) {
        (*list)[place] = (*list)[place - 1u];
        place -= 1u;
    }
    (*list)[place] = item;
}

// Merges every invocation's sorted `list` into `merged`, the nearest first: in each round every
// invocation offers its first unused entry and the least is taken.
fn merge(local: u32, list: ptr<function, array<Found, 16>>) {
    var next = 0u;
    for (var round = 0u; round < min(query.nearest, MAX_NEAREST); round++) {
        heads[local] = (*list)[min(next, MAX_NEAREST - 1u)];
        if next >= MAX_NEAREST {
            heads[local] = NONE;
        }
        owners[local] = local;
        workgroupBarrier();
        for (var stride = QUERY_THREADS / 2u; stride > 0u; stride >>= 1u) {
            if local < stride && before(heads[local + stride], heads[local]) {
                heads[local] = heads[local + stride];
                owners[local] = owners[local + stride];
            }
            workgroupBarrier();
        }
        if local == 0u {
            merged[round] = heads[0];
        }
        if owners[0] == local {
            next += 1u;
        }
        workgroupBarrier();
    }
}

@compute @workgroup_size(64)
fn gather(
    @builtin(local_invocation_index) local: u32,
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(global_invocation_id) id: vec3<u32>,
) {
    var list: array<Found, 16>;
    for (var i = 0u; i < MAX_NEAREST; i++) {
        list[i] = NONE;
    }
    var count = 0u;
    let point = vector_of(query.point);
    for (var boid = id.x; boid < query.count; boid += QUERY_GROUPS * QUERY_THREADS) {
        let offset = delta(point, boids[boid].position);
        let distance_squared = dot(offset, offset);
        if distance_squared < query.radius_squared {
            count += 1u;
            insert(&list, Found(bitcast<u32>(distance_squared), boid));
        }
    }
    if count > 0u {
        atomicAdd(&answer.count, count);
    }
    merge(local, &list);
    if local == 0u {
        for (var i = 0u; i < MAX_NEAREST; i++) {
            var found = NONE;
            if i < query.nearest {
                found = merged[i];
            }
            partial[group.x * MAX_NEAREST + i] = found;
        }
    }
}

@compute @workgroup_size(64)
fn merge_groups(@builtin(local_invocation_index) local: u32) {
    var list: array<Found, 16>;
    for (var i = 0u; i < MAX_NEAREST; i++) {
        list[i] = partial[local * MAX_NEAREST + i];
    }
    merge(local, &list);
    if local == 0u {
        for (var i = 0u; i < MAX_NEAREST; i++) {
            var found = NONE;
            if i < query.nearest {
                found = merged[i];
            }
            answer.nearest[i] = found;
        }
    }
}
