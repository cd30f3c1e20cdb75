//! Navigation (`Destination`, feature `navmesh`) through the plugin in a headless `App`: agents
//! find their way round walls and through doors, plan again when the destination or the level
//! changes or they are pushed off their way, keep inside the mesh with ORCA, and report bad
//! input without a NaN or a lost agent. `bevy_flock3d` runs the same cases on its floor plan
//! (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::prelude::*;
use common::*;

const RADIUS: f32 = 6.0;

/// The wall across x = 0 (10 thick) from the door to the top and bottom of a 1280 x 720 world:
/// its two halves, with a door `door` wide round the level's y = `door_at`.
fn wall_with_a_door(app: &mut App, door_at: f32, door: f32) -> [Entity; 2] {
    let (top, bottom) = (360.0, -360.0);
    let upper = (door_at + door / 2.0, top);
    let lower = (bottom, door_at - door / 2.0);
    [upper, lower].map(|(from, to)| {
        let half = (to - from) / 2.0;
        app.world_mut()
            .spawn((
                at(level(0.0, from + half)),
                box_obstacle(xyz(5.0, half, half)),
            ))
            .id()
    })
}

fn navigation() -> NavMeshSettings {
    NavMeshSettings {
        agent_radius: RADIUS,
        ..NavMeshSettings::default()
    }
}

fn orca() -> Orca {
    Orca {
        params: OrcaParams {
            radius: RADIUS,
            ..OrcaParams::default()
        },
    }
}

fn app() -> App {
    let mut app = app_with(no_flocking());
    app.insert_resource(navigation());
    app
}

fn status(app: &App, agent: Entity) -> NavStatus {
    app.world().get::<NavPath>(agent).unwrap().status()
}

fn waypoints(app: &App, agent: Entity) -> Vec<Vector> {
    app.world()
        .get::<NavPath>(agent)
        .unwrap()
        .waypoints()
        .to_vec()
}

/// Steps until `agent` has arrived (at most `limit` steps); the steps it took.
fn steps_to_arrive(app: &mut App, agent: Entity, limit: usize) -> Option<usize> {
    (1..=limit).find(|_| {
        app.update();
        status(app, agent) == NavStatus::Arrived
    })
}

/// How deep a body of `RADIUS` at `p` reaches into the wall of [`wall_with_a_door`] with its
/// door round y = `door_at`, `door` wide (negative: clear of it by that much).
fn into_wall(p: Vector, door_at: f32, door: f32) -> f32 {
    let plan = flat(p);
    let blocks = [
        (door_at + door / 2.0, 360.0),
        (-360.0, door_at - door / 2.0),
    ];
    blocks
        .map(|(from, to)| {
            let centre = Vec2::new(0.0, (from + to) / 2.0);
            let half = Vec2::new(5.0, (to - from) / 2.0);
            let beyond = (plan - centre).abs() - half;
            let distance = beyond.max(Vec2::ZERO).length() + beyond.max_element().min(0.0);
            RADIUS - distance
        })
        .into_iter()
        .fold(f32::MIN, f32::max)
}

/// The point on the level's ground: x and y in 2D, x and -z in 3D (as `level` puts it).
fn flat(p: Vector) -> Vec2 {
    #[cfg(not(flock_3d))]
    return p;
    #[cfg(flock_3d)]
    return Vec2::new(p.x, -p.z);
}

#[test]
fn an_agent_goes_round_the_wall_through_the_door_where_arrive_alone_is_stuck() {
    let mut app = app();
    wall_with_a_door(&mut app, -200.0, 40.0);
    let goal = level(300.0, 100.0);
    let navigator = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-300.0, 100.0)),
            Destination::new(goal),
            orca(),
        ),
    );
    let arriver = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-300.0, 150.0)),
            Arrive {
                target: Target::Point(level(300.0, 150.0)),
                slow_radius: 20.0,
                weight: 1.0,
                speed: None,
            },
            orca(),
        ),
    );
    let mut deepest = f32::MIN;
    let mut arrived = None;
    for step in 1..=1200 {
        app.update();
        deepest = deepest.max(into_wall(position(&app, navigator), -200.0, 40.0));
        if arrived.is_none() && status(&app, navigator) == NavStatus::Arrived {
            arrived = Some(step);
        }
    }
    let arrived = arrived.expect("the navigator never arrived");
    // Round by the door: 300 + 300 across, 300 down and 300 back up at most, at 100 a second.
    let bound = (level(-300.0, 100.0).distance(level(0.0, -200.0))
        + level(0.0, -200.0).distance(goal))
        / WALKER.max_speed;
    assert!(
        (arrived as f32 / 60.0) < 1.5 * bound + 2.0,
        "arrived after {arrived} steps; the way is {bound} s"
    );
    assert!(position(&app, navigator).distance(goal) < 3.0);
    assert!(
        deepest <= 1e-3,
        "the navigator reached {deepest} into the wall"
    );
    // Without a path the wall stops the other one.
    assert!(flat(position(&app, arriver)).x < 0.0);
    let path = waypoints(&app, navigator);
    assert!(path.len() >= 3, "{path:?}");
    assert_sound(&mut app);
}

