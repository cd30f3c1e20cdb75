//! Gameplay on the GPU flock, with the CPU plugin's names and meanings: species with their own
//! rules and the hunts between them ([`Hunt`]), points the game moves every frame
//! ([`GpuFlockPoint`] on entities), the app's [`Obstacle`]s avoided, an enclosure kept to, and
//! questions about the boids near a point answered without reading the flock back.
//!
//! Everything is checked in the main world, where the game gets the error at once; what passes
//! travels to the render world with the frame's orders and is applied before the frame's steps.

use bevy::prelude::*;
use flock_core::Vector;
use flock_core::steering::Shape;
use flock_gpu::{
    Containment, GpuError, GpuHunt, GpuPoint, MAX_POINTS, NearQuery, ObstacleAvoidance,
    QueryResult, SpeciesSettings,
};

use super::handle::GpuFlock;
use crate::behaviours::{Hunt, Obstacle, gather_obstacles};
use crate::components::Velocity;
use crate::dimension::position_of;

/// A point that steers every boid of the GPU flock, at its entity's translation (its
/// `GlobalTransform`), read every frame: move the entity and the flock follows. A predator's
/// velocity is its entity's [`Velocity`] where it has one.
///
/// At most [`flock_gpu::MAX_POINTS`] steer the flock; with more, or with a point whose numbers
/// are not finite or huge, the flock keeps the last points it accepted and a warning says why
/// (once while the problem lasts).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Transform)]
pub enum GpuFlockPoint {
    /// Boids steer to it at full speed, slowing inside `slow_radius` to stop on it (the CPU
    /// plugin's `Arrive`; `Seek` with a radius of zero).
    Attractor {
        /// Where boids start to slow down; zero for plain seek.
        slow_radius: f32,
        /// How much this force counts in a boid's sum.
        weight: f32,
    },
    /// Boids closer than `radius` steer away from it at full speed (the CPU plugin's `Flee`).
    Repeller {
        /// How near it must be to be fled from.
        radius: f32,
        /// How much this force counts in a boid's sum.
        weight: f32,
    },
    /// Boids closer than `radius` flee where it will be, from its velocity, at most
    /// `max_look_ahead` seconds ahead (the CPU plugin's `Evade`).
    Predator {
        /// How near it must be to be fled from.
        radius: f32,
        /// How much this force counts in a boid's sum.
        weight: f32,
        /// The longest prediction, seconds.
        max_look_ahead: f32,
    },
}

impl GpuFlockPoint {
    /// The kernel's point at `position`, moving at `velocity`.
    fn at(self, position: Vector, velocity: Vector) -> GpuPoint {
        match self {
            Self::Attractor {
                slow_radius,
                weight,
            } => GpuPoint::Attractor {
                position,
                slow_radius,
                weight,
            },
            Self::Repeller { radius, weight } => GpuPoint::Repeller {
                position,
                radius,
                weight,
            },
            Self::Predator {
                radius,
                weight,
                max_look_ahead,
            } => GpuPoint::Predator {
                position,
                velocity,
                radius,
                weight,
                max_look_ahead,
            },
        }
    }
}

/// The gameplay a [`GpuFlock`] asks of the device, and what changed since the last frame.
#[derive(Debug, Clone, Default)]
pub(crate) struct Gameplay {
    /// The species, or none (one flock under the flock's settings).
    species: Vec<SpeciesSettings>,
    hunts: Vec<GpuHunt>,
    avoidance: Option<ObstacleAvoidance>,
    containment: Option<Containment>,
    /// The points and obstacles last accepted from the app's entities.
    points: Vec<GpuPoint>,
    obstacles: Vec<Shape>,
    /// One more than the highest species a spawned boid has (0 while all are species 0).
    species_in_use: u32,
    /// A question waiting for the next frame.
    query: Option<NearQuery>,
    /// What the next frame carries.
    rules_changed: bool,
    containment_changed: bool,
    obstacles_changed: bool,
    points_changed: bool,
    /// Each species' colour when drawn, linear RGBA (none: the prefab's colours).
    colors: Vec<[f32; 4]>,
    /// The last refusal of the entities' points or obstacles, so it is said once.
    refused_points: Option<String>,
    refused_obstacles: Option<String>,
}

