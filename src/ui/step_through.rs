//! The planner step-through window (seed 004's walk-through, one iteration at a time): First /
//! Prev / Next / Last buttons, "iteration k of n", what the iteration did, and the stack of
//! proto-waypoints (top first) as it was when the iteration began. The world view draws the same
//! iteration; this panel only returns `PlannerDebugGoto` and `ClosePlannerDebug` commands.

use std::collections::BTreeMap;

use crate::app::planner_debug::fmt_point;
use crate::app::{Command, PlannerDebug, StepMove};

/// Draws the step-through controls for `debug`; returns the commands.
pub fn step_through_panel(
    ui: &mut egui::Ui,
    debug: &PlannerDebug,
    agent_name: &str,
    rects: &mut BTreeMap<String, egui::Rect>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let count = debug.count();
    let k = debug.iteration;
    ui.label(format!("{agent_name}: replanned from where it stood, every iteration recorded."));
    ui.horizontal(|ui| {
        let buttons: [(&str, &str, &str, StepMove); 4] = [
            ("⏮ First", "step:first", "The first iteration (Home)", StepMove::First),
            ("◀ Prev", "step:prev", "The previous iteration (Left arrow or ,)", StepMove::Previous),
            ("Next ▶", "step:next", "The next iteration (Right arrow or .)", StepMove::Next),
            ("Last ⏭", "step:last", "The last iteration: the finished plan (End)", StepMove::Last),
        ];
        for (label, name, doc, step) in buttons {
            let goto = debug.target(step);
            let response = ui.add_enabled(goto != k, egui::Button::new(label)).on_hover_text(doc);
            rects.insert(name.to_string(), response.rect);
            if response.clicked() {
                commands.push(Command::PlannerDebugGoto(goto));
            }
        }
    });
    let counter =
        if count == 0 { "no iterations".to_string() } else { format!("iteration {} of {count}", k + 1) };
    let response = ui.strong(counter);
    rects.insert("step:counter".to_string(), response.rect);
    ui.label(debug.narrate());

    if let Some(it) = debug.current() {
        ui.add_space(4.0);
        ui.strong("Proto-waypoint stack (top first)").on_hover_text(
            "The stack before this iteration: the top is the proto-waypoint the route is tested to",
        );
        egui::Grid::new("step_stack").num_columns(3).striped(true).show(ui, |ui| {
            for (depth, &p) in it.stack.iter().rev().enumerate() {
                ui.label(if depth == 0 { "top".to_string() } else { format!("{}", depth + 1) });
                let row = ui.label(debug.describe(p));
                rects.insert(format!("step:stack:{depth}:{}", debug.describe(p)), row.rect);
                ui.label(fmt_point(p));
                ui.end_row();
            }
        });
        ui.label(
            egui::RichText::new(format!(
                "Real waypoints so far: {} · plan: {}",
                debug.path_so_far().len().saturating_sub(1),
                debug.plan.summary()
            ))
            .weak(),
        );
    }
    for search in &debug.plan.fallbacks {
        let found = match &search.outcome {
            crate::planner::fallback::FallbackOutcome::Route(points) => {
                format!(
                    "found a route of {} corners (orange in the world view)",
                    points.len().saturating_sub(1)
                )
            }
            crate::planner::fallback::FallbackOutcome::NoRoute => {
                "no route: the waypoint is unreachable".to_string()
            }
            crate::planner::fallback::FallbackOutcome::NoEntry => "no free cell to start from".to_string(),
        };
        let line = ui.label(format!(
            "Fallback (the loop stopped short): grid search, cells of {:.1}, explored {} cells, {found}",
            search.cell, search.expanded
        ));
        rects.insert("step:fallback".to_string(), line.rect);
    }
    for u in debug.plan.unreachable() {
        let line = ui.label(
            egui::RichText::new(format!(
                "Status: unreachable: user waypoint {} {}",
                u.index + 1,
                u.reason.describe()
            ))
            .color(super::ERROR_RED),
        );
        rects.insert(format!("step:unreachable:{}", u.index + 1), line.rect);
    }
    ui.label(
        egui::RichText::new(
            "Green: planned path so far · red: direct route to the first user waypoint · blue: \
             obstacle hit · black: avoidance vector · orange: route from the complete fallback search · \
             faint band: the swept sphere of this cast. \
             Smoothing (if on) runs after the loop and is not shown.",
        )
        .weak()
        .small(),
    );
    super::legend::planner_legend(ui, "step:key", rects);
    ui.horizontal(|ui| {
        let close = ui.button("Close").on_hover_text("Leave the step-through");
        rects.insert("step:close".to_string(), close.rect);
        if close.clicked() {
            commands.push(Command::ClosePlannerDebug);
        }
        let again = ui
            .button("Replan here")
            .on_hover_text("Record a new plan from where the ship is now (after playing on)");
        rects.insert("step:replan".to_string(), again.rect);
        if again.clicked() {
            commands.push(Command::OpenPlannerDebug { agent: debug.agent });
        }
    });
    commands
}
