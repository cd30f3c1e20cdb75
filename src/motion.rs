//! Integrate, edges and facing: moving boids and turning their sprites.

use bevy::prelude::*;
use flock_core::steering::limit_turn;
use flock_core::{SpeedMode, apply_edge, limit_speed, limit_speed_to};

use crate::behaviours::{MotionLimits, TurnRate};
use crate::components::{Acceleration, Boid, Velocity};
use crate::settings::ActiveFlockSettings;

/// A boid with [`MotionLimits`] may fly at any speed up to its own maximum, and stop.
const ANY_SPEED_UP_TO_MAX: SpeedMode = SpeedMode::Clamp { min_speed: 0.0 };

/// [`FlockSystems::Integrate`](crate::FlockSystems::Integrate): velocity, speed limits and
/// position over the schedule's time step (Euler, as every source document does); the
/// acceleration is used up. A boid with valid [`MotionLimits`] moves at any speed up to its own
/// maximum; one with a valid [`TurnRate`] then has its turn and speed change limited.
pub(crate) fn integrate_boids(
    time: Res<Time>,
    settings: Res<ActiveFlockSettings>,
    mut boids: Query<
        (
            &mut Transform,
            &mut Velocity,
            &mut Acceleration,
            Option<&MotionLimits>,
            Option<&TurnRate>,
        ),
        With<Boid>,
    >,
) {
    let config = &settings.0.config;
    let dt = time.delta_secs();
    boids.par_iter_mut().for_each(
        |(mut transform, mut velocity, mut acceleration, limits, turn_rate)| {
            let previous = velocity.0;
            let wanted = previous + acceleration.0 * dt;
            // Both paths bring a velocity that is not finite (a NaN acceleration from user
            // code) to rest, so it never reaches a neighbour's alignment.
            velocity.0 = match limits.filter(|limits| limits.is_valid()) {
                Some(limits) => limit_speed_to(wanted, ANY_SPEED_UP_TO_MAX, limits.max_speed),
                None => limit_speed(wanted, config),
            };
            if let Some(turn) = turn_rate.filter(|turn| turn.is_valid()) {
                velocity.0 = limit_turn(
                    previous,
                    velocity.0,
                    turn.max_turn_rate,
                    turn.max_acceleration,
                    dt,
                );
            }
            transform.translation += (velocity.0 * dt).extend(0.0);
            acceleration.0 = Vec2::ZERO;
        },
    );
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
