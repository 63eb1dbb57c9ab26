//! The top bar: the File, Edit and View menus, the tool buttons and the transport (play, step,
//! reset, time scale), the 2D/3D toggle, Fit, Compare, Help and the UI scale; and the active
//! tool's options (the behaviour or curve kind for new things, or the Paint tool's brush), shown
//! over the world view's corner ([`tool_options_area`]).

use crate::app::camera::ViewMode;
use crate::app::commands::{self, CommandId};
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
        edit_menu(ui, app, state, out);
        view_menu(ui, app, state, out);
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
        ui.separator();
        transport(ui, app, state, out);
    });
}

/// The active tool's options (the Agent tool's behaviour, the Curve tool's kind, the Paint
/// tool's brush), in a small bar over the world view's top-left corner rather than in the
/// toolbar: choosing a tool never changes the toolbar's height, so the world view never moves
/// under the pointer. Call after every panel is laid out (the corner is the free area's).
pub fn tool_options_area(ctx: &egui::Context, app: &App, state: &mut UiState, out: &mut UiOutput) {
    if !matches!(app.tool, Tool::Agent | Tool::Curve | Tool::Paint) {
        return;
    }
    let corner = ctx.available_rect().left_top() + egui::vec2(8.0, 8.0);
    let area = egui::Area::new(egui::Id::new("steerlab_tool_options"))
        .fixed_pos(corner)
        .enabled(!state.modal_open())
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new(app.tool.label()).strong());
                    tool_options(ui, app, state, out);
                });
            });
        });
    state.record_rect("tool_options", area.response.rect);
}

fn tool_options(ui: &mut egui::Ui, app: &App, state: &mut UiState, out: &mut UiOutput) {
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
            out.commands.push(Command::SetNewAgentKind(kind));
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
            out.commands.push(Command::SetNewCurveKind(kind));
        }
    }
    if app.tool == Tool::Paint {
        // Out of range (typed) is refused by the command with a status message, not clamped.
        let declaration = &crate::app::tools::BRUSH_RADIUS;
        let mut radius = app.brush_radius;
        ui.label(declaration.label).on_hover_text(declaration.help);
        let response = ui
            .add(
                egui::Slider::new(&mut radius, declaration.min..=declaration.max)
                    .logarithmic(true)
                    .clamping(egui::SliderClamping::Never)
                    .max_decimals(1)
                    .suffix(format!(" {}", declaration.unit)),
            )
            .on_hover_text(declaration.help);
        state.record_rect("brush_radius", response.rect);
        if response.changed() && radius != app.brush_radius {
            out.commands.push(Command::SetBrushRadius(radius));
        }
        if let Some(field) = crate::app::edit::paint_target(&app.world, app.selected_agent()) {
            let id = app.world.fields.get(field).map_or("", |f| f.id.as_str());
            let delete = ui.small_button(format!("✖ {id}")).on_hover_text(format!(
                "Delete the painted field {id}, the one the brush paints (the selected agent's, else the \
                 scene's first); entries that read it read a noise field or their path. Undo brings it back."
            ));
            state.record_rect("delete_field", delete.rect);
            if delete.clicked() {
                out.commands.push(Command::DeleteField(field));
            }
        }
    }
}

