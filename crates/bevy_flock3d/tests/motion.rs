//! What only a 3D flock does, in a headless `App`: boids move on every axis and face their
//! velocity (also straight up and down), bank into turns, wander off any plane, wrap and bounce
//! on every axis and spawn through the whole box. The cases both dimensions share are
//! bevy_flock's `tests/*.rs`, which this crate runs too (`[[test]] path` in its manifest).

// The shared test helpers say `bevy_flock`; here that is the 3D crate.
extern crate bevy_flock3d as bevy_flock;

#[path = "../../../tests/common/mod.rs"]
mod common;

use bevy::prelude::*;
use bevy_flock3d::ActiveFlockSettings;
use bevy_flock3d::prelude::*;
use common::*;

/// Where a rotation points its nose (Bevy's forward, -z) and its top (+y).
fn nose_and_top(app: &App, entity: Entity) -> (Vec3, Vec3) {
    let rotation = app.world().get::<Transform>(entity).unwrap().rotation;
    (rotation * Vec3::NEG_Z, rotation * Vec3::Y)
}

#[test]
fn a_flock_flies_on_every_axis_and_each_boid_faces_its_velocity() {
    let mut app = create_app(FlockSettings::default(), 3);
    let boids = spawn(&mut app, 400, Placement::RandomInBounds);
    let start: Vec<Vec3> = boids.iter().map(|&boid| position(&app, boid)).collect();
    step(&mut app, 120);
    assert_sound(&mut app);
    // Each axis: some boids moved along it (a 2D flock would leave z alone).
    for axis in 0..3 {
        let moved = boids
            .iter()
            .zip(&start)
            .filter(|(boid, start)| (position(&app, **boid)[axis] - start[axis]).abs() > 20.0)
            .count();
        assert!(moved > 100, "only {moved} boids moved along axis {axis}");
    }
    for &boid in &boids {
        let heading = velocity(&app, boid).normalize();
        let (nose, top) = nose_and_top(&app, boid);
        assert!(
            nose.distance(heading) < 1e-3,
            "{boid}: nose {nose}, heading {heading}"
        );
        assert!(top.is_finite() && top.dot(nose).abs() < 1e-3);
    }
}

/// A boid at the origin that seeks `target`, flying along +x at first, with the nose and top
/// of its every step.
fn pitch_towards(target: Vec3) -> Vec<(Vec3, Vec3, Vec3)> {
    let mut app = app_with(no_flocking());
    let limits = MotionLimits {
        max_speed: 100.0,
        max_force: 100.0,
        mass: 1.0,
    };
    let seek = Seek {
        target: Target::Point(target),
        weight: 1.0,
    };
    let boid = spawn_boid(&mut app, (limits, Velocity(Vec3::X * 100.0), seek));
    (0..240)
        .map(|_| {
            step(&mut app, 1);
            let (nose, top) = nose_and_top(&app, boid);
            (velocity(&app, boid), nose, top)
        })
        .collect()
}

#[test]
fn climbing_and_diving_straight_never_flip_or_spin_the_boid() {
    for target in [Vec3::Y * 1e6, Vec3::NEG_Y * 1e6] {
        let steps = pitch_towards(target);
        let vertical = target.normalize();
        // It gets there: flying straight up (or down).
        let (last_velocity, ..) = steps.last().unwrap();
        assert!(
            last_velocity.normalize().dot(vertical) > 0.9999,
            "{last_velocity}"
        );
        for pair in steps.windows(2) {
            let ((_, _, top_before), (velocity, nose, top)) = (pair[0], pair[1]);
            assert!(nose.is_finite() && top.is_finite());
            assert!(
                nose.distance(velocity.normalize()) < 1e-3,
                "{nose} {velocity}"
            );
            // The top turns with the pitch (a few degrees a step), never by half a turn.
            let turned = top_before.angle_between(top);
            assert!(turned < 0.15, "the top turned {turned} rad in one step");
        }
        // Straight up: the top lies level, where the climb carried it (backwards, -x).
        let (.., top) = steps.last().unwrap();
        assert!(top.dot(Vec3::NEG_X * vertical.y) > 0.99, "top {top}");
    }
}

