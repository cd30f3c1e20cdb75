//! The optional read-back: the boids copied from the device into a staging buffer that is
//! mapped without waiting, and handed to the main world when the map is ready.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy::render::renderer::{RenderDevice, RenderQueue};
use flock_core::Vector;
use flock_gpu::wgpu;
use flock_gpu::{BOID_BYTES, boid_from_floats};

use super::stepping::RenderGpuFlock;

/// The GPU flock's positions and velocities as last copied back, for gameplay (what is near
/// the player, where the flock's centre is). Filled only while
/// [`GpuFlock::set_readback`](super::GpuFlock::set_readback) is on.
///
/// **A few frames late:** the copy is made in the render world after a frame's steps and
/// mapped without waiting for the device; it arrives in the main world when the map is ready,
/// usually two or three frames later (one more with pipelined rendering), and a new copy
/// starts only when the last has arrived. [`GpuFlockReadback::steps`] says which step it
/// shows. Boids keep the order they were added in.
#[derive(Resource, Debug, Clone, Default)]
pub struct GpuFlockReadback {
    /// Each boid's position.
    pub positions: Vec<Vector>,
    /// Each boid's velocity.
    pub velocities: Vec<Vector>,
    /// The GPU flock's steps when the copy was made (counted from its first frame).
    pub steps: u64,
    /// How many read-backs have arrived.
    pub arrivals: u64,
}

/// One copy on its way from the render world.
struct Arrival {
    positions: Vec<Vector>,
    velocities: Vec<Vector>,
    steps: u64,
}

/// The main world's end of the channel.
#[derive(Resource)]
pub(crate) struct ReadbackReceiver(Mutex<Receiver<Arrival>>);

/// The render world's end, with the copy in flight and a staging buffer to reuse.
#[derive(Resource)]
pub(crate) struct ReadbackSender {
    sender: Sender<Arrival>,
    in_flight: Option<InFlight>,
    spare: Option<wgpu::Buffer>,
}

/// The map's state, set by wgpu's callback.
const PENDING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

struct InFlight {
    staging: wgpu::Buffer,
    count: usize,
    steps: u64,
    state: Arc<AtomicU8>,
}

/// The two ends of a new read-back channel.
pub(crate) fn readback_channel() -> (ReadbackReceiver, ReadbackSender) {
    let (sender, receiver) = std::sync::mpsc::channel();
    (
        ReadbackReceiver(Mutex::new(receiver)),
        ReadbackSender {
            sender,
            in_flight: None,
            spare: None,
        },
    )
}

/// In the main world's `PreUpdate`: the newest arrival, if any, into [`GpuFlockReadback`].
pub(crate) fn receive_gpu_readback(
    receiver: Res<ReadbackReceiver>,
    mut readback: ResMut<GpuFlockReadback>,
) {
    let Ok(receiver) = receiver.0.lock() else {
        return;
    };
    let Some(arrival) = receiver.try_iter().last() else {
        return;
    };
    readback.positions = arrival.positions;
    readback.velocities = arrival.velocities;
    readback.steps = arrival.steps;
    readback.arrivals += 1;
}

/// In the render world, after the frame's steps: hands a mapped copy to the main world, and
/// starts the next copy when none is in flight.
pub(crate) fn read_back_gpu_flock(
    render_flock: Res<RenderGpuFlock>,
    mut readback: ResMut<ReadbackSender>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
) {
    let readback = &mut *readback;
    // Lets the device run finished maps' callbacks without waiting for anything.
    let _ = device.wgpu_device().poll(wgpu::PollType::Poll);
    if let Some(in_flight) = readback.in_flight.take() {
        match in_flight.state.load(Ordering::Acquire) {
            PENDING => {
                readback.in_flight = Some(in_flight);
                return;
            }
            MAPPED => {
                let arrival = unpack(&in_flight);
                in_flight.staging.unmap();
                readback.spare = Some(in_flight.staging);
                // The main world is gone only when the app is closing.
                let _ = readback.sender.send(arrival);
            }
            _ => error!("GPU flock: a read-back could not be mapped"),
        }
    }
    let Some(boids) = render_flock.boid_buffer() else {
        return;
    };
    let count = render_flock.len();
    if !render_flock.readback || count == 0 {
        return;
    }
    let size = (count * BOID_BYTES) as u64;
    let staging = match readback.spare.take() {
        Some(buffer) if buffer.size() >= size => buffer,
        _ => device.wgpu_device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("bevy_flock GPU read-back"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }),
    };
    let mut encoder =
        device
            .wgpu_device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("bevy_flock GPU read-back"),
            });
    encoder.copy_buffer_to_buffer(boids, 0, &staging, 0, size);
    queue.submit([encoder.finish()]);
    let state = Arc::new(AtomicU8::new(PENDING));
    let signal = Arc::clone(&state);
    staging.map_async(wgpu::MapMode::Read, ..size, move |result| {
        let state = if result.is_ok() { MAPPED } else { FAILED };
        signal.store(state, Ordering::Release);
    });
    readback.in_flight = Some(InFlight {
        staging,
        count,
        steps: render_flock.steps(),
        state,
    });
}

fn unpack(in_flight: &InFlight) -> Arrival {
    let size = (in_flight.count * BOID_BYTES) as u64;
    let bytes = in_flight.staging.get_mapped_range(..size);
    let floats: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|word| f32::from_le_bytes([word[0], word[1], word[2], word[3]]))
        .collect();
    drop(bytes);
    let (positions, velocities) = floats
        .chunks_exact(BOID_BYTES / 4)
        .map(boid_from_floats)
        .unzip();
    Arrival {
        positions,
        velocities,
        steps: in_flight.steps,
    }
}
