//! `LockstepPlugin` played as a game would: three players in this process, one putting a
//! marker of its own on a third of its boids and carrying what a window app adds, one joining
//! late from a snapshot, random inputs from all; a desync; and a peer that restores a saved
//! state to replay it.

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use std::time::Duration;

use bevy::prelude::*;
use bevy_flock::lockstep::{
    FlockCommand, FlockSnapshot, LockstepConfig, LockstepEnd, LockstepRole, LockstepState,
    LockstepTick, TickInputs,
};
use bevy_flock::prelude::*;
use common::lockstep_game::{
    BoidCountLog, HashLog, Play, Selected, config, connect, ended, lockstep, peer, player_random,
    random_play, start_flock,
};

const BOIDS: usize = 400;
const TICKS: u64 = 600;
const LATE_JOIN: u64 = 200;

/// Puts `Selected` on every third boid of this peer while its tick is in `from..until`, and
/// takes it off after: the boids change ECS tables mid-game on this peer alone.
fn select_thirds(app: &mut App, from: u64, until: u64) {
    let tick = lockstep(app).tick();
    let world = app.world_mut();
    let mut boids = world.query_filtered::<(Entity, &BoidId, Has<Selected>), With<Boid>>();
    let changes: Vec<(Entity, bool)> = boids
        .iter(world)
        .filter(|(_, id, _)| id.0 % 3 == 0)
        .filter_map(|(entity, _, selected)| {
            let wanted = (from..until).contains(&tick);
            (wanted != selected).then_some((entity, wanted))
        })
        .collect();
    for (entity, wanted) in changes {
        if wanted {
            world.entity_mut(entity).insert(Selected);
        } else {
            world.entity_mut(entity).remove::<Selected>();
        }
    }
}

/// What a window app has that a headless one lacks: a window, a camera, text, and a sprite on
/// every boid (entities before and among the boids, components on them).
fn dress_as_window_app(app: &mut App) {
    let world = app.world_mut();
    world.spawn(bevy::window::Window::default());
    #[cfg(not(flock_3d))]
    world.spawn(Camera2d);
    #[cfg(flock_3d)]
    world.spawn(Camera3d::default());
    world.spawn(Text2d::new("tick"));
    let mut boids = world.query_filtered::<Entity, (With<Boid>, Without<Sprite>)>();
    let undressed: Vec<Entity> = boids.iter(world).collect();
    for boid in undressed {
        world.entity_mut(boid).insert(Sprite::default());
    }
}

/// Runs every peer an update at a time, each queuing a random play now and then, until every
/// one has run and checked `ticks` ticks or one has ended; `each` runs on every peer after its
/// update.
fn play(peers: &mut [App], ticks: u64, mut each: impl FnMut(usize, &mut App)) {
    let mut randoms: Vec<_> = (0..peers.len() as u64).map(player_random).collect();
    for _ in 0..20_000 {
        for (index, app) in peers.iter_mut().enumerate() {
            if lockstep(app).state() == &LockstepState::Playing
                && let Some(play) = random_play(&mut randoms[index])
            {
                app.world_mut()
                    .resource_mut::<bevy_flock::lockstep::Lockstep<common::lockstep_game::Play>>()
                    .queue(play);
            }
            app.update();
            each(index, app);
        }
        if peers.iter().any(ended)
            || peers
                .iter()
                .all(|app| lockstep(app).checked_through() >= ticks)
        {
            return;
        }
    }
    panic!("the game did not reach tick {ticks}");
}

fn hash_log(app: &App) -> &std::collections::BTreeMap<u64, u64> {
    &app.world().resource::<HashLog>().0
}

