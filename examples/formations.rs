//! Formations: five squads, one in each shape (line, column, wedge, ring, grid), each laid
//! out behind (the ring: around) a leader. Members are given slots without crossing each
//! other's paths, arrive at them and move with the leader; when the leader turns the slots
//! turn and the squad reforms. A click sends the selected squad there, Tab selects the next,
//! D takes a member out of it (the squad closes up). The rings are the slots.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::steering::{Frame, formation_slots};
use bevy_flock::prelude::*;
use support::Selection;

/// Leaders: unhurried, and turning at most a radian a second so their squads can follow.
const LEADER: MotionLimits = support::limits(70.0, 600.0);
const LEADER_TURN: TurnRate = TurnRate {
    max_turn_rate: 1.0,
    max_acceleration: 120.0,
};
/// Members: faster than their leader, to catch up with their slots.
const MEMBER: MotionLimits = support::limits(150.0, 1500.0);

const SPACING: f32 = 32.0;

/// Each squad's shape, colour, size, start and first destination.
fn squads() -> [(FormationShape, Color, usize, Vec2, Vec2); 5] {
    [
        (
            FormationShape::Line,
            Color::srgb(0.95, 0.55, 0.35),
            7,
            Vec2::new(-480.0, 170.0),
            Vec2::new(350.0, 200.0),
        ),
        (
            FormationShape::Column,
            Color::srgb(0.45, 0.8, 0.95),
            6,
            Vec2::new(-520.0, -40.0),
            Vec2::new(-100.0, -250.0),
        ),
        (
            FormationShape::Wedge,
            Color::srgb(0.65, 0.9, 0.45),
            7,
            Vec2::new(450.0, -250.0),
            Vec2::new(-300.0, 20.0),
        ),
        (
            FormationShape::Ring,
            Color::srgb(0.9, 0.5, 0.9),
            8,
            Vec2::new(0.0, 80.0),
            Vec2::new(420.0, -60.0),
        ),
        (
            FormationShape::Grid { columns: 3 },
            Color::srgb(0.95, 0.85, 0.4),
            9,
            Vec2::new(-250.0, -270.0),
            Vec2::new(250.0, 40.0),
        ),
    ]
}

fn main() {
    // Only a short separation among the boids: the formations do the rest.
    let mut app = support::flock_app("formations", support::behaviours_only(14.0), 5);
    app.add_plugins(support::ClickToSend::<Arrive>::default())
        .add_systems(Startup, setup)
        .add_systems(Update, (lose_member, draw_slots, update_help));
    support::run_with_panel_on_request(app, SpawnBoids::new(30, Placement::RandomInBounds));
}

fn setup(mut commands: Commands, assets: Res<AssetServer>) {
    commands.spawn(Camera2d);
    let image: Handle<Image> = assets.load(BoidSprite::Arrow.asset_path());
    let sprite = |colour: Color, size: f32| Sprite {
        image: image.clone(),
        color: colour,
        custom_size: Some(Vec2::splat(size)),
        ..default()
    };
    let mut leaders = Vec::new();
    for (shape, colour, count, start, destination) in squads() {
        // The ring goes round its leader; the other shapes start one spacing behind it.
        let offset = if shape == FormationShape::Ring {
            Vec2::ZERO
        } else {
            level(-SPACING, 0.0)
        };
        let leader = commands
            .spawn((
                Boid,
                LEADER,
                LEADER_TURN,
                Transform::from_translation(start.extend(2.0)),
                Arrive {
                    target: Target::Point(destination),
                    slow_radius: 120.0,
                    weight: 1.0,
                    speed: None,
                },
                Formation {
                    shape,
                    spacing: SPACING,
                    offset,
                },
                // The leader does not keep apart from its own squad.
                SteeringWeights::Custom(RuleWeights::NONE),
                sprite(colour, 34.0),
            ))
            .id();
        leaders.push(leader);
        // Members start scattered round the leader.
        for i in 0..count {
            let angle = i as f32 * 2.4;
            let at = start + Vec2::from_angle(angle) * (60.0 + 12.0 * i as f32);
            commands.spawn((
                Boid,
                MEMBER,
                Transform::from_translation(at.extend(1.0)),
                FormationMember {
                    slow_radius: 60.0,
                    ..FormationMember::new(leader)
                },
                sprite(colour.with_alpha(0.85), 20.0),
            ));
        }
    }
    // The squads' leaders: a click sends the selected one.
    commands.insert_resource(Selection::new(leaders));
}

/// A click sends the selected squad: its leader arrives there.
impl support::ClickTarget for Arrive {
    fn send_to(&mut self, point: Vec2) {
        self.target = Target::Point(point);
    }
}

/// D: the selected squad loses a member; the others close up.
fn lose_member(
    mut commands: Commands,
    shortcuts: support::Shortcuts,
    selection: Res<Selection>,
    members: Query<(Entity, &FormationMember)>,
) {
    if !shortcuts.pressed(KeyCode::KeyD) {
        return;
    }
    let leader = selection.selected();
    if let Some((member, _)) = members.iter().find(|(_, m)| m.formation == leader) {
        commands.entity(member).despawn();
    }
}

/// A ring on every slot, brighter for the selected squad, and a cross on its destination.
fn draw_slots(
    selection: Res<Selection>,
    leaders: Query<(Entity, &Transform, &Velocity, &Formation, &Arrive, &Sprite)>,
    members: Query<&FormationMember>,
    mut gizmos: Gizmos,
) {
    for (leader, transform, velocity, formation, arrive, sprite) in &leaders {
        let count = members.iter().filter(|m| m.formation == leader).count();
        let Ok(slots) = formation_slots(&formation.shape, count, formation.spacing) else {
            continue;
        };
        let frame = Frame {
            position: transform.translation.truncate(),
            velocity: velocity.0,
            // At rest a leader faces the way it last moved.
            heading: (transform.rotation * Vec3::X).truncate(),
        };
        let chosen = leader == selection.selected();
        let colour = sprite.color.with_alpha(if chosen { 0.6 } else { 0.25 });
        for slot in slots {
            gizmos.circle_2d(frame.point_at(slot + formation.offset), 9.0, colour);
        }
        if chosen && let Target::Point(destination) = arrive.target {
            gizmos.cross_2d(destination, 12.0, colour);
        }
    }
}

fn update_help(selection: Res<Selection>, mut help: ResMut<support::HelpLine>) {
    let names = ["line", "column", "wedge", "ring", "grid"];
    let text = format!(
        "formations: click sends the {} squad (Tab: next), D takes a member out; rings are slots",
        names[selection.current]
    );
    help.set_if_neq(support::HelpLine(text));
}