fn transport(ui: &mut egui::Ui, app: &App, state: &mut UiState, out: &mut UiOutput) {
    let play_label = if app.running { "⏸ Pause" } else { "▶ Play" };
    let play = ui.button(play_label).on_hover_text(format!(
        "Run or pause the simulation ({})",
        commands::keys_label(CommandId::TogglePlay)
    ));
    state.record_rect("play", play.rect);
    if play.clicked() {
        out.commands.push(Command::TogglePlay);
    }
    let step = ui
        .button("⏭ Step")
        .on_hover_text(format!("Run one fixed step and pause ({})", commands::keys_label(CommandId::Step)));
    state.record_rect("step", step.rect);
    if step.clicked() {
        out.commands.push(Command::Step);
    }
    let back = ui.button("⏮ Back").on_hover_text(format!(
        "One step back along the recorded run ({})",
        commands::keys_label(CommandId::StepBack)
    ));
    state.record_rect("step_back", back.rect);
    if back.clicked() {
        out.commands.push(Command::StepBack);
    }
    let reset = ui
        .button("⟲ Reset")
        .on_hover_text(format!("Back to the scene's start ({})", commands::keys_label(CommandId::Reset)));
    state.record_rect("reset", reset.rect);
    if reset.clicked() {
        out.commands.push(Command::Reset);
    }
    room_for_a_slider(ui);
    timeline(ui, app, state, out);
    let mut scale = app.time_scale;
    room_for_a_slider(ui);
    let slider = ui
        .add(egui::Slider::new(&mut scale, 0.1..=8.0).logarithmic(true).suffix("×").max_decimals(2))
        .on_hover_text(format!(
            "Simulation speed ({} and {} step through 0.1, 0.25, 0.5, 1, 2, 4, 8)",
            commands::keys_label(CommandId::Slower),
            commands::keys_label(CommandId::Faster)
        ));
    state.record_rect("time_scale", slider.rect);
    if slider.changed() && scale.is_finite() && scale != app.time_scale {
        out.commands.push(Command::SetTimeScale(scale));
    }
    ui.separator();
    let view_3d = app.camera.mode == ViewMode::Orbit;
    let view = ui.selectable_label(view_3d, "3D").on_hover_text(format!(
        "Switch between the top view and the 3D view ({})",
        commands::keys_label(CommandId::ToggleView)
    ));
    state.record_rect("view", view.rect);
    if view.clicked() {
        out.commands.push(Command::ToggleView);
    }
    if ui
        .button("Fit")
        .on_hover_text(format!("Frame the whole scene ({})", commands::keys_label(CommandId::FitView)))
        .clicked()
    {
        out.commands.push(Command::FitView);
    }
    let shot = ui.button("📷").on_hover_text(format!(
        "Save a PNG of the window to the pictures folder ({}); {} records",
        commands::keys_label(CommandId::Screenshot),
        commands::keys_label(CommandId::Record)
    ));
    state.record_rect("screenshot", shot.rect);
    if shot.clicked() {
        out.commands.push(Command::File(Request::Screenshot));
    }
    let selected_agent = app.selected_agent();
    let compare = ui
        .add_enabled(selected_agent.is_some(), egui::Button::new("Compare"))
        .on_hover_text(format!(
            "Clone the selected agent once per comparable behaviour ({})",
            commands::keys_label(CommandId::Compare)
        ))
        .on_disabled_hover_text(format!(
            "Select an agent to compare its behaviour with the others ({})",
            commands::keys_label(CommandId::Compare)
        ));
    state.record_rect("compare", compare.rect);
    if compare.clicked() {
        if let Some(agent) = selected_agent {
            out.commands.push(Command::Compare { agent });
        }
    }
    let mut snap = app.snap.on;
    let snap_box = ui.checkbox(&mut snap, "Snap").on_hover_text(format!(
        "Placing and dragging land on a {} grid ({}; the size is in the View menu)",
        app.snap.size,
        commands::keys_label(CommandId::ToggleSnap)
    ));
    state.record_rect("snap", snap_box.rect);
    if snap_box.changed() {
        out.commands.push(Command::ToggleSnap);
    }
    let help = ui
        .selectable_label(state.help_open, "?")
        .on_hover_text(format!("Keys and mouse ({})", commands::keys_label(CommandId::Help)));
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
    let button = ui.menu_button("File", |ui| {
        let mut request = None;
        if menu_item(ui, app, state, CommandId::New) {
            request = Some(Request::New);
        }
        if menu_item(ui, app, state, CommandId::Open) {
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
        if menu_item(ui, app, state, CommandId::Save) {
            request = Some(Request::Save);
        }
        if menu_item(ui, app, state, CommandId::SaveAs) {
            request = Some(Request::SaveAs);
        }
        if menu_item(ui, app, state, CommandId::Revert) {
            request = Some(Request::Revert);
        }
        ui.separator();
        if menu_item(ui, app, state, CommandId::Screenshot) {
            request = Some(Request::Screenshot);
        }
        if menu_item(ui, app, state, CommandId::Record) {
            request = Some(Request::ToggleRecording);
        }
        ui.separator();
        if ui.button("Export metrics CSV…").clicked() {
            request = Some(Request::ExportCsv);
        }
        ui.separator();
        let quit = ui.button("Quit");
        state.record_rect("menu:quit", quit.rect);
        if quit.clicked() {
            request = Some(Request::Quit);
        }
        state.record_rect("menu:File", ui.min_rect());
        if let Some(request) = request {
            ui.close_menu();
            state.request(request, app, out);
        }
    });
    state.record_rect("menu_button:File", button.response.rect);
}

fn edit_menu(ui: &mut egui::Ui, app: &App, state: &mut UiState, out: &mut UiOutput) {
    let button = ui.menu_button("Edit", |ui| {
        for id in [
            CommandId::Undo,
            CommandId::Redo,
            CommandId::Copy,
            CommandId::Paste,
            CommandId::Duplicate,
            CommandId::Delete,
            CommandId::SelectAll,
        ] {
            if matches!(id, CommandId::Copy | CommandId::Delete) {
                ui.separator();
            }
            if menu_item(ui, app, state, id) {
                if let Some(command) = id.command(app) {
                    out.commands.push(command);
                }
                ui.close_menu();
            }
        }
        if ui.add_enabled(app.selection.is_some(), egui::Button::new("Select nothing")).clicked() {
            out.commands.push(Command::Select(None));
            ui.close_menu();
        }
    });
    state.record_rect("menu_button:Edit", button.response.rect);
}

fn view_menu(ui: &mut egui::Ui, app: &App, state: &mut UiState, out: &mut UiOutput) {
    let button = ui.menu_button("View", |ui| {
        let mut snap = app.snap.on;
        let toggle =
            ui.checkbox(&mut snap, format!("Snap to grid ({})", commands::shortcut(CommandId::ToggleSnap)));
        if toggle.changed() {
            out.commands.push(Command::ToggleSnap);
        }
        grid_size(ui, app, out);
        ui.separator();
        let panels = &mut state.panels;
        let toggles = [
            ("scene", ui.checkbox(&mut panels.scene, "Agents and inspector")),
            ("display", ui.checkbox(&mut panels.display, "Display toggles")),
            ("metrics", ui.checkbox(&mut panels.metrics, "Metrics")),
            ("plots", ui.checkbox(&mut panels.plots, "Plots")),
        ];
        for (name, response) in toggles {
            state.record_rect(format!("view:{name}"), response.rect);
        }
        ui.checkbox(&mut state.help_open, format!("Help ({})", commands::shortcut(CommandId::Help)));
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("UI scale");
            // Applied when the drag ends: a scale applied mid-drag resizes the slider under the
            // pointer, and the value runs away to an end (found by an audit in a real window).
            let mut scale = state.ui_scale_dragged.unwrap_or(state.ui_scale);
            let response = ui
                .add(
                    egui::Slider::new(&mut scale, super::preferences::UI_SCALE_RANGE)
                        .max_decimals(2)
                        .suffix("×"),
                )
                .on_hover_text("Size of the panels and text (for high-resolution screens)");
            state.record_rect("ui_scale", response.rect);
            if response.dragged() {
                state.ui_scale_dragged = Some(scale);
            } else {
                state.ui_scale = scale;
                state.ui_scale_dragged = None;
            }
        });
    });
    state.record_rect("menu_button:View", button.response.rect);
}

