//! Questions about the flock answered on the device (shaders/query.wgsl): how many boids are
//! within a radius of a point, and which are the nearest few, read back asynchronously as a
//! few bytes instead of the whole flock.

use std::sync::{Arc, Mutex};

use flock_core::{DIMENSIONS, FlockConfig, Vector};

use crate::error::GpuError;
use crate::layout::to_bytes;
use crate::shaders::query_source;
use crate::species::check_size;

/// The most nearest boids a query asks for (`MAX_NEAREST` in shaders/query.wgsl).
pub const MAX_NEAREST: usize = 16;

/// Workgroups of the first pass, and invocations in each (shaders/query.wgsl): the second pass
/// merges one workgroup's list per invocation, so the two are equal.
const QUERY_GROUPS: u32 = 64;

/// Bytes of the answer: the count, a padding word, then [`MAX_NEAREST`] boids found (their
/// squared distance's bits and their index).
const ANSWER_BYTES: u64 = 8 + MAX_NEAREST as u64 * 8;

/// Bytes of the workgroups' lists.
const PARTIAL_BYTES: u64 = QUERY_GROUPS as u64 * MAX_NEAREST as u64 * 8;

/// Bytes of the `Query` uniform: two `vec4`s and four scalars.
const QUERY_BYTES: u64 = 48;

/// A question about the boids near a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearQuery {
    /// Where to look.
    pub point: Vector,
    /// Boids closer than this count; across the seams when the flock's neighbours wrap.
    pub radius: f32,
    /// How many of them to name, nearest first (at most [`MAX_NEAREST`]; 0 to count only).
    pub nearest: usize,
}

/// The answer to a [`NearQuery`], for the boids as they were after the steps submitted before
/// it.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryResult {
    /// How many boids are closer than the radius.
    pub count: u32,
    /// The nearest of them (up to the number asked for), nearest first, with their distances;
    /// boids at the same distance in index order.
    pub nearest: Vec<(u32, f32)>,
}

/// Checks a query: a point finite and within [`FlockConfig::MAX_MAGNITUDE`] on every axis, a
/// radius finite, not negative and within it too, at most [`MAX_NEAREST`] boids to name.
pub fn check_query(query: &NearQuery) -> Result<(), GpuError> {
    let far = query
        .point
        .to_array()
        .into_iter()
        .find(|value| !(value.is_finite() && value.abs() <= FlockConfig::MAX_MAGNITUDE));
    if let Some(value) = far {
        return Err(GpuError::Query(flock_core::ConfigError {
            field: "point",
            value,
            reason: "must be finite and within 1e9 (FlockConfig::MAX_MAGNITUDE) on every axis",
        }));
    }
    check_size("radius", query.radius).map_err(GpuError::Query)?;
    if query.nearest > MAX_NEAREST {
        return Err(GpuError::TooMany {
            what: "nearest boids",
            requested: query.nearest,
            limit: MAX_NEAREST,
        });
    }
    Ok(())
}

/// The query passes, compiled with the flock's other pipelines ([`FlockPipelines`]).
///
/// [`FlockPipelines`]: crate::FlockPipelines
pub(crate) struct QueryPipelines {
    layout: wgpu::BindGroupLayout,
    gather: wgpu::ComputePipeline,
    merge: wgpu::ComputePipeline,
}

impl QueryPipelines {
    /// Compiles the passes for `device`; blocking.
    pub fn new(device: &wgpu::Device) -> Self {
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("flock_gpu query"),
            entries: &[
                entry(0, wgpu::BufferBindingType::Uniform),
                entry(1, storage(true)),
                entry(2, storage(false)),
                entry(3, storage(false)),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("flock_gpu query"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("flock_gpu query"),
            source: wgpu::ShaderSource::Wgsl(query_source().into()),
        });
        let pipeline = |entry_point: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry_point),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry_point),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        Self {
            gather: pipeline("gather"),
            merge: pipeline("merge_groups"),
            layout,
        }
    }
}

/// The query passes' buffers, and the query in flight.
pub(crate) struct QueryPass {
    uniform: wgpu::Buffer,
    partial: wgpu::Buffer,
    answer: wgpu::Buffer,
    in_flight: Option<InFlight>,
}

/// A query submitted and not yet answered: its read-back and whether it is mapped.
struct InFlight {
    staging: wgpu::Buffer,
    /// Set by the map's callback; behind a mutex (not a channel) so the flock stays `Sync`, as
    /// an engine's resource must be.
    mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
    nearest: usize,
}

