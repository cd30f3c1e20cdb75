//! What every example shares: screenshots on request, for looking at a run without a person.
//!
//! `FLOCK_SCREENSHOTS=dir` saves `dir/<example>-1.png` and `-2.png` two seconds apart (after a
//! second of warm-up), then exits. Used under `xvfb-run` to check what a user would see.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

/// Adds the screenshot-and-exit behaviour when `FLOCK_SCREENSHOTS` is set.
pub struct ScreenshotsOnRequest {
    /// Names the files.
    pub example: &'static str,
}

impl Plugin for ScreenshotsOnRequest {
    fn build(&self, app: &mut App) {
        let Some(dir) = std::env::var_os("FLOCK_SCREENSHOTS").map(PathBuf::from) else {
            return;
        };
        std::fs::create_dir_all(&dir).expect("cannot create the screenshot folder");
        app.insert_resource(ScreenshotPlan {
            dir,
            example: self.example,
            taken: 0,
        })
        .add_systems(Update, take_screenshots);
    }
}

#[derive(Resource)]
struct ScreenshotPlan {
    dir: PathBuf,
    example: &'static str,
    taken: u32,
}

const FIRST_SHOT: Duration = Duration::from_secs(1);
const BETWEEN_SHOTS: Duration = Duration::from_secs(2);

fn take_screenshots(
    mut commands: Commands,
    time: Res<Time<Real>>,
    mut plan: ResMut<ScreenshotPlan>,
    mut exit: MessageWriter<AppExit>,
) {
    let due = FIRST_SHOT + BETWEEN_SHOTS * plan.taken;
    if time.elapsed() < due {
        return;
    }
    if plan.taken == 2 {
        // One more interval for the second screenshot to be written.
        exit.write(AppExit::Success);
        return;
    }
    plan.taken += 1;
    let path = plan
        .dir
        .join(format!("{}-{}.png", plan.example, plan.taken));
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}
