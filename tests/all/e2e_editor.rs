//! Real-window tests of the editor's selection features, driven with xdotool under Xvfb through
//! the harness in `e2e_window.rs`: box select with a mouse drag, duplicate and undo, Shift+click
//! and dragging a group, grid snapping, clipboard keys swallowed by a modal dialog, the side
//! panel keeping the inspector on screen with 200 agents, agents placed one after another
//! landing where aimed while the Metrics panel grows under the view, and a rename to another
//! agent's name refused at that key, then saved and reopened.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::e2e_window::{copy_scene, launch_on, serial, temp_dir, tools_available, wait_for_file, Steerlab};
use crate::scratch::Scratch;

/// A scene file with three obstacles in a row at y = 100 and a far one at y = -200 (no agents,
/// so nothing moves), written to a fresh directory.
fn obstacles_scene(test: &str, agents: usize) -> (Scratch, PathBuf) {
    let dir = temp_dir(&format!("{test}-scene"));
    let agents: Vec<String> = (0..agents)
        .map(|i| {
            let (x, y) = ((i % 20) as f32 * 30.0 - 300.0, (i / 20) as f32 * 30.0 - 150.0);
            format!(
                r#"{{"name": "a{i}", "position": [{x}, {y}], "behaviours": [{{"type": "seek", "target": "flag"}}]}}"#
            )
        })
        .collect();
    let text = format!(
        r#"{{"version": 2, "name": "Rocks", "targets": [{{"id": "flag", "position": [0, 300]}}],
        "obstacles": [
            {{"position": [-100, 100], "radius": 15}},
            {{"position": [0, 100], "radius": 15}},
            {{"position": [100, 100], "radius": 15}},
            {{"position": [0, -200], "radius": 15}}],
        "agents": [{}]}}"#,
        agents.join(",\n")
    );
    let file = dir.join("rocks.json");
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

impl Steerlab {
    /// Presses the left button at one point, moves in steps to another and releases there.
    pub(crate) fn drag(&self, from: (f32, f32), to: (f32, f32)) {
        let at = |(x, y): (f32, f32)| [format!("{}", x.round() as i32), format!("{}", y.round() as i32)];
        let [x, y] = at(from);
        self.xdotool(&["mousemove", "--sync", &x, &y]);
        self.settle();
        self.xdotool(&["mousedown", "1"]);
        self.settle();
        for i in 1..=4 {
            let t = i as f32 / 4.0;
            let [x, y] = at((from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t));
            self.xdotool(&["mousemove", "--sync", &x, &y]);
            self.settle();
        }
        self.xdotool(&["mouseup", "1"]);
        self.settle();
    }

    /// A click with Shift held.
    fn shift_click(&self, (x, y): (f32, f32)) {
        let (x, y) = (format!("{}", x.round() as i32), format!("{}", y.round() as i32));
        self.xdotool(&["windowfocus", "--sync", &self.window_id()]);
        self.xdotool(&["mousemove", "--sync", &x, &y]);
        self.settle();
        self.xdotool(&["keydown", "shift"]);
        self.settle();
        self.xdotool(&["click", "1"]);
        self.settle();
        self.xdotool(&["keyup", "shift"]);
        self.settle();
    }

    fn window_id(&self) -> String {
        self.xdotool(&["search", "--name", "steerlab"]).lines().next().unwrap_or_default().to_string()
    }
}

fn launch_rocks(test: &str, agents: usize) -> (Steerlab, PathBuf) {
    let (dir, file) = obstacles_scene(test, agents);
    let app = Steerlab::launch(test, &[file.to_str().unwrap()]).keeping(dir);
    // The scene loads off the frame loop: keys pressed before it is in would act on the
    // built-in scene shown meanwhile.
    app.wait_for(
        |s| s["title"].as_str().is_some_and(|t| t.contains("rocks.json")) && s["loading"].is_null(),
        "the scene loaded",
    );
    (app, file)
}

#[test]
fn box_select_three_obstacles_then_ctrl_d_makes_six_and_ctrl_z_three() {
    if !tools_available("box_duplicate") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_rocks("box_duplicate", 0);
    app.key("space");
    app.wait_for(|s| s["obstacles"] == 4, "the scene");
    app.drag(app.world_to_screen(-160.0, 160.0), app.world_to_screen(160.0, 40.0));
    app.wait_for(|s| s["selected"] == 3, "the rubber band selects the three obstacles inside it");
    app.screenshot("box-selected.png");
    app.key("ctrl+d");
    app.wait_for(|s| s["obstacles"] == 7, "Ctrl+D duplicates the three");
    app.wait_for(|s| s["selected"] == 3, "the copies are selected");
    app.key("ctrl+z");
    app.wait_for(|s| s["obstacles"] == 4, "Ctrl+Z takes the three copies away in one step");
}

