//! `flock nav-bench` in this module's dimension: a level of rooms (a grid of walls with a door
//! in each side) sized for the crowd, agents in its left half sent to mirrored places in its
//! right half with `Destination` and `Orca`.

use std::time::Instant;

use bevy::prelude::*;

use super::kernel::steering::{OrcaParams, Shape};
use super::kernel::{Bounds, DIMENSIONS, EdgeMode, FlockConfig, RuleWeights, Vector};
use super::plugin::{
    Boid, Destination, FlockClock, FlockNavMesh, MotionLimits, NavMeshSettings, NavPath, NavStatus, Obstacle,
    Orca,
};
use crate::bench::median;
use crate::nav_bench::{Crossing, NavResult};

/// An agent's radius and top speed, and the floor per agent (the `level_crowd` scene's).
const RADIUS: f32 = 4.0;
const SPEED: f32 = 70.0;
const FLOOR_PER_AGENT: f32 = 900.0;
/// A room's side, a wall's half thickness and a door's half width.
const ROOM: f32 = 300.0;
const WALL: f32 = 6.0;
const DOOR: f32 = 30.0;

/// The point `(x, y)` of the floor plan, `up` above it in 3D.
fn floor(x: f32, y: f32, up: f32) -> Vector {
    let coordinates = if DIMENSIONS == 3 { [x, up, y] } else { [x, y, up] };
    Vector::from_slice(&coordinates[..DIMENSIONS])
}

fn translation(point: Vector) -> Vec3 {
    let mut coordinates = [0.0; 3];
    coordinates[..DIMENSIONS].copy_from_slice(&point.to_array()[..DIMENSIONS]);
    Vec3::from_array(coordinates)
}

/// The walls of a `columns` x `rows` grid of rooms centred on the origin, each inner wall with a
/// door in the middle of each room's side: (centre, half size) on the floor plan.
fn walls(columns: usize, rows: usize) -> Vec<(Vec2, Vec2)> {
    let (width, depth) = (columns as f32 * ROOM, rows as f32 * ROOM);
    let mut pieces = Vec::new();
    // Walls across x between columns, each broken by a door per room; then across y.
    for column in 1..columns {
        let x = -width / 2.0 + column as f32 * ROOM;
        for row in 0..rows {
            let y0 = -depth / 2.0 + row as f32 * ROOM;
            for (from, to) in [(y0, y0 + ROOM / 2.0 - DOOR), (y0 + ROOM / 2.0 + DOOR, y0 + ROOM)] {
                pieces.push((Vec2::new(x, (from + to) / 2.0), Vec2::new(WALL, (to - from) / 2.0)));
            }
        }
    }
    for row in 1..rows {
        let y = -depth / 2.0 + row as f32 * ROOM;
        for column in 0..columns {
            let x0 = -width / 2.0 + column as f32 * ROOM;
            for (from, to) in [(x0, x0 + ROOM / 2.0 - DOOR), (x0 + ROOM / 2.0 + DOOR, x0 + ROOM)] {
                pieces.push((Vec2::new((from + to) / 2.0, y), Vec2::new((to - from) / 2.0, WALL)));
            }
        }
    }
    pieces
}

