//! The help overlay (F1 or ?): every key, read from the command table (`app::commands`), and
//! every mouse gesture, in a scroll area so it fits any window.

use crate::app::commands::{self, COMMANDS, MOUSE};

/// Draws the help contents (scrolls when the window is too short for them).
pub fn help_panel(ui: &mut egui::Ui) {
    egui::ScrollArea::vertical().auto_shrink([false, true]).show(ui, |ui| {
        ui.strong("Keys");
        egui::Grid::new("help_keys").num_columns(2).striped(true).show(ui, |ui| {
            for spec in COMMANDS {
                ui.label(egui::RichText::new(commands::keys_label(spec.id)).monospace());
                ui.add(egui::Label::new(spec.help).wrap());
                ui.end_row();
            }
        });
        ui.add_space(6.0);
        ui.strong("Mouse");
        egui::Grid::new("help_mouse").num_columns(2).striped(true).show(ui, |ui| {
            for (gesture, action) in MOUSE {
                ui.label(egui::RichText::new(gesture).monospace());
                ui.add(egui::Label::new(action).wrap());
                ui.end_row();
            }
        });
        ui.add_space(6.0);
        ui.label(
            egui::RichText::new(
                "Keys do nothing while a text field has focus or a dialog is open; click in the world first.",
            )
            .weak(),
        );
    });
}
