//! The Unity tank group in 3D, in the document's own units and numbers: tanks (a box with a turret)
//! drive at 5 units a second and turn at most 20 degrees a second on the ground, each heading for
//! its group's target while keeping 10 units from its mates (weights 1.25 / 1 / 0.8); yellow lines
//! join mates. A click on the ground sends the selected group; Tab selects the next; right-drag
//! orbits, scroll zooms.

// The shared example support says `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../examples/support/mod.rs"]
mod support;
mod support3d;

use bevy::prelude::*;
use bevy_flock3d::FlockBuffers;
use bevy_flock3d::flock_core::Bounds;
use bevy_flock3d::prelude::*;
use support::Selection;
use support3d::OrbitCamera;

/// The Unity tank group's `TankBehaviour`: moveSpeed 5.
const MOVE_SPEED: f32 = 5.0;

/// The ground the tanks drive on, units from the centre to each side.
const GROUND_HALF: f32 = 70.0;

const GROUP_COLOURS: [Color; 3] = [
    Color::srgb(0.85, 0.4, 0.25),
    Color::srgb(0.3, 0.6, 0.85),
    Color::srgb(0.45, 0.75, 0.3),
];

fn main() {
    // The Unity tank group's `TankGroup`: keepDistance 10, keepWeight 1, targetCloseDistance 20,
    // targetWeight 1.25, moveWeight 0.8; a member stops within 15 units of the target (ours: the
    // document's stop distance is lost; see `GroupParams::default`).
    let group = GroupParams::default();
    let config = FlockConfig {
        // Tanks don't flock: the group behaviour moves them. The radii size the neighbour
        // index for the group's keep distance.
        weights: RuleWeights::NONE,
        separation_radius: group.keep_distance,
        alignment_radius: group.keep_distance,
        cohesion_radius: group.keep_distance,
        max_speed: MOVE_SPEED,
        // A flat box over the ground: tanks bounce off its sides and never leave y = 0.
        bounds: Bounds {
            min: Vec3::new(-GROUND_HALF, -1.0, -GROUND_HALF),
            max: Vec3::new(GROUND_HALF, 1.0, GROUND_HALF),
        },
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let mut app = support::example_app("tank_group_3d");
    app.insert_resource(ClearColor(Color::srgb(0.62, 0.72, 0.8)))
        .insert_resource(FlockSettings {
            config,
            max_boids: 100,
            ..default()
        })
        .add_plugins(BoidsPlugin::default())
        .add_plugins(support3d::Scene3dPlugin(""))
        .add_plugins(support::ClickToSend::<BoidGroup>::default())
        .add_systems(Startup, setup)
        .add_systems(Update, (draw_targets, draw_mate_lines, update_help));
    let reset = SpawnBoids::new(24, Placement::RandomInBounds);
    support::run_with_panel_on_request(app, reset);
}

/// A tank modelled pointing along -z, standing on y = 0: a hull, a turret on it and a gun.
fn tank_parts(meshes: &mut Assets<Mesh>) -> [Handle<Mesh>; 3] {
    let part = |size: Vec3, at: Vec3| Mesh::from(Cuboid::from_size(size)).translated_by(at);
    [
        meshes.add(part(Vec3::new(2.4, 1.0, 3.6), Vec3::new(0.0, 0.5, 0.0))),
        meshes.add(part(Vec3::new(1.5, 0.7, 1.6), Vec3::new(0.0, 1.35, 0.2))),
        meshes.add(part(Vec3::new(0.3, 0.3, 2.0), Vec3::new(0.0, 1.4, -1.4))),
    ]
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn(support3d::camera(
        OrbitCamera {
            focus: Vec3::ZERO,
            distance: 150.0,
            yaw: 0.3,
            elevation: 0.85,
            button: MouseButton::Right,
        },
        Color::srgb(0.62, 0.72, 0.8),
        200.0,
        600.0,
    ));
    support3d::spawn_lights(&mut commands);
    commands.spawn((
        Mesh3d(
            meshes.add(
                Plane3d::default()
                    .mesh()
                    .size(GROUND_HALF * 2.0, GROUND_HALF * 2.0),
            ),
        ),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.55, 0.52, 0.4),
            perceptual_roughness: 1.0,
            ..default()
        })),
    ));
    let parts = tank_parts(&mut meshes);
    let starts = [
        Vec3::new(-50.0, 0.0, 40.0),
        Vec3::new(-50.0, 0.0, -40.0),
        Vec3::new(45.0, 0.0, 45.0),
    ];
    let targets = [
        Vec3::new(35.0, 0.0, -30.0),
        Vec3::new(30.0, 0.0, 25.0),
        Vec3::new(-35.0, 0.0, 0.0),
    ];
    let mut groups = Vec::new();
    for ((start, target), colour) in starts.into_iter().zip(targets).zip(GROUP_COLOURS) {
        let group = commands
            .spawn(BoidGroup {
                target,
                params: GroupParams::default(),
            })
            .id();
        groups.push(group);
        let paint = materials.add(StandardMaterial {
            base_color: colour,
            perceptual_roughness: 0.7,
            ..default()
        });
        for i in 0..8 {
            let offset = Vec3::new((i % 4) as f32, 0.0, (i / 4) as f32) * 7.0;
            let [hull, turret, gun] = parts.clone();
            commands
                .spawn((
                    Boid,
                    // The document's Drive: 5 units a second, turning at most 20 degrees a second.
                    GroupMember::new(group, DriveParams::default()).facing(Vec3::X),
                    // The group drives the tank; reversing reaches up to 8 times the speed.
                    MotionLimits {
                        max_speed: 8.0 * MOVE_SPEED,
                        max_force: 1.0,
                        mass: 1.0,
                    },
                    Transform::from_translation(start + offset),
                    Velocity(Vec3::X * 0.1),
                    // The hull is the boid's own mesh, so the plugin's prefab leaves it be.
                    Mesh3d(hull),
                    MeshMaterial3d(paint.clone()),
                ))
                .with_children(|tank| {
                    tank.spawn((Mesh3d(turret), MeshMaterial3d(paint.clone())));
                    tank.spawn((Mesh3d(gun), MeshMaterial3d(paint.clone())));
                });
        }
    }
    commands.insert_resource(Selection::new(groups));
}

