//! Real-window tests of the classic behaviours added through the panel, driven with xdotool
//! under Xvfb through the harness in `e2e_window.rs`: an entry is added to an agent's behaviour
//! list, what it refers to is picked in the entry's picker, the scene is saved and run, and
//! what the agents do is read back from the positions and headings the window publishes (and from
//! the saved scene run headless).

use std::path::PathBuf;

use super::e2e_window::{serial, temp_dir, tools_available, wait_for_file, Steerlab};

/// A scene written to a fresh directory, and the app launched on it with the scene loaded.
fn launch_with_scene(test: &str, text: &str) -> (Steerlab, PathBuf) {
    let dir = temp_dir(&format!("{test}-scene"));
    let file = dir.join("scene.json");
    std::fs::write(&file, text).unwrap();
    let app = Steerlab::launch(test, &[file.to_str().unwrap()]).keeping(dir);
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

/// Agent `idx`'s heading (radians) as the window published it.
fn orientation(state: &serde_json::Value, idx: usize) -> Option<f32> {
    Some(state["orientations"].get(idx)?.as_f64()? as f32)
}

/// `angle` wrapped into (−π, π].
fn wrap(angle: f32) -> f32 {
    let turns = (angle / std::f32::consts::TAU).round();
    angle - turns * std::f32::consts::TAU
}

/// The saved scene run headless for `seconds` with a trace; the trace's rows of agent `name` as
/// (t, x, y, vx, vy, orientation).
fn traced(file: &std::path::Path, seconds: &str, name: &str) -> Vec<[f32; 6]> {
    let trace = file.with_file_name("trace.csv");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["run", file.to_str().unwrap(), "--seconds", seconds, "--trace", trace.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&trace).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let column = |key: &str| header.iter().position(|h| *h == key).unwrap();
    let keys = ["t", "x", "y", "vx", "vy", "orientation"].map(column);
    text.lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .filter(|cells| cells[column("agent")] == name)
        .map(|cells| keys.map(|k| cells[k].parse::<f32>().unwrap()))
        .collect()
}

/// Face through the panel: an agent circling a post gets a face entry, which starts on the
/// nearest other agent (a decoy beside its start); the post is picked instead, and the run turns
/// the circler's heading to the post — across its velocity, a quarter turn from where it would
/// look without the entry. The saved scene, run headless, does the same.
#[test]
fn a_face_entry_added_in_the_panel_turns_the_agent_toward_the_agent_picked_for_it() {
    if !tools_available("pick_face") {
        return;
    }
    let _serial = serial();
    let scene = format!(
        r#"{{"version": 2, "name": "Post",
          "curves": [{{"id": "ring", "kind": "circle", "center": [0, 0], "radius": 100}}],
          "agents": [
            {{"name": "circler", "position": [100, 0], "radius": 8, "max_speed": 150, "max_acceleration": 400,
              "behaviours": [{{"type": "parametric", "curve": "ring", "speed": 100, "method": "arc_length"}}]}},
            {{"name": "decoy", "position": [140, 0], "radius": 8, "behaviours": [{RESTING}]}},
            {{"name": "post", "position": [0, 0], "radius": 8, "behaviours": [{RESTING}]}}]}}"#
    );
    let (app, file) = launch_with_scene("pick_face", &scene);
    app.key("space");
    app.click(app.rect("agent:0"));
    app.click(app.rect("mix:add"));
    app.click(app.rect("mix:add:face"));
    app.wait_for(|s| s["rects"].get("pick:entry0:agent").is_some(), "the entry's target picker");
    app.click(app.rect("pick:entry0:agent"));
    app.click(app.rect("pick:entry0:agent:post"));
    app.key("ctrl+s");
    let saved =
        wait_for_file(&file, |v| v["agents"][0]["behaviours"][1]["agent"] == "post", "the face entry saved");
    assert_eq!(saved["agents"][0]["behaviours"][1]["type"], "face", "{saved}");
    let mut checked = 0;
    let start = app.state()["steps"].as_u64().unwrap_or(0);
    run_for(&app, 6 * 60, |state| {
        // From the second second on (the first quarter turn is the heading coming round).
        if state["steps"].as_u64().unwrap_or(0) < start + 60 {
            return;
        }
        if let (Some((x, y)), Some(heading)) = (position(state, 0), orientation(state, 0)) {
            let to_post = (-y).atan2(-x);
            let error = wrap(to_post - heading);
            assert!(error.abs() < 0.2, "at ({x}, {y}) heading {heading}, the post is at {to_post}");
            checked += 1;
        }
    });
    assert!(checked > 10, "only {checked} states seen");
    for [t, x, y, _, _, heading] in traced(&file, "6", "circler") {
        if t > 1.0 {
            let error = wrap((-y).atan2(-x) - heading);
            assert!(error.abs() < 0.2, "saved scene, t {t}: heading {heading} at ({x}, {y})");
        }
    }
}

