//! The level's navigation mesh: built with polyanya from the walkable outline (the flock's
//! bounds unless the app gives one) less the footprints of the level's obstacles, grown by the
//! agents' radius; rebuilt whenever an obstacle, a collider, the outline or the settings change.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use bevy::math::Vec2;
use bevy::prelude::*;
use flock_core::steering::Shape;
use flock_core::{Bounds, Vector};
use polyanya::{Mesh, Triangulation};

#[cfg(feature = "avian")]
use crate::behaviours::level::StaticColliders;
use crate::behaviours::level::{Obstacles, gather_level_shapes};
use crate::navigation::plan::{bounds_outline, footprint, from_plan, outline_walls, to_plan};
use crate::settings::ActiveFlockSettings;

/// The largest coordinate (and radius) the mesh is built from: beyond it `f32` has too few
/// bits left below the unit for the geometry, so such input is refused.
pub const MAX_NAVMESH_COORDINATE: f32 = 1.0e7;

/// The most corners an outline (or an obstacle's footprint) may have.
pub const MAX_OUTLINE_CORNERS: usize = 4096;

/// How the level's navigation mesh is built and how agents keep to their paths. A resource:
/// change it and the mesh is built again (a change that is not valid is reported and the last
/// mesh is kept).
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, PartialEq, Default)]
pub struct NavMeshSettings {
    /// The walkable area's outer edge on the floor plan (x and y in 2D; x and z in 3D), in
    /// either turning order. Empty: the flock's bounds.
    pub outline: Vec<Vec2>,
    /// The agents' radius: every obstacle's footprint grows by it and the outline shrinks by
    /// it, so a path keeps an agent's centre this far from every wall (Recast's agent radius).
    /// It is also the half width of the corridor an agent follows. Zero: paths touch the walls.
    pub agent_radius: f32,
    /// How far from its path an agent may be pushed (by the crowd, ORCA or the contact pass)
    /// before it plans again from where it is.
    pub replan_distance: f32,
    /// Seconds an agent may go without getting closer to its destination before it plans
    /// again; after two such plans in a row it is [`NavStatus::Stuck`](crate::NavStatus) (and
    /// reported) until it gets closer.
    pub stuck_after: f32,
}

impl Default for NavMeshSettings {
    fn default() -> Self {
        Self {
            outline: Vec::new(),
            agent_radius: 5.0,
            replan_distance: 30.0,
            stuck_after: 5.0,
        }
    }
}

/// Why the navigation mesh could not be built.
#[derive(Debug, Clone, PartialEq)]
pub enum NavMeshError {
    /// The outline has fewer than three distinct corners, or more than
    /// [`MAX_OUTLINE_CORNERS`].
    OutlineCorners(usize),
    /// A corner of the outline is not finite, or beyond [`MAX_NAVMESH_COORDINATE`].
    OutlineOutOfRange(Vec2),
    /// Two edges of the outline cross.
    OutlineCrosses,
    /// The agent radius, replanning distance or stuck time is not a finite number
    /// (at least zero; the distance and time above zero; the radius at most
    /// [`MAX_NAVMESH_COORDINATE`]).
    Setting(&'static str, f32),
    /// Nothing is left to walk on: the outline is too thin for the agent radius, or the
    /// obstacles cover it all.
    NoWalkableArea,
    /// The geometry library failed on this input.
    Geometry,
}

impl fmt::Display for NavMeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutlineCorners(count) => write!(
                f,
                "the outline needs 3 to {MAX_OUTLINE_CORNERS} distinct corners, it has {count}"
            ),
            Self::OutlineOutOfRange(corner) => write!(
                f,
                "the outline's corner {corner} is not finite or beyond ±{MAX_NAVMESH_COORDINATE}"
            ),
            Self::OutlineCrosses => write!(f, "two edges of the outline cross"),
            Self::Setting(name, value) => write!(f, "{name} {value} is out of range"),
            Self::NoWalkableArea => write!(
                f,
                "nothing is left to walk on (the outline is too small for the agent radius, or \
                 obstacles cover it)"
            ),
            Self::Geometry => write!(f, "the triangulation failed on this outline"),
        }
    }
}

