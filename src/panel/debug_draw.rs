//! Debug drawing with gizmos: the bounds, the index's grid cells, velocity and force arrows, and
//! for one selected boid its rule radii, view cone and lines to its neighbours.
//!
//! Drawing only reads the flock, so turning it on or off never changes the simulation. Lines and
//! arrows are drawn with the 3D gizmo calls in both dimensions (at z = 0 in 2D); the shapes
//! that differ (rectangle or box, circle or sphere, a flat or a round view cone, the grid's
//! cells) are the small per-dimension functions at the end.

use bevy::color::palettes::css;
use bevy::prelude::*;
use flock_core::{AnyIndex, NeighbourIndex, Vector};

use crate::components::{Boid, Velocity};
use crate::dimension::{position_of, translation_of};
use crate::render::pointer::{CursorWorldPosition, UiWantsInput};
use crate::settings::ActiveFlockSettings;
use crate::steer::FlockBuffers;

/// What the debug drawing shows; each part is toggled on its own (the panel has a checkbox
/// for each).
#[derive(Resource, Reflect, Debug, Clone, Copy, PartialEq)]
#[reflect(Resource, Debug, Default)]
pub struct FlockDebugDraw {
    /// The flock's bounds.
    pub bounds: bool,
    /// The grid index's cells (only when the index is the grid).
    pub grid: bool,
    /// The selected boid: its rule radii, view cone and lines to its neighbours. Hovering the
    /// cursor over a boid selects it.
    pub selected: bool,
    /// Each boid's velocity.
    pub velocities: bool,
    /// Each boid's flocking force of the last step.
    pub forces: bool,
    /// The most boids that get arrows, so a huge flock stays responsive.
    pub max_arrows: usize,
}

impl Default for FlockDebugDraw {
    fn default() -> Self {
        Self {
            bounds: false,
            grid: false,
            selected: false,
            velocities: false,
            forces: false,
            max_arrows: 2_000,
        }
    }
}

/// The boid the debug drawing describes, if any.
#[derive(Resource, Reflect, Debug, Clone, Copy, Default, PartialEq)]
#[reflect(Resource, Debug, Default)]
pub struct SelectedBoid(pub Option<Entity>);

/// Debug drawing on its own, without the panel: add it with [`FlockDebugDraw`] set to what you
/// want to see. Needs Bevy's gizmos (`GizmoPlugin`, part of `DefaultPlugins`).
#[derive(Debug, Default)]
pub struct FlockDebugDrawPlugin;

impl Plugin for FlockDebugDrawPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<FlockDebugDraw>()
            .register_type::<SelectedBoid>()
            .init_resource::<FlockDebugDraw>()
            .init_resource::<SelectedBoid>()
            .add_systems(
                Update,
                (
                    select_hovered_boid.run_if(|draw: Res<FlockDebugDraw>| draw.selected),
                    draw_bounds.run_if(|draw: Res<FlockDebugDraw>| draw.bounds),
                    draw_grid.run_if(|draw: Res<FlockDebugDraw>| draw.grid),
                    draw_arrows.run_if(|draw: Res<FlockDebugDraw>| draw.velocities || draw.forces),
                    draw_selected.run_if(|draw: Res<FlockDebugDraw>| draw.selected),
                )
                    .chain(),
            );
    }
}

const SEPARATION: Srgba = css::TOMATO;
const ALIGNMENT: Srgba = css::LIGHT_GREEN;
const COHESION: Srgba = css::DEEP_SKY_BLUE;

/// How far around the cursor a boid is picked, at least (world units).
const PICK_RADIUS: f32 = 24.0;

/// Selects the boid nearest the cursor when one is close enough; the last one stays selected
/// while the cursor is elsewhere or over a UI.
fn select_hovered_boid(
    cursor: Res<CursorWorldPosition>,
    ui: Res<UiWantsInput>,
    settings: Res<ActiveFlockSettings>,
    boids: Query<(Entity, &Transform), With<Boid>>,
    mut selected: ResMut<SelectedBoid>,
) {
    if let Some(entity) = selected.0
        && !boids.contains(entity)
    {
        selected.0 = None;
    }
    let Some(cursor) = cursor.0.filter(|_| !ui.pointer) else {
        return;
    };
    let reach = PICK_RADIUS.max(settings.0.config.separation_radius);
    let nearest = boids
        .iter()
        .map(|(entity, transform)| {
            let distance = position_of(transform.translation).distance_squared(cursor);
            (entity, distance)
        })
        .filter(|(_, distance)| *distance <= reach * reach)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((entity, _)) = nearest
        && selected.0 != Some(entity)
    {
        selected.0 = Some(entity);
    }
}

