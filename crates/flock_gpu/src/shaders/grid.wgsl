// The uniform grid, rebuilt every step: fit it to the flock (`measure_extent`, `fit_grid`),
// count the boids of each cell with atomics (each boid
// keeps its rank in its cell), an exclusive prefix scan of the counts gives each cell's start,
// a scatter puts each boid's index in its cell's segment, and `order_cells` copies the boids
// into cell order, so a cell's boids are contiguous.
//
// The atomics' order changes from run to run, so the scatter's order inside a cell does too;
// `order_cells` puts each cell's boids in index order (a boid's place is the number of boids
// of its cell with a lower index), so the steering sums are taken in the same order every run
// and a flock's steps are the same, bit for bit, on one device. It reads one cell per boid, a
// ninth (2D) or a 27th (3D) of what the steering reads.

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> boids: array<Boid>;
// The boids in cell order, positions apart from velocities: the positions in the first half,
// the velocities in the second, so the steering's distance tests read positions only.
@group(0) @binding(2) var<storage, read_write> sorted: array<Vector>;
@group(0) @binding(3) var<storage, read_write> sorted_index: array<u32>;
// Each boid's cell and its rank among the boids the atomics counted into that cell.
@group(0) @binding(4) var<storage, read_write> placement: array<vec2<u32>>;
// The grid this step uses, and the flock's extent it is fitted to.
@group(0) @binding(5) var<storage, read_write> fitted: FittedGrid;
// Counts, then (after the scan) the first sorted index of each cell; one more entry than
// cells, which ends up holding the number of boids.
@group(0) @binding(6) var<storage, read_write> cell_start: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> block_sums: array<u32>;
// Each cell's boid indices in the order the atomics gave, before `order_cells`.
@group(0) @binding(8) var<storage, read_write> scattered: array<u32>;

const SCAN_PER_THREAD: u32 = 4u;
const SCAN_BLOCK: u32 = 1024u; // WORKGROUP_SIZE * SCAN_PER_THREAD

var<workgroup> partial_sums: array<u32, 256>;

struct FittedGrid {
    grid: GridFit,
    // The lowest and highest coordinate of any boid on each axis (`ordered_bits`).
    low: array<atomic<u32>, 3>,
    high: array<atomic<u32>, 3>,
}

fn fitted_grid() -> GridFit {
    return fitted.grid;
}

// An f32's bits turned so that unsigned order is the numbers' order.
fn ordered_bits(value: f32) -> u32 {
    let bits = bitcast<u32>(value);
    if (bits & 0x80000000u) != 0u {
        return ~bits;
    }
    return bits | 0x80000000u;
}

fn from_ordered_bits(bits: u32) -> f32 {
    if (bits & 0x80000000u) != 0u {
        return bitcast<f32>(bits & 0x7fffffffu);
    }
    return bitcast<f32>(~bits);
}

var<workgroup> lowest: array<u32, 256>;
var<workgroup> highest: array<u32, 256>;

// With free edges, the lowest and highest coordinate of the flock on each axis: each
// workgroup reduces its boids', then one atomic per workgroup and axis.
@compute @workgroup_size(256)
fn measure_extent(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    if params.edges != EDGE_FREE {
        return;
    }
    let boid = invocation_index(id, groups);
    for (var axis = 0u; axis < DIMENSIONS; axis++) {
        var low = 0xffffffffu;
        var high = 0u;
        if boid < params.count {
            let value = boids[boid].position[axis];
            if is_finite(value) {
                low = ordered_bits(value);
                high = low;
            }
        }
        lowest[local] = low;
        highest[local] = high;
        workgroupBarrier();
        for (var half = WORKGROUP_SIZE / 2u; half > 0u; half >>= 1u) {
            if local < half {
                lowest[local] = min(lowest[local], lowest[local + half]);
                highest[local] = max(highest[local], highest[local + half]);
            }
            workgroupBarrier();
        }
        if local == 0u {
            atomicMin(&fitted.low[axis], lowest[0]);
            atomicMax(&fitted.high[axis], highest[0]);
        }
        workgroupBarrier();
    }
}

