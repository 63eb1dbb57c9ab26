//! The status bar, two lines of constant height: the last message (errors in red with a dismiss ×),
//! simulated time and steps, agent count, frame time, and whether time runs; then the active tool's hint.
//! A message or hint longer than the bar ends in "…" and shows whole under the mouse (it used to
//! run past the window's edge, cut off mid-word: at UI scale 2, most of an error was out of sight).
//! Where the first line leaves the message less than [`MESSAGE_MIN_WIDTH`], it takes the hint's line.
//! An error has a copy button beside its ×, and every message a right-click menu that copies it
//! whole: an error names the file, the JSON path, the line and the column, which a user pastes
//! into a bug report or an editor's go-to-line, and "…" cut that off.

use crate::app::App;

use super::{UiState, ERROR_RED};

/// What the status bar asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatusOutput {
    /// The × next to the message was clicked.
    pub dismiss_message: bool,
    /// The message's copy button, or Copy in its right-click menu, was clicked.
    pub copy_message: bool,
}

/// The least room (points) the message takes at the end of the first line; with less (a large UI
/// scale in a small window), it takes the hint's line instead, so an error is never cut to "…".
pub const MESSAGE_MIN_WIDTH: f32 = 240.0;

/// Draws the bar.
pub fn status_bar(ui: &mut egui::Ui, app: &App, state: &mut UiState) -> StatusOutput {
    let mut out = StatusOutput::default();
    let width = ui.available_width();
    let mut message_on_first_line = false;
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
        if app.message.is_some() && ui.available_width() >= MESSAGE_MIN_WIDTH {
            message_on_first_line = true;
            message(ui, app, state, &mut out);
        }
    });
    // The second line, as wide as the bar whatever the first line took: the hint, or the message
    // when the first line had no room for it. Either way the bar keeps its two lines, so its
    // height never changes with a message (a bar that grew with each one moved the world view).
    ui.allocate_ui_with_layout(
        egui::vec2(width, ui.spacing().interact_size.y),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            if app.message.is_some() && !message_on_first_line {
                message(ui, app, state, &mut out);
            } else {
                let hint = ui.add(egui::Label::new(egui::RichText::new(app.tool.hint()).weak()).truncate());
                state.record_rect("status_hint", hint.rect);
            }
        },
    );
    out
}

/// The message (an error in red after its dismiss × and copy button), ending in "…" where the
/// room ends, shown whole under the mouse and copied whole from its right-click menu.
fn message(ui: &mut egui::Ui, app: &App, state: &mut UiState, out: &mut StatusOutput) {
    let Some(message) = &app.message else { return };
    let shown = if message.is_error {
        let dismiss = ui.small_button("×").on_hover_text("Dismiss the error");
        state.record_rect("dismiss_message", dismiss.rect);
        if dismiss.clicked() {
            out.dismiss_message = true;
        }
        let copy = ui.small_button("Copy").on_hover_text("Copy the whole error");
        state.record_rect("copy_message", copy.rect);
        if copy.clicked() {
            out.copy_message = true;
        }
        ui.add(egui::Label::new(egui::RichText::new(&message.text).color(ERROR_RED)).truncate())
    } else {
        ui.add(egui::Label::new(&message.text).truncate())
    };
    state.record_rect("status_message", shown.rect);
    shown.context_menu(|ui| {
        let copy = ui.button("Copy message");
        state.record_rect("status_message:copy", copy.rect);
        if copy.clicked() {
            out.copy_message = true;
            ui.close_menu();
        }
    });
}
