//! A player at a window: the camera on the game's bounds, clicks and keys turned into inputs
//! for the lockstep (never applied directly: every peer applies them at the same tick), and a
//! status line.

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy_flock::lockstep::{Lockstep, LockstepState};
use bevy_flock::prelude::*;

use super::game::{MAX_COORDINATE, Play};
use super::support::{corner_text, top_left_of_bounds};

/// Boids one click spawns.
const CLICK_SPAWNS: u8 = 8;

/// The largest weight the keys give a flocking rule before starting over at a half.
const MAX_RULE_WEIGHT: f32 = 8.0;

/// Adds the player's camera, inputs and status line to a peer's app.
pub fn add_player(app: &mut App) {
    // Clicks go through the lockstep, not straight into this peer's flock.
    app.insert_resource(ClickToSpawn::OFF)
        .add_systems(Startup, spawn_view)
        .add_systems(Update, (fit_camera, player_inputs, show_status));
}

#[derive(Component)]
struct Status;

fn spawn_view(mut commands: Commands) {
    commands.spawn(Camera2d);
    commands.spawn((Status, corner_text()));
}

/// Shows the whole of the game's bounds, whatever the window's size (again when a joining
/// player receives the game's).
fn fit_camera(
    settings: Res<FlockSettings>,
    mut cameras: Query<&mut Projection, With<Camera2d>>,
    mut fitted: Local<Option<Vec2>>,
) {
    let bounds = settings.config.bounds;
    let size = bounds.max - bounds.min;
    if *fitted == Some(size) {
        return;
    }
    for mut projection in &mut cameras {
        if let Projection::Orthographic(orthographic) = &mut *projection {
            orthographic.scaling_mode = ScalingMode::AutoMin {
                min_width: size.x,
                min_height: size.y,
            };
            *fitted = Some(size);
        }
    }
}

/// Left click: boids at the cursor. Right button: this player's predator seeks the cursor.
/// 1, 2, 3: double the weight of separation, alignment, cohesion (back to a half past the
/// largest): a local change to the settings, which the lockstep sends as a command.
fn player_inputs(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorWorldPosition>,
    mut settings: ResMut<FlockSettings>,
    mut lockstep: ResMut<Lockstep<Play>>,
    mut last_predator_target: Local<Option<Vec2>>,
) {
    if lockstep.state() != &LockstepState::Playing {
        return;
    }
    let point = cursor
        .0
        .filter(|point| point.abs().max_element() <= MAX_COORDINATE);
    if let Some(at) = point {
        if mouse.just_pressed(MouseButton::Left) {
            lockstep.queue(Play::Spawn {
                at,
                count: CLICK_SPAWNS,
            });
        }
        // A new target only when it has moved a little: a held button is not an input a frame.
        let moved = last_predator_target.is_none_or(|last| last.distance(at) > 20.0);
        if mouse.pressed(MouseButton::Right) && moved {
            *last_predator_target = Some(at);
            lockstep.queue(Play::MovePredator { at });
        }
    }
    let weights = &mut settings.config.weights;
    let rules = [
        (KeyCode::Digit1, &mut weights.separation),
        (KeyCode::Digit2, &mut weights.alignment),
        (KeyCode::Digit3, &mut weights.cohesion),
    ];
    for (key, weight) in rules {
        if keys.just_pressed(key) {
            let doubled = (*weight * 2.0).max(0.5);
            *weight = if doubled > MAX_RULE_WEIGHT {
                0.5
            } else {
                doubled
            };
        }
    }
}

fn show_status(
    lockstep: Res<Lockstep<Play>>,
    settings: Res<FlockSettings>,
    boids: Query<(), With<Boid>>,
    mut text: Query<(&mut Text2d, &mut Transform), With<Status>>,
) {
    let Ok((mut text, mut transform)) = text.single_mut() else {
        return;
    };
    transform.translation = top_left_of_bounds(&settings);
    let who = lockstep.player().map_or_else(
        || "joining".to_string(),
        |player| format!("player {player}"),
    );
    let line = match lockstep.state() {
        LockstepState::Joining => "joining the host".to_string(),
        LockstepState::WaitingForPlayers => "waiting for the other player".to_string(),
        LockstepState::Finished => format!("{who}: game over, every hash agreed"),
        LockstepState::Resyncing => format!("{who}: out of step: waiting for the host's game"),
        LockstepState::Ended(end) => format!("{who}: game over: {end}"),
        LockstepState::Playing => format!(
            "{who}: tick {}, hashes agree through {}, {} players, delay {} ticks, {} boids\n\
             left click: boids   right: your predator   1/2/3: separation/alignment/cohesion",
            lockstep.tick(),
            lockstep.checked_through(),
            lockstep.players().len(),
            lockstep.delay(),
            boids.iter().count(),
        ),
    };
    if text.0 != line {
        text.0 = line;
    }
}