#[test]
fn with_the_save_as_dialog_open_ctrl_c_v_and_d_do_nothing() {
    if !tools_available("modal_clipboard") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_rocks("modal_clipboard", 0);
    app.key("space");
    app.key("ctrl+a");
    app.wait_for(|s| s["selected"] == 5, "Ctrl+A selects the four obstacles and the target");
    app.key("ctrl+shift+s");
    app.wait_for(|s| s["modal"] == true, "the Save As dialog");
    for key in ["ctrl+c", "ctrl+v", "ctrl+d", "Delete"] {
        app.key(key);
    }
    let state = app.state();
    assert_eq!(state["obstacles"], 4, "nothing was pasted, duplicated or deleted behind the dialog");
    assert_eq!(state["selected"], 5);
    app.key("Escape");
    app.wait_for(|s| s["modal"] == false, "Esc closes the dialog");
    app.key("ctrl+v");
    app.settle();
    assert_eq!(app.state()["obstacles"], 4, "Ctrl+C behind the dialog copied nothing");
    // With the dialog closed, copy and paste work. A full CI run once saw neither chord act
    // here (the state as before, nothing copied), the same family as the X-clipboard race in
    // `ctrl_chords_in_a_text_field_type_no_letters`; it never failed alone. Each chord is sent
    // until the window shows that it acted, at most three times: a copy that never works, or a
    // paste that never pastes, still fails, and a paste can never land twice (it is retried only
    // while the count is still 4).
    let acted = |app: &Steerlab, chord: &str, done: &dyn Fn(&serde_json::Value) -> bool| {
        (0..3).any(|_| {
            app.key(chord);
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if done(&app.state()) {
                    return true;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            false
        })
    };
    let copied = |s: &serde_json::Value| s["message"].as_str().is_some_and(|m| m.starts_with("copied 5"));
    assert!(acted(&app, "ctrl+c", &copied), "Ctrl+C copied nothing: {}", app.state());
    let pasted = |s: &serde_json::Value| s["obstacles"] == 8;
    assert!(acted(&app, "ctrl+v", &pasted), "Ctrl+V pasted nothing: {}", app.state());
    app.settle();
    assert_eq!(app.state()["obstacles"], 8, "one paste, once");
}

#[test]
fn ctrl_v_over_the_view_pastes_under_the_mouse_and_from_the_menu_beside_the_copy() {
    if !tools_available("paste_at_mouse") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_rocks("paste_at_mouse", 0);
    app.key("space");
    app.drag(app.world_to_screen(-160.0, 160.0), app.world_to_screen(160.0, 40.0));
    app.wait_for(|s| s["selected"] == 3, "the rubber band selects the row of three (centre 0, 100)");
    app.key("ctrl+c");
    let mouse = app.world_to_screen(150.0, -100.0);
    let (x, y) = (format!("{}", mouse.0.round() as i32), format!("{}", mouse.1.round() as i32));
    app.xdotool(&["mousemove", "--sync", &x, &y]);
    app.settle();
    app.key("ctrl+v");
    app.wait_for(|s| s["obstacles"] == 7, "Ctrl+V pastes the three");
    let state = app.state();
    let zoom = state["camera"]["zoom"].as_f64().unwrap() as f32;
    let positions: Vec<(f32, f32)> = state["obstacle_positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32))
        .collect();
    // The mouse sits on whole pixels: within a pixel of the aimed point.
    let tolerance = 1.0 / zoom;
    for (pasted, expected) in positions[4..].iter().zip([(50.0, -100.0), (150.0, -100.0), (250.0, -100.0)]) {
        assert!(
            (pasted.0 - expected.0).abs() <= tolerance && (pasted.1 - expected.1).abs() <= tolerance,
            "the row's centre lands under the mouse: {pasted:?} vs {expected:?} (±{tolerance})"
        );
    }
    // Edit ▸ Paste (the mouse on the menu) lands one offset beside the copy instead.
    app.click(app.rect("menu_button:Edit"));
    app.click(app.rect("menu:paste"));
    app.wait_for(|s| s["obstacles"] == 10, "the menu's Paste");
    let state = app.state();
    let x = state["obstacle_positions"][8][0].as_f64().unwrap() as f32;
    let y = state["obstacle_positions"][8][1].as_f64().unwrap() as f32;
    assert_eq!((x, y), (30.0, 70.0), "the middle rock (0, 100) moved by the paste offset (30, -30)");
}

#[test]
fn shift_click_builds_a_group_and_dragging_one_moves_both() {
    if !tools_available("group_drag") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_rocks("group_drag", 0);
    app.key("space");
    app.click(app.world_to_screen(-100.0, 100.0));
    app.shift_click(app.world_to_screen(100.0, 100.0));
    app.wait_for(|s| s["selected"] == 2, "Shift+click adds the second obstacle");
    app.drag(app.world_to_screen(-100.0, 100.0), app.world_to_screen(-40.0, 20.0));
    app.key("ctrl+s");
    let saved =
        wait_for_file(&file, |v| v["obstacles"][0]["position"][0].as_f64() != Some(-100.0), "the move");
    let position = |i: usize| {
        let p = &saved["obstacles"][i]["position"];
        (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32)
    };
    let close = |(x, y): (f32, f32), (ex, ey): (f32, f32)| (x - ex).abs() < 3.0 && (y - ey).abs() < 3.0;
    assert!(close(position(0), (-40.0, 20.0)), "{:?}", position(0));
    assert!(
        close(position(2), (160.0, 20.0)),
        "the other member moved by the same offset: {:?}",
        position(2)
    );
    assert!(close(position(1), (0.0, 100.0)), "the unselected one stayed: {:?}", position(1));
}

#[test]
fn with_snapping_on_a_click_places_an_obstacle_on_the_grid() {
    if !tools_available("snap_place") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_rocks("snap_place", 0);
    app.key("space");
    app.key("ctrl+g");
    app.wait_for(|s| s["snap"] == true, "Ctrl+G turns snapping on");
    app.key("3");
    app.click(app.world_to_screen(61.0, -38.0));
    app.key("ctrl+s");
    let saved =
        wait_for_file(&file, |v| v["obstacles"].as_array().is_some_and(|o| o.len() == 5), "the new obstacle");
    let p = &saved["obstacles"][4]["position"];
    assert_eq!((p[0].as_f64(), p[1].as_f64()), (Some(50.0), Some(-50.0)), "on the 25-unit grid");
    app.screenshot("snap-grid.png");
}

#[test]
fn with_200_agents_the_inspector_stays_on_screen_and_reachable() {
    if !tools_available("many_agents") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_rocks("many_agents", 200);
    app.key("space");
    app.wait_for(|s| s["agents"] == 200, "the scene");
    // Select the last agent from the world: the inspector must show its name field on screen.
    app.key("shift+g");
    app.wait_for(|s| s["selected_agent"] == 199, "the last agent");
    let state = app.wait_for(|s| s["rects"].get("agent_name").is_some(), "the inspector's name field");
    let rect = &state["rects"]["agent_name"];
    let (top, bottom) = (rect[1].as_f64().unwrap(), rect[3].as_f64().unwrap());
    assert!(top >= 0.0 && bottom <= 800.0, "the name field is on screen: {top}..{bottom}");
    let row = app.wait_for(|s| s["rects"].get("agent:199").is_some(), "the list scrolled to the last agent");
    let row_bottom = row["rects"]["agent:199"][3].as_f64().unwrap();
    assert!(row_bottom <= top, "the selected row shows above the inspector: {row_bottom} vs {top}");
    let panel = &state["rects"]["scene_panel"];
    assert!(panel[3].as_f64().unwrap() <= 800.0, "the side panel ends inside the window");
    app.screenshot("many-agents.png");
}

/// Each agent placed with the Agent tool adds a row to the Metrics panel below the view. The view
/// used to re-centre in the smaller free area, sliding about 10 pixels a row, so a person aiming
/// at spots on the screen placed every later agent off the mark. The spots here are worked out
/// once, before the first click, as a person's eye would pick them.
#[test]
fn agents_placed_one_after_another_land_where_clicked_and_the_view_holds_still() {
    if !tools_available("agent_row") {
        return;
    }
    let _serial = serial();
    // hairpin.json: three agents and a path, which the Agent tool's predictive agents follow.
    let (app, _file) = launch_on("agent_row", "hairpin.json");
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.key("5");
    app.wait_for(|s| s["tool"] == "Agent", "the Agent tool");
    app.settle();
    let camera = app.state()["camera"].clone();
    let g = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
    let (zoom, centre) = (g(&camera["zoom"]), (g(&camera["center"][0]), g(&camera["center"][1])));
    let view = (g(&camera["viewport_center"][0]), g(&camera["viewport_center"][1]));
    // Five spots in a row below the view's centre, on whole pixels, and the world points under them.
    let spots: Vec<(f32, f32)> =
        (0..5).map(|k| ((view.0 - 240.0 + 120.0 * k as f32).round(), (view.1 + 80.0).round())).collect();
    let aims: Vec<(f32, f32)> = spots
        .iter()
        .map(|&(x, y)| (centre.0 + (x - view.0) / zoom, centre.1 - (y - view.1) / zoom))
        .collect();
    let mapping = |app: &Steerlab| [app.world_to_screen(0.0, 0.0), app.world_to_screen(300.0, 200.0)];
    let before = mapping(&app);
    for (k, spot) in spots.iter().enumerate() {
        app.click(*spot);
        app.wait_for(|s| s["agents"].as_u64() == Some(4 + k as u64), "the agent placed");
        app.settle();
        let now = mapping(&app);
        for (a, b) in before.iter().zip(&now) {
            assert!(
                (a.0 - b.0).abs() < 0.5 && (a.1 - b.1).abs() < 0.5,
                "after agent {k}: {before:?} → {now:?}"
            );
        }
    }
    let state = app.state();
    assert!(state["rects"].get("metrics_row:7").is_some(), "the Metrics panel grew a row an agent: {state}");
    for (k, (x, y)) in aims.iter().enumerate() {
        let p = &state["positions"][3 + k];
        let (px, py) = (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32);
        assert!(
            (px - x).abs() <= 0.5 / zoom && (py - y).abs() <= 0.5 / zoom,
            "agent {k} at ({px}, {py}), aimed at ({x}, {y})"
        );
    }
}

/// Wheels the side panel until the selected agent's Copies rows are inside it (above the
/// metrics table), types `count` into the count box and presses Enter; the button's centre.
fn type_copies(app: &Steerlab, count: &str) -> (f32, f32) {
    let rect_of = |state: &serde_json::Value, name: &str| -> [f32; 4] {
        let r = &state["rects"][name];
        [0, 1, 2, 3].map(|i| r[i].as_f64().unwrap_or(f64::NAN) as f32)
    };
    for _ in 0..40 {
        let state = app.wait_for(|s| s["rects"].get("copies:add").is_some(), "the Copies rows");
        let (button, panel) = (rect_of(&state, "copies:add"), rect_of(&state, "scene_panel"));
        if button[3] <= panel[3] && rect_of(&state, "param:copies")[1] >= panel[1] {
            break;
        }
        let (x, y) = (
            format!("{}", (panel[0] + panel[2]) as i32 / 2),
            format!("{}", (panel[1] + panel[3]) as i32 / 2),
        );
        app.xdotool(&["mousemove", "--sync", &x, &y]);
        app.xdotool(&["click", "5"]);
        app.settle();
    }
    let state = app.state();
    let (button, panel) = (rect_of(&state, "copies:add"), rect_of(&state, "scene_panel"));
    assert!(button[3] <= panel[3], "the button {button:?} never scrolled into the panel {panel:?}");
    let count_box = rect_of(&state, "param:copies");
    app.click((count_box[2] - 12.0, (count_box[1] + count_box[3]) / 2.0));
    app.key("ctrl+a");
    app.type_text(count);
    app.key("Return");
    app.wait_for(|s| s["rects"].get("copies:add").is_some(), "the rows after typing");
    app.rect("copies:add")
}

/// A one-boid scene (flocking and wandering) written to a fresh folder, opened and paused, the
/// boid selected.
fn launch_one_boid(test: &str) -> (Steerlab, Scratch, PathBuf) {
    let dir = temp_dir(&format!("{test}-scene"));
    let file = dir.join("boid.json");
    let scene = r#"{"version": 2, "name": "One boid", "agents": [{"name": "boid", "position": [0, 0],
        "velocity": [40, 0], "behaviours": [{"type": "flocking"}, {"type": "wander", "seed": 3}]}]}"#;
    std::fs::write(&file, scene).unwrap();
    let app = Steerlab::launch(test, &[file.to_str().unwrap()]);
    app.wait_for(
        |s| s["title"].as_str().is_some_and(|t| t.contains("boid.json")) && s["loading"].is_null(),
        "the scene loaded",
    );
    if app.state()["running"] == true {
        app.key("space");
    }
    app.wait_for(|s| s["running"] == false, "paused");
    app.key("g");
    app.wait_for(|s| s["selected_agent"] == 0, "G selects the boid");
    (app, dir, file)
}

