//! The Unity tank group (its `TankGroup` and `TankBehaviour`): three groups of eight tanks. Each
//! tank heads for its group's target, keeps apart from the tanks near it and moves with them (the
//! document's keep, target and move weights), eases to a stop near the target, and drives as the
//! document's `Drive` does: it turns at most 20 degrees a second (at the full rate when the target
//! is behind it), slows while turning, and reverses when the way it wants to go is well behind it.
//! A click sets the selected group's target; Tab selects the next group. Yellow lines join each
//! tank to the mates it is keeping its distance from, as the document's `Debug.DrawLine` does.
//!
//! One scale throughout: 10 pixels per Unity unit (`presets::TANK_PIXELS_PER_UNIT`), so the
//! document's speed of 5 is 50 px/s and its keep distance of 10 is 100 px.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::NeighbourIndex;
use bevy_flock::prelude::*;
use bevy_flock::presets::{TANK_PIXELS_PER_UNIT, tank_group, tank_group_params};
use bevy_flock::{FlockBuffers, UiWantsInput};

const GROUP_COLOURS: [Color; 3] = [
    Color::srgb(0.95, 0.55, 0.35),
    Color::srgb(0.45, 0.8, 0.95),
    Color::srgb(0.65, 0.9, 0.45),
];

fn main() {
    let mut app = support::example_app("tank_group");
    app.insert_resource(tank_group())
        .insert_resource(ClickToSpawn {
            enabled: false,
            ..default()
        })
        .add_plugins(BoidsPlugin::default())
        .add_plugins(support::HelpLinePlugin(""))
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                select_group,
                set_target,
                draw_targets,
                draw_mate_lines,
                update_help,
            ),
        );
    // The panel's Reset clears the scene and spawns plain boids.
    let reset = SpawnBoids::new(24, Placement::RandomInBounds);
    support::add_panel(&mut app, false, reset);
    app.run();
}

/// The group a click sends.
#[derive(Resource)]
struct Selected {
    groups: Vec<Entity>,
    current: usize,
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    commands.spawn(Camera2d);
    let sprite = assets.load(BoidSprite::Arrow.asset_path());
    let starts = [
        Vec2::new(-450.0, -200.0),
        Vec2::new(-450.0, 200.0),
        Vec2::new(400.0, -220.0),
    ];
    let targets = [
        Vec2::new(350.0, 150.0),
        Vec2::new(300.0, -150.0),
        Vec2::new(-300.0, 0.0),
    ];
    let mut groups = Vec::new();
    for ((start, target), colour) in starts.into_iter().zip(targets).zip(GROUP_COLOURS) {
        let group = commands
            .spawn(BoidGroup {
                target,
                params: tank_group_params(),
            })
            .id();
        groups.push(group);
        // The document's tank: 5 units a second, 20 degrees a second.
        let unity = DriveParams::default();
        let drive = DriveParams {
            move_speed: unity.move_speed * TANK_PIXELS_PER_UNIT,
            ..unity
        };
        // Facing across the screen towards their target's side, not at the target itself.
        let facing = if target.x > start.x {
            Vec2::X
        } else {
            -Vec2::X
        };
        for i in 0..8 {
            let offset = Vec2::new((i % 4) as f32, (i / 4) as f32) * 40.0;
            commands.spawn((
                Boid,
                GroupMember::new(group, drive).facing(facing),
                // The group drives the tank; reversing reaches up to 8 times the speed.
                MotionLimits {
                    max_speed: 8.0 * drive.move_speed,
                    max_force: 1.0,
                    mass: 1.0,
                },
                Transform::from_translation((start + offset).extend(1.0))
                    .with_rotation(Quat::from_rotation_arc_2d(Vec2::X, facing)),
                Sprite {
                    image: sprite.clone(),
                    color: colour,
                    custom_size: Some(Vec2::splat(28.0)),
                    ..default()
                },
            ));
        }
    }
    commands.insert_resource(Selected { groups, current: 0 });
}

fn select_group(
    keys: Res<ButtonInput<KeyCode>>,
    ui: Res<UiWantsInput>,
    mut selected: ResMut<Selected>,
) {
    if keys.just_pressed(KeyCode::Tab) && !ui.keyboard {
        selected.current = (selected.current + 1) % selected.groups.len();
    }
}

fn set_target(
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorWorldPosition>,
    ui: Res<UiWantsInput>,
    selected: Res<Selected>,
    mut groups: Query<&mut BoidGroup>,
) {
    if buttons.just_pressed(MouseButton::Left)
        && !ui.pointer
        && let Some(point) = cursor.0
        && let Ok(mut group) = groups.get_mut(selected.groups[selected.current])
    {
        group.target = point;
    }
}

/// Each group's target: a cross and its stop circle, brighter for the selected group.
fn draw_targets(selected: Res<Selected>, groups: Query<&BoidGroup>, mut gizmos: Gizmos) {
    for (i, (&entity, colour)) in selected.groups.iter().zip(GROUP_COLOURS).enumerate() {
        let Ok(group) = groups.get(entity) else {
            continue;
        };
        let alpha = if i == selected.current { 0.9 } else { 0.35 };
        let colour = colour.with_alpha(alpha);
        let at = group.target;
        gizmos.line_2d(at - Vec2::X * 12.0, at + Vec2::X * 12.0, colour);
        gizmos.line_2d(at - Vec2::Y * 12.0, at + Vec2::Y * 12.0, colour);
        gizmos.circle_2d(at, group.params.stop_distance, colour);
    }
}

/// Lines from each tank to the mates within its keep distance, found through the plugin's
/// neighbour index as the group behaviour finds them.
fn draw_mate_lines(
    buffers: Res<FlockBuffers>,
    members: Query<&GroupMember>,
    mut candidates: Local<Vec<u32>>,
    mut gizmos: Gizmos,
) {
    let keep_distance = tank_group_params().keep_distance;
    let colour = Color::srgba(1.0, 0.9, 0.2, 0.5);
    for (boid, &entity) in buffers.entities().iter().enumerate() {
        let Ok(member) = members.get(entity) else {
            continue;
        };
        let at = buffers.positions()[boid];
        buffers
            .index()
            .candidates(at, keep_distance, &mut candidates);
        for &other in candidates.iter() {
            let other = other as usize;
            let mate_at = buffers.positions()[other];
            let is_mate = other != boid
                && at.distance(mate_at) < keep_distance
                && members
                    .get(buffers.entities()[other])
                    .is_ok_and(|mate| mate.group == member.group);
            if is_mate && other > boid {
                gizmos.line_2d(at, mate_at, colour);
            }
        }
    }
}

fn update_help(selected: Res<Selected>, mut help: ResMut<support::HelpLine>) {
    let text = format!(
        "click: move group {} to the cursor   Tab: select the next group   (3 groups of 8 tanks)",
        selected.current + 1
    );
    if help.0 != text {
        help.0 = text;
    }
}