#[test]
fn a_moved_destination_is_planned_again() {
    let mut app = app();
    wall_with_a_door(&mut app, 0.0, 40.0);
    let agent = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-200.0, 0.0)),
            Destination::new(level(-200.0, 250.0)),
        ),
    );
    step(&mut app, 2);
    assert_eq!(waypoints(&app, agent).last(), Some(&level(-200.0, 250.0)));
    let goal = level(200.0, -250.0);
    app.world_mut().get_mut::<Destination>(agent).unwrap().point = goal;
    step(&mut app, 1);
    assert_eq!(waypoints(&app, agent).last(), Some(&goal));
    assert!(steps_to_arrive(&mut app, agent, 900).is_some());
    assert!(position(&app, agent).distance(goal) < 3.0);
}

#[test]
fn a_closed_door_makes_it_unreachable_and_an_open_one_lets_it_through() {
    let mut app = app();
    wall_with_a_door(&mut app, 0.0, 40.0);
    let goal = level(250.0, 0.0);
    let agent = spawn_boid(
        &mut app,
        (WALKER, at(level(-250.0, 0.0)), Destination::new(goal)),
    );
    step(&mut app, 2);
    let generation = app.world().resource::<FlockNavMesh>().generation();
    assert_eq!(status(&app, agent), NavStatus::Moving);
    // A door shuts: the mesh is built again and the agent finds no way.
    let door = app
        .world_mut()
        .spawn((at(level(0.0, 0.0)), box_obstacle(xyz(5.0, 30.0, 30.0))))
        .id();
    step(&mut app, 1);
    assert_eq!(
        app.world().resource::<FlockNavMesh>().generation(),
        generation + 1
    );
    assert_eq!(status(&app, agent), NavStatus::Unreachable);
    step(&mut app, 60);
    assert_sound(&mut app);
    assert!(flat(position(&app, agent)).x < 0.0);
    // It opens again.
    app.world_mut().despawn(door);
    assert!(steps_to_arrive(&mut app, agent, 900).is_some());
    assert!(position(&app, agent).distance(goal) < 3.0);
}

#[test]
fn an_agent_pushed_off_its_way_plans_from_where_it_is() {
    let mut app = app();
    wall_with_a_door(&mut app, 0.0, 40.0);
    let agent = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-250.0, 100.0)),
            Destination::new(level(250.0, 100.0)),
        ),
    );
    step(&mut app, 2);
    assert!(
        waypoints(&app, agent).len() >= 3,
        "{:?}",
        waypoints(&app, agent)
    );
    // Knocked far up the room: further from its way than the replanning distance.
    let knocked = level(-200.0, 250.0);
    *app.world_mut().get_mut::<Transform>(agent).unwrap() = at(knocked);
    step(&mut app, 2);
    let path = waypoints(&app, agent);
    assert!(path[0].distance(knocked) < 5.0, "{path:?}");
    assert!(steps_to_arrive(&mut app, agent, 900).is_some());
}

#[test]
fn a_crowd_with_orca_keeps_off_the_walls_and_inside_the_outline() {
    let mut app = app();
    wall_with_a_door(&mut app, 0.0, 60.0);
    let outline: Vec<Vec2> = [
        (-400.0, -250.0),
        (400.0, -250.0),
        (400.0, 250.0),
        (-400.0, 250.0),
    ]
    .map(|(x, y)| Vec2::new(x, y))
    .to_vec();
    // Symmetric, so the same on the 3D floor plan (x, z).
    app.world_mut().resource_mut::<NavMeshSettings>().outline = outline;
    let agents: Vec<Entity> = (0..30)
        .map(|i| {
            let (column, row) = ((i % 5) as f32, (i / 5) as f32);
            let start = level(-300.0 + 20.0 * column, -100.0 + 30.0 * row);
            let goal = level(300.0 - 20.0 * column, 100.0 - 30.0 * row);
            spawn_boid(
                &mut app,
                (WALKER, at(start), Destination::new(goal), orca()),
            )
        })
        .collect();
    let mut deepest = f32::MIN;
    let mut outside = 0.0_f32;
    for _ in 0..1500 {
        app.update();
        for &agent in &agents {
            let p = flat(position(&app, agent));
            deepest = deepest.max(into_wall(position(&app, agent), 0.0, 60.0));
            outside = outside.max(p.x.abs() - 400.0).max(p.y.abs() - 250.0);
        }
    }
    assert!(deepest <= 1e-3, "a body reached {deepest} into the wall");
    assert!(outside <= 0.0, "an agent went {outside} past the outline");
    let arrived = agents
        .iter()
        .filter(|&&agent| status(&app, agent) == NavStatus::Arrived)
        .count();
    assert!(arrived >= 27, "{arrived} of 30 arrived");
    assert_sound(&mut app);
}