fn draw_bounds(mut gizmos: Gizmos, settings: Res<ActiveFlockSettings>) {
    let bounds = settings.0.config.bounds;
    draw_box(&mut gizmos, bounds.center(), bounds.size(), css::GOLD);
}

/// The grid's cell lines, when the index is the grid and the cells are not too many to see.
fn draw_grid(mut gizmos: Gizmos, buffers: Res<FlockBuffers>) {
    let AnyIndex::Grid(grid) = buffers.index() else {
        return;
    };
    draw_cells(&mut gizmos, grid, css::SLATE_GRAY.with_alpha(0.5));
}

/// A line between two positions of the flock.
fn line(gizmos: &mut Gizmos, from: Vector, to: Vector, color: impl Into<Color>) {
    gizmos.line(translation_of(from), translation_of(to), color);
}

/// Velocity arrows (full speed is the largest rule radius long) and force arrows (`max_force`
/// is half that: weighted forces add up to several times `max_force`).
fn draw_arrows(
    mut gizmos: Gizmos,
    draw: Res<FlockDebugDraw>,
    settings: Res<ActiveFlockSettings>,
    buffers: Res<FlockBuffers>,
    boids: Query<(&Transform, &Velocity), With<Boid>>,
) {
    let config = &settings.0.config;
    let length = config.max_radius().max(f32::EPSILON);
    if draw.velocities {
        for (transform, velocity) in boids.iter().take(draw.max_arrows) {
            let start = position_of(transform.translation);
            let end = start + velocity.0 / config.max_speed * length;
            let (start, end) = (translation_of(start), translation_of(end));
            gizmos.arrow(start, end, css::WHITE.with_alpha(0.7));
        }
    }
    if draw.forces {
        let forces = buffers.entities().iter().zip(buffers.forces());
        for (&entity, &force) in forces.take(draw.max_arrows) {
            if let Ok((transform, _)) = boids.get(entity) {
                let start = position_of(transform.translation);
                let end = start + force / config.max_force * length * 0.5;
                let (start, end) = (translation_of(start), translation_of(end));
                gizmos.arrow(start, end, css::ORANGE);
            }
        }
    }
}

/// The selected boid's radii, view cone and lines to the neighbours it sees.
fn draw_selected(
    mut gizmos: Gizmos,
    selected: Res<SelectedBoid>,
    settings: Res<ActiveFlockSettings>,
    buffers: Res<FlockBuffers>,
    boids: Query<(&Transform, &Velocity), With<Boid>>,
) {
    let Some((transform, velocity)) = selected.0.and_then(|entity| boids.get(entity).ok()) else {
        return;
    };
    let config = &settings.0.config;
    let here = position_of(transform.translation);
    let heading = velocity.0.try_normalize().unwrap_or(Vector::X);
    let rules = [
        (config.separation_radius, SEPARATION),
        (config.alignment_radius, ALIGNMENT),
        (config.cohesion_radius, COHESION),
    ];
    for (radius, color) in rules {
        draw_round(&mut gizmos, here, radius, color);
    }
    if config.view_angle_degrees < 360.0 {
        let half_view = (config.view_angle_degrees / 2.0).to_radians();
        draw_view_cone(&mut gizmos, here, heading, half_view, config.max_radius());
    }

    let space = flock_core::Space::of(config);
    let mut candidates = Vec::new();
    buffers
        .index()
        .candidates(here, config.max_radius(), &mut candidates);
    let half_view = (config.view_angle_degrees / 2.0).to_radians();
    for candidate in candidates {
        let Some(&entity) = buffers.entities().get(candidate as usize) else {
            continue;
        };
        let Ok((other, _)) = boids.get(entity) else {
            continue;
        };
        // The shortest way to the neighbour, across the seam when the world wraps.
        let offset = space.delta(here, position_of(other.translation));
        let distance = offset.length();
        let seen = config.view_angle_degrees >= 360.0 || angle(heading, offset) <= half_view;
        if Some(entity) == selected.0 || distance > config.max_radius() || !seen {
            continue;
        }
        let color = if distance <= config.separation_radius {
            SEPARATION
        } else {
            css::WHITE
        };
        line(&mut gizmos, here, here + offset, color.with_alpha(0.8));
    }
}

