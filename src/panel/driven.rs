//! Which flock the panel's Spawn, Clear, boid count and stats act on: the CPU flock's boid
//! entities, or (feature `gpu`) the flock on the GPU, which has no entities for the panel to
//! count or despawn.

use bevy::prelude::*;
use bevy_egui::egui::{self, Ui};

use crate::components::Boid;
use crate::spawn::{Placement, SpawnBoids};

/// The flock the panel's run controls (Spawn, Clear, the boid count) and stats are about.
///
/// [`FlockPanelPlugin`](super::FlockPanelPlugin) chooses at start-up: [`PanelFlock::Gpu`] when
/// the app has a [`GpuFlock`](crate::gpu::GpuFlock) (a GPU scene), else [`PanelFlock::Cpu`].
/// Insert it yourself to choose; where the app has both flocks the panel shows a switch. The
/// settings, Pause and Step are the CPU flock's [`FlockSettings`](crate::FlockSettings) and
/// [`FlockClock`](crate::FlockClock), which the GPU flock follows through
/// [`follow_cpu_flock`](crate::gpu::follow_cpu_flock).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default, Reflect)]
#[reflect(Resource, Debug, PartialEq, Default)]
pub enum PanelFlock {
    /// The CPU flock's boids (entities with [`Boid`]).
    #[default]
    Cpu,
    /// The GPU flock ([`GpuFlock`](crate::gpu::GpuFlock)).
    #[cfg(feature = "gpu")]
    Gpu,
}

impl PanelFlock {
    /// The flock a panel drives in this world: the GPU one where the app has it.
    pub(super) fn for_world(world: &World) -> Self {
        #[cfg(feature = "gpu")]
        if world.contains_resource::<crate::gpu::GpuFlock>() {
            return Self::Gpu;
        }
        let _ = world;
        Self::Cpu
    }
}

/// The GPU flock as the panel reads it (nothing without the `gpu` feature).
#[cfg(feature = "gpu")]
pub(super) type GpuView<'w> = Option<Res<'w, crate::gpu::GpuFlock>>;
/// The GPU flock as the panel reads it (nothing without the `gpu` feature).
#[cfg(not(feature = "gpu"))]
pub(super) type GpuView<'w> = std::marker::PhantomData<&'w ()>;

/// The switch between the flocks, shown where the app has both.
pub(super) fn switch_ui(ui: &mut Ui, choice: &mut PanelFlock, gpu: &GpuView) {
    #[cfg(feature = "gpu")]
    if gpu.is_some() {
        ui.horizontal(|ui| {
            ui.label("drive");
            ui.selectable_value(choice, PanelFlock::Cpu, "CPU flock");
            ui.selectable_value(choice, PanelFlock::Gpu, "GPU flock");
        });
    }
    let _ = (ui, choice, gpu);
}

/// How many boids the driven flock has (`cpu_boids` for the CPU flock's) and the most the
/// Spawn button may ask for at once.
pub(super) fn count_and_spawn_limit(
    choice: PanelFlock,
    cpu_boids: usize,
    gpu: &GpuView,
) -> (usize, usize) {
    // Read only with the `gpu` feature.
    let _ = gpu;
    match choice {
        PanelFlock::Cpu => (cpu_boids, MAX_CPU_SPAWN),
        #[cfg(feature = "gpu")]
        PanelFlock::Gpu => match gpu.as_deref() {
            Some(flock) => (
                flock.len(),
                flock
                    .device_limit()
                    .saturating_sub(flock.len())
                    .clamp(1, MAX_GPU_SPAWN),
            ),
            None => (cpu_boids, MAX_CPU_SPAWN),
        },
    }
}

/// The most CPU boids one press of Spawn adds.
const MAX_CPU_SPAWN: usize = 100_000;
/// The most GPU boids one press of Spawn adds (a GPU flock holds millions).
#[cfg(feature = "gpu")]
const MAX_GPU_SPAWN: usize = 10_000_000;