#[test]
fn three_players_agree_on_every_tick_with_markers_a_window_and_a_late_join() {
    let host_role = LockstepRole::Host {
        max_players: 3,
        start_with: 2,
    };
    let mut host = peer(config(host_role));
    start_flock(&mut host, BOIDS, 3);
    let mut marked = peer(config(LockstepRole::Guest));
    // The marked peer has other entities before the flock arrives.
    for _ in 0..37 {
        marked.world_mut().spawn(Transform::default());
    }
    connect(&mut host, &mut marked, 1, Duration::ZERO);
    let mut peers = vec![host, marked];
    play(&mut peers, LATE_JOIN, |index, app| {
        if index == 1 {
            select_thirds(app, 20, 150);
            dress_as_window_app(app);
        }
    });
    assert!(
        peers.iter().all(|app| !ended(app)),
        "{:?}",
        lockstep(&peers[0]).state()
    );

    let mut late = peer(config(LockstepRole::Guest));
    connect(&mut peers[0], &mut late, 2, Duration::ZERO);
    peers.push(late);
    play(&mut peers, TICKS, |index, app| {
        if index == 1 {
            select_thirds(app, 250, 450);
            dress_as_window_app(app);
        }
    });
    for app in &peers {
        let lockstep = lockstep(app);
        assert_eq!(lockstep.state(), &LockstepState::Playing);
        assert!(lockstep.checked_through() >= TICKS);
        assert_eq!(lockstep.players(), vec![0, 1, 2]);
    }
    let joined_at = *hash_log(&peers[2])
        .keys()
        .next()
        .expect("the late player ran ticks");
    assert!(joined_at > LATE_JOIN, "joined at tick {joined_at}");
    for tick in 1..=TICKS {
        let hashes: Vec<Option<&u64>> = peers.iter().map(|app| hash_log(app).get(&tick)).collect();
        assert_eq!(hashes[0], hashes[1], "tick {tick}");
        if tick >= joined_at {
            assert_eq!(hashes[0], hashes[2], "tick {tick}");
        }
    }
    // Every peer has run tick `TICKS`, but some may have run a few more.
    let counts: Vec<Option<usize>> = peers
        .iter()
        .map(|app| {
            app.world()
                .resource::<BoidCountLog>()
                .0
                .get(&TICKS)
                .copied()
        })
        .collect();
    let host_count = counts[0].expect("the host ran the last tick");
    assert!(
        host_count > BOIDS + 3,
        "the players' clicks spawned boids: {counts:?}"
    );
    assert!(
        counts.iter().all(|&count| count == Some(host_count)),
        "{counts:?}"
    );
    assert!(lockstep(&peers[2]).snapshot_bytes() > 0);
}

#[test]
fn a_boid_moved_on_one_peer_alone_is_a_desync_at_its_tick_on_every_peer() {
    let no_resync = |role| LockstepConfig {
        resync: false,
        ..config(role)
    };
    let mut host = peer(no_resync(LockstepRole::Host {
        max_players: 2,
        start_with: 2,
    }));
    start_flock(&mut host, BOIDS, 2);
    let mut guest = peer(no_resync(LockstepRole::Guest));
    connect(&mut host, &mut guest, 1, Duration::ZERO);
    let mut peers = vec![host, guest];
    let mut nudged_after = None;
    play(&mut peers, TICKS, |index, app| {
        if index == 1 && nudged_after.is_none() && lockstep(app).tick() >= 100 {
            let tick = lockstep(app).tick();
            let world = app.world_mut();
            let mut boids = world.query_filtered::<(&BoidId, &mut Transform), With<Boid>>();
            let mut boids: Vec<_> = boids.iter_mut(world).collect();
            boids.sort_by_key(|(id, _)| **id);
            let middle = boids.len() / 2;
            let (id, transform) = &mut boids[middle];
            transform.translation.x += 1.0;
            nudged_after = Some((tick, id.0));
        }
    });
    let (nudged_after, nudged) = nudged_after.expect("the guest reached tick 100");
    for _ in 0..50 {
        peers.iter_mut().for_each(App::update);
    }
    for app in &peers {
        match lockstep(app).state() {
            LockstepState::Ended(LockstepEnd::Desync(desync)) => {
                assert_eq!(desync.tick, nudged_after + 1, "{desync}");
                let report = lockstep(app)
                    .desync_report()
                    .expect("the boid was looked for");
                // The nudged boid differs, and so may its neighbours after one step: the first
                // named is it or one before it.
                let named: Vec<u64> = report
                    .rsplit_once("ids [")
                    .and_then(|(_, list)| list.strip_suffix(']'))
                    .map(|list| list.split(", ").filter_map(|id| id.parse().ok()).collect())
                    .unwrap_or_default();
                assert!(
                    named.first().is_some_and(|&first| first <= nudged),
                    "{report}, nudged {nudged}"
                );
            }
            other => panic!("no desync: {other:?}"),
        }
    }
}

