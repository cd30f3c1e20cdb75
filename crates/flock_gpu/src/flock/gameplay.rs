//! [`DeviceFlock`]'s gameplay: its species, the hunts between them, each boid's species, the
//! points the game moves every frame, the obstacles it avoids and the enclosure it keeps to. Each call checks everything
//! it is given first (species.rs, points.rs, obstacles.rs, containment.rs) and changes nothing when it refuses.

use flock_core::Vector;
use flock_core::steering::Shape;

use super::DeviceFlock;
use crate::containment::{Containment, check_containment, enclosure_bytes};
use crate::error::GpuError;
use crate::layout::to_bytes;
use crate::obstacles::{ObstacleAvoidance, check_obstacles, obstacles_bytes};
use crate::points::{GpuPoint, check_points, points_bytes};
use crate::species::{GpuHunt, SpeciesSettings, check_hunts, check_species, kinds_bytes};

impl DeviceFlock {
    /// Gives the flock species, numbered from 0 in this order: each boid (species 0 unless
    /// given with [`upload_species`](Self::upload_species) or
    /// [`append_with_species`](Self::append_with_species)) then takes its species' rules and
    /// flocks only with its own kind, as the Bevy plugin's `Species` do. Refused, changing
    /// nothing: none, more than [`MAX_SPECIES`](crate::MAX_SPECIES), a species whose rules are
    /// invalid with the flock's settings, fewer species than a boid's or a hunt's index names.
    pub fn set_species(&mut self, species: &[SpeciesSettings]) -> Result<(), GpuError> {
        check_species(species, &self.config)?;
        if self.species_in_use as usize > species.len() {
            return Err(GpuError::SpeciesInUse {
                highest: self.species_in_use - 1,
                count: species.len(),
            });
        }
        check_hunts(&self.hunts, species.len())?;
        self.species = species.to_vec();
        self.write_kinds();
        Ok(())
    }

    /// Back to one flock under the flock's own settings: no species and no hunts (the boids'
    /// species are kept for the next [`set_species`](Self::set_species)).
    pub fn clear_species(&mut self) {
        self.species.clear();
        self.hunts.clear();
        self.write_kinds();
    }

    /// The species, in index order; empty when the flock has none.
    pub fn species(&self) -> &[SpeciesSettings] {
        &self.species
    }

    /// Sets the hunts between the species (the Bevy plugin's `SpeciesRelations`); none stops
    /// every hunt. Refused, changing nothing: more than [`MAX_HUNTS`](crate::MAX_HUNTS), a
    /// species that is not set, a species hunting itself, two hunts of one pair, a radius,
    /// weight or look-ahead that is not finite, negative or huge.
    pub fn set_hunts(&mut self, hunts: &[GpuHunt]) -> Result<(), GpuError> {
        check_hunts(hunts, self.species.len())?;
        self.hunts = hunts.to_vec();
        self.write_kinds();
        Ok(())
    }

    /// The hunts.
    pub fn hunts(&self) -> &[GpuHunt] {
        &self.hunts
    }

    /// Sets every boid's species, in upload order. Refused, changing nothing: a list of
    /// another length than the flock, an index past the species set.
    pub fn upload_species(&mut self, species: &[u32]) -> Result<(), GpuError> {
        if species.len() != self.count {
            return Err(GpuError::SpeciesLengthMismatch {
                boids: self.count,
                species: species.len(),
            });
        }
        let in_use = self.check_species_indices(species)?;
        self.write_species(0, species);
        self.species_in_use = in_use;
        Ok(())
    }

    /// [`append`](Self::append)s boids of the given species. Refused, changing nothing: as
    /// `append`, a species list of another length, an index past the species set.
    pub fn append_with_species(
        &mut self,
        positions: &[Vector],
        velocities: &[Vector],
        species: &[u32],
    ) -> Result<(), GpuError> {
        if species.len() != positions.len() {
            return Err(GpuError::SpeciesLengthMismatch {
                boids: positions.len(),
                species: species.len(),
            });
        }
        let in_use = self.check_species_indices(species)?;
        let first = self.count;
        self.append(positions, velocities)?;
        self.write_species(first, species);
        self.species_in_use = self.species_in_use.max(in_use);
        Ok(())
    }

