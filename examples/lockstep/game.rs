//! The game the players play: its inputs (a click that spawns boids, a player's predator sent
//! somewhere), what they do at their tick, the starting flock, and a restless player that makes
//! inputs at random.

use bevy::prelude::*;
use bevy_flock::flock_core::Bounds;
use bevy_flock::lockstep::{
    FlockCommand, LockstepInput, LockstepTick, TickInputs, WireError, WireReader,
};
use bevy_flock::prelude::*;
use rand::RngExt;
use rand::rngs::Xoshiro256PlusPlus;

use super::hunt::{PREY, predator, predators_hunt_prey};

/// How far from the origin an input may point, world units: far outside any game's bounds,
/// small enough that the flock's arithmetic stays finite.
pub const MAX_COORDINATE: f32 = 100_000.0;

/// The most boids one click spawns.
pub const MAX_SPAWN: u8 = 32;

/// The game's rules' version, part of the lockstep's fingerprint: bump it when they change.
pub const GAME_BUILD: u64 = 1;

/// The most boids a game starts with.
pub const MAX_BOIDS: u32 = 1_000_000;

/// Room above the starting flock for the boids the players' clicks add.
const SPAWN_ROOM: usize = 8192;

/// What a player does, applied on every peer at the tick it is scheduled for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Play {
    /// A click: `count` boids at a point.
    Spawn { at: Vec2, count: u8 },
    /// The player's predator now seeks a point.
    MovePredator { at: Vec2 },
}

impl LockstepInput for Play {
    fn encode(&self, bytes: &mut Vec<u8>) {
        let (tag, at) = match *self {
            Self::Spawn { at, .. } => (0, at),
            Self::MovePredator { at } => (1, at),
        };
        bytes.push(tag);
        bytes.extend(at.x.to_le_bytes());
        bytes.extend(at.y.to_le_bytes());
        if let Self::Spawn { count, .. } = self {
            bytes.push(*count);
        }
    }

    fn decode(reader: &mut WireReader) -> Result<Self, WireError> {
        let tag = reader.u8()?;
        let at = Vec2::new(
            reader.f32_within("x", MAX_COORDINATE)?,
            reader.f32_within("y", MAX_COORDINATE)?,
        );
        match tag {
            0 => {
                let count = reader.u8()?;
                if !(1..=MAX_SPAWN).contains(&count) {
                    return Err(WireError::Invalid {
                        what: "spawn count",
                        why: format!("{count} (1 to {MAX_SPAWN})"),
                    });
                }
                Ok(Self::Spawn { at, count })
            }
            1 => Ok(Self::MovePredator { at }),
            tag => Err(WireError::UnknownTag { what: "play", tag }),
        }
    }
}

/// A player's predator: part of the simulation (registered with the lockstep, so a late
/// joiner receives it).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default)]
#[reflect(Component, Default)]
pub struct PlayerPredator(pub u8);

/// The bounds of a game of `boids`: room for each like the headless example's, at least a
/// window's worth.
pub fn game_bounds(boids: u32) -> Bounds {
    let width = (boids as f32 * 1280.0 * 1.5).sqrt().max(1200.0);
    Bounds::centered(Vec2::new(width, width / 1.5))
}

/// The game's rules on every peer: the hunt, and the players' inputs applied at the end of
/// their tick (after the step), in the order the lockstep gives them, so the boids a click adds
/// get the same ids everywhere and first move in the next tick.
pub fn add_rules(app: &mut App, boids: u32) {
    app.insert_resource(predators_hunt_prey())
        .insert_resource(game_settings(boids))
        .add_systems(LockstepTick, apply_plays.after(FlockSystems::TransformSync));
}

fn game_settings(boids: u32) -> FlockSettings {
    FlockSettings {
        config: FlockConfig {
            bounds: game_bounds(boids),
            ..FlockConfig::processing()
        },
        max_boids: boids as usize + 16 + SPAWN_ROOM,
        ..default()
    }
}

/// The starting flock, made by the host alone (guests receive it): prey, and a predator for
/// each of `players`.
pub fn start_flock(world: &mut World, seed: u64, boids: u32, players: u8) {
    world.resource_mut::<FlockRng>().reseed(seed);
    for prey in bevy_flock::spawn_boids(world, boids as usize, Placement::RandomInBounds) {
        world.entity_mut(prey).insert(Species(PREY));
    }
    for player in 0..players {
        for hunter in bevy_flock::spawn_boids(world, 1, Placement::RandomInBounds) {
            world
                .entity_mut(hunter)
                .insert((predator(), PlayerPredator(player)));
        }
    }
}

fn apply_plays(world: &mut World) {
    let plays = std::mem::take(&mut world.resource_mut::<TickInputs<Play>>().inputs);
    for &(player, play) in &plays {
        match play {
            Play::Spawn { at, count } => {
                for boid in bevy_flock::spawn_boids(world, count as usize, Placement::At(at)) {
                    world.entity_mut(boid).insert(Species(PREY));
                }
            }
            Play::MovePredator { at } => {
                let mut predators = world.query::<(Entity, &PlayerPredator)>();
                let hunter = (predators.iter(world)).find(|(_, owner)| owner.0 == player);
                if let Some((hunter, _)) = hunter {
                    world.entity_mut(hunter).insert(Seek {
                        target: Target::Point(at),
                        weight: 1.5,
                    });
                }
            }
        }
    }
    world.resource_mut::<TickInputs<Play>>().inputs = plays;
}

/// What a restless player does in one tick: now and then a click, a predator's move or a
/// settings change, somewhere in `bounds`.
pub enum RandomMove {
    Play(Play),
    Flock(FlockCommand),
}

pub fn random_move(
    random: &mut Xoshiro256PlusPlus,
    bounds: Bounds,
    settings: &FlockSettings,
) -> Option<RandomMove> {
    let half = (bounds.max - bounds.min) / 2.0;
    let roll: f32 = random.random();
    let at = Vec2::new(
        random.random_range(-half.x..=half.x),
        random.random_range(-half.y..=half.y),
    );
    if roll < 0.02 {
        let count = random.random_range(1..=MAX_SPAWN / 4);
        Some(RandomMove::Play(Play::Spawn { at, count }))
    } else if roll < 0.06 {
        Some(RandomMove::Play(Play::MovePredator { at }))
    } else if roll < 0.065 {
        let mut settings = settings.clone();
        let weights = &mut settings.config.weights;
        let value = random.random_range(0.5..=2.0);
        match random.random_range(0..3) {
            0 => weights.separation = value,
            1 => weights.alignment = value,
            _ => weights.cohesion = value,
        }
        FlockCommand::settings(settings).ok().map(RandomMove::Flock)
    } else {
        None
    }
}
