//! Save and restore the whole simulation: every entity that takes part in it with its
//! simulation components, the flock's resources and its random streams. A late joiner starts
//! from one; a replay or a resync after a desync restores one.
//!
//! What is saved is what the [`LockstepRegistry`] names: the plugin's own components and
//! resources, and the game's ([`LockstepAppExt`](super::LockstepAppExt)). Components a peer
//! adds for itself (a selection marker, a sprite) are not, so restoring keeps none of them.
//! An entity takes part when it has one of the registered components other than `Transform`
//! (which every drawn thing has). Entities a component names (a leader, a path, a group) are
//! mapped to the restored ones.
//!
//! The bytes: each value as RON (every `f32` in its shortest exact form, so the same bits come
//! back), framed by its index in the registry, which [`Fingerprint`](super::Fingerprint)s make
//! the same on both peers.

use std::any::type_name;

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;
use bevy::reflect::serde::{TypedReflectDeserializer, TypedReflectSerializer};
use bevy::reflect::{FromReflect, GetTypeRegistration, TypePath, TypeRegistry};
use serde::de::DeserializeSeed;

use super::wire::{WireError, WireReader};
use crate::identity::BoidId;
use crate::rng::{FlockRng, FlockRngState};
use crate::settings::{ActiveFlockSettings, FlockSettings};

/// The largest snapshot a peer accepts, bytes.
pub const MAX_SNAPSHOT_BYTES: usize = 1 << 30;

/// One registered component: how to find, save and restore it.
#[derive(Clone)]
struct ComponentEntry {
    type_path: &'static str,
    /// Whether having it makes an entity part of the simulation.
    anchors: bool,
    /// Whether the entity has it.
    contains: fn(&EntityRef) -> bool,
    save: fn(&EntityRef, &TypeRegistry) -> Option<String>,
    /// Whether a saved value reads back.
    check: fn(&str, &TypeRegistry) -> Result<(), String>,
    restore: fn(
        &mut EntityWorldMut,
        &str,
        &TypeRegistry,
        &mut EntityHashMap<Entity>,
    ) -> Result<(), String>,
}

/// One registered resource.
#[derive(Clone)]
struct ResourceEntry {
    type_path: &'static str,
    save: fn(&World, &TypeRegistry) -> Option<String>,
    check: fn(&str, &TypeRegistry) -> Result<(), String>,
    restore: fn(&mut World, &str, &TypeRegistry) -> Result<(), String>,
}

/// The components and resources a snapshot holds: the simulation's state.
#[derive(Resource, Clone, Default)]
pub struct LockstepRegistry {
    components: Vec<ComponentEntry>,
    resources: Vec<ResourceEntry>,
}

impl LockstepRegistry {
    /// Adds component `C` (no effect if it is in already). `anchors`: whether an entity with it
    /// takes part in the simulation.
    pub fn add_component<C>(&mut self, anchors: bool)
    where
        C: Component + Reflect + FromReflect + TypePath + GetTypeRegistration,
    {
        let type_path = C::type_path();
        if self
            .components
            .iter()
            .any(|entry| entry.type_path == type_path)
        {
            return;
        }
        self.components.push(ComponentEntry {
            type_path,
            anchors,
            contains: |entity| entity.contains::<C>(),
            save: |entity, registry| entity.get::<C>().map(|value| to_ron(value, registry)),
            check: |text, registry| from_ron::<C>(text, registry).map(drop),
            restore: restore_component::<C>,
        });
    }

    /// Adds resource `R` (no effect if it is in already).
    pub fn add_resource<R>(&mut self)
    where
        R: Resource + Reflect + FromReflect + TypePath + GetTypeRegistration,
    {
        let type_path = R::type_path();
        if self
            .resources
            .iter()
            .any(|entry| entry.type_path == type_path)
        {
            return;
        }
        self.resources.push(ResourceEntry {
            type_path,
            save: |world, registry| {
                world
                    .get_resource::<R>()
                    .map(|value| to_ron(value, registry))
            },
            check: |text, registry| from_ron::<R>(text, registry).map(drop),
            restore: |world, text, registry| {
                let value = from_ron::<R>(text, registry)?;
                world.insert_resource(value);
                Ok(())
            },
        });
    }

    /// Whether `entity` takes part in the simulation: it has an anchoring component.
    fn takes_part(&self, entity: &EntityRef) -> bool {
        (self.components.iter()).any(|entry| entry.anchors && (entry.contains)(entity))
    }

    /// Every registered type's path, in order: part of the handshake's fingerprint.
    pub fn type_paths(&self) -> impl Iterator<Item = &'static str> + '_ {
        let components = self.components.iter().map(|entry| entry.type_path);
        components.chain(self.resources.iter().map(|entry| entry.type_path))
    }
}

