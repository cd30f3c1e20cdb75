// What every pass shares: the step's settings, the boid layout and the grid's cell of a point.
// The host prepends the dimension's prelude: `alias Vector` (vec2<f32> or vec3<f32>),
// `const DIMENSIONS` and `fn vector_of(vec4<f32>) -> Vector`.

const WORKGROUP_SIZE: u32 = 256u;

// The edge modes, speed modes and force limits as the host numbers them.
const EDGE_WRAP: u32 = 0u;
const EDGE_JUMP: u32 = 1u;
const EDGE_BOUNCE: u32 = 2u;
const EDGE_FREE: u32 = 3u;
const SPEED_CONSTANT: u32 = 0u;
const FORCE_TRUNCATE: u32 = 0u;

struct Params {
    bounds_min: vec4<f32>,
    bounds_max: vec4<f32>,
    bounds_size: vec4<f32>,
    // Cells per axis (1 on the axes the dimension lacks); `w` is the number of cells.
    cells: vec4<u32>,
    // Cells per world unit on each axis.
    cells_per_unit: vec4<f32>,
    count: u32,
    edges: u32,
    periodic: u32,
    speed_mode: u32,
    force_limit: u32,
    view_limited: u32,
    dt: f32,
    max_speed: f32,
    min_speed: f32,
    max_force: f32,
    per_response_time: f32,
    mass: f32,
    separation_radius_squared: f32,
    alignment_radius_squared: f32,
    cohesion_radius_squared: f32,
    separation_weight: f32,
    alignment_weight: f32,
    cohesion_weight: f32,
    cos_half_view: f32,
    dead_zone_squared: f32,
    response_time: f32,
}

struct Boid {
    position: Vector,
    velocity: Vector,
}

// The invocation's index in a dispatch that may be two-dimensional (more than 65535 workgroups).
fn invocation_index(id: vec3<u32>, groups: vec3<u32>) -> u32 {
    return id.x + id.y * groups.x * WORKGROUP_SIZE;
}

// Finite and normal by the bits, so no compiler may assume NaN away.
fn is_finite(value: f32) -> bool {
    return (bitcast<u32>(value) & 0x7f800000u) != 0x7f800000u;
}

fn is_normal(value: f32) -> bool {
    let exponent = bitcast<u32>(value) & 0x7f800000u;
    return exponent != 0x7f800000u && exponent != 0u;
}

fn is_finite_vector(v: Vector) -> bool {
    var finite = true;
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        finite = finite && is_finite(v[axis]);
    }
    return finite;
}

// `value` wrapped into [min, max] (the kernel's `wrap_coordinate`: the overshoot is kept).
fn wrap_coordinate(value: f32, low: f32, high: f32) -> f32 {
    if value >= low && value <= high {
        return value;
    }
    let size = high - low;
    let shifted = value - low;
    var offset = shifted - size * floor(shifted / size);
    if offset < 0.0 {
        offset += size;
    }
    if offset >= size {
        return low;
    }
    return clamp(low + offset, low, high);
}

// The grid a step uses (shaders/grid.wgsl's `fit_grid`): where cell 0 starts, cells per axis
// (`w`: in all) and cells per world unit.
struct GridFit {
    origin: vec4<f32>,
    cells: vec4<u32>,
    cells_per_unit: vec4<f32>,
}

// The grid coordinate of `point`: wrapped into the world when it is periodic, clamped to the
// edge cells otherwise (boids outside the grid share the edge cells; the distance test sorts
// them out).
fn cell_coordinate(grid: GridFit, point: Vector) -> vec3<i32> {
    var cell = vec3<i32>(0);
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        var value = point[axis];
        if params.periodic != 0u {
            value = wrap_coordinate(value, params.bounds_min[axis], params.bounds_max[axis]);
        }
        let last = f32(grid.cells[axis] - 1u);
        let scaled = (value - grid.origin[axis]) * grid.cells_per_unit[axis];
        cell[axis] = i32(clamp(floor(scaled), 0.0, last));
    }
    return cell;
}

fn cell_index(grid: GridFit, cell: vec3<i32>) -> u32 {
    let cells = vec3<u32>(grid.cells.xyz);
    return u32(cell.x) + cells.x * (u32(cell.y) + cells.y * u32(cell.z));
}
