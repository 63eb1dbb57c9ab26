//! The whole UI on every bundled scene: a few frames with nothing selected, with each agent,
//! path, curve, target and obstacle selected, and after some simulated seconds (so the plots
//! and metrics have data). Nothing may panic and no frame without input may emit commands.

use crate::ui_support;

use steerlab::app::{App, Command, Selection};
use steerlab::scene::parse_scene;
use steerlab::ui::{metrics_csv, UiState};
use ui_support::*;

fn scenes() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut scenes: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    scenes.sort();
    assert!(scenes.len() >= 5, "the bundled scenes are found");
    scenes
}

fn every_selection(app: &App) -> Vec<Selection> {
    let world = &app.world;
    let mut selections: Vec<Selection> = (0..world.agents.len()).map(Selection::Agent).collect();
    selections.extend((0..world.paths.len()).map(Selection::Path));
    selections.extend((0..world.paths.len()).map(|path| Selection::PathPoint { path, point: 0 }));
    selections.extend((0..world.curves.len()).map(Selection::Curve));
    selections.extend((0..world.targets.len()).map(Selection::Target));
    selections.extend((0..world.obstacles.len()).map(Selection::Obstacle));
    selections
}

#[test]
fn the_default_scene_runs_with_every_panel_open() {
    let world = parse_scene(include_str!("../../scenes/compare.json"), "compare.json").unwrap();
    let mut app = App::new(world, None);
    let mut state = all_panels();
    state.help_open = true;
    let ctx = egui::Context::default();
    assert!(frames(&ctx, &app, &mut state, 3).is_empty());
    for _ in 0..180 {
        app.step_once();
    }
    assert!(frames(&ctx, &app, &mut state, 2).is_empty());
    let csv = metrics_csv(&app.world.metrics());
    assert_eq!(csv.lines().count(), app.world.agents.len() + 1);
}

#[test]
fn every_scene_and_every_selection_draws_without_commands() {
    let ctx = egui::Context::default();
    for (file, text) in scenes() {
        let world = parse_scene(&text, &file).unwrap();
        let mut app = App::new(world, Some(file.clone().into()));
        for _ in 0..60 {
            app.step_once();
        }
        let mut state = all_panels();
        assert!(frames(&ctx, &app, &mut state, 2).is_empty(), "{file}");
        for selection in every_selection(&app) {
            app.apply(Command::Select(Some(selection)));
            let out = frames(&ctx, &app, &mut state, 2);
            assert!(out.is_empty(), "{file} with {selection:?} selected: {out:?}");
        }
    }
}

#[test]
fn an_expression_curve_in_a_scene_fills_the_editor_and_apply_sends_set_curve_only_when_valid() {
    let mut found = false;
    for (file, text) in scenes() {
        let world = parse_scene(&text, &file).unwrap();
        let mut app = App::new(world, None);
        let Some(curve) = app
            .world
            .curves
            .iter()
            .position(|c| matches!(c.curve.kind(), steerlab::geometry::CurveKind::Expr { .. }))
        else {
            continue;
        };
        found = true;
        app.apply(Command::Select(Some(Selection::Curve(curve))));
        let mut state = UiState::default();
        let ctx = settled(&app, &mut state);
        let editor = state.expr_editor.as_mut().expect("the editor is filled");
        assert!(editor.validation.is_ok(), "{file}: {:?}", editor.validation);
        editor.x = "2*".into();
        editor.revalidate();
        assert!(editor.validation.as_ref().unwrap_err().starts_with("bad expression for x"));
        assert!(frames(&ctx, &app, &mut state, 2).commands.is_empty(), "Apply is disabled");
        let editor = state.expr_editor.as_mut().unwrap();
        editor.x = "150*cos(t)".into();
        editor.revalidate();
        assert!(editor.is_modified());
        let _ = frame(&ctx, &app, &mut state, Vec::new());
        let out = click_widget(&ctx, &app, &mut state, "expr:apply");
        let [Command::SetCurve { curve: c, kind }] = out.commands.as_slice() else {
            panic!("{:?}", out.commands)
        };
        assert_eq!(*c, curve);
        let steerlab::geometry::CurveKind::Expr { x, .. } = kind else { panic!("{kind:?}") };
        assert_eq!(x, "150*cos(t)");
    }
    if !found {
        eprintln!("no bundled scene has an expr curve; the editor is covered by ui_panels");
    }
}