/// The grid spacing for snapping.
fn grid_size(ui: &mut egui::Ui, app: &App, out: &mut UiOutput) {
    ui.horizontal(|ui| {
        ui.label("Grid size");
        let mut size = app.snap.size;
        let range = crate::app::select::GRID_SIZE_RANGE;
        let slider = ui
            .add(egui::Slider::new(&mut size, range).logarithmic(true).suffix(" u").max_decimals(1))
            .on_hover_text("Spacing of the snapping grid, world units (not saved in the scene)");
        if slider.changed() && size.is_finite() && size != app.snap.size {
            out.commands.push(Command::SetGridSize(size));
        }
    });
}

/// A menu entry for a command of the table: its name and shortcut from the table, greyed out
/// when the table says it is not allowed now. Returns whether it was clicked.
/// A menu entry for a command of the table (its name, shortcut and whether it is allowed now),
/// recorded as `menu:NAME` (lower case) for the window tests; true when clicked.
fn menu_item(ui: &mut egui::Ui, app: &App, state: &mut UiState, id: CommandId) -> bool {
    let button = egui::Button::new(commands::name(id)).shortcut_text(commands::shortcut(id));
    let item = ui.add_enabled(commands::enabled(id, app), button);
    state.record_rect(format!("menu:{}", commands::name(id).to_lowercase()), item.rect);
    item.clicked()
}

/// The timeline slider: every recorded step of the run, from the start (or the last edit) to the
/// furthest step simulated; dragging it goes there (paused), metrics and plots following.
/// Starts a new toolbar row when a slider and its value box would not fit on this one (every
/// slider of the wrapped toolbar row asks first): a wrapped
/// row moves a widget down only when the widget itself does not fit, and a slider with its box
/// is laid out as one (in an 800-pixel window the speed slider ran off the right edge, found by
/// an audit).
fn room_for_a_slider(ui: &mut egui::Ui) {
    let spacing = ui.spacing();
    let width = spacing.slider_width + spacing.interact_size.x * 1.5 + spacing.item_spacing.x * 2.0;
    // In a wrapping row `available_width` is the whole row's; what is left is from the cursor.
    if ui.max_rect().right() - ui.cursor().left() < width {
        ui.end_row();
    }
}

fn timeline(ui: &mut egui::Ui, app: &App, state: &mut UiState, out: &mut UiOutput) {
    let (first, furthest) = app.timeline.range().unwrap_or((app.world.steps, app.world.steps));
    let dt = f64::from(app.world.dt);
    let mut step = app.world.steps;
    let slider = egui::Slider::new(&mut step, first..=furthest.max(first + 1))
        .custom_formatter(move |steps, _| format!("{:.2} s", steps * dt))
        .custom_parser(move |text| {
            text.trim().trim_end_matches('s').trim().parse::<f64>().ok().map(|s| s / dt)
        });
    let response = ui
        .add_enabled(furthest > first, slider)
        .on_hover_text("Timeline: drag back and forth through the simulated run (pauses)")
        .on_disabled_hover_text("Timeline: play first; then drag back and forth through the run");
    state.record_rect("timeline", response.rect);
    if response.changed() && step != app.world.steps {
        out.commands.push(Command::Seek(step));
    }
}
