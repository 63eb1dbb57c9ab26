//! The status bar, two lines of constant height: the last message (errors in red with a dismiss ×),
//! simulated time and steps, agent count, frame time, and whether time runs; then the active tool's hint.

use crate::app::App;

use super::{UiState, ERROR_RED};

/// What the status bar asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatusOutput {
    /// The × next to the message was clicked.
    pub dismiss_message: bool,
}

/// Draws the bar.
pub fn status_bar(ui: &mut egui::Ui, app: &App, state: &mut UiState) -> StatusOutput {
    let mut out = StatusOutput::default();
    ui.horizontal(|ui| {
        let running = if app.running { "▶ running" } else { "⏸ paused" };
        ui.label(egui::RichText::new(running).strong());
        ui.separator();
        state.status_clock = format!("t = {:.2} s · {} steps", app.world.time(), app.world.steps);
        ui.label(&state.status_clock);
        ui.separator();
        ui.label(crate::app::plural(app.world.agents.len(), "agent"));
        ui.separator();
        ui.label(format!("{:.1} ms/frame", state.frame_time_ms)).on_hover_text("Time the last frame took");
        ui.separator();
        ui.label(format!("{:.2}×", app.time_scale)).on_hover_text("Simulation speed");
        ui.separator();
        if let Some(message) = &app.message {
            if message.is_error {
                let dismiss = ui.small_button("×").on_hover_text("Dismiss the error");
                state.record_rect("dismiss_message", dismiss.rect);
                if dismiss.clicked() {
                    out.dismiss_message = true;
                }
                ui.label(egui::RichText::new(&message.text).color(ERROR_RED));
            } else {
                ui.label(&message.text);
            }
        }
    });
    // The hint always has its own line, so the bar keeps one height whether a message shows or
    // not (a bar that grew with each message moved the whole world view up and down).
    ui.label(egui::RichText::new(app.tool.hint()).weak());
    out
}
