//! Real-window tests: start the built `steerlab` binary under Xvfb and drive it with xdotool as a
//! person would — keys, clicks on the world and on panels — then check what it saved and what it
//! shows. The binary publishes its widget rectangles and a little state to a file
//! (`STEERLAB_WIDGET_RECTS`) so the tests can find buttons by name, as a person finds them by eye.
//!
//! When Xvfb, xdotool or ImageMagick's `import` is missing these tests say they were skipped;
//! with `STEERLAB_E2E=1` (set by `.ci/run`) a missing tool is a failure. They wait by polling what
//! the app does (a file appearing, a step counter), never by timing the simulation.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use crate::scratch::Scratch;

const BIN: &str = env!("CARGO_BIN_EXE_steerlab");
pub(crate) const SCREEN: (u32, u32) = (1280, 800);
static NEXT_DISPLAY: AtomicU32 = AtomicU32::new(0);
/// One window at a time: several software-rendered windows on two cores starve each other.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(crate) fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(crate) fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// True when the tools are there; otherwise skip (or fail under STEERLAB_E2E=1).
pub(crate) fn tools_available(test: &str) -> bool {
    let missing: Vec<&str> = ["Xvfb", "xdotool", "import"].into_iter().filter(|t| !have(t)).collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var("STEERLAB_E2E").is_ok_and(|v| v == "1") {
        panic!("{test}: STEERLAB_E2E=1 but {missing:?} not installed");
    }
    eprintln!("{test}: skipped (missing {missing:?}; install xvfb xdotool imagemagick to run it)");
    false
}

/// A private X server; killed on drop.
struct VirtualDisplay {
    server: Child,
    name: String,
}

