//! A small lockstep game on the library's `LockstepPlugin`, for the tests: players click to
//! spawn boids and move their own predator; peers are apps in this process joined by
//! `LocalLink`s, run in turn.

use std::time::Duration;

use bevy::prelude::*;
use bevy_flock::FlockStateHash;
use bevy_flock::flock_core::{Bounds, Vector, world_size};
use bevy_flock::lockstep::{
    LinkId, LocalLink, LocalLinks, Lockstep, LockstepAppExt, LockstepConfig, LockstepInput,
    LockstepPlugin, LockstepRole, LockstepState, LockstepTick, Pacing, TickInputs, WireError,
    WireReader,
};
use bevy_flock::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// The furthest from the origin an input may point.
const REACH: f32 = 10_000.0;

/// What a player does.
#[derive(Debug, Clone, PartialEq)]
pub enum Play {
    /// `count` boids at a point.
    Spawn { at: Vector, count: u8 },
    /// The player's predator seeks a point.
    Hunt { at: Vector },
}

fn put_vector(bytes: &mut Vec<u8>, vector: Vector) {
    for value in vector.to_array() {
        bytes.extend(value.to_le_bytes());
    }
}

fn vector(reader: &mut WireReader) -> Result<Vector, WireError> {
    let mut values = [0.0; bevy_flock::flock_core::DIMENSIONS];
    for value in &mut values {
        *value = reader.f32_within("coordinate", REACH)?;
    }
    Ok(Vector::from_array(values))
}

impl LockstepInput for Play {
    fn encode(&self, bytes: &mut Vec<u8>) {
        match self {
            Self::Spawn { at, count } => {
                bytes.push(0);
                put_vector(bytes, *at);
                bytes.push(*count);
            }
            Self::Hunt { at } => {
                bytes.push(1);
                put_vector(bytes, *at);
            }
        }
    }

    fn decode(reader: &mut WireReader) -> Result<Self, WireError> {
        match reader.u8()? {
            0 => {
                let at = vector(reader)?;
                let count = reader.u8()?;
                if !(1..=16).contains(&count) {
                    return Err(WireError::Invalid {
                        what: "spawn count",
                        why: format!("{count} (1 to 16)"),
                    });
                }
                Ok(Self::Spawn { at, count })
            }
            1 => Ok(Self::Hunt {
                at: vector(reader)?,
            }),
            tag => Err(WireError::UnknownTag { what: "play", tag }),
        }
    }
}

/// A player's predator: part of the game's simulation, so it travels in the snapshot.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Default)]
pub struct Hunter(pub u8);

/// A marker a peer puts on some boids for itself (a selection, a level of detail).
#[derive(Component)]
pub struct Selected;

/// Every hash this peer's flock had after each tick.
#[derive(Resource, Default)]
pub struct HashLog(pub std::collections::BTreeMap<u64, u64>);

/// How many boids this peer had after each tick: peers stop at different ticks, so counts are
/// compared tick by tick, never at the end of a run.
#[derive(Resource, Default)]
pub struct BoidCountLog(pub std::collections::BTreeMap<u64, usize>);

/// The players' inputs take effect at the end of their tick, in order: the boids a click
/// adds get the same ids everywhere.
fn apply_plays(world: &mut World) {
    let tick_inputs = std::mem::take(&mut world.resource_mut::<TickInputs<Play>>().inputs);
    for (player, play) in &tick_inputs {
        match *play {
            Play::Spawn { at, count } => {
                bevy_flock::spawn_boids(world, count as usize, Placement::At(at));
            }
            Play::Hunt { at } => {
                let mut hunters = world.query::<(Entity, &Hunter)>();
                let hunter = (hunters.iter(world)).find(|(_, hunter)| hunter.0 == *player);
                if let Some((hunter, _)) = hunter {
                    world.entity_mut(hunter).insert(Seek {
                        target: Target::Point(at),
                        weight: 1.5,
                    });
                }
            }
        }
    }
    world.resource_mut::<TickInputs<Play>>().inputs = tick_inputs;
}

