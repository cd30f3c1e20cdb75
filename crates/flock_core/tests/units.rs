//! Seconds or frames: the per-second presets move exactly as the source documents' per-frame
//! formulas when stepped at 1/60 s.

use flock_core::{Flock, FlockConfig, Vector};

/// Processing's *Flocking* in its own units: pixels per frame, one step per frame.
fn processing_per_frame() -> FlockConfig {
    FlockConfig {
        max_speed: 2.0,
        max_force: 0.03,
        response_time: 1.0,
        ..FlockConfig::processing()
    }
}

#[test]
fn processing_in_seconds_moves_like_processing_in_frames() {
    let per_frame = processing_per_frame();
    let per_second = FlockConfig::processing();
    let start = Flock::random(400, &per_frame, 8);
    let positions = start.positions().to_vec();
    let frame_velocities = start.velocities().to_vec();
    let second_velocities: Vec<Vector> = frame_velocities.iter().map(|v| *v * 60.0).collect();
    let mut frames = Flock::new(positions.clone(), frame_velocities, &per_frame);
    let mut seconds = Flock::new(positions, second_velocities, &per_second);
    for _ in 0..30 {
        frames.step(&per_frame, 1.0);
        seconds.step(&per_second, 1.0 / 60.0);
    }
    for ((p, v), (q, w)) in frames
        .positions()
        .iter()
        .zip(frames.velocities())
        .zip(seconds.positions().iter().zip(seconds.velocities()))
    {
        // Equal up to f32 rounding (velocities are about 100 px/s).
        assert!(
            p.distance(*q) < 1e-3,
            "position {p} per frame, {q} per second"
        );
        assert!((*v * 60.0).distance(*w) < 1e-2, "velocity {v}/frame, {w}/s");
    }
}