// One invocation: the grid for this step. With free edges it covers the flock's extent, so a
// flock that has drifted out of the bounds keeps its boids apart in cells instead of piling
// into the edge cells: cells as wide as the configured grid's or wider (never narrower than
// the farthest look), and no more of them than the configured grid has. Otherwise it is the
// configured grid.
@compute @workgroup_size(1)
fn fit_grid() {
    var grid = GridFit(params.bounds_min, params.cells, params.cells_per_unit);
    if params.edges == EDGE_FREE {
        var total = 1u;
        for (var axis = 0u; axis < DIMENSIONS; axis++) {
            let low = from_ordered_bits(atomicLoad(&fitted.low[axis]));
            let high = from_ordered_bits(atomicLoad(&fitted.high[axis]));
            let extent = high - low;
            let most = params.cells[axis];
            // No boid (the extent is reversed) or one too far out to subtract: the bounds.
            if is_finite(extent) && extent >= 0.0 {
                let width = max(extent / f32(most), 1.0 / params.cells_per_unit[axis]);
                let cells = clamp(u32(ceil(extent / width)), 1u, most);
                grid.origin[axis] = low;
                grid.cells[axis] = cells;
                grid.cells_per_unit[axis] = 1.0 / width;
            }
            total *= grid.cells[axis];
        }
        grid.cells.w = total;
    }
    fitted.grid = grid;
}

@compute @workgroup_size(256)
fn clear_cells(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let cell = invocation_index(id, groups);
    if cell <= params.cells.w {
        atomicStore(&cell_start[cell], 0u);
    }
    if cell == 0u {
        // An empty extent, for `measure_extent` to widen.
        for (var axis = 0u; axis < 3u; axis++) {
            atomicStore(&fitted.low[axis], 0xffffffffu);
            atomicStore(&fitted.high[axis], 0u);
        }
    }
}

@compute @workgroup_size(256)
fn count_boids(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let boid = invocation_index(id, groups);
    if boid >= params.count {
        return;
    }
    let grid = fitted_grid();
    let cell = cell_index(grid, cell_coordinate(grid, boids[boid].position));
    placement[boid] = vec2<u32>(cell, atomicAdd(&cell_start[cell], 1u));
}

// The exclusive prefix sum of `value` over the workgroup (Hillis and Steele); afterwards
// `partial_sums[255]` holds the workgroup's total.
fn scan_workgroup(local: u32, value: u32) -> u32 {
    partial_sums[local] = value;
    workgroupBarrier();
    for (var offset = 1u; offset < WORKGROUP_SIZE; offset <<= 1u) {
        var add = 0u;
        if local >= offset {
            add = partial_sums[local - offset];
        }
        workgroupBarrier();
        partial_sums[local] += add;
        workgroupBarrier();
    }
    return partial_sums[local] - value;
}

// The exclusive prefix sums of one block of SCAN_BLOCK values, SCAN_PER_THREAD of them per
// invocation: this invocation's `values` become their offsets from the block's start, and the
// block's total is returned to every invocation.
fn scan_block(local: u32, values: ptr<function, array<u32, 4>>) -> u32 {
    var total = 0u;
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        let value = (*values)[i];
        (*values)[i] = total;
        total += value;
    }
    let before = scan_workgroup(local, total);
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        (*values)[i] += before;
    }
    return partial_sums[WORKGROUP_SIZE - 1u];
}

// The scan has three levels, so the grid may have up to SCAN_BLOCK^3 - 1 cells: the cell
// counts in blocks of SCAN_BLOCK, the blocks' totals (`block_sums[0..blocks]`) in blocks of
// SCAN_BLOCK, and the totals of those (`block_sums[blocks..]`, at most SCAN_BLOCK) in one.
fn level_one_blocks() -> u32 {
    return (params.cells.w + SCAN_BLOCK) / SCAN_BLOCK;
}

