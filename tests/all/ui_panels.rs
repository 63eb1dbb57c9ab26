//! Headless UI tests: the whole window UI runs on `egui::Context::default()` for a few frames
//! with different worlds and selections, and clicks are simulated with raw pointer events at
//! the rectangles the panels recorded.

use crate::ui_support;

use steerlab::app::FileCommand;
use steerlab::app::{App, Command, Selection, Tool};
use steerlab::sim::World;
use steerlab::ui::{RecoveryChoice, UiOutput, UiState};
use ui_support::*;

#[test]
fn empty_world_with_every_panel_and_help_runs_without_output() {
    let app = App::new(World::default(), None);
    let mut state = all_panels();
    state.help_open = true;
    let ctx = egui::Context::default();
    let out = frames(&ctx, &app, &mut state, 3);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn clicking_a_tool_button_returns_set_tool() {
    let app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "tool:Path");
    assert_eq!(out.commands, vec![Command::SetTool(Tool::Path)]);
}

#[test]
fn clicking_the_active_tool_returns_nothing() {
    let app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "tool:Select");
    assert!(out.commands.is_empty(), "{:?}", out.commands);
}

#[test]
fn clicking_play_returns_toggle_play_and_step_returns_step() {
    let app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    assert_eq!(click_widget(&ctx, &app, &mut state, "play").commands, vec![Command::TogglePlay]);
    assert_eq!(click_widget(&ctx, &app, &mut state, "step").commands, vec![Command::Step]);
    assert_eq!(click_widget(&ctx, &app, &mut state, "reset").commands, vec![Command::Reset]);
    assert_eq!(click_widget(&ctx, &app, &mut state, "view").commands, vec![Command::ToggleView]);
}

#[test]
fn clicking_an_agent_row_selects_it_and_clicking_again_deselects() {
    let mut app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "agent:2");
    assert_eq!(out.commands, vec![Command::Select(Some(Selection::Agent(2)))]);
    app.apply(Command::Select(Some(Selection::Agent(2))));
    let _ = frame(&ctx, &app, &mut state, Vec::new());
    let out = click_widget(&ctx, &app, &mut state, "agent:2");
    assert_eq!(out.commands, vec![Command::Select(None)]);
}

#[test]
fn compare_is_disabled_without_a_selected_agent_and_enabled_with_one() {
    let mut app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    assert!(click_widget(&ctx, &app, &mut state, "compare").commands.is_empty());
    app.apply(Command::Select(Some(Selection::Agent(0))));
    let _ = frame(&ctx, &app, &mut state, Vec::new());
    assert_eq!(click_widget(&ctx, &app, &mut state, "compare").commands, vec![Command::Compare { agent: 0 }]);
}

#[test]
fn every_agent_of_a_world_without_paths_can_be_inspected() {
    let mut app = App::new(world_without_geometry(), None);
    let mut state = all_panels();
    let ctx = egui::Context::default();
    for agent in 0..app.world.agents.len() {
        app.apply(Command::Select(Some(Selection::Agent(agent))));
        let out = frames(&ctx, &app, &mut state, 2);
        assert!(out.commands.is_empty(), "agent {agent}: {:?}", out.commands);
    }
    app.apply(Command::Select(Some(Selection::Waypoint { agent: 3, waypoint: 1 })));
    assert!(frames(&ctx, &app, &mut state, 2).commands.is_empty());
    for selection in [Selection::Obstacle(0), Selection::Target(0)] {
        app.apply(Command::Select(Some(selection)));
        assert!(frames(&ctx, &app, &mut state, 2).commands.is_empty(), "{selection:?}");
    }
}

#[test]
fn every_behaviour_kind_and_every_kind_of_selection_can_be_inspected() {
    let mut app = App::new(world_with_everything(), None);
    let mut state = all_panels();
    let ctx = egui::Context::default();
    let mut selections: Vec<Selection> = (0..app.world.agents.len()).map(Selection::Agent).collect();
    selections.extend([
        Selection::Path(0),
        Selection::PathPoint { path: 0, point: 2 },
        Selection::Obstacle(0),
        Selection::Target(0),
        Selection::Curve(0),
        Selection::Curve(1),
        Selection::Waypoint { agent: 3, waypoint: 0 },
    ]);
    for selection in selections {
        app.apply(Command::Select(Some(selection)));
        assert_eq!(app.selection, Some(selection));
        let out = frames(&ctx, &app, &mut state, 2);
        assert!(out.commands.is_empty(), "{selection:?}: {:?}", out.commands);
    }
    assert!(state.expr_editor.is_some(), "selecting the expr curve fills its editor");
}

#[test]
fn a_running_world_with_history_draws_plots_and_metrics() {
    let mut app = App::new(world_with_everything(), None);
    for _ in 0..120 {
        app.step_once();
    }
    assert!(!app.history.is_empty());
    let mut state = all_panels();
    let ctx = egui::Context::default();
    let out = frames(&ctx, &app, &mut state, 2);
    assert!(out.commands.is_empty());
}

#[test]
fn an_error_message_shows_a_dismiss_button_that_clears_it() {
    let mut app = App::new(world_without_geometry(), None);
    app.set_error("error: bad.json: $.agents[0].radius (line 3, column 9): must be positive");
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "dismiss_message");
    assert_eq!(out.commands, [Command::DismissMessage]);
    app.apply(Command::DismissMessage);
    assert!(app.message.is_none());
    app.info("saved");
    let _ = frame(&ctx, &app, &mut state, Vec::new());
    assert!(!state.widget_rects.contains_key("dismiss_message"), "notes have no dismiss button");
}

/// A click at `pos` with `button` over four frames (move, rest, press, release); returns what
/// the frames copied.
fn click_copying(
    ctx: &egui::Context,
    app: &App,
    state: &mut UiState,
    pos: egui::Pos2,
    button: egui::PointerButton,
) -> Vec<String> {
    let press =
        |pressed| egui::Event::PointerButton { pos, button, pressed, modifiers: egui::Modifiers::NONE };
    let mut copied = frame_copying(ctx, app, state, vec![egui::Event::PointerMoved(pos)]);
    copied.extend(frame_copying(ctx, app, state, Vec::new()));
    copied.extend(frame_copying(ctx, app, state, vec![press(true)]));
    copied.extend(frame_copying(ctx, app, state, vec![press(false)]));
    copied
}

