//! Real-window tests of robustness: big scenes load off the frame loop with a progress dialog
//! and Cancel (Esc) keeps the open scene; a FIFO given as the scene never blocks the window;
//! pathological expressions typed into the curve editor are refused in place; Revert to saved;
//! screenshots and recordings from the window. They reuse the harness of `e2e_window` (a
//! private Xvfb, xdotool, the state the app publishes to `STEERLAB_WIDGET_RECTS`).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::e2e_window::{launch_on, serial, tools_available, Steerlab};

/// Writes a valid scene of about `points` path points (the compare scene plus one long path) to
/// `path`: tens of MB, so loading it takes seconds.
fn write_big_scene(path: &Path, points: usize) {
    let compare = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/compare.json"))
        .expect("read compare.json");
    let mut scene: serde_json::Value = serde_json::from_str(&compare).expect("compare.json is JSON");
    scene["name"] = "big".into();
    scene["paths"]
        .as_array_mut()
        .expect("compare.json has paths")
        .push(serde_json::json!({"id": "big", "points": "@POINTS@", "closed": false, "radius": 10}));
    let text = scene.to_string();
    let (head, tail) = text.split_once("\"@POINTS@\"").expect("placeholder");
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create big scene"));
    out.write_all(head.as_bytes()).unwrap();
    out.write_all(b"[").unwrap();
    for i in 0..points {
        let x = (i % 2000) as f64 * 0.5 - 500.0;
        let y = (i / 2000) as f64 * 0.01 - 300.0;
        if i > 0 {
            out.write_all(b",").unwrap();
        }
        write!(out, "[{x:.2},{y:.2}]").unwrap();
    }
    out.write_all(b"]").unwrap();
    out.write_all(tail.as_bytes()).unwrap();
    out.flush().unwrap();
}

/// The frame counter the app publishes.
fn frame(state: &serde_json::Value) -> u64 {
    state["frame"].as_u64().unwrap_or(0)
}

/// Waits until the loading dialog is on screen and the window has drawn more frames since it
/// appeared (the frame loop keeps running while the worker loads).
fn wait_for_loading_dialog(app: &Steerlab, name: &str) -> serde_json::Value {
    let shown = app.wait_for(|s| s["rects"].get("loading:cancel").is_some(), "the loading dialog to appear");
    let text = shown["loading"]["text"].as_str().unwrap_or_default().to_string();
    assert!(text.starts_with(&format!("Loading {name}…")), "dialog text: {text}");
    let first = frame(&shown);
    let later = app.wait_for(|s| frame(s) > first || s["loading"].is_null(), "another frame while loading");
    assert!(frame(&later) > first, "the window kept drawing while loading: {later}");
    shown
}

#[test]
fn a_big_scene_opened_from_the_menu_shows_progress_and_esc_keeps_the_open_scene() {
    if !tools_available("big_cancel") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("big_cancel", "hairpin.json");
    let big = file.with_file_name("big.json");
    write_big_scene(&big, 3_000_000);
    let before = app.state();
    app.key("ctrl+o");
    app.click(app.rect("file_dialog:entry:big.json"));
    app.click(app.rect("file_dialog:ok"));
    wait_for_loading_dialog(&app, "big.json");
    app.key("Escape");
    let after = app.wait_for(|s| s["loading"].is_null(), "the load to stop");
    let message = after["message"].as_str().unwrap_or_default();
    assert!(message.contains("stopped loading big.json"), "{message}");
    assert_eq!(after["title"], before["title"], "the open scene stays");
    assert_eq!(after["agents"], before["agents"]);
    // Long enough for the worker to have finished had it not been cancelled: the scene stays.
    std::thread::sleep(std::time::Duration::from_secs(4));
    app.settle();
    let later = app.state();
    assert_eq!(later["title"], before["title"], "a cancelled load never lands");
    assert_eq!(later["agents"], before["agents"]);
    // And the window answers keys again.
    let running = later["running"].as_bool().unwrap();
    app.key("space");
    app.wait_for(|s| s["running"].as_bool() == Some(!running), "Space to toggle play");
}