/// The gameplay one frame hands the render world: only what changed.
#[derive(Debug, Clone, Default)]
pub(crate) struct GameplayOrders {
    /// New species and hunts (an empty species list is one flock again).
    pub rules: Option<(Vec<SpeciesSettings>, Vec<GpuHunt>)>,
    /// New obstacles and avoidance (`None` avoidance: no obstacle is avoided).
    pub obstacles: Option<(Vec<Shape>, Option<ObstacleAvoidance>)>,
    /// A new enclosure, or `Some(None)` for none.
    pub containment: Option<Option<Containment>>,
    /// New points.
    pub points: Option<Vec<GpuPoint>>,
    /// A question about the boids near a point.
    pub query: Option<NearQuery>,
}

impl GameplayOrders {
    /// These orders after `earlier` ones the render world has not applied: the newer of each.
    pub fn after(self, earlier: GameplayOrders) -> GameplayOrders {
        GameplayOrders {
            rules: self.rules.or(earlier.rules),
            obstacles: self.obstacles.or(earlier.obstacles),
            containment: self.containment.or(earlier.containment),
            points: self.points.or(earlier.points),
            query: self.query.or(earlier.query),
        }
    }
}

impl Gameplay {
    /// What changed since the last frame, handed over and forgotten here.
    pub(crate) fn take_orders(&mut self) -> GameplayOrders {
        let rules = std::mem::take(&mut self.rules_changed)
            .then(|| (self.species.clone(), self.hunts.clone()));
        let containment =
            std::mem::take(&mut self.containment_changed).then(|| self.containment.clone());
        let obstacles = std::mem::take(&mut self.obstacles_changed)
            .then(|| (self.obstacles.clone(), self.avoidance));
        let points = std::mem::take(&mut self.points_changed).then(|| self.points.clone());
        GameplayOrders {
            rules,
            obstacles,
            containment,
            points,
            query: self.query.take(),
        }
    }

    /// The species a spawned boid may have: any below the species set, or 0 without species.
    pub(crate) fn check_spawn_species(&self, species: u32) -> Result<(), GpuError> {
        let count = self.species.len().max(1);
        if species as usize >= count {
            return Err(GpuError::SpeciesOutOfRange {
                boid: 0,
                species,
                count,
            });
        }
        Ok(())
    }

    /// A spawn of `species` boids went to the render world.
    pub(crate) fn note_spawned(&mut self, species: u32) {
        self.species_in_use = self.species_in_use.max(species + 1);
    }

    /// Every boid was cleared.
    pub(crate) fn note_cleared(&mut self) {
        self.species_in_use = 0;
    }
}

impl GpuFlock {
    /// Gives the GPU flock species, numbered from 0 in this order, each with its own rule
    /// weights, radii, max speed and max force; boids flock only with their own kind, as the
    /// CPU plugin's [`Species`](crate::Species) do. Boids are species 0 unless spawned with
    /// [`GpuFlock::spawn_species`]. Refused, changing nothing: an empty list (see
    /// [`GpuFlock::clear_species`]), more than [`flock_gpu::MAX_SPECIES`], a species whose
    /// rules are invalid with the flock's settings, fewer species than a spawned boid's or a
    /// hunt's index needs. Applied from the next frame on.
    pub fn set_species(&mut self, species: &[SpeciesSettings]) -> Result<(), GpuError> {
        flock_gpu::check_species(species, self.config())?;
        let play = self.gameplay_mut();
        if (species.len() as u32) < play.species_in_use {
            return Err(GpuError::SpeciesInUse {
                highest: play.species_in_use - 1,
                count: species.len(),
            });
        }
        flock_gpu::check_hunts(&play.hunts, species.len())?;
        play.species = species.to_vec();
        play.rules_changed = true;
        Ok(())
    }

    /// Back to one flock under the flock's settings: no species, no hunts (boids keep their
    /// species for the next [`GpuFlock::set_species`]).
    pub fn clear_species(&mut self) {
        let play = self.gameplay_mut();
        play.species.clear();
        play.hunts.clear();
        play.rules_changed = true;
    }

    /// The species set (empty: one flock).
    pub fn species(&self) -> &[SpeciesSettings] {
        &self.gameplay().species
    }

