//! The Unity tank group (its `TankGroup` and `TankBehaviour`): three groups of eight tanks. Each
//! tank heads for its group's target, keeps apart from the tanks near it and moves with them (the
//! document's keep, target and move weights), eases to a stop near the target, and drives as the
//! document's `Drive` does: it turns at most 20 degrees a second (at the full rate when the target
//! is behind it), slows while turning, and reverses when the way it wants to go is well behind it.
//! A click sets the selected group's target; Tab selects the next group. Yellow lines join each
//! tank to the mates it is keeping its distance from, as the document's `Debug.DrawLine` does.
//!
//! One scale throughout: 10 pixels per Unity unit (`support::scenes::TANK_PIXELS_PER_UNIT`), so the
//! document's speed of 5 is 50 px/s and its keep distance of 10 is 100 px.

mod support;

use bevy::prelude::*;
use bevy_flock::FlockBuffers;
use bevy_flock::prelude::*;
use support::Selection;
use support::scenes::{TANK_PIXELS_PER_UNIT, tank_group, tank_group_params};

const GROUP_COLOURS: [Color; 3] = [
    Color::srgb(0.95, 0.55, 0.35),
    Color::srgb(0.45, 0.8, 0.95),
    Color::srgb(0.65, 0.9, 0.45),
];

fn main() {
    let mut app = support::flock_app("tank_group", tank_group(), 0);
    app.add_plugins(support::ClickToSend::<BoidGroup>::default())
        .add_systems(Startup, setup)
        .add_systems(Update, (draw_targets, draw_mate_lines, update_help));
    // The panel's Reset clears the scene and spawns plain boids.
    let reset = SpawnBoids::new(24, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
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
    commands.insert_resource(Selection::new(groups));
}

/// A click sends the selected group: it becomes the group's target.
impl support::ClickTarget for BoidGroup {
    fn send_to(&mut self, point: Vec2) {
        self.target = point;
    }
}

/// Each group's target: a cross and its stop circle, brighter for the selected group.
fn draw_targets(selection: Res<Selection>, groups: Query<&BoidGroup>, mut gizmos: Gizmos) {
    let alphas = (0.9, 0.35);
    for (group, colour) in
        support::tanks::groups_in_colour(&selection, &groups, GROUP_COLOURS, alphas)
    {
        let at = group.target;
        gizmos.line_2d(at - Vec2::X * 12.0, at + Vec2::X * 12.0, colour);
        gizmos.line_2d(at - Vec2::Y * 12.0, at + Vec2::Y * 12.0, colour);
        gizmos.circle_2d(at, group.params.stop_distance, colour);
    }
}

/// Lines from each tank to the mates within its keep distance.
fn draw_mate_lines(
    buffers: Res<FlockBuffers>,
    members: Query<&GroupMember>,
    mut candidates: Local<Vec<u32>>,
    mut gizmos: Gizmos,
) {
    let keep_distance = tank_group_params().keep_distance;
    let colour = Color::srgba(1.0, 0.9, 0.2, 0.5);
    support::tanks::for_each_mate_pair(
        &buffers,
        &members,
        keep_distance,
        &mut candidates,
        |at, mate_at| gizmos.line_2d(at, mate_at, colour),
    );
}

fn update_help(selection: Res<Selection>, mut help: ResMut<support::HelpLine>) {
    let text = format!(
        "click: move group {} to the cursor   Tab: select the next group   (3 groups of 8 tanks)",
        selection.current + 1
    );
    help.set_if_neq(support::HelpLine(text));
}
