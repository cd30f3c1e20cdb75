//! Debug drawing with gizmos: the bounds, the index's grid cells, velocity and force arrows, and
//! for one selected boid its rule radii, view cone and lines to its neighbours.
//!
//! Drawing only reads the flock, so turning it on or off never changes the simulation.

use bevy::color::palettes::css;
use bevy::prelude::*;
use flock_core::{AnyIndex, FlockConfig, NeighbourIndex};

use crate::components::{Boid, Velocity};
use crate::pointer::{CursorWorldPosition, UiWantsInput};
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
            let distance = transform.translation.truncate().distance_squared(cursor);
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
    gizmos.rect_2d(bounds.center(), bounds.size(), css::GOLD);
}

/// The grid's cell lines, when the index is the grid and the cells are not too many to see.
fn draw_grid(mut gizmos: Gizmos, buffers: Res<FlockBuffers>) {
    let AnyIndex::Grid(grid) = buffers.index() else {
        return;
    };
    let (columns, rows) = grid.dimensions();
    if columns == 0 || rows == 0 || columns > 512 || rows > 512 {
        return;
    }
    let origin = grid.origin();
    let cell = grid.cell_size();
    let end = origin + cell * Vec2::new(columns as f32, rows as f32);
    let color = css::SLATE_GRAY.with_alpha(0.5);
    for column in 0..=columns {
        let x = origin.x + cell.x * column as f32;
        gizmos.line_2d(Vec2::new(x, origin.y), Vec2::new(x, end.y), color);
    }
    for row in 0..=rows {
        let y = origin.y + cell.y * row as f32;
        gizmos.line_2d(Vec2::new(origin.x, y), Vec2::new(end.x, y), color);
    }
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
            let start = transform.translation.truncate();
            let end = start + velocity.0 / config.max_speed * length;
            gizmos.arrow_2d(start, end, css::WHITE.with_alpha(0.7));
        }
    }
    if draw.forces {
        let forces = buffers.entities().iter().zip(buffers.forces());
        for (&entity, &force) in forces.take(draw.max_arrows) {
            if let Ok((transform, _)) = boids.get(entity) {
                let start = transform.translation.truncate();
                let end = start + force / config.max_force * length * 0.5;
                gizmos.arrow_2d(start, end, css::ORANGE);
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
    let here = transform.translation.truncate();
    let heading = velocity.0.try_normalize().unwrap_or(Vec2::X);
    let rules = [
        (config.separation_radius, SEPARATION),
        (config.alignment_radius, ALIGNMENT),
        (config.cohesion_radius, COHESION),
    ];
    for (radius, color) in rules {
        gizmos.circle_2d(here, radius, color).resolution(48);
    }
    draw_view_cone(&mut gizmos, config, here, heading);

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
        let offset = space.delta(here, other.translation.truncate());
        let distance = offset.length();
        let seen =
            config.view_angle_degrees >= 360.0 || heading.angle_to(offset).abs() <= half_view;
        if Some(entity) == selected.0 || distance > config.max_radius() || !seen {
            continue;
        }
        let color = if distance <= config.separation_radius {
            SEPARATION
        } else {
            css::WHITE
        };
        gizmos.line_2d(here, here + offset, color.with_alpha(0.8));
    }
}

/// The edges of the field of view, out to the largest radius (nothing when it is 360 degrees).
fn draw_view_cone(gizmos: &mut Gizmos, config: &FlockConfig, here: Vec2, heading: Vec2) {
    if config.view_angle_degrees >= 360.0 {
        return;
    }
    let half_view = (config.view_angle_degrees / 2.0).to_radians();
    let radius = config.max_radius();
    let color = css::YELLOW.with_alpha(0.8);
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