fn restore_component<C>(
    entity: &mut EntityWorldMut,
    text: &str,
    registry: &TypeRegistry,
    entities: &mut EntityHashMap<Entity>,
) -> Result<(), String>
where
    C: Component + Reflect + FromReflect + TypePath + GetTypeRegistration,
{
    let mut value = from_ron::<C>(text, registry)?;
    C::map_entities(&mut value, entities);
    entity.insert(value);
    Ok(())
}

/// `value` as RON, through reflection.
fn to_ron(value: &dyn PartialReflect, registry: &TypeRegistry) -> String {
    ron::to_string(&TypedReflectSerializer::new(value, registry)).unwrap_or_default()
}

/// A `T` from RON, through reflection.
fn from_ron<T: FromReflect + TypePath + GetTypeRegistration>(
    text: &str,
    registry: &TypeRegistry,
) -> Result<T, String> {
    let registration = registry
        .get(std::any::TypeId::of::<T>())
        .ok_or_else(|| format!("{} is not registered for reflection", type_name::<T>()))?;
    let mut deserializer = ron::Deserializer::from_str(text).map_err(|error| error.to_string())?;
    let value = TypedReflectDeserializer::new(registration, registry)
        .deserialize(&mut deserializer)
        .map_err(|error| format!("{}: {error}", T::type_path()))?;
    T::from_reflect(&*value).ok_or_else(|| format!("{}: not a whole value", T::type_path()))
}

/// One entity of a snapshot: its id in the world it was saved from, and its components (each
/// registry index and value).
#[derive(Debug, Clone, PartialEq)]
struct SavedEntity {
    source: Entity,
    components: Vec<(u16, String)>,
}

/// The whole simulation at one tick (see the module's documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct FlockSnapshot {
    /// The last tick the state has run.
    pub tick: u64,
    rng: FlockRngState,
    /// The validated settings the systems run on (the last valid [`FlockSettings`]).
    active_settings: String,
    resources: Vec<(u16, String)>,
    entities: Vec<SavedEntity>,
}

/// Why a snapshot could not be read or restored. The world is left as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotError(pub String);

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a snapshot that cannot be restored: {}", self.0)
    }
}

impl std::error::Error for SnapshotError {}

impl From<WireError> for SnapshotError {
    fn from(error: WireError) -> Self {
        Self(error.to_string())
    }
}

impl FlockSnapshot {
    /// The simulation in `world` after `tick`, as its [`LockstepRegistry`] names it.
    pub fn save(world: &World, tick: u64) -> Self {
        let registry = world.resource::<LockstepRegistry>();
        let types = world.resource::<AppTypeRegistry>().read();
        let mut entities: Vec<(u64, SavedEntity)> = Vec::new();
        for entity in world.iter_entities() {
            if !registry.takes_part(&entity) {
                continue;
            }
            let components = (registry.components.iter().enumerate())
                .filter_map(|(index, entry)| {
                    (entry.save)(&entity, &types).map(|text| (index as u16, text))
                })
                .collect();
            // Boids in id order, then the rest in the order this world holds them.
            let order = entity.get::<BoidId>().map_or(u64::MAX, |id| id.0);
            entities.push((
                order,
                SavedEntity {
                    source: entity.id(),
                    components,
                },
            ));
        }
        entities.sort_by_key(|(order, saved)| (*order, saved.source));
        let resources = (registry.resources.iter().enumerate())
            .filter_map(|(index, entry)| {
                (entry.save)(world, &types).map(|text| (index as u16, text))
            })
            .collect();
        let active = world.get_resource::<ActiveFlockSettings>();
        let active_settings = active.map_or_else(String::new, |active| to_ron(&active.0, &types));
        let rng = world
            .get_resource::<FlockRng>()
            .map_or(FlockRng::default().state(), FlockRng::state);
        Self {
            tick,
            rng,
            active_settings,
            resources,
            entities: entities.into_iter().map(|(_, saved)| saved).collect(),
        }
    }

    /// How many entities it holds.
    pub fn entity_count(&self) -> usize {
        self.entities.len()
    }

