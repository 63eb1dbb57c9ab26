//! The top bar: the File, Edit and View menus, the tool buttons (with the behaviour or curve
//! kind for new things when that tool is active), and the transport (play, step, reset, time
//! scale), the 2D/3D toggle, Fit, Compare, Help and the UI scale.

use crate::app::camera::ViewMode;
use crate::app::tools::CurveTool;
use crate::app::{App, BehaviourKind, Command, Tool};

use super::{Request, UiOutput, UiState};

/// Draws the top bar into `ui`; requests go through `state`, everything else into `out`.
pub fn toolbar(
    ui: &mut egui::Ui,
    app: &App,
    state: &mut UiState,
    examples: &[(String, String)],
    out: &mut UiOutput,
) {
    egui::menu::bar(ui, |ui| {
        file_menu(ui, app, state, examples, out);
        edit_menu(ui, app, out);
        view_menu(ui, state);
        ui.separator();
        ui.label(egui::RichText::new(app.title()).weak());
    });
    ui.horizontal_wrapped(|ui| {
        for tool in Tool::ALL {
            let response = ui.selectable_label(app.tool == tool, tool.label()).on_hover_text(format!(
                "{} ({})",
                tool.hint(),
                tool.key_label()
            ));
            state.record_rect(format!("tool:{}", tool.label()), response.rect);
            if response.clicked() && app.tool != tool {
                out.commands.push(Command::SetTool(tool));
            }
        }
        if app.tool == Tool::Agent {
            let mut kind = app.new_agent_kind;
            egui::ComboBox::from_id_salt("new_agent_kind")
                .selected_text(kind.label())
                .show_ui(ui, |ui| {
                    for option in BehaviourKind::ALL {
                        ui.selectable_value(&mut kind, option, option.label());
                    }
                })
                .response
                .on_hover_text("Behaviour of the agents the Agent tool places");
            if kind != app.new_agent_kind {
                out.new_agent_kind = Some(kind);
            }
        }
        if app.tool == Tool::Curve {
            let mut kind = app.new_curve_kind;
            egui::ComboBox::from_id_salt("new_curve_kind")
                .selected_text(kind.label())
                .show_ui(ui, |ui| {
                    for option in CurveTool::ALL {
                        ui.selectable_value(&mut kind, option, option.label());
                    }
                })
                .response
                .on_hover_text("Kind of curve the Curve tool makes");
            if kind != app.new_curve_kind {
                out.new_curve_kind = Some(kind);
            }
        }
        ui.separator();
        transport(ui, app, state, out);
    });
}

fn transport(ui: &mut egui::Ui, app: &App, state: &mut UiState, out: &mut UiOutput) {
    let play_label = if app.running { "⏸ Pause" } else { "▶ Play" };
    let play = ui.button(play_label).on_hover_text("Run or pause the simulation (Space)");
    state.record_rect("play", play.rect);
    if play.clicked() {
        out.commands.push(Command::TogglePlay);
    }
    let step = ui.button("⏭ Step").on_hover_text("Run one fixed step and pause (Right arrow or .)");
    state.record_rect("step", step.rect);
    if step.clicked() {
        out.commands.push(Command::Step);
    }
    let reset = ui.button("⟲ Reset").on_hover_text("Back to the scene's start (R)");
    state.record_rect("reset", reset.rect);
    if reset.clicked() {
        out.commands.push(Command::Reset);
    }
    let mut scale = app.time_scale;
    let slider = ui
        .add(egui::Slider::new(&mut scale, 0.1..=8.0).logarithmic(true).suffix("×").max_decimals(2))
        .on_hover_text("Simulation speed ([ halves, ] doubles)");
    if slider.changed() && scale.is_finite() && scale != app.time_scale {
        out.commands.push(Command::SetTimeScale(scale));
    }
    ui.separator();
    let view_3d = app.camera.mode == ViewMode::Orbit;
    let view =
        ui.selectable_label(view_3d, "3D").on_hover_text("Switch between the top view and the 3D view (Tab)");
    state.record_rect("view", view.rect);
    if view.clicked() {
        out.commands.push(Command::ToggleView);
    }
    if ui.button("Fit").on_hover_text("Frame the whole scene (F)").clicked() {
        out.commands.push(Command::FitView);
    }
    let selected_agent = app.selected_agent();
    let compare = ui
        .add_enabled(selected_agent.is_some(), egui::Button::new("Compare"))
        .on_hover_text("Clone the selected agent once per comparable behaviour (M)")
        .on_disabled_hover_text("Select an agent to compare its behaviour with the others (M)");
    state.record_rect("compare", compare.rect);
    if compare.clicked() {
        if let Some(agent) = selected_agent {
            out.commands.push(Command::Compare { agent });
        }
    }
    let help = ui.selectable_label(state.help_open, "?").on_hover_text("Keys and mouse (F1 or ?)");
    if help.clicked() {
        state.help_open = !state.help_open;
    }
}

