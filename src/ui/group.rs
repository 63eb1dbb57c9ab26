//! The inspector of a selection of several things: how many of each kind are selected, and what
//! can be done to all of them at once — move by an offset, duplicate, copy, delete (each one
//! undo step). Dragging any selected item in the view moves them all too.

use glam::Vec3;

use crate::app::commands::{self, CommandId};
use crate::app::{plural, App, Command, Selection};

use super::UiState;

/// Draws the group inspector; returns the edits.
pub fn group_inspector(ui: &mut egui::Ui, app: &App, state: &mut UiState) -> Vec<Command> {
    let mut commands = Vec::new();
    let items = app.selected();
    ui.heading(format!("{} selected", items.len()));
    let count = |kind: fn(&Selection) -> bool| items.iter().filter(|s| kind(s)).count();
    let kinds = [
        (count(|s| matches!(s, Selection::Agent(_))), "agent"),
        (count(|s| matches!(s, Selection::Path(_))), "path"),
        (count(|s| matches!(s, Selection::PathPoint { .. })), "path point"),
        (count(|s| matches!(s, Selection::Curve(_))), "curve"),
        (count(|s| matches!(s, Selection::Target(_))), "target"),
        (count(|s| matches!(s, Selection::Obstacle(_))), "obstacle"),
        (count(|s| matches!(s, Selection::Waypoint { .. })), "waypoint"),
    ];
    let summary: Vec<String> =
        kinds.iter().filter(|(n, _)| *n > 0).map(|(n, noun)| plural(*n, noun)).collect();
    ui.label(summary.join(" · "));
    ui.label(
        egui::RichText::new(
            "Drag any of them in the view to move them all; Shift+click adds or removes one.",
        )
        .weak(),
    );
    ui.add_space(6.0);

    // Move by an offset typed here (remembered between frames in egui's memory).
    let id = ui.make_persistent_id("group_move_by");
    let mut delta: Vec3 = ui.data_mut(|d| *d.get_temp_mut_or(id, Vec3::new(50.0, 0.0, 0.0)));
    ui.horizontal(|ui| {
        ui.label("Move by").on_hover_text("Offset in world units added to every selected position");
        for (axis, component) in [("x ", &mut delta.x), ("y ", &mut delta.y), ("z ", &mut delta.z)] {
            ui.add(egui::DragValue::new(component).prefix(axis).speed(1.0));
        }
        let apply =
            ui.button("Move").on_hover_text("Move every selected thing by this offset (one undo step)");
        state.record_rect("group:move", apply.rect);
        if apply.clicked() && delta.is_finite() {
            commands.push(Command::MoveSelection { delta });
        }
    });
    ui.data_mut(|d| d.insert_temp(id, delta));

    ui.horizontal(|ui| {
        for (id, name) in [
            (CommandId::Duplicate, "group:duplicate"),
            (CommandId::Copy, "group:copy"),
            (CommandId::Delete, "group:delete"),
        ] {
            let label = match id {
                CommandId::Delete => format!("Delete all {}", items.len()),
                _ => commands::name(id).to_string(),
            };
            let button = ui.button(label).on_hover_text(commands::keys_label(id));
            state.record_rect(name, button.rect);
            if button.clicked() {
                commands.extend(id.command(app));
            }
        }
        if ui.button("Select nothing").clicked() {
            commands.push(Command::Select(None));
        }
    });
    commands
}
