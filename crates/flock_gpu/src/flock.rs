//! [`DeviceFlock`]: a flock in storage buffers, stepped by compute passes.

use std::sync::{Arc, mpsc};
use std::time::Duration;

use flock_core::{ConfigError, FlockConfig, Vector};

use crate::capability::{
    STORAGE_BUFFERS, WORKGROUP_SIZE, check_limits, groups_per_axis, max_boids,
};
use crate::containment::ENCLOSURE_BYTES;
use crate::error::GpuError;
use crate::grid::{CELLS_PER_BOID, GridShape, SCAN_BLOCK, block_sum_entries, cell_cap};
use crate::layout::{
    BOID_BYTES, BOID_FLOATS, boid_from_floats, boid_to_floats, floats_of, to_bytes,
};
use crate::obstacles::OBSTACLES_BYTES;
use crate::params::params_bytes;
use crate::points::POINTS_BYTES;
use crate::query::{QueryPass, QueryPipelines};
use crate::shaders::{grid_source, steer_source};
use crate::species::{GpuHunt, KINDS_BYTES, SpeciesSettings, check_species};
use crate::timing::StepTimer;

mod gameplay;
mod queries;

/// How long a read-back waits for the device before it gives up rather than hang.
const READ_BACK_TIMEOUT: Duration = Duration::from_secs(120);

/// A flock whose state lives on the GPU.
///
/// The boids stay in one buffer in the order they were uploaded ([`DeviceFlock::boid_buffer`],
/// laid out as [`BOID_BYTES`](crate::BOID_BYTES) says), so a renderer can draw from it and a
/// boid keeps its index from step to step. Every boid follows the config's rules, or its
/// species' when species are set.
///
/// What the device is asked for is checked against its limits first: a device that cannot run
/// the flock, a count or a buffer past its limits is a [`GpuError`] before anything is
/// allocated, on the device or on the CPU.
///
/// Steps are deterministic on one device: each cell's boids are visited in index order, so the
/// same flock stepped twice with the same settings gives the same buffers, bit for bit.
///
/// Gameplay: species with their own rules and hunts between them
/// ([`set_species`](Self::set_species), [`set_hunts`](Self::set_hunts),
/// [`upload_species`](Self::upload_species)), and points the game moves every frame
/// ([`set_points`](Self::set_points)). A flock without them steps as the plain flock does.
pub struct DeviceFlock {
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: FlockConfig,
    count: usize,
    capacity: usize,
    max_capacity: usize,
    /// Workgroups per row of a dispatch (rows are added along y past it).
    groups_per_row: u32,
    /// The device's limit of workgroups along one axis.
    groups_per_axis: u32,
    /// The compute pipelines and their layouts, shareable between flocks on one device.
    compiled: Arc<FlockPipelines>,
    params: wgpu::Buffer,
    /// Each cell's first sorted index (one more entry than cells), sized for the largest grid
    /// stepped so far, and the scan's block totals for it.
    cell_start: wgpu::Buffer,
    block_sums: wgpu::Buffer,
    /// How many cell starts `cell_start` holds.
    cell_entries: u64,
    /// The grid each step uses, fitted on the device to a free-edge flock's extent
    /// (`FittedGrid` in shaders/grid.wgsl).
    fitted: wgpu::Buffer,
    /// The most cells the device's storage buffers hold.
    device_cells: u64,
    /// Cells the grid may have per boid ([`CELLS_PER_BOID`] unless a test sets it).
    cells_per_boid: u64,
    boids: BoidBuffers,
    bind_groups: BindGroups,
    timer: Option<StepTimer>,
    /// The species' rules on the device (`Kinds`), the points (`Points`) and the obstacles
    /// (`Obstacles`).
    kinds: wgpu::Buffer,
    points: wgpu::Buffer,
    obstacles: wgpu::Buffer,
    obstacle_count: usize,
    /// The enclosure every boid stays inside (`Enclosure`), if any.
    enclosure: wgpu::Buffer,
    contained: bool,
    /// The query passes' buffers, made on the first query.
    query: Option<QueryPass>,
    species: Vec<SpeciesSettings>,
    hunts: Vec<GpuHunt>,
    point_count: usize,
    /// One more than the highest species index of the boids (0 when all are species 0).
    species_in_use: u32,
    /// Whether a slot of the species buffer may hold a species other than 0, so boids given
    /// without species must have theirs written.
    species_written: bool,
}

