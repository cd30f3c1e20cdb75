//! The settings part of the panel: a slider, field or selector for every flock setting.
//!
//! Widgets edit a copy; the caller writes it back only when something changed, so change
//! detection on [`FlockSettings`] still means "a setting changed".

use bevy_egui::egui::{self, ComboBox, DragValue, Slider, Ui};
use flock_core::{EdgeMode, ForceLimit, IndexKind, Neighbours, SpeedMode};

use crate::settings::{BoundsSource, FlockSettings};

/// Every flock setting, grouped. Ranges are wide and logarithmic where a setting spans units
/// (pixels or world units of a few metres), so one panel suits any preset.
pub(crate) fn settings_ui(ui: &mut Ui, settings: &mut FlockSettings) {
    let config = &mut settings.config;
    ui.label("Default weights (boids without their own)");
    ui.add(Slider::new(&mut config.weights.separation, 0.0..=10.0).text("separation"));
    ui.add(Slider::new(&mut config.weights.alignment, 0.0..=10.0).text("alignment"));
    ui.add(Slider::new(&mut config.weights.cohesion, 0.0..=10.0).text("cohesion"));

    ui.separator();
    ui.label("Radii");
    for (radius, name) in [
        (&mut config.separation_radius, "separation"),
        (&mut config.alignment_radius, "alignment"),
        (&mut config.cohesion_radius, "cohesion"),
    ] {
        log_slider(ui, radius, 0.0..=1000.0, name);
    }
    ui.add(Slider::new(&mut config.view_angle_degrees, 1.0..=360.0).text("view angle (deg)"));

    ui.separator();
    ui.label("Motion");
    log_slider(ui, &mut config.max_speed, 0.01..=5000.0, "max speed");
    let max_speed = config.max_speed;
    let clamp = matches!(config.speed_mode, SpeedMode::Clamp { .. });
    ComboBox::from_label("speed mode")
        .selected_text(if clamp { "clamp" } else { "constant" })
        .show_ui(ui, |ui| {
            if ui.selectable_label(!clamp, "constant").clicked() {
                config.speed_mode = SpeedMode::Constant;
            }
            if ui.selectable_label(clamp, "clamp").clicked() && !clamp {
                config.speed_mode = SpeedMode::Clamp { min_speed: 0.0 };
            }
        });
    if let SpeedMode::Clamp { min_speed } = &mut config.speed_mode {
        // Kept below max speed here, so the slider cannot make the settings invalid.
        *min_speed = min_speed.min(max_speed);
        ui.add(Slider::new(min_speed, 0.0..=max_speed).text("min speed"));
    }
    log_slider(ui, &mut config.max_force, 0.01..=50_000.0, "max force");
    choice(
        ui,
        "force limit",
        &mut config.force_limit,
        &[
            (ForceLimit::Truncate, "truncate"),
            (ForceLimit::Rescale, "rescale"),
        ],
    );
    log_slider(
        ui,
        &mut config.response_time,
        0.001..=2.0,
        "response time (s)",
    );
    log_slider(ui, &mut config.mass, 0.01..=100.0, "mass");

    ui.separator();
    ui.label("World");
    choice(
        ui,
        "edges",
        &mut config.edges,
        &[
            (EdgeMode::Wrap, "wrap"),
            (EdgeMode::Jump, "jump"),
            (EdgeMode::Bounce, "bounce"),
            (EdgeMode::Free, "free"),
        ],
    );
    ui.checkbox(
        &mut config.wrap_neighbours,
        "neighbours across the wrap seam",
    );
    choice(
        ui,
        "bounds",
        &mut settings.bounds_source,
        &[
            (BoundsSource::Fixed, "fixed"),
            (BoundsSource::FollowCamera, "follow camera"),
        ],
    );
    if settings.bounds_source == BoundsSource::Fixed {
        let bounds = &mut settings.config.bounds;
        ui.horizontal(|ui| {
            ui.label("min");
            // Every axis of the bounds: x and y, and z in 3D.
            for axis in 0..flock_core::DIMENSIONS {
                ui.add(DragValue::new(&mut bounds.min[axis]).speed(1.0));
            }
            ui.label("max");
            for axis in 0..flock_core::DIMENSIONS {
                ui.add(DragValue::new(&mut bounds.max[axis]).speed(1.0));
            }
        });
    }
    choice(
        ui,
        "neighbour index",
        &mut settings.config.index,
        &[
            (IndexKind::Grid, "grid"),
            (IndexKind::KdTree, "KD-tree"),
            (IndexKind::BruteForce, "brute force"),
        ],
    );
    neighbours_ui(ui, &mut settings.config.neighbours);
}

/// All neighbours within the radii, or only the `k` nearest (starlings attend to about 7).
fn neighbours_ui(ui: &mut Ui, neighbours: &mut Neighbours) {
    ui.horizontal(|ui| {
        let mut topological = neighbours.nearest().is_some();
        ui.checkbox(&mut topological, "only the nearest");
        match (topological, *neighbours) {
            (false, _) => *neighbours = Neighbours::Metric,
            (true, Neighbours::Metric) => *neighbours = Neighbours::Nearest { k: 7 },
            (true, Neighbours::Nearest { .. }) => {}
        }
        if let Neighbours::Nearest { k } = neighbours {
            ui.add(
                DragValue::new(k)
                    .range(1..=Neighbours::MAX_NEAREST)
                    .prefix("k "),
            );
        }
    });
}

/// A drop-down of named values.
pub(crate) fn choice<T: PartialEq + Copy>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    options: &[(T, &str)],
) {
    let current = options
        .iter()
        .find(|(option, _)| option == value)
        .map_or("?", |(_, name)| *name);
    ComboBox::from_label(label)
        .selected_text(current)
        .show_ui(ui, |ui| {
            for (option, name) in options {
                ui.selectable_value(value, *option, *name);
            }
        });
}

/// The boid cap, as a field (any count from 1 up).
pub(crate) fn cap_ui(ui: &mut Ui, max_boids: &mut usize) {
    ui.add(
        DragValue::new(max_boids)
            .range(1..=10_000_000)
            .speed(10.0)
            .prefix("cap "),
    );
}

/// A red line for an error, nothing otherwise.
pub(crate) fn error_line(ui: &mut Ui, error: Option<&str>) {
    if let Some(error) = error {
        ui.colored_label(egui::Color32::from_rgb(255, 110, 100), error);
    }
}

/// A slider over a range that spans orders of magnitude.
fn log_slider(ui: &mut Ui, value: &mut f32, range: std::ops::RangeInclusive<f32>, text: &str) {
    ui.add(Slider::new(value, range).logarithmic(true).text(text));
}