#[test]
fn typing_into_an_expression_field_validates_as_you_type() {
    let world = parse_scene(include_str!("../../scenes/parametric.json"), "parametric.json").unwrap();
    let mut app = App::new(world, None);
    let curve = app
        .world
        .curves
        .iter()
        .position(|c| matches!(c.curve.kind(), steerlab::geometry::CurveKind::Expr { .. }))
        .expect("parametric.json has an expr curve");
    app.apply(Command::Select(Some(Selection::Curve(curve))));
    let mut state = UiState::default();
    let ctx = settled(&app, &mut state);
    let _ = click_widget(&ctx, &app, &mut state, "expr:x(t)");
    let end = egui::Event::Key {
        key: egui::Key::End,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    };
    let out = frame(&ctx, &app, &mut state, vec![end, egui::Event::Text("*".into())]);
    assert!(out.commands.is_empty(), "typing never applies");
    let editor = state.expr_editor.as_ref().unwrap();
    assert!(editor.x.ends_with('*'), "{}", editor.x);
    let error = editor.validation.as_ref().unwrap_err();
    assert!(error.starts_with("bad expression for x"), "{error}");
    let _ = frame(
        &ctx,
        &app,
        &mut state,
        vec![egui::Event::Key {
            key: egui::Key::Backspace,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }],
    );
    let editor = state.expr_editor.as_ref().unwrap();
    assert!(editor.validation.is_ok() && !editor.is_modified(), "{:?}", editor.validation);
}

/// Each of issue 10's scenes, after two simulated seconds, shows the columns that make sense
/// for it in the Metrics panel (and not the ones that do not): nearest-neighbour distance and
/// agent contacts for crowds, the flock's polarization only for a flock, capture time for
/// pursuit, slot error for a formation, time seen for hiding.
#[test]
fn each_new_scenes_metrics_panel_shows_its_own_columns() {
    let cases: [(&str, &[&str], &[&str]); 7] = [
        (
            "flock.json",
            &["agent_collisions", "min_agent_gap", "mean_nearest_neighbour", "alignment", "polarization"],
            &["capture_time", "mean_slot_error", "time_seen"],
        ),
        // The evaders are judged from their pursuers too (time seen, the distance they keep).
        (
            "pursuit-evasion.json",
            &["capture_time", "speed_error_mean", "mean_hunter_distance"],
            &["polarization", "mean_slot_error"],
        ),
        (
            "hiding.json",
            &["time_seen", "mean_hunter_distance", "capture_time"],
            &["polarization", "mean_cross_track"],
        ),
        ("formation.json", &["mean_slot_error", "max_slot_error", "mean_cross_track"], &["capture_time"]),
        (
            "leader-following.json",
            &["min_leader_gap", "agent_collisions", "min_agent_gap", "mean_cross_track"],
            &["capture_time", "mean_slot_error"],
        ),
        (
            "containment.json",
            &["agent_collisions", "min_agent_gap", "mean_nearest_neighbour", "polarization"],
            &["capture_time"],
        ),
        (
            "crowd-crossing.json",
            &["agent_collisions", "min_agent_gap", "mean_nearest_neighbour", "arrived_at"],
            &["polarization", "capture_time"],
        ),
    ];
    for (scene, shown, hidden) in cases {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(scene);
        let world = steerlab::scene::load_scene(&path).unwrap();
        let mut app = App::new(world, None);
        app.world.run_steps(120);
        let mut state = all_panels();
        let ctx = settled(&app, &mut state);
        let _ = frames(&ctx, &app, &mut state, 1);
        for key in shown {
            assert!(
                state.widget_rects.contains_key(&format!("metrics_header:{key}")),
                "{scene}: no `{key}` column; shown: {:?}",
                state.widget_rects.keys().filter(|k| k.starts_with("metrics_header:")).collect::<Vec<_>>()
            );
        }
        for key in hidden {
            assert!(
                !state.widget_rects.contains_key(&format!("metrics_header:{key}")),
                "{scene}: `{key}` shown"
            );
        }
    }
}