/// The GPU flock's stats, where the panel drives it: boids on the device, the device's limit,
/// the step as the device timed it, steps taken, and why it stopped (if it has). Whether it
/// showed them.
pub(super) fn gpu_stats_ui(ui: &mut Ui, choice: PanelFlock, gpu: &GpuView) -> bool {
    #[cfg(feature = "gpu")]
    if let (PanelFlock::Gpu, Some(flock)) = (choice, gpu.as_deref()) {
        egui::Grid::new("gpu stats").num_columns(2).show(ui, |ui| {
            ui.label("GPU boids");
            ui.label(flock.len().to_string());
            ui.end_row();
            ui.label("device holds");
            ui.label(flock.device_limit().to_string());
            ui.end_row();
            ui.label("GPU step");
            ui.label(match flock.step_time() {
                Some(time) => format!("{:.3} ms", time.as_secs_f64() * 1e3),
                None => "not timed by this device".to_owned(),
            });
            ui.end_row();
            ui.label("GPU steps");
            ui.label(flock.steps_taken().to_string());
            ui.end_row();
        });
        if let Some(reason) = flock.stopped() {
            ui.colored_label(
                egui::Color32::LIGHT_RED,
                format!("GPU flock stopped: {reason}"),
            );
        }
        return true;
    }
    let _ = (ui, choice, gpu);
    false
}

/// Why the GPU flock refuses the panel's settings (topological neighbours, say), where the
/// panel drives it: shown under the settings' own errors, as the GPU flock keeps its last
/// settings meanwhile.
pub(super) fn gpu_refusal(choice: PanelFlock, config: &flock_core::FlockConfig) -> Option<String> {
    #[cfg(feature = "gpu")]
    if choice == PanelFlock::Gpu {
        return crate::gpu::flock_gpu::check_config(config)
            .err()
            .map(|error| format!("the GPU flock keeps its settings: {error}"));
    }
    let _ = (choice, config);
    None
}

/// At start-up: the app's own choice stands, else [`PanelFlock::for_world`].
pub(super) fn choose_panel_flock(world: &mut World) {
    if !world.contains_resource::<PanelFlock>() {
        let choice = PanelFlock::for_world(world);
        world.insert_resource(choice);
    }
}

/// The panel's Spawn: `count` boids at random in the bounds, in the flock it drives. The GPU
/// flock refuses a count it cannot hold with a warning (see
/// [`GpuFlock::spawn`](crate::gpu::GpuFlock::spawn)).
#[derive(Debug, Clone, Copy)]
pub(super) struct SpawnInPanelFlock(pub(super) usize);

impl Command for SpawnInPanelFlock {
    type Out = ();

    fn apply(self, world: &mut World) {
        match driven(world) {
            PanelFlock::Cpu => SpawnBoids::new(self.0, Placement::RandomInBounds).apply(world),
            #[cfg(feature = "gpu")]
            PanelFlock::Gpu => {
                if let Some(mut flock) = world.get_resource_mut::<crate::gpu::GpuFlock>() {
                    flock.spawn(self.0, Placement::RandomInBounds);
                }
            }
        }
    }
}

/// The panel's Clear: every boid of the flock it drives removed.
#[derive(Debug, Clone, Copy)]
pub(super) struct ClearPanelFlock;

impl Command for ClearPanelFlock {
    type Out = ();

    fn apply(self, world: &mut World) {
        match driven(world) {
            PanelFlock::Cpu => {
                let boids: Vec<Entity> = world
                    .query_filtered::<Entity, With<Boid>>()
                    .iter(world)
                    .collect();
                for boid in boids {
                    world.despawn(boid);
                }
            }
            #[cfg(feature = "gpu")]
            PanelFlock::Gpu => {
                if let Some(mut flock) = world.get_resource_mut::<crate::gpu::GpuFlock>() {
                    flock.clear();
                }
            }
        }
    }
}