/// The scene's limit reached from the window: 100,000 copies asked of a one-boid scene make
/// 99,999 (the message says why), the crowd runs with every panel open and the window answers
/// keys (Space pauses it, Ctrl+Z takes the crowd away).
#[test]
fn copies_past_the_scenes_limit_stop_at_100000_agents_and_the_crowd_runs_and_undoes() {
    if !tools_available("copies_limit") {
        return;
    }
    let _serial = serial();
    let (app, _dir, _file) = launch_one_boid("copies_limit");
    let add = type_copies(&app, "100000");
    app.click(add);
    let state = app.wait_for_within(|s| s["agents"] == 100_000, "the crowd made", Duration::from_secs(60));
    let message = state["message"].as_str().unwrap_or_default().to_string();
    assert!(
        message.starts_with("added 99999 copies of boid (the scene holds at most 100000 agents)"),
        "{message}"
    );
    app.key("space");
    let steps = app.state()["steps"].as_u64().unwrap_or(0);
    app.wait_for_within(
        |s| s["steps"].as_u64().unwrap_or(0) > steps + 10,
        "the crowd running",
        Duration::from_secs(60),
    );
    app.key("space");
    app.wait_for_within(|s| s["running"] == false, "Space pauses the crowd", Duration::from_secs(30));
    app.key("ctrl+z");
    app.wait_for_within(|s| s["agents"] == 1, "Ctrl+Z takes the crowd away", Duration::from_secs(30));
}