/// The angle between two directions, radians.
fn angle(a: Vector, b: Vector) -> f32 {
    #[cfg(not(flock_3d))]
    return a.angle_to(b).abs();
    #[cfg(flock_3d)]
    return a.angle_between(b);
}

/// The bounds: a rectangle in 2D, a box in 3D.
fn draw_box(gizmos: &mut Gizmos, centre: Vector, size: Vector, color: Srgba) {
    #[cfg(not(flock_3d))]
    gizmos.rect_2d(centre, size, color);
    #[cfg(flock_3d)]
    gizmos.cube(Transform::from_translation(centre).with_scale(size), color);
}

/// A rule's radius around a boid: a circle in 2D, a sphere in 3D.
fn draw_round(gizmos: &mut Gizmos, centre: Vector, radius: f32, color: Srgba) {
    #[cfg(not(flock_3d))]
    gizmos.circle_2d(centre, radius, color).resolution(48);
    #[cfg(flock_3d)]
    gizmos
        .sphere(Isometry3d::from_translation(centre), radius, color)
        .resolution(32);
}

/// The grid's cells when there are not too many to see: every cell line in 2D; in 3D the
/// cells' footprint on the grid's floor (its lowest y), as the whole lattice would hide the
/// flock.
fn draw_cells(gizmos: &mut Gizmos, grid: &flock_core::Grid, color: Srgba) {
    #[cfg(not(flock_3d))]
    let (across, along) = grid.dimensions();
    #[cfg(flock_3d)]
    let (across, _, along) = grid.dimensions();
    if across == 0 || along == 0 || across > 512 || along > 512 {
        return;
    }
    // In 2D columns (x) and rows (y); in 3D columns (x) and layers (z).
    let axis = if cfg!(flock_3d) { 2 } else { 1 };
    let (origin, cell) = (grid.origin(), grid.cell_size());
    let mut end = origin;
    end.x += cell.x * across as f32;
    end[axis] += cell[axis] * along as f32;
    for column in 0..=across {
        let x = origin.x + cell.x * column as f32;
        let (mut from, mut to) = (origin, end);
        (from.x, to.x) = (x, x);
        line(gizmos, from, to, color);
    }
    for row in 0..=along {
        let y = origin[axis] + cell[axis] * row as f32;
        let (mut from, mut to) = (origin, end);
        (from[axis], to[axis]) = (y, y);
        line(gizmos, from, to, color);
    }
}

/// The field of view's colour.
const VIEW_CONE: Srgba = Srgba::new(1.0, 1.0, 0.0, 0.8);

/// The field of view, `half_view` radians either side of the heading, out to `radius`: its two
/// edges and the arc between them.
#[cfg(not(flock_3d))]
fn draw_view_cone(gizmos: &mut Gizmos, here: Vec2, heading: Vec2, half_view: f32, radius: f32) {
    let color = VIEW_CONE;
    for side in [-half_view, half_view] {
        let edge = Vec2::from_angle(side).rotate(heading) * radius;
        gizmos.line_2d(here, here + edge, color);
    }
    // An arc starts at the isometry's +y axis and turns counter-clockwise: start it at the
    // cone's clockwise edge.
    let rotation = Rot2::radians(heading.to_angle() - half_view - std::f32::consts::FRAC_PI_2);
    gizmos.arc_2d(
        Isometry2d::new(here, rotation),
        half_view * 2.0,
        radius,
        color,
    );
}

/// The field of view, a cone of half-angle `half_view` round the heading out to `radius`: a ring
/// where it ends and eight lines along its side.
#[cfg(flock_3d)]
fn draw_view_cone(gizmos: &mut Gizmos, here: Vec3, heading: Vec3, half_view: f32, radius: f32) {
    let color = VIEW_CONE;
    let side = heading.any_orthonormal_vector();
    let ring_centre = here + heading * radius * half_view.cos();
    let ring_radius = radius * half_view.sin();
    for step in 0..8 {
        let around = Quat::from_axis_angle(heading, step as f32 * std::f32::consts::FRAC_PI_4);
        gizmos.line(here, ring_centre + around * side * ring_radius, color);
    }
    let facing = Quat::from_rotation_arc(Vec3::Z, heading);
    gizmos.circle(Isometry3d::new(ring_centre, facing), ring_radius, color);
}
