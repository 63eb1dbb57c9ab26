//! Small modal questions: "Discard unsaved changes?" before New, Open, an example, a recent
//! file or quitting with a dirty scene, and the autosave recovery prompt at start-up.

use std::collections::BTreeMap;

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
/// Button rectangles go into `rects` as `confirm:save`, `confirm:discard`, `confirm:cancel`.
/// `keys` is false on the frame the question appears, so the Enter that chose a file in the
/// dialog before it does not answer it too.
pub fn confirm_window(
    ctx: &egui::Context,
    app: &App,
    rects: &mut BTreeMap<String, egui::Rect>,
    keys: bool,
) -> Option<ConfirmAnswer> {
    let mut answer = None;
    egui::Window::new("Unsaved changes")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label(format!("Discard unsaved changes to {}?", app.display_name()));
            ui.label(egui::RichText::new("Enter saves first, Esc cancels").weak());
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                let button = ui.button("Save").on_hover_text("Save the scene first, then go on");
                rects.insert("confirm:save".to_string(), button.rect);
                if button.clicked() {
                    answer = Some(ConfirmAnswer::Save);
                }
                let button = ui.button("Discard").on_hover_text("Lose the changes and go on");
                rects.insert("confirm:discard".to_string(), button.rect);
                if button.clicked() {
                    answer = Some(ConfirmAnswer::Discard);
                }
                let button = ui.button("Cancel").on_hover_text("Keep editing this scene");
                rects.insert("confirm:cancel".to_string(), button.rect);
                if button.clicked() {
                    answer = Some(ConfirmAnswer::Cancel);
                }
            });
        });
    // The question owns Enter (the safe answer: save first) and Esc (cancel).
    let (enter, escape) =
        ctx.input(|i| (keys && i.key_pressed(egui::Key::Enter), keys && i.key_pressed(egui::Key::Escape)));
    if escape {
        answer = Some(ConfirmAnswer::Cancel);
    } else if enter && answer.is_none() {
        answer = Some(ConfirmAnswer::Save);
    }
    answer
}

/// Draws the autosave recovery prompt; returns the choice once made.
/// Button rectangles go into `rects` as `recovery:restore` and `recovery:discard`.
pub fn recovery_window(
    ctx: &egui::Context,
    rects: &mut BTreeMap<String, egui::Rect>,
) -> Option<RecoveryChoice> {
    let mut choice = None;
    egui::Window::new("Recover autosaved scene")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label("steerlab did not close normally last time. An autosaved scene is available.");
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                let button = ui.button("Restore autosaved scene");
                rects.insert("recovery:restore".to_string(), button.rect);
                if button.clicked() {
                    choice = Some(RecoveryChoice::Restore);
                }
                let button =
                    ui.button("Discard").on_hover_text("Delete the autosave and keep the scene that is open");
                rects.insert("recovery:discard".to_string(), button.rect);
                if button.clicked() {
                    choice = Some(RecoveryChoice::Discard);
                }
            });
        });
    // Enter restores; Esc is not an answer here, so a stray key never deletes the autosave.
    if choice.is_none() && ctx.input(|i| i.key_pressed(egui::Key::Enter)) {
        choice = Some(RecoveryChoice::Restore);
    }
    choice
}