fn file_menu(
    ui: &mut egui::Ui,
    app: &App,
    state: &mut UiState,
    examples: &[(String, String)],
    out: &mut UiOutput,
) {
    ui.menu_button("File", |ui| {
        let mut request = None;
        if ui.add(egui::Button::new("New").shortcut_text("Ctrl+N")).clicked() {
            request = Some(Request::New);
        }
        if ui.add(egui::Button::new("Open…").shortcut_text("Ctrl+O")).clicked() {
            request = Some(Request::OpenDialog);
        }
        ui.menu_button("Examples", |ui| {
            if examples.is_empty() {
                ui.label("no examples found");
            }
            for (name, description) in examples {
                if ui.button(name).on_hover_text(description).clicked() {
                    request = Some(Request::OpenExample(name.clone()));
                }
            }
        });
        ui.menu_button("Recent", |ui| {
            if state.recent.is_empty() {
                ui.label("no recent files");
            }
            for path in &state.recent {
                let name = path
                    .file_name()
                    .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().to_string());
                if ui.button(name).on_hover_text(path.display().to_string()).clicked() {
                    request = Some(Request::OpenPath(path.clone()));
                }
            }
        });
        ui.separator();
        if ui.add(egui::Button::new("Save").shortcut_text("Ctrl+S")).clicked() {
            request = Some(Request::Save);
        }
        if ui.add(egui::Button::new("Save As…").shortcut_text("Ctrl+Shift+S")).clicked() {
            request = Some(Request::SaveAs);
        }
        ui.separator();
        if ui.button("Export metrics CSV…").clicked() {
            request = Some(Request::ExportCsv);
        }
        ui.separator();
        if ui.button("Quit").clicked() {
            request = Some(Request::Quit);
        }
        if let Some(request) = request {
            ui.close_menu();
            state.request(request, app, out);
        }
    });
}

fn edit_menu(ui: &mut egui::Ui, app: &App, out: &mut UiOutput) {
    ui.menu_button("Edit", |ui| {
        if ui.add_enabled(app.can_undo(), egui::Button::new("Undo").shortcut_text("Ctrl+Z")).clicked() {
            out.commands.push(Command::Undo);
            ui.close_menu();
        }
        if ui.add_enabled(app.can_redo(), egui::Button::new("Redo").shortcut_text("Ctrl+Shift+Z")).clicked() {
            out.commands.push(Command::Redo);
            ui.close_menu();
        }
        ui.separator();
        let delete = egui::Button::new("Delete selection").shortcut_text("Delete");
        if ui.add_enabled(app.selection.is_some(), delete).clicked() {
            out.commands.push(Command::DeleteSelection);
            ui.close_menu();
        }
        if ui.add_enabled(app.selection.is_some(), egui::Button::new("Select nothing")).clicked() {
            out.commands.push(Command::Select(None));
            ui.close_menu();
        }
    });
}

fn view_menu(ui: &mut egui::Ui, state: &mut UiState) {
    ui.menu_button("View", |ui| {
        ui.checkbox(&mut state.panels.scene, "Agents and inspector");
        ui.checkbox(&mut state.panels.display, "Display toggles");
        ui.checkbox(&mut state.panels.metrics, "Metrics");
        ui.checkbox(&mut state.panels.plots, "Plots");
        ui.checkbox(&mut state.help_open, "Help (F1)");
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("UI scale");
            ui.add(egui::Slider::new(&mut state.ui_scale, 0.5..=3.0).max_decimals(2).suffix("×"))
                .on_hover_text("Size of the panels and text (for high-resolution screens)");
        });
    });
}
