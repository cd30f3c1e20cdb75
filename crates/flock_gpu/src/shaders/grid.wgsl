// The uniform grid, rebuilt every step: count the boids of each cell with atomics (each boid
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
@group(0) @binding(2) var<storage, read_write> sorted: array<Boid>;
@group(0) @binding(3) var<storage, read_write> sorted_index: array<u32>;
@group(0) @binding(4) var<storage, read_write> cell_of: array<u32>;
@group(0) @binding(5) var<storage, read_write> rank: array<u32>;
// Counts, then (after the scan) the first sorted index of each cell; one more entry than
// cells, which ends up holding the number of boids.
@group(0) @binding(6) var<storage, read_write> cell_start: array<atomic<u32>>;
@group(0) @binding(7) var<storage, read_write> block_sums: array<u32>;
// Each cell's boid indices in the order the atomics gave, before `order_cells`.
@group(0) @binding(8) var<storage, read_write> scattered: array<u32>;

const SCAN_PER_THREAD: u32 = 4u;
const SCAN_BLOCK: u32 = 1024u; // WORKGROUP_SIZE * SCAN_PER_THREAD

var<workgroup> partial_sums: array<u32, 256>;

@compute @workgroup_size(256)
fn clear_cells(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let cell = invocation_index(id, groups);
    if cell <= params.cells.w {
        atomicStore(&cell_start[cell], 0u);
    }
}

@compute @workgroup_size(256)
fn count_boids(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let boid = invocation_index(id, groups);
    if boid >= params.count {
        return;
    }
    let cell = cell_index(cell_coordinate(boids[boid].position));
    cell_of[boid] = cell;
    rank[boid] = atomicAdd(&cell_start[cell], 1u);
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

// Each workgroup scans one block of SCAN_BLOCK counts in place and writes the block's total.
@compute @workgroup_size(256)
fn scan_blocks(@builtin(workgroup_id) block: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    let entries = params.cells.w + 1u;
    let first = block.x * SCAN_BLOCK + local * SCAN_PER_THREAD;
    var values: array<u32, 4>;
    var total = 0u;
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        var value = 0u;
        if first + i < entries {
            value = atomicLoad(&cell_start[first + i]);
        }
        values[i] = total;
        total += value;
    }
    let before = scan_workgroup(local, total);
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        if first + i < entries {
            atomicStore(&cell_start[first + i], before + values[i]);
        }
    }
    if local == WORKGROUP_SIZE - 1u {
        block_sums[block.x] = before + total;
    }
}

// One workgroup scans the block totals in place (at most SCAN_BLOCK of them).
@compute @workgroup_size(256)
fn scan_block_sums(@builtin(local_invocation_index) local: u32) {
    let blocks = (params.cells.w + SCAN_BLOCK) / SCAN_BLOCK;
    let first = local * SCAN_PER_THREAD;
    var values: array<u32, 4>;
    var total = 0u;
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        var value = 0u;
        if first + i < blocks {
            value = block_sums[first + i];
        }
        values[i] = total;
        total += value;
    }
    let before = scan_workgroup(local, total);
    for (var i = 0u; i < SCAN_PER_THREAD; i++) {
        if first + i < blocks {
            block_sums[first + i] = before + values[i];
        }
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
    scattered[atomicLoad(&cell_start[cell_of[boid]]) + rank[boid]] = boid;
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
    let cell = cell_of[boid];
    let first = atomicLoad(&cell_start[cell]);
    let end = atomicLoad(&cell_start[cell + 1u]);
    var place = first;
    for (var other = first; other < end; other++) {
        if scattered[other] < boid {
            place += 1u;
        }
    }
    sorted[place] = boids[boid];
    sorted_index[place] = boid;
}