impl VirtualDisplay {
    fn start() -> VirtualDisplay {
        let base = 140 + (std::process::id() % 200) * 4;
        for _ in 0..50 {
            let number = base + NEXT_DISPLAY.fetch_add(1, Ordering::SeqCst);
            if Path::new(&format!("/tmp/.X11-unix/X{number}")).exists() {
                continue;
            }
            let name = format!(":{number}");
            // -noreset: without it the server resets whenever its last client leaves (the
            // readiness probe below, or the previous `shot`), and refuses connections meanwhile,
            // so the next app start failed with "XOpenDisplay() failed".
            let mut server = Command::new("Xvfb")
                .args([
                    &name,
                    "-screen",
                    "0",
                    &format!("{}x{}x24", SCREEN.0, SCREEN.1),
                    "-nolisten",
                    "tcp",
                    "-noreset",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start Xvfb");
            let socket = format!("/tmp/.X11-unix/X{number}");
            let deadline = Instant::now() + Duration::from_secs(10);
            while !Path::new(&socket).exists() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            // The socket appears before the server answers; an app started in between cannot
            // open the display and exits. Wait until a client gets an answer.
            while Path::new(&socket).exists() && Instant::now() < deadline {
                let answered = Command::new("xdotool")
                    .arg("getdisplaygeometry")
                    .env("DISPLAY", &name)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success());
                if answered {
                    return VirtualDisplay { server, name };
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = server.kill();
            let _ = server.wait();
        }
        panic!("could not start Xvfb");
    }
}

impl Drop for VirtualDisplay {
    fn drop(&mut self) {
        // SIGTERM first, so the server removes its socket and lock file (SIGKILL leaves them in
        // /tmp, and runs pile them up); SIGKILL if it does not go.
        let terminated =
            Command::new("kill").arg(self.server.id().to_string()).status().is_ok_and(|s| s.success());
        if terminated {
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if matches!(self.server.try_wait(), Ok(Some(_))) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// The app in a window on a virtual display; killed on drop.
pub(crate) struct Steerlab {
    child: Child,
    display: VirtualDisplay,
    pub(crate) window: String,
    rects_file: PathBuf,
    pub(crate) dir: Scratch,
    /// Directories the test made for the app (its scene's), removed with it.
    kept: Vec<Scratch>,
    /// What the app wrote to stderr so far, read on a thread of its own as it comes: a pipe
    /// nobody drains fills at 64 KiB and blocks the app mid-frame.
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

/// Reads `pipe` to its end on a thread, into the returned buffer.
fn drain(pipe: Option<std::process::ChildStderr>) -> std::sync::Arc<std::sync::Mutex<String>> {
    let buffer = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    if let Some(mut pipe) = pipe {
        let sink = std::sync::Arc::clone(&buffer);
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut pipe, &mut chunk) {
                if n == 0 {
                    break;
                }
                let text = String::from_utf8_lossy(&chunk[..n]);
                sink.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push_str(&text);
            }
        });
    }
    buffer
}

/// A fresh directory for a window test (`steerlab-e2e-TEST-PID`), removed when it passes.
pub(crate) fn temp_dir(test: &str) -> Scratch {
    Scratch::new(&format!("e2e-{test}"))
}

impl Steerlab {
    pub(crate) fn launch(test: &str, args: &[&str]) -> Steerlab {
        Steerlab::launch_with(test, args, &[])
    }

    /// The app, keeping `dir` (where the test wrote its scene) as long as the app runs.
    pub(crate) fn keeping(mut self, dir: Scratch) -> Steerlab {
        self.kept.push(dir);
        self
    }

    /// Launches with extra environment variables (they override the test's defaults, e.g. a
    /// shared `STEERLAB_CONFIG_DIR` for a second start), and waits until the scene given on the
    /// command line has loaded (the window loads it off its frame loop).
    pub(crate) fn launch_with(test: &str, args: &[&str], envs: &[(&str, &str)]) -> Steerlab {
        let app = Steerlab::start(test, args, envs);
        app.wait_for(|s| s.get("rects").is_some() && s["loading"].is_null(), "the scene to load");
        app
    }

    /// Launches and waits for the first frame only (a scene given on the command line may still
    /// be loading).
    pub(crate) fn start(test: &str, args: &[&str], envs: &[(&str, &str)]) -> Steerlab {
        let display = VirtualDisplay::start();
        let dir = temp_dir(test);
        let rects_file = dir.join("rects.json");
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .env("DISPLAY", &display.name)
            .env("STEERLAB_CONFIG_DIR", dir.join("config"))
            .env("STEERLAB_WIDGET_RECTS", &rects_file)
            .envs(envs.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start steerlab");
        let stderr = drain(child.stderr.take());
        let mut app =
            Steerlab { child, display, window: String::new(), rects_file, dir, kept: Vec::new(), stderr };
        app.window = app.find_window();
        app.wait_for(|s| s.get("rects").is_some(), "the first frame");
        app
    }

    pub(crate) fn xdotool(&self, args: &[&str]) -> String {
        let out =
            Command::new("xdotool").args(args).env("DISPLAY", &self.display.name).output().expect("xdotool");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// What the window put on the X clipboard (read with xclip, as a paste into another program
    /// would read it); `None` when nothing answers.
    pub(crate) fn clipboard(&self) -> Option<String> {
        let out = Command::new("timeout")
            .args(["5", "xclip", "-selection", "clipboard", "-o"])
            .env("DISPLAY", &self.display.name)
            .output()
            .expect("xclip");
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    pub(crate) fn find_window(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("steerlab exited ({status}) before its window appeared: {}", self.stderr_so_far());
            }
            let found = self.xdotool(&["search", "--name", "steerlab"]);
            if let Some(id) = found.lines().next().filter(|l| !l.is_empty()) {
                return id.to_string();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("no steerlab window appeared");
    }

    /// The state the app publishes (widget rectangles, steps, message, title).
    pub(crate) fn state(&self) -> serde_json::Value {
        std::fs::read_to_string(&self.rects_file)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(serde_json::Value::Null)
    }

    pub(crate) fn wait_for(
        &self,
        done: impl FnMut(&serde_json::Value) -> bool,
        what: &str,
    ) -> serde_json::Value {
        self.wait_for_within(done, what, Duration::from_secs(20))
    }

    /// [`Steerlab::wait_for`] with a longer patience, for a big crowd's steps: a loaded CI machine
    /// stepped 12,000 collision avoiders 36 times in 20 s, where an idle one takes well under one.
    pub(crate) fn wait_for_within(
        &self,
        mut done: impl FnMut(&serde_json::Value) -> bool,
        what: &str,
        patience: Duration,
    ) -> serde_json::Value {
        let deadline = Instant::now() + patience;
        loop {
            let state = self.state();
            if done(&state) {
                return state;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}; last state: {state}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the app has drawn fifteen more frames (three of its publications, which come
    /// every five frames), so that whatever was sent before the call has been handled: X events
    /// queued before a frame are read in that frame. It goes by the published frame counter, not
    /// by a clock: a loaded CI machine may draw a frame a second, and a key sent before the last
    /// one was handled shares its frame (Ctrl+C, End, Ctrl+V in one frame paste the old
    /// clipboard, because egui-miniquad reads the clipboard before that frame's Copy is done).
    /// Gives up only when no frame came for ten seconds (the app quit, or a step is that long),
    /// or after two minutes.
    pub(crate) fn settle(&self) {
        let frame = || self.state()["frame"].as_u64();
        let target = frame().unwrap_or(0) + 15;
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut last = (frame(), Instant::now());
        while Instant::now() < deadline && last.1.elapsed() < Duration::from_secs(10) {
            let now = frame();
            if now.is_some_and(|f| f >= target) {
                return;
            }
            if now != last.0 {
                last = (now, Instant::now());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The centre of a named widget, once it has stayed put for a few frames (a window that
    /// has just appeared is still sizing itself and moves).
    pub(crate) fn rect(&self, name: &str) -> (f32, f32) {
        let mut last = serde_json::Value::Null;
        for _ in 0..10 {
            let state = self.wait_for(|s| s["rects"].get(name).is_some(), name);
            let r = state["rects"][name].clone();
            if r == last {
                break;
            }
            last = r;
            self.settle();
        }
        let f = |i: usize| last[i].as_f64().unwrap() as f32;
        ((f(0) + f(2)) / 2.0, (f(1) + f(3)) / 2.0)
    }

    /// Screen position of a world point (top view), from the camera the app publishes.
    pub(crate) fn world_to_screen(&self, x: f32, y: f32) -> (f32, f32) {
        let state = self.state();
        let camera = &state["camera"];
        let g = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
        let zoom = g(&camera["zoom"]);
        let (cx, cy) = (g(&camera["center"][0]), g(&camera["center"][1]));
        let (vx, vy) = (g(&camera["viewport_center"][0]), g(&camera["viewport_center"][1]));
        ((x - cx) * zoom + vx, vy - (y - cy) * zoom)
    }

    pub(crate) fn click(&self, (x, y): (f32, f32)) {
        let (x, y) = (format!("{}", x.round() as i32), format!("{}", y.round() as i32));
        self.xdotool(&["mousemove", "--sync", &x, &y]);
        // One frame for hover (egui tooltips and hover state), then the click.
        self.settle();
        self.xdotool(&["click", "1"]);
        self.settle();
    }

    pub(crate) fn key(&self, keys: &str) {
        self.xdotool(&["windowfocus", "--sync", &self.window]);
        self.xdotool(&["key", "--clearmodifiers", keys]);
        self.settle();
    }

    pub(crate) fn screenshot(&self, name: &str) -> PathBuf {
        let path = self.dir.join(name);
        let status = Command::new("import")
            .args(["-window", "root", path.to_str().unwrap()])
            .env("DISPLAY", &self.display.name)
            .status()
            .expect("import");
        assert!(status.success(), "screenshot failed");
        path
    }

    pub(crate) fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Types text as keystrokes into whatever has the keyboard.
    pub(crate) fn type_text(&self, text: &str) {
        self.xdotool(&["windowfocus", "--sync", &self.window]);
        self.xdotool(&["type", "--delay", "40", text]);
        self.settle();
    }

    /// What the app has written to stderr so far (all of it once it has ended and the pipe is
    /// read out).
    pub(crate) fn stderr_so_far(&self) -> String {
        self.stderr.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    /// How the app ended, once it has (None while it runs), with what it wrote to stderr.
    pub(crate) fn ended(&mut self) -> Option<(std::process::ExitStatus, String)> {
        let status = self.child.try_wait().ok().flatten()?;
        // The drain thread reads the pipe's last bytes after the exit: give it a moment.
        std::thread::sleep(Duration::from_millis(100));
        Some((status, self.stderr_so_far()))
    }

    /// Waits until the app has exited by itself.
    pub(crate) fn wait_exit(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.is_running() {
            assert!(Instant::now() < deadline, "the app did not quit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Steerlab {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_harness_drains_a_childs_stderr_while_it_runs() {
    // 200 KB on stderr, three times what a pipe holds: undrained, the child would block for ever.
    let mut child = Command::new("sh")
        .args(["-c", "head -c 200000 /dev/zero | tr '\\0' x >&2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh");
    let buffer = drain(child.stderr.take());
    let deadline = Instant::now() + Duration::from_secs(20);
    while matches!(child.try_wait(), Ok(None)) {
        assert!(Instant::now() < deadline, "the child blocked on a full pipe");
        std::thread::sleep(Duration::from_millis(20));
    }
    while buffer.lock().unwrap().len() < 200_000 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = buffer.lock().unwrap().clone();
    assert_eq!(text.len(), 200_000);
    assert!(text.bytes().all(|b| b == b'x'));
}

/// RGB pixels of a region of a PNG (read with ImageMagick, so no image crate is needed).
pub(crate) fn region_pixels(png: &Path, (x, y, w, h): (u32, u32, u32, u32)) -> Vec<u8> {
    let out = Command::new("convert")
        .args([png.to_str().unwrap(), "-crop", &format!("{w}x{h}+{x}+{y}"), "-depth", "8", "rgb:-"])
        .output()
        .expect("convert");
    assert!(out.status.success());
    out.stdout
}

/// Runs `steerlab shot SCENE --out OUT ARGS…` on the X display `display`, with `envs` and its
/// preferences in `config` (never the user's), and asserts that it succeeded.
pub(crate) fn run_shot(
    display: &str,
    config: &Path,
    scene: &Path,
    out: &Path,
    args: &[&str],
    envs: &[(&str, &str)],
) {
    let status = Command::new(BIN)
        .args(["shot", scene.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .args(args)
        .envs(envs.iter().copied())
        .env("DISPLAY", display)
        .env("STEERLAB_CONFIG_DIR", config)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "shot {} {args:?} failed", scene.display());
}

/// The commonest colour among `pixels` (RGB, three bytes each): a picture's background.
fn commonest_colour(pixels: &[u8]) -> Option<[u8; 3]> {
    let mut counts = std::collections::HashMap::new();
    for p in pixels.chunks_exact(3) {
        *counts.entry([p[0], p[1], p[2]]).or_insert(0usize) += 1;
    }
    counts.into_iter().max_by_key(|&(_, n)| n).map(|(colour, _)| colour)
}

pub(crate) fn copy_scene(app_dir: &Path, name: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name);
    let target = app_dir.join(name);
    std::fs::copy(source, &target).unwrap();
    target
}

pub(crate) fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Launches on a copy of a bundled scene in a fresh directory.
pub(crate) fn launch_on(test: &str, scene: &str) -> (Steerlab, PathBuf) {
    let dir = temp_dir(&format!("{test}-scene"));
    let file = copy_scene(&dir, scene);
    let app = Steerlab::launch(test, &[file.to_str().unwrap()]).keeping(dir);
    (app, file)
}

pub(crate) fn wait_for_file(
    path: &Path,
    mut done: impl FnMut(&serde_json::Value) -> bool,
    what: &str,
) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(value) = std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str(&t).ok()) {
            if done(&value) {
                return value;
            }
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what} in {}", path.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn path_tool_three_clicks_then_ctrl_s_saves_them_and_ctrl_z_removes_the_last() {
    if !tools_available("path_tool") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("path_tool", "hairpin.json");
    app.key("space"); // pause, so nothing moves while we draw
    app.key("2"); // the path tool
    let points = [(-200.0, 150.0), (0.0, 200.0), (200.0, 150.0)];
    for (x, y) in points {
        app.click(app.world_to_screen(x, y));
    }
    app.key("ctrl+s");
    let saved =
        wait_for_file(&file, |v| v["paths"].as_array().is_some_and(|p| p.len() == 2), "a second path");
    let new_path = saved["paths"][1]["points"].as_array().unwrap().clone();
    assert_eq!(new_path.len(), 3, "{new_path:?}");
    for (point, (x, y)) in new_path.iter().zip(points) {
        let (px, py) = (point[0].as_f64().unwrap() as f32, point[1].as_f64().unwrap() as f32);
        assert!((px - x).abs() < 3.0 && (py - y).abs() < 3.0, "clicked ({x}, {y}), saved ({px}, {py})");
    }
    app.key("ctrl+z");
    app.key("ctrl+s");
    let saved = wait_for_file(
        &file,
        |v| v["paths"][1]["points"].as_array().is_some_and(|p| p.len() == 2),
        "the path with its last point undone",
    );
    assert_eq!(saved["paths"].as_array().unwrap().len(), 2);
}

#[test]
fn a_click_on_a_panel_adds_nothing_to_the_world() {
    if !tools_available("panel_click") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("panel_click", "hairpin.json");
    app.key("space");
    app.key("3"); // the obstacle tool
                  // The agent list and inspector: a panel, not the world.
    let (ax, ay) = app.rect("agent:0");
    app.click((ax + 40.0, ay + 200.0));
    app.click(app.rect("play"));
    app.click(app.rect("play"));
    // One real click in the world, so the save below has something to show.
    app.click(app.world_to_screen(0.0, 200.0));
    app.key("ctrl+s");
    let saved =
        wait_for_file(&file, |v| v["obstacles"].as_array().is_some_and(|o| !o.is_empty()), "an obstacle");
    assert_eq!(
        saved["obstacles"].as_array().unwrap().len(),
        1,
        "only the click on the world adds an obstacle"
    );
}

/// Real wheel notches over the metrics table scroll it by lines, not by half a point (an audit:
/// five notches moved the table 2 px; egui-macroquad hands egui 1/90 of a line a notch).
#[test]
fn wheel_notches_over_the_metrics_table_scroll_it_by_lines() {
    if !tools_available("wheel_scroll") {
        return;
    }
    let _serial = serial();
    let agents: Vec<String> = (0..30)
        .map(|i| {
            format!(
                r#"{{"name": "a{i}", "position": [{x}, -200], "behaviours": [{{"type": "seek", "target": "t"}}]}}"#,
                x = i * 10 - 150
            )
        })
        .collect();
    let scene = format!(
        r#"{{"version": 2, "targets": [{{"id": "t", "position": [0, 100]}}], "agents": [{}]}}"#,
        agents.join(", ")
    );
    let dir = temp_dir("wheel_scroll-scene");
    let file = dir.join("crowd.json");
    std::fs::write(&file, scene).unwrap();
    let app = Steerlab::launch("wheel_scroll", &[file.to_str().unwrap()]).keeping(dir);
    app.key("space");
    let top = |state: &serde_json::Value| state["rects"]["metrics_row:0"][1].as_f64();
    let (px, py) = app.rect("metrics_panel");
    let before = top(&app.state()).expect("the first metrics row");
    app.xdotool(&["mousemove", "--sync", &format!("{}", px as i32), &format!("{}", py as i32)]);
    app.settle();
    for _ in 0..3 {
        app.xdotool(&["click", "5"]);
    }
    let state =
        app.wait_for(|s| top(s).is_some_and(|y| before - y >= 60.0), "three notches to scroll the table");
    let moved = before - top(&state).unwrap();
    assert!(moved <= 200.0, "three notches scrolled {moved} px");
}

#[test]
fn space_pauses_and_the_world_stops_moving() {
    if !tools_available("space_pauses") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("space_pauses", "compare.json");
    // Running: the step counter advances and the picture changes.
    let first = app.wait_for(|s| s["steps"].as_u64().is_some_and(|n| n > 30), "steps while running");
    let world = (360, 60, 880, 560);
    let a = region_pixels(&app.screenshot("a.png"), world);
    app.wait_for(|s| s["steps"].as_u64() > first["steps"].as_u64().map(|n| n + 30), "more steps");
    let b = region_pixels(&app.screenshot("b.png"), world);
    assert_ne!(a, b, "agents move while running");
    app.key("space");
    let paused = app.wait_for(|s| s["running"] == false, "pause");
    app.settle();
    let c = region_pixels(&app.screenshot("c.png"), world);
    app.settle();
    app.settle();
    let d = region_pixels(&app.screenshot("d.png"), world);
    assert_eq!(c, d, "nothing moves while paused");
    assert_eq!(app.state()["steps"], paused["steps"], "no steps while paused");
    // → steps exactly one.
    app.key("Right");
    app.wait_for(|s| s["steps"].as_u64() == paused["steps"].as_u64().map(|n| n + 1), "one step");
}

#[test]
fn opening_a_malformed_scene_shows_the_error_and_keeps_the_scene() {
    if !tools_available("malformed") {
        return;
    }
    let _serial = serial();
    let (mut app, file) = launch_on("malformed", "hairpin.json");
    let broken = file.with_file_name("broken.json");
    std::fs::write(&broken, "{\n  \"version\": 1,\n  \"agents\": [{ \"name\": \"x\", \"radius\": -3 }]\n}\n")
        .unwrap();
    let before = app.state();
    app.key("ctrl+o");
    let entry = app.rect("file_dialog:entry:broken.json");
    app.click(entry);
    app.click(app.rect("file_dialog:ok"));
    let state =
        app.wait_for(|s| s["message"].as_str().is_some_and(|m| m.contains("broken.json")), "an error");
    let message = state["message"].as_str().unwrap();
    assert!(message.contains("agents[0]"), "names the JSON path: {message}");
    assert!(message.contains("line 3"), "names the line: {message}");
    assert!(app.is_running(), "the app keeps running");
    assert_eq!(state["agents"], before["agents"], "the open scene is untouched");
    assert_eq!(state["title"], before["title"]);
    // The error's copy button puts all of it on the clipboard, where another program pastes it.
    if have("xclip") || std::env::var("STEERLAB_E2E").is_ok_and(|v| v == "1") {
        app.click(app.rect("copy_message"));
        let copied = (0..40)
            .find_map(|_| {
                std::thread::sleep(Duration::from_millis(50));
                app.clipboard().filter(|text| !text.is_empty())
            })
            .unwrap_or_default();
        assert_eq!(copied, message, "the copy button copies the whole error");
    }
    // And the scene can still be saved as it was.
    app.key("ctrl+s");
    let saved = read_json(&file);
    assert_eq!(saved["agents"].as_array().unwrap().len(), before["agents"].as_u64().unwrap() as usize);
}

#[test]
fn shot_renders_every_scene_and_the_pictures_are_not_blank() {
    if !tools_available("shot") {
        return;
    }
    let _serial = serial();
    let display = VirtualDisplay::start();
    let dir = temp_dir("shot");
    let scenes = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&scenes).unwrap().flatten().map(|e| e.path()).collect();
    names.sort();
    for scene in names.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let out = dir.join(format!("{}.png", scene.file_stem().unwrap().to_string_lossy()));
        run_shot(
            &display.name,
            &dir.join("config"),
            scene,
            &out,
            &["--seconds", "3", "--size", "960x600"],
            &[],
        );
        // Not blank: the world area has many distinct colours, not one flat background.
        let pixels = region_pixels(&out, (400, 80, 400, 400));
        let distinct: std::collections::HashSet<&[u8]> = pixels.chunks(3).collect();
        assert!(distinct.len() > 20, "{} looks blank ({} colours)", out.display(), distinct.len());
    }
}

/// `shot --ui-scale 2` draws the panels at twice the size: the scene panel's right edge (where
/// the world's background starts on rows through the world view) lies twice as far from the left
/// as at scale 1. A picture never reads the saved preference, so the scale is the flag's.
#[test]
fn shot_draws_the_panels_at_the_ui_scale_it_is_given() {
    if !tools_available("shot_ui_scale") {
        return;
    }
    let _serial = serial();
    let display = VirtualDisplay::start();
    let dir = temp_dir("shot_ui_scale");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("compare.json");
    let panel_edge = |scale: &str| {
        let out = dir.join(format!("scale-{scale}.png"));
        let args = ["--seconds", "0", "--size", "1280x800", "--ui-scale", scale];
        run_shot(&display.name, &dir.join("config"), &scene, &out, &args, &[]);
        // Rows through the world view at both scales; a label may lie across one of them, so
        // the edge is the leftmost found.
        (150..440)
            .step_by(10)
            .filter_map(|y| {
                let pixels = region_pixels(&out, (0, y, 1280, 1));
                let row: Vec<[u8; 3]> = pixels.chunks(3).map(|p| [p[0], p[1], p[2]]).collect();
                // The world's background: the commonest colour at the row's right end.
                let background = commonest_colour(&pixels[1100 * 3..1270 * 3])?;
                (0..1260).find(|&x| row[x..x + 12].iter().all(|p| *p == background))
            })
            .min()
            .expect("the world on some row")
    };
    let one = panel_edge("1") as f32;
    let two = panel_edge("2") as f32;
    assert!(
        (1.8..=2.2).contains(&(two / one)),
        "the scene panel ends at {one} px at scale 1 and {two} px at 2"
    );
}

/// The 3D view's one-pixel lines (the ground grid here) grow with the UI scale as the rest of the
/// world does: a picture twice as large at scale 2 has about four times the line pixels of the
/// same stretch of ground at scale 1 (lines twice as long and twice as wide), where lines that
/// stayed one pixel gave two times.
#[test]
fn the_3d_views_thin_lines_grow_with_the_ui_scale() {
    if !tools_available("shot_3d_lines") {
        return;
    }
    let _serial = serial();
    let display = VirtualDisplay::start();
    let dir = temp_dir("shot_3d_lines");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("planner-field.json");
    let line_pixels = |k: u32| {
        let out = dir.join(format!("scale-{k}.png"));
        let (size, scale) = (format!("{}x{}", 1280 * k, 800 * k), k.to_string());
        let args = ["--view", "3d", "--size", size.as_str(), "--ui-scale", scale.as_str()];
        run_shot(&display.name, &dir.join("config"), &scene, &out, &args, &[]);
        // Bare ground in front of the field at scale 1 (the same ground, twice as large, at 2).
        let pixels = region_pixels(&out, (400 * k, 560 * k, 500 * k, 80 * k));
        let ground = commonest_colour(&pixels).expect("pixels");
        let off = |p: &[u8]| p.iter().zip(ground).any(|(a, b)| a.abs_diff(b) > 8);
        pixels.chunks(3).filter(|p| off(p)).count() as f32
    };
    let one = line_pixels(1);
    let two = line_pixels(2);
    assert!(one > 100.0, "grid lines on the ground at scale 1: {one} pixels");
    assert!(
        (3.0..=8.0).contains(&(two / one)),
        "{two} line pixels at scale 2 against {one} at scale 1 ({}x)",
        two / one
    );
}

#[test]
fn tab_switches_to_the_3d_view_and_the_picture_changes() {
    if !tools_available("tab_3d") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("tab_3d", "planner-field.json");
    app.key("space"); // pause, so only the view changes the picture
    app.wait_for(|s| s["running"] == false && s["view"] == "top", "paused in the top view");
    app.settle();
    let world = (400, 80, 800, 500);
    let top = region_pixels(&app.screenshot("top.png"), world);
    app.key("Tab");
    app.wait_for(|s| s["view"] == "3d", "the 3D view");
    app.settle();
    let orbit = region_pixels(&app.screenshot("orbit.png"), world);
    let differing = top.chunks(3).zip(orbit.chunks(3)).filter(|(a, b)| a != b).count();
    assert!(differing > top.len() / 3 / 10, "only {differing} pixels changed");
    // Shaded spheres: many shades of grey in the 3D picture.
    let greys: std::collections::HashSet<&[u8]> =
        orbit.chunks(3).filter(|p| p[0] == p[1] && p[1] == p[2] && p[0] < 200).collect();
    assert!(greys.len() > 30, "spheres look flat: {} greys", greys.len());
    app.key("Tab");
    app.wait_for(|s| s["view"] == "top", "back to the top view");
}

#[test]
fn step_through_next_button_advances_the_iteration() {
    if !tools_available("step_through") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("step_through", "planner-two-waypoints.json");
    app.key("space"); // pause
    app.wait_for(|s| s["running"] == false, "pause");
    app.key("r"); // back to the start, where the plan is the seed's walk-through
    app.wait_for(|s| s["steps"] == 0, "reset");
    app.click(app.rect("agent:0"));
    app.click(app.rect("planner_step_through"));
    let state = app.wait_for(|s| s["planner_debug"]["count"].as_u64() == Some(8), "the step-through");
    assert_eq!(state["running"], false, "stepping pauses the simulation");
    assert_eq!(state["planner_debug"]["iteration"], 0);
    let world = (360, 60, 560, 600);
    let first = region_pixels(&app.screenshot("first.png"), world);
    app.click(app.rect("step:next"));
    app.wait_for(|s| s["planner_debug"]["iteration"] == 1, "iteration 2");
    app.click(app.rect("step:next"));
    app.wait_for(|s| s["planner_debug"]["iteration"] == 2, "iteration 3");
    app.settle();
    let third = region_pixels(&app.screenshot("third.png"), world);
    assert_ne!(first, third, "the world view draws the iteration shown");
    app.click(app.rect("step:last"));
    app.wait_for(|s| s["planner_debug"]["iteration"] == 7, "the last iteration");
    // The keys do what the buttons do.
    for (key, iteration) in [("Home", 0), ("Right", 1), ("period", 2), ("Left", 1), ("comma", 0), ("End", 7)]
    {
        app.key(key);
        app.wait_for(|s| s["planner_debug"]["iteration"] == iteration, key);
    }
    assert_eq!(app.state()["steps"], 0, "the arrow keys move the step-through, not the simulation");
    app.click(app.rect("step:close"));
    app.wait_for(|s| s["planner_debug"].is_null(), "the step-through closed");
    app.click(app.rect("planner_step_through"));
    app.wait_for(|s| s["planner_debug"]["count"].as_u64() == Some(8), "the step-through again");
    app.key("Escape");
    app.wait_for(|s| s["planner_debug"].is_null(), "Esc closed the step-through");
}

#[test]
fn the_window_survives_the_nastiest_fuzz_cases_and_keeps_the_scene() {
    if !tools_available("survives") {
        return;
    }
    let _serial = serial();
    let (mut app, file) = launch_on("survives", "hairpin.json");
    let dir = file.parent().unwrap().to_path_buf();
    let curve = |x: &str| {
        format!(
            "{{\"version\":1,\"curves\":[{{\"id\":\"c\",\"kind\":\"expr\",\"x\":{},\"y\":\"t\"}}],\
             \"agents\":[{{\"position\":[0,0],\"behaviour\":{{\"type\":\"parametric\",\"curve\":\"c\"}}}}]}}",
            serde_json::to_string(x).unwrap()
        )
    };
    let deep = format!("{}t{}", "(".repeat(40), ")".repeat(40));
    let refused = [
        ("a_divide.json", curve("t/0"), "not finite"),
        ("b_power.json", curve("t^1000"), "beyond the coordinate limit"),
        ("c_deep.json", curve(&deep), "nested too deeply"),
        ("d_dt.json", "{\"version\":1,\"dt\":1e-40}".to_string(), "`dt` must be from"),
        (
            "e_newline.json",
            "{\"version\":1,\"targets\":[[\"t\\nx\",[0,0]]]}".to_string(),
            "expected an object",
        ),
    ];
    for (name, text, _) in &refused {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let before = app.state();
    for (name, _, expected) in &refused {
        app.key("ctrl+o");
        app.click(app.rect(&format!("file_dialog:entry:{name}")));
        app.click(app.rect("file_dialog:ok"));
        let state = app.wait_for(|s| s["message"].as_str().is_some_and(|m| m.contains(name)), "an error");
        let message = state["message"].as_str().unwrap();
        assert!(message.contains(expected), "{name}: {message}");
        assert!(!message.contains('\n'), "{name}: one line: {message:?}");
        assert!(app.is_running(), "{name}: the app keeps running");
        assert_eq!(state["agents"], before["agents"], "{name}: the open scene is untouched");
        assert_eq!(state["title"], before["title"], "{name}");
    }
    // The expression that used to abort the process through the derivative now loads.
    let long_sum = vec!["t"; 127].join("+");
    std::fs::write(dir.join("f_long_sum.json"), curve(&long_sum)).unwrap();
    app.key("ctrl+o");
    app.click(app.rect("file_dialog:entry:f_long_sum.json"));
    app.click(app.rect("file_dialog:ok"));
    let state = app.wait_for(|s| s["agents"].as_u64() == Some(1), "the long-sum scene");
    app.settle();
    assert!(app.is_running(), "the window survives the 127-term sum: {state}");
}

fn state_unchanged_behind_dialog(before: &serde_json::Value, now: &serde_json::Value) {
    for field in ["running", "tool", "view", "steps", "agents"] {
        assert_eq!(now[field], before[field], "{field} changed behind the open dialog");
    }
}

#[test]
fn keys_do_nothing_behind_the_save_as_dialog_and_enter_saves_the_typed_name() {
    if !tools_available("modal_keys") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("modal_keys", "hairpin.json");
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.key("ctrl+shift+s");
    let before = app.wait_for(|s| s["modal"] == true, "the Save As dialog");
    // Space, c, Tab, r, → and typed letters: the world must not react to any of them.
    for key in ["space", "c", "Tab", "r", "Right", "2"] {
        app.key(key);
    }
    state_unchanged_behind_dialog(&before, &app.state());
    assert_eq!(app.state()["modal"], true, "the dialog is still open");
    app.key("Escape");
    app.wait_for(|s| s["modal"] == false, "Esc cancels the dialog");
    // Typing a name without clicking the field first goes into the field; Enter saves.
    app.key("ctrl+shift+s");
    app.wait_for(|s| s["modal"] == true, "the dialog again");
    for _ in 0.."hairpin.json".len() {
        app.key("BackSpace");
    }
    app.type_text("typed");
    state_unchanged_behind_dialog(&before, &app.state());
    app.key("Return");
    let saved = file.with_file_name("typed.json");
    wait_for_file(&saved, |v| v["paths"].is_array(), "the scene saved under the typed name");
    let state = app.wait_for(|s| s["modal"] == false, "Enter closed the dialog");
    state_unchanged_behind_dialog(&before, &state);
    assert!(!file.with_file_name("hairpintyped.json").exists());
}

/// An audit: the example opens as an untitled copy, but its own path typed into Save As
/// overwrote the shipped file, which the README says the window never does.
#[test]
fn save_as_onto_a_shipped_example_is_refused_and_the_example_stays_as_it_was() {
    if !tools_available("save_as_example") {
        return;
    }
    let _serial = serial();
    let examples = temp_dir("save_as_example-examples");
    let example = copy_scene(&examples, "hairpin.json");
    let original = std::fs::read(&example).unwrap();
    let examples_text = examples.to_str().unwrap().to_string();
    let envs = [("STEERLAB_EXAMPLES_DIR", examples_text.as_str())];
    let app = Steerlab::launch_with("save_as_example", &[example.to_str().unwrap()], &envs).keeping(examples);
    let state = app.state();
    assert!(state["title"].as_str().is_some_and(|t| t.contains("(example)")), "{state}");
    app.key("space");
    app.key("3");
    app.click(app.world_to_screen(0.0, 150.0));
    app.wait_for(|s| s["dirty"] == true && s["obstacles"] == 1, "an obstacle added");
    app.key("ctrl+shift+s");
    app.wait_for(|s| s["modal"] == true, "the Save As dialog");
    for _ in 0.."hairpin.json".len() {
        app.key("BackSpace");
    }
    app.type_text(example.to_str().unwrap());
    app.key("Return");
    // The dialog refuses in red and stays open: no "Replace it?" for a shipped example.
    let state = app.wait_for(
        |s| s["file_dialog"]["refused"].as_str().is_some_and(|m| m.contains("shipped example")),
        "the refusal in the dialog",
    );
    assert!(state["file_dialog"]["asking"].is_null(), "{state}");
    assert!(state["rects"].get("file_dialog:replace").is_none(), "{state}");
    app.key("Return");
    app.settle();
    assert_eq!(std::fs::read(&example).unwrap(), original, "the shipped example was overwritten");
    let state = app.state();
    assert_eq!(state["modal"], true, "the dialog stays open for another name: {state}");
    // Another name in the same folder is a new file: it saves (the examples stay as they were).
    app.key("ctrl+a");
    app.type_text(&examples_text);
    app.type_text("/mine.json");
    app.key("Return");
    let state = app.wait_for(|s| s["modal"] == false && s["dirty"] == false, "saved as mine.json");
    assert!(state["title"].as_str().is_some_and(|t| t.contains("mine.json")), "{state}");
    assert_eq!(std::fs::read(&example).unwrap(), original, "the shipped example was overwritten");
}

/// Save As onto a file that exists asks "Replace it?": Esc keeps the file, then Replace writes it.
#[test]
fn save_as_onto_an_existing_file_asks_before_replacing_it() {
    if !tools_available("save_as_replace") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("save_as_replace", "hairpin.json");
    let other = file.with_file_name("other.json");
    std::fs::write(&other, "precious").unwrap();
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.key("3");
    app.click(app.world_to_screen(0.0, 150.0));
    app.wait_for(|s| s["dirty"] == true && s["obstacles"] == 1, "an obstacle added");
    let before = app.state();
    app.key("ctrl+shift+s");
    app.wait_for(|s| s["modal"] == true, "the Save As dialog");
    app.key("ctrl+a");
    app.type_text("other");
    app.key("Return");
    let state = app.wait_for(|s| s["file_dialog"]["asking"].is_string(), "the question");
    assert!(state["file_dialog"]["asking"].as_str().unwrap().ends_with("other.json"), "{state}");
    // Behind the question, keys do nothing to the world; the file is untouched.
    for key in ["space", "Delete", "3"] {
        app.key(key);
    }
    state_unchanged_behind_dialog(&before, &app.state());
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "precious");
    app.key("Escape");
    let state = app.wait_for(|s| s["file_dialog"]["asking"].is_null(), "Esc keeps the file");
    assert_eq!(state["modal"], true, "and the dialog stays open: {state}");
    assert!(state["rects"].get("file_dialog:ok").is_some(), "{state}");
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "precious");
    app.click(app.rect("file_dialog:ok"));
    app.wait_for(|s| s["file_dialog"]["asking"].is_string(), "asked again");
    app.click(app.rect("file_dialog:replace"));
    let saved =
        wait_for_file(&other, |v| v["obstacles"].as_array().is_some_and(|o| o.len() == 1), "replaced");
    assert!(saved["paths"].is_array());
    let state = app.wait_for(|s| s["modal"] == false && s["dirty"] == false, "saved");
    assert!(state["title"].as_str().is_some_and(|t| t.contains("other.json")), "{state}");
}

#[test]
fn tab_in_a_text_field_stays_there_and_space_after_tab_opens_no_menu() {
    if !tools_available("tab_focus") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("tab_focus", "hairpin.json");
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.click(app.rect("agent:0"));
    app.click(app.rect("agent_name"));
    app.key("Tab");
    app.settle();
    assert_eq!(app.state()["view"], "top", "Tab typed in the name field does not flip the view");
    // Back to the world: an empty spot of the view.
    app.click(app.world_to_screen(0.0, 2000.0));
    app.key("Tab");
    app.wait_for(|s| s["view"] == "3d", "Tab in the world flips to 3D");
    app.key("space");
    let state = app.wait_for(|s| s["running"] == true, "Space plays");
    assert!(state["rects"].get("menu:File").is_none(), "Space after Tab opened the File menu");
    app.key("Tab");
    app.wait_for(|s| s["view"] == "top", "Tab flips back");
    app.key("space");
    let state = app.wait_for(|s| s["running"] == false, "Space pauses");
    app.settle();
    assert!(state["rects"].get("menu:File").is_none() && app.state()["rects"].get("menu:File").is_none());
}

#[test]
fn ctrl_chords_in_a_text_field_type_no_letters() {
    if !tools_available("chord_text") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("chord_text", "hairpin.json");
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.click(app.rect("agent:0"));
    app.click(app.rect("agent_name"));
    let name = |app: &Steerlab| app.state()["names"][0].as_str().unwrap_or_default().to_string();
    app.key("ctrl+a");
    app.type_text("cv");
    app.wait_for(|s| s["names"][0] == "cv", "Ctrl+A selected the name and typing replaced it");
    // The audit's sequence: with nothing selected Ctrl+C copies nothing and Ctrl+V pastes it.
    for chord in ["End", "ctrl+c", "ctrl+v", "ctrl+a"] {
        app.key(chord);
    }
    app.settle();
    assert_eq!(name(&app), "cv", "a chord typed its letter");
    // The first letter typed after a chord is a letter.
    app.type_text("x");
    app.wait_for(|s| s["names"][0] == "x", "typing over the selection");
    // Ctrl+C copies the selected name and Ctrl+V pastes it. The paste goes through the X
    // server's selection, which under a loaded CI run now and then gave the old clipboard (twice
    // in about six full runs, never alone, never reproduced here): up to three tries, each of
    // which must type no letter of its chords.
    let mut pasted = false;
    for _ in 0..3 {
        for chord in ["ctrl+a", "ctrl+c", "End"] {
            app.key(chord);
        }
        app.settle();
        app.key("ctrl+v");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline && name(&app) != "xx" {
            std::thread::sleep(Duration::from_millis(50));
        }
        let now = name(&app);
        assert!(now == "x" || now == "xx", "a chord typed its letter: {now:?}");
        if now == "xx" {
            pasted = true;
            break;
        }
    }
    assert!(pasted, "Ctrl+C then Ctrl+V never pasted the selected name");
    app.key("alt+b");
    app.settle();
    assert_eq!(name(&app), "xx", "Alt+B typed nothing");
}

#[test]
fn enter_finishes_a_path_and_the_next_clicks_start_another() {
    if !tools_available("path_finish") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("path_finish", "hairpin.json");
    app.key("space");
    app.key("2");
    for (x, y) in [(-200.0, 150.0), (0.0, 200.0), (200.0, 150.0)] {
        app.click(app.world_to_screen(x, y));
    }
    app.key("Return");
    for (x, y) in [(-200.0, -150.0), (200.0, -150.0)] {
        app.click(app.world_to_screen(x, y));
    }
    app.key("Escape");
    app.click(app.world_to_screen(-200.0, -210.0));
    app.click(app.world_to_screen(200.0, -210.0));
    app.key("ctrl+s");
    let saved = wait_for_file(&file, |v| v["paths"].as_array().is_some_and(|p| p.len() == 4), "four paths");
    let lengths: Vec<usize> =
        saved["paths"].as_array().unwrap().iter().map(|p| p["points"].as_array().unwrap().len()).collect();
    assert_eq!(lengths[1..], [3, 2, 2], "Enter and Esc each finished a path: {lengths:?}");
}

#[test]
fn opening_a_file_over_unsaved_changes_asks_once() {
    if !tools_available("open_once") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("open_once", "hairpin.json");
    std::fs::copy(&file, file.with_file_name("other.json")).unwrap();
    app.key("space");
    app.key("3");
    app.click(app.world_to_screen(0.0, 150.0));
    app.wait_for(|s| s["dirty"] == true, "an unsaved change");
    app.key("ctrl+o");
    app.click(app.rect("file_dialog:entry:other.json"));
    app.click(app.rect("file_dialog:ok"));
    app.click(app.rect("confirm:discard"));
    app.wait_for(|s| s["title"].as_str().is_some_and(|t| t.contains("other.json")), "other.json opened");
    app.settle();
    let state = app.state();
    assert!(state["rects"].get("confirm:discard").is_none(), "asked a second time");
    assert_eq!(state["modal"], false);
}

#[test]
fn undo_after_opening_another_file_keeps_it_and_ctrl_s_does_not_overwrite_it_with_the_old_scene() {
    if !tools_available("undo_after_open") {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on("undo_after_open", "compare.json");
    let other = copy_scene(file.parent().unwrap(), "seek-flee.json");
    // The scene as the window would write it (Ctrl+S on an unchanged scene may rewrite it).
    let as_written =
        |path: &Path| steerlab::scene::scene_to_json(&steerlab::scene::load_scene(path).unwrap()).unwrap();
    let original = as_written(&other);
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.key("3");
    app.click(app.world_to_screen(0.0, 300.0));
    app.wait_for(|s| s["dirty"] == true, "an obstacle added");
    app.key("ctrl+o");
    app.click(app.rect("file_dialog:entry:seek-flee.json"));
    app.click(app.rect("file_dialog:ok"));
    app.click(app.rect("confirm:discard"));
    let opened = app.wait_for(
        |s| s["title"].as_str().is_some_and(|t| t.starts_with("seek-flee.json")),
        "seek-flee.json opened",
    );
    app.key("ctrl+z");
    app.settle();
    let state = app.state();
    assert_eq!(state["title"], opened["title"], "undo left the name and the unsaved mark alone");
    assert_eq!(state["agents"], opened["agents"], "undo brought back no other scene");
    assert_eq!(state["obstacles"], opened["obstacles"]);
    app.key("ctrl+s");
    app.settle();
    app.settle();
    assert!(as_written(&other) == original, "Ctrl+S wrote another scene into seek-flee.json");
}

#[test]
fn a_clean_quit_removes_the_autosave_and_a_kill_keeps_it_for_recovery() {
    if !tools_available("autosave") {
        return;
    }
    let _serial = serial();
    let config = temp_dir("autosave-config");
    let recovery = config.join("recovery.json");
    let config_text = config.to_str().unwrap().to_string();
    let envs = [("STEERLAB_CONFIG_DIR", config_text.as_str()), ("STEERLAB_AUTOSAVE_SECONDS", "0.5")];
    let scene = temp_dir("autosave-scene");
    let file = copy_scene(&scene, "hairpin.json");
    let add_obstacle = |app: &Steerlab| {
        app.key("space");
        app.key("3");
        app.click(app.world_to_screen(0.0, 150.0));
        app.wait_for(|s| s["dirty"] == true, "an unsaved change");
        wait_for_file(
            &recovery,
            |v| v["obstacles"].as_array().is_some_and(|o| !o.is_empty()),
            "the autosave",
        );
    };

    // Quit ▸ Discard is a clean quit: no autosave is left, the next start offers nothing.
    let mut app = Steerlab::launch_with("autosave", &[file.to_str().unwrap()], &envs);
    add_obstacle(&app);
    app.click(app.rect("menu_button:File"));
    app.click(app.rect("menu:quit"));
    app.click(app.rect("confirm:discard"));
    app.wait_exit();
    assert!(!recovery.exists(), "a clean quit removes the autosave");
    drop(app);
    let app = Steerlab::launch_with("autosave", &[file.to_str().unwrap()], &envs);
    app.settle();
    let state = app.state();
    assert_eq!(state["modal"], false, "no recovery prompt after a clean quit");
    assert!(state["rects"].get("recovery:restore").is_none());
    drop(app);

    // kill -9 keeps the autosave, and the next start restores it.
    let mut app = Steerlab::launch_with("autosave", &[file.to_str().unwrap()], &envs);
    add_obstacle(&app);
    let _ = app.child.kill(); // SIGKILL: no chance to clean up
    let _ = app.child.wait();
    assert!(recovery.exists(), "a kill leaves the autosave");
    drop(app);
    let app = Steerlab::launch_with("autosave", &[file.to_str().unwrap()], &envs);
    app.click(app.rect("recovery:restore"));
    let state = app.wait_for(|s| s["modal"] == false && s["dirty"] == true, "the restored scene");
    assert!(state["message"].as_str().is_some_and(|m| m.contains("restored")), "{state}");
    let original = read_json(&file)["obstacles"].as_array().map_or(0, Vec::len);
    assert_eq!(
        state["obstacles"].as_u64(),
        Some(original as u64 + 1),
        "the killed session's obstacle is back"
    );
}

/// An audit: a scene restored from the autosave came back "untitled", so Ctrl+S asked where
/// instead of saving to the file the killed session had open; now it comes back as that file,
/// its changes unsaved, and Ctrl+S writes them there.
#[test]
fn a_restored_autosave_comes_back_as_its_file_and_ctrl_s_saves_there() {
    if !tools_available("autosave_origin") {
        return;
    }
    let _serial = serial();
    let config = temp_dir("autosave_origin-config");
    let recovery = config.join("recovery.json");
    let config_text = config.to_str().unwrap().to_string();
    let envs = [("STEERLAB_CONFIG_DIR", config_text.as_str()), ("STEERLAB_AUTOSAVE_SECONDS", "0.5")];
    let scene = temp_dir("autosave_origin-scene");
    let file = copy_scene(&scene, "hairpin.json");
    let obstacles = read_json(&file)["obstacles"].as_array().map_or(0, Vec::len);
    let mut app = Steerlab::launch_with("autosave_origin", &[file.to_str().unwrap()], &envs);
    app.key("space");
    app.key("3");
    app.click(app.world_to_screen(0.0, 150.0));
    wait_for_file(
        &recovery,
        |v| v["obstacles"].as_array().is_some_and(|o| o.len() > obstacles),
        "the autosave",
    );
    let _ = app.child.kill();
    let _ = app.child.wait();
    drop(app);
    // Started without a scene: the restored one is the only thing that names the file.
    let app = Steerlab::launch_with("autosave_origin", &[], &envs);
    app.click(app.rect("recovery:restore"));
    let state = app.wait_for(|s| s["modal"] == false && s["dirty"] == true, "the restored scene");
    assert!(state["title"].as_str().is_some_and(|t| t.contains("hairpin.json")), "{state}");
    app.key("ctrl+s");
    let saved = wait_for_file(
        &file,
        |v| v["obstacles"].as_array().is_some_and(|o| o.len() == obstacles + 1),
        "Ctrl+S to save the restored scene to its file",
    );
    assert_eq!(saved["obstacles"].as_array().unwrap().len(), obstacles + 1);
    app.wait_for(|s| s["dirty"] == false && s["modal"] == false, "saved, no dialog");
    assert!(!recovery.exists(), "a save removes the autosave");
    drop(scene);
}

/// A widget's rectangle as the app published it: (left, top, right, bottom).
fn full_rect(state: &serde_json::Value, name: &str) -> (f32, f32, f32, f32) {
    let r = &state["rects"][name];
    let f = |i: usize| r[i].as_f64().unwrap_or_else(|| panic!("no rect {name}: {state}")) as f32;
    (f(0), f(1), f(2), f(3))
}

#[test]
fn the_ui_scale_and_the_open_panels_come_back_after_a_quit_and_a_relaunch() {
    if !tools_available("preferences") {
        return;
    }
    let _serial = serial();
    let config = temp_dir("preferences-config");
    let config_text = config.to_str().unwrap().to_string();
    let envs = [("STEERLAB_CONFIG_DIR", config_text.as_str())];
    let scene = temp_dir("preferences-scene");
    let file = copy_scene(&scene, "hairpin.json");

    let mut app = Steerlab::launch_with("preferences", &[file.to_str().unwrap()], &envs);
    let first = app.state();
    assert_eq!(first["ui_scale"], 1.0);
    assert_eq!(first["panels"]["plots"], false);
    let (_, top, _, bottom) = full_rect(&first, "menu_button:View");
    let button_height = bottom - top;
    // View ▸ Plots on, then the UI scale slider's handle dragged from 1× (a fifth along its
    // 100-point rail; the value box follows the rail) to about 2×.
    app.click(app.rect("menu_button:View"));
    app.click(app.rect("view:plots"));
    app.wait_for(|s| s["panels"]["plots"] == true, "the plots panel");
    let (left, top, _, bottom) = full_rect(&app.state(), "ui_scale");
    let middle = (top + bottom) / 2.0;
    app.drag((left + 20.0, middle), (left + 60.0, middle));
    let state = app.wait_for(|s| s["ui_scale"].as_f64().is_some_and(|v| v > 1.5), "a larger UI scale");
    let scale = state["ui_scale"].as_f64().unwrap();
    app.key("Escape");
    app.click(app.rect("menu_button:File"));
    app.click(app.rect("menu:quit"));
    app.wait_exit();
    drop(app);
    let written = read_json(&config.join("preferences.json"));
    assert!(written["ui_scale"].as_f64().is_some_and(|s| (s - scale).abs() < 1e-6), "{written}");
    assert_eq!(written["panels"]["plots"], true, "{written}");

    // The relaunch opens with that scale and the plots panel, and the View button is drawn
    // that much larger.
    let app = Steerlab::launch_with("preferences", &[file.to_str().unwrap()], &envs);
    app.settle();
    let state = app.state();
    assert_eq!(state["ui_scale"].as_f64(), Some(scale), "{state}");
    assert_eq!(state["panels"]["plots"], true, "{state}");
    let (_, top, _, bottom) = full_rect(&state, "menu_button:View");
    let ratio = f64::from((bottom - top) / button_height);
    assert!(
        (ratio - scale).abs() < 0.15 * scale,
        "the View button is {ratio}× as tall at a scale of {scale}"
    );
    drop(app);

    // A file spoilt by hand does not stop the window: it opens with the defaults.
    std::fs::write(config.join("preferences.json"), "{\"ui_scale\": \"huge\", \"panels\": [").unwrap();
    let app = Steerlab::launch_with("preferences", &[file.to_str().unwrap()], &envs);
    let state = app.state();
    assert_eq!(state["ui_scale"], 1.0, "{state}");
    assert_eq!(state["panels"]["plots"], false, "{state}");
}

#[test]
fn left_steps_back_along_the_run_and_the_timeline_slider_scrubs_it() {
    if !tools_available("timeline") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("timeline", "compare.json");
    app.wait_for(|s| s["steps"].as_u64().is_some_and(|n| n > 150), "a run to scrub");
    app.key("space");
    let paused = app.wait_for(|s| s["running"] == false, "pause");
    app.settle();
    let paused = app.wait_for(|s| s["steps"] == paused["steps"] || s["running"] == false, "settled");
    let at = paused["steps"].as_u64().unwrap();
    let positions_at = paused["positions"].clone();
    for n in 1..=3 {
        app.key("Left");
        app.wait_for(|s| s["steps"].as_u64() == Some(at - n), "one step back");
    }
    app.key("Right");
    app.key("Right");
    app.key("Right");
    let state = app.wait_for(|s| s["steps"].as_u64() == Some(at), "forward again");
    assert_eq!(state["positions"], positions_at, "stepping back and forth lands on the same run");
    // The slider: a click near its left end goes back to the start of the run.
    let state = app.state();
    let r = &state["rects"]["timeline"];
    let (x0, y0, y1) =
        (r[0].as_f64().unwrap() as f32, r[1].as_f64().unwrap() as f32, r[3].as_f64().unwrap() as f32);
    // Press on the slider's rail and drag its handle to the left end, as a person scrubs.
    let y = format!("{}", ((y0 + y1) / 2.0).round() as i32);
    app.xdotool(&["mousemove", "--sync", &format!("{}", (x0 + 60.0) as i32), &y]);
    app.settle();
    app.xdotool(&["mousedown", "1"]);
    app.settle();
    app.xdotool(&["mousemove", "--sync", &format!("{}", (x0 - 20.0) as i32), &y]);
    app.settle();
    app.xdotool(&["mouseup", "1"]);
    let state = app.wait_for(|s| s["steps"].as_u64().is_some_and(|n| n < at / 4), "scrubbed back");
    assert_eq!(state["running"], false);
    assert_eq!(state["timeline"][1].as_u64(), Some(at), "the recorded run is kept to scrub forward");
}

#[test]
fn the_built_in_scene_is_the_compare_example_with_a_first_launch_hint_and_round_time_steps() {
    if !tools_available("first_launch") {
        return;
    }
    let _serial = serial();
    let app = Steerlab::launch("first_launch", &[]);
    let state = app.state();
    let title = state["title"].as_str().unwrap_or_default();
    assert!(title.contains("compare (example)"), "{title}");
    let message = state["message"].as_str().unwrap_or_default();
    assert!(message.contains("F1"), "the first launch points at the help: {message}");
    app.key("bracketleft");
    app.wait_for(|s| s["time_scale"].as_f64() == Some(0.5), "0.5×");
    app.key("bracketright");
    app.wait_for(|s| s["time_scale"].as_f64() == Some(1.0), "back to exactly 1×");
    app.key("F1");
    let state = app.wait_for(|s| s["help"] == true && s["rects"].get("help").is_some(), "the help");
    let r = &state["rects"]["help"];
    let bottom = r[3].as_f64().unwrap();
    assert!(r[1].as_f64().unwrap() >= 0.0 && bottom <= 800.0, "the help fits the 1280×800 window: {r}");
    let shot = app.screenshot("help.png");
    assert!(shot.exists());
    // Save on the example asks where instead of writing the shipped file.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/compare.json");
    let before = std::fs::read_to_string(&shipped).unwrap();
    app.key("F1");
    app.key("ctrl+s");
    app.wait_for(|s| s["modal"] == true, "Save asks where");
    app.key("Escape");
    assert_eq!(std::fs::read_to_string(&shipped).unwrap(), before, "the shipped scene is untouched");
}

#[test]
fn g_selects_the_next_agent_and_l_makes_the_view_follow_it() {
    if !tools_available("follow") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("follow", "compare.json");
    app.key("g");
    app.wait_for(|s| s["selected_agent"] == 0, "the first agent");
    app.key("g");
    app.wait_for(|s| s["selected_agent"] == 1, "the second agent");
    app.key("shift+g");
    app.wait_for(|s| s["selected_agent"] == 0, "back to the first");
    app.key("l");
    app.wait_for(|s| s["follow"] == true, "follow on");
    // While it runs, the view's centre stays on the agent.
    for _ in 0..3 {
        app.settle();
        let state = app.state();
        let (cx, cy) =
            (state["camera"]["center"][0].as_f64().unwrap(), state["camera"]["center"][1].as_f64().unwrap());
        let (ax, ay) =
            (state["positions"][0][0].as_f64().unwrap(), state["positions"][0][1].as_f64().unwrap());
        // Published together; the agent may have moved one interpolated frame since.
        assert!((cx - ax).hypot(cy - ay) < 15.0, "camera ({cx}, {cy}) vs agent ({ax}, {ay})");
    }
}

/// Gizmos follow what is drawn, in the window: in the 1,024-boid flock (above
/// `app::MAX_GIZMO_AGENTS`) only the selected boid records gizmos. Picking one in the paused
/// flock shows its gizmos at once (the preview of its next step), picking the next moves them
/// there, and they stay with it, alone, once the flock runs again.
#[test]
fn in_a_big_flock_only_the_selected_boid_records_gizmos_paused_or_running() {
    if !tools_available("gizmo_focus") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("gizmo_focus", "flock.json");
    app.wait_for(|s| s["agents"].as_u64() == Some(1024) && s["loading"].is_null(), "the flock loaded");
    app.key("space");
    app.wait_for(|s| s["running"] == false, "paused");
    let idle = app.state();
    assert_eq!(
        idle["gizmo_agents"],
        serde_json::json!([]),
        "nobody selected, nobody records: {}",
        idle["gizmo_agents"]
    );
    let steps = idle["steps"].as_u64().unwrap();
    app.key("g");
    let first = app.wait_for(
        |s| s["selected_agent"] == 0 && s["gizmo_agents"] == serde_json::json!([0]),
        "boid 0's gizmos",
    );
    assert_eq!(first["steps"].as_u64(), Some(steps), "the preview moved nothing");
    app.key("g");
    app.wait_for(
        |s| s["selected_agent"] == 1 && s["gizmo_agents"] == serde_json::json!([1]),
        "boid 1's gizmos",
    );
    app.key("space");
    let running = app.wait_for(|s| s["steps"].as_u64().unwrap_or(0) >= steps + 30, "the flock running again");
    assert_eq!(running["gizmo_agents"], serde_json::json!([1]), "{}", running["gizmo_agents"]);
}

/// Pixels of two equally sized RGB buffers that differ by more than `tolerance` in a channel.
fn differing_pixels(a: &[u8], b: &[u8], tolerance: u8) -> usize {
    a.chunks(3)
        .zip(b.chunks(3))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > tolerance))
        .count()
}

/// A scene of `n` agents seeking one target from a spiral around it (a dense, overlapping crowd).
fn crowd_scene(n: usize) -> String {
    let agents: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let angle = i as f32 * 0.37;
            let radius = 40.0 + i as f32 * 0.2;
            serde_json::json!({
                "name": format!("a{i}"),
                "position": [radius * angle.cos(), radius * angle.sin()],
                "velocity": [-30.0 * angle.sin(), 30.0 * angle.cos()],
                "behaviour": { "type": if i % 3 == 0 { "flee" } else { "seek" }, "target": "t" },
            })
        })
        .collect();
    serde_json::json!({
        "version": 1, "name": "crowd",
        "targets": [{ "id": "t", "position": [0, 0] }],
        "agents": agents,
    })
    .to_string()
}

/// Pixels of a `width`-wide RGB buffer that differ by more than `tolerance` in a channel from
/// their right or lower neighbour: the picture's edges, counted in pixels.
fn edge_pixels(rgb: &[u8], width: usize, tolerance: u8) -> usize {
    let pixel = |i: usize| rgb.get(i * 3..i * 3 + 3);
    let differs = |a: Option<&[u8]>, b: Option<&[u8]>| match (a, b) {
        (Some(a), Some(b)) => a.iter().zip(b).any(|(x, y)| x.abs_diff(*y) > tolerance),
        _ => false,
    };
    (0..rgb.len() / 3)
        .filter(|&i| {
            (i % width + 1 < width && differs(pixel(i), pixel(i + 1))) || differs(pixel(i), pixel(i + width))
        })
        .count()
}

/// The crowd layer against the mesh, both under Xvfb. A crowd of at least
/// `STAMP_MIN_SPRITES` arrows of one size is stamped (`render/crowd.rs`, `StampCache`): each
/// arrow is the exact picture of one turned to the middle of its heading bucket and placed at the
/// middle of its quarter-pixel phase, so every edge of every shape lies at most
/// `STAMP_ERROR_MAX` (0.43 px: a quarter pixel for half a bucket at the arrow's farthest point,
/// √2/8 px for half a phase) from where the mesh draws it, along its normal. A pixel can then
/// differ only where its centre lies between the two: along an edge of length `L`, moved by
/// `d`, about `L·d` pixel centres. Heading and phase errors are uniform over their buckets, so
/// `d` averages at most half its maximum: about `L · STAMP_ERROR_MAX / 2` pixels. The edges' length
/// is read from the mesh picture itself: an edge of length `L` makes at least `L / √2` of its
/// pixels differ from their right or lower neighbour (`edge_pixels` = E), so `L ≤ √2 · E` and
/// at most `√2 · E · STAMP_ERROR_MAX / 2` (≈ 0.3 E) pixels may differ, plus the 0.1% the
/// exact rasteriser may already differ by (pixel centres exactly on an edge). The compare
/// track's few arrows are drawn shape by shape, so it keeps the 0.1%.
#[test]
fn the_crowd_layer_draws_the_arrows_the_mesh_draws() {
    if !tools_available("crowd layer") {
        return;
    }
    let _serial = serial();
    let display = VirtualDisplay::start();
    let dir = temp_dir("crowd-layer");
    let crowd = dir.join("crowd.json");
    std::fs::write(&crowd, crowd_scene(1_500)).unwrap();
    let compare = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("compare.json");
    let (width, height) = (900, 540);
    let shot = |scene: &Path, layer_from: &str, name: &str| {
        let out = dir.join(name);
        let envs = [("STEERLAB_CROWD_LAYER_FROM", layer_from)];
        run_shot(&display.name, &dir.join("config"), scene, &out, &["--seconds", "1"], &envs);
        // The world area right of the side panel and above the metrics table.
        region_pixels(&out, (360, 60, width, height))
    };
    for (scene, label, stamped) in [(compare.as_path(), "compare", false), (crowd.as_path(), "crowd", true)] {
        let mesh = shot(scene, "100000000", &format!("{label}-mesh.png"));
        let layer = shot(scene, "1", &format!("{label}-layer.png"));
        let pixels = mesh.len() / 3;
        let edges = edge_pixels(&mesh, width as usize, 25);
        let stamp_allowance = if stamped {
            (std::f32::consts::SQRT_2 * edges as f32 * steerlab::render::crowd::STAMP_ERROR_MAX / 2.0)
                as usize
        } else {
            0
        };
        let allowed = pixels / 1000 + stamp_allowance;
        let different = differing_pixels(&mesh, &layer, 25);
        assert!(
            different <= allowed,
            "{label}: {different} of {pixels} pixels differ between the mesh and the crowd layer \
             (allowed {allowed}; {edges} edge pixels)"
        );
        eprintln!("{label}: {different} of {pixels} pixels differ (allowed {allowed}; {edges} edge pixels)");
        // Not vacuous: the arrows' dark outlines are there, as many as on the mesh path.
        let dark = |rgb: &[u8]| rgb.chunks(3).filter(|p| p.iter().all(|&c| c < 60)).count();
        assert!(dark(&layer) > 100, "{label}: the layer drew no outlines");
        assert!(dark(&layer).abs_diff(dark(&mesh)) * 50 <= dark(&mesh), "{label}: outlines differ in amount");
    }
}

/// The 3D view's crowd layer (`render::orbit_crowd`, above `MESH_AGENTS_MAX` agents; forced here
/// by `STEERLAB_CROWD_LAYER_FROM`) against its cones, in `shot --view 3d`: a row of green agents
/// in front of a big obstacle shows in both pictures with about as many pixels, and a row of
/// magenta agents behind it shows in neither (the cones hide by OpenGL's depth test, which also
/// shows the scene puts them out of sight; the arrows by the layer's test against the spheres).
#[test]
fn the_3d_crowd_layer_shows_the_agents_the_cones_show_and_hides_those_behind_obstacles() {
    if !tools_available("crowd layer 3d") {
        return;
    }
    let _serial = serial();
    let display = VirtualDisplay::start();
    let dir = temp_dir("crowd-layer-3d");
    let row = |name: &str, y: f32, color: &str| -> Vec<serde_json::Value> {
        // Three rows of seven: 42 agents in all, past the count that shows names
        // (`MAX_LABELLED_AGENTS`), whose labels would show the hidden ones.
        (0..21)
            .map(|i| {
                serde_json::json!({
                    "name": format!("{name}{i}"), "color": color, "radius": 6,
                    "position": [-30.0 + 10.0 * (i % 7) as f32, y + 10.0 * (i / 7) as f32],
                    "behaviour": { "type": "seek", "target": "t" },
                })
            })
            .collect()
    };
    let mut agents = row("front", -150.0, "#00c040");
    agents.extend(row("behind", 70.0, "#ff00ff"));
    let scene = serde_json::json!({
        "version": 1, "name": "behind the sphere",
        "targets": [{ "id": "t", "position": [0, -250] }],
        "obstacles": [{ "position": [0, 0], "radius": 70 }],
        "agents": agents,
    });
    let path = dir.join("behind.json");
    std::fs::write(&path, scene.to_string()).unwrap();
    let shot = |layer_from: &str| {
        let out = dir.join(format!("from-{layer_from}.png"));
        let args = ["--view", "3d", "--seconds", "0"];
        run_shot(
            &display.name,
            &dir.join("config"),
            &path,
            &out,
            &args,
            &[("STEERLAB_CROWD_LAYER_FROM", layer_from)],
        );
        region_pixels(&out, (340, 40, 940, 450))
    };
    let count = |pixels: &[u8], hue: fn(i32, i32, i32) -> bool| {
        pixels.chunks(3).filter(|p| hue(i32::from(p[0]), i32::from(p[1]), i32::from(p[2]))).count()
    };
    let green = |r: i32, g: i32, b: i32| g > 60 && g > 2 * r && g > b + 30;
    let magenta = |r: i32, g: i32, b: i32| r > 60 && b > 60 && r > 2 * g && b > 2 * g;
    // First with the first row of each (14 agents, named on screen): the names of those behind
    // the sphere are hidden with them.
    let first_rows: Vec<&serde_json::Value> = agents
        .iter()
        .filter(|a| [-150.0, 70.0].contains(&a["position"][1].as_f64().unwrap_or(0.0)))
        .collect();
    let mut named = scene.clone();
    named["agents"] = serde_json::json!(first_rows);
    std::fs::write(&path, named.to_string()).unwrap();
    let names = shot("100000000");
    assert_eq!(named["agents"].as_array().map(Vec::len), Some(14));
    assert_eq!(count(&names, magenta), 0, "the names of the agents behind the sphere were drawn");
    std::fs::write(&path, scene.to_string()).unwrap();
    let cones = shot("100000000");
    let arrows = shot("1");
    let (cones_green, arrows_green) = (count(&cones, green), count(&arrows, green));
    assert!(cones_green > 100, "the cones in front: {cones_green} green pixels");
    assert_eq!(count(&cones, magenta), 0, "the scene must hide the magenta row behind the sphere");
    assert!(
        arrows_green * 2 >= cones_green && arrows_green <= cones_green * 2,
        "green pixels: {arrows_green} as arrows against {cones_green} as cones"
    );
    assert_eq!(count(&arrows, magenta), 0, "the arrows of the agents behind the sphere were drawn");
    // Not vacuous: with the sphere gone, the magenta row shows as arrows.
    let mut open = scene.clone();
    open["obstacles"] = serde_json::json!([]);
    std::fs::write(&path, open.to_string()).unwrap();
    let unhidden = shot("1");
    let shown = count(&unhidden, magenta);
    assert!(shown > 100, "without the sphere the magenta rows show: {shown} pixels");
    eprintln!("green: {cones_green} as cones, {arrows_green} as arrows; magenta without the sphere: {shown}");
}

/// A crowd of 3,000 (drawn through the crowd layer in both views) as a user meets it in 3D: Tab
/// to the orbit view, click an agent's arrow, and it is selected and drawn with the selection's
/// outline (orange: the crowd is all blue); a click on the bare ground beside it clears the
/// selection and the orange goes; Tab back to the top view shows the crowd there.
#[test]
fn in_the_3d_view_a_crowds_arrow_is_picked_by_a_click_and_outlined() {
    if !tools_available("crowd 3d pick") {
        return;
    }
    let dir = temp_dir("crowd-3d-pick-scene");
    let agents: Vec<serde_json::Value> = (0..3_000)
        .map(|i| {
            // A loose square grid, 20 units apart; the first agent alone in front of it.
            let (x, y) = if i == 0 {
                (0.0, -160.0)
            } else {
                (-540.0 + 20.0 * (i % 55) as f32, 20.0 * (i / 55) as f32)
            };
            serde_json::json!({
                "name": format!("c{i}"), "color": "#4363d8", "radius": 4, "position": [x, y],
                "behaviour": { "type": "seek", "target": "t" },
            })
        })
        .collect();
    let scene = serde_json::json!({
        "version": 1, "name": "blue crowd",
        "targets": [{ "id": "t", "position": [0, 2000] }],
        "agents": agents,
    });
    let path = dir.join("crowd.json");
    std::fs::write(&path, scene.to_string()).unwrap();
    let app = Steerlab::launch("crowd-3d-pick", &[path.to_str().unwrap()]).keeping(dir);
    app.key("space"); // pause
    app.wait_for(|s| s["running"] == false, "paused");
    app.key("Tab");
    app.wait_for(|s| s["view"] == "3d", "the 3D view");
    app.settle();
    let orange = |r: i32, g: i32, b: i32| r > 200 && (100..180).contains(&g) && b < 60;
    let count = |png: &Path, (x, y): (f32, f32)| {
        let (x0, y0) = ((x as u32).saturating_sub(30), (y as u32).saturating_sub(30));
        let pixels = region_pixels(png, (x0, y0, 60, 60));
        let blue = pixels.chunks(3).filter(|p| i32::from(p[2]) > i32::from(p[0]) + 60).count();
        let highlighted =
            pixels.chunks(3).filter(|p| orange(i32::from(p[0]), i32::from(p[1]), i32::from(p[2]))).count();
        (blue, highlighted)
    };
    let at = |state: &serde_json::Value| {
        let p = &state["agent_screen"][0];
        (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32)
    };
    let first = at(&app.state());
    let (blue, highlighted) = count(&app.screenshot("before.png"), first);
    assert!(blue > 20, "the first agent's arrow is drawn in 3D: {blue} blue pixels");
    assert_eq!(highlighted, 0, "nothing is selected yet");
    app.click(first);
    app.wait_for(|s| s["selected_agent"] == 0, "the first agent selected by its arrow");
    app.settle();
    let (_, highlighted) = count(&app.screenshot("selected.png"), at(&app.state()));
    assert!(highlighted > 10, "the selected arrow's outline: {highlighted} orange pixels");
    // A click on the bare ground beside it (the grid of agents lies farther away, higher up).
    let (x, y) = at(&app.state());
    app.click((x + 150.0, y));
    app.wait_for(|s| s["selected_agent"].is_null(), "the selection cleared");
    app.settle();
    let (blue, highlighted) = count(&app.screenshot("cleared.png"), at(&app.state()));
    assert!(blue > 20 && highlighted == 0, "cleared: {blue} blue, {highlighted} orange pixels");
    app.key("Tab");
    app.wait_for(|s| s["view"] == "top", "back to the top view");
    app.settle();
    let (blue, _) = count(&app.screenshot("top.png"), at(&app.state()));
    assert!(blue > 20, "the first agent's arrow in the top view: {blue} blue pixels");
}

/// The frame overlap (`shell/overlap.rs`: a frame's steps run on a worker while the frame before
/// is presented) as a user meets it: a crowd of 20,000 opened while another scene runs, run on,
/// then paused. Once paused, the world view shows exactly the world at the step the status bar
/// names: the pixels `steerlab shot` renders after that many steps, framed alike (F frames the
/// scene in both), and not those of the step before (a frame one step stale or ahead fails).
#[test]
fn a_crowd_opened_while_running_then_paused_shows_the_step_its_status_bar_names() {
    a_crowd_opened_then_paused_shows_the_step_it_names("overlap", &crowd_scene(20_000), 20_000);
}

/// The same flow with a crowd of 12,000 walkers who all avoid one another alike (collision
/// avoidance before arrive, as in `crowd-crossing.json`): the window's step, on every core,
/// walks their avoidance before the step in the grid's order (`World::walk_avoidance`), and
/// the paused picture still equals `steerlab shot`'s at the step the status bar names.
#[test]
fn an_avoiding_crowd_opened_while_running_then_paused_shows_the_step_its_status_bar_names() {
    a_crowd_opened_then_paused_shows_the_step_it_names("avoiders", &avoiding_crowd_scene(12_000), 12_000);
}

/// A crowd of `n` walkers on a spiral, each heading for the far side of the centre, collision
/// avoidance (priority group 0) before arrive (group 1), all with the same parameters.
fn avoiding_crowd_scene(n: usize) -> String {
    let agents: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            let angle = i as f32 * 0.37;
            let radius = 40.0 + i as f32 * 0.05;
            serde_json::json!({
                "name": format!("w{i}"),
                "position": [radius * angle.cos(), radius * angle.sin()],
                "radius": 2,
                "max_speed": 40,
                "max_acceleration": 200,
                "combine": { "mode": "priority", "threshold": 0.001 },
                "behaviours": [
                    { "type": "collision_avoidance", "group": 0, "horizon": 1.5, "margin": 2 },
                    { "type": "arrive", "group": 1, "target": format!("t{}", i % 4) },
                ],
            })
        })
        .collect();
    let targets: Vec<serde_json::Value> = (0..4)
        .map(|k| {
            let angle = k as f32 * std::f32::consts::FRAC_PI_2;
            serde_json::json!({ "id": format!("t{k}"), "position": [-700.0 * angle.cos(), -700.0 * angle.sin()] })
        })
        .collect();
    serde_json::json!({ "version": 2, "name": "avoiders", "targets": targets, "agents": agents }).to_string()
}

/// Launches on `compare.json`, opens `scene` (of `n` agents) through Ctrl+O while it runs, runs
/// it, pauses, frames it, and compares the world view with `steerlab shot` at the step the
/// status bar names and at the step before.
fn a_crowd_opened_then_paused_shows_the_step_it_names(label: &str, scene: &str, n: u64) {
    if !tools_available(label) {
        return;
    }
    let _serial = serial();
    let (app, file) = launch_on(label, "compare.json");
    let crowd = file.with_file_name("crowd.json");
    std::fs::write(&crowd, scene).unwrap();
    app.wait_for(|s| s["steps"].as_u64().is_some_and(|n| n > 20), "the first scene running");
    app.key("ctrl+o");
    app.click(app.rect("file_dialog:entry:crowd.json"));
    app.click(app.rect("file_dialog:ok"));
    let patience = Duration::from_secs(120);
    let loaded =
        app.wait_for_within(|s| s["agents"] == n && s["loading"].is_null(), "the crowd to load", patience);
    if loaded["running"] == false {
        app.key("space");
    }
    let from = app.wait_for(|s| s["running"] == true, "the crowd running")["steps"].as_u64().unwrap();
    app.wait_for_within(
        |s| s["steps"].as_u64().is_some_and(|n| n >= from + 40),
        "the crowd stepping",
        patience,
    );
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    // The pointer over the side panel (no agent under it), then F frames the paused crowd.
    let panel = &app.state()["rects"]["scene_panel"];
    let centre = |i: usize| ((panel[i].as_f64().unwrap() + panel[i + 2].as_f64().unwrap()) / 2.0) as i32;
    app.xdotool(&["mousemove", "--sync", &centre(0).to_string(), &centre(1).to_string()]);
    app.key("f");
    app.settle();
    let state = app.state();
    let steps = state["steps"].as_u64().unwrap();
    assert!(steps >= from + 40, "{steps}");
    let clock = state["status_clock"].as_str().unwrap();
    assert!(clock.ends_with(&format!(" · {steps} steps")), "the status bar says {clock:?} at step {steps}");
    let world = (360, 60, 900, 420);
    let window = region_pixels(&app.screenshot("paused.png"), world);
    assert_eq!(app.state()["steps"], steps, "no step while paused");

    let dt = f64::from(steerlab::scene::load_scene(&crowd).unwrap().dt);
    let shot = |at: u64| {
        let out = app.dir.join(format!("shot-{at}.png"));
        let seconds = format!("{:?}", at as f64 * dt);
        run_shot(
            &app.display.name,
            &app.dir.join("shot-config"),
            &crowd,
            &out,
            &["--seconds", &seconds],
            &[],
        );
        region_pixels(&out, world)
    };
    let pixels = window.len() / 3;
    let same = differing_pixels(&window, &shot(steps), 0);
    let before = differing_pixels(&window, &shot(steps - 1), 0);
    eprintln!("paused at step {steps}: {same} pixels differ from the shot at that step, {before} from the step before");
    assert!(same * 1000 <= pixels, "{same} of {pixels} pixels differ from `shot` at step {steps}");
    assert!(before > 10 * (pixels / 1000), "one step earlier differs by only {before} pixels: not a test");
}

#[test]
fn frames_measures_a_scene_file_in_the_window_and_names_it() {
    if !tools_available("frames --scene") {
        return;
    }
    let _serial = serial();
    let display = VirtualDisplay::start();
    let dir = temp_dir("frames-scene");
    let flock = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join("flock.json");
    let output = Command::new(BIN)
        .args(["frames", "--scene", flock.to_str().unwrap(), "--frames", "5"])
        .env("DISPLAY", &display.name)
        .env("STEERLAB_CONFIG_DIR", dir.join("config"))
        .env("STEERLAB_FRAME_PROFILE", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout} {}", String::from_utf8_lossy(&output.stderr));
    // The scene's own agents (1,024 boids), not the compare track's crowd.
    assert!(stdout.starts_with("flock.json, 1024 agents: mean frame "), "{stdout}");
    assert!(stdout.contains("over 5 frames"), "{stdout}");
    assert!(stdout.contains("on-CPU "), "{stdout}");
    assert!(stdout.contains("world drawing (CPU)"), "the profile follows: {stdout}");
    // The same in the 3D view, which the line names.
    let output = Command::new(BIN)
        .args(["frames", "--scene", flock.to_str().unwrap(), "--frames", "5", "--view", "3d"])
        .env("DISPLAY", &display.name)
        .env("STEERLAB_CONFIG_DIR", dir.join("config"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout} {}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.starts_with("flock.json, 3D view, 1024 agents: mean frame "), "{stdout}");
    // At UI scale 2, which the line names too.
    let output = Command::new(BIN)
        .args([
            "frames",
            "--scene",
            flock.to_str().unwrap(),
            "--frames",
            "5",
            "--view",
            "3d",
            "--ui-scale",
            "2",
        ])
        .env("DISPLAY", &display.name)
        .env("STEERLAB_CONFIG_DIR", dir.join("config"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout} {}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.starts_with("flock.json, 3D view, UI scale 2, 1024 agents: mean frame "), "{stdout}");
}

/// The walk-through's scene, saved to `dir`, with waypoint 2 sealed in a shell of 48 spheres when
/// `sealed` (the same shell as `planner_ship`'s metrics test).
fn walk_through_scene(dir: &Path, sealed: bool) -> PathBuf {
    let mut world = steerlab::scene::load_scene(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/planner-two-waypoints.json"),
    )
    .unwrap();
    world.reset();
    let steerlab::sim::Behaviour::Planner { params } = &world.agents[0].behaviour else { panic!() };
    let centre = params.waypoints[1];
    for k in 0..48 {
        if !sealed {
            break;
        }
        let zc = 1.0 - 2.0 * (k as f32 + 0.5) / 48.0;
        let r = (1.0 - zc * zc).sqrt();
        let a = std::f32::consts::PI * (3.0 - 5f32.sqrt()) * k as f32;
        let position = centre + glam::Vec3::new(r * a.cos(), r * a.sin(), zc) * 46.0;
        world.obstacles.push(steerlab::sim::Obstacle {
            position,
            radius: 20.0,
            velocity: glam::Vec3::ZERO,
            start: (position, glam::Vec3::ZERO),
        });
    }
    let file = dir.join(if sealed { "sealed.json" } else { "open.json" });
    steerlab::scene::save_scene(&world, &file).unwrap();
    file
}

/// Pixels of exactly `colour` among RGB triples.
fn count_colour(pixels: &[u8], (r, g, b): (u8, u8, u8)) -> usize {
    pixels.chunks(3).filter(|p| p == &[r, g, b]).count()
}

/// The unreachable marker's channels, from the palette.
fn unreachable_channels() -> (u8, u8, u8) {
    let c = steerlab::render::style::UNREACHABLE;
    let k = |v: f32| (v * 255.0).round() as u8;
    (k(c.r), k(c.g), k(c.b))
}

#[test]
fn a_sealed_waypoint_is_crossed_out_in_the_window_and_the_inspector_says_why_in_red() {
    if !tools_available("unreachable") {
        return;
    }
    let _serial = serial();
    let scenes = temp_dir("unreachable-scenes");
    let sealed = walk_through_scene(&scenes, true);
    let open = walk_through_scene(&scenes, false);
    let marker = unreachable_channels();

    // `steerlab shot` after 8 simulated seconds (the ship reaches waypoint 1 at 4.5 s, and the
    // next replan finds waypoint 2 sealed): the open scene has no cross, the sealed one has.
    let display = VirtualDisplay::start();
    let mut crossed = Vec::new();
    for file in [&open, &sealed] {
        let out = scenes.join(format!("{}.png", file.file_stem().unwrap().to_string_lossy()));
        run_shot(&display.name, &scenes.join("config"), file, &out, &["--seconds", "8"], &[]);
        crossed.push(count_colour(&region_pixels(&out, (0, 0, SCREEN.0, SCREEN.1)), marker));
    }
    drop(display);
    assert_eq!(crossed[0], 0, "a reachable waypoint is not crossed out");
    assert!(crossed[1] > 60, "the sealed waypoint's cross: {} pixels", crossed[1]);

    // The window: the cross appears once the ship has planned, and the inspector's status line
    // (red: the UI's error colour) says which waypoint and why.
    let app = Steerlab::launch("unreachable", &[sealed.to_str().unwrap()]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while app.state()["steps"].as_u64().unwrap_or(0) < 8 * 60 {
        assert!(Instant::now() < deadline, "the simulation did not run 8 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    app.settle();
    let shot = app.screenshot("running.png");
    let in_window = count_colour(&region_pixels(&shot, (0, 0, SCREEN.0, SCREEN.1)), marker);
    assert!(in_window > 60, "the cross in the window: {in_window} pixels");
    app.click(app.rect("agent:0"));
    let state = app.wait_for(|s| s["rects"].get("planner_status").is_some(), "the planner's status line");
    let r = &state["rects"]["planner_status"];
    let f = |i: usize| r[i].as_f64().unwrap() as u32;
    let (x0, y0, x1, y1) = (f(0), f(1), f(2) + 1, f(3) + 1);
    let status = region_pixels(&app.screenshot("status.png"), (x0, y0, x1 - x0, y1 - y0));
    let red = steerlab::ui::ERROR_RED;
    let reddish = status
        .chunks(3)
        .filter(|p| p[0] > 150 && (p[0] as i32 - p[1] as i32) > 60 && (p[0] as i32 - p[2] as i32) > 60)
        .count();
    assert!(reddish > 40, "the status line is drawn in red ({:?}): {reddish} red pixels", red);
}

#[test]
fn at_ui_scale_3_the_plots_window_stays_below_the_toolbar_and_the_view_menu_closes_it() {
    // At UI scale 3 in a 1280×800 window the Plots window used to cover the whole window, over
    // the toolbar (its title bar and close button out of reach, at a negative x).
    if !tools_available("plots-scale") {
        return;
    }
    let _serial = serial();
    let config = temp_dir("plots-scale-config");
    std::fs::write(
        config.join("preferences.json"),
        r#"{"ui_scale": 3.0, "panels": {"scene": true, "display": false, "metrics": true, "plots": true}}"#,
    )
    .unwrap();
    let config_text = config.to_str().unwrap().to_string();
    let scene = temp_dir("plots-scale-scene");
    let file = copy_scene(&scene, "compare.json");
    let app = Steerlab::launch_with(
        "plots-scale",
        &[file.to_str().unwrap()],
        &[("STEERLAB_CONFIG_DIR", &config_text)],
    );
    app.settle();
    let state = app.state();
    assert_eq!(state["ui_scale"], 3.0, "{state}");
    let (left, top, right, bottom) = full_rect(&state, "plots");
    let (_, below_toolbar, _, _) = full_rect(&state, "scene_panel");
    let (_, status_top, _, _) = full_rect(&state, "status_bar");
    let (width, height) = (SCREEN.0 as f32, SCREEN.1 as f32);
    assert!(left >= -1.0 && right <= width + 1.0, "plots {left}..{right} across a {width} px window");
    assert!(
        top >= below_toolbar - 1.0,
        "the plots' title bar at {top} is under the toolbar (ends at {below_toolbar})"
    );
    assert!(bottom <= height && top < status_top, "plots {top}..{bottom}, status bar at {status_top}");
    // The View menu is not covered: it closes the plots.
    app.click(app.rect("menu_button:View"));
    app.click(app.rect("view:plots"));
    app.wait_for(|s| s["panels"]["plots"] == false, "the plots closed from the View menu");
}

#[test]
fn at_ui_scale_2_the_scene_is_framed_in_the_free_area_and_a_click_on_an_agent_selects_it() {
    // The free area egui leaves for the world is in points; the world is drawn and the mouse read
    // in pixels. Taken as pixels at UI scale 2, the world's centre sat at half its place, under
    // the side panel: the scene was framed out of sight and Fit shrank it there.
    if !tools_available("scale2-world") {
        return;
    }
    let _serial = serial();
    let config = temp_dir("scale2-world-config");
    std::fs::write(config.join("preferences.json"), r#"{"ui_scale": 2.0}"#).unwrap();
    let config_text = config.to_str().unwrap().to_string();
    let scene = temp_dir("scale2-world-scene");
    let file = copy_scene(&scene, "hairpin.json");
    let app = Steerlab::launch_with(
        "scale2-world",
        &[file.to_str().unwrap()],
        &[("STEERLAB_CONFIG_DIR", &config_text)],
    );
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.settle();
    let state = app.state();
    assert_eq!(state["ui_scale"], 2.0, "{state}");
    let (_, below_toolbar, panel_right, _) = full_rect(&state, "scene_panel");
    let (_, metrics_top, _, _) = full_rect(&state, "metrics_panel");
    let width = SCREEN.0 as f32;
    let inside = |(x, y): (f32, f32)| x > panel_right && x < width && y > below_toolbar && y < metrics_top;
    let camera = &state["camera"]["viewport_center"];
    let centre = (camera[0].as_f64().unwrap() as f32, camera[1].as_f64().unwrap() as f32);
    assert!(inside(centre), "the view's centre {centre:?} is not in the free area right of {panel_right}, between {below_toolbar} and {metrics_top}");
    // Framed as loaded, with no F pressed: the path's four corners are in sight (the scene was
    // once framed in the first frame's larger free area, before the panels took their size at
    // scale 2, and stayed zoomed for it, its ends out of sight).
    for (x, y) in [(-300.0, -30.0), (300.0, -30.0), (300.0, 30.0), (-300.0, 30.0)] {
        let at = app.world_to_screen(x, y);
        assert!(inside(at), "the path's corner ({x}, {y}) drawn at {at:?}, outside the free area");
    }
    let agents = state["positions"].as_array().unwrap().len();
    for i in 0..agents {
        let p = &state["positions"][i];
        let at = app.world_to_screen(p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32);
        assert!(inside(at), "agent {i} drawn at {at:?}, outside the free area");
    }
    // The mouse reads the same pixels: a click on an agent selects it (hairpin's three start on
    // one point, so any of them), and a click on an empty spot of the view selects nothing.
    assert!(state["selected_agent"].is_null(), "{state}");
    let p = &state["positions"][0];
    app.click(app.world_to_screen(p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32));
    let selected = app.wait_for(|s| s["selected_agent"].is_u64(), "the clicked agent selected");
    let chosen = selected["selected_agent"].as_u64().unwrap() as usize;
    assert_eq!(state["positions"][chosen], state["positions"][0], "{selected}");
    app.click(
        app.world_to_screen(p[0].as_f64().unwrap() as f32 + 80.0, p[1].as_f64().unwrap() as f32 + 150.0),
    );
    app.wait_for(|s| s["selected_agent"].is_null(), "nothing selected on an empty spot");
}

/// How many pixels of the path's colour a column of the picture holds across a horizontal path
/// at world (x, 0), within 30 units of it.
fn path_pixels_across(app: &Steerlab, png: &Path, x: f32) -> usize {
    let (top_x, top_y) = app.world_to_screen(x, 30.0);
    let (_, bottom_y) = app.world_to_screen(x, -30.0);
    let column = region_pixels(
        png,
        (top_x.round() as u32, top_y.round() as u32, 1, (bottom_y - top_y).round() as u32),
    );
    // `render::style::PATH`.
    count_colour(&column, (0x3a, 0x3f, 0x4a))
}

#[test]
fn at_ui_scale_2_the_worlds_lines_and_markers_are_drawn_twice_as_large() {
    // The panels follow the UI scale; the world's lines once stayed one or two pixels wide, thin
    // beside them on a HiDPI screen. The same scene at scales 1 and 2: the path's line, and the
    // target's marker, twice as many pixels across.
    if !tools_available("scale2-lines") {
        return;
    }
    let _serial = serial();
    let scene = temp_dir("scale2-lines-scene");
    let file = scene.join("line.json");
    std::fs::write(
        &file,
        serde_json::json!({
            "version": 2, "name": "line",
            "paths": [{ "id": "line", "points": [[-300, 0], [300, 0]], "radius": 20 }],
            "targets": [{ "id": "t", "position": [150, 150] }],
        })
        .to_string(),
    )
    .unwrap();
    let mut measured = Vec::new();
    for scale in [1.0, 2.0] {
        let config = temp_dir(&format!("scale2-lines-config-{scale}"));
        std::fs::write(config.join("preferences.json"), format!(r#"{{"ui_scale": {scale}}}"#)).unwrap();
        let config_text = config.to_str().unwrap().to_string();
        let app = Steerlab::launch_with(
            "scale2-lines",
            &[file.to_str().unwrap()],
            &[("STEERLAB_CONFIG_DIR", &config_text)],
        );
        app.settle();
        assert_eq!(app.state()["ui_scale"], scale);
        let png = app.screenshot(&format!("scale{scale}.png"));
        // Away from the chevron in the middle and the ends' handles.
        let line = path_pixels_across(&app, &png, -150.0);
        // The target's marker: its red pixels in a box around it.
        let (tx, ty) = app.world_to_screen(150.0, 150.0);
        let marker = region_pixels(&png, (tx.round() as u32 - 40, ty.round() as u32 - 40, 80, 80));
        let red = count_colour(&marker, (0xc0, 0x39, 0x2b));
        measured.push((line, red));
    }
    let [(line1, red1), (line2, red2)] = measured[..] else { unreachable!() };
    assert!((2..=3).contains(&line1), "the path's line is {line1} pixels wide at scale 1");
    assert!(
        line2.abs_diff(2 * line1) <= 1,
        "at scale 2 the line is {line2} pixels wide, against {line1} at 1"
    );
    // Area grows as the square of the scale; the outline's ring and arms as the scale times
    // their width: between 3 and 5 times the pixels.
    assert!(red1 > 20, "the target's marker has {red1} pixels at scale 1");
    assert!(
        (3 * red1..=5 * red1).contains(&red2),
        "the target's marker: {red2} pixels at scale 2, {red1} at 1"
    );
}

#[test]
fn with_the_display_window_open_the_toolbars_compare_and_snap_still_take_clicks() {
    // The Display window sat at the window's top right, over the toolbar's Compare, Snap and ?
    // buttons: with it open (View ▸ Display toggles, remembered across launches) they could not
    // be clicked.
    if !tools_available("display-toolbar") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("display-toolbar", "hairpin.json");
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.click(app.rect("menu_button:View"));
    app.click(app.rect("view:display"));
    app.wait_for(|s| s["panels"]["display"] == true, "the Display window open");
    app.key("Escape");
    app.settle();
    let state = app.state();
    let display = full_rect(&state, "display");
    for name in ["compare", "snap"] {
        let (x0, y0, x1, y1) = full_rect(&state, name);
        let overlaps = x0 < display.2 && x1 > display.0 && y0 < display.3 && y1 > display.1;
        assert!(!overlaps, "{name} ({x0}, {y0})–({x1}, {y1}) under the Display window {display:?}");
    }
    app.click(app.rect("agent:0"));
    app.wait_for(|s| s["selected_agent"] == 0, "the first agent selected");
    app.click(app.rect("compare"));
    app.wait_for(|s| s["agents"].as_u64().is_some_and(|n| n > 3), "Compare cloned the agent");
    app.click(app.rect("snap"));
    app.wait_for(|s| s["snap"] == true, "Snap on");
}

/// Pixels of a painted field's teal arrows over the light ground (the colour at three quarters
/// over the background, give or take the anti-aliasing), among RGB triples.
fn painted_field_pixels(pixels: &[u8]) -> usize {
    pixels
        .chunks(3)
        .filter(|p| {
            let (r, g, b) = (i32::from(p[0]), i32::from(p[1]), i32::from(p[2]));
            (g - b).abs() <= 14 && g - r >= 60 && (40..=120).contains(&r)
        })
        .count()
}

#[test]
fn the_painted_field_is_drawn_in_the_3d_view_as_in_the_top_view() {
    // The 3D view drew no painted field at all: painting there changed the scene with nothing
    // to show for it. Each view's shot of `flow-painted.json` is compared with the same scene's
    // with every cell blank, so what differs is the field's arrows.
    if !tools_available("field-3d") {
        return;
    }
    let _serial = serial();
    let dir = temp_dir("field-3d");
    let painted = copy_scene(&dir, "flow-painted.json");
    let mut scene = read_json(&painted);
    for cell in scene["fields"][0]["vectors"].as_array_mut().unwrap() {
        *cell = serde_json::json!([0.0, 0.0]);
    }
    let blank = dir.join("blank.json");
    std::fs::write(&blank, scene.to_string()).unwrap();
    let display = VirtualDisplay::start();
    let teal = |file: &Path, view: &str| {
        let out = dir.join(format!("{}-{view}.png", file.file_stem().unwrap().to_string_lossy()));
        run_shot(&display.name, &dir.join("config"), file, &out, &["--seconds", "1", "--view", view], &[]);
        painted_field_pixels(&region_pixels(&out, (0, 0, SCREEN.0, SCREEN.1)))
    };
    for view in ["top", "3d"] {
        let (with, without) = (teal(&painted, view), teal(&blank, view));
        assert!(
            with > without + 2000,
            "{view}: {with} teal pixels with the field's arrows, {without} without"
        );
    }
}

#[test]
fn clicks_beside_an_open_dialog_reach_neither_the_world_nor_the_panels() {
    if !tools_available("modal_clicks") {
        return;
    }
    let _serial = serial();
    let (app, _file) = launch_on("modal_clicks", "hairpin.json");
    app.key("space");
    app.wait_for(|s| s["running"] == false, "pause");
    app.key("3");
    app.wait_for(|s| s["tool"] == "Obstacle", "the Obstacle tool");
    let spot = app.world_to_screen(0.0, 150.0);
    app.key("ctrl+shift+s");
    app.wait_for(|s| s["modal"] == true, "the Save As dialog");
    let before = app.state();
    // The world beside the dialog, the toolbar's Play and Path tool, the first agent's row.
    app.click(spot);
    app.click(app.rect("play"));
    app.click(app.rect("tool:Path"));
    app.click(app.rect("agent:0"));
    let after = app.state();
    assert_eq!(after["modal"], true, "the dialog is still open: {after}");
    for key in ["obstacles", "running", "tool", "selected", "dirty", "steps"] {
        assert_eq!(after[key], before[key], "{key} changed behind the dialog");
    }
    // With the dialog closed, the same click places an obstacle.
    app.key("Escape");
    app.wait_for(|s| s["modal"] == false, "Esc closes the dialog");
    app.click(spot);
    app.wait_for(|s| s["obstacles"] == before["obstacles"].as_u64().unwrap_or(0) + 1, "an obstacle placed");
}