/// The flock's compute pipelines and their bind group layouts, compiled for one device.
///
/// [`DeviceFlock::new`] compiles them itself, which takes a while on some drivers; an app that
/// must not stall a frame compiles them beforehand, on another thread, and hands them to
/// [`DeviceFlock::with_pipelines`] (the Bevy plugin compiles them on its async compute pool
/// while the app starts), queries' included.
pub struct FlockPipelines {
    device: wgpu::Device,
    layouts: Layouts,
    pipelines: Pipelines,
    query: QueryPipelines,
}

impl FlockPipelines {
    /// Compiles the pipelines for `device`, once it is known to run the flock
    /// ([`check_limits`](crate::check_limits)); blocking.
    pub fn new(device: &wgpu::Device) -> Result<Self, GpuError> {
        check_limits(&device.limits())?;
        let layouts = Layouts::new(device);
        let pipelines = Pipelines::new(device, &layouts);
        Ok(Self {
            device: device.clone(),
            layouts,
            pipelines,
            query: QueryPipelines::new(device),
        })
    }

    /// The device they were compiled for.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }
}

/// The grid passes' layout (every buffer), the steering's (the buffers it reads and writes:
/// the eight storage buffers of the grid passes and its own would pass the WebGPU default of
/// eight per stage) and the gameplay's (species, hunts, points, obstacles, enclosure).
struct Layouts {
    grid: wgpu::BindGroupLayout,
    steer: wgpu::BindGroupLayout,
    gameplay: wgpu::BindGroupLayout,
}

/// The bind groups of [`Layouts`], rebuilt when the boid buffers grow.
struct BindGroups {
    grid: wgpu::BindGroup,
    steer: wgpu::BindGroup,
    gameplay: wgpu::BindGroup,
}

struct Pipelines {
    clear_cells: wgpu::ComputePipeline,
    measure_extent: wgpu::ComputePipeline,
    fit_grid: wgpu::ComputePipeline,
    count_boids: wgpu::ComputePipeline,
    scan_blocks: wgpu::ComputePipeline,
    scan_block_sums: wgpu::ComputePipeline,
    scan_top: wgpu::ComputePipeline,
    add_top_offsets: wgpu::ComputePipeline,
    add_block_offsets: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    order_cells: wgpu::ComputePipeline,
    steer: wgpu::ComputePipeline,
    /// The steering with species, hunts and points (`GAMEPLAY` set).
    steer_gameplay: wgpu::ComputePipeline,
}

/// The per-boid buffers, sized to the capacity.
struct BoidBuffers {
    boids: wgpu::Buffer,
    sorted: wgpu::Buffer,
    sorted_index: wgpu::Buffer,
    /// Each boid's cell and rank in it.
    placement: wgpu::Buffer,
    scattered: wgpu::Buffer,
    /// Each boid's species, in upload order.
    species: wgpu::Buffer,
}