#[test]
fn banking_rolls_a_turning_flyer_by_its_sideways_acceleration_and_is_off_without_it() {
    let mut app = app_with(no_flocking());
    let level = app.world_mut().spawn(Boid).id();
    let banked = app.world_mut().spawn((Boid, Banking::default())).id();
    // A steady right turn (from -z towards +x), 2 degrees a step, set on both boids.
    let turn_per_step = 2.0_f32.to_radians();
    let heading = |step: usize| {
        let angle = step as f32 * turn_per_step;
        Vec3::new(angle.sin(), 0.0, -angle.cos())
    };
    for i in 0..90 {
        for boid in [level, banked] {
            app.world_mut().get_mut::<Velocity>(boid).unwrap().0 = heading(i) * 100.0;
        }
        step(&mut app, 1);
    }
    let (_, level_top) = nose_and_top(&app, level);
    let (nose, banked_top) = nose_and_top(&app, banked);
    assert!(level_top.distance(Vec3::Y) < 1e-3, "{level_top}");
    // Leaning right, towards the turn's centre, by atan(sideways acceleration / gravity).
    let right = nose.cross(Vec3::Y).normalize();
    assert!(banked_top.dot(right) > 0.1, "top {banked_top}");
    let speed = velocity(&app, banked).length();
    let sideways = speed * turn_per_step * HZ as f32;
    let expected = (sideways / Banking::default().gravity).atan();
    let bank = banked_top.angle_between(Vec3::Y);
    assert!(
        (bank - expected).abs() < 0.05,
        "bank {bank}, expected {expected}"
    );
    assert!(bank <= Banking::default().max_angle);
}

#[test]
fn wander_leaves_the_plane_and_keeps_its_point_on_the_sphere() {
    let mut app = app_with(no_flocking());
    let wanderer = spawn_boid(
        &mut app,
        (VEHICLE, Velocity(Vec3::X * 100.0), Wander::default()),
    );
    let mut left_the_plane = false;
    let mut turned_up_or_down = false;
    for _ in 0..240 {
        step(&mut app, 1);
        let at = position(&app, wanderer);
        left_the_plane |= at.z.abs() > 20.0;
        turned_up_or_down |= velocity(&app, wanderer).normalize().y.abs() > 0.3;
        let point = app.world().get::<Wander>(wanderer).unwrap().angle;
        assert!((point.length() - 1.0).abs() < 1e-4, "wander point {point}");
    }
    assert!(left_the_plane && turned_up_or_down);
}

/// A boid just inside the bounds on `axis`, flying out through the high face.
fn boid_leaving(app: &mut App, axis: usize) -> Entity {
    let bounds = app
        .world()
        .resource::<ActiveFlockSettings>()
        .0
        .config
        .bounds;
    let mut at = bounds.center();
    at[axis] = bounds.max[axis] - 1.0;
    let mut heading = Vec3::ZERO;
    heading[axis] = 1.0;
    app.world_mut()
        .spawn((
            Boid,
            Transform::from_translation(at),
            Velocity(heading * 100.0),
        ))
        .id()
}

#[test]
fn wrap_and_bounce_hold_on_every_axis() {
    for edges in [EdgeMode::Wrap, EdgeMode::Bounce] {
        let mut app = app_with(FlockConfig {
            edges,
            ..no_flocking()
        });
        let bounds = app
            .world()
            .resource::<ActiveFlockSettings>()
            .0
            .config
            .bounds;
        let leavers: Vec<Entity> = (0..3).map(|axis| boid_leaving(&mut app, axis)).collect();
        step(&mut app, 3);
        for (axis, &boid) in leavers.iter().enumerate() {
            let (at, moving) = (position(&app, boid), velocity(&app, boid));
            assert!(bounds.contains(at), "{edges:?} axis {axis}: {at}");
            match edges {
                // Came in through the low face, still flying the same way.
                EdgeMode::Wrap => {
                    assert!(at[axis] < bounds.min[axis] + 10.0, "axis {axis}: {at}");
                    assert!(moving[axis] > 0.0);
                }
                // Turned back at the high face.
                _ => {
                    assert!(at[axis] > bounds.max[axis] - 10.0, "axis {axis}: {at}");
                    assert!(moving[axis] < 0.0);
                }
            }
        }
        // A whole flock stays inside, every boid, every step.
        spawn(&mut app, 500, Placement::RandomInBounds);
        for _ in 0..200 {
            step(&mut app, 1);
            assert_sound(&mut app);
        }
    }
}

#[test]
fn spawning_fills_the_box_and_heads_every_way() {
    let mut app = create_app(FlockSettings::default(), 9);
    let boids = spawn(&mut app, 2_000, Placement::RandomInBounds);
    let bounds = app
        .world()
        .resource::<ActiveFlockSettings>()
        .0
        .config
        .bounds;
    let (mut low, mut high, mut mean_heading) = (Vec3::INFINITY, Vec3::NEG_INFINITY, Vec3::ZERO);
    for &boid in &boids {
        let at = position(&app, boid);
        assert!(bounds.contains(at));
        (low, high) = (low.min(at), high.max(at));
        mean_heading += velocity(&app, boid).normalize() / boids.len() as f32;
    }
    // Spread over the whole box, depth included, with no preferred direction.
    let size = bounds.size();
    assert!(
        ((high - low) / size).min_element() > 0.95,
        "{low} to {high}"
    );
    assert!(mean_heading.length() < 0.1, "{mean_heading}");
    // A point placement in 3D keeps its z.
    let placed = spawn(&mut app, 1, Placement::At(Vec3::new(1.0, 2.0, 3.0)));
    assert_eq!(position(&app, placed[0]), Vec3::new(1.0, 2.0, 3.0));
}