    /// The hunts between the species, as the CPU plugin's
    /// [`SpeciesRelations`](crate::SpeciesRelations) holds them: prey flee every predator
    /// within `flee_radius`, each predator pursues the nearest prey within `chase_radius`.
    /// Refused, changing nothing: more than [`flock_gpu::MAX_HUNTS`], a species that is not
    /// set, a species hunting itself, two hunts of one pair, a value not finite, negative or
    /// huge. An empty list stops every hunt.
    pub fn set_hunts(&mut self, hunts: &[Hunt]) -> Result<(), GpuError> {
        let hunts: Vec<GpuHunt> = hunts.iter().map(gpu_hunt).collect();
        let play = self.gameplay_mut();
        flock_gpu::check_hunts(&hunts, play.species.len())?;
        play.hunts = hunts;
        play.rules_changed = true;
        Ok(())
    }

    /// Has the whole flock avoid the app's [`Obstacle`]s (read from their entities every
    /// frame) as the CPU plugin's `AvoidObstacles` does, or none with `None`. Refused,
    /// changing nothing: a look-ahead not more than zero, a clearance negative, a value not
    /// finite or huge.
    pub fn set_obstacle_avoidance(
        &mut self,
        avoidance: Option<ObstacleAvoidance>,
    ) -> Result<(), GpuError> {
        if let Some(avoidance) = &avoidance {
            flock_gpu::check_obstacles(&[], avoidance)?;
        }
        let play = self.gameplay_mut();
        if play.avoidance != avoidance {
            play.avoidance = avoidance;
            play.obstacles_changed = true;
        }
        Ok(())
    }

    /// How the flock avoids obstacles, if it does.
    pub fn obstacle_avoidance(&self) -> Option<ObstacleAvoidance> {
        self.gameplay().avoidance
    }

    /// Keeps every boid inside an enclosure (the CPU plugin's `StayInside` with a `Pen`), or
    /// none with `None`. Refused, changing nothing: an enclosure that is not a region or lies
    /// beyond `FlockConfig::MAX_MAGNITUDE`, a polygon of more than
    /// [`flock_gpu::MAX_ENCLOSURE_VERTICES`], a look-ahead not more than zero, a value not
    /// finite or huge.
    pub fn set_containment(&mut self, containment: Option<Containment>) -> Result<(), GpuError> {
        if let Some(containment) = &containment {
            flock_gpu::check_containment(containment)?;
        }
        let play = self.gameplay_mut();
        play.containment = containment;
        play.containment_changed = true;
        Ok(())
    }

    /// The enclosure the boids keep to, if any.
    pub fn containment(&self) -> Option<&Containment> {
        self.gameplay().containment.as_ref()
    }

    /// The points steering the flock, as last accepted from the entities with
    /// [`GpuFlockPoint`].
    pub fn points(&self) -> &[GpuPoint] {
        &self.gameplay().points
    }

    /// The obstacles the flock avoids, as last accepted from the entities with [`Obstacle`].
    pub fn obstacles(&self) -> &[Shape] {
        &self.gameplay().obstacles
    }

    /// Draws each species in its own colour, species 0 in the first (at most
    /// [`flock_gpu::MAX_SPECIES`]; a species past the list takes the last); an empty list
    /// draws every boid as the prefab says. Refused, changing nothing: more than
    /// [`flock_gpu::MAX_SPECIES`], a colour that is not finite.
    pub fn set_species_colors(&mut self, colors: &[Color]) -> Result<(), GpuError> {
        if colors.len() > flock_gpu::MAX_SPECIES {
            return Err(GpuError::TooMany {
                what: "species colours",
                requested: colors.len(),
                limit: flock_gpu::MAX_SPECIES,
            });
        }
        let linear: Vec<[f32; 4]> = colors
            .iter()
            .map(|color| color.to_linear().to_f32_array())
            .collect();
        if let Some(index) = linear
            .iter()
            .position(|color| !color.iter().all(|c| c.is_finite()))
        {
            return Err(GpuError::Species {
                index,
                error: flock_core::ConfigError {
                    field: "color",
                    value: f32::NAN,
                    reason: "must be finite",
                },
            });
        }
        self.gameplay_mut().colors = linear;
        Ok(())
    }