fn log_hash(
    inputs: Res<TickInputs<Play>>,
    hash: FlockStateHash,
    boids: Query<(), With<Boid>>,
    mut hashes: ResMut<HashLog>,
    mut counts: ResMut<BoidCountLog>,
) {
    hashes.0.insert(inputs.tick, hash.get());
    counts.0.insert(inputs.tick, boids.iter().count());
}

/// The game's starting flock, made by the host alone (guests receive it): boids, and one
/// predator for each of `players`.
pub fn start_flock(app: &mut App, boids: usize, players: u8) {
    let world = app.world_mut();
    world.resource_mut::<FlockRng>().reseed(7);
    for (index, boid) in bevy_flock::spawn_boids(world, boids, Placement::RandomInBounds)
        .into_iter()
        .enumerate()
    {
        match index % 4 {
            0 => {
                world.entity_mut(boid).insert(Wander::default());
            }
            // Collision prediction sliced over three steps: each boid keeps its last answer.
            1 => {
                world.entity_mut(boid).insert(AvoidCollisions {
                    params: CollisionParams {
                        min_distance: 12.0,
                        horizon: 1.0,
                    },
                    weight: 2.0,
                });
            }
            _ => {}
        }
    }
    for player in 0..players {
        let hunters = bevy_flock::spawn_boids(world, 1, Placement::RandomInBounds);
        world
            .entity_mut(hunters[0])
            .insert((Hunter(player), Species(1)));
    }
}

/// The lockstep settings of every peer of the tests' games.
pub fn config(role: LockstepRole) -> LockstepConfig {
    LockstepConfig {
        role,
        pacing: Pacing::Unpaced,
        max_ticks_per_update: 4,
        stall_timeout: Duration::from_secs(20),
        ..default()
    }
}

/// A peer's app: the flock in `LockstepTick`, the game's inputs applied after each step.
pub fn peer(config: LockstepConfig) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        BoidsPlugin::new(LockstepTick),
        LockstepPlugin::<Play>::new(config),
    ))
    .insert_resource(FlockSettings {
        config: FlockConfig {
            bounds: Bounds::centered(world_size(900.0, 600.0)),
            ..FlockConfig::default()
        },
        max_boids: 5_000,
        ..default()
    })
    .insert_resource(TimeSlicing::new(3, 60.0))
    .add_lockstep_component::<Hunter>()
    .init_resource::<HashLog>()
    .init_resource::<BoidCountLog>()
    .add_systems(
        LockstepTick,
        (apply_plays, log_hash)
            .chain()
            .after(FlockSystems::TransformSync),
    );
    app.finish();
    app.cleanup();
    app
}

/// Joins `guest` to `host` over a new in-process link named `link` on the host's side.
pub fn connect(host: &mut App, guest: &mut App, link: u64, latency: Duration) {
    let (host_end, guest_end) = LocalLink::pair(LinkId(link), latency);
    host.world_mut()
        .resource_mut::<LocalLinks>()
        .0
        .push(host_end);
    guest
        .world_mut()
        .resource_mut::<LocalLinks>()
        .0
        .push(guest_end);
}

/// This peer's lockstep.
pub fn lockstep(app: &App) -> &Lockstep<Play> {
    app.world().resource::<Lockstep<Play>>()
}

/// Whether the peer has ended.
pub fn ended(app: &App) -> bool {
    matches!(lockstep(app).state(), LockstepState::Ended(_))
}

/// A restless player: now and then a click or a predator's move, somewhere in the bounds.
pub fn random_play(random: &mut Xoshiro256PlusPlus) -> Option<Play> {
    let roll: f32 = random.random();
    let mut point = || {
        let values =
            [0; bevy_flock::flock_core::DIMENSIONS].map(|_| random.random_range(-300.0..=300.0));
        Vector::from_array(values)
    };
    if roll < 0.03 {
        Some(Play::Spawn {
            at: point(),
            count: 3,
        })
    } else if roll < 0.08 {
        Some(Play::Hunt { at: point() })
    } else {
        None
    }
}

/// A generator of a player's plays.
pub fn player_random(player: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(0x9a3e ^ player)
}