impl QueryPass {
    /// The buffers (made on the first query: a flock that never asks holds none).
    pub fn new(device: &wgpu::Device) -> Self {
        let buffer = |label, size, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as Usage;
        Self {
            uniform: buffer(
                "flock_gpu query",
                QUERY_BYTES,
                Usage::UNIFORM | Usage::COPY_DST,
            ),
            partial: buffer("flock_gpu query lists", PARTIAL_BYTES, Usage::STORAGE),
            answer: buffer(
                "flock_gpu query answer",
                ANSWER_BYTES,
                Usage::STORAGE | Usage::COPY_DST | Usage::COPY_SRC,
            ),
            in_flight: None,
        }
    }

    /// Submits `query` (checked) over the first `count` boids of `boids`, after the work
    /// submitted so far. Refused while another query is in flight.
    pub fn submit(
        &mut self,
        pipelines: &QueryPipelines,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        boids: &wgpu::Buffer,
        count: usize,
        config: &FlockConfig,
        query: &NearQuery,
    ) -> Result<(), GpuError> {
        if self.in_flight.is_some() {
            return Err(GpuError::QueryInFlight);
        }
        queue.write_buffer(&self.uniform, 0, &query_bytes(query, count, config));
        queue.write_buffer(&self.answer, 0, &[0; 8]);
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("flock_gpu query"),
            layout: &pipelines.layout,
            entries: &[&self.uniform, boids, &self.partial, &self.answer]
                .iter()
                .zip(0..)
                .map(|(buffer, binding)| wgpu::BindGroupEntry {
                    binding,
                    resource: buffer.as_entire_binding(),
                })
                .collect::<Vec<_>>(),
        });
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flock_gpu query read-back"),
            size: ANSWER_BYTES,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("flock_gpu query"),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("flock_gpu query"),
                timestamp_writes: None,
            });
            pass.set_bind_group(0, &bind_group, &[]);
            pass.set_pipeline(&pipelines.gather);
            pass.dispatch_workgroups(QUERY_GROUPS, 1, 1);
            pass.set_pipeline(&pipelines.merge);
            pass.dispatch_workgroups(1, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&self.answer, 0, &staging, 0, ANSWER_BYTES);
        queue.submit([encoder.finish()]);
        let mapped = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&mapped);
        staging.map_async(wgpu::MapMode::Read, .., move |result| {
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(result);
            }
        });
        self.in_flight = Some(InFlight {
            staging,
            mapped,
            nearest: query.nearest,
        });
        Ok(())
    }

    /// The answer to the query in flight once the device has it (`None` before, and when no
    /// query is in flight); it polls the device without waiting.
    pub fn poll(&mut self, device: &wgpu::Device) -> Option<Result<QueryResult, GpuError>> {
        let in_flight = self.in_flight.as_ref()?;
        let _ = device.poll(wgpu::PollType::Poll);
        let arrived = match in_flight.mapped.lock() {
            Ok(mut slot) => slot.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        let mapped = match arrived {
            None => return None,
            Some(result) => result.map_err(|error| GpuError::Device(error.to_string())),
        };
        let in_flight = self.in_flight.take()?;
        Some(mapped.map(|()| {
            let bytes = in_flight.staging.get_mapped_range(..).to_vec();
            in_flight.staging.unmap();
            answer_of(&bytes, in_flight.nearest)
        }))
    }
}

/// The `Query` uniform's bytes.
fn query_bytes(query: &NearQuery, count: usize, config: &FlockConfig) -> Vec<u8> {
    let padded = |v: Vector| {
        let mut out = [0.0f32; 4];
        out[..DIMENSIONS].copy_from_slice(&v.to_array()[..DIMENSIONS]);
        out
    };
    let mut words: Vec<[u8; 4]> = Vec::with_capacity(12);
    words.extend(padded(query.point).map(f32::to_le_bytes));
    words.extend(padded(config.bounds.size()).map(f32::to_le_bytes));
    words.push((query.radius * query.radius).to_le_bytes());
    words.extend(
        [
            query.nearest as u32,
            count as u32,
            u32::from(config.neighbours_wrap()),
        ]
        .map(u32::to_le_bytes),
    );
    to_bytes(words)
}

/// The answer's count and nearest boids from its bytes.
fn answer_of(bytes: &[u8], nearest: usize) -> QueryResult {
    let word = |index: usize| {
        let at = index * 4;
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    };
    let found = (0..nearest)
        .map(|slot| (word(2 + 2 * slot), word(3 + 2 * slot)))
        .filter(|&(key, _)| key != u32::MAX)
        .map(|(key, boid)| (boid, f32::from_bits(key).sqrt()))
        .collect();
    QueryResult {
        count: word(0),
        nearest: found,
    }
}
