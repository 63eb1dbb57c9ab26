//! The help overlay (F1 or ?): every key and mouse action of the editor, as handled in
//! `app::tools`, grouped by what they do.

use crate::app::Tool;

/// Keyboard actions besides the tool keys: (keys, what they do).
pub const KEYS: [(&str, &str); 20] = [
    ("Space", "play or pause"),
    ("Right arrow or .", "run one step (pauses)"),
    ("Left/Right arrow, , or .", "step-through open: previous or next iteration"),
    ("Home or End", "step-through open: first or last iteration (Esc closes it)"),
    ("R", "reset to the scene's start"),
    ("F", "fit the scene in the view"),
    ("Tab", "switch between the top view and the 3D view"),
    ("Delete or Backspace", "delete the selection (and agents that depend on it)"),
    ("Enter", "finish the path or spline being drawn"),
    ("Esc", "finish drawing, or back to the Select tool"),
    ("N", "Path tool: start a new path"),
    ("M", "clone the selected agent once per comparable behaviour (compare)"),
    ("[ and ]", "halve or double the simulation speed"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Shift+Z or Ctrl+Y", "redo"),
    ("Ctrl+S", "save"),
    ("Ctrl+Shift+S", "save as"),
    ("Ctrl+O", "open a scene"),
    ("Ctrl+N", "new empty scene"),
    ("F1 or ?", "show or hide this help"),
];

/// Mouse actions: (gesture, what it does).
pub const MOUSE: [(&str, &str); 11] = [
    ("wheel", "zoom at the cursor (3D: move closer or farther)"),
    ("right or middle drag", "pan the top view"),
    ("right drag (3D)", "orbit the camera"),
    ("middle or Shift+right drag (3D)", "pan the 3D view"),
    ("left drag (Select tool)", "move what is under the cursor"),
    ("Shift+left drag (3D)", "lift or lower what is dragged"),
    (
        "Alt+drag or Ctrl+drag from an agent",
        "push it (Select tool): on release its velocity changes by the arrow, 1 unit/s per unit",
    ),
    ("click (Target tool, planner selected)", "append a waypoint to the planner ship"),
    ("click on the ground (3D)", "tools place things where the ray meets the ground"),
    ("click in a panel row", "select that agent"),
    ("drop a .json file on the window", "open it as a scene"),
];

/// Draws the help contents.
pub fn help_panel(ui: &mut egui::Ui) {
    ui.strong("Tools");
    egui::Grid::new("help_tools").num_columns(2).striped(true).show(ui, |ui| {
        for tool in Tool::ALL {
            ui.label(egui::RichText::new(tool.key_label()).monospace());
            ui.label(tool.hint());
            ui.end_row();
        }
    });
    ui.add_space(6.0);
    ui.strong("Keys");
    egui::Grid::new("help_keys").num_columns(2).striped(true).show(ui, |ui| {
        for (keys, action) in KEYS {
            ui.label(egui::RichText::new(keys).monospace());
            ui.label(action);
            ui.end_row();
        }
    });
    ui.add_space(6.0);
    ui.strong("Mouse");
    egui::Grid::new("help_mouse").num_columns(2).striped(true).show(ui, |ui| {
        for (gesture, action) in MOUSE {
            ui.label(egui::RichText::new(gesture).monospace());
            ui.label(action);
            ui.end_row();
        }
    });
    ui.add_space(6.0);
    ui.label(
        egui::RichText::new("Keys do nothing while a text field has focus; click in the world first.").weak(),
    );
}
