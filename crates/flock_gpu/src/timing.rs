//! How long a step takes on the device, from timestamps the device writes at the start and end
//! of the step's compute pass (where it supports `TIMESTAMP_QUERY`). One step in flight at a
//! time is timed: its timestamps are copied to a buffer that is mapped without waiting, and read
//! at a later step once the map is done, so timing never stalls the flock.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

/// The map's state, set by wgpu's callback.
const IDLE: u8 = 0;
const PENDING: u8 = 1;
const MAPPED: u8 = 2;
const FAILED: u8 = 3;

/// Bytes of the two timestamps.
const TIMESTAMP_BYTES: u64 = 2 * 8;

pub(crate) struct StepTimer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    staging: wgpu::Buffer,
    state: Arc<AtomicU8>,
    /// Nanoseconds per timestamp tick.
    period: f32,
    last: Option<Duration>,
}

impl StepTimer {
    /// A timer, where the device supports timestamps inside compute passes.
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("flock_gpu step timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: TIMESTAMP_BYTES,
                usage,
                mapped_at_creation: false,
            })
        };
        Some(Self {
            queries,
            resolved: buffer(
                "flock_gpu step timestamps",
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            ),
            staging: buffer(
                "flock_gpu step timestamps read-back",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            state: Arc::new(AtomicU8::new(IDLE)),
            period: queue.get_timestamp_period(),
            last: None,
        })
    }

    /// Whether a timed step's read-back is waiting for its map.
    pub(crate) fn is_waiting(&self) -> bool {
        self.state.load(Ordering::Acquire) == PENDING
    }

    /// The last step's time on the device that has come back.
    pub(crate) fn last(&self) -> Option<Duration> {
        self.last
    }

    /// Takes in a finished read-back; then, if none is in flight, the timestamp writes for this
    /// step's pass (`None`: this step is not timed).
    pub(crate) fn begin_step(&mut self) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        match self.state.load(Ordering::Acquire) {
            MAPPED => {
                let ticks = {
                    let bytes = self.staging.get_mapped_range(..);
                    let stamp = |at: usize| {
                        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default())
                    };
                    stamp(8).wrapping_sub(stamp(0))
                };
                self.staging.unmap();
                // A counter that ran backwards (a reset between the stamps) times nothing.
                let nanos = ticks as f64 * f64::from(self.period);
                if ticks < u64::MAX / 2 && nanos.is_finite() {
                    self.last = Some(Duration::from_nanos(nanos as u64));
                }
                self.state.store(IDLE, Ordering::Release);
            }
            FAILED => self.state.store(IDLE, Ordering::Release),
            _ => {}
        }
        if self.state.load(Ordering::Acquire) != IDLE {
            return None;
        }
        Some(wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        })
    }

    /// After a timed pass: copies its timestamps out to be mapped once the step has run.
    pub(crate) fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.resolve_query_set(&self.queries, 0..2, &self.resolved, 0);
        encoder.copy_buffer_to_buffer(&self.resolved, 0, &self.staging, 0, TIMESTAMP_BYTES);
    }

    /// After the timed step is submitted: maps its timestamps without waiting.
    pub(crate) fn map_after_submit(&self) {
        self.state.store(PENDING, Ordering::Release);
        let state = Arc::clone(&self.state);
        self.staging
            .map_async(wgpu::MapMode::Read, .., move |result| {
                let next = if result.is_ok() { MAPPED } else { FAILED };
                state.store(next, Ordering::Release);
            });
    }
}
