//! A real-window test of the Paint tool, driven with xdotool under Xvfb through the harness in
//! `e2e_window.rs`: its key does nothing behind the Save As dialog, it is picked with `B`, a
//! mouse drag across the world paints the cells under the stroke, Ctrl+S saves them, and the
//! saved scene, run headless, carries its agent the way the stroke went.

use super::e2e_window::{serial, temp_dir, tools_available, wait_for_file, Steerlab};

/// A blank 24 × 16 field of 25 u cells over (−300, −200)–(300, 200) and one agent reading it
/// (at rest at (100, 20), on the line the test drags along).
const SCENE: &str = r#"{
  "version": 2,
  "name": "Pool",
  "fields": [{ "id": "pool", "origin": [-300, -200], "cell_size": 25, "columns": 24, "rows": 16 }],
  "agents": [
    { "name": "leaf", "position": [100, 20], "max_speed": 60, "max_acceleration": 300,
      "behaviours": [{ "type": "flow_field", "field": "pool", "look_ahead": 0 }] }
  ]
}
"#;

#[test]
fn a_paint_drag_sets_the_cells_under_it_and_the_saved_agent_follows_the_stroke() {
    if !tools_available("paint_tool") {
        return;
    }
    let _serial = serial();
    let dir = temp_dir("paint_tool-scene");
    let file = dir.join("pool.json");
    std::fs::write(&file, SCENE).unwrap();
    let app = Steerlab::launch("paint_tool", &[file.to_str().unwrap()]);
    app.wait_for(
        |s| s["title"].as_str().is_some_and(|t| t.contains("pool.json")) && s["loading"].is_null(),
        "the scene loaded",
    );
    app.key("space"); // pause: the leaf stays put while the field is painted
    app.wait_for(|s| s["running"] == false, "paused");

    // Behind the Save As dialog the tool's keys do nothing.
    app.key("ctrl+shift+s");
    app.wait_for(|s| s["modal"] == true, "the Save As dialog");
    app.key("b");
    app.key("7");
    assert_eq!(app.state()["tool"], "Select", "a tool key acted behind the dialog");
    app.key("Escape");
    app.wait_for(|s| s["modal"] == false, "the dialog closed");

    app.key("b");
    app.wait_for(|s| s["tool"] == "Paint", "B picks the Paint tool");
    // Drag from (250, 50) to (−250, −50): leftward and a little down, through the leaf.
    let (from, to) = ((250.0f32, 50.0f32), (-250.0f32, -50.0f32));
    let screen = |(x, y): (f32, f32)| {
        let (sx, sy) = app.world_to_screen(x, y);
        [format!("{}", sx.round() as i32), format!("{}", sy.round() as i32)]
    };
    let [x, y] = screen(from);
    app.xdotool(&["mousemove", "--sync", &x, &y]);
    app.settle();
    app.xdotool(&["mousedown", "1"]);
    app.settle();
    for i in 1..=10 {
        let t = i as f32 / 10.0;
        let [x, y] = screen((from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t));
        app.xdotool(&["mousemove", "--sync", &x, &y]);
        app.settle();
    }
    app.xdotool(&["mouseup", "1"]);
    app.settle();
    app.wait_for(|s| s["dirty"] == true, "the stroke marks the scene changed");
    app.screenshot("painted.png");

    app.key("ctrl+s");
    let saved = wait_for_file(&file, |v| v["fields"][0]["vectors"].is_array(), "the painted cells saved");
    let vectors = saved["fields"][0]["vectors"].as_array().unwrap();
    assert_eq!(vectors.len(), 24 * 16);
    let direction = {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let length = (dx * dx + dy * dy).sqrt();
        (dx / length, dy / length)
    };
    let (mut near, mut painted) = (0, 0);
    for (i, v) in vectors.iter().enumerate() {
        let (col, row) = ((i % 24) as f32, (i / 24) as f32);
        let centre = (-300.0 + (col + 0.5) * 25.0, -200.0 + (row + 0.5) * 25.0);
        // Distance of the centre from the drag's line, and whether it lies along the drag.
        let across = ((centre.0 - from.0) * direction.1 - (centre.1 - from.1) * direction.0).abs();
        let along = (centre.0 - from.0) * direction.0 + (centre.1 - from.1) * direction.1;
        let (vx, vy) = (v[0].as_f64().unwrap() as f32, v[1].as_f64().unwrap() as f32);
        let is_painted = vx != 0.0 || vy != 0.0;
        painted += usize::from(is_painted);
        if across < 25.0 && along > 25.0 && along < 485.0 {
            near += 1;
            assert!(
                is_painted && vx * direction.0 + vy * direction.1 > 0.99,
                "cell {i} at {centre:?}, {across} from the stroke, holds ({vx}, {vy})"
            );
        }
        if across > 80.0 {
            assert!(
                !is_painted,
                "cell {i} at {centre:?}, {across} from the stroke, was painted ({vx}, {vy})"
            );
        }
    }
    assert!(near >= 30, "only {near} cells lie under the stroke");
    assert!(painted >= near, "{painted} painted");

    // The saved scene, run headless: the leaf goes the way the stroke went.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_steerlab"))
        .args(["run", file.to_str().unwrap(), "--seconds", "3", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let metrics: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let end = &metrics[0]["final_position"];
    let moved = (end[0].as_f64().unwrap() as f32 - 100.0, end[1].as_f64().unwrap() as f32 - 20.0);
    let length = (moved.0 * moved.0 + moved.1 * moved.1).sqrt();
    let along = moved.0 * direction.0 + moved.1 * direction.1;
    assert!(
        length > 100.0 && along > 0.98 * length,
        "the leaf moved by {moved:?}, the stroke went {direction:?}"
    );
}