#[test]
fn a_message_cut_short_by_the_bar_is_copied_whole_from_its_button_and_its_menu() {
    // An error names the file, the JSON path, the line and the column; in a narrow bar it ends in
    // "…" before the part a user needs, so it is copied whole, not as shown.
    let long = format!(
        "error: {}/bad.json: $.agents[0].behaviour.params.radius (line 3, column 9): must be positive",
        "/home/someone/projects/steering/scenes/drafts".repeat(3)
    );
    let mut app = App::new(world_without_geometry(), None);
    app.set_error(long.clone());
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let shown = state.widget_rects["status_message"];
    assert!(shown.max.x <= 1280.5, "the message ends in the window: {shown:?}");
    let button = state.widget_rects["copy_message"].center();
    assert_eq!(click_copying(&ctx, &app, &mut state, button, egui::PointerButton::Primary), vec![long]);
    // Every message, an error or a note, copies from its right-click menu.
    app.info(format!("saved {}", "/a/long/folder/name".repeat(20)));
    let _ = frames(&ctx, &app, &mut state, 2);
    assert!(!state.widget_rects.contains_key("copy_message"), "a note has no copy button");
    let message = state.widget_rects["status_message"].center();
    let _ = click_copying(&ctx, &app, &mut state, message, egui::PointerButton::Secondary);
    let _ = frames(&ctx, &app, &mut state, 1);
    let item = state.widget_rects["status_message:copy"].center();
    let note = app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default();
    assert_eq!(click_copying(&ctx, &app, &mut state, item, egui::PointerButton::Primary), [note]);
}

#[test]
fn new_with_unsaved_changes_asks_and_discard_goes_on() {
    let mut app = App::new(world_without_geometry(), None);
    app.dirty = true;
    let mut state = UiState::default();
    state.queue(Command::File(FileCommand::New));
    let ctx = egui::Context::default();
    let out = frames(&ctx, &app, &mut state, 2);
    assert!(out.commands.is_empty(), "nothing happens before the answer");
    assert!(state.confirm.is_some());
    let out = click_widget(&ctx, &app, &mut state, "confirm:discard");
    assert_eq!(out.commands, vec![Command::NewScene]);
    assert!(state.confirm.is_none());
}

#[test]
fn cancel_in_the_unsaved_changes_question_keeps_the_scene() {
    let mut app = App::new(world_without_geometry(), None);
    app.dirty = true;
    let mut state = UiState::default();
    state.queue(Command::File(FileCommand::OpenPath("dropped.json".into())));
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "confirm:cancel");
    assert!(out.is_empty(), "{out:?}");
    assert!(state.confirm.is_none());
}

#[test]
fn save_in_the_unsaved_changes_question_saves_then_goes_on() {
    let mut app = App::new(world_without_geometry(), Some("scenes/mine.json".into()));
    app.dirty = true;
    let mut state = UiState::default();
    state.queue(Command::File(FileCommand::OpenPath("other.json".into())));
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "confirm:save");
    assert_eq!(out.save_path(), Some("scenes/mine.json".into()));
    assert_eq!(out.open_path(), None, "the open waits for the save");
    // The shell saved successfully between the frames.
    app.mark_saved("scenes/mine.json".into());
    let out = frame(&ctx, &app, &mut state, Vec::new());
    assert_eq!(out.open_path(), Some("other.json".into()));
}

#[test]
fn a_failed_save_in_the_unsaved_changes_question_does_not_discard() {
    let mut app = App::new(world_without_geometry(), Some("scenes/mine.json".into()));
    app.dirty = true;
    let mut state = UiState::default();
    state.request_quit();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "confirm:save");
    assert!(out.save_path().is_some() && !out.quit());
    app.set_error("error: cannot write");
    let out = frames(&ctx, &app, &mut state, 2);
    assert!(!out.quit(), "the scene is still dirty: do not quit");
}

#[test]
fn quitting_a_clean_scene_needs_no_question() {
    let app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    state.request_quit();
    let ctx = egui::Context::default();
    let out = frame(&ctx, &app, &mut state, Vec::new());
    assert!(out.quit());
    assert!(state.confirm.is_none());
}

#[test]
fn save_without_a_file_opens_the_save_dialog_and_with_one_saves_there() {
    let app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    state.default_dir = std::env::temp_dir();
    state.queue(Command::File(FileCommand::Save));
    let ctx = egui::Context::default();
    let out = frames(&ctx, &app, &mut state, 2);
    assert_eq!(out.save_path(), None);
    assert_eq!(state.file_dialog.as_ref().map(|d| d.mode), Some(steerlab::ui::FileDialogMode::Save));
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    let saved = out.save_path().expect("the dialog's OK saves");
    assert_eq!(saved.file_name().and_then(|n| n.to_str()), Some("scene.json"));
    assert!(state.file_dialog.is_none());

    let app = App::new(world_without_geometry(), Some("here.json".into()));
    let mut state = UiState::default();
    state.queue(Command::File(FileCommand::Save));
    let out = frame(&ctx, &app, &mut state, Vec::new());
    assert_eq!(out.save_path(), Some("here.json".into()));
}

#[test]
fn the_open_dialog_cancels_without_output() {
    let app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    state.default_dir = std::env::temp_dir();
    state.queue(Command::File(FileCommand::OpenDialog));
    let ctx = settled(&app, &mut state);
    assert!(state.file_dialog.is_some());
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:cancel");
    assert!(out.is_empty(), "{out:?}");
    assert!(state.file_dialog.is_none());
}

#[test]
fn the_recovery_prompt_returns_the_choice_once() {
    let app = App::new(World::default(), None);
    let mut state = UiState::default();
    state.recovery_available = true;
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "recovery:restore");
    assert_eq!(out.recovery(), Some(RecoveryChoice::Restore));
    assert!(!state.recovery_available);
    let out = frame(&ctx, &app, &mut state, Vec::new());
    assert_eq!(out.recovery(), None);
}

#[test]
fn toggle_help_from_the_keyboard_opens_and_closes_the_overlay() {
    let mut state = UiState::default();
    state.queue(Command::ToggleHelp);
    assert!(state.help_open);
    state.queue(Command::ToggleHelp);
    assert!(!state.help_open);
}

