//! The planner step-through panel and the planner's inspector, headless: the inspector's button
//! opens the step-through, the panel's buttons move through the iterations, its stack rows are
//! the recorded stack, and Close closes it.

use crate::ui_support;

use std::path::Path;

use steerlab::app::{App, Command, Selection};
use steerlab::scene::load_scene;
use steerlab::ui::UiState;
use ui_support::*;

fn walk_through() -> App {
    let world =
        load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-two-waypoints.json")).unwrap();
    let mut app = App::new(world, None);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app
}

/// The stack rows the panel shows, top first, as their descriptions.
fn stack_rows(state: &UiState) -> Vec<String> {
    let mut rows: Vec<(usize, String)> = state
        .widget_rects
        .keys()
        .filter_map(|k| k.strip_prefix("step:stack:"))
        .filter_map(|rest| rest.split_once(':'))
        .map(|(depth, what)| (depth.parse().unwrap(), what.to_string()))
        .collect();
    rows.sort();
    rows.into_iter().map(|(_, what)| what).collect()
}

#[test]
fn the_planner_inspector_button_opens_the_step_through() {
    let app = walk_through();
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "planner_step_through");
    assert_eq!(out.commands, vec![Command::OpenPlannerDebug { agent: 0 }]);
}

#[test]
fn next_prev_first_last_and_close_drive_the_step_through() {
    let mut app = walk_through();
    app.apply(Command::OpenPlannerDebug { agent: 0 });
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    assert!(state.widget_rects.contains_key("step_panel"));
    assert_eq!(stack_rows(&state), ["user waypoint 1", "user waypoint 2"]);

    // Prev and First are disabled on the first iteration.
    assert!(click_widget(&ctx, &app, &mut state, "step:prev").commands.is_empty());
    let out = click_widget(&ctx, &app, &mut state, "step:next");
    assert_eq!(out.commands, vec![Command::PlannerDebugGoto(1)]);
    app.apply(Command::PlannerDebugGoto(1));
    let _ = frames(&ctx, &app, &mut state, 2);
    // Iteration 2: avoidance A was pushed on top of waypoint 1.
    assert_eq!(stack_rows(&state), ["avoidance A", "user waypoint 1", "user waypoint 2"]);
    let debug = app.planner_debug.as_ref().unwrap();
    assert_eq!(stack_rows(&state).len(), debug.current().unwrap().stack.len());

    assert_eq!(
        click_widget(&ctx, &app, &mut state, "step:last").commands,
        vec![Command::PlannerDebugGoto(7)]
    );
    assert_eq!(
        click_widget(&ctx, &app, &mut state, "step:prev").commands,
        vec![Command::PlannerDebugGoto(0)]
    );
    assert_eq!(
        click_widget(&ctx, &app, &mut state, "step:first").commands,
        vec![Command::PlannerDebugGoto(0)]
    );
    app.apply(Command::PlannerDebugGoto(7));
    let _ = frames(&ctx, &app, &mut state, 2);
    assert!(
        click_widget(&ctx, &app, &mut state, "step:next").commands.is_empty(),
        "no iteration after the last"
    );
    assert_eq!(stack_rows(&state), ["user waypoint 2"]);
    assert_eq!(click_widget(&ctx, &app, &mut state, "step:close").commands, vec![Command::ClosePlannerDebug]);
    assert_eq!(click_widget(&ctx, &app, &mut state, "step:x").commands, vec![Command::ClosePlannerDebug]);
}

#[test]
fn fire_parameters_have_sliders_in_the_planner_inspector() {
    let app = walk_through();
    let mut state = UiState::default();
    let _ctx = settled(&app, &mut state);
    for key in ["incoming_fire", "fire_strength", "fire_seed"] {
        assert!(state.widget_rects.contains_key(&format!("param:{key}")), "no slider for {key}");
    }
}
