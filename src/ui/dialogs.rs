//! Small modal questions: "Discard unsaved changes?" before New, Open, an example, a recent
//! file or quitting with a dirty scene, and the autosave recovery prompt at start-up.

use crate::app::App;

use super::RecoveryChoice;

/// The answer to "Discard unsaved changes?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfirmAnswer {
    /// Save first, then go on.
    Save,
    /// Go on without saving.
    Discard,
    /// Stay.
    Cancel,
}

/// Draws the unsaved-changes question; returns the answer once given.
pub fn confirm_window(ctx: &egui::Context, app: &App) -> Option<ConfirmAnswer> {
    let mut answer = None;
    egui::Window::new("Unsaved changes")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label(format!("Discard unsaved changes to {}?", app.display_name()));
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button("Save").on_hover_text("Save the scene first, then go on").clicked() {
                    answer = Some(ConfirmAnswer::Save);
                }
                if ui.button("Discard").on_hover_text("Lose the changes and go on").clicked() {
                    answer = Some(ConfirmAnswer::Discard);
                }
                if ui.button("Cancel").on_hover_text("Keep editing this scene").clicked() {
                    answer = Some(ConfirmAnswer::Cancel);
                }
            });
        });
    answer
}

/// Draws the autosave recovery prompt; returns the choice once made.
pub fn recovery_window(ctx: &egui::Context) -> Option<RecoveryChoice> {
    let mut choice = None;
    egui::Window::new("Recover autosaved scene")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label("steerlab did not close normally last time. An autosaved scene is available.");
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                if ui.button("Restore autosaved scene").clicked() {
                    choice = Some(RecoveryChoice::Restore);
                }
                if ui.button("Discard").on_hover_text("Delete the autosave and keep the scene that is open").clicked() {
                    choice = Some(RecoveryChoice::Discard);
                }
            });
        });
    choice
}