#[test]
fn a_saved_state_restored_replays_the_same_ticks() {
    let mut host = peer(config(LockstepRole::Host {
        max_players: 1,
        start_with: 1,
    }));
    start_flock(&mut host, BOIDS, 1);
    let mut peers = vec![host];
    play(&mut peers, 100, |_, _| {});
    let mut host = peers.remove(0);
    let tick = lockstep(&host).tick();
    let saved = FlockSnapshot::save(host.world(), tick);
    let bytes = saved.to_bytes();
    let read = FlockSnapshot::from_bytes(&bytes).expect("its own bytes read back");
    assert_eq!(read, saved);
    // Run on, then put the saved state into a fresh app and run it the same ticks alone.
    let hash_then = |app: &mut App| {
        app.world_mut()
            .run_system_cached(|hash: bevy_flock::FlockStateHash| hash.get())
            .unwrap()
    };
    let saved_hash = hash_then(&mut host);
    let mut replay = peer(config(LockstepRole::Host {
        max_players: 1,
        start_with: 1,
    }));
    replay.world_mut().spawn(Transform::default());
    read.restore(replay.world_mut()).expect("it restores");
    assert_eq!(hash_then(&mut replay), saved_hash);
    let mut tick_time = Time::<()>::default();
    tick_time.advance_by(Duration::from_secs_f64(1.0 / 60.0));
    for app in [&mut host, &mut replay] {
        app.world_mut().insert_resource(tick_time);
        for _ in 0..30 {
            app.world_mut()
                .run_schedule(bevy_flock::lockstep::LockstepTick);
        }
    }
    assert_eq!(hash_then(&mut host), hash_then(&mut replay));
}

#[test]
fn a_settings_change_made_locally_travels_as_a_command_to_every_peer() {
    let mut host = peer(config(LockstepRole::Host {
        max_players: 2,
        start_with: 2,
    }));
    start_flock(&mut host, 100, 2);
    let mut guest = peer(config(LockstepRole::Guest));
    connect(&mut host, &mut guest, 1, Duration::ZERO);
    let mut peers = vec![host, guest];
    play(&mut peers, 20, |_, _| {});
    // The guest's panel moves a slider; the host's player pauses through a command.
    peers[1]
        .world_mut()
        .resource_mut::<FlockSettings>()
        .config
        .weights
        .cohesion = 2.5;
    peers[0]
        .world_mut()
        .resource_mut::<bevy_flock::lockstep::Lockstep<common::lockstep_game::Play>>()
        .queue_flock(FlockCommand::Pause);
    play(&mut peers, 60, |_, _| {});
    for app in &peers {
        assert_eq!(
            app.world()
                .resource::<FlockSettings>()
                .config
                .weights
                .cohesion,
            2.5
        );
        assert!(app.world().resource::<FlockClock>().is_paused());
        assert_eq!(lockstep(app).state(), &LockstepState::Playing);
    }
}