impl std::error::Error for NavMeshError {}

impl NavMeshSettings {
    /// The outline, or the floor plan of `bounds` when it is empty.
    pub fn outline_or(&self, bounds: &Bounds) -> Vec<Vec2> {
        if self.outline.is_empty() {
            bounds_outline(bounds)
        } else {
            self.outline.clone()
        }
    }

    /// Whether the numbers are usable (the outline is checked when the mesh is built).
    pub fn validate(&self) -> Result<(), NavMeshError> {
        let radius = self.agent_radius;
        if !(radius.is_finite() && (0.0..=MAX_NAVMESH_COORDINATE).contains(&radius)) {
            return Err(NavMeshError::Setting("agent_radius", radius));
        }
        for (name, value) in [
            ("replan_distance", self.replan_distance),
            ("stuck_after", self.stuck_after),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(NavMeshError::Setting(name, value));
            }
        }
        Ok(())
    }
}

/// The level's navigation mesh as built (a resource; the plugin builds it once any agent has a
/// [`Destination`](crate::Destination)). Paths on it are polyanya's: any-angle, the shortest
/// there is on the mesh.
#[derive(Resource, Default)]
pub struct FlockNavMesh {
    mesh: Option<Mesh>,
    settings: NavMeshSettings,
    generation: u64,
    /// What it was built from, as a number: see [`Self::level_key`].
    level_key: u64,
    walls: Vec<Shape>,
    error: Option<NavMeshError>,
    obstacles_left_out: usize,
    built_from: Option<BuiltFrom>,
}

/// What the mesh was last built (or refused) from, to see when it must be built again.
#[derive(PartialEq)]
struct BuiltFrom {
    settings: NavMeshSettings,
    outline: Vec<Vec2>,
    shapes: Vec<Shape>,
}

/// Why [`FlockNavMesh::path`] found no path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PathFailure {
    /// There is no mesh to plan on (not built yet, or it could not be built).
    NoMesh,
    /// The start or the destination is not a finite point.
    NotFinite,
    /// The start or the destination is off the mesh and no walkable point is near it.
    OffMesh,
    /// The destination cannot be reached from the start: no way between them on the mesh.
    Unreachable,
}

impl fmt::Display for PathFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoMesh => "there is no navigation mesh",
            Self::NotFinite => "a point is not finite",
            Self::OffMesh => "a point is off the navigation mesh with no walkable point near",
            Self::Unreachable => "no way leads there on the navigation mesh",
        })
    }
}

/// A path on the mesh: its corners from the start to the destination (both on the mesh), and
/// whether either end had to be moved onto the mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshPath {
    /// The start (on the mesh), the corners, and the destination (on the mesh).
    pub points: Vec<Vector>,
    /// The start was off the mesh (in an obstacle or outside the outline) and was moved to the
    /// nearest walkable point.
    pub start_moved: bool,
    /// The destination was off the mesh and was moved to the nearest walkable point.
    pub destination_moved: bool,
}

impl FlockNavMesh {
    /// A mesh built as the plugin builds it: the outline of `settings` (or the `bounds`' floor
    /// plan when it is empty) less the footprints of `shapes`, grown by the agent radius.
    /// Shapes that are not valid or beyond [`MAX_NAVMESH_COORDINATE`] are left out and counted
    /// ([`Self::obstacles_left_out`]).
    pub fn from_shapes(
        settings: &NavMeshSettings,
        bounds: &Bounds,
        shapes: &[Shape],
    ) -> Result<Self, NavMeshError> {
        settings.validate()?;
        let outline = settings.outline_or(bounds);
        let footprints: Vec<Vec<Vec2>> = shapes.iter().filter_map(footprint).collect();
        let invalid = shapes.len() - footprints.len();
        let (mesh, out_of_range) = build_mesh(&outline, &footprints, settings.agent_radius)?;
        let walls = outline_walls(
            &counter_clockwise(outline.clone()),
            wall_thickness(&outline, settings.agent_radius),
            bounds,
        );
        Ok(Self {
            mesh: Some(mesh),
            settings: settings.clone(),
            generation: 1,
            level_key: level_key(settings, &outline, shapes),
            walls,
            error: None,
            obstacles_left_out: invalid + out_of_range,
            built_from: None,
        })
    }