#[test]
fn the_reset_button_of_a_changed_parameter_returns_its_default() {
    let mut app = App::new(world_without_geometry(), None);
    let changed = steerlab::sim::ArriveParams { slow_radius: 150.0, ..Default::default() };
    app.apply(Command::SetBehaviour {
        agent: 2,
        behaviour: steerlab::sim::Behaviour::Arrive { target: 0, params: changed },
    });
    app.apply(Command::Select(Some(Selection::Agent(2))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "reset:slow_radius");
    let expected =
        steerlab::sim::Behaviour::Arrive { target: 0, params: steerlab::sim::ArriveParams::default() };
    assert_eq!(out.commands, vec![Command::SetBehaviour { agent: 2, behaviour: expected }]);
    // Unchanged parameters have nothing to reset.
    assert!(click_widget(&ctx, &app, &mut state, "reset:target_radius").commands.is_empty());
}

#[test]
fn toggling_planner_smoothing_returns_set_behaviour() {
    let mut app = App::new(world_without_geometry(), None);
    app.apply(Command::Select(Some(Selection::Agent(3))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "param:smoothing");
    let [Command::SetBehaviour { agent: 3, behaviour: steerlab::sim::Behaviour::Planner { params } }] =
        out.commands.as_slice()
    else {
        panic!("{:?}", out.commands)
    };
    assert!(params.smoothing);
    assert_eq!(params.waypoints.len(), 2, "the waypoints are kept");
}

#[test]
fn typing_in_the_name_field_renames_and_pasted_line_breaks_are_dropped() {
    let mut app = App::new(world_without_geometry(), None);
    app.apply(Command::Select(Some(Selection::Agent(0))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let _ = click_widget(&ctx, &app, &mut state, "agent_name");
    let out = frame(&ctx, &app, &mut state, vec![egui::Event::Paste("\n two\r\n".into())]);
    let [Command::SetAgentProperties { agent: 0, name, color, limits, avoid_obstacles }] =
        out.commands.as_slice()
    else {
        panic!("{:?}", out.commands)
    };
    assert_eq!(name, "seeker two");
    assert_eq!(
        (*color, *limits, *avoid_obstacles),
        (app.world.agents[0].about.color, app.world.agents[0].limits, false)
    );
}

#[test]
fn a_display_checkbox_returns_the_display_with_that_toggle_flipped() {
    let app = App::new(world_without_geometry(), None);
    let mut state = all_panels();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "display:steering");
    let expected = steerlab::app::Display { steering: !app.display.steering, ..app.display };
    assert_eq!(out.commands, [Command::SetDisplay(expected)]);
}

#[test]
fn clicking_a_metrics_header_sorts_ascending_then_descending_then_not() {
    let app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let column = steerlab::ui::MetricColumn::Name;
    let _ = click_widget(&ctx, &app, &mut state, "metrics_header:name");
    assert_eq!(state.metrics_sort, Some((column, false)));
    let _ = click_widget(&ctx, &app, &mut state, "metrics_header:name");
    assert_eq!(state.metrics_sort, Some((column, true)));
    let _ = click_widget(&ctx, &app, &mut state, "metrics_header:name");
    assert_eq!(state.metrics_sort, None);
}

#[test]
fn values_outside_the_widget_ranges_are_shown_but_never_clamped_by_the_ui() {
    let mut world = world_without_geometry();
    world.agents[2].limits.radius = 150.0;
    world.agents[2].limits.max_speed = 4000.0;
    world.agents[2].behaviour = steerlab::sim::Behaviour::Arrive {
        target: 0,
        params: steerlab::sim::ArriveParams { slow_radius: 900.0, time_to_target: 5.0, ..Default::default() },
    };
    world.obstacles[0].radius = 5000.0;
    let mut app = App::new(world, None);
    let mut state = UiState::default();
    let ctx = egui::Context::default();
    for selection in [Selection::Agent(2), Selection::Obstacle(0)] {
        app.apply(Command::Select(Some(selection)));
        let out = frames(&ctx, &app, &mut state, 3);
        assert!(out.commands.is_empty(), "{selection:?}: {:?}", out.commands);
    }
}

#[test]
fn the_agent_and_curve_tools_show_their_kind_combos_without_output() {
    let mut app = App::new(world_without_geometry(), None);
    let mut state = UiState::default();
    let ctx = egui::Context::default();
    for tool in [Tool::Agent, Tool::Curve] {
        app.apply(Command::SetTool(tool));
        let out = frames(&ctx, &app, &mut state, 2);
        assert!(out.is_empty(), "{tool:?}: {out:?}");
    }
}

#[test]
fn the_ui_scale_sets_the_zoom_factor_and_bad_values_fall_back_to_one() {
    let app = App::new(World::default(), None);
    let mut state = UiState::default();
    state.ui_scale = 1.5;
    let ctx = egui::Context::default();
    let _ = frames(&ctx, &app, &mut state, 2);
    assert_eq!(ctx.zoom_factor(), 1.5);
    state.ui_scale = f32::NAN;
    let _ = frames(&ctx, &app, &mut state, 2);
    assert_eq!(ctx.zoom_factor(), 1.0);
}

fn key_event(key: egui::Key) -> Vec<egui::Event> {
    vec![egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    }]
}

#[test]
fn opening_a_file_with_unsaved_changes_asks_once() {
    let dir = std::env::temp_dir().join(format!("steerlab-open-once-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("other.json"), "{}").unwrap();
    let mut app = App::new(world_without_geometry(), Some(dir.join("mine.json")));
    app.dirty = true;
    let mut state = UiState::default();
    state.queue(Command::File(FileCommand::OpenDialog));
    let ctx = settled(&app, &mut state);
    assert!(state.confirm.is_none(), "the dialog opens without asking");
    assert!(state.file_dialog.is_some());
    click_widget(&ctx, &app, &mut state, "file_dialog:entry:other.json");
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    assert_eq!(out.open_path(), None, "not before the answer");
    assert!(state.confirm.is_some(), "asked once the file is chosen");
    let out = frames(&ctx, &app, &mut state, 2);
    assert_eq!(out.open_path(), None);
    let out = click_widget(&ctx, &app, &mut state, "confirm:discard");
    assert_eq!(out.open_path(), Some(dir.join("other.json")));
    assert!(state.confirm.is_none(), "and not a second time");
    let out = frames(&ctx, &app, &mut state, 3);
    assert!(state.confirm.is_none() && out.is_empty(), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_save_dialog_takes_enter_and_esc_and_starts_in_the_last_folder_saved_to() {
    let mut app = App::new(world_without_geometry(), None);
    app.example = Some("compare.json".into());
    let mut state = UiState::default();
    state.default_dir = std::env::temp_dir().join("examples-not-here");
    state.home_dir = std::env::temp_dir();
    state.queue(Command::File(FileCommand::Save));
    let ctx = settled(&app, &mut state);
    let dialog = state.file_dialog.as_ref().expect("Save on an example asks where");
    assert_eq!(dialog.file_name, "compare.json");
    assert_eq!(dialog.dir, std::fs::canonicalize(std::env::temp_dir()).unwrap(), "home, not the examples");
    let out = frame(&ctx, &app, &mut state, key_event(egui::Key::Escape));
    assert!(out.is_empty() && state.file_dialog.is_none(), "Esc cancels: {out:?}");

    let saved_in = std::env::temp_dir().join(format!("steerlab-saved-{}", std::process::id()));
    std::fs::create_dir_all(&saved_in).unwrap();
    state.note_saved(&saved_in.join("first.json"));
    state.queue(Command::File(FileCommand::SaveAs));
    let _ = frames(&ctx, &app, &mut state, 2);
    assert_eq!(
        state.file_dialog.as_ref().map(|d| d.dir.clone()),
        Some(std::fs::canonicalize(&saved_in).unwrap())
    );
    let out = frame(&ctx, &app, &mut state, key_event(egui::Key::Enter));
    assert_eq!(
        out.save_path(),
        Some(std::fs::canonicalize(&saved_in).unwrap().join("compare.json")),
        "Enter saves"
    );
    let _ = std::fs::remove_dir_all(&saved_in);
}

#[test]
fn saving_or_exporting_onto_an_existing_file_asks_first_and_only_replace_writes() {
    let dir = std::env::temp_dir().join(format!("steerlab-replace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dir = std::fs::canonicalize(&dir).unwrap();
    let taken = dir.join("taken.json");
    std::fs::write(&taken, "{}").unwrap();
    let app = App::new(world_without_geometry(), Some(taken.clone()));
    let mut state = UiState::default();
    let asking = |state: &UiState| state.file_dialog.as_ref().and_then(|d| d.confirm_replace.clone());

    // OK on the existing name asks, writes nothing, and Keep it goes back to the dialog.
    state.queue(Command::File(FileCommand::SaveAs));
    let ctx = settled(&app, &mut state);
    assert!(!state.widget_rects.contains_key("file_dialog:replace"), "no question before OK");
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    assert_eq!(out.save_path(), None, "not before the answer: {out:?}");
    assert_eq!(asking(&state), Some(taken.clone()));
    let _ = frames(&ctx, &app, &mut state, 2);
    assert!(
        state.widget_rects.contains_key("file_dialog:replace")
            && state.widget_rects.contains_key("file_dialog:keep")
    );
    assert!(!state.widget_rects.contains_key("file_dialog:ok"), "the question takes the buttons' row");
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:keep");
    assert!(out.save_path().is_none() && asking(&state).is_none() && state.file_dialog.is_some(), "{out:?}");

    // Esc answers Keep it and leaves the dialog open; a second Esc closes it.
    let _ = frames(&ctx, &app, &mut state, 2);
    let _ = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    assert!(asking(&state).is_some());
    let out = frame(&ctx, &app, &mut state, key_event(egui::Key::Escape));
    assert!(out.is_empty() && asking(&state).is_none() && state.file_dialog.is_some(), "{out:?}");
    let out = frame(&ctx, &app, &mut state, key_event(egui::Key::Escape));
    assert!(out.is_empty() && state.file_dialog.is_none(), "{out:?}");

    // Enter asks (the same Enter does not answer), the next Enter replaces.
    state.queue(Command::File(FileCommand::SaveAs));
    let _ = frames(&ctx, &app, &mut state, 2);
    let out = frame(&ctx, &app, &mut state, key_event(egui::Key::Enter));
    assert_eq!(out.save_path(), None, "{out:?}");
    assert!(asking(&state).is_some());
    let out = frame(&ctx, &app, &mut state, key_event(egui::Key::Enter));
    assert_eq!(out.save_path(), Some(taken.clone()), "Enter replaces");
    assert!(state.file_dialog.is_none());

    // A name edited while asking drops the question; a new name saves at once.
    state.queue(Command::File(FileCommand::SaveAs));
    let _ = frames(&ctx, &app, &mut state, 2);
    let _ = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    assert!(asking(&state).is_some());
    state.file_dialog.as_mut().unwrap().file_name = "fresh".into();
    let _ = frames(&ctx, &app, &mut state, 2);
    assert!(asking(&state).is_none() && state.widget_rects.contains_key("file_dialog:ok"));
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    assert_eq!(out.save_path(), Some(dir.join("fresh.json")), "a new file needs no question");

    // The Replace button writes; Export CSV onto an existing table asks the same way.
    state.queue(Command::File(FileCommand::SaveAs));
    let _ = frames(&ctx, &app, &mut state, 2);
    let _ = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    let _ = frames(&ctx, &app, &mut state, 2);
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:replace");
    assert_eq!(out.save_path(), Some(taken.clone()));
    std::fs::write(dir.join("taken-metrics.csv"), "old").unwrap();
    state.queue(Command::File(FileCommand::ExportCsv));
    let _ = frames(&ctx, &app, &mut state, 2);
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:ok");
    assert!(out.export_csv().is_none() && asking(&state) == Some(dir.join("taken-metrics.csv")), "{out:?}");
    let _ = frames(&ctx, &app, &mut state, 2);
    let out = click_widget(&ctx, &app, &mut state, "file_dialog:replace");
    assert_eq!(out.export_csv().map(|(path, _)| path), Some(dir.join("taken-metrics.csv")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_unsaved_changes_question_takes_esc_as_cancel() {
    let mut app = App::new(world_without_geometry(), None);
    app.dirty = true;
    let mut state = UiState::default();
    state.queue(Command::File(FileCommand::New));
    let ctx = settled(&app, &mut state);
    assert!(state.confirm.is_some());
    let out = frame(&ctx, &app, &mut state, key_event(egui::Key::Escape));
    assert!(out.is_empty(), "{out:?}");
    assert!(state.confirm.is_none());
}

#[test]
fn the_help_overlay_fits_a_1280_by_800_window_between_the_bars_at_any_ui_scale() {
    // At UI scale 2 the help, centred on the whole window with no width limit, was wider than
    // the window: its key column lay off the left edge, and its bottom over the status bar.
    for scale in [1.0, 1.5, 2.0, 3.0] {
        let app = App::new(World::default(), None);
        let mut state = all_panels();
        state.ui_scale = scale;
        state.help_open = true;
        let ctx = egui::Context::default();
        let (width, height) = (1280.0 / scale, 800.0 / scale);
        frames_sized(&ctx, &app, &mut state, egui::vec2(width, height), 4);
        let help = state.widget_rects["help"];
        let below_toolbar = state.widget_rects["scene_panel"].min.y;
        let status = state.widget_rects["status_bar"].min.y;
        assert!(help.min.x >= -0.5 && help.max.x <= width + 0.5, "scale {scale}: {help:?} across {width}");
        assert!(
            help.min.y >= below_toolbar - 0.5 && help.max.y <= status + 0.5,
            "scale {scale}: {help:?} between {below_toolbar} and {status}"
        );
    }
}

fn world_with_agents(n: usize) -> World {
    let mut world = world_without_geometry();
    let template = world.agents[0].clone();
    while world.agents.len() < n {
        let mut agent = template.clone();
        agent.about.name = format!("extra {}", world.agents.len());
        world.agents.push(agent);
    }
    world
}

#[test]
fn the_metrics_panel_grows_with_its_rows_and_the_status_bar_never_covers_them() {
    for n in [2, 4, 7] {
        let app = App::new(world_with_agents(n), None);
        let mut state = UiState::default();
        let _ctx = settled(&app, &mut state);
        let panel = state.widget_rects["metrics_panel"];
        let status = state.widget_rects["status_bar"];
        assert!(
            panel.max.y <= status.min.y + 0.5,
            "{n} agents: {panel:?} overlaps the status bar {status:?}"
        );
        for row in 0..n {
            let rect = state.widget_rects[&format!("metrics_row:{row}")];
            assert!(
                rect.min.y >= panel.min.y && rect.max.y <= panel.max.y,
                "{n} agents: row {row} at {rect:?} is outside the panel {panel:?}"
            );
        }
    }
}

/// A short table fills its panel: the panel is sized by what its content took in the last
/// frame, not by an estimate that kept room for two rows and a scroll bar (one agent left a band
/// of about fifty points under its row). A table wider than the window keeps room under its
/// last row for the horizontal scroll bar, which would otherwise float over that row.
#[test]
fn the_metrics_panel_ends_under_its_last_row() {
    for (n, width) in [(1, 1280.0), (2, 1280.0), (4, 1280.0), (1, 500.0), (3, 500.0)] {
        let mut world = world_with_agents(n);
        world.agents.truncate(n);
        let app = App::new(world, None);
        let mut state = UiState::default();
        let ctx = egui::Context::default();
        frames_sized(&ctx, &app, &mut state, egui::vec2(width, 800.0), 4);
        assert!(state.widget_rects.contains_key(&format!("metrics_row:{}", n - 1)));
        assert!(!state.widget_rects.contains_key(&format!("metrics_row:{n}")));
        let panel = state.widget_rects["metrics_panel"];
        let last = state.widget_rects[&format!("metrics_row:{}", n - 1)];
        let gap = panel.max.y - last.max.y;
        let bar = ctx.style().spacing.scroll.bar_width;
        let (least, most) = if width < 1000.0 { (bar, bar + 14.0) } else { (0.0, 10.0) };
        assert!(
            (least..=most).contains(&gap),
            "{n} agents, {width} wide: {gap} points between the last row {last:?} and the panel's end {panel:?}"
        );
    }
}

#[test]
fn a_long_metrics_table_is_capped_and_the_wheel_reaches_its_last_row() {
    let n = 20;
    let app = App::new(world_with_agents(n), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let panel = state.widget_rects["metrics_panel"];
    assert!(panel.height() <= 800.0 / 3.0 + 1.0, "{panel:?}");
    let last = state.widget_rects[&format!("metrics_row:{}", n - 1)];
    assert!(last.min.y > panel.max.y, "twenty rows do not fit: the last starts below the panel");
    let wheel = egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -2000.0),
        modifiers: egui::Modifiers::NONE,
    };
    let over = egui::Event::PointerMoved(panel.center());
    let _ = frame(&ctx, &app, &mut state, vec![over.clone()]);
    for _ in 0..10 {
        let _ = frame(&ctx, &app, &mut state, vec![over.clone(), wheel.clone()]);
    }
    let _ = frames(&ctx, &app, &mut state, 3);
    let last = state.widget_rects[&format!("metrics_row:{}", n - 1)];
    assert!(
        last.max.y <= panel.max.y + 0.5 && last.min.y >= panel.min.y,
        "the wheel scrolls to {last:?} in {panel:?}"
    );
}

/// One notch of a real mouse wheel scrolls a panel by about a line. On X11 miniquad reports a
/// notch as 1 and egui-macroquad hands egui 1/90 of a line: with egui's default line speed a
/// notch moved the metrics table half a point (an audit in a real window).
#[test]
fn one_wheel_notch_as_the_window_delivers_it_scrolls_the_metrics_table_a_line() {
    let n = 20;
    let app = App::new(world_with_agents(n), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let panel = state.widget_rects["metrics_panel"];
    let first = state.widget_rects["metrics_row:0"];
    let notch = egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: egui::vec2(0.0, -steerlab::ui::RAW_WHEEL_NOTCH / steerlab::ui::EGUI_BRIDGE_WHEEL_DIVISOR),
        modifiers: egui::Modifiers::NONE,
    };
    let over = egui::Event::PointerMoved(panel.center());
    let _ = frame(&ctx, &app, &mut state, vec![over.clone()]);
    let _ = frame(&ctx, &app, &mut state, vec![over.clone(), notch]);
    // egui spreads a notch over a few frames.
    let _ = frames(&ctx, &app, &mut state, 30);
    let moved = first.min.y - state.widget_rects["metrics_row:0"].min.y;
    assert!(
        (0.75 * steerlab::ui::SCROLL_POINTS_PER_NOTCH..=1.25 * steerlab::ui::SCROLL_POINTS_PER_NOTCH)
            .contains(&moved),
        "one notch scrolled the table {moved} points"
    );
}

/// Dragging View ▸ UI scale changes the scale when the drag ends, to where the pointer let go:
/// applied mid-drag, the new scale resized the slider under the pointer and the value ran away
/// to an end (an audit in a real window ended at 0.50×).
#[test]
fn the_ui_scale_slider_applies_its_value_when_the_drag_ends() {
    let app = App::new(world_with_agents(2), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let _ = click_widget(&ctx, &app, &mut state, "menu_button:View");
    let _ = frames(&ctx, &app, &mut state, 2);
    let slider = state.widget_rects["ui_scale"];
    // The slider's handle sits at 1.0 on 0.5..=3.0; drag it a quarter of the track right.
    let start = egui::pos2(slider.left() + slider.width() * 0.2, slider.center().y);
    let end = egui::pos2(start.x + slider.width() * 0.25, start.y);
    let press = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::NONE,
    };
    let _ = frame(&ctx, &app, &mut state, vec![egui::Event::PointerMoved(start)]);
    let _ = frame(&ctx, &app, &mut state, vec![press(start, true)]);
    for i in 1..=10 {
        let at = start + (end - start) * (i as f32 / 10.0);
        let _ = frame(&ctx, &app, &mut state, vec![egui::Event::PointerMoved(at)]);
        assert_eq!(ctx.zoom_factor(), 1.0, "the scale stays while the slider is dragged");
        assert_eq!(state.ui_scale, 1.0);
    }
    let dragged = state.ui_scale_dragged.expect("the dragged value is kept");
    assert!(dragged > 1.2, "the drag moved the value to {dragged}");
    let _ = frame(&ctx, &app, &mut state, vec![press(end, false)]);
    let _ = frames(&ctx, &app, &mut state, 2);
    assert_eq!(state.ui_scale, dragged, "released where it was dragged to");
    assert!((ctx.zoom_factor() - dragged).abs() < 1e-3, "zoom {}", ctx.zoom_factor());
    assert!(state.ui_scale_dragged.is_none());
}

/// In a narrow window every toolbar control stays inside it: the timeline and the speed slider
/// wrap to another row rather than run off the right edge (an audit: at 800 pixels the speed
/// slider and its value were cut off, at 640 the timeline too).
#[test]
fn in_a_narrow_window_the_toolbar_wraps_and_keeps_every_control_inside() {
    let app = App::new(world_with_agents(2), None);
    for width in [1280.0, 800.0, 640.0, 480.0] {
        let mut state = UiState::default();
        let ctx = egui::Context::default();
        for _ in 0..3 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, 800.0))),
                ..Default::default()
            };
            let _ = ctx.run(input, |ctx| {
                let _ = steerlab::ui::show(ctx, &app, &mut state, &examples());
            });
        }
        for name in
            ["play", "step", "step_back", "reset", "timeline", "time_scale", "view", "compare", "snap"]
        {
            let rect = state.widget_rects[name];
            assert!(rect.max.x <= width + 0.5, "{width} px: {name} at {rect:?} runs off the edge");
        }
    }
}

#[test]
fn choosing_a_tool_with_options_never_moves_the_world_view_and_its_options_sit_in_the_view() {
    // The Paint tool's brush used to make the toolbar wrap to a new row, so the world view
    // dropped by a row's height under the pointer the moment the tool was chosen.
    for width in [1280.0, 800.0] {
        let mut app = App::new(world_with_agents(2), None);
        let mut state = UiState::default();
        let ctx = egui::Context::default();
        let run = |app: &App, state: &mut UiState| {
            for _ in 0..3 {
                let input = egui::RawInput {
                    screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, 800.0))),
                    ..Default::default()
                };
                let _ = ctx.run(input, |ctx| {
                    let _ = steerlab::ui::show(ctx, app, state, &examples());
                });
            }
        };
        run(&app, &mut state);
        let panel = state.widget_rects["scene_panel"];
        assert!(!state.widget_rects.contains_key("tool_options"), "the Select tool has no options");
        for (tool, option) in
            [(Tool::Paint, "brush_radius"), (Tool::Agent, "tool_options"), (Tool::Curve, "tool_options")]
        {
            app.tool = tool;
            run(&app, &mut state);
            assert_eq!(state.widget_rects["scene_panel"], panel, "{width} px, {tool:?}: the view moved");
            let options = state.widget_rects["tool_options"];
            let control = state.widget_rects[option];
            assert!(options.contains_rect(control), "{width} px, {tool:?}: {option} outside its bar");
            assert!(
                options.min.x >= panel.max.x && options.min.y >= panel.min.y && options.max.x <= width,
                "{width} px, {tool:?}: the options {options:?} are not over the world view (panel {panel:?})"
            );
        }
    }
}

#[test]
fn show_and_solo_buttons_in_the_agents_list_return_their_commands() {
    let app = App::new(world_with_agents(3), None);
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let out = click_widget(&ctx, &app, &mut state, "show:1");
    assert_eq!(out.commands, vec![Command::SetAgentVisible { agent: 1, visible: false }]);
    let out = click_widget(&ctx, &app, &mut state, "solo:2");
    assert_eq!(out.commands, vec![Command::Solo { agent: 2 }]);
}

/// Presses `keys` in the world with the focus the panels give now (as the shell decides it).
fn press(ctx: &egui::Context, app: &mut App, keys: Vec<steerlab::app::Key>) -> steerlab::app::Focus {
    let focus =
        steerlab::app::Focus::of(false, steerlab::ui::text_field_focused(ctx), steerlab::ui::popup_open(ctx));
    let input = steerlab::app::InputFrame { keys, focus, ..Default::default() };
    let _ = steerlab::app::tools::handle_input(app, &input);
    focus
}

#[test]
fn with_the_file_menu_or_a_combo_box_open_hotkeys_do_nothing_to_the_world() {
    use steerlab::app::{Focus, Key};
    let mut app = App::new(world_with_everything(), None);
    app.running = false;
    app.apply(Command::Select(Some(Selection::Obstacle(0))));
    let obstacles = app.world.obstacles.len();
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    assert!(!steerlab::ui::popup_open(&ctx));

    let _ = click_widget(&ctx, &app, &mut state, "menu_button:File");
    assert!(state.widget_rects.contains_key("menu:File"), "the File menu is open");
    let focus = press(&ctx, &mut app, vec![Key::Digit(3), Key::Delete, Key::Space]);
    assert_eq!(focus, Focus::Popup);
    assert_eq!(app.tool, Tool::Select, "3 chose no tool behind the menu");
    assert_eq!(app.world.obstacles.len(), obstacles, "Delete deleted nothing behind the menu");
    assert!(!app.running, "Space started nothing behind the menu");

    // A click outside closes the menu; the world has the keys again.
    let _ = click_at(&ctx, &app, &mut state, egui::pos2(900.0, 500.0));
    let _ = frames(&ctx, &app, &mut state, 2);
    assert!(!state.widget_rects.contains_key("menu:File"));
    assert_eq!(press(&ctx, &mut app, vec![Key::Digit(3)]), Focus::World);
    assert_eq!(app.tool, Tool::Obstacle);

    // The inspector's behaviour combo box of an agent.
    app.apply(Command::Select(Some(Selection::Agent(0))));
    let agents = app.world.agents.len();
    let _ = frames(&ctx, &app, &mut state, 2);
    let _ = click_widget(&ctx, &app, &mut state, "behaviour_kind");
    assert_eq!(press(&ctx, &mut app, vec![Key::Delete, Key::Backspace]), Focus::Popup);
    assert_eq!(app.world.agents.len(), agents, "Delete deleted no agent behind the combo box");
    let _ = click_at(&ctx, &app, &mut state, egui::pos2(900.0, 500.0));
    let _ = frames(&ctx, &app, &mut state, 2);

    // A focused text field keeps the keys too.
    let _ = click_widget(&ctx, &app, &mut state, "agent_name");
    assert_eq!(press(&ctx, &mut app, vec![Key::Delete, Key::Digit(1)]), Focus::TextField);
    assert_eq!(app.world.agents.len(), agents);
    assert_eq!(app.tool, Tool::Obstacle);
}

/// A key press as egui-miniquad reports it.
fn key_press(key: egui::Key, modifiers: egui::Modifiers) -> egui::Event {
    egui::Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers }
}

/// What X11 and egui-miniquad deliver for one key: the character (reported before the key press,
/// so it reaches egui with Ctrl unseen) and egui's events for the key itself.
fn stroke(
    letter: char,
    mods: macroquad::miniquad::KeyMods,
    clipboard: &str,
) -> (Vec<egui::Event>, Vec<steerlab::ui::TypedChar>) {
    let typed = steerlab::input::typed_char(letter, mods, false);
    let key = egui::Key::from_name(&letter.to_ascii_uppercase().to_string()).unwrap();
    let modifiers =
        egui::Modifiers { ctrl: mods.ctrl, command: mods.ctrl, alt: mods.alt, ..Default::default() };
    let mut events = vec![egui::Event::Text(letter.to_string())];
    events.push(match (mods.ctrl, letter) {
        (true, 'c') => egui::Event::Copy,
        (true, 'v') => egui::Event::Text(clipboard.to_string()),
        _ => key_press(key, modifiers),
    });
    (events, vec![typed])
}

/// Types `strokes` into the focused field, one frame each, filtered as the shell filters (or not),
/// applying what the panels return; returns agent 0's name.
fn type_strokes(
    ctx: &egui::Context,
    app: &mut App,
    state: &mut UiState,
    strokes: &[(Vec<egui::Event>, Vec<steerlab::ui::TypedChar>)],
    filter: bool,
) -> String {
    for (events, typed) in strokes {
        let mut typed = Some(typed.clone());
        let mut out = steerlab::ui::UiOutput::default();
        let _ = ctx.run(raw_input(events.clone()), |ctx| {
            if let Some(typed) = typed.take().filter(|_| filter) {
                ctx.input_mut(|i| steerlab::ui::drop_chord_text(&mut i.events, &typed));
            }
            out.merge(steerlab::ui::show(ctx, app, state, &examples()));
        });
        for command in out.commands {
            app.apply(command);
        }
    }
    app.world.agents[0].about.name.clone()
}

#[test]
fn ctrl_c_ctrl_v_ctrl_a_and_alt_letters_type_nothing_into_a_text_field() {
    use macroquad::miniquad::KeyMods;
    let ctrl = KeyMods { ctrl: true, ..Default::default() };
    let alt = KeyMods { alt: true, ..Default::default() };
    let plain = KeyMods::default();
    let end = || (vec![key_press(egui::Key::End, egui::Modifiers::NONE)], Vec::new());
    for filter in [false, true] {
        let mut app = App::new(world_without_geometry(), None);
        app.running = false;
        app.world.agents[0].about.name = "cv".into();
        app.apply(Command::Select(Some(Selection::Agent(0))));
        let mut state = UiState::default();
        let ctx = settled(&app, &mut state);
        let _ = click_widget(&ctx, &app, &mut state, "agent_name");
        // The audit's sequence: End, Ctrl+C (nothing selected), Ctrl+V (nothing copied), Ctrl+A.
        let audit = [end(), stroke('c', ctrl, ""), stroke('v', ctrl, ""), stroke('a', ctrl, "")];
        let name = type_strokes(&ctx, &mut app, &mut state, &audit, filter);
        if !filter {
            assert_eq!(name, "cvcva", "unfiltered, the events are the bug's");
            continue;
        }
        assert_eq!(name, "cv");
        // Everything is selected: a plain letter replaces it, Ctrl+A Ctrl+C copy it, Ctrl+V
        // pastes it at the end, Alt+B types nothing.
        let more = [
            stroke('x', plain, ""),
            stroke('a', ctrl, ""),
            stroke('c', ctrl, ""),
            end(),
            stroke('v', ctrl, "x"),
            stroke('b', alt, ""),
        ];
        assert_eq!(type_strokes(&ctx, &mut app, &mut state, &more, true), "xx");
    }
}

#[test]
fn only_the_characters_of_chords_leave_the_events_and_ones_egui_never_got_are_passed_over() {
    use steerlab::ui::TypedChar;
    let text = |t: &str| egui::Event::Text(t.to_string());
    let typed = |character, chord, reached_egui| TypedChar { character, chord, reached_egui };
    // Ctrl held for two Ctrl+C (egui already knows Ctrl at the second and drops its 'c'), then
    // a plain 'c', then Ctrl+V pasting "c".
    let mut events = vec![text("c"), egui::Event::Copy, egui::Event::Copy, text("c"), text("v"), text("c")];
    let chars =
        [typed('c', true, true), typed('c', true, false), typed('c', false, true), typed('v', true, true)];
    steerlab::ui::drop_chord_text(&mut events, &chars);
    assert_eq!(events, vec![egui::Event::Copy, egui::Event::Copy, text("c"), text("c")]);
}

#[test]
fn the_plots_and_display_windows_stay_inside_the_world_view_at_any_ui_scale() {
    // At UI scale 3 in a 1280×800 window the Plots window (420×360 points) used to cover the
    // whole window, its title bar out of reach under the toolbar. It stays in the world view
    // where the view has room for it, else between the toolbar and the status bar.
    for (scale, width, height) in
        [(1.0, 1280.0, 800.0), (1.5, 1280.0, 800.0), (2.0, 1920.0, 1080.0), (3.0, 1280.0, 800.0)]
    {
        let app = App::new(world_with_agents(3), None);
        let mut state = all_panels();
        state.ui_scale = scale;
        let ctx = egui::Context::default();
        for _ in 0..4 {
            let input = egui::RawInput {
                // The shell gives egui the window's size in points: pixels over the UI scale.
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(width / scale, height / scale),
                )),
                ..Default::default()
            };
            let _ = ctx.run(input, |ctx| {
                let _ = steerlab::ui::show(ctx, &app, &mut state, &examples());
            });
        }
        let plots = state.widget_rects["plots"];
        let scene = state.widget_rects["scene_panel"];
        let metrics = state.widget_rects["metrics_panel"];
        let status = state.widget_rects["status_bar"];
        let screen = ctx.screen_rect();
        let free = egui::Rect::from_min_max(
            egui::pos2(scene.max.x, scene.min.y),
            egui::pos2(screen.max.x, metrics.min.y),
        );
        let between_bars =
            egui::Rect::from_min_max(egui::pos2(0.0, scene.min.y), egui::pos2(screen.max.x, status.min.y));
        let bounds = steerlab::ui::plots_bounds(free, between_bars);
        assert_eq!(bounds == free, scale < 3.0, "scale {scale}: {free:?}");
        assert!(
            bounds.expand(1.0).contains_rect(plots),
            "scale {scale}, {width}×{height}: plots {plots:?} outside {bounds:?}"
        );
        assert!(
            plots.area() <= 0.75 * bounds.area(),
            "scale {scale}, {width}×{height}: plots {plots:?} cover most of {bounds:?}"
        );
        if scale == 1.0 {
            assert!(
                plots.width() >= 400.0 && plots.height() >= 300.0,
                "plots at their usual size: {plots:?}"
            );
        }
        // The Display window keeps to the same bounds, at their top right: it used to sit at the
        // window's top right, over the toolbar's Compare, Snap and Help buttons.
        let display = state.widget_rects["display"];
        assert!(
            bounds.expand(1.0).contains_rect(display),
            "scale {scale}, {width}×{height}: display {display:?} outside {bounds:?}"
        );
        assert!((display.right() - (bounds.right() - 8.0)).abs() <= 1.0, "{display:?} in {bounds:?}");
        assert!(
            display.top() >= scene.min.y,
            "display {display:?} over the toolbar (ends at {})",
            scene.min.y
        );
    }
}