/// Look where you are going through the panel: an agent racing round a tight circle
/// (4 rad/s) gets a look-where-you-are-going entry; its heading then turns at a bounded rate
/// and trails its velocity by a steady angle (ω · slow_angle / max_rotation ≈ 0.33 rad),
/// where without the entry it points along the velocity exactly.
#[test]
fn a_look_where_you_are_going_entry_added_in_the_panel_makes_the_heading_trail_the_velocity() {
    if !tools_available("look_ahead") {
        return;
    }
    let _serial = serial();
    let scene = r#"{"version": 2, "name": "Spin",
          "curves": [{"id": "ring", "kind": "circle", "center": [0, 0], "radius": 40}],
          "agents": [
            {"name": "spinner", "position": [40, 0], "radius": 6, "max_speed": 200, "max_acceleration": 800,
              "behaviours": [{"type": "parametric", "curve": "ring", "speed": 160, "method": "arc_length"}]}]}"#;
    let (app, file) = launch_with_scene("look_ahead", scene);
    app.key("space");
    app.click(app.rect("agent:0"));
    app.click(app.rect("mix:add"));
    app.click(app.rect("mix:add:look_where_you_are_going"));
    app.key("ctrl+s");
    wait_for_file(
        &file,
        |v| v["agents"][0]["behaviours"][1]["type"] == "look_where_you_are_going",
        "the entry saved",
    );
    let start = app.state()["steps"].as_u64().unwrap_or(0);
    let mut lags = Vec::new();
    run_for(&app, 5 * 60, |state| {
        if state["steps"].as_u64().unwrap_or(0) < start + 60 {
            return;
        }
        if let (Some((x, y)), Some(heading)) = (position(state, 0), orientation(state, 0)) {
            // Anticlockwise round the centre: the velocity is a quarter turn ahead of the radius.
            let along = y.atan2(x) + std::f32::consts::FRAC_PI_2;
            lags.push(wrap(along - heading));
        }
    });
    assert!(lags.len() > 10, "only {} states seen", lags.len());
    let (least, most) =
        lags.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), &l| (a.min(l), b.max(l)));
    assert!(0.15 < least && most < 0.6, "the heading trails the velocity by {least} to {most} rad");
    let rows = traced(&file, "5", "spinner");
    for pair in rows.windows(2) {
        let ([t, _, _, vx, vy, heading], [_, _, _, _, _, next]) = (pair[0], pair[1]);
        if t > 1.0 {
            let lag = wrap(vy.atan2(vx) - heading);
            assert!((0.15..0.6).contains(&lag), "saved scene, t {t}: heading {heading} lags by {lag}");
            assert!(
                wrap(next - heading).abs() <= 6.0 / 60.0 + 1e-3,
                "t {t}: turned faster than max_rotation"
            );
        }
    }
}

/// Leader following through the panel: a follower standing in the path of a leader walking
/// east gets a leader-following entry, which starts on the nearest other agent (a decoy); the
/// leader is picked instead. The run shows the follower stepping out of the leader's path,
/// going round it without ever touching it, and settling on the follow point 50 u behind it;
/// the saved scene run headless keeps the same distance (`min_leader_gap` above 0).
#[test]
fn a_leader_following_entry_added_in_the_panel_clears_the_leaders_path_and_trails_it() {
    if !tools_available("pick_leader") {
        return;
    }
    let _serial = serial();
    let scene = r#"{"version": 2, "name": "Trail",
          "targets": [{"id": "far", "position": [3000, 0]}],
          "agents": [
            {"name": "follower", "position": [150, 3], "radius": 6, "max_speed": 100, "max_acceleration": 400,
              "behaviours": [{"type": "look_where_you_are_going"}]},
            {"name": "decoy", "position": [150, -45], "radius": 8,
              "behaviours": [{"type": "wander", "radius": 0, "distance": 0, "jitter": 0}]},
            {"name": "leader", "position": [0, 0], "radius": 8, "max_speed": 30,
              "behaviours": [{"type": "seek", "target": "far"}]}]}"#;
    let (app, file) = launch_with_scene("pick_leader", scene);
    app.key("space");
    app.click(app.rect("agent:0"));
    app.click(app.rect("mix:add"));
    app.click(app.rect("mix:add:leader_following"));
    app.wait_for(|s| s["rects"].get("pick:entry0:agent").is_some(), "the entry's leader picker");
    app.click(app.rect("pick:entry0:agent"));
    app.click(app.rect("pick:entry0:agent:leader"));
    app.key("ctrl+s");
    let saved = wait_for_file(
        &file,
        |v| v["agents"][0]["behaviours"][1]["agent"] == "leader",
        "the leader-following entry saved",
    );
    assert_eq!(saved["agents"][0]["behaviours"][1]["type"], "leader_following", "{saved}");
    let (mut stepped_aside, mut closest) = (false, f32::INFINITY);
    run_for(&app, 12 * 60, |state| {
        if let (Some(follower), Some(leader)) = (position(state, 0), position(state, 2)) {
            if follower.0 > leader.0 && follower.1.abs() > 25.0 {
                stepped_aside = true;
            }
            closest = closest.min(distance(follower, leader));
        }
    });
    let state = app.state();
    let (follower, leader) = (position(&state, 0).unwrap(), position(&state, 2).unwrap());
    assert!(stepped_aside, "the follower never stepped out of the leader's path");
    assert!(closest > 14.0 + 2.0, "the leader came within {closest} of the follower");
    let follow_point = (leader.0 - 50.0, leader.1);
    assert!(
        distance(follower, follow_point) < 5.0,
        "the follower is at {follower:?}, the follow point at {follow_point:?}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["run", file.to_str().unwrap(), "--seconds", "12", "--json"])
        .output()
        .unwrap();
    let metrics: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gap = metrics[0]["min_leader_gap"].as_f64();
    assert!(gap.is_some_and(|g| g > 2.0), "the saved follower came within {gap:?} of the leader");
}
