//! Lockstep against what a real game does to its own world: peers whose worlds differ in what
//! the simulation does not read (entities a window peer has and a headless one lacks, a
//! selection or audio marker on some boids, added and removed mid-run) step the same flock, with
//! every behaviour that keeps state or depends on order, to the same state hash on every update.
//! `bevy_flock3d` runs it in 3D too (`[[test]] path` in its manifest).

#[cfg(flock_3d)]
extern crate bevy_flock3d as bevy_flock;

mod common;

use bevy::prelude::*;
use bevy_flock::flock_core::{Bounds, planar, world_size};
use bevy_flock::prelude::*;
use bevy_flock::{BoidId, FlockBuffers, FlockStateHash, Hunt, SpeciesRelations};

use common::{ball_obstacle, create_app, spawn};

const BOIDS: usize = 600;
const UPDATES: usize = 400;

/// A game's marker on the boids its player selected: only this peer has it.
#[derive(Component)]
struct Selected;

/// A game's marker on the boids it plays sounds for: only this peer has it.
#[derive(Component)]
struct Audible(#[allow(dead_code)] u32);

/// What a peer does to its world that the others do not.
#[derive(Clone, Copy, Default)]
struct LocalDifferences {
    /// Entities spawned before the flock (a window, a camera, text): every boid's `Entity`
    /// differs from the other peers'.
    spawned_first: usize,
    /// `Selected` on every third boid from this update to that one.
    selected: Option<(usize, usize)>,
    /// `Audible` on every fifth boid from this update on.
    audible_from: Option<usize>,
    /// A local entity spawned and one despawned on every update (particles, UI), so the
    /// entities the flock's spawns reuse differ too.
    churn: bool,
}

/// One peer: the same flock from the same seed, with its own local differences.
struct Peer {
    app: App,
    boids: Vec<Entity>,
    local: LocalDifferences,
    churned: Vec<Entity>,
}

impl Peer {
    fn new(local: LocalDifferences) -> Self {
        let settings = FlockSettings {
            config: FlockConfig {
                view_angle_degrees: 270.0,
                bounds: Bounds::centered(world_size(700.0, 500.0)),
                ..FlockConfig::default()
            },
            ..default()
        };
        let mut app = create_app(settings, 23);
        for i in 0..local.spawned_first {
            app.world_mut()
                .spawn((Name::new(format!("local {i}")), Transform::default()));
        }
        app.insert_resource(SpeciesRelations {
            hunts: vec![Hunt {
                predator: 1,
                prey: 0,
                flee_radius: 70.0,
                flee_weight: 2.0,
                chase_radius: 140.0,
                chase_weight: 1.0,
                max_look_ahead: 1.0,
            }],
        });
        // Far boids avoid collisions one step in three, taking turns by id.
        app.insert_resource(TimeSlicing::new(3, 60.0));
        let boids = spawn(&mut app, BOIDS, Placement::RandomInBounds);
        give_behaviours(app.world_mut(), &boids);
        Self {
            app,
            boids,
            local,
            churned: Vec::new(),
        }
    }

    /// Applies this peer's local changes due at `update`, then steps once.
    fn update(&mut self, update: usize) {
        let local = self.local;
        let world = self.app.world_mut();
        if let Some((from, to)) = local.selected {
            for &boid in self.boids.iter().step_by(3) {
                if update == from {
                    world.entity_mut(boid).insert(Selected);
                } else if update == to {
                    world.entity_mut(boid).remove::<Selected>();
                }
            }
        }
        if local.audible_from == Some(update) {
            for (i, &boid) in self.boids.iter().enumerate().step_by(5) {
                world.entity_mut(boid).insert(Audible(i as u32));
            }
        }
        if local.churn {
            self.churned.push(world.spawn(Transform::default()).id());
            if update % 2 == 1 {
                let gone = self.churned.remove(0);
                world.despawn(gone);
            }
        }
        self.app.update();
    }

    fn hash(&mut self) -> u64 {
        self.app
            .world_mut()
            .run_system_cached(|hash: FlockStateHash| hash.get())
            .expect("the hash system runs")
    }
}

/// Every behaviour whose result depends on an order or keeps state of its own, spread over the
/// flock; the same on every peer.
fn give_behaviours(world: &mut World, boids: &[Entity]) {
    let leader = boids[0];
    world.entity_mut(leader).insert(Formation {
        shape: FormationShape::Ring,
        spacing: 25.0,
        offset: Vector::ZERO,
    });
    let group = world
        .spawn(BoidGroup {
            target: planar(150.0, 100.0),
            params: GroupParams::default(),
        })
        .id();
    let rock = world
        .spawn((ball_obstacle(40.0), Transform::from_xyz(-120.0, 60.0, 0.0)))
        .id();
    let door = planar(200.0, -150.0);
    for (i, &boid) in boids.iter().enumerate().skip(1) {
        let mut boid = world.entity_mut(boid);
        match i % 10 {
            0 => boid.insert(Wander::default()),
            1 => boid.insert(FollowLeader::new(leader)),
            2 if i < 40 => boid.insert(FormationMember::new(leader)),
            2 => boid.insert(Wander::default()),
            3 => boid.insert(GroupMember::new(group, DriveParams::default())),
            4 => boid.insert((
                Orca {
                    params: OrcaParams {
                        radius: 5.0,
                        ..OrcaParams::default()
                    },
                },
                Seek {
                    target: Target::Point(planar(-200.0, -100.0)),
                    weight: 1.0,
                },
            )),
            5 => boid.insert((
                ContextSteering {
                    params: ContextParams::default(),
                    walls: true,
                },
                Arrive {
                    target: Target::Entity(rock),
                    slow_radius: 80.0,
                    weight: 1.0,
                    speed: None,
                },
            )),
            6 => boid.insert(Queue::for_door(door)),
            7 => boid.insert(AvoidCollisions {
                params: CollisionParams {
                    min_distance: 12.0,
                    horizon: 1.0,
                },
                weight: 2.0,
            }),
            8 => boid.insert(Species(1)),
            _ => boid.insert((
                AvoidObstacles {
                    look_ahead: 60.0,
                    clearance: 10.0,
                    weight: 2.0,
                },
                Species(0),
            )),
        };
    }
}

/// Steps a reference peer and `others` side by side and checks the hashes on every update.
fn assert_in_lockstep(others: &[LocalDifferences]) {
    let mut reference = Peer::new(LocalDifferences::default());
    let mut peers: Vec<Peer> = others.iter().map(|&local| Peer::new(local)).collect();
    let start = reference.hash();
    for update in 0..UPDATES {
        reference.update(update);
        let expected = reference.hash();
        for (which, peer) in peers.iter_mut().enumerate() {
            peer.update(update);
            assert_eq!(
                peer.hash(),
                expected,
                "peer {which} left lockstep at update {update}"
            );
        }
    }
    assert_ne!(reference.hash(), start, "the flock moved");
}

#[test]
fn a_component_of_one_peer_on_some_boids_keeps_lockstep() {
    assert_in_lockstep(&[
        LocalDifferences {
            selected: Some((1, 200)),
            ..default()
        },
        LocalDifferences {
            audible_from: Some(50),
            selected: Some((120, 300)),
            ..default()
        },
    ]);
}

#[test]
fn a_peer_with_other_entities_keeps_lockstep() {
    assert_in_lockstep(&[
        LocalDifferences {
            spawned_first: 37,
            ..default()
        },
        LocalDifferences {
            spawned_first: 5,
            churn: true,
            selected: Some((10, 250)),
            ..default()
        },
    ]);
}

#[test]
fn boids_get_ids_in_spawn_order_whatever_else_is_spawned() {
    let mut peer = Peer::new(LocalDifferences {
        spawned_first: 11,
        ..default()
    });
    let ids: Vec<BoidId> = (peer.boids.iter())
        .map(|&boid| *peer.app.world().get::<BoidId>(boid).unwrap())
        .collect();
    assert_eq!(ids, (0..BOIDS as u64).map(BoidId).collect::<Vec<_>>());
    // The next boid continues the count; an explicit id is kept.
    let world = peer.app.world_mut();
    let next = world.spawn(Boid).id();
    let explicit = world.spawn((Boid, BoidId(5_000))).id();
    let after = world.spawn(Boid).id();
    let id = |entity| *peer.app.world().get::<BoidId>(entity).unwrap();
    assert_eq!(
        [id(next), id(explicit), id(after)],
        [BoidId(BOIDS as u64), BoidId(5_000), BoidId(5_001)]
    );
}

#[test]
fn the_buffers_are_in_id_order_whatever_the_query_order() {
    let mut peer = Peer::new(LocalDifferences {
        selected: Some((0, UPDATES)),
        ..default()
    });
    peer.update(0);
    peer.update(1);
    let buffers = peer.app.world().resource::<FlockBuffers>();
    assert_eq!(buffers.ids().len(), BOIDS);
    assert!(buffers.ids().is_sorted_by(|a, b| a < b));
    for (&id, &entity) in buffers.ids().iter().zip(buffers.entities()) {
        assert_eq!(peer.app.world().get::<BoidId>(entity), Some(&id));
    }
}

#[test]
fn explicit_ids_that_clash_or_sit_at_the_end_of_the_range_lose_no_boid() {
    let mut peer = Peer::new(LocalDifferences::default());
    let world = peer.app.world_mut();
    // Two boids with one id, one at the largest id, one given the unassigned marker itself.
    let clashing = [
        world.spawn((Boid, BoidId(7))).id(),
        world.spawn((Boid, BoidId(u64::MAX - 1))).id(),
        world.spawn((Boid, BoidId::UNASSIGNED)).id(),
    ];
    let marker_replaced = *world.get::<BoidId>(clashing[2]).unwrap();
    assert_ne!(marker_replaced, BoidId::UNASSIGNED);
    for update in 0..30 {
        peer.update(update);
    }
    assert_eq!(common::boid_count(&mut peer.app), BOIDS + clashing.len());
    common::assert_sound(&mut peer.app);
}