/// Runs the app's commands from `out` and says whether the world still saves.
fn applied_and_saved(app: &mut App, out: UiOutput) -> Result<String, String> {
    for command in out.commands {
        app.apply(command);
    }
    steerlab::scene::scene_to_json(&app.world).map_err(|e| e.to_string())
}

/// An audit: 1e30 typed into an obstacle's position, a target's velocity or a circle's radius
/// was taken as it was; the scene file refuses more than 1e6, so Ctrl+S failed with an error
/// about a line of a file never written, and the autosave silently stopped for good.
#[test]
fn a_huge_number_typed_into_a_position_velocity_or_curve_field_keeps_the_scene_saveable() {
    for (selection, field) in [
        (Selection::Obstacle(0), "position:x"),
        (Selection::Obstacle(0), "velocity:y"),
        (Selection::Target(0), "position:y"),
        (Selection::Target(0), "velocity:x"),
        (Selection::Curve(0), "curve:radius"),
        (Selection::Curve(0), "curve:centre:x"),
    ] {
        let mut app = App::new(world_with_everything(), None);
        app.apply(Command::Select(Some(selection)));
        let mut state = UiState::default();
        let ctx = settled(&app, &mut state);
        let at = state.widget_rects.get(field).unwrap_or_else(|| panic!("no widget {field}")).center();
        let out = type_into(&ctx, &app, &mut state, at, "1e30");
        assert!(!out.commands.is_empty(), "{selection:?} {field}: nothing sent");
        let saved = applied_and_saved(&mut app, out);
        assert!(saved.is_ok(), "{selection:?} {field}: the scene no longer saves: {saved:?}");
    }
}

