//! Pausing and single-stepping the simulation.

use bevy::prelude::*;

/// Runs, pauses and single-steps the flock. The flock's systems run only on ticks where the
/// clock lets them; rendering and input go on while paused.
///
/// ```
/// # #[cfg(flock_3d)] extern crate bevy_flock3d as bevy_flock;
/// use bevy::prelude::*;
/// use bevy_flock::prelude::*;
///
/// fn toggle_pause(keys: Res<ButtonInput<KeyCode>>, mut clock: ResMut<FlockClock>) {
///     if keys.just_pressed(KeyCode::Space) {
///         clock.toggle_pause();
///     }
///     if keys.just_pressed(KeyCode::KeyN) {
///         clock.step_once();
///     }
/// }
/// # bevy::ecs::system::assert_is_system(toggle_pause);
/// ```
#[derive(Resource, Reflect, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[reflect(Resource, Debug, Default)]
pub struct FlockClock {
    paused: bool,
    pending_steps: u32,
    stepping_now: bool,
    steps_taken: u64,
}

impl FlockClock {
    /// Whether the flock is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Pauses the flock.
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Resumes the flock and forgets any pending single steps.
    pub fn resume(&mut self) {
        self.paused = false;
        self.pending_steps = 0;
    }

    /// Pauses a running flock or resumes a paused one.
    pub fn toggle_pause(&mut self) {
        if self.paused {
            self.resume();
        } else {
            self.pause();
        }
    }

    /// While paused, runs exactly one more step (on the next tick of the flock's schedule).
    pub fn step_once(&mut self) {
        self.pending_steps = self.pending_steps.saturating_add(1);
    }

    /// How many steps the flock has taken since the app started.
    pub fn steps_taken(&self) -> u64 {
        self.steps_taken
    }
}

/// Decides, once per tick of the flock's schedule, whether the flock steps on this tick.
pub(crate) fn tick_clock(mut clock: ResMut<FlockClock>) {
    clock.stepping_now = if !clock.paused {
        true
    } else if clock.pending_steps > 0 {
        clock.pending_steps -= 1;
        true
    } else {
        false
    };
    if clock.stepping_now {
        clock.steps_taken += 1;
    }
}

/// Run condition of the flock's system sets.
pub(crate) fn flock_is_stepping(clock: Res<FlockClock>) -> bool {
    clock.stepping_now
}