fn level_two_blocks() -> u32 {
    return (level_one_blocks() + SCAN_BLOCK - 1u) / SCAN_BLOCK;
}

// Each workgroup scans one block of SCAN_BLOCK counts in place and writes the block's total.
// Workgroups may come in rows (more blocks than a dispatch holds along x).
@compute @workgroup_size(256)
fn scan_blocks(@builtin(workgroup_id) group: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    let block = group.x + group.y * groups.x;
    // The same for the whole workgroup, so the barriers below stay uniform.
    if block >= level_one_blocks() {
        return;
    }
    let entries = params.cells.w + 1u;
    let first = block * SCAN_BLOCK + local * SCAN_PER_THREAD;
    var values: array<u32, 4>;
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        values[i] = 0u;
        if first + i < entries {
            values[i] = atomicLoad(&cell_start[first + i]);
        }
    }
    let total = scan_block(local, &values);
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        if first + i < entries {
            atomicStore(&cell_start[first + i], values[i]);
        }
    }
    if local == 0u {
        block_sums[block] = total;
    }
}

// The second level: each workgroup scans one block of SCAN_BLOCK block totals in place and
// writes its own total after them.
@compute @workgroup_size(256)
fn scan_block_sums(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    let blocks = level_one_blocks();
    let first = group.x * SCAN_BLOCK + local * SCAN_PER_THREAD;
    var values: array<u32, 4>;
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        values[i] = 0u;
        if first + i < blocks {
            values[i] = block_sums[first + i];
        }
    }
    let total = scan_block(local, &values);
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        if first + i < blocks {
            block_sums[first + i] = values[i];
        }
    }
    if local == 0u {
        block_sums[blocks + group.x] = total;
    }
}

// The third level: one workgroup scans the second level's totals in place.
@compute @workgroup_size(256)
fn scan_top(@builtin(local_invocation_index) local: u32) {
    let top = level_one_blocks();
    let count = level_two_blocks();
    let first = local * SCAN_PER_THREAD;
    var values: array<u32, 4>;
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        values[i] = 0u;
        if first + i < count {
            values[i] = block_sums[top + first + i];
        }
    }
    scan_block(local, &values);
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        if first + i < count {
            block_sums[top + first + i] = values[i];
        }
    }
}

// Each block total becomes the first index of its block of cells.
@compute @workgroup_size(256)
fn add_top_offsets(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let block = invocation_index(id, groups);
    let blocks = level_one_blocks();
    if block < blocks {
        block_sums[block] += block_sums[blocks + block / SCAN_BLOCK];
    }
}

@compute @workgroup_size(256)
fn add_block_offsets(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let entry = invocation_index(id, groups);
    if entry <= params.cells.w {
        atomicAdd(&cell_start[entry], block_sums[entry / SCAN_BLOCK]);
    }
}

@compute @workgroup_size(256)
fn scatter(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let boid = invocation_index(id, groups);
    if boid >= params.count {
        return;
    }
    let place = placement[boid];
    scattered[atomicLoad(&cell_start[place.x]) + place.y] = boid;
}

// One invocation per slot of the scattered order: the boid there goes to its place in index
// order inside its cell.
@compute @workgroup_size(256)
fn order_cells(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let slot = invocation_index(id, groups);
    if slot >= params.count {
        return;
    }
    let boid = scattered[slot];
    let cell = placement[boid].x;
    let first = atomicLoad(&cell_start[cell]);
    let end = atomicLoad(&cell_start[cell + 1u]);
    var place = first;
    for (var other = first; other < end; other++) {
        if scattered[other] < boid {
            place += 1u;
        }
    }
    let copied = boids[boid];
    sorted[place] = copied.position;
    sorted[arrayLength(&sorted) / 2u + place] = copied.velocity;
    sorted_index[place] = boid;
}
