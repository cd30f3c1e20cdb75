//! Integrate, edges and facing: moving boids and turning their sprites.

use bevy::prelude::*;
use flock_core::{apply_edge, integrate};

use crate::components::{Acceleration, Boid, Velocity};
use crate::settings::ActiveFlockSettings;

/// [`FlockSystems::Integrate`](crate::FlockSystems::Integrate): velocity, speed limits and
/// position over the schedule's time step; the acceleration is used up.
pub(crate) fn integrate_boids(
    time: Res<Time>,
    settings: Res<ActiveFlockSettings>,
    mut boids: Query<(&mut Transform, &mut Velocity, &mut Acceleration), With<Boid>>,
) {
    let config = &settings.0.config;
    let dt = time.delta_secs();
    boids
        .par_iter_mut()
        .for_each(|(mut transform, mut velocity, mut acceleration)| {
            let mut position = transform.translation.truncate();
            integrate(config, dt, &mut position, &mut velocity.0, acceleration.0);
            transform.translation = position.extend(transform.translation.z);
            acceleration.0 = Vec2::ZERO;
        });
}

/// [`FlockSystems::Edges`](crate::FlockSystems::Edges): wrap or bounce at the bounds.
pub(crate) fn apply_boid_edges(
    settings: Res<ActiveFlockSettings>,
    mut boids: Query<(&mut Transform, &mut Velocity), With<Boid>>,
) {
    let config = &settings.0.config;
    boids
        .par_iter_mut()
        .for_each(|(mut transform, mut velocity)| {
            let mut position = transform.translation.truncate();
            apply_edge(config.edges, &config.bounds, &mut position, &mut velocity.0);
            transform.translation = position.extend(transform.translation.z);
        });
}

/// [`FlockSystems::TransformSync`](crate::FlockSystems::TransformSync): turns each boid to face
/// its velocity (sprites are drawn pointing along +x). A boid at rest keeps its rotation.
pub(crate) fn face_velocity(
    mut boids: Query<(&mut Transform, &Velocity), (With<Boid>, Changed<Velocity>)>,
) {
    boids.par_iter_mut().for_each(|(mut transform, velocity)| {
        if let Some(heading) = velocity.0.try_normalize() {
            // From the two unit vectors directly: no trigonometry for 100k boids a step.
            transform.rotation = Quat::from_rotation_arc_2d(Vec2::X, heading);
        }
    });
}
