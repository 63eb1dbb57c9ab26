//! Real-window tests of the classic behaviours added through the panel, driven with xdotool
//! under Xvfb through the harness in `e2e_window.rs`: an entry is added to an agent's behaviour
//! list, what it refers to is picked in the entry's picker, the scene is saved and run, and
//! what the agents do is read back from the positions the window publishes.

use std::path::PathBuf;

use super::e2e_window::{serial, temp_dir, tools_available, wait_for_file, Steerlab};

/// A scene written to a fresh directory, and the app launched on it with the scene loaded.
fn launch_with_scene(test: &str, text: &str) -> (Steerlab, PathBuf) {
    let dir = temp_dir(&format!("{test}-scene"));
    let file = dir.join("scene.json");
    std::fs::write(&file, text).unwrap();
    let app = Steerlab::launch(test, &[file.to_str().unwrap()]);
    app.wait_for(
        |s| s["title"].as_str().is_some_and(|t| t.contains("scene.json")) && s["loading"].is_null(),
        "the scene loaded",
    );
    (app, file)
}

/// Agent `idx`'s position as the window published it.
fn position(state: &serde_json::Value, idx: usize) -> Option<(f32, f32)> {
    let p = state["positions"].get(idx)?;
    Some((p[0].as_f64()? as f32, p[1].as_f64()? as f32))
}

fn distance(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Runs until the world has taken `steps` more steps, calling `watch` on every state seen.
fn run_for(app: &Steerlab, steps: u64, mut watch: impl FnMut(&serde_json::Value)) {
    let start = app.state()["steps"].as_u64().unwrap_or(0);
    app.key("space");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let state = app.state();
        watch(&state);
        if state["steps"].as_u64().unwrap_or(0) >= start + steps {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the run did not advance: {state}");
        std::thread::sleep(std::time::Duration::from_millis(30));
    }
}

/// A resting agent: wander on a circle of radius 0 right where it is asks only to brake.
const RESTING: &str = r#"{"type": "wander", "radius": 0, "distance": 0, "jitter": 0}"#;

/// The whole flow of issue 10's list editor: a slow wanderer gets a pursuit entry, which
/// starts on the nearest other agent (a decoy standing beside it); the quarry is changed to the
/// hare circling on the far side in the entry's picker, the scene is saved with the pick, and
/// the run shows the pursuer closing in on the hare until it touches it.
#[test]
fn a_pursuit_entry_added_in_the_panel_chases_the_quarry_picked_for_it() {
    if !tools_available("pick_quarry") {
        return;
    }
    let _serial = serial();
    let scene = format!(
        r#"{{"version": 2, "name": "Quarry",
          "curves": [{{"id": "ring", "kind": "circle", "center": [250, 0], "radius": 80}}],
          "agents": [
            {{"name": "pursuer", "position": [-250, 0], "radius": 8, "max_speed": 120, "max_acceleration": 400,
              "behaviours": [{{"type": "wander", "seed": 3, "weight": 0.1}}]}},
            {{"name": "decoy", "position": [-250, 60], "radius": 8, "behaviours": [{RESTING}]}},
            {{"name": "hare", "position": [330, 0], "radius": 8,
              "behaviours": [{{"type": "parametric", "curve": "ring", "speed": 50}}]}}]}}"#
    );
    let (app, file) = launch_with_scene("pick_quarry", &scene);
    app.key("space"); // pause while editing
    app.click(app.rect("agent:0"));
    app.click(app.rect("mix:add"));
    app.click(app.rect("mix:add:pursuit"));
    app.wait_for(|s| s["rects"].get("pick:entry0:agent").is_some(), "the entry's quarry picker");
    app.click(app.rect("pick:entry0:agent"));
    let offered = app.wait_for(|s| s["rects"].get("pick:entry0:agent:hare").is_some(), "the open picker");
    assert!(
        offered["rects"].get("pick:entry0:agent:pursuer").is_none(),
        "the picker offers the pursuer itself"
    );
    app.click(app.rect("pick:entry0:agent:hare"));
    app.key("ctrl+s");
    let saved = wait_for_file(
        &file,
        |v| v["agents"][0]["behaviours"][1]["agent"] == "hare",
        "the pursuit entry saved with the picked quarry",
    );
    assert_eq!(saved["agents"][0]["behaviours"][1]["type"], "pursuit", "{saved}");

    let before = app.state();
    let start_gap = distance(position(&before, 0).unwrap(), position(&before, 2).unwrap());
    let mut closest = f32::INFINITY;
    run_for(&app, 10 * 60, |state| {
        if let (Some(pursuer), Some(hare)) = (position(state, 0), position(state, 2)) {
            closest = closest.min(distance(pursuer, hare));
        }
    });
    assert!(start_gap > 500.0, "{start_gap}");
    assert!(
        closest < 20.0,
        "the pursuer came no closer than {closest} to the hare (started {start_gap} away)"
    );
    // The saved scene, run headless, catches the hare too (bodies touching: `capture_time`).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["run", file.to_str().unwrap(), "--seconds", "10", "--json"])
        .output()
        .unwrap();
    let metrics: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let capture = metrics[0]["capture_time"].as_f64();
    assert!(capture.is_some_and(|t| t < 10.0), "the saved pursuer never caught the hare: {}", metrics[0]);
    let decoy = position(&app.state(), 1).unwrap();
    assert!(distance(decoy, (-250.0, 60.0)) < 1.0, "the decoy stays put: {decoy:?}");
}

