//! Context steering (Andrew Fray, "Context Steering", *Game AI Pro 2*, chapter 18) as another
//! way to combine a boid's behaviours: instead of the weighted sum of their forces, an interest
//! map and a danger map over a ring (2D) or a sphere (3D) of directions, and the most
//! interesting way that is not dangerous (see [`flock_core::steering::context`]).

use bevy::prelude::*;
use flock_core::Space;
use flock_core::steering::context::{
    ContextMaps, ContextParams, arrive_interest, flee_context, momentum, neighbour_danger,
    obstacle_danger, seek_interest, steer_by_context as context_force, wall_danger,
};
use flock_core::steering::{Shape, predict};

use crate::behaviours::avoidance::{Obstacle, gather_obstacles};
use crate::behaviours::flee::Flee;
use crate::behaviours::pursuit::Pursue;
use crate::behaviours::reported::ReportedOnce;
use crate::behaviours::seek::{Arrive, Seek};
use crate::behaviours::steerers::{Steerers, vehicle};
use crate::behaviours::target::{Bodies, Target};
use crate::settings::ActiveFlockSettings;
use crate::steer::Nearby;
use crate::steering_force::{SteeringForce, SteeringPriority};

/// Steer by context maps rather than by the weighted sum of the boid's behaviour forces.
///
/// Interest comes from the boid's own [`Seek`], [`Arrive`] and [`Pursue`] targets (each
/// behaviour's `weight` as its interest, at most 1) and [`Flee`] threats (interest away, danger
/// towards), plus a little for its current heading (`params.momentum`); danger from every
/// [`Obstacle`] within `params.look_ahead`, from the flock's bounds when `walls` is set, and
/// from other boids closer than `params.separation` (found through the flock's neighbour
/// index). The most interesting way that is not masked by danger is taken, at a speed from its
/// interest (an arriving boid slows down; a boid whose only open ways are of no interest
/// stops), and steered towards as any behaviour is, `(desired - velocity) / response_time`.
///
/// For a boid with this component the decision *replaces* the sum in its [`SteeringForce`]:
/// its other behaviours (wander, paths, obstacle avoidance...) are computed but not used.
/// Flocking and [`AvoidWalls`](crate::AvoidWalls)' push are not part of the sum and still
/// apply. Invalid parameters (see [`ContextParams::is_valid`]) are reported once, and the boid
/// keeps its weighted sum until they are valid again.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Debug, PartialEq, Default)]
#[require(SteeringForce)]
pub struct ContextSteering {
    /// The maps' directions, look-ahead, clearance, separation, threshold and momentum.
    pub params: ContextParams,
    /// Whether the flock's bounds are walls to keep `params.clearance` from (off by default,
    /// as in a wrapping world, where they are not walls).
    pub walls: bool,
}

/// The interest behaviours a context-steered boid may have.
type Wishes<'w, 's> = Query<
    'w,
    's,
    (
        Option<&'static Seek>,
        Option<&'static Arrive>,
        Option<&'static Pursue>,
        Option<&'static Flee>,
    ),
>;

/// Runs after every behaviour has added its force and before the sum is combined: for each
/// boid with [`ContextSteering`], the sum is replaced by the context decision. Every boid reads
/// the same snapshot (positions and the neighbour index as the step began), so the order boids
/// are visited in does not matter.
pub(crate) fn steer_by_context(
    settings: Res<ActiveFlockSettings>,
    bodies: Bodies,
    obstacles: Query<(&Transform, &Obstacle)>,
    mut nearby: Nearby,
    mut shapes: Local<Vec<Shape>>,
    mut maps_by_slots: Local<Vec<ContextMaps>>,
    mut reported: Local<ReportedOnce>,
    mut boids: Steerers<ContextSteering>,
    wishes: Wishes,
) {
    let config = &settings.0.config;
    // Positions wrap in a periodic world: each neighbour is taken at its nearest image.
    let space = Space::of(config);
    gather_obstacles(&obstacles, &mut shapes);
    for (entity, transform, velocity, limits, context, mut sum) in &mut boids {
        let params = &context.params;
        let valid = reported.check(entity, params.is_valid(), || {
            format!(
                "{entity} has invalid ContextSteering params {params:?} (slots {} to {}, a \
                 finite positive look-ahead, finite clearance and separation not negative, \
                 threshold and momentum from 0 to 1); it keeps its weighted sum",
                ContextParams::MIN_SLOTS,
                ContextParams::MAX_SLOTS,
            )
        });
        if !valid {
            continue;
        }
        let me = vehicle(transform, velocity, limits, config);
        let slots = params.slots as usize;
        let index = match maps_by_slots.iter().position(|maps| maps.len() == slots) {
            Some(index) => index,
            None => {
                maps_by_slots.push(ContextMaps::new(slots));
                maps_by_slots.len() - 1
            }
        };
        let maps = &mut maps_by_slots[index];
        maps.clear();

        if let Ok((seek, arrive, pursue, flee)) = wishes.get(entity) {
            let here = me.position;
            let locate = |target: &Target| target.locate(&bodies);
            if let Some(seek) = seek
                && let Some((target, _)) = locate(&seek.target)
            {
                seek_interest(maps, here, target, seek.weight);
            }
            if let Some(arrive) = arrive
                && let Some((target, _)) = locate(&arrive.target)
            {
                arrive_interest(maps, here, target, arrive.slow_radius, arrive.weight);
            }
            if let Some(pursue) = pursue
                && let Some((target, moving)) = locate(&Target::Entity(pursue.target))
            {
                let look_ahead = pursue.max_look_ahead.max(0.0);
                let ahead = predict(&me, target, moving, look_ahead);
                seek_interest(maps, here, ahead, pursue.weight);
            }
            if let Some(flee) = flee {
                for (threat, _) in flee.threats.iter().filter_map(locate) {
                    flee_context(maps, here, threat, flee.radius, flee.weight);
                }
            }
        }
        momentum(maps, me.velocity, params.momentum);

        for shape in shapes.iter() {
            obstacle_danger(
                maps,
                me.position,
                shape,
                params.look_ahead,
                params.clearance,
            );
        }
        if context.walls {
            wall_danger(
                maps,
                me.position,
                &config.bounds,
                params.look_ahead,
                params.clearance,
            );
        }
        if params.separation > 0.0 {
            let others = nearby
                .others(entity, me.position, params.separation)
                .map(|(position, _)| me.position + space.delta(me.position, position));
            neighbour_danger(maps, me.position, others, params.separation);
        }

        sum.replace(SteeringPriority::Context, context_force(&me, maps, params));
    }
}