impl DeviceFlock {
    /// An empty flock on `device` with room for `capacity` boids (it grows when more are
    /// uploaded). Refused: invalid settings ([`check_config`]), a device that cannot run the flock
    /// ([`check_limits`](crate::check_limits)), a capacity beyond what its buffers hold
    /// ([`max_boids`](crate::max_boids)).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        config: FlockConfig,
        capacity: usize,
    ) -> Result<Self, GpuError> {
        check_config(&config)?;
        let compiled = Arc::new(FlockPipelines::new(device)?);
        Self::with_pipelines(compiled, queue, config, capacity)
    }

    /// [`new`](Self::new) on the device the pipelines were compiled for
    /// ([`FlockPipelines::new`]), so making the flock compiles nothing; `queue` is that
    /// device's. Refused as `new` refuses.
    pub fn with_pipelines(
        compiled: Arc<FlockPipelines>,
        queue: &wgpu::Queue,
        config: FlockConfig,
        capacity: usize,
    ) -> Result<Self, GpuError> {
        check_config(&config)?;
        let device = &compiled.device.clone();
        let limits = device.limits();
        check_limits(&limits)?;
        let max_capacity = max_boids(&limits);
        if capacity > max_capacity {
            return Err(GpuError::TooManyBoids {
                requested: capacity,
                limit: max_capacity,
            });
        }
        // Everything the device is asked for below fits its limits (checked above): wgpu's error
        // scopes are not used, because in Bevy's build of wgpu they are one stack per device
        // shared by every thread, so a scope here could swallow or unbalance the renderer's.
        let layouts = &compiled.layouts;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flock_gpu params"),
            size: params_bytes(&config, &GridShape::new(&config, 0.0, 1), 0, 0.0).len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let device_cells = device_cells(&limits);
        let cell_entries = cell_cap(capacity, CELLS_PER_BOID, device_cells) + 1;
        let [cell_start, block_sums] = cell_buffers(device, cell_entries);
        let fitted = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flock_gpu fitted grid"),
            size: FITTED_GRID_BYTES,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let boids = BoidBuffers::new(device, capacity);
        let uniform = |label, size| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        // Zeroed by wgpu: no species, hunts or points.
        let kinds = uniform("flock_gpu species", KINDS_BYTES);
        let points = uniform("flock_gpu points", POINTS_BYTES);
        let obstacles = uniform("flock_gpu obstacles", OBSTACLES_BYTES);
        let enclosure = uniform("flock_gpu enclosure", ENCLOSURE_BYTES);
        let bind_groups = BindGroups::new(
            device,
            layouts,
            [
                &params,
                &cell_start,
                &block_sums,
                &fitted,
                &kinds,
                &points,
                &obstacles,
                &enclosure,
            ],
            &boids,
        );
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            config,
            count: 0,
            capacity: capacity.max(1),
            max_capacity,
            groups_per_row: groups_per_axis(&limits),
            groups_per_axis: groups_per_axis(&limits),
            compiled,
            params,
            cell_start,
            block_sums,
            cell_entries,
            device_cells,
            fitted,
            cells_per_boid: CELLS_PER_BOID,
            boids,
            bind_groups,
            timer: StepTimer::new(device, queue),
            kinds,
            points,
            obstacles,
            obstacle_count: 0,
            enclosure,
            contained: false,
            query: None,
            species: Vec::new(),
            hunts: Vec::new(),
            point_count: 0,
            species_in_use: 0,
            species_written: false,
        })
    }

    /// The device the flock lives on.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The settings.
    pub fn config(&self) -> &FlockConfig {
        &self.config
    }

    /// New settings for the next steps. Invalid ones ([`check_config`]) are refused and the old
    /// ones kept.
    pub fn set_config(&mut self, config: FlockConfig) -> Result<(), GpuError> {
        check_config(&config)?;
        if !self.species.is_empty() {
            check_species(&self.species, &config)?;
        }
        self.config = config;
        self.write_kinds();
        Ok(())
    }

    /// How many boids there are.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are no boids.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// How many boids the buffers hold before they must grow.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The most boids this device holds: what its largest storage buffer takes
    /// ([`max_boids`](crate::max_boids) of its limits).
    pub fn max_capacity(&self) -> usize {
        self.max_capacity
    }

    /// The grid's cells per axis for the flock as it is (1 on axes the dimension lacks): a
    /// test checks that its case spans several scan blocks or widens its cells.
    #[doc(hidden)]
    pub fn grid_cells(&self) -> [u32; 3] {
        self.grid().cells
    }

    /// Lets the grid have this many cells per boid (at least one): a test sets it high to run
    /// the scan's third level with a small flock, which the default reaches only past half a
    /// million boids.
    #[doc(hidden)]
    pub fn set_cells_per_boid(&mut self, cells: u64) {
        self.cells_per_boid = cells.max(1);
    }

    /// The grid for the flock as it is.
    fn grid(&self) -> GridShape {
        let cap = cell_cap(self.count, self.cells_per_boid, self.device_cells);
        GridShape::new(&self.config, self.reach(), cap)
    }

    /// The farthest any boid looks for another: the flock's radii, its species' and its
    /// hunts'. The grid's cells are at least this wide, so the cells next to a boid's hold
    /// everything it looks for.
    fn reach(&self) -> f32 {
        let species = self.species.iter().map(SpeciesSettings::max_radius);
        let hunts = self.hunts.iter().map(GpuHunt::max_radius);
        species
            .chain(hunts)
            .fold(self.config.max_radius(), f32::max)
    }

    /// Dispatches rows of this many workgroups (at least as many as keep the rows within the
    /// device's limit): a test sets it low to run the two-dimensional dispatch with a small
    /// flock, which the device's own limit (at most 65535) gives only past 16 million boids.
    #[doc(hidden)]
    pub fn set_groups_per_row(&mut self, groups: u32) {
        self.groups_per_row = groups.clamp(1, self.groups_per_axis);
    }

    /// The boids, `len()` of them from the start, laid out as
    /// [`BOID_BYTES`](crate::BOID_BYTES) says; usable as a storage or vertex buffer by a
    /// renderer on the same device. It is replaced when the flock grows past its capacity.
    pub fn boid_buffer(&self) -> &wgpu::Buffer {
        &self.boids.boids
    }

    /// Replaces the flock with these boids (any number: the buffers grow when needed, and a
    /// smaller flock simply uses less of them). Refused, with the flock unchanged: slices of
    /// different lengths, a value that is not finite, more boids than the device holds.
    pub fn upload(&mut self, positions: &[Vector], velocities: &[Vector]) -> Result<(), GpuError> {
        check_states(positions, velocities)?;
        let count = positions.len();
        if count > self.max_capacity {
            return Err(GpuError::TooManyBoids {
                requested: count,
                limit: self.max_capacity,
            });
        }
        if count > self.capacity {
            self.grow(count, 0);
        }
        self.write_boids(0, positions, velocities);
        if self.species_written {
            self.write_species(0, &vec![0; count]);
        }
        self.count = count;
        self.species_in_use = 0;
        Ok(())
    }

    /// Adds boids after the ones on the device, which stay as they are (no read-back); the
    /// buffers grow on the device when they must. Refused, changing nothing: slices of
    /// different lengths, a value that is not finite, more boids in all than the device holds.
    pub fn append(&mut self, positions: &[Vector], velocities: &[Vector]) -> Result<(), GpuError> {
        check_states(positions, velocities)?;
        let count = self
            .count
            .checked_add(positions.len())
            .filter(|&count| count <= self.max_capacity)
            .ok_or(GpuError::TooManyBoids {
                requested: self.count.saturating_add(positions.len()),
                limit: self.max_capacity,
            })?;
        if count > self.capacity {
            self.grow(count, self.count);
        }
        self.write_boids(self.count, positions, velocities);
        if self.species_written {
            self.write_species(self.count, &vec![0; positions.len()]);
        }
        self.count = count;
        Ok(())
    }

    /// Writes boids into the boid buffer from slot `first` on.
    fn write_boids(&self, first: usize, positions: &[Vector], velocities: &[Vector]) {
        if positions.is_empty() {
            return;
        }
        let bytes = to_bytes(
            positions
                .iter()
                .zip(velocities)
                .flat_map(|(position, velocity)| boid_to_floats(*position, *velocity))
                .map(f32::to_le_bytes),
        );
        let offset = (first * BOID_BYTES) as u64;
        self.queue.write_buffer(&self.boids.boids, offset, &bytes);
    }

    /// Encodes one step of `dt` seconds and submits it; it runs on the device while the caller
    /// goes on. A `dt` that is negative or not finite is refused.
    pub fn step(&mut self, dt: f32) -> Result<(), GpuError> {
        if !(dt.is_finite() && dt >= 0.0) {
            return Err(GpuError::InvalidTimeStep(dt));
        }
        if self.count == 0 {
            return Ok(());
        }
        let grid = self.grid();
        let entries = u64::from(grid.total()) + 1;
        if entries > self.cell_entries {
            // Twice what is needed, so a growing flock seldom grows them again.
            self.cell_entries = (2 * entries).min(self.device_cells + 1).max(entries);
            [self.cell_start, self.block_sums] = cell_buffers(&self.device, self.cell_entries);
            self.bind();
        }
        let count = self.count as u32;
        self.queue.write_buffer(
            &self.params,
            0,
            &params_bytes(&self.config, &grid, count, dt),
        );
        self.encode_and_submit(count, grid.total() + 1);
        Ok(())
    }

    /// Encodes the step's passes for `count` boids on a grid of `entries - 1` cells and
    /// submits them, timed when the timer is free.
    fn encode_and_submit(&mut self, count: u32, entries: u32) {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("flock_gpu step"),
            });
        if self.timer.as_ref().is_some_and(StepTimer::is_waiting) {
            // Runs the timer's map callback when the app does not poll the device itself.
            let _ = self.device.poll(wgpu::PollType::Poll);
        }
        let timed = {
            let timestamp_writes = self.timer.as_mut().and_then(StepTimer::begin_step);
            let timed = timestamp_writes.is_some();
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("flock_gpu step"),
                timestamp_writes,
            });
            pass.set_bind_group(0, &self.bind_groups.grid, &[]);
            let pipelines = &self.compiled.pipelines;
            let steer = if self.has_gameplay() {
                &pipelines.steer_gameplay
            } else {
                &pipelines.steer
            };
            let rows = |items| groups_for(items, self.groups_per_row, self.groups_per_axis);
            let mut run = |pipeline: &wgpu::ComputePipeline, groups: [u32; 2]| {
                pass.set_pipeline(pipeline);
                pass.dispatch_workgroups(groups[0], groups[1], 1);
            };
            run(&pipelines.clear_cells, rows(entries));
            run(&pipelines.measure_extent, rows(count));
            run(&pipelines.fit_grid, [1, 1]);
            run(&pipelines.count_boids, rows(count));
            // A scan of three levels: blocks of cells (in rows of workgroups past the device's
            // limit), blocks of their totals, and the top block.
            let blocks = entries.div_ceil(SCAN_BLOCK);
            run(&pipelines.scan_blocks, rows(blocks * WORKGROUP_SIZE));
            run(&pipelines.scan_block_sums, [blocks.div_ceil(SCAN_BLOCK), 1]);
            run(&pipelines.scan_top, [1, 1]);
            run(&pipelines.add_top_offsets, rows(blocks));
            run(&pipelines.add_block_offsets, rows(entries));
            run(&pipelines.scatter, rows(count));
            run(&pipelines.order_cells, rows(count));
            pass.set_bind_group(0, &self.bind_groups.steer, &[]);
            pass.set_bind_group(1, &self.bind_groups.gameplay, &[]);
            let groups = rows(count);
            pass.set_pipeline(steer);
            pass.dispatch_workgroups(groups[0], groups[1], 1);
            timed
        };
        let timer = self.timer.as_ref().filter(|_| timed);
        if let Some(timer) = timer {
            timer.resolve(&mut encoder);
        }
        self.queue.submit([encoder.finish()]);
        if let Some(timer) = timer {
            timer.map_after_submit();
        }
    }

    /// How long a recent step took on the device, from timestamps it writes around the step's
    /// compute pass: `None` where the device has no `TIMESTAMP_QUERY` feature, and until the
    /// first timed step has come back. Steps are timed one at a time without waiting, so this
    /// is a step a few frames old.
    pub fn last_step_time(&self) -> Option<Duration> {
        self.timer.as_ref().and_then(StepTimer::last)
    }

    /// Blocks until every step submitted so far has run on the device (for timing; a
    /// read-back waits by itself).
    pub fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: Some(READ_BACK_TIMEOUT),
            })
            .map(drop)
            .map_err(|error| GpuError::Device(error.to_string()))
    }

    /// Waits for the device and copies the boids back: positions and velocities, in upload
    /// order. Blocking; for tests, tools and occasional reads, not every frame.
    pub fn read_back(&self) -> Result<(Vec<Vector>, Vec<Vector>), GpuError> {
        if self.count == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        let bytes = self.read_buffer(&self.boids.boids, (self.count * BOID_BYTES) as u64)?;
        Ok(floats_of(&bytes)
            .chunks_exact(BOID_FLOATS)
            .map(boid_from_floats)
            .unzip())
    }

    /// The grid the last step used, read back (blocking): where its first cell starts and how
    /// many cells it has per axis. A test checks that a free-edge flock's grid follows it.
    #[doc(hidden)]
    pub fn fitted_grid(&self) -> Result<([f32; 3], [u32; 3]), GpuError> {
        let bytes = self.read_buffer(&self.fitted, FITTED_GRID_BYTES)?;
        let word = |index: usize| {
            let at = index * 4;
            [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
        };
        Ok((
            [0, 1, 2].map(|axis| f32::from_le_bytes(word(axis))),
            [4, 5, 6].map(|axis| u32::from_le_bytes(word(axis))),
        ))
    }

    /// Waits for the device and copies the first `size` bytes of `buffer` back.
    fn read_buffer(&self, buffer: &wgpu::Buffer, size: u64) -> Result<Vec<u8>, GpuError> {
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flock_gpu read-back"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("flock_gpu read-back"),
            });
        encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
        let submission = self.queue.submit([encoder.finish()]);
        let (sender, receiver) = mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |result| {
            // The receiver waits below; it is gone only if this call already returned.
            let _ = sender.send(result);
        });
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: Some(READ_BACK_TIMEOUT),
            })
            .map_err(|error| GpuError::Device(error.to_string()))?;
        receiver
            .recv_timeout(READ_BACK_TIMEOUT)
            .map_err(|error| GpuError::Device(error.to_string()))?
            .map_err(|error| GpuError::Device(error.to_string()))?;
        let bytes = staging.get_mapped_range(..).to_vec();
        staging.unmap();
        Ok(bytes)
    }

    /// Room for at least `count` boids (at most the device's limit, which the callers
    /// checked): new buffers of twice the capacity or `count`, whichever is more, with the
    /// first `keep` boids copied over on the device (the rest are written by the caller).
    fn grow(&mut self, count: usize, keep: usize) {
        let capacity = count
            .max(self.capacity.saturating_mul(2))
            .min(self.max_capacity);
        let boids = BoidBuffers::new(&self.device, capacity);
        if keep > 0 {
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("flock_gpu grow"),
                });
            let bytes = (keep * BOID_BYTES) as u64;
            encoder.copy_buffer_to_buffer(&self.boids.boids, 0, &boids.boids, 0, bytes);
            let species = (keep * 4) as u64;
            encoder.copy_buffer_to_buffer(&self.boids.species, 0, &boids.species, 0, species);
            self.queue.submit([encoder.finish()]);
        }
        self.boids = boids;
        self.capacity = capacity;
        self.bind();
    }

    /// New bind groups over the flock's buffers, after one of them was replaced.
    fn bind(&mut self) {
        self.bind_groups = BindGroups::new(
            &self.device,
            &self.compiled.layouts,
            [
                &self.params,
                &self.cell_start,
                &self.block_sums,
                &self.fitted,
                &self.kinds,
                &self.points,
                &self.obstacles,
                &self.enclosure,
            ],
            &self.boids,
        );
    }
}