    /// polyanya's mesh, once built.
    pub fn mesh(&self) -> Option<&Mesh> {
        self.mesh.as_ref()
    }

    /// The settings the mesh was built with, which agents follow their paths by (a refused
    /// change of [`NavMeshSettings`] is not taken).
    pub fn settings(&self) -> &NavMeshSettings {
        &self.settings
    }

    /// How many times the mesh has been built: agents plan again when it changes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// What the mesh was built from (settings, outline and shapes) as a number: the same level
    /// gives the same key on every machine, however many times each has built its mesh. A
    /// path is kept while the mesh it was planned on has the key it was planned with, so
    /// peers of a lockstep game, and one that joined late and built the mesh once, replan at
    /// the same steps.
    pub fn level_key(&self) -> u64 {
        self.level_key
    }

    /// Why the last build was refused (the mesh before it is kept), if it was.
    pub fn error(&self) -> Option<&NavMeshError> {
        self.error.as_ref()
    }

    /// How many of the level's shapes were left out of the last build (not valid, or beyond
    /// [`MAX_NAVMESH_COORDINATE`]).
    pub fn obstacles_left_out(&self) -> usize {
        self.obstacles_left_out
    }

    /// The mesh's walkable polygons.
    pub fn polygon_count(&self) -> usize {
        self.mesh
            .as_ref()
            .map_or(0, |mesh| mesh.layers.iter().map(|l| l.polygons.len()).sum())
    }

    /// Whether `point` is on the walkable mesh (in 3D, its x and z).
    pub fn contains(&self, point: Vector) -> bool {
        let plan = to_plan(point);
        plan.is_finite() && self.mesh.as_ref().is_some_and(|m| m.point_in_mesh(plan))
    }

    /// The walkable point nearest `point` (itself when it is on the mesh), at its height in 3D.
    pub fn nearest_point(&self, point: Vector) -> Option<Vector> {
        let plan = to_plan(point);
        let mesh = self.mesh.as_ref().filter(|_| plan.is_finite())?;
        if mesh.point_in_mesh(plan) {
            return Some(point);
        }
        nearest_on_mesh(mesh, plan).map(|nearest| from_plan(nearest, point))
    }

    /// The shortest path on the mesh from `from` to `to` (in 3D on the floor plan, at `from`'s
    /// height), an end off the mesh being moved to the nearest walkable point first.
    pub fn path(&self, from: Vector, to: Vector) -> Result<MeshPath, PathFailure> {
        let mesh = self.mesh.as_ref().ok_or(PathFailure::NoMesh)?;
        let (start, goal) = (to_plan(from), to_plan(to));
        if !(start.is_finite() && goal.is_finite()) {
            return Err(PathFailure::NotFinite);
        }
        let on_mesh = |point: Vec2| {
            if mesh.point_in_mesh(point) {
                Some((point, false))
            } else {
                nearest_on_mesh(mesh, point).map(|nearest| (nearest, true))
            }
        };
        let (start, start_moved) = on_mesh(start).ok_or(PathFailure::OffMesh)?;
        let (goal, destination_moved) = on_mesh(goal).ok_or(PathFailure::OffMesh)?;
        let mut points = vec![from_plan(start, from)];
        if start != goal {
            let found = mesh.path(start, goal).ok_or(PathFailure::Unreachable)?;
            points.extend(found.path.into_iter().map(|corner| from_plan(corner, from)));
        }
        Ok(MeshPath {
            points,
            start_moved,
            destination_moved,
        })
    }

