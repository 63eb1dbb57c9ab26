//! The agent inspector's "Copies" rows: how many copies of the selected agent to add, about how
//! far apart, whether their headings are spread, and the button that adds them
//! (`Command::AddCopies`; the placement is `app::edit::copies_of`'). The three values are the
//! declarations `edit::COPIES`, `edit::SPACING` and `edit::SPREAD_HEADINGS`, drawn by the same
//! rows as a behaviour's parameters (a typed value outside them is refused, never clamped), and
//! are kept in [`CopiesForm`] between selections.

use crate::app::edit::{COPIES, SPACING, SPREAD_HEADINGS};
use crate::app::{App, Command};

use super::params::{param_row, row, ParamValue};
use super::UiState;

/// What the Copies rows hold between frames (and between selections).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopiesForm {
    /// How many copies one press adds.
    pub copies: u32,
    /// About how far apart neighbouring copies start, world units.
    pub spacing: f32,
    /// Whether each copy's start heading is turned by a different angle.
    pub spread_headings: bool,
}

impl Default for CopiesForm {
    fn default() -> Self {
        CopiesForm {
            copies: COPIES.default as u32,
            spacing: SPACING.default,
            spread_headings: SPREAD_HEADINGS.default != 0.0,
        }
    }
}

/// Draws the Copies rows for agent `agent_idx`; returns the command when the button is pressed.
/// Rectangles: `param:copies`, `param:spacing`, `param:spread_headings` and `copies:add`.
pub fn copies_rows(ui: &mut egui::Ui, app: &App, state: &mut UiState, agent_idx: usize) -> Option<Command> {
    ui.strong("Copies").on_hover_text(
        "Add copies of this agent on a sunflower spiral round its start: its behaviours, limits and colour, one undo step",
    );
    let form = &mut state.copies;
    let rects = &mut state.widget_rects;
    egui::Grid::new("agent_copies").num_columns(3).show(ui, |ui| {
        if let Some(ParamValue::Int(copies)) =
            param_row(ui, &row(&COPIES, ParamValue::Int(form.copies)), rects)
        {
            form.copies = copies;
        }
        if let Some(ParamValue::Float(spacing)) =
            param_row(ui, &row(&SPACING, ParamValue::Float(form.spacing)), rects)
        {
            form.spacing = spacing;
        }
        let spread = ParamValue::Bool(form.spread_headings);
        if let Some(ParamValue::Bool(spread)) = param_row(ui, &row(&SPREAD_HEADINGS, spread), rects) {
            form.spread_headings = spread;
        }
    });
    let room = crate::scene::MAX_AGENTS.saturating_sub(app.world.agents.len());
    let label =
        if form.copies == 1 { "Add 1 copy".to_string() } else { format!("Add {} copies", form.copies) };
    let button = ui
        .add_enabled(room > 0, egui::Button::new(label))
        .on_hover_text("Ctrl+Z takes them away in one step")
        .on_disabled_hover_text(format!(
            "The scene holds the most agents it can ({})",
            crate::scene::MAX_AGENTS
        ));
    rects.insert("copies:add".to_string(), button.rect);
    button.clicked().then_some(Command::AddCopies {
        agent: agent_idx,
        copies: form.copies as usize,
        spacing: form.spacing,
        spread_headings: form.spread_headings,
    })
}
