//! Topological neighbours (`Neighbours::Nearest`) through the plugin, in a headless `App`: a
//! flock whose boids attend to their 7 nearest runs soundly, and its forces are the kernel's,
//! to the bit, whichever index the app uses. `bevy_flock3d` runs the same cases in 3D
//! (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy_flock::FlockBuffers;
use bevy_flock::flock_core::{
    AnyIndex, ForceInputs, IndexKind, NeighbourIndex, Neighbours, Serial, Space, StepConstants,
};
use bevy_flock::prelude::*;
use common::*;

#[test]
fn a_flock_of_seven_nearest_runs_and_its_forces_are_the_kernels() {
    for index in [IndexKind::Grid, IndexKind::KdTree] {
        // About 13 boids within reach of each (fewer in 3D): more than 7 to choose from.
        let config = FlockConfig {
            neighbours: Neighbours::Nearest { k: 7 },
            index,
            ..FlockConfig::default()
        };
        let mut app = create_app(FlockSettings::from_config(config), 3);
        spawn(&mut app, 1_500, Placement::RandomInBounds);
        step(&mut app, 30);
        assert_sound(&mut app);
        assert_eq!(boid_count(&mut app), 1_500);

        let buffers = app.world().resource::<FlockBuffers>();
        let (positions, velocities) = (buffers.positions(), buffers.velocities());
        let mut reference = AnyIndex::new(IndexKind::BruteForce);
        reference.rebuild(positions, &Space::of(&config), config.max_radius(), &Serial);
        let mut forces = vec![Vector::ZERO; positions.len()];
        let weights = vec![config.weights; positions.len()];
        let stats = reference.compute_forces(
            ForceInputs::new(
                &StepConstants::new(&config),
                positions,
                velocities,
                &weights,
            ),
            &mut forces,
            &Serial,
        );
        assert_eq!(buffers.forces(), &forces[..], "{index:?}");
        assert!(stats.neighbours <= 7 * 1_500, "{stats:?}");
        assert!(stats.neighbours > 0, "the flock has neighbours");
    }
}