/// The whole flow of making a crowd in the window: select the boid, wheel the side panel to the
/// Copies rows, type a count, press the button (with the Save As dialog open first, when the
/// press must do nothing), check the copies' places against an oracle apart from the spiral's
/// formula (every copy's nearest neighbour about one spacing away), run the crowd, undo and redo
/// it, save it, and open the saved file again in a new window.
#[test]
fn copies_typed_into_the_inspector_make_a_crowd_that_runs_undoes_saves_and_reopens() {
    if !tools_available("copies_crowd") {
        return;
    }
    let _serial = serial();
    // The scene's folder outlives the first window: the second opens the file saved there.
    let (app, dir, file) = launch_one_boid("copies_crowd");

    let add = type_copies(&app, "299");

    // Behind an open dialog the button takes no click.
    app.key("ctrl+shift+s");
    app.wait_for(|s| s["modal"] == true, "the Save As dialog");
    app.click(add);
    app.settle();
    assert_eq!(app.state()["agents"], 1, "a click behind the dialog added copies");
    app.key("Escape");
    app.wait_for(|s| s["modal"] == false, "Esc closes the dialog");

    app.click(add);
    let state = app.wait_for(|s| s["agents"] == 300, "299 copies added");
    let message = state["message"].as_str().unwrap_or_default().to_string();
    assert!(message.starts_with("added 299 copies of boid"), "{message}");
    let positions: Vec<(f32, f32)> = state["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32))
        .collect();
    for (i, &(x, y)) in positions.iter().enumerate() {
        let nearest = positions
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &(u, v))| ((x - u).powi(2) + (y - v).powi(2)).sqrt())
            .fold(f32::INFINITY, f32::min);
        assert!(
            (15.0..=39.0).contains(&nearest),
            "agent {i} at ({x}, {y}): nearest neighbour {nearest} (spacing 30)"
        );
    }
    let shot = app.screenshot("copies.png");
    if let Some(keep) = std::env::var_os("STEERLAB_KEEP_SHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }

    // The crowd runs, then one Ctrl+Z takes every copy away and Ctrl+Shift+Z brings them back.
    app.key("space");
    app.wait_for(|s| s["steps"].as_u64().unwrap_or(0) > 30, "the crowd running");
    app.key("ctrl+z");
    app.wait_for(|s| s["agents"] == 1, "Ctrl+Z takes the copies away");
    app.key("ctrl+shift+z");
    app.wait_for(|s| s["agents"] == 300, "Ctrl+Shift+Z brings them back");
    app.key("space");
    app.key("ctrl+s");
    let saved =
        wait_for_file(&file, |v| v["agents"].as_array().is_some_and(|a| a.len() == 300), "the crowd saved");
    let names: std::collections::HashSet<&str> =
        saved["agents"].as_array().unwrap().iter().filter_map(|a| a["name"].as_str()).collect();
    assert_eq!(names.len(), 300, "every copy has its own name");
    drop(app);

    // A relaunch on the saved file opens the crowd.
    let again = Steerlab::launch("copies_crowd_reopen", &[file.to_str().unwrap()]);
    again.wait_for(|s| s["agents"] == 300 && s["loading"].is_null(), "the saved crowd reopened");
    drop(again);
    drop(dir);
}

