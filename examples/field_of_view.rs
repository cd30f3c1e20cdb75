//! Seed 001 (the ActionScript flocking tutorial): 30 vehicles in random colours with random
//! headings, flocking with a field of view: a neighbour counts only within 200 pixels and in
//! front (a 180-degree view, the seed's `dot >= 0`), vehicles too close (60 pixels) are fled
//! (separation), and the edges bounce. V switches the view between 180 degrees and all round.

mod support;

use bevy::prelude::*;
use bevy_flock::prelude::*;

/// The seed's `_inSightDist` and `_tooCloseDist`, pixels.
const IN_SIGHT: f32 = 200.0;
const TOO_CLOSE: f32 = 60.0;

fn main() {
    let config = FlockConfig {
        separation_radius: TOO_CLOSE,
        alignment_radius: IN_SIGHT,
        cohesion_radius: IN_SIGHT,
        weights: RuleWeights {
            separation: 1.5,
            alignment: 1.0,
            cohesion: 1.0,
        },
        max_speed: 180.0,
        max_force: 180.0,
        view_angle_degrees: 180.0,
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let mut app = support::example_app("field_of_view");
    app.insert_resource(FlockSettings {
        config,
        bounds_source: BoundsSource::FollowCamera,
        max_boids: 30,
    })
    .add_plugins(BoidsPlugin::default().with_seed(1))
    .add_plugins(support::HelpLinePlugin(""))
    .add_systems(Startup, setup)
    .add_systems(Update, (toggle_view, draw_view_cones, update_help));
    // The panel's Reset clears the scene and spawns plain boids.
    support::add_panel(
        &mut app,
        false,
        SpawnBoids::new(30, Placement::RandomInBounds),
    );
    app.run();
}

fn setup(mut commands: Commands, assets: Res<AssetServer>, mut prefab: ResMut<BoidPrefab>) {
    commands.spawn(Camera2d);
    *prefab = BoidPrefab {
        image: assets.load("sprites/arrow.png"),
        size: Vec2::splat(26.0),
        colors: BoidColors::RandomHue {
            saturation: 0.8,
            lightness: 0.6,
        },
    };
    // Random positions and random headings at full speed.
    commands.queue(SpawnBoids::new(30, Placement::RandomInBounds));
}

fn toggle_view(
    keys: Res<ButtonInput<KeyCode>>,
    ui: Res<bevy_flock::UiWantsInput>,
    mut settings: ResMut<FlockSettings>,
) {
    if keys.just_pressed(KeyCode::KeyV) && !ui.keyboard {
        let view = &mut settings.config.view_angle_degrees;
        *view = if *view < 360.0 { 360.0 } else { 180.0 };
    }
}

/// Each vehicle's view: an arc at the sight distance and the cone's two edges; a full circle
/// when it sees all round.
fn draw_view_cones(
    settings: Res<bevy_flock::ActiveFlockSettings>,
    boids: Query<(&Transform, &Velocity), With<Boid>>,
    mut gizmos: Gizmos,
) {
    let view = settings.0.config.view_angle_degrees.to_radians();
    let color = Color::srgba(1.0, 1.0, 1.0, 0.07);
    for (transform, velocity) in &boids {
        let at = transform.translation.truncate();
        let Some(heading) = velocity.0.try_normalize() else {
            continue;
        };
        if view >= std::f32::consts::TAU {
            gizmos.circle_2d(at, IN_SIGHT, color);
            continue;
        }
        // Bevy's arcs are centred on +y of their rotation.
        let rotation = Rot2::radians(heading.to_angle() - std::f32::consts::FRAC_PI_2);
        gizmos.arc_2d(Isometry2d::new(at, rotation), view, IN_SIGHT, color);
        for side in [-0.5, 0.5] {
            let edge = Vec2::from_angle(heading.to_angle() + side * view) * IN_SIGHT;
            gizmos.line_2d(at, at + edge, color);
        }
    }
}

fn update_help(settings: Res<FlockSettings>, mut help: ResMut<support::HelpLine>) {
    let view = settings.config.view_angle_degrees;
    let text = format!(
        "V: field of view {view:.0} degrees ({})   30 vehicles, bouncing edges",
        if view < 360.0 {
            "in front only"
        } else {
            "all round"
        }
    );
    if help.0 != text {
        help.0 = text;
    }
}