/// The settings the kernel runs: valid ([`FlockConfig::validate`]) and with metric
/// neighbours. Topological neighbours ([`flock_core::Neighbours::Nearest`]) are the CPU
/// kernel's: refused here, never silently run as metric ones.
pub fn check_config(config: &FlockConfig) -> Result<(), ConfigError> {
    config.validate()?;
    if let Some(k) = config.neighbours.nearest() {
        return Err(ConfigError {
            field: "neighbours",
            value: k as f32,
            reason: "must be Neighbours::Metric on the GPU: the nearest-k (topological) rule \
                     runs on the CPU flock only",
        });
    }
    Ok(())
}

/// Refuses states the device must never see: slices of different lengths, or a value that is
/// not finite (named by boid).
fn check_states(positions: &[Vector], velocities: &[Vector]) -> Result<(), GpuError> {
    if positions.len() != velocities.len() {
        return Err(GpuError::LengthMismatch {
            positions: positions.len(),
            velocities: velocities.len(),
        });
    }
    for (boid, (position, velocity)) in positions.iter().zip(velocities).enumerate() {
        if !position.is_finite() {
            return Err(GpuError::NotFinite {
                boid,
                what: "position",
            });
        }
        if !velocity.is_finite() {
            return Err(GpuError::NotFinite {
                boid,
                what: "velocity",
            });
        }
    }
    Ok(())
}

