//! Formations: five squads, one in each shape (line, column, wedge, ring, grid), each laid
//! out behind (the ring: around) a leader. Members are given slots without crossing each
//! other's paths, arrive at them and move with the leader; when the leader turns the slots
//! turn and the squad reforms. A click sends the selected squad there, Tab selects the next,
//! D takes a member out of it (the squad closes up). The rings are the slots.

mod support;

use bevy::prelude::*;
use bevy_flock::flock_core::steering::{Frame, formation_slots};
use bevy_flock::prelude::*;
use bevy_flock::{CursorWorldPosition, UiWantsInput};

/// Leaders: unhurried, and turning at most a radian a second so their squads can follow.
const LEADER: MotionLimits = MotionLimits {
    max_speed: 70.0,
    max_force: 600.0,
    mass: 1.0,
};
const LEADER_TURN: TurnRate = TurnRate {
    max_turn_rate: 1.0,
    max_acceleration: 120.0,
};
/// Members: faster than their leader, to catch up with their slots.
const MEMBER: MotionLimits = MotionLimits {
    max_speed: 150.0,
    max_force: 1500.0,
    mass: 1.0,
};

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
    let mut app = support::example_app("formations");
    app.insert_resource(FlockSettings {
        // Only a short separation among the boids: the formations do the rest.
        config: FlockConfig {
            separation_radius: 14.0,
            weights: RuleWeights {
                separation: 1.0,
                alignment: 0.0,
                cohesion: 0.0,
            },
            edges: EdgeMode::Free,
            ..FlockConfig::processing()
        },
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 200,
    })
    .insert_resource(ClickToSpawn {
        enabled: false,
        ..default()
    })
    .add_plugins(BoidsPlugin::default().with_seed(5))
    .add_plugins(support::HelpLinePlugin(""))
    .add_systems(Startup, setup)
    .add_systems(
        Update,
        (
            select_squad,
            send_squad,
            lose_member,
            draw_slots,
            update_help,
        ),
    );
    let reset = SpawnBoids::new(30, Placement::RandomInBounds);
    support::add_panel(&mut app, false, reset);
    app.run();
}

/// The squads' leaders, and which one a click sends.
#[derive(Resource)]
struct Selected {
    leaders: Vec<Entity>,
    current: usize,
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
                SteeringWeights::Custom(RuleWeights {
                    separation: 0.0,
                    alignment: 0.0,
                    cohesion: 0.0,
                }),
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
    commands.insert_resource(Selected {
        leaders,
        current: 0,
    });
}

fn select_squad(
    keys: Res<ButtonInput<KeyCode>>,
    ui: Res<UiWantsInput>,
    mut selected: ResMut<Selected>,
) {
    if keys.just_pressed(KeyCode::Tab) && !ui.keyboard {
        selected.current = (selected.current + 1) % selected.leaders.len();
    }
}

fn send_squad(
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorWorldPosition>,
    ui: Res<UiWantsInput>,
    selected: Res<Selected>,
    mut leaders: Query<&mut Arrive>,
) {
    if buttons.just_pressed(MouseButton::Left)
        && !ui.pointer
        && let Some(point) = cursor.0
        && let Ok(mut arrive) = leaders.get_mut(selected.leaders[selected.current])
    {
        arrive.target = Target::Point(point);
    }
}

/// D: the selected squad loses a member; the others close up.
fn lose_member(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    ui: Res<UiWantsInput>,
    selected: Res<Selected>,
    members: Query<(Entity, &FormationMember)>,
) {
    if !keys.just_pressed(KeyCode::KeyD) || ui.keyboard {
        return;
    }
    let leader = selected.leaders[selected.current];
    if let Some((member, _)) = members.iter().find(|(_, m)| m.formation == leader) {
        commands.entity(member).despawn();
    }
}

/// A ring on every slot, brighter for the selected squad, and a cross on its destination.
fn draw_slots(
    selected: Res<Selected>,
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
        let chosen = leader == selected.leaders[selected.current];
        let colour = sprite.color.with_alpha(if chosen { 0.6 } else { 0.25 });
        for slot in slots {
            gizmos.circle_2d(frame.point_at(slot + formation.offset), 9.0, colour);
        }
        if chosen && let Target::Point(destination) = arrive.target {
            gizmos.cross_2d(destination, 12.0, colour);
        }
    }
}

fn update_help(selected: Res<Selected>, mut help: ResMut<support::HelpLine>) {
    let names = ["line", "column", "wedge", "ring", "grid"];
    let text = format!(
        "formations: click sends the {} squad (Tab: next), D takes a member out; rings are slots",
        names[selected.current]
    );
    if help.0 != text {
        help.0 = text;
    }
}