/// A name typed into the inspector, one key at a time, that reaches another agent's name is
/// refused at that key, with a status line; the field shows the name the agent keeps. The user
/// types on to a free name, saves, and a new window opens the file with every behaviour still
/// aimed at the agent it was (pursuit-evasion.json: the evader evades the hunter, the hunter
/// pursues the evader; names are how a scene file refers to agents).
#[test]
fn a_rename_to_a_taken_name_is_refused_at_that_key_and_the_scene_saves_and_reopens() {
    if !tools_available("rename_taken") {
        return;
    }
    let _serial = serial();
    let dir = temp_dir("rename_taken-scene");
    let file = copy_scene(&dir, "pursuit-evasion.json");
    let app = Steerlab::launch("rename_taken", &[file.to_str().unwrap()]);
    app.wait_for(|s| s["agents"] == 6 && s["loading"].is_null(), "the scene");
    if app.state()["running"] == true {
        app.key("space");
    }
    app.wait_for(|s| s["running"] == false, "paused");
    let names = |state: &serde_json::Value| -> Vec<String> {
        state["names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(names(&app.state())[4..], ["evader", "hunter"]);
    app.click(app.rect("agent:5"));
    app.wait_for(|s| s["selected_agent"] == 5, "the hunter selected");
    app.click(app.rect("agent_name"));
    app.key("ctrl+a");
    // "e", "ev", ... "evade" are free; the last key would make "evader", the evader's name.
    app.type_text("evader");
    let state = app.wait_for(|s| s["names"][5] == "evade" && s["message"].is_string(), "the refusal");
    let message = state["message"].as_str().unwrap_or_default();
    assert!(message.contains("another agent is already called `evader`"), "{message}");
    assert_eq!(names(&state)[4], "evader", "the other agent keeps its name");
    let shot = app.screenshot("rename-refused.png");
    if let Some(keep) = std::env::var_os("STEERLAB_KEEP_SHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
    // The field shows the name the agent keeps: the next key types after it.
    app.type_text("2");
    app.wait_for(|s| s["names"][5] == "evade2", "typing on to a free name");
    // Back to the world (a spot of the view above its centre), then save.
    let view = app.state()["camera"]["viewport_center"].clone();
    let g = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
    app.click((g(&view[0]), g(&view[1]) - 250.0));
    app.key("ctrl+s");
    let saved = wait_for_file(&file, |v| v["agents"][5]["name"] == "evade2", "the renamed hunter saved");
    let agents = saved["agents"].as_array().unwrap();
    assert_eq!(agents[4]["name"], "evader");
    let aimed = |agent: &serde_json::Value, kind: &str| {
        agent["behaviours"].as_array().unwrap().iter().find(|b| b["type"] == kind).map(|b| b["agent"].clone())
    };
    assert_eq!(aimed(&agents[4], "evade"), Some(serde_json::json!("evade2")), "the evader evades the hunter");
    assert_eq!(
        aimed(&agents[5], "pursuit"),
        Some(serde_json::json!("evader")),
        "the hunter pursues the evader"
    );
    app.wait_for(|s| s["dirty"] == false, "saved");
    drop(app);

    let again = Steerlab::launch("rename_taken_reopen", &[file.to_str().unwrap()]);
    let state = again.wait_for(|s| s["agents"] == 6 && s["loading"].is_null(), "the saved scene reopened");
    assert_eq!(names(&state)[4..], ["evader", "evade2"]);
    assert!(state["message"].as_str().is_none_or(|m| !m.contains("error")), "{state}");
    drop(again);
    drop(dir);
}
