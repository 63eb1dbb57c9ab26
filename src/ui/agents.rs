//! The agents list: every agent with its colour swatch, name and behaviour; a click selects it
//! (and a click on the selected row selects nothing); Shift+click adds it to the selection or
//! takes it out.

use crate::app::{App, Command, Selection};

use super::{color32, UiState};

/// Height of the agent list before it scrolls, in points.
pub const AGENT_LIST_HEIGHT: f32 = 300.0;

/// Draws the list; returns a `Select` command when a row was clicked.
pub fn agents_list(ui: &mut egui::Ui, app: &App, state: &mut UiState) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.heading(format!("Agents ({})", app.world.agents.len()));
    if app.world.agents.is_empty() {
        ui.label(
            egui::RichText::new("No agents yet: pick the Agent tool (5 / A) and click in the world.").weak(),
        );
        return commands;
    }
    let selected = app.selected_agent();
    // Only the visible rows are laid out, so a thousand agents cost what a dozen do.
    let row_height = ui.spacing().interact_size.y.max(18.0);
    // At most 40% of the panel, so the inspector below always has room on small windows.
    let max_height = AGENT_LIST_HEIGHT.min(ui.available_height() * 0.4).max(4.0 * row_height);
    // When the selected agent changes (G, a click in the view) to a row out of sight, scroll it
    // into view.
    let memory_id = ui.make_persistent_id("agents_list_selected");
    let last: Option<usize> = ui.data_mut(|d| d.get_temp(memory_id)).flatten();
    ui.data_mut(|d| d.insert_temp(memory_id, selected));
    let mut area =
        egui::ScrollArea::vertical().id_salt("agents_list").max_height(max_height).auto_shrink([false, true]);
    if let Some(agent_idx) = selected.filter(|_| selected != last) {
        let spacing = ui.spacing().item_spacing.y;
        let row_top = agent_idx as f32 * (row_height + spacing);
        let area_id = ui.make_persistent_id("agents_list");
        let offset = egui::scroll_area::State::load(ui.ctx(), area_id).map_or(0.0, |s| s.offset.y);
        if row_top < offset || row_top + row_height > offset + max_height {
            area = area.vertical_scroll_offset((row_top - max_height * 0.5).max(0.0));
        }
    }
    area.show_rows(ui, row_height, app.world.agents.len(), |ui, rows| {
        for agent_idx in rows {
            let Some(agent) = app.world.agents.get(agent_idx) else { continue };
            ui.horizontal(|ui| {
                // The legend's show and solo: a hidden agent still runs and has metrics.
                let hidden = app.is_hidden(agent_idx);
                let eye =
                    ui.selectable_label(!hidden, if hidden { "◌" } else { "👁" }).on_hover_text(if hidden {
                        "Show this agent"
                    } else {
                        "Hide this agent in the view and plots"
                    });
                state.record_rect(format!("show:{agent_idx}"), eye.rect);
                if eye.clicked() {
                    commands.push(Command::SetAgentVisible { agent: agent_idx, visible: hidden });
                }
                let solo = ui.small_button("S").on_hover_text("Solo: show only this agent (again: show all)");
                state.record_rect(format!("solo:{agent_idx}"), solo.rect);
                if solo.clicked() {
                    commands.push(Command::Solo { agent: agent_idx });
                }
                let (swatch, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
                ui.painter().rect_filled(swatch, 2.0, color32(agent.about.color));
                let is_selected = app.is_selected(Selection::Agent(agent_idx));
                let finished = if agent.is_finished() { " ✔" } else { "" };
                let text = format!("{}  ·  {}{finished}", agent.about.name, agent.behaviour.type_name());
                let response = ui.selectable_label(is_selected, text).on_hover_text(format!(
                    "radius {:.0}, max speed {:.0} u/s, max acceleration {:.0} u/s²{}",
                    agent.limits.radius,
                    agent.limits.max_speed,
                    agent.limits.max_acceleration,
                    if agent.avoids_obstacles() { ", avoids obstacles" } else { "" }
                ));
                state.record_rect(format!("agent:{agent_idx}"), response.rect);
                if response.clicked() && ui.input(|i| i.modifiers.shift) {
                    commands.push(Command::ToggleSelected(Selection::Agent(agent_idx)));
                } else if response.clicked() {
                    let only_this = selected == Some(agent_idx) && app.selection_count() == 1;
                    let selection = if only_this { None } else { Some(Selection::Agent(agent_idx)) };
                    commands.push(Command::Select(selection));
                }
            });
        }
    });
    commands
}