/// The flock the panel drives; a GPU choice without a GPU flock falls back to the CPU one.
fn driven(world: &World) -> PanelFlock {
    let choice = world
        .get_resource::<PanelFlock>()
        .copied()
        .unwrap_or_else(|| PanelFlock::for_world(world));
    #[cfg(feature = "gpu")]
    if choice == PanelFlock::Gpu && !world.contains_resource::<crate::gpu::GpuFlock>() {
        return PanelFlock::Cpu;
    }
    choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::FlockSettings;

    fn world_with_cpu_flock() -> World {
        let mut world = World::new();
        world.insert_resource(FlockSettings::default());
        world.init_resource::<crate::rng::FlockRng>();
        world.init_resource::<crate::identity::BoidIds>();
        world
    }

    fn cpu_boids(world: &mut World) -> usize {
        world
            .query_filtered::<Entity, With<Boid>>()
            .iter(world)
            .count()
    }

    #[test]
    fn without_a_gpu_flock_the_panel_drives_the_cpu_flock() {
        let mut world = world_with_cpu_flock();
        choose_panel_flock(&mut world);
        assert_eq!(*world.resource::<PanelFlock>(), PanelFlock::Cpu);
        SpawnInPanelFlock(7).apply(&mut world);
        assert_eq!(cpu_boids(&mut world), 7);
        ClearPanelFlock.apply(&mut world);
        assert_eq!(cpu_boids(&mut world), 0);
    }

    #[cfg(feature = "gpu")]
    #[test]
    fn in_a_gpu_scene_spawn_and_clear_act_on_the_gpu_flock() {
        use crate::gpu::GpuFlock;
        let mut world = world_with_cpu_flock();
        world.insert_resource(GpuFlock::new(flock_core::FlockConfig::default(), 3));
        choose_panel_flock(&mut world);
        assert_eq!(*world.resource::<PanelFlock>(), PanelFlock::Gpu);
        SpawnInPanelFlock(500).apply(&mut world);
        assert_eq!(world.resource::<GpuFlock>().len(), 500);
        assert_eq!(cpu_boids(&mut world), 0, "no CPU boid spawned");
        ClearPanelFlock.apply(&mut world);
        assert_eq!(world.resource::<GpuFlock>().len(), 0);
    }

    #[cfg(feature = "gpu")]
    #[test]
    fn the_apps_choice_stands_and_a_missing_gpu_flock_falls_back() {
        let mut world = world_with_cpu_flock();
        world.insert_resource(crate::gpu::GpuFlock::new(
            flock_core::FlockConfig::default(),
            3,
        ));
        world.insert_resource(PanelFlock::Cpu);
        choose_panel_flock(&mut world);
        assert_eq!(*world.resource::<PanelFlock>(), PanelFlock::Cpu);
        SpawnInPanelFlock(4).apply(&mut world);
        assert_eq!(cpu_boids(&mut world), 4);
        assert_eq!(world.resource::<crate::gpu::GpuFlock>().len(), 0);

        let mut world = world_with_cpu_flock();
        world.insert_resource(PanelFlock::Gpu);
        SpawnInPanelFlock(3).apply(&mut world);
        assert_eq!(cpu_boids(&mut world), 3, "no GPU flock: the CPU flock's");
    }

    #[cfg(feature = "gpu")]
    #[test]
    fn an_absurd_gpu_spawn_is_refused_and_changes_nothing() {
        use crate::gpu::GpuFlock;
        let mut world = world_with_cpu_flock();
        world.insert_resource(GpuFlock::new(flock_core::FlockConfig::default(), 3));
        choose_panel_flock(&mut world);
        SpawnInPanelFlock(usize::MAX).apply(&mut world);
        assert_eq!(world.resource::<GpuFlock>().len(), 0);
        SpawnInPanelFlock(0).apply(&mut world);
        assert_eq!(world.resource::<GpuFlock>().len(), 0);
        assert_eq!(cpu_boids(&mut world), 0);
    }
}
