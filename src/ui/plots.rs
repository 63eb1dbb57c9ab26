//! The Plots panel (egui_plot): cross-track error over time and speed over time, one line per
//! shown agent in its colour, with a legend of names above the plots (never over them); the
//! agents list's show/solo hides lines here too. Samples come from `app.history` (taken every
//! few simulation steps, never per frame); agents that follow no path have no cross-track line.

use egui_plot::{Line, Plot, PlotPoints};

use crate::app::{App, HISTORY_AGENTS};

use super::color32;

/// Draws both plots, sharing the time axis.
pub fn plots_panel(ui: &mut egui::Ui, app: &App) {
    if app.history.is_empty() {
        ui.label(egui::RichText::new("No samples yet: press Play (Space).").weak());
    }
    legend(ui, app);
    let height = ((ui.available_height() - 40.0) * 0.5).max(64.0);
    let link = ui.id().with("plots_time_axis");

    ui.strong("Cross-track error (u)")
        .on_hover_text("Distance from each path follower to its path's centre line");
    Plot::new("plot_cross_track")
        .height(height)
        .x_axis_label("time (s)")
        .link_axis(link, [true, false])
        .show(ui, |plot_ui| {
            for (agent_idx, agent) in shown(app) {
                let points: PlotPoints = app
                    .history
                    .series(agent_idx)
                    .filter_map(|s| s.cross_track.map(|e| [s.time, e as f64]))
                    .collect();
                if points.points().is_empty() {
                    continue;
                }
                plot_ui.line(Line::new(points).name(&agent.about.name).color(color32(agent.about.color)));
            }
        });

    ui.strong("Speed (u/s)");
    Plot::new("plot_speed").height(height).x_axis_label("time (s)").link_axis(link, [true, false]).show(
        ui,
        |plot_ui| {
            for (agent_idx, agent) in shown(app) {
                let points: PlotPoints =
                    app.history.series(agent_idx).map(|s| [s.time, s.speed as f64]).collect();
                plot_ui.line(Line::new(points).name(&agent.about.name).color(color32(agent.about.color)));
            }
        },
    );
}

/// The agents with plot lines: those with history that are not hidden.
fn shown(app: &App) -> impl Iterator<Item = (usize, &crate::sim::Agent)> {
    app.world.agents.iter().enumerate().take(app.history.len()).filter(|(idx, _)| !app.is_hidden(*idx))
}

/// The legend: a colour swatch and name per shown agent, wrapped in rows above the plots (a
/// name never split over two rows), and under it which agents are plotted when not all are.
fn legend(ui: &mut egui::Ui, app: &App) {
    ui.horizontal_wrapped(|ui| {
        for (_, agent) in shown(app) {
            // A swatch and its name stay together and whole: where both do not fit the rest of
            // the row, they start the next one.
            let name = egui::WidgetText::from(egui::RichText::new(&agent.about.name).small()).into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Small,
            );
            let needed = 14.0 + 2.0 * ui.spacing().item_spacing.x + name.size().x;
            if ui.available_size_before_wrap().x < needed {
                ui.end_row();
            }
            let (swatch, _) = ui.allocate_exact_size(egui::vec2(14.0, 4.0), egui::Sense::hover());
            ui.painter().rect_filled(swatch, 1.0, color32(agent.about.color));
            ui.add(egui::Label::new(name));
        }
    });
    if let Some(note) = plotted_note(app.world.agents.len()) {
        ui.label(egui::RichText::new(note).small().weak());
    }
}

/// What the plots leave out of a crowd of `agents`: only the first [`HISTORY_AGENTS`] have
/// series (the history keeps no more, so that a big crowd costs the window nothing here).
pub fn plotted_note(agents: usize) -> Option<String> {
    (agents > HISTORY_AGENTS).then(|| format!("the first {HISTORY_AGENTS} of {agents} agents are plotted"))
}