/// The group inspector's Move by with an offset past the scene's limits is refused whole.
#[test]
fn a_group_move_past_the_scenes_limits_is_refused_and_the_scene_still_saves() {
    let mut app = App::new(world_with_everything(), None);
    app.apply(Command::Select(Some(Selection::Obstacle(0))));
    app.apply(Command::MoveSelection { delta: glam::Vec3::new(1e30, 0.0, 0.0) });
    assert!(app.message.as_ref().is_some_and(|m| m.text.contains("not moved")), "{:?}", app.message);
    assert_eq!(app.world.obstacles[0].position, world_with_everything().obstacles[0].position);
    assert!(steerlab::scene::scene_to_json(&app.world).is_ok());
    app.apply(Command::MoveSelection { delta: glam::Vec3::new(25.0, 0.0, 0.0) });
    assert_eq!(app.world.obstacles[0].position.x, world_with_everything().obstacles[0].position.x + 25.0);
}

#[test]
fn a_long_message_and_the_hint_end_inside_the_status_bar_which_keeps_two_lines() {
    // Both used to run past the window's right edge, cut off mid-word: at UI scale 2 in a
    // 1280×800 window most of an error was out of sight.
    let long =
        format!("not saved: {} is a shipped example; save your copy elsewhere", "/very/long".repeat(12));
    for (scale, error) in [(1.0, true), (2.0, true), (2.0, false), (3.0, true)] {
        let mut app = App::new(world_with_agents(3), None);
        if error {
            app.set_error(long.clone());
        } else {
            app.info(long.clone());
        }
        let mut state = all_panels();
        state.ui_scale = scale;
        let ctx = egui::Context::default();
        let (width, height) = (1280.0 / scale, 800.0 / scale);
        let mut bar_heights = Vec::new();
        for with_message in [true, false] {
            if !with_message {
                app.apply(Command::DismissMessage);
            }
            frames_sized(&ctx, &app, &mut state, egui::vec2(width, height), 3);
            let bar = state.widget_rects["status_bar"];
            bar_heights.push(bar.height());
            // In a 1280-pixel window at UI scale 1 the message follows the figures on the first
            // line; at 3 the figures leave it no room and it takes the hint's line, the bar's
            // full width (at 2, whichever has room).
            let hint = state.widget_rects.get("status_hint");
            if !with_message || scale == 1.0 {
                assert!(hint.is_some(), "scale {scale}: the hint's line");
            }
            if with_message && scale == 3.0 {
                assert!(hint.is_none(), "scale {scale}: {hint:?}");
            }
            if with_message && hint.is_none() {
                let message = state.widget_rects["status_message"];
                assert!(message.top() > bar.center().y - 2.0, "scale {scale}: {message:?} in {bar:?}");
            }
            if let Some(hint) = hint {
                assert!(
                    hint.right() <= width + 0.5,
                    "scale {scale}: the hint ends at {} of {width}",
                    hint.right()
                );
            }
            if with_message {
                let message = state.widget_rects["status_message"];
                assert!(
                    message.right() <= width + 0.5 && message.width() >= 200.0,
                    "scale {scale}: the message {message:?} in a window {width} wide"
                );
            }
        }
        assert!(
            (bar_heights[0] - bar_heights[1]).abs() < 0.5,
            "scale {scale}: the bar's height {bar_heights:?}"
        );
    }
}