#[test]
fn a_game_with_a_last_tick_finishes_on_every_peer_there() {
    let last = |role| bevy_flock::lockstep::LockstepConfig {
        last_tick: Some(120),
        ..config(role)
    };
    let mut host = peer(last(LockstepRole::Host {
        max_players: 3,
        start_with: 2,
    }));
    start_flock(&mut host, 100, 3);
    let mut guest = peer(last(LockstepRole::Guest));
    connect(&mut host, &mut guest, 1, Duration::ZERO);
    let mut peers = vec![host, guest];
    for _ in 0..10 {
        peers.iter_mut().for_each(App::update);
    }
    let mut late = peer(last(LockstepRole::Guest));
    connect(&mut peers[0], &mut late, 2, Duration::ZERO);
    peers.push(late);
    for _ in 0..500 {
        peers.iter_mut().for_each(App::update);
    }
    for app in &peers {
        assert_eq!(lockstep(app).state(), &LockstepState::Finished);
        assert_eq!(lockstep(app).tick(), 120);
        assert_eq!(lockstep(app).checked_through(), 120);
    }
    // A player who comes after the end is told so.
    let mut after = peer(last(LockstepRole::Guest));
    connect(&mut peers[0], &mut after, 3, Duration::ZERO);
    for _ in 0..10 {
        peers[0].update();
        after.update();
    }
    match lockstep(&after).state() {
        LockstepState::Ended(LockstepEnd::Refused(why)) => assert!(why.contains("over"), "{why}"),
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn a_player_out_of_step_is_sent_the_game_again_and_everyone_plays_on() {
    let mut host = peer(config(LockstepRole::Host {
        max_players: 3,
        start_with: 3,
    }));
    start_flock(&mut host, BOIDS, 3);
    let mut honest = peer(config(LockstepRole::Guest));
    let mut nudged = peer(config(LockstepRole::Guest));
    connect(&mut host, &mut honest, 1, Duration::ZERO);
    connect(&mut host, &mut nudged, 2, Duration::ZERO);
    let mut peers = vec![host, honest, nudged];
    let mut nudged_at = None;
    play(&mut peers, 300, |index, app| {
        if index == 2 && nudged_at.is_none() && lockstep(app).tick() >= 100 {
            nudged_at = Some(lockstep(app).tick());
            let world = app.world_mut();
            let mut boids = world.query_filtered::<&mut Transform, With<Boid>>();
            if let Some(mut transform) = boids.iter_mut(world).next() {
                transform.translation.x += 1.0;
            }
        }
    });
    let nudged_at = nudged_at.expect("the third player reached tick 100");
    for app in &peers {
        assert_eq!(lockstep(app).state(), &LockstepState::Playing);
        assert!(lockstep(app).checked_through() >= 300);
    }
    // The nudged player plays on under a new index, from the host's state.
    let again = lockstep(&peers[2]).player().expect("seated again");
    assert_ne!(again, 2);
    assert_eq!(lockstep(&peers[0]).players(), vec![0, 1, again]);
    let rejoined = lockstep(&peers[0]).tick().min(lockstep(&peers[2]).tick());
    let logs: Vec<_> = peers.iter().map(hash_log).collect();
    for tick in 1..=300 {
        assert_eq!(
            logs[0].get(&tick),
            logs[1].get(&tick),
            "the honest pair at tick {tick}"
        );
    }
    let first_again = (nudged_at + 1..=rejoined)
        .find(|tick| logs[2].get(tick) == logs[0].get(tick) && logs[0].contains_key(tick))
        .expect("the nudged player agrees again");
    for tick in first_again..=300 {
        assert_eq!(
            logs[0].get(&tick),
            logs[2].get(&tick),
            "the resynced player at tick {tick}"
        );
    }
}

/// A wall across the middle of the world with a door of 60 in it.
fn wall_with_a_door(app: &mut App) {
    for (from, to) in [(40.0, 300.0), (-300.0, -20.0)] {
        let half: f32 = (to - from) / 2.0;
        app.world_mut().spawn((
            common::at(level(0.0, from + half)),
            common::box_obstacle(common::xyz(5.0, half, half)),
        ));
    }
}

/// Every fourth boid of the host's flock gets `Orca` and a destination across the wall.
fn send_a_crowd_through_the_door(app: &mut App) {
    let world = app.world_mut();
    let mut boids = world.query_filtered::<(Entity, &BoidId, &Transform), With<Boid>>();
    let agents: Vec<(Entity, f32)> = boids
        .iter(world)
        .filter(|(_, id, _)| id.0 % 4 == 2)
        .map(|(entity, _, transform)| (entity, transform.translation.x))
        .collect();
    for (entity, x) in agents {
        world.entity_mut(entity).insert((
            Orca {
                params: OrcaParams {
                    radius: 6.0,
                    ..OrcaParams::default()
                },
            },
            Destination::new(level(-x.signum() * 350.0, 0.0)),
        ));
    }
}

/// How many agents had a planned path and were under way after each tick of this peer.
#[derive(Resource, Default)]
struct UnderWayLog(std::collections::BTreeMap<u64, usize>);

fn log_under_way(
    inputs: Res<TickInputs<Play>>,
    paths: Query<&NavPath>,
    mut log: ResMut<UnderWayLog>,
) {
    let moving = paths
        .iter()
        .filter(|path| path.status() == NavStatus::Moving && path.waypoints().len() > 1)
        .count();
    log.0.insert(inputs.tick, moving);
}

/// Logs the agents under way on this peer at every tick: peers stop at different ticks, so
/// they are compared tick by tick.
fn log_agents_under_way(app: &mut App) {
    app.init_resource::<UnderWayLog>().add_systems(
        LockstepTick,
        log_under_way.after(FlockSystems::TransformSync),
    );
}

fn under_way_log(app: &App) -> &std::collections::BTreeMap<u64, usize> {
    &app.world().resource::<UnderWayLog>().0
}

#[test]
fn a_late_joiner_plays_on_in_step_with_a_crowd_on_its_way_through_a_level() {
    const JOIN_AFTER: u64 = 120;
    const UNTIL: u64 = 420;
    let host_role = LockstepRole::Host {
        max_players: 2,
        start_with: 1,
    };
    let mut host = peer(config(host_role));
    log_agents_under_way(&mut host);
    // Only the host has the level's settings: the joiner receives them.
    host.insert_resource(NavMeshSettings {
        agent_radius: 6.0,
        ..default()
    });
    start_flock(&mut host, 200, 2);
    wall_with_a_door(&mut host);
    send_a_crowd_through_the_door(&mut host);
    let mut peers = vec![host];
    play(&mut peers, JOIN_AFTER, |_, app| {
        // A crate dropped in a corner midway: the host's mesh is built a second time, the
        // joiner's (from the level as it is then) once.
        if lockstep(app).tick() == JOIN_AFTER / 2 {
            app.world_mut().spawn((
                common::at(level(400.0, 250.0)),
                common::box_obstacle(common::xyz(10.0, 10.0, 10.0)),
            ));
        }
    });
    let generations = |app: &App| app.world().resource::<FlockNavMesh>().generation();
    assert_eq!(generations(&peers[0]), 2);
    let moving = under_way_log(&peers[0]).get(&JOIN_AFTER).copied();
    assert!(
        moving > Some(20),
        "{moving:?} agents under way when the player joins"
    );

    let mut late = peer(config(LockstepRole::Guest));
    log_agents_under_way(&mut late);
    connect(&mut peers[0], &mut late, 1, Duration::ZERO);
    peers.push(late);
    play(&mut peers, UNTIL, |_, _| {});
    let joined_at = *hash_log(&peers[1])
        .keys()
        .next()
        .expect("the late player ran ticks");
    assert!(joined_at > JOIN_AFTER, "joined at tick {joined_at}");
    assert_eq!(generations(&peers[1]), 1);
    for tick in joined_at..=UNTIL {
        assert_eq!(
            hash_log(&peers[0]).get(&tick),
            hash_log(&peers[1]).get(&tick),
            "tick {tick}"
        );
        assert_eq!(
            under_way_log(&peers[0]).get(&tick),
            under_way_log(&peers[1]).get(&tick),
            "agents under way at tick {tick}"
        );
    }
    let settings = |app: &App| app.world().resource::<NavMeshSettings>().agent_radius;
    assert_eq!(settings(&peers[1]), 6.0);
}