#[test]
fn a_big_scene_on_the_command_line_loads_with_progress_and_opens() {
    if !tools_available("big_open") {
        return;
    }
    let _serial = serial();
    let dir = super::e2e_window::temp_dir("big_open-scene");
    let big = dir.join("big.json");
    write_big_scene(&big, 3_000_000);
    let app = Steerlab::start("big_open", &[big.to_str().unwrap()], &[]);
    wait_for_loading_dialog(&app, "big.json");
    let loaded = wait_until_loaded(&app);
    assert!(loaded["title"].as_str().unwrap_or_default().starts_with("big.json"), "{}", loaded["title"]);
    assert_eq!(loaded["agents"], 4, "the compare scene's agents");
    // The frame that took the scene in may have drawn the dialog before the load finished.
    app.wait_for(|s| s["rects"].get("loading").is_none(), "the dialog is gone");
}

/// Waits (up to two minutes: a software-rendered window and a 50 MB parse share two cores)
/// until no load is running.
fn wait_until_loaded(app: &Steerlab) -> serde_json::Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let state = app.state();
        if state.get("rects").is_some() && state["loading"].is_null() {
            return state;
        }
        assert!(std::time::Instant::now() < deadline, "the scene never loaded: {state}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn a_fifo_on_the_command_line_does_not_block_the_window() {
    if !tools_available("fifo_window") {
        return;
    }
    let _serial = serial();
    let dir = super::e2e_window::temp_dir("fifo_window-scene");
    let fifo: PathBuf = dir.join("scene.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return;
    }
    let mut app = Steerlab::start("fifo_window", &[fifo.to_str().unwrap()], &[]);
    let state = app.wait_for(
        |s| s["message"].as_str().is_some_and(|m| m.contains("not a regular file")),
        "the FIFO to be refused",
    );
    assert!(state["loading"].is_null());
    let first = frame(&state);
    app.wait_for(|s| frame(s) > first + 5, "more frames");
    assert!(app.is_running());
}

/// Replaces the text of the expression field `field` (`x(t)` …) by typing, as a person would:
/// click into it, select it all (End, Shift+Home), delete it, type the new text.
fn retype_expression(app: &Steerlab, field: &str, text: &str) {
    app.click(app.rect(&format!("expr:{field}")));
    app.key("End");
    app.key("shift+Home");
    app.key("BackSpace");
    app.type_text(text);
}

#[test]
fn pathological_expressions_typed_into_the_curve_editor_are_refused_in_place() {
    if !tools_available("expr_window") {
        return;
    }
    let _serial = serial();
    let (mut app, _file) = launch_on("expr_window", "parametric.json");
    // Let the rose's agents leave the start of their curve (the curve's handle), then pause.
    app.wait_for(|s| s["steps"].as_u64().is_some_and(|n| n > 90), "the agents to move on");
    app.key("space");
    let paused = app.wait_for(|s| s["running"] == false, "paused");
    app.settle();
    let paused = app.state().get("positions").map_or(paused, |_| app.state());
    // The rose curve x = 120 cos 3t cos t, y = 120 cos 3t sin t − 150 is picked by its handle,
    // its start (120, −150).
    app.click(app.world_to_screen(120.0, -150.0));
    let opened = app.wait_for(|s| s["expr_editor"].is_object(), "the rose curve's expression editor");
    let original = opened["expr_editor"]["applied_x"].clone();
    assert_eq!(original, "120*cos(3*t)*cos(t)");
    let long_sum = vec!["t"; 95].join("+");
    let cases: [(&str, Option<&str>); 4] = [
        (&long_sum, None),
        ("t/0", Some("x(t) is not finite (NaN) at t = 0")),
        ("sqrt(-1)", Some("x(t) is not finite (NaN) at t = 0")),
        ("1e30*sin(t)", Some("beyond the coordinate limit")),
    ];
    for (text, expected) in cases {
        retype_expression(&app, "x(t)", text);
        let state = app.wait_for(|s| s["expr_editor"]["x"] == text, "the typed expression");
        assert!(app.is_running(), "{text}: the window survives");
        let error = state["expr_editor"]["error"].as_str();
        match expected {
            Some(expected) => {
                let error = error.unwrap_or_else(|| panic!("{text}: no error shown"));
                assert!(error.contains(expected), "{text}: {error}");
                if text.starts_with("1e30") {
                    let t: f32 = error.rsplit("at t = ").next().unwrap().parse().unwrap();
                    assert!(t > 0.0 && t < 0.01, "{text}: the first t past the limit: {error}");
                }
            }
            None => assert!(error.is_none(), "{text}: a long sum is a valid curve: {error:?}"),
        }
        // Nothing was applied: the curve and the paused agents are as they were.
        assert_eq!(state["expr_editor"]["applied_x"], original, "{text}");
        assert_eq!(state["positions"], paused["positions"], "{text}");
        assert_eq!(state["dirty"], false, "{text}");
    }
}

