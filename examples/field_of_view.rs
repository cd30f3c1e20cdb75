//! The ActionScript flocking tutorial: 30 vehicles in random colours, their velocity components
//! random in +-10 pixels per frame, bouncing off the edges, each seeing only what is within its
//! sight distance and not behind it (the tutorial's `dot >= 0`: a 180-degree view).
//!
//! M switches the rules: the document's own `flock()` (seek the average position of those in
//! sight, steer by their average velocity, flee each one too close; one force sum, truncated
//! once) or the kernel's Reynolds rules with the same view. V switches the Reynolds view between
//! 180 degrees and all round. The sight distance (200 px), too-close distance (60 px) and
//! speeds are ours: the document gives none.

mod support;

use bevy::prelude::*;
use bevy_flock::FlockRng;
use bevy_flock::prelude::*;
use rand::RngExt;
use support::scenes::field_of_view;

const VEHICLES: usize = 30;

/// Our sight and too-close distances, pixels (the same as the Reynolds preset's radii).
const SIGHT: SightParams = SightParams {
    in_sight: 200.0,
    too_close: 60.0,
};

/// The tutorial's initial velocity: each component uniform in +-10 pixels per frame.
const START_VELOCITY: f32 = 10.0 * 60.0;

/// Which rules the vehicles follow.
#[derive(Resource, Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// The tutorial's `flock()`, as written.
    Document,
    /// Reynolds' separation, alignment and cohesion (the kernel), with the view cone.
    Reynolds,
}

fn main() {
    let mut app = support::example_app("field_of_view");
    app.insert_resource(field_of_view())
        .insert_resource(Rules::Document)
        .add_plugins(BoidsPlugin::default().with_seed(1))
        .add_plugins(support::HelpLinePlugin(""))
        .add_systems(Startup, setup)
        .add_systems(
            Update,
            (
                (switch_rules, apply_rules).chain(),
                toggle_view,
                draw_view_cones,
                update_help,
            ),
        );
    // The panel's Reset clears the scene and spawns plain boids (the rules follow the mode).
    support::add_panel(
        &mut app,
        false,
        SpawnBoids::new(VEHICLES, Placement::RandomInBounds),
    );
    app.run();
}

fn setup(
    mut commands: Commands,
    assets: Res<AssetServer>,
    settings: Res<FlockSettings>,
    mut rng: ResMut<FlockRng>,
    mut prefab: ResMut<BoidPrefab>,
) {
    commands.spawn(Camera2d);
    let hues = BoidColors::RandomHue {
        saturation: 0.8,
        lightness: 0.6,
    };
    *prefab = support::sprite_prefab(&assets, BoidSprite::Arrow, 26.0, hues);
    // As the tutorial's `Flock()`: random positions, velocity components uniform in +-10 per frame
    // (the first step truncates them to the max speed). The bounds follow the camera from the
    // first frame; the default window is what they will be.
    let bounds = settings.config.bounds;
    for _ in 0..VEHICLES {
        let mut uniform = |low: f32, high: f32| rng.rng().random_range(low..=high);
        let position = Vec2::new(
            uniform(bounds.min.x, bounds.max.x),
            uniform(bounds.min.y, bounds.max.y),
        );
        let velocity = Vec2::new(
            uniform(-START_VELOCITY, START_VELOCITY),
            uniform(-START_VELOCITY, START_VELOCITY),
        );
        commands.spawn((
            Boid,
            Transform::from_translation(position.extend(0.0)),
            Velocity(velocity),
        ));
    }
}

fn switch_rules(shortcuts: support::Shortcuts, mut rules: ResMut<Rules>) {
    if shortcuts.pressed(KeyCode::KeyM) {
        *rules = match *rules {
            Rules::Document => Rules::Reynolds,
            Rules::Reynolds => Rules::Document,
        };
    }
}

/// The document's rules: zero flocking weights and [`SightFlock`] on every vehicle (new ones
/// too); Reynolds': the preset's weights and no [`SightFlock`].
fn apply_rules(
    mut commands: Commands,
    rules: Res<Rules>,
    mut settings: ResMut<FlockSettings>,
    vehicles: Query<(Entity, Has<SightFlock>), With<Boid>>,
) {
    let document = *rules == Rules::Document;
    let weights = if document {
        RuleWeights::NONE
    } else {
        field_of_view().config.weights
    };
    if rules.is_changed() && settings.config.weights != weights {
        settings.config.weights = weights;
    }
    for (vehicle, has_rules) in &vehicles {
        if document && !has_rules {
            commands.entity(vehicle).insert(SightFlock {
                params: SIGHT,
                weight: 1.0,
            });
        } else if !document && has_rules {
            commands.entity(vehicle).remove::<SightFlock>();
        }
    }
}

fn toggle_view(shortcuts: support::Shortcuts, mut settings: ResMut<FlockSettings>) {
    if shortcuts.pressed(KeyCode::KeyV) {
        let view = &mut settings.config.view_angle_degrees;
        *view = if *view < 360.0 { 360.0 } else { 180.0 };
    }
}

/// Each vehicle's view: an arc at the sight distance and the cone's two edges; a full circle
/// when it sees all round.
fn draw_view_cones(
    settings: Res<bevy_flock::ActiveFlockSettings>,
    rules: Res<Rules>,
    boids: Query<(&Transform, &Velocity), With<Boid>>,
    mut gizmos: Gizmos,
) {
    // The document's `inSight` is always the half-plane in front.
    let view = match *rules {
        Rules::Document => std::f32::consts::PI,
        Rules::Reynolds => settings.0.config.view_angle_degrees.to_radians(),
    };
    let sight = SIGHT.in_sight;
    let color = Color::srgba(1.0, 1.0, 1.0, 0.07);
    for (transform, velocity) in &boids {
        let at = transform.translation.truncate();
        let Some(heading) = velocity.0.try_normalize() else {
            continue;
        };
        if view >= std::f32::consts::TAU {
            gizmos.circle_2d(at, sight, color);
            continue;
        }
        // Bevy's arcs are centred on +y of their rotation.
        let rotation = Rot2::radians(heading.to_angle() - std::f32::consts::FRAC_PI_2);
        gizmos.arc_2d(Isometry2d::new(at, rotation), view, sight, color);
        for side in [-0.5, 0.5] {
            let edge = Vec2::from_angle(heading.to_angle() + side * view) * sight;
            gizmos.line_2d(at, at + edge, color);
        }
    }
}

fn update_help(
    settings: Res<FlockSettings>,
    rules: Res<Rules>,
    mut help: ResMut<support::HelpLine>,
) {
    let text = match *rules {
        Rules::Document => {
            "M: rules: the document's flock() (seek, match, flee the too close)   30 vehicles, \
             bouncing"
                .to_owned()
        }
        Rules::Reynolds => {
            let view = settings.config.view_angle_degrees;
            let seen = if view < 360.0 {
                "in front only"
            } else {
                "all round"
            };
            format!(
                "M: rules: Reynolds'   V: field of view {view:.0} degrees ({seen})   \
                 30 vehicles, bouncing"
            )
        }
    };
    help.set_if_neq(support::HelpLine(text));
}