#[test]
fn a_destination_not_finite_or_with_bad_numbers_moves_nobody() {
    let mut app = app();
    let still = Vector::ZERO;
    let bad = [
        Destination::new(Vector::splat(f32::NAN)),
        Destination::new(Vector::splat(f32::INFINITY)),
        Destination {
            slow_radius: -1.0,
            ..Destination::new(level(100.0, 0.0))
        },
        Destination {
            weight: f32::NAN,
            ..Destination::new(level(100.0, 0.0))
        },
    ];
    let agents: Vec<Entity> = bad
        .iter()
        .enumerate()
        .map(|(i, destination)| {
            let start = level(-100.0, 40.0 * i as f32);
            spawn_boid(&mut app, (WALKER, at(start), *destination))
        })
        .collect();
    assert_refused_and_kept(&mut app, &agents, still);
    for &agent in &agents {
        assert_eq!(status(&app, agent), NavStatus::InvalidDestination);
    }
    // Made valid, it goes.
    app.world_mut()
        .get_mut::<Destination>(agents[0])
        .unwrap()
        .point = level(100.0, 0.0);
    assert!(steps_to_arrive(&mut app, agents[0], 600).is_some());
}

#[test]
fn a_destination_off_the_mesh_is_reached_at_its_nearest_walkable_point() {
    let mut app = app();
    wall_with_a_door(&mut app, 0.0, 40.0);
    // Inside the wall, and far outside the world.
    let inside = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-100.0, 100.0)),
            Destination::new(level(-2.0, 100.0)),
        ),
    );
    let beyond = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-100.0, -100.0)),
            Destination::new(level(-100.0, -5000.0)),
        ),
    );
    assert!(steps_to_arrive(&mut app, inside, 600).is_some());
    let near_the_wall = flat(position(&app, inside));
    assert!(
        (near_the_wall.x - (-5.0 - RADIUS)).abs() < 3.0,
        "{near_the_wall}"
    );
    assert!(steps_to_arrive(&mut app, beyond, 600).is_some());
    let at_the_edge = flat(position(&app, beyond));
    assert!(
        (at_the_edge.y - (-360.0 + RADIUS)).abs() < 3.0,
        "{at_the_edge}"
    );
    assert_sound(&mut app);
}

#[test]
fn an_agent_spawned_in_an_obstacle_or_outside_walks_out_and_arrives() {
    let mut app = app();
    app.world_mut()
        .spawn((at(level(0.0, 0.0)), box_obstacle(Vector::splat(50.0))));
    let goal = level(200.0, 0.0);
    let buried = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-10.0, 5.0)),
            Destination::new(goal),
            orca(),
        ),
    );
    let outside = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-700.0, 0.0)),
            Destination::new(level(-200.0, 0.0)),
        ),
    );
    assert!(steps_to_arrive(&mut app, buried, 900).is_some());
    assert!(position(&app, buried).distance(goal) < 3.0);
    assert!(steps_to_arrive(&mut app, outside, 900).is_some());
    assert_sound(&mut app);
}

#[test]
fn an_unreachable_destination_is_reported_and_the_agent_stays_sound() {
    let mut app = app();
    // A closed room round the destination.
    for (x, y, hx, hy) in [
        (200.0, 60.0, 60.0, 5.0),
        (200.0, -60.0, 60.0, 5.0),
        (140.0, 0.0, 5.0, 65.0),
        (260.0, 0.0, 5.0, 65.0),
    ] {
        app.world_mut()
            .spawn((at(level(x, y)), box_obstacle(xyz(hx, hy, hy))));
    }
    let agent = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-200.0, 0.0)),
            Destination::new(level(200.0, 0.0)),
        ),
    );
    step(&mut app, 120);
    assert_eq!(status(&app, agent), NavStatus::Unreachable);
    assert!(waypoints(&app, agent).is_empty());
    assert!(position(&app, agent).distance(level(-200.0, 0.0)) < 1.0);
    assert_eq!(boid_count(&mut app), 1);
    assert_sound(&mut app);
}