/// Bytes of the fitted grid (`FittedGrid` in shaders/grid.wgsl: three `vec4`s and six `u32`s,
/// padded to 16).
const FITTED_GRID_BYTES: u64 = 80;

/// Workgroups for one invocation per item: one row of up to `per_row` along x, and more rows
/// along y past it; rows widen as far as needed to keep their number within `limit`.
fn groups_for(items: u32, per_row: u32, limit: u32) -> [u32; 2] {
    let groups = items.div_ceil(WORKGROUP_SIZE);
    let per_row = per_row.max(groups.div_ceil(limit)).min(limit);
    if groups <= per_row {
        [groups, 1]
    } else {
        [per_row, groups.div_ceil(per_row)]
    }
}

impl BoidBuffers {
    fn new(device: &wgpu::Device, capacity: usize) -> Self {
        let capacity = capacity.max(1) as u64;
        let boids = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flock_gpu boids"),
            size: capacity * BOID_BYTES as u64,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::VERTEX
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        Self {
            boids,
            // The positions in cell order, then the velocities: as many bytes as the boids.
            sorted: storage(
                device,
                "flock_gpu sorted boids",
                capacity,
                BOID_BYTES as u64,
            ),
            sorted_index: storage(device, "flock_gpu sorted index", capacity, 4),
            placement: storage(device, "flock_gpu cell and rank of boid", capacity, 8),
            scattered: storage(device, "flock_gpu scattered index", capacity, 4),
            species: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flock_gpu species"),
                size: capacity * 4,
                // Vertex too: a renderer reads it per instance to colour boids by species.
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::VERTEX
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
        }
    }
}

