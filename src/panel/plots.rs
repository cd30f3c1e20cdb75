//! The panel's live plots of [`FlockMetrics`]: polarisation and mean nearest-neighbour distance
//! over the last few hundred steps.

use bevy_egui::egui::Ui;
use egui_plot::{Line, Plot, PlotPoints};

use super::metrics::FlockMetrics;

const HEIGHT: f32 = 90.0;

pub(crate) fn plots_ui(ui: &mut Ui, metrics: &FlockMetrics) {
    let latest = metrics.latest();
    ui.label(format!(
        "polarisation: {}",
        latest.map_or("-".into(), |sample| format!("{:.3}", sample.polarisation))
    ));
    let polarisation: PlotPoints = metrics
        .history()
        .map(|sample| [sample.step as f64, f64::from(sample.polarisation)])
        .collect();
    Plot::new("polarisation")
        .height(HEIGHT)
        .include_y(0.0)
        .include_y(1.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("polarisation", polarisation))
        });

    ui.label(format!(
        "mean nearest-neighbour distance: {}",
        latest
            .and_then(|sample| sample.nearest_neighbour)
            .map_or("-".into(), |distance| format!("{distance:.2}"))
    ));
    let distance: PlotPoints = metrics
        .history()
        .filter_map(|sample| Some([sample.step as f64, f64::from(sample.nearest_neighbour?)]))
        .collect();
    Plot::new("nearest neighbour")
        .height(HEIGHT)
        .include_y(0.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .show(ui, |plot| plot.line(Line::new("distance", distance)));
    ui.small(format!(
        "every {} steps, {} boids measured, {:.3} ms a sample",
        metrics.every,
        metrics.samples,
        metrics.cost().as_secs_f64() * 1e3
    ));
}