/// Interpose through the panel: a resting bodyguard gets an interpose entry, which starts
/// between the two agents nearest it (a decoy and red); the first agent is changed to blue in
/// the entry's picker, and the run brings the bodyguard to rest on the midpoint of red and blue.
#[test]
fn an_interpose_entry_added_in_the_panel_brings_the_agent_between_the_pair_picked_for_it() {
    if !tools_available("pick_interpose") {
        return;
    }
    let _serial = serial();
    let scene = format!(
        r#"{{"version": 2, "name": "Between",
          "agents": [
            {{"name": "bodyguard", "position": [0, -200], "radius": 8, "max_speed": 150, "max_acceleration": 400,
              "behaviours": [{RESTING}]}},
            {{"name": "decoy", "position": [80, -200], "radius": 8, "behaviours": [{RESTING}]}},
            {{"name": "red", "position": [-200, 0], "radius": 8, "behaviours": [{RESTING}]}},
            {{"name": "blue", "position": [200, 100], "radius": 8, "behaviours": [{RESTING}]}}]}}"#
    );
    let (app, file) = launch_with_scene("pick_interpose", &scene);
    app.key("space");
    app.click(app.rect("agent:0"));
    app.click(app.rect("mix:add"));
    app.click(app.rect("mix:add:interpose"));
    app.wait_for(|s| s["rects"].get("pick:entry0:agent").is_some(), "the entry's pickers");
    app.click(app.rect("pick:entry0:agent"));
    app.click(app.rect("pick:entry0:agent:blue"));
    app.key("ctrl+s");
    let saved = wait_for_file(
        &file,
        |v| v["agents"][0]["behaviours"][1]["agents"][0] == "blue",
        "the interpose entry saved with the picked pair",
    );
    assert_eq!(saved["agents"][0]["behaviours"][1]["agents"][1], "red", "{saved}");
    run_for(&app, 8 * 60, |_| {});
    let guard = position(&app.state(), 0).unwrap();
    assert!(distance(guard, (0.0, 50.0)) < 5.0, "the bodyguard rests at {guard:?}, not between red and blue");
}

/// Hide through the panel: a resting mouse gets a hide entry, which starts on the nearest other
/// agent (a decoy beside it); the hunter is picked instead, and the run brings the mouse behind
/// the rock, out of the hunter's sight.
#[test]
fn a_hide_entry_added_in_the_panel_puts_the_rock_between_the_agent_and_the_hunter_picked_for_it() {
    if !tools_available("pick_hunter") {
        return;
    }
    let _serial = serial();
    let scene = format!(
        r#"{{"version": 2, "name": "Cover",
          "obstacles": [{{"position": [0, 0], "radius": 40}}],
          "agents": [
            {{"name": "mouse", "position": [60, -150], "radius": 6, "max_speed": 100, "max_acceleration": 400,
              "behaviours": [{RESTING}]}},
            {{"name": "decoy", "position": [120, -150], "radius": 8, "behaviours": [{RESTING}]}},
            {{"name": "hunter", "position": [-250, 0], "radius": 10, "behaviours": [{RESTING}]}}]}}"#
    );
    let (app, file) = launch_with_scene("pick_hunter", &scene);
    app.key("space");
    app.click(app.rect("agent:0"));
    app.click(app.rect("mix:add"));
    app.click(app.rect("mix:add:hide"));
    app.wait_for(|s| s["rects"].get("pick:entry0:agent").is_some(), "the entry's hunter picker");
    app.click(app.rect("pick:entry0:agent"));
    app.click(app.rect("pick:entry0:agent:hunter"));
    app.key("ctrl+s");
    wait_for_file(&file, |v| v["agents"][0]["behaviours"][1]["agent"] == "hunter", "the hide entry saved");
    run_for(&app, 8 * 60, |_| {});
    let mouse = position(&app.state(), 0).unwrap();
    // Behind the rock from the hunter at (-250, 0): beyond the rock's centre on the far side,
    // within the rock's shadow (the line from the hunter passes within the radius of its centre).
    assert!(mouse.0 > 40.0, "the mouse is not behind the rock: {mouse:?}");
    let (hx, hy) = (-250.0f32, 0.0f32);
    let (dx, dy) = (mouse.0 - hx, mouse.1 - hy);
    let miss = (dx * (0.0 - hy) - dy * (0.0 - hx)).abs() / (dx * dx + dy * dy).sqrt();
    assert!(
        miss < 40.0,
        "the hunter sees the mouse at {mouse:?}: the line passes {miss} from the rock's centre"
    );
}