#[test]
fn no_walkable_area_or_bad_settings_keep_the_last_mesh_and_say_why() {
    let mut app = app();
    let agent = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-100.0, 0.0)),
            Destination::new(level(100.0, 0.0)),
        ),
    );
    step(&mut app, 2);
    let navmesh = app.world().resource::<FlockNavMesh>();
    let (generation, polygons) = (navmesh.generation(), navmesh.polygon_count());
    assert!(polygons > 0);
    let hostile = [
        NavMeshSettings {
            agent_radius: f32::NAN,
            ..navigation()
        },
        NavMeshSettings {
            agent_radius: 1.0e9,
            ..navigation()
        },
        NavMeshSettings {
            replan_distance: -1.0,
            ..navigation()
        },
        NavMeshSettings {
            outline: vec![Vec2::ZERO, Vec2::X],
            ..navigation()
        },
        NavMeshSettings {
            outline: vec![Vec2::ZERO, Vec2::new(f32::NAN, 1.0), Vec2::Y],
            ..navigation()
        },
        NavMeshSettings {
            outline: vec![Vec2::ZERO, Vec2::new(1.0e30, 0.0), Vec2::Y],
            ..navigation()
        },
        // A bow tie.
        NavMeshSettings {
            outline: [(0.0, 0.0), (100.0, 100.0), (100.0, 0.0), (0.0, 100.0)]
                .map(|(x, y)| Vec2::new(x, y))
                .to_vec(),
            ..navigation()
        },
        // Thinner than an agent.
        NavMeshSettings {
            outline: [(-300.0, 0.0), (300.0, 0.0), (300.0, 4.0), (-300.0, 4.0)]
                .map(|(x, y)| Vec2::new(x, y))
                .to_vec(),
            ..navigation()
        },
    ];
    for settings in hostile {
        app.insert_resource(settings.clone());
        step(&mut app, 2);
        let navmesh = app.world().resource::<FlockNavMesh>();
        assert!(navmesh.error().is_some(), "{settings:?}");
        assert_eq!(navmesh.generation(), generation, "{settings:?}");
        assert_eq!(navmesh.polygon_count(), polygons, "{settings:?}");
        assert_ne!(status(&app, agent), NavStatus::NoNavMesh);
    }
    assert!(steps_to_arrive(&mut app, agent, 600).is_some());
    assert_sound(&mut app);
}

#[test]
fn without_any_mesh_agents_wait_and_say_so() {
    let mut app = app();
    // Obstacles cover the whole world from the start.
    app.world_mut()
        .spawn((at(Vector::ZERO), box_obstacle(Vector::splat(5000.0))));
    let agent = spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-100.0, 0.0)),
            Destination::new(level(100.0, 0.0)),
        ),
    );
    step(&mut app, 60);
    let navmesh = app.world().resource::<FlockNavMesh>();
    assert!(navmesh.mesh().is_none());
    assert!(navmesh.error().is_some());
    assert_eq!(status(&app, agent), NavStatus::NoNavMesh);
    assert_eq!(velocity(&app, agent), Vector::ZERO);
    assert_sound(&mut app);
}

#[test]
fn path_queries_answer_with_the_shortest_way() {
    let mut app = app();
    wall_with_a_door(&mut app, 0.0, 40.0);
    spawn_boid(
        &mut app,
        (
            WALKER,
            at(level(-100.0, 0.0)),
            Destination::new(level(100.0, 0.0)),
        ),
    );
    step(&mut app, 1);
    let navmesh = app.world().resource::<FlockNavMesh>();
    let path = navmesh
        .path(level(-200.0, 200.0), level(200.0, 200.0))
        .unwrap();
    let length: f32 = path.points.windows(2).map(|w| w[0].distance(w[1])).sum();
    // Down to the door's upper corners (the radius below them) and back up.
    let corner = level(-5.0, 20.0 - RADIUS);
    let shortest = 2.0 * level(-200.0, 200.0).distance(corner) + 10.0;
    assert!((length - shortest).abs() < 3.0, "{length} vs {shortest}");
    assert_eq!(
        navmesh
            .path(level(0.0, 100.0), level(0.0, 100.0))
            .map(|p| p.destination_moved),
        Ok(true)
    );
}
