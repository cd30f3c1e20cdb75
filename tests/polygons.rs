//! The obstacles only 2D has, through the plugin in a headless `App`: a turned rectangle and a
//! concave polygon in the way. (The crowd cases both dimensions share are in `crowds.rs`.)

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::steering::Polygon;
use bevy_flock::prelude::*;
use common::*;

#[test]
fn boids_go_around_rotated_rectangles_and_polygons() {
    let mut app = app_with(no_flocking());
    // A plank turned 60 degrees and a concave arrowhead, both across the way.
    let turn = Quat::from_rotation_z(60f32.to_radians());
    let plank_half_size = Vec2::new(60.0, 15.0);
    app.world_mut().spawn((
        Obstacle::RotatedRect {
            half_size: plank_half_size,
        },
        Transform::from_xyz(0.0, 0.0, 0.0).with_rotation(turn),
    ));
    let arrowhead = Polygon::new([
        Vec2::new(-30.0, 0.0),
        Vec2::new(40.0, -50.0),
        Vec2::new(15.0, 0.0),
        Vec2::new(40.0, 50.0),
    ])
    .unwrap();
    app.world_mut().spawn((
        Obstacle::Polygon(arrowhead.clone()),
        // Turned a half turn: the arrowhead points right, away from the walkers.
        Transform::from_xyz(0.0, 300.0, 0.0)
            .with_rotation(Quat::from_rotation_z(std::f32::consts::PI)),
    ));
    let plank = Polygon::rectangle(plank_half_size)
        .unwrap()
        .placed(Vec2::ZERO, Vec2::from_angle(60f32.to_radians()));
    let arrow = arrowhead.placed(
        Vec2::new(0.0, 300.0),
        Vec2::from_angle(std::f32::consts::PI),
    );
    let mut walkers = Vec::new();
    for (y, goal) in [
        (0.0, Vec2::new(400.0, 5.0)),
        (300.0, Vec2::new(400.0, 295.0)),
    ] {
        let start = Transform::from_xyz(-300.0, y, 0.0);
        let moving = Velocity(Vec2::new(100.0, 0.0));
        let behaviours = seek_around_obstacles(goal);
        walkers.push(spawn_boid(&mut app, (WALKER, start, moving, behaviours)));
    }
    for _ in 0..480 {
        step(&mut app, 1);
        for (entity, position, _) in boid_states(&mut app) {
            assert!(
                !plank.contains(position) && !arrow.contains(position),
                "{entity} went into an obstacle at {position}"
            );
        }
    }
    for walker in walkers {
        let at = position(&app, walker);
        assert!(at.x > 300.0, "{walker} is stuck at {at}");
    }
}