    /// Each species' colour, linear RGBA; empty when the prefab colours the boids.
    pub fn species_colors(&self) -> &[[f32; 4]] {
        &self.gameplay().colors
    }

    /// Asks how many boids are within `query.radius` of `query.point` and which are the
    /// nearest few, for the boids after this frame's steps. The answer arrives a few frames
    /// later in [`GpuFlock::query_answer`], without the flock being read back. Refused: a
    /// point or radius not finite or huge, more than [`flock_gpu::MAX_NEAREST`] nearest; a
    /// question asked again before the frame carried the last one replaces it.
    pub fn query_near(&mut self, query: NearQuery) -> Result<(), GpuError> {
        flock_gpu::check_query(&query)?;
        self.gameplay_mut().query = Some(query);
        Ok(())
    }

    /// The answer to the last [`GpuFlock::query_near`] that has arrived, with its question;
    /// taken (the next call returns `None` until another answer arrives).
    pub fn query_answer(&mut self) -> Option<(NearQuery, QueryResult)> {
        self.take_query_answer()
    }
}

/// The CPU plugin's hunt as the kernel's.
fn gpu_hunt(hunt: &Hunt) -> GpuHunt {
    GpuHunt {
        predator: hunt.predator,
        prey: hunt.prey,
        flee_radius: hunt.flee_radius,
        flee_weight: hunt.flee_weight,
        chase_radius: hunt.chase_radius,
        chase_weight: hunt.chase_weight,
        max_look_ahead: hunt.max_look_ahead,
    }
}

/// In `PostUpdate`, after transforms are propagated: the points and obstacles of the app's
/// entities, taken by the GPU flock when they changed and pass its checks (a refusal is a
/// warning, once while it lasts, and the last accepted stay).
#[allow(clippy::type_complexity)]
pub(crate) fn gather_gpu_gameplay(
    points: Query<(Entity, &GlobalTransform, &GpuFlockPoint, Option<&Velocity>)>,
    obstacles: Query<(&Transform, &Obstacle)>,
    mut shapes: Local<Vec<Shape>>,
    mut found: Local<Vec<(u32, GpuPoint)>>,
    mut gathered: Local<Vec<GpuPoint>>,
    flock: Option<ResMut<GpuFlock>>,
) {
    let Some(mut flock) = flock else {
        return;
    };
    // Kept between frames, so a frame allocates nothing once they have grown.
    found.clear();
    found.extend(points.iter().map(|(entity, transform, point, velocity)| {
        let position = position_of(transform.translation());
        let point = point.at(position, velocity.map_or(Vector::ZERO, |v| v.0));
        (entity.index_u32(), point)
    }));
    // By entity index, so the same entities give the same order every run.
    found.sort_by_key(|(index, _)| *index);
    gathered.clear();
    gathered.extend(found.iter().map(|(_, point)| *point));
    let found = &*gathered;
    let play = flock.gameplay_mut();
    if *found != play.points {
        let checked = if found.len() > MAX_POINTS {
            Err(GpuError::TooMany {
                what: "points (entities with GpuFlockPoint)",
                requested: found.len(),
                limit: MAX_POINTS,
            })
        } else {
            flock_gpu::check_points(found)
        };
        match checked {
            Ok(()) => {
                play.points.clone_from(found);
                play.points_changed = true;
                play.refused_points = None;
            }
            Err(error) => refuse_once(&mut play.refused_points, "points", error),
        }
    }

    let Some(avoidance) = play.avoidance else {
        return;
    };
    gather_obstacles(&obstacles, &mut shapes);
    if *shapes != play.obstacles {
        match flock_gpu::check_obstacles(&shapes, &avoidance) {
            Ok(()) => {
                play.obstacles.clone_from(&*shapes);
                play.obstacles_changed = true;
                play.refused_obstacles = None;
            }
            Err(error) => refuse_once(&mut play.refused_obstacles, "obstacles", error),
        }
    }
}

/// Warns that the entities' `what` were refused, unless the same refusal was the last.
fn refuse_once(last: &mut Option<String>, what: &str, error: GpuError) {
    let message = error.to_string();
    if last.as_deref() != Some(message.as_str()) {
        warn!("GPU flock: the {what} refused ({message}); keeping the last accepted");
        *last = Some(message);
    }
}