#[test]
fn while_a_dialog_is_open_the_panels_and_windows_behind_it_take_no_clicks() {
    let app = App::new(world_without_geometry(), None);
    let mut state = all_panels();
    state.help_open = true;
    state.default_dir = std::env::temp_dir();
    let ctx = settled(&app, &mut state);
    // Before: the toolbar, the agents list and the Display window answer clicks.
    let widgets = ["play", "tool:Path", "agent:1", "show:1"];
    for name in widgets {
        let out = click_widget(&ctx, &app, &mut state, name);
        assert!(!out.is_empty(), "{name} answers without a dialog");
    }
    let display: Vec<String> =
        state.widget_rects.keys().filter(|k| k.starts_with("display:")).cloned().collect();
    // With the Export CSV dialog open (from the Metrics panel), none of them does (nor the Display
    // window's checkboxes).
    let _ = click_widget(&ctx, &app, &mut state, "metrics:export_csv");
    let _ = frames(&ctx, &app, &mut state, 3);
    assert_eq!(state.file_dialog.as_ref().map(|d| d.mode), Some(steerlab::ui::FileDialogMode::ExportCsv));
    for name in widgets.iter().map(|w| w.to_string()).chain(display) {
        let out = click_widget(&ctx, &app, &mut state, &name);
        assert!(out.is_empty(), "{name} answered behind the dialog: {out:?}");
    }
    assert!(state.file_dialog.is_some(), "the dialog is still open");
    // Cancel closes it, and the toolbar answers again.
    let _ = click_widget(&ctx, &app, &mut state, "file_dialog:cancel");
    let out = click_widget(&ctx, &app, &mut state, "play");
    assert!(!out.is_empty());
}

