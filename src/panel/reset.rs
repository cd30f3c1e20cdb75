//! The panel's Reset: clear the flock, restart its RNG and spawn the starting flock again.

use bevy::prelude::*;

use super::metrics::FlockMetrics;
use crate::components::Boid;
use crate::rng::FlockRng;
use crate::spawn::SpawnBoids;

/// What the panel's Reset button spawns (with [`ResetFlock`]).
#[derive(Resource, Debug, Clone, Copy)]
pub struct PanelReset(pub SpawnBoids);

/// Triggered after [`ResetFlock`] has spawned the flock again, for what the app keeps beside
/// the flock (a GPU flock, a score) to start over with it.
#[derive(Event, Debug, Clone, Copy)]
pub struct FlockWasReset;

/// A command that clears the flock, restarts its RNG from the seed it was given and spawns
/// the flock again: the panel's Reset. With the same settings the run then replays. Then
/// triggers [`FlockWasReset`].
#[derive(Debug, Clone, Copy)]
pub struct ResetFlock(pub SpawnBoids);

impl Command for ResetFlock {
    type Out = ();

    fn apply(self, world: &mut World) {
        let boids: Vec<Entity> = world
            .query_filtered::<Entity, With<Boid>>()
            .iter(world)
            .collect();
        for boid in boids {
            world.despawn(boid);
        }
        if let Some(mut rng) = world.get_resource_mut::<FlockRng>() {
            let seed = rng.seed();
            rng.reseed(seed);
        }
        if let Some(mut metrics) = world.get_resource_mut::<FlockMetrics>() {
            metrics.clear();
        }
        self.0.apply(world);
        world.trigger(FlockWasReset);
    }
}