/// The most cells a device's storage buffers hold (one cell start each, and one more entry).
fn device_cells(limits: &wgpu::Limits) -> u64 {
    let largest = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    (largest / 4).saturating_sub(1)
}

/// The cell starts (`entries` of them) and the scan's block totals for them.
fn cell_buffers(device: &wgpu::Device, entries: u64) -> [wgpu::Buffer; 2] {
    [
        storage(device, "flock_gpu cell starts", entries, 4),
        storage(
            device,
            "flock_gpu block sums",
            block_sum_entries(entries),
            4,
        ),
    ]
}

fn storage(device: &wgpu::Device, label: &str, items: u64, item_bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: items * item_bytes,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    })
}

impl Layouts {
    fn new(device: &wgpu::Device) -> Self {
        let storage = wgpu::BufferBindingType::Storage { read_only: false };
        let grid: Vec<_> = std::iter::once((0, wgpu::BufferBindingType::Uniform))
            .chain((1..=STORAGE_BUFFERS).map(|binding| (binding, storage)))
            .collect();
        // The steering's bindings keep the grid passes' numbers (shaders/steer.wgsl).
        let steer = [
            (0, wgpu::BufferBindingType::Uniform),
            (BOIDS, storage),
            (SORTED, storage),
            (SORTED_INDEX, storage),
            (CELL_START, storage),
            (FITTED, storage),
        ];
        let uniform = wgpu::BufferBindingType::Uniform;
        let gameplay = [
            (0, uniform),
            (1, uniform),
            (2, wgpu::BufferBindingType::Storage { read_only: true }),
            (3, uniform),
            (4, uniform),
        ];
        Self {
            grid: layout(device, "flock_gpu grid", &grid),
            steer: layout(device, "flock_gpu steer", &steer),
            gameplay: layout(device, "flock_gpu gameplay", &gameplay),
        }
    }
}

