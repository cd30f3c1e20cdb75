//! A player at a window: the camera on the game's bounds, clicks and keys turned into inputs
//! for the lockstep (never applied directly: every peer applies them at the same tick), and a
//! status line.

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy_flock::prelude::*;

use super::net::{Peer, game_bounds};
use super::protocol::{Input, MAX_COORDINATE, MAX_RULE_WEIGHT, Rule};
use super::support::{corner_text, top_left_of_bounds};

/// Boids one click spawns.
const CLICK_SPAWNS: u8 = 8;

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

/// Shows the whole of the game's bounds, whatever the window's size, once the game is known.
fn fit_camera(
    peer: Res<Peer>,
    mut cameras: Query<&mut Projection, With<Camera2d>>,
    mut fitted: Local<bool>,
) {
    let Some(game) = peer.game else { return };
    if *fitted {
        return;
    }
    let bounds = game_bounds(game.boids);
    let size = bounds.max - bounds.min;
    for mut projection in &mut cameras {
        if let Projection::Orthographic(orthographic) = &mut *projection {
            orthographic.scaling_mode = ScalingMode::AutoMin {
                min_width: size.x,
                min_height: size.y,
            };
            *fitted = true;
        }
    }
}

/// Left click: boids at the cursor. Right button: this player's predator seeks the cursor.
/// 1, 2, 3: double the weight of separation, alignment, cohesion (back to a half past the
/// largest).
fn player_inputs(
    mouse: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorWorldPosition>,
    settings: Res<FlockSettings>,
    mut peer: ResMut<Peer>,
    mut last_predator_target: Local<Option<Vec2>>,
) {
    if peer.game.is_none() || peer.outcome.is_some() {
        return;
    }
    let point = cursor
        .0
        .filter(|point| point.abs().max_element() <= MAX_COORDINATE);
    if let Some(point) = point {
        if mouse.just_pressed(MouseButton::Left) {
            peer.lockstep.queue(Input::Spawn {
                x: point.x,
                y: point.y,
                count: CLICK_SPAWNS,
            });
        }
        // A new target only when it has moved a little: a held button is not an input a frame.
        let moved = last_predator_target.is_none_or(|last| last.distance(point) > 20.0);
        if mouse.pressed(MouseButton::Right) && moved {
            *last_predator_target = Some(point);
            peer.lockstep.queue(Input::MovePredator {
                x: point.x,
                y: point.y,
            });
        }
    }
    let weights = settings.config.weights;
    let rules = [
        (KeyCode::Digit1, Rule::Separation, weights.separation),
        (KeyCode::Digit2, Rule::Alignment, weights.alignment),
        (KeyCode::Digit3, Rule::Cohesion, weights.cohesion),
    ];
    for (key, rule, weight) in rules {
        if keys.just_pressed(key) {
            let doubled = (weight * 2.0).max(0.5);
            let value = if doubled > MAX_RULE_WEIGHT {
                0.5
            } else {
                doubled
            };
            peer.lockstep.queue(Input::SetWeight { rule, value });
        }
    }
}

fn show_status(
    peer: Res<Peer>,
    settings: Res<FlockSettings>,
    boids: Query<(), With<Boid>>,
    mut text: Query<(&mut Text2d, &mut Transform), With<Status>>,
) {
    let Ok((mut text, mut transform)) = text.single_mut() else {
        return;
    };
    transform.translation = top_left_of_bounds(&settings);
    let me = peer.lockstep.me();
    let line = match (&peer.game, &peer.outcome) {
        (None, _) => format!("{me:?}: waiting for the other player"),
        (Some(_), Some(outcome)) => format!("{me:?}: game over: {outcome:?}"),
        (Some(_), None) => format!(
            "{me:?}: tick {}, hashes agree through {}, {} boids\n\
             left click: boids   right: your predator   1/2/3: separation/alignment/cohesion",
            peer.lockstep.next_tick() - 1,
            peer.lockstep.checked_through(),
            boids.iter().count(),
        ),
    };
    if text.0 != line {
        text.0 = line;
    }
}