    /// The outline's walls, for ORCA and the contact pass (none until a mesh is built).
    pub(crate) fn walls(&self) -> &[Shape] {
        &self.walls
    }
}

/// The mesh's point nearest `point` (which is off it): on the nearest edge of the nearest
/// polygon, moved a hair into that polygon so it is on the mesh.
fn nearest_on_mesh(mesh: &Mesh, point: Vec2) -> Option<Vec2> {
    let mut best: Option<(f32, Vec2, Vec2)> = None;
    for layer in &mesh.layers {
        for polygon in &layer.polygons {
            let corners: Vec<Vec2> = polygon
                .vertices
                .iter()
                .filter_map(|&index| layer.vertices.get(index as usize))
                .map(|vertex| vertex.coords + layer.offset)
                .collect();
            if corners.len() < 3 {
                continue;
            }
            let centre = corners.iter().copied().sum::<Vec2>() / corners.len() as f32;
            for (index, &a) in corners.iter().enumerate() {
                let b = corners[(index + 1) % corners.len()];
                let along = b - a;
                let t = if along.length_squared() > 0.0 {
                    ((point - a).dot(along) / along.length_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let nearest = a + along * t;
                let distance = nearest.distance_squared(point);
                if best.is_none_or(|(least, ..)| distance < least) {
                    best = Some((distance, nearest, centre));
                }
            }
        }
    }
    let (_, nearest, centre) = best?;
    // In steps that grow until the point is inside (a sliver of a polygon needs the smallest).
    let towards = centre - nearest;
    [1.0e-4, 1.0e-3, 1.0e-2, 0.1, 0.5]
        .into_iter()
        .map(|share| nearest + towards * share)
        .find(|&candidate| mesh.point_in_mesh(candidate))
}

/// Builds the mesh: `outline` less the `footprints` (each grown by the agent radius, the
/// outline shrunk by it). Footprints with a point not finite or out of range are left out
/// (their number comes back with the mesh).
pub(crate) fn build_mesh(
    outline: &[Vec2],
    footprints: &[Vec<Vec2>],
    agent_radius: f32,
) -> Result<(Mesh, usize), NavMeshError> {
    let outline = checked_outline(outline)?;
    // No circle wider than twice the area over the perimeter fits in a polygon: an outline
    // narrower than that for the agents has no room for any.
    let (area, perimeter) = area_and_perimeter(&outline);
    if 2.0 * area <= agent_radius * perimeter {
        return Err(NavMeshError::NoWalkableArea);
    }
    let in_range =
        |point: &Vec2| point.is_finite() && point.abs().max_element() <= MAX_NAVMESH_COORDINATE;
    let (kept, left_out): (Vec<&Vec<Vec2>>, Vec<&Vec<Vec2>>) =
        footprints.iter().partition(|footprint| {
            (3..=MAX_OUTLINE_CORNERS).contains(&footprint.len()) && footprint.iter().all(in_range)
        });
    let build = || {
        let mut triangulation = Triangulation::from_outer_edges(&outline);
        triangulation.add_obstacles(kept.iter().map(|footprint| footprint.iter().copied()));
        if agent_radius > 0.0 {
            triangulation.set_agent_radius(agent_radius);
            triangulation.agent_radius_on_outer_edge(true);
        }
        let mut mesh = triangulation.as_navmesh();
        if mesh.layers.iter().all(|layer| layer.polygons.is_empty()) {
            return None;
        }
        mesh.merge_polygons();
        mesh.bake();
        Some(mesh)
    };
    match catch_unwind(AssertUnwindSafe(build)) {
        Ok(Some(mesh)) => Ok((mesh, left_out.len())),
        Ok(None) => Err(NavMeshError::NoWalkableArea),
        Err(_) => Err(NavMeshError::Geometry),
    }
}

/// The outline without repeated corners, or why it cannot be one.
fn checked_outline(outline: &[Vec2]) -> Result<Vec<Vec2>, NavMeshError> {
    if let Some(&corner) = outline
        .iter()
        .find(|p| !(p.is_finite() && p.abs().max_element() <= MAX_NAVMESH_COORDINATE))
    {
        return Err(NavMeshError::OutlineOutOfRange(corner));
    }
    let mut corners: Vec<Vec2> = Vec::with_capacity(outline.len());
    for &corner in outline {
        if corners.last() != Some(&corner) {
            corners.push(corner);
        }
    }
    while corners.len() > 1 && corners.first() == corners.last() {
        corners.pop();
    }
    if !(3..=MAX_OUTLINE_CORNERS).contains(&corners.len()) {
        return Err(NavMeshError::OutlineCorners(corners.len()));
    }
    if edges_cross(&corners) {
        return Err(NavMeshError::OutlineCrosses);
    }
    Ok(corners)
}

/// Whether two edges of the closed polygon `corners` that are not neighbours cross or touch.
fn edges_cross(corners: &[Vec2]) -> bool {
    let count = corners.len();
    let edge = |index: usize| (corners[index], corners[(index + 1) % count]);
    (0..count).any(|i| {
        (i + 2..count)
            .filter(|&j| !(i == 0 && j == count - 1))
            .any(|j| segments_meet(edge(i), edge(j)))
    })
}

/// Whether segments `ab` and `cd` cross or touch.
fn segments_meet((a, b): (Vec2, Vec2), (c, d): (Vec2, Vec2)) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    if d1 * d2 < 0.0 && d3 * d4 < 0.0 {
        return true;
    }
    // An end on the other segment.
    let on = |p: Vec2, q: Vec2, r: Vec2| {
        side(p, q, r) == 0.0 && r.cmpge(p.min(q)).all() && r.cmple(p.max(q)).all()
    };
    on(c, d, a) || on(c, d, b) || on(a, b, c) || on(a, b, d)
}

/// Before the agents plan: the level gathered, and the mesh built again if it, the outline or
/// the settings changed since the last build. A refused build is reported once (until the
/// input changes) and the last mesh is kept.
pub(crate) fn rebuild_navmesh(
    settings: Res<NavMeshSettings>,
    flock: Res<ActiveFlockSettings>,
    obstacles: Obstacles,
    #[cfg(feature = "avian")] colliders: StaticColliders,
    mut shapes: Local<Vec<Shape>>,
    mut navmesh: ResMut<FlockNavMesh>,
) {
    #[cfg(feature = "avian")]
    gather_level_shapes(&obstacles, &colliders, &mut shapes);
    #[cfg(not(feature = "avian"))]
    gather_level_shapes(&obstacles, &mut shapes);
    let bounds = &flock.0.config.bounds;
    let outline = settings.outline_or(bounds);
    let unchanged = navmesh.built_from.as_ref().is_some_and(|built| {
        built.settings == *settings && built.outline == outline && built.shapes == *shapes
    });
    if unchanged {
        return;
    }
    let started = std::time::Instant::now();
    match FlockNavMesh::from_shapes(&settings, bounds, &shapes) {
        Ok(built) => {
            let left_out = built.obstacles_left_out;
            if left_out > 0 {
                warn!(
                    "bevy_flock: {left_out} obstacle(s) left out of the navigation mesh (not \
                     valid, or beyond ±{MAX_NAVMESH_COORDINATE})"
                );
            }
            let generation = navmesh.generation + 1;
            *navmesh = FlockNavMesh {
                generation,
                ..built
            };
            debug!(
                "bevy_flock: navigation mesh built: {} polygons from {} shapes in {:.2?}",
                navmesh.polygon_count(),
                shapes.len(),
                started.elapsed()
            );
        }
        Err(error) => {
            warn!(
                "bevy_flock: the navigation mesh is not {}: {error}",
                if navmesh.mesh.is_some() {
                    "rebuilt (agents keep the last one)"
                } else {
                    "built (agents with a Destination stay where they are)"
                }
            );
            navmesh.error = Some(error);
        }
    }
    navmesh.built_from = Some(BuiltFrom {
        settings: settings.clone(),
        outline,
        shapes: shapes.clone(),
    });
}

/// FNV-1a over the level's description: `f32`s print as the shortest text that reads back
/// to the same bits, so the text, and the key, are the same on every machine.
fn level_key(settings: &NavMeshSettings, outline: &[Vec2], shapes: &[Shape]) -> u64 {
    let text = format!("{settings:?} {outline:?} {shapes:?}");
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The area (whichever way it turns) and the perimeter of the closed polygon `corners`.
fn area_and_perimeter(corners: &[Vec2]) -> (f32, f32) {
    let edges = corners.iter().zip(corners.iter().cycle().skip(1));
    let (twice_area, perimeter) = edges.fold((0.0, 0.0), |(area, length), (&a, &b)| {
        (area + a.perp_dot(b), length + a.distance(b))
    });
    (twice_area.abs() / 2.0, perimeter)
}

/// `outline` turning counter-clockwise.
fn counter_clockwise(mut outline: Vec<Vec2>) -> Vec<Vec2> {
    let count = outline.len();
    let twice_area: f32 = (0..count)
        .map(|i| outline[i].perp_dot(outline[(i + 1) % count]))
        .sum();
    if twice_area < 0.0 {
        outline.reverse();
    }
    outline
}

/// The outline's walls are thick enough that no step crosses them: a tenth of the outline's
/// size, or four agent radii if more.
fn wall_thickness(outline: &[Vec2], agent_radius: f32) -> f32 {
    let (min, max) = outline.iter().fold((Vec2::MAX, Vec2::MIN), |(lo, hi), &p| {
        (lo.min(p), hi.max(p))
    });
    ((max - min).max_element() / 10.0)
        .max(4.0 * agent_radius)
        .max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(half: f32) -> Vec<Vec2> {
        vec![
            Vec2::new(-half, -half),
            Vec2::new(half, -half),
            Vec2::new(half, half),
            Vec2::new(-half, half),
        ]
    }

    /// A wall across the middle (x = -5..5) with a gap at y = -10..10.
    fn wall_with_a_door() -> Vec<Vec<Vec2>> {
        let block = |y0: f32, y1: f32| {
            vec![
                Vec2::new(-5.0, y0),
                Vec2::new(5.0, y0),
                Vec2::new(5.0, y1),
                Vec2::new(-5.0, y1),
            ]
        };
        vec![block(10.0, 100.0), block(-100.0, -10.0)]
    }

    fn navmesh(outline: &[Vec2], footprints: &[Vec<Vec2>], radius: f32) -> FlockNavMesh {
        let (mesh, _) = build_mesh(outline, footprints, radius).unwrap();
        FlockNavMesh {
            mesh: Some(mesh),
            generation: 1,
            ..default()
        }
    }

    fn at(x: f32, y: f32) -> Vector {
        from_plan(Vec2::new(x, y), Vector::ZERO)
    }

    #[test]
    fn paths_go_through_the_door_and_keep_the_radius() {
        let navmesh = navmesh(&square(100.0), &wall_with_a_door(), 2.0);
        let path = navmesh.path(at(-80.0, 60.0), at(80.0, 60.0)).unwrap();
        assert!(!path.start_moved && !path.destination_moved);
        assert_eq!(path.points.first(), Some(&at(-80.0, 60.0)));
        assert_eq!(path.points.last(), Some(&at(80.0, 60.0)));
        // Through the door, no nearer than the radius to the wall.
        let through = path.points.iter().map(|&p| to_plan(p));
        assert!(
            through
                .clone()
                .any(|p| p.x.abs() <= 5.0 + 1e-3 && p.y.abs() <= 8.0 + 1e-3)
        );
        for p in through {
            for centre in [Vec2::new(0.0, 55.0), Vec2::new(0.0, -55.0)] {
                let beyond = (p - centre).abs() - Vec2::new(5.0, 45.0);
                let distance = beyond.max(Vec2::ZERO).length() + beyond.max_element().min(0.0);
                assert!(distance >= 2.0 - 1e-2, "{p} is {distance} from the wall");
            }
        }
        let length: f32 = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
        let straight = 160.0;
        assert!(length > straight + 20.0, "around the wall: {length}");
    }

    #[test]
    fn ends_off_the_mesh_are_moved_onto_it() {
        let navmesh = navmesh(&square(100.0), &wall_with_a_door(), 2.0);
        // Inside the wall, and outside the outline.
        let path = navmesh.path(at(0.0, 50.0), at(150.0, 0.0)).unwrap();
        assert!(path.start_moved && path.destination_moved);
        let start = to_plan(path.points[0]);
        assert!(start.x.abs() >= 7.0 - 1e-2, "{start}");
        let end = to_plan(*path.points.last().unwrap());
        assert!((end.x - 98.0).abs() < 0.1, "{end}");
        assert!(navmesh.contains(path.points[0]));
        assert_eq!(navmesh.nearest_point(at(10.0, 30.0)), Some(at(10.0, 30.0)));
    }

    #[test]
    fn unreachable_and_not_finite_are_told_apart() {
        // The wall without its door: two islands.
        let mut walls = wall_with_a_door();
        walls.push(vec![
            Vec2::new(-5.0, -10.0),
            Vec2::new(5.0, -10.0),
            Vec2::new(5.0, 10.0),
            Vec2::new(-5.0, 10.0),
        ]);
        let navmesh = navmesh(&square(100.0), &walls, 2.0);
        assert_eq!(
            navmesh.path(at(-50.0, 0.0), at(50.0, 0.0)),
            Err(PathFailure::Unreachable)
        );
        assert!(navmesh.path(at(-50.0, 0.0), at(-20.0, 40.0)).is_ok());
        assert_eq!(
            navmesh.path(at(f32::NAN, 0.0), at(50.0, 0.0)),
            Err(PathFailure::NotFinite)
        );
        assert_eq!(
            navmesh.path(at(0.0, 0.0), at(f32::INFINITY, 0.0)),
            Err(PathFailure::NotFinite)
        );
        assert_eq!(
            FlockNavMesh::default().path(at(0.0, 0.0), at(1.0, 0.0)),
            Err(PathFailure::NoMesh)
        );
        for bad in [
            at(f32::NAN, 0.0),
            at(0.0, f32::INFINITY),
            at(f32::MAX, -f32::MAX),
        ] {
            assert!(!navmesh.contains(bad), "{bad}");
        }
        assert_eq!(navmesh.nearest_point(at(f32::NAN, 0.0)), None);
        assert!(
            FlockNavMesh::default()
                .nearest_point(at(0.0, 0.0))
                .is_none()
        );
        // Far out: the nearest walkable point is on the outline, shrunk by the radius.
        let far = to_plan(navmesh.nearest_point(at(1.0e6, 0.0)).unwrap());
        assert!((far.x - 98.0).abs() < 0.1, "{far}");
    }

    #[test]
    fn bad_outlines_and_settings_are_refused_with_the_reason() {
        let refused = |outline: &[Vec2]| build_mesh(outline, &[], 1.0).unwrap_err();
        assert_eq!(refused(&[]), NavMeshError::OutlineCorners(0));
        assert_eq!(
            refused(&[Vec2::ZERO, Vec2::X, Vec2::X, Vec2::ZERO]),
            NavMeshError::OutlineCorners(2)
        );
        assert!(matches!(
            refused(&[Vec2::ZERO, Vec2::X, Vec2::NAN]),
            NavMeshError::OutlineOutOfRange(_)
        ));
        assert!(matches!(
            refused(&[Vec2::ZERO, Vec2::new(1.0e30, 0.0), Vec2::Y]),
            NavMeshError::OutlineOutOfRange(_)
        ));
        // A bow tie.
        let bow_tie = [
            Vec2::ZERO,
            Vec2::new(10.0, 10.0),
            Vec2::new(10.0, 0.0),
            Vec2::new(0.0, 10.0),
        ];
        assert_eq!(refused(&bow_tie), NavMeshError::OutlineCrosses);
        // On one line: no area at all.
        let line = [Vec2::ZERO, Vec2::new(5.0, 0.0), Vec2::new(10.0, 0.0)];
        assert!(build_mesh(&line, &[], 0.0).is_err());
        // Thinner than the agent.
        let thin = [
            Vec2::ZERO,
            Vec2::new(100.0, 0.0),
            Vec2::new(100.0, 1.0),
            Vec2::new(0.0, 1.0),
        ];
        assert_eq!(
            build_mesh(&thin, &[], 2.0).unwrap_err(),
            NavMeshError::NoWalkableArea
        );
        // Covered by an obstacle.
        assert_eq!(
            build_mesh(&square(10.0), &[square(20.0)], 0.5).unwrap_err(),
            NavMeshError::NoWalkableArea
        );
        for (settings, name) in [
            (
                NavMeshSettings {
                    agent_radius: f32::NAN,
                    ..default()
                },
                "agent_radius",
            ),
            (
                NavMeshSettings {
                    agent_radius: -1.0,
                    ..default()
                },
                "agent_radius",
            ),
            (
                NavMeshSettings {
                    agent_radius: 1.0e30,
                    ..default()
                },
                "agent_radius",
            ),
            (
                NavMeshSettings {
                    replan_distance: 0.0,
                    ..default()
                },
                "replan_distance",
            ),
            (
                NavMeshSettings {
                    stuck_after: f32::INFINITY,
                    ..default()
                },
                "stuck_after",
            ),
        ] {
            assert!(
                matches!(settings.validate(), Err(NavMeshError::Setting(n, _)) if n == name),
                "{settings:?}"
            );
        }
        assert_eq!(NavMeshSettings::default().validate(), Ok(()));
    }

    #[test]
    fn broken_footprints_are_left_out_and_counted() {
        let footprints = vec![
            wall_with_a_door()[0].clone(),
            vec![Vec2::NAN, Vec2::X, Vec2::Y],
            vec![Vec2::ZERO, Vec2::X],
            vec![Vec2::splat(1.0e20), Vec2::X, Vec2::Y],
        ];
        let (mesh, left_out) = build_mesh(&square(100.0), &footprints, 1.0).unwrap();
        assert_eq!(left_out, 3);
        assert!(!mesh.layers[0].polygons.is_empty());
    }

    #[test]
    fn overlapping_obstacles_and_an_outline_either_way_round() {
        let mut clockwise = square(100.0);
        clockwise.reverse();
        let overlapping = vec![
            square(20.0),
            square(20.0)
                .iter()
                .map(|p| *p + Vec2::splat(10.0))
                .collect(),
        ];
        let navmesh = navmesh(&clockwise, &overlapping, 1.0);
        assert!(!navmesh.contains(at(0.0, 0.0)));
        assert!(!navmesh.contains(at(25.0, 25.0)));
        assert!(navmesh.contains(at(-50.0, 60.0)));
        let path = navmesh.path(at(-50.0, -50.0), at(50.0, 50.0)).unwrap();
        assert!(path.points.len() >= 3, "around the pair: {:?}", path.points);
        assert_eq!(counter_clockwise(clockwise), square(100.0));
    }
}
