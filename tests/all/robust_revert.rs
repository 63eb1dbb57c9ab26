//! Revert to saved, headless: the command table offers it (Ctrl+R, File menu) only for a scene
//! with a file and unsaved changes; it asks "Discard unsaved changes?" first; Discard reloads
//! the file, and the scene is then exactly the file again (the real-window flow is in
//! `e2e_robust`).

use std::path::PathBuf;

use crate::scratch::Scratch;

use steerlab::app::commands::{self, resolve, Chord};
use steerlab::app::tools::Key;
use steerlab::app::{App, Command, CommandId, FileCommand, Focus, Selection};
use steerlab::scene::{load_scene, scene_to_json};
use steerlab::ui::dialogs::ConfirmAnswer;
use steerlab::ui::{UiOutput, UiState};

/// A copy of the hairpin scene in a fresh directory (removed with the returned guard).
fn scene_copy(test: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::new(&format!("revert-{test}"));
    let file = dir.path("hairpin.json");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/hairpin.json"), &file).unwrap();
    (dir, file)
}

const CTRL_R: Chord = Chord { key: Key::Letter('R'), ctrl: true, shift: false };

#[test]
fn revert_is_offered_only_for_a_file_with_unsaved_changes() {
    let (_dir, file) = scene_copy("offered");
    let mut app = App::new(load_scene(&file).unwrap(), Some(file.clone()));
    assert!(!commands::enabled(CommandId::Revert, &app), "nothing to revert");
    assert_eq!(resolve(CTRL_R, &app, Focus::World), None);
    assert_eq!(commands::spec(CommandId::Revert).and_then(|s| s.menu), Some("File"));
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::DeleteSelection);
    assert!(app.dirty);
    assert!(commands::enabled(CommandId::Revert, &app));
    assert_eq!(resolve(CTRL_R, &app, Focus::World), Some(CommandId::Revert));
    assert_eq!(resolve(CTRL_R, &app, Focus::TextField), None, "a text field keeps Ctrl+R");
    assert_eq!(CommandId::Revert.command(&app), Some(Command::File(FileCommand::Revert)));
    // An untitled scene has no file to go back to.
    let mut untitled = App::new(load_scene(&file).unwrap(), None);
    untitled.apply(Command::Select(Some(Selection::Agent(0))));
    untitled.apply(Command::DeleteSelection);
    assert!(untitled.dirty && !commands::enabled(CommandId::Revert, &untitled));
}

#[test]
fn revert_asks_first_and_discard_reloads_the_file_exactly() {
    let (_dir, file) = scene_copy("reloads");
    let saved = scene_to_json(&load_scene(&file).unwrap()).unwrap();
    let mut app = App::new(load_scene(&file).unwrap(), Some(file.clone()));
    let agents = app.world.agents.len();
    app.apply(Command::Select(Some(Selection::Agent(0))));
    app.apply(Command::DeleteSelection);
    assert_eq!(app.world.agents.len(), agents - 1);

    let mut state = UiState::default();
    let mut out = UiOutput::default();
    state.request(FileCommand::Revert, &app, &mut out);
    assert_eq!(state.confirm, Some(FileCommand::Revert), "asks before dropping the changes");
    assert!(out.open_path().is_none(), "nothing reloaded before the answer");
    // Cancel keeps the edit.
    state.answer_confirm(ConfirmAnswer::Cancel, &app, &mut out);
    assert!(out.is_empty() && state.confirm.is_none());

    state.request(FileCommand::Revert, &app, &mut out);
    state.answer_confirm(ConfirmAnswer::Discard, &app, &mut out);
    assert_eq!(out.open_path().as_ref(), Some(&file), "Discard reloads the scene's own file");
    // The shell loads it (off the frame loop) and opens it.
    app.open_world(load_scene(&file).unwrap(), Some(file.clone()));
    assert!(!app.dirty);
    assert_eq!(app.world.agents.len(), agents);
    assert_eq!(scene_to_json(&app.world).unwrap(), saved, "the scene is the file again");
}