/// A click on the ground (the plugin's cursor position meets the plane y = 0) sends the
/// selected group there.
impl support::ClickTarget for BoidGroup {
    fn send_to(&mut self, point: Vec3) {
        if point.x.abs() <= GROUND_HALF && point.z.abs() <= GROUND_HALF {
            self.target = point;
        }
    }
}

/// Each group's target on the ground: a cross and its stop circle, brighter when selected.
fn draw_targets(selection: Res<Selection>, groups: Query<&BoidGroup>, mut gizmos: Gizmos) {
    let alphas = (1.0, 0.4);
    for (group, colour) in
        support::tanks::groups_in_colour(&selection, &groups, GROUP_COLOURS, alphas)
    {
        let at = group.target + Vec3::Y * 0.05;
        gizmos.line(at - Vec3::X * 3.0, at + Vec3::X * 3.0, colour);
        gizmos.line(at - Vec3::Z * 3.0, at + Vec3::Z * 3.0, colour);
        let flat = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        gizmos.circle(
            Isometry3d::new(at, flat),
            group.params.stop_distance,
            colour,
        );
    }
}

/// Yellow lines from each tank to the mates within its keep distance.
fn draw_mate_lines(
    buffers: Res<FlockBuffers>,
    members: Query<&GroupMember>,
    mut candidates: Local<Vec<u32>>,
    mut gizmos: Gizmos,
) {
    let yellow = Color::srgb(1.0, 0.9, 0.1);
    let lift = Vec3::Y * 1.2;
    support::tanks::for_each_mate_pair(
        &buffers,
        &members,
        GroupParams::default().keep_distance,
        &mut candidates,
        |at, mate_at| gizmos.line(at + lift, mate_at + lift, yellow),
    );
}

fn update_help(selection: Res<Selection>, mut help: ResMut<support::HelpLine>) {
    let text = format!(
        "click the ground: send group {} there   Tab: next group   right-drag: orbit   \
         scroll: zoom",
        selection.current + 1
    );
    help.set_if_neq(support::HelpLine(text));
}