#[test]
fn ctrl_r_reverts_to_the_saved_file_after_asking() {
    if !tools_available("revert_window") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("revert_window", "hairpin.json");
    app.key("space");
    app.key("r");
    let before = app.wait_for(|s| s["running"] == false && s["steps"] == 0, "paused at the start");
    app.key("3");
    app.click(app.world_to_screen(0.0, 150.0));
    let edited = app.wait_for(|s| s["dirty"] == true, "an unsaved change");
    assert_eq!(edited["obstacles"], before["obstacles"].as_u64().unwrap() + 1);
    app.key("ctrl+r");
    app.click(app.rect("confirm:discard"));
    let reverted = app.wait_for(|s| s["dirty"] == false && s["loading"].is_null(), "the file reloaded");
    assert_eq!(reverted["obstacles"], before["obstacles"], "the scene is the file again");
    assert_eq!(reverted["agents"], before["agents"]);
    assert_eq!(reverted["title"], before["title"]);
    assert_eq!(reverted["positions"], before["positions"]);
}

/// Width, height and number of distinct colours of a PNG (ImageMagick's `identify`).
fn png_facts(png: &Path) -> (u32, u32, u64) {
    let out = std::process::Command::new("identify")
        .args(["-format", "%w %h %k", png.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{} is not a picture", png.display());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let numbers: Vec<u64> = text.split_whitespace().filter_map(|n| n.parse().ok()).collect();
    assert_eq!(numbers.len(), 3, "{text}");
    (numbers[0] as u32, numbers[1] as u32, numbers[2])
}

/// Waits until `path` holds a whole PNG (written under another name and renamed).
fn wait_for_png(path: &Path) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !path.is_file() {
        assert!(std::time::Instant::now() < deadline, "{} never appeared", path.display());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn the_screenshot_key_saves_the_window_and_a_recording_writes_a_png_sequence() {
    if !tools_available("pictures") {
        return;
    }
    let _serial = serial();
    let dir = super::e2e_window::temp_dir("pictures-scene");
    let scene = super::e2e_window::copy_scene(&dir, "compare.json");
    let pictures = dir.join("pictures");
    let pictures_text = pictures.to_str().unwrap().to_string();
    let app = Steerlab::launch_with(
        "pictures",
        &[scene.to_str().unwrap()],
        &[("STEERLAB_PICTURES_DIR", pictures_text.as_str())],
    );
    // The screenshot: a key, a PNG of the window's size with real content, a message naming it.
    app.key("ctrl+p");
    let shot = pictures.join("steerlab-compare-001.png");
    wait_for_png(&shot);
    let (width, height, colours) = png_facts(&shot);
    assert_eq!((width, height), (1280, 800), "the window's size");
    assert!(colours > 50, "not blank: {colours} colours");
    let state =
        app.wait_for(|s| s["message"].as_str().is_some_and(|m| m.contains("saved a picture")), "the message");
    assert!(state["message"].as_str().unwrap().contains("steerlab-compare-001.png"), "{}", state["message"]);
    // The toolbar button takes the next one.
    app.click(app.rect("screenshot"));
    wait_for_png(&pictures.join("steerlab-compare-002.png"));

    // A recording of about a second: frames at 10 per second of window time, the REC mark on
    // screen (but not in the frames), and a message with the count when it stops.
    app.key("ctrl+shift+p");
    let recording = app.wait_for(|s| s["recording"] == true, "the recording to start");
    assert!(
        recording["message"].as_str().is_some_and(|m| m.contains("recording to")),
        "{}",
        recording["message"]
    );
    let screen = app.screenshot("recording.png");
    let mark = super::e2e_window::region_pixels(&screen, (1280 - 220, 34, 210, 30));
    let red = mark.chunks(3).any(|p| (200..=235).contains(&p[0]) && p[1] < 45 && p[2] < 45);
    assert!(red, "the ● REC mark shows while recording");
    let during =
        app.wait_for(|s| s["recorded_seconds"].as_f64().is_some_and(|t| t >= 1.0), "a second recorded");
    app.key("ctrl+shift+p");
    let stopped = app.wait_for(|s| s["recording"] == false, "the recording to stop");
    let message = stopped["message"].as_str().unwrap_or_default().to_string();
    let count: usize = message
        .strip_prefix("recorded ")
        .and_then(|m| m.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{message}"));
    let seconds = during["recorded_seconds"].as_f64().unwrap();
    assert!(count >= 2, "{message}");
    let folder = pictures.join("steerlab-compare-rec-001");
    let last = folder.join(format!("frame-{:04}.png", count - 1));
    wait_for_png(&last);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (0..count).map(|i| format!("frame-{i:04}.png")).collect();
    assert_eq!(names, expected, "a numbered sequence, nothing half-written");
    assert!(count as f64 <= 10.0 * (seconds + 2.0), "{count} frames for about {seconds} s");
    for name in [&expected[0], &expected[count - 1]] {
        let (width, height, colours) = png_facts(&folder.join(name));
        assert_eq!((width, height), (1280, 800));
        assert!(colours > 50, "{name}: {colours} colours");
    }
    // The frames were read before the REC mark was drawn.
    let frame =
        super::e2e_window::region_pixels(&folder.join(&expected[count - 1]), (1280 - 220, 34, 210, 30));
    assert!(
        !frame.chunks(3).any(|p| (200..=235).contains(&p[0]) && p[1] < 45 && p[2] < 45),
        "no REC mark in the frames"
    );
}

/// Keys a person presses, hotkeys and chords among them (Ctrl+Q and Ctrl+W left out: a quit is
/// tried by the menu clicks, and the test restarts the app when it quits cleanly).
const MONKEY_KEYS: [&str; 30] = [
    "Delete",
    "BackSpace",
    "Escape",
    "Return",
    "Tab",
    "space",
    "ctrl+z",
    "ctrl+y",
    "ctrl+c",
    "ctrl+v",
    "ctrl+d",
    "ctrl+a",
    "ctrl+s",
    "ctrl+shift+s",
    "ctrl+o",
    "ctrl+n",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "f",
    "m",
    "period",
    "comma",
    "F1",
    "bracketright",
    "Home",
];

/// What a person types into whatever has the keyboard.
const MONKEY_TEXT: [&str; 5] = ["12.5", "1e30", "abc", "-3", "monkey"];

#[test]
fn random_clicks_drags_and_keys_in_the_window_never_crash_it_nor_touch_the_examples() {
    if !tools_available("monkey") {
        return;
    }
    let _serial = serial();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let fingerprint = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| {
                (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap_or_default())
            })
            .collect();
        files.sort();
        files
    };
    let examples_before = fingerprint(&examples);
    // `STEERLAB_MONKEY_SEED=N STEERLAB_MONKEY_SCENE=flock.json` hunts with other events elsewhere,
    // and `STEERLAB_MONKEY_UI_SCALE=2` at another UI scale.
    // A shipped scene's name; a path to one (`scenes/flock.json`) names it too.
    let scene = std::env::var("STEERLAB_MONKEY_SCENE").unwrap_or_else(|_| "compare.json".into());
    let scene = std::path::Path::new(&scene)
        .file_name()
        .map_or_else(|| scene.clone(), |name| name.to_string_lossy().into_owned());
    assert!(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(&scene).is_file(),
        "STEERLAB_MONKEY_SCENE={scene}: not a scene in scenes/"
    );
    let config = super::e2e_window::temp_dir("monkey-config");
    if let Ok(scale) = std::env::var("STEERLAB_MONKEY_UI_SCALE") {
        std::fs::write(config.join("preferences.json"), format!(r#"{{"ui_scale": {scale}}}"#)).unwrap();
    }
    let config_dir = config.to_str().unwrap().to_string();
    let launch = |file: &std::path::Path| {
        Steerlab::launch_with("monkey", &[file.to_str().unwrap()], &[("STEERLAB_CONFIG_DIR", &config_dir)])
    };
    let scene_dir = super::e2e_window::temp_dir("monkey-scene");
    let file = super::e2e_window::copy_scene(&scene_dir, &scene);
    let mut app = launch(&file);
    let mut rng =
        std::env::var("STEERLAB_MONKEY_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x4D4F_4E4B_u64);
    let mut next = |n: u64| {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (rng >> 33) % n
    };
    let (width, height) = super::e2e_window::SCREEN;
    let mut restarts = 0;
    let mut log: Vec<String> = Vec::new();
    for event in 0..300 {
        let (x, y) = (next(u64::from(width)).to_string(), next(u64::from(height)).to_string());
        let action = match next(10) {
            0..=3 => {
                app.xdotool(&["mousemove", &x, &y, "click", "1"]);
                format!("click {x},{y}")
            }
            4 => {
                let (x2, y2) = (next(u64::from(width)).to_string(), next(u64::from(height)).to_string());
                let button = ["1", "1", "3"][next(3) as usize];
                app.xdotool(&[
                    "mousemove",
                    &x,
                    &y,
                    "mousedown",
                    button,
                    "mousemove",
                    &x2,
                    &y2,
                    "mouseup",
                    button,
                ]);
                format!("drag {x},{y} → {x2},{y2} with {button}")
            }
            5 => {
                let wheel = ["4", "5"][next(2) as usize];
                app.xdotool(&["mousemove", &x, &y, "click", wheel]);
                format!("wheel {wheel} at {x},{y}")
            }
            6 => {
                let text = MONKEY_TEXT[next(MONKEY_TEXT.len() as u64) as usize];
                app.xdotool(&["type", "--delay", "20", text]);
                format!("type {text}")
            }
            _ => {
                let key = MONKEY_KEYS[next(MONKEY_KEYS.len() as u64) as usize];
                app.xdotool(&["key", "--clearmodifiers", key]);
                format!("key {key}")
            }
        };
        log.push(action);
        if event % 10 == 9 {
            app.settle();
        }
        if let Some((status, stderr)) = app.ended() {
            let recent: Vec<&String> = log.iter().rev().take(15).collect();
            assert!(status.success(), "the window ended ({status}) after {recent:#?}:\n{stderr}");
            // A clean quit through the menu: start again on the same file.
            restarts += 1;
            assert!(restarts < 20, "the window quit {restarts} times");
            app = launch(&file);
        }
        let state = app.state();
        if let Some(positions) = state["positions"].as_array() {
            let finite = positions
                .iter()
                .flat_map(|p| p.as_array().into_iter().flatten())
                .all(|c| c.is_f64() || c.is_i64() || c.is_u64());
            assert!(finite, "a published position is not a number after {:?}: {positions:?}", log.last());
        }
    }
    app.settle();
    assert!(app.ended().is_none(), "the window is still open after the last event");
    // The copy the window opened is either as it was or a scene that loads.
    if let Err(err) = steerlab::scene::load_scene(&file) {
        panic!("the scene the window saved does not load: {err}");
    }
    assert!(fingerprint(&examples) == examples_before, "a shipped example was changed");
}