    /// Sets the points that steer every boid from the next step on, replacing the last ones;
    /// none is fine (no point steers). Refused whole, changing nothing (never truncated): more
    /// than [`MAX_POINTS`](crate::MAX_POINTS), a position or velocity not finite or huge, a
    /// radius or look-ahead negative, not finite or huge, a weight not finite or huge.
    pub fn set_points(&mut self, points: &[GpuPoint]) -> Result<(), GpuError> {
        check_points(points)?;
        self.queue
            .write_buffer(&self.points, 0, &points_bytes(points));
        self.point_count = points.len();
        Ok(())
    }

    /// How many points steer the boids.
    pub fn point_count(&self) -> usize {
        self.point_count
    }

    /// Each boid's species as a `u32`, in upload order (`len()` of them), for a renderer that
    /// colours boids by species. It is replaced when the flock grows past its capacity.
    pub fn species_buffer(&self) -> &wgpu::Buffer {
        &self.boids.species
    }

    /// Sets the obstacles every boid avoids from the next step on, and how (flock_core's
    /// `avoid_obstacles`, as the Bevy plugin's `AvoidObstacles` does it), replacing the last
    /// ones; none is fine (no boid avoids anything). A boid inside an obstacle steers straight
    /// out of the first (in this order) that holds it. Refused whole, changing nothing (never
    /// truncated): more than [`MAX_OBSTACLES`](crate::MAX_OBSTACLES) or
    /// [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES), a shape that is not valid, lies
    /// or reaches beyond `FlockConfig::MAX_MAGNITUDE`, or has a rotation that cannot be
    /// inverted, an avoidance with a look-ahead not more than zero, a clearance negative, or a
    /// value not finite or huge.
    pub fn set_obstacles(
        &mut self,
        shapes: &[Shape],
        avoidance: ObstacleAvoidance,
    ) -> Result<(), GpuError> {
        check_obstacles(shapes, &avoidance)?;
        self.queue
            .write_buffer(&self.obstacles, 0, &obstacles_bytes(shapes, &avoidance));
        self.obstacle_count = shapes.len();
        Ok(())
    }

    /// How many obstacles the boids avoid.
    pub fn obstacle_count(&self) -> usize {
        self.obstacle_count
    }

    /// Keeps every boid inside an enclosure from the next step on (flock_core's `contain`, as
    /// the Bevy plugin's `StayInside` does it), or none with `None`. Refused, changing
    /// nothing: an enclosure that is not a region, lies or reaches beyond
    /// `FlockConfig::MAX_MAGNITUDE`, or has more than
    /// [`MAX_ENCLOSURE_VERTICES`](crate::MAX_ENCLOSURE_VERTICES); a look-ahead not more than
    /// zero, a value not finite or huge.
    pub fn set_containment(&mut self, containment: Option<&Containment>) -> Result<(), GpuError> {
        if let Some(containment) = containment {
            check_containment(containment)?;
        }
        self.queue
            .write_buffer(&self.enclosure, 0, &enclosure_bytes(containment));
        self.contained = containment.is_some();
        Ok(())
    }

    /// Whether the boids keep to an enclosure.
    pub fn is_contained(&self) -> bool {
        self.contained
    }

    /// Whether the step runs the gameplay pipeline: species, points, obstacles or an enclosure
    /// are set.
    pub(super) fn has_gameplay(&self) -> bool {
        !self.species.is_empty()
            || self.point_count > 0
            || self.obstacle_count > 0
            || self.contained
    }

    /// Writes the species and hunts as the `Kinds` uniform.
    pub(super) fn write_kinds(&self) {
        let bytes = kinds_bytes(&self.config, &self.species, &self.hunts);
        self.queue.write_buffer(&self.kinds, 0, &bytes);
    }

    /// Writes species indices into the species buffer from slot `first` on.
    pub(super) fn write_species(&mut self, first: usize, species: &[u32]) {
        if species.is_empty() {
            return;
        }
        let bytes = to_bytes(species.iter().map(|kind| kind.to_le_bytes()));
        self.queue
            .write_buffer(&self.boids.species, (first * 4) as u64, &bytes);
        self.species_written |= species.iter().any(|&kind| kind != 0);
    }

    /// Checks that every index names a species that is set, and returns one more than the
    /// highest (0 for none).
    fn check_species_indices(&self, species: &[u32]) -> Result<u32, GpuError> {
        let count = self.species.len();
        match species
            .iter()
            .enumerate()
            .find(|&(_, &kind)| kind as usize >= count)
        {
            Some((boid, &kind)) => Err(GpuError::SpeciesOutOfRange {
                boid,
                species: kind,
                count,
            }),
            None => Ok(species.iter().max().map_or(0, |&highest| highest + 1)),
        }
    }
}
