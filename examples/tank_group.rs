//! Seed 002, second part: groups of tanks. Each tank turns at most 60 degrees a second and
//! heads for its group's target while keeping its distance from mates and moving with them
//! (the seed's keep, target and move weights), and brakes to a stop near the target. A click
//! sets the selected group's target; Tab selects the next group. Yellow lines join each tank to
//! the mates it is keeping its distance from, as the seed's `Debug.DrawLine` does.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::NeighbourIndex;
use bevy_flock::prelude::*;
use bevy_flock::{FlockBuffers, UiWantsInput};

/// Seed 002's group numbers (keep distance 10, close distance 20 at a tank's scale of about
/// 2 units), in pixels for tanks 28 pixels long.
const GROUP: GroupParams = GroupParams {
    keep_distance: 70.0,
    keep_weight: 1.0,
    target_close_distance: 140.0,
    target_weight: 1.25,
    move_weight: 0.8,
    stop_distance: 60.0,
};

const GROUP_COLOURS: [Color; 3] = [
    Color::srgb(0.95, 0.55, 0.35),
    Color::srgb(0.45, 0.8, 0.95),
    Color::srgb(0.65, 0.9, 0.45),
];

fn main() {
    let config = FlockConfig {
        // Tanks don't flock: the group behaviour moves them.
        weights: RuleWeights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
        },
        separation_radius: GROUP.keep_distance,
        alignment_radius: GROUP.keep_distance,
        cohesion_radius: GROUP.keep_distance,
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let mut app = support::example_app("tank_group");
    app.insert_resource(FlockSettings {
        config,
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 100,
    })
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
    let sprite = assets.load("sprites/arrow.png");
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
                params: GROUP,
            })
            .id();
        groups.push(group);
        for i in 0..8 {
            let offset = Vec2::new((i % 4) as f32, (i / 4) as f32) * 40.0;
            commands.spawn((
                Boid,
                GroupMember::new(group),
                MotionLimits {
                    max_speed: 90.0,
                    max_force: 5_000.0,
                    mass: 1.0,
                },
                // Seed 002 turns at 20 degrees a second; 60 keeps a U-turn under 3 seconds.
                TurnRate {
                    max_turn_rate: 60f32.to_radians(),
                    max_acceleration: 120.0,
                },
                Transform::from_translation((start + offset).extend(1.0)),
                Velocity(Vec2::X * 1.0),
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
    let colour = Color::srgba(1.0, 0.9, 0.2, 0.5);
    for (boid, &entity) in buffers.entities().iter().enumerate() {
        let Ok(member) = members.get(entity) else {
            continue;
        };
        let at = buffers.positions()[boid];
        buffers
            .index()
            .candidates(at, GROUP.keep_distance, &mut candidates);
        for &other in candidates.iter() {
            let other = other as usize;
            let mate_at = buffers.positions()[other];
            let is_mate = other != boid
                && at.distance(mate_at) < GROUP.keep_distance
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