/// The bindings of the boid buffers the steering reads (shaders/common.wgsl's numbers).
const BOIDS: u32 = 1;
const SORTED: u32 = 2;
const SORTED_INDEX: u32 = 3;
const CELL_START: u32 = 6;
const FITTED: u32 = 5;

fn layout(
    device: &wgpu::Device,
    label: &str,
    bindings: &[(u32, wgpu::BufferBindingType)],
) -> wgpu::BindGroupLayout {
    let entries: Vec<_> = bindings
        .iter()
        .map(|&(binding, ty)| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &entries,
    })
}

fn bind_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    buffers: &[(u32, &wgpu::Buffer)],
) -> wgpu::BindGroup {
    let entries: Vec<_> = buffers
        .iter()
        .map(|&(binding, buffer)| wgpu::BindGroupEntry {
            binding,
            resource: buffer.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

impl BindGroups {
    /// The bind groups over the flock's own buffers (params, cell starts, scan block sums,
    /// species, points, obstacles, enclosure) and the boid buffers.
    fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        [
            params,
            cell_start,
            block_sums,
            fitted,
            kinds,
            points,
            obstacles,
            enclosure,
        ]: [&wgpu::Buffer; 8],
        boids: &BoidBuffers,
    ) -> Self {
        let grid = [
            params,
            &boids.boids,
            &boids.sorted,
            &boids.sorted_index,
            &boids.placement,
            fitted,
            cell_start,
            block_sums,
            &boids.scattered,
        ];
        let grid: Vec<_> = (0..).zip(grid).collect();
        let steer = [
            (0, params),
            (BOIDS, &boids.boids),
            (SORTED, &boids.sorted),
            (SORTED_INDEX, &boids.sorted_index),
            (CELL_START, cell_start),
            (FITTED, fitted),
        ];
        let gameplay = [
            (0, kinds),
            (1, points),
            (2, &boids.species),
            (3, obstacles),
            (4, enclosure),
        ];
        Self {
            grid: bind_group(device, "flock_gpu grid", &layouts.grid, &grid),
            steer: bind_group(device, "flock_gpu steer", &layouts.steer, &steer),
            gameplay: bind_group(device, "flock_gpu gameplay", &layouts.gameplay, &gameplay),
        }
    }
}

impl Pipelines {
    fn new(device: &wgpu::Device, layouts: &Layouts) -> Self {
        let grid_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("flock_gpu grid"),
            bind_group_layouts: &[Some(&layouts.grid)],
            immediate_size: 0,
        });
        let steer_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("flock_gpu steer"),
            bind_group_layouts: &[Some(&layouts.steer), Some(&layouts.gameplay)],
            immediate_size: 0,
        });
        let module = |label: &str, source: String| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let grid = module("flock_gpu grid", grid_source());
        let steer = module("flock_gpu steer", steer_source());
        let compile = |layout: &wgpu::PipelineLayout,
                       module: &wgpu::ShaderModule,
                       entry_point: &str,
                       constants: &[(&str, f64)]| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry_point),
                layout: Some(layout),
                module,
                entry_point: Some(entry_point),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants,
                    ..Default::default()
                },
                cache: None,
            })
        };
        let pipeline = |module: &wgpu::ShaderModule, entry_point: &str| {
            compile(&grid_layout, module, entry_point, &[])
        };
        Self {
            clear_cells: pipeline(&grid, "clear_cells"),
            measure_extent: pipeline(&grid, "measure_extent"),
            fit_grid: pipeline(&grid, "fit_grid"),
            count_boids: pipeline(&grid, "count_boids"),
            scan_blocks: pipeline(&grid, "scan_blocks"),
            scan_block_sums: pipeline(&grid, "scan_block_sums"),
            scan_top: pipeline(&grid, "scan_top"),
            add_top_offsets: pipeline(&grid, "add_top_offsets"),
            add_block_offsets: pipeline(&grid, "add_block_offsets"),
            scatter: pipeline(&grid, "scatter"),
            order_cells: pipeline(&grid, "order_cells"),
            steer: compile(&steer_layout, &steer, "steer", &[("GAMEPLAY", 0.0)]),
            steer_gameplay: compile(&steer_layout, &steer, "steer", &[("GAMEPLAY", 1.0)]),
        }
    }
}