/// The crowd of `count` in its level, measured: see [`NavResult`].
pub fn measure(count: usize, samples: usize, queries: usize, cross: f32) -> NavResult {
    // Rooms enough for the floor the crowd needs, twice as wide as deep.
    let rooms = (count as f32 * FLOOR_PER_AGENT / (ROOM * ROOM)).max(2.0);
    let rows = (rooms / 2.0).sqrt().ceil().max(1.0) as usize;
    let columns = (2 * rows).max(2);
    let (width, depth) = (columns as f32 * ROOM, rows as f32 * ROOM);
    let config = FlockConfig {
        weights: RuleWeights::NONE,
        separation_radius: 6.0 * RADIUS,
        alignment_radius: 6.0 * RADIUS,
        cohesion_radius: 6.0 * RADIUS,
        max_speed: SPEED,
        bounds: Bounds {
            min: floor(-width / 2.0, -depth / 2.0, 0.0),
            max: floor(width / 2.0, depth / 2.0, 2.0 * RADIUS),
        },
        edges: EdgeMode::Bounce,
        ..FlockConfig::processing()
    };
    let mut app = super::app_bench::bench_app(config, 0, 5);
    app.world_mut()
        .resource_mut::<super::Settings>()
        .max_boids = count;
    app.insert_resource(NavMeshSettings {
        agent_radius: RADIUS,
        ..NavMeshSettings::default()
    });
    let level = walls(columns, rows);
    for &(centre, half) in &level {
        app.world_mut().spawn((
            Obstacle::aligned_box(floor(half.x, half.y, 4.0 * RADIUS)),
            Transform::from_translation(translation(floor(centre.x, centre.y, RADIUS))),
        ));
    }
    // Agents on a grid over the left half, clear of the walls, each sent to its mirror image in
    // the right half (the level is symmetric, so that is clear too).
    let clear = |p: Vec2| {
        level
            .iter()
            .all(|&(centre, half)| ((p - centre).abs() - half).max_element() > 2.0 * RADIUS)
    };
    let mut spacing = (width / 2.0 * depth / count as f32).sqrt();
    let starts = loop {
        let (across, down) = ((width / 2.0 / spacing) as usize, (depth / spacing) as usize);
        let slots: Vec<Vec2> = (0..down)
            .flat_map(|j| (0..across).map(move |i| (i, j)))
            .map(|(i, j)| {
                let (i, j) = (i as f32 + 0.5, j as f32 + 0.5);
                Vec2::new(-width / 2.0 + i * spacing, -depth / 2.0 + j * spacing)
            })
            .filter(|&p| clear(p))
            .collect();
        if slots.len() >= count {
            break slots;
        }
        spacing *= 0.9;
    };
    let mut longest = 0.0_f32;
    for &start in &starts[..count] {
        let goal = Vec2::new(-start.x, start.y);
        longest = longest.max(start.distance(goal));
        app.world_mut().spawn((
            Boid,
            MotionLimits {
                max_speed: SPEED,
                max_force: 10.0 * SPEED,
                mass: 1.0,
            },
            Transform::from_translation(translation(floor(start.x, start.y, RADIUS))),
            Destination::new(floor(goal.x, goal.y, RADIUS)),
            Orca {
                params: OrcaParams {
                    radius: RADIUS,
                    ..OrcaParams::default()
                },
            },
        ));
    }

    // The first update builds the mesh and plans every agent.
    let start = app.world().resource::<FlockClock>().steps_taken();
    let begin = Instant::now();
    app.update();
    let first_update = begin.elapsed().as_secs_f64();
    let times: Vec<_> = (0..samples)
        .map(|_| {
            let begin = Instant::now();
            app.update();
            begin.elapsed()
        })
        .collect();
    let update = median(times).as_secs_f64();

    // The mesh alone: built again as the plugin builds it, and queried between random points
    // of the floor.
    let polygons = app.world().resource::<FlockNavMesh>().polygon_count();
    let shapes: Vec<Shape> = app
        .world_mut()
        .query::<(&Transform, &Obstacle)>()
        .iter(app.world())
        .map(|(transform, obstacle)| obstacle.at(transform))
        .collect();
    let begin = Instant::now();
    let mesh = FlockNavMesh::from_shapes(
        app.world().resource::<NavMeshSettings>(),
        &config.bounds,
        &shapes,
    )
    .expect("the level's mesh builds");
    let build = begin.elapsed().as_secs_f64();
    // Points spread evenly over the floor (an additive recurrence on the plastic number).
    let point = |n: usize| {
        let (a, b) = (0.754_877_7_f64, 0.569_840_3_f64);
        let (u, v) = ((n as f64 * a).fract() as f32, (n as f64 * b).fract() as f32);
        floor((u - 0.5) * width, (v - 0.5) * depth, RADIUS)
    };
    let pairs: Vec<(Vector, Vector)> = (0..queries).map(|n| (point(2 * n), point(2 * n + 1))).collect();
    let begin = Instant::now();
    let found = pairs
        .iter()
        .filter(|(from, to)| mesh.path(*from, *to).is_ok())
        .count();
    let queries_per_second = queries as f64 / begin.elapsed().as_secs_f64();
    assert!(found > queries / 2, "only {found} of {queries} paths found");

    let crossing = if cross > 0.0 {
        Some(crowd_crossing(&mut app, start, cross, longest / SPEED))
    } else {
        None
    };
    NavResult {
        polygons,
        build,
        queries_per_second,
        first_update,
        update,
        crossing,
    }
}

/// The crossing from step `start` (when the agents planned): stepped until every agent has
/// arrived, at most `limit` simulated seconds from there.
fn crowd_crossing(app: &mut App, start: u64, limit: f32, bound: f32) -> Crossing {
    let mut paths = app.world_mut().query::<&NavPath>();
    let seconds = |app: &App| {
        (app.world().resource::<FlockClock>().steps_taken() - start) as f32 / 60.0
    };
    let (mut most, mut arrived) = (None, 0);
    while seconds(app) < limit {
        app.update();
        let (count, total) = paths.iter(app.world()).fold((0, 0), |(arrived, total), path| {
            (arrived + usize::from(path.status() == NavStatus::Arrived), total + 1)
        });
        arrived = count;
        if most.is_none() && 20 * count >= 19 * total {
            most = Some(seconds(app));
        }
        if count == total {
            return Crossing {
                most,
                all: Some(seconds(app)),
                arrived,
                bound,
            };
        }
    }
    Crossing {
        most,
        all: None,
        arrived,
        bound,
    }
}
