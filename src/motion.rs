//! Integrate and edges: moving boids. (Facing the velocity is per dimension:
//! `crate::dimension::face_velocity`.)

use bevy::prelude::*;
use flock_core::steering::limit_turn;
use flock_core::{SpeedMode, Vector, apply_edge, limit_speed, limit_speed_to};

use crate::behaviours::limits::{MotionLimits, TurnRate};
use crate::components::{Acceleration, Boid, Velocity};
use crate::dimension::{position_of, set_position, translation_of};
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
            transform.translation += translation_of(velocity.0 * dt);
            acceleration.0 = Vector::ZERO;
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
            let mut position = position_of(transform.translation);
            apply_edge(config.edges, &config.bounds, &mut position, &mut velocity.0);
            set_position(&mut transform.translation, position);
        });
}