    /// Replaces the simulation in `world` with this one: every entity that takes part in it is
    /// despawned (with whatever else the peer had put on it) and the saved ones spawned, then the
    /// resources set. Checked first: on an error nothing has changed.
    pub fn restore(&self, world: &mut World) -> Result<(), SnapshotError> {
        let registry = world.resource::<LockstepRegistry>().clone();
        let types = world.resource::<AppTypeRegistry>().clone();
        let types = types.read();
        let in_range = |index: u16, count: usize| {
            (usize::from(index) < count)
                .then_some(())
                .ok_or_else(|| SnapshotError(format!("type {index} is not registered here")))
        };
        for saved in &self.entities {
            for &(index, _) in &saved.components {
                in_range(index, registry.components.len())?;
            }
        }
        for &(index, _) in &self.resources {
            in_range(index, registry.resources.len())?;
        }
        // Every value must read back before the world is touched.
        for saved in &self.entities {
            for (index, text) in &saved.components {
                let entry = &registry.components[usize::from(*index)];
                (entry.check)(text, &types).map_err(SnapshotError)?;
            }
        }
        for (index, text) in &self.resources {
            let entry = &registry.resources[usize::from(*index)];
            (entry.check)(text, &types).map_err(SnapshotError)?;
        }
        let active = if self.active_settings.is_empty() {
            None
        } else {
            Some(from_ron::<FlockSettings>(&self.active_settings, &types).map_err(SnapshotError)?)
        };

        let taking_part: Vec<Entity> = (world.iter_entities())
            .filter(|entity| registry.takes_part(entity))
            .map(|entity| entity.id())
            .collect();
        for entity in taking_part {
            world.despawn(entity);
        }
        let mut entities = EntityHashMap::default();
        for saved in &self.entities {
            entities.insert(saved.source, world.spawn_empty().id());
        }
        for saved in &self.entities {
            let mut entity = world.entity_mut(entities[&saved.source]);
            for (index, text) in &saved.components {
                let entry = &registry.components[usize::from(*index)];
                (entry.restore)(&mut entity, text, &types, &mut entities).map_err(SnapshotError)?;
            }
        }
        for (index, text) in &self.resources {
            let entry = &registry.resources[usize::from(*index)];
            (entry.restore)(world, text, &types).map_err(SnapshotError)?;
        }
        if let Some(active) = active {
            world.insert_resource(ActiveFlockSettings(active));
        }
        world.insert_resource(FlockRng::from_state(self.rng));
        Ok(())
    }

    /// The snapshot's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend(self.tick.to_le_bytes());
        bytes.extend(self.rng.seed.to_le_bytes());
        for word in self.rng.simulation.into_iter().chain(self.rng.looks) {
            bytes.extend(word.to_le_bytes());
        }
        put_text(&mut bytes, &self.active_settings);
        put_values(&mut bytes, &self.resources);
        bytes.extend((self.entities.len() as u32).to_le_bytes());
        for saved in &self.entities {
            bytes.extend(saved.source.to_bits().to_le_bytes());
            put_values(&mut bytes, &saved.components);
        }
        bytes
    }

    /// A snapshot from its bytes, checked as far as its framing goes (values are checked when
    /// it is restored).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SnapshotError> {
        if bytes.len() > MAX_SNAPSHOT_BYTES {
            return Err(SnapshotError(format!(
                "{} bytes (at most {MAX_SNAPSHOT_BYTES})",
                bytes.len()
            )));
        }
        let mut reader = WireReader::new(bytes);
        let tick = reader.u64()?;
        let seed = reader.u64()?;
        let mut words = [0; 8];
        for word in &mut words {
            *word = reader.u64()?;
        }
        let rng = FlockRngState {
            seed,
            simulation: [words[0], words[1], words[2], words[3]],
            looks: [words[4], words[5], words[6], words[7]],
        };
        let active_settings = take_text(&mut reader)?;
        let resources = take_values(&mut reader)?;
        let count = reader.u32()? as usize;
        // Each entity takes at least 12 bytes: a count can not promise more than are there.
        if count > reader.remaining() / 12 {
            return Err(SnapshotError(format!(
                "{count} entities in {} bytes",
                reader.remaining()
            )));
        }
        let mut entities = Vec::with_capacity(count);
        for _ in 0..count {
            let bits = reader.u64()?;
            let source = Entity::try_from_bits(bits)
                .ok_or_else(|| SnapshotError(format!("an entity of bits {bits:x}")))?;
            entities.push(SavedEntity {
                source,
                components: take_values(&mut reader)?,
            });
        }
        if reader.remaining() > 0 {
            return Err(WireError::TrailingBytes {
                left: reader.remaining(),
            }
            .into());
        }
        Ok(Self {
            tick,
            rng,
            active_settings,
            resources,
            entities,
        })
    }
}

fn put_text(bytes: &mut Vec<u8>, text: &str) {
    bytes.extend((text.len() as u32).to_le_bytes());
    bytes.extend(text.as_bytes());
}

fn take_text(reader: &mut WireReader) -> Result<String, SnapshotError> {
    let length = reader.u32()? as usize;
    let text = std::str::from_utf8(reader.bytes(length)?)
        .map_err(|error| SnapshotError(error.to_string()))?;
    Ok(text.to_owned())
}

fn put_values(bytes: &mut Vec<u8>, values: &[(u16, String)]) {
    bytes.extend((values.len() as u32).to_le_bytes());
    for (index, text) in values {
        bytes.extend(index.to_le_bytes());
        put_text(bytes, text);
    }
}

fn take_values(reader: &mut WireReader) -> Result<Vec<(u16, String)>, SnapshotError> {
    let count = reader.u32()? as usize;
    // Each value takes at least 6 bytes.
    if count > reader.remaining() / 6 {
        return Err(SnapshotError(format!(
            "{count} values in {} bytes",
            reader.remaining()
        )));
    }
    (0..count)
        .map(|_| Ok((reader.u16()?, take_text(reader)?)))
        .collect()
}