/// The agent inspector's Copies rows: the typed count and spacing go into the command the button
/// sends; a count past the scene's limit is refused in place and the form keeps its value.
#[test]
fn the_copies_rows_send_what_was_typed_and_refuse_a_count_past_the_limit() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/seek-flee.json");
    let mut app = App::new(steerlab::scene::load_scene(&path).unwrap(), None);
    app.apply(Command::Select(Some(Selection::Agent(1))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    scroll_to_widget(&ctx, &app, &mut state, "param:spread_headings");
    let box_of = |state: &UiState, key: &str| {
        let rect = state.widget_rects[&format!("param:{key}")];
        egui::pos2(rect.right() - 12.0, rect.center().y)
    };
    let at = box_of(&state, "copies");
    let out = type_into(&ctx, &app, &mut state, at, "40");
    assert!(out.commands.is_empty(), "typing a count edits nothing yet: {:?}", out.commands);
    assert_eq!(state.copies.copies, 40);
    let at = box_of(&state, "spacing");
    type_into(&ctx, &app, &mut state, at, "12.5");
    assert_eq!(state.copies.spacing, 12.5);
    let at = box_of(&state, "copies");
    type_into(&ctx, &app, &mut state, at, "200000");
    assert_eq!(state.copies.copies, 40, "a count past 100,000 is refused, not clamped");
    assert!(state.widget_rects.contains_key("refused:copies"));
    // Wheeled until the button is inside the side panel (above the metrics table).
    for _ in 0..50 {
        let (button, panel) = (state.widget_rects["copies:add"], state.widget_rects["scene_panel"]);
        if button.max.y <= panel.max.y {
            break;
        }
        let over = egui::Event::PointerMoved(panel.center());
        let wheel = egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -60.0),
            modifiers: egui::Modifiers::NONE,
        };
        let _ = frame(&ctx, &app, &mut state, vec![over, wheel]);
        let _ = frames(&ctx, &app, &mut state, 2);
    }
    let out = click_widget(&ctx, &app, &mut state, "copies:add");
    assert_eq!(
        out.commands,
        vec![Command::AddCopies { agent: 1, copies: 40, spacing: 12.5, spread_headings: true }]
    );
    let before = app.world.agents.len();
    for command in out.commands {
        app.apply(command);
    }
    assert_eq!(app.world.agents.len(), before + 40);
}
