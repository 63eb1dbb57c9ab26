//! The window shell: opens the macroquad window, runs the frame loop (egui panels → input →
//! commands → fixed steps → drawing), carries out file actions through `scene::io`, keeps the
//! recent-files list and the autosave recovery file, and renders `steerlab shot` pictures.
//!
//! This is the only place that reads the wall clock (frame time, autosave timer) and the only
//! place that knows about both macroquad and egui.

use std::io::Write;
use std::path::{Path, PathBuf};

use macroquad::prelude::*;

use steerlab::app::{tools, App, Focus, ViewMode};
use steerlab::scene::{load_scene, parse_scene, save_scene};
use steerlab::sim::World;
use steerlab::{input, render, ui};

/// The default scene, embedded so `cargo run --release` works from anywhere.
pub const DEFAULT_SCENE: &str = include_str!("../scenes/compare.json");

/// Seconds between autosaves of unsaved changes (`STEERLAB_AUTOSAVE_SECONDS` overrides it, for
/// tests that crash the window on purpose).
const AUTOSAVE_SECONDS: f64 = 20.0;

fn autosave_seconds() -> f64 {
    std::env::var("STEERLAB_AUTOSAVE_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(AUTOSAVE_SECONDS)
}
/// Entries in the recent-files list.
const RECENT_LIMIT: usize = 10;

/// What the window is opened for.
pub enum Mode {
    /// Interactive editing.
    Interactive,
    /// Run `frames` frames with the simulation running and print frame-time statistics.
    Frames {
        /// Frames measured after a warm-up.
        frames: u32,
    },
    /// Render one picture after `seconds` of simulation and exit.
    Shot {
        /// Where to write the PNG.
        out: PathBuf,
        /// Simulated seconds before the picture.
        seconds: f64,
        /// The view the picture shows.
        view: ViewMode,
        /// Open the planner step-through of this agent at this iteration (0-based).
        step_through: Option<(usize, usize)>,
    },
}

/// Where settings live: `$STEERLAB_CONFIG_DIR`, else `$XDG_CONFIG_HOME/steerlab`, else
/// `~/.config/steerlab`.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("STEERLAB_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CONFIG_HOME") {
        return Some(PathBuf::from(dir).join("steerlab"));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config").join("steerlab"))
}

fn recovery_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("recovery.json"))
}

fn recent_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("recent.txt"))
}

fn load_recent() -> Vec<PathBuf> {
    recent_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|text| text.lines().filter(|l| !l.trim().is_empty()).map(PathBuf::from).collect())
        .unwrap_or_default()
}

fn remember_recent(state: &mut ui::UiState, path: &Path) {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    state.note_recent(path);
    state.recent.truncate(RECENT_LIMIT);
    if let Some(file) = recent_path() {
        if let Some(dir) = file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let text: Vec<String> = state.recent.iter().map(|p| p.display().to_string()).collect();
        let _ = std::fs::write(file, text.join("\n") + "\n");
    }
}

/// The example scenes shipped in `scenes/` next to the executable's crate (name, description).
fn examples() -> Vec<(String, String)> {
    let dir = examples_dir();
    let mut list: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .filter_map(|p| {
                    let name = p.file_name()?.to_string_lossy().to_string();
                    let description = load_scene(&p).map(|w| w.description).unwrap_or_default();
                    Some((name, description))
                })
                .collect()
        })
        .unwrap_or_default();
    list.sort();
    list
}

/// `scenes/` of the source tree (where `cargo run` runs from), or next to the executable.
pub fn examples_dir() -> PathBuf {
    let candidates = [
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes"),
        PathBuf::from("scenes"),
        std::env::current_exe().ok().and_then(|p| p.parent().map(|d| d.join("scenes"))).unwrap_or_default(),
    ];
    candidates.into_iter().find(|d| d.is_dir()).unwrap_or_else(|| PathBuf::from("scenes"))
}

/// Whether `path` is one of the shipped examples (a file directly in [`examples_dir`]): such a
/// file opens as an untitled copy, so the window never overwrites it.
pub fn is_example(path: &Path) -> bool {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    let dir = canonical(&examples_dir());
    dir.is_some() && canonical(path).and_then(|p| p.parent().map(Path::to_path_buf)) == dir
}

/// The default scene as a world.
pub fn default_world() -> World {
    match parse_scene(DEFAULT_SCENE, "scenes/compare.json (built in)") {
        Ok(world) => world,
        Err(err) => {
            eprintln!("error: {err}");
            World::default()
        }
    }
}

/// The default scene with `n` agents spread along its track, cycling through its agents'
/// behaviours (for frame-time measurements).
pub fn crowd_world(n: usize) -> World {
    let mut world = default_world();
    let templates = world.agents.clone();
    let Some(path) = world.paths.first().map(|p| p.polyline.clone()) else { return world };
    world.agents.clear();
    for i in 0..n {
        let Some(template) = templates.get(i % templates.len().max(1)) else { break };
        let mut agent = template.clone();
        let distance = path.length() * i as f32 / n as f32;
        agent.start.position = path.point_at_distance(distance);
        agent.start.velocity = path.direction_at_distance(distance) * 100.0;
        agent.name = format!("{} {}", template.name, i + 1);
        world.agents.push(agent);
    }
    world.reset();
    world
}

/// Opens the window configuration for `size`.
pub fn window_conf(size: (i32, i32)) -> Conf {
    Conf {
        window_title: "steerlab".to_string(),
        window_width: size.0,
        window_height: size.1,
        high_dpi: false,
        // Multisampling is opt-in (STEERLAB_MSAA=4 for smoother lines): software renderers such
        // as Mesa's llvmpipe pay for every sample, and it halves their frame rate.
        sample_count: std::env::var("STEERLAB_MSAA").ok().and_then(|v| v.parse().ok()).unwrap_or(1),
        window_resizable: true,
        ..Default::default()
    }
}

/// Runs the window until it is closed (or the shot is written).
pub async fn run(world: World, file: Option<PathBuf>, mode: Mode) {
    let mut app = App::new(world, None);
    let example_name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().to_string());
    match &file {
        Some(path) if is_example(path) => app.example = example_name(path),
        Some(path) => app.file = Some(path.clone()),
        // The built-in scene is the shipped compare.json.
        None => app.example = Some("compare.json".to_string()),
    }
    let mut ui_state = ui::UiState::default();
    ui_state.recent = load_recent();
    ui_state.default_dir = examples_dir();
    ui_state.home_dir = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
    let examples = examples();
    if let Some(file) = &file {
        remember_recent(&mut ui_state, file);
    }
    let interactive = matches!(mode, Mode::Interactive);
    let mut frame_times: Vec<f32> = Vec::new();
    if interactive {
        ui_state.recovery_available = recovery_path().is_some_and(|p| p.is_file());
        prevent_quit();
        first_launch_hint(&mut app);
    }
    egui_macroquad::cfg(|ctx| ctx.set_visuals(egui_macroquad::egui::Visuals::light()));

    let mut shot_frames = 0u32;
    // For real-window tests: where to publish the panels' widget rectangles (and a little state).
    let rects_file = std::env::var_os("STEERLAB_WIDGET_RECTS").map(PathBuf::from);
    let mut frame_count = 0u64;
    let mut fitted_to_viewport = false;
    let mut debug_was_open = false;
    let mut last_autosave = get_time();
    let mut frame_ms_smoothed = 0.0f32;
    let autosave_every = autosave_seconds();
    // A text field that had the keyboard at the end of the last frame owns this frame's keys too
    // (egui moves focus on Tab before the panels run; the Tab still belongs to the field).
    let mut text_focus_last_frame = false;

    if let Mode::Shot { seconds, view, step_through, .. } = &mode {
        let steps = (*seconds / app.world.dt as f64).round() as u64;
        for _ in 0..steps {
            app.step_once();
        }
        app.running = false;
        app.camera.mode = *view;
        if let Some((agent, iteration)) = *step_through {
            app.apply(steerlab::app::Command::OpenPlannerDebug { agent });
            app.apply(steerlab::app::Command::PlannerDebugGoto(iteration));
            app.apply(steerlab::app::Command::Select(Some(steerlab::app::Selection::Agent(agent))));
        }
    }

    loop {
        let frame_seconds = get_frame_time() as f64;
        frame_ms_smoothed = frame_ms_smoothed * 0.9 + (frame_seconds as f32 * 1000.0) * 0.1;
        ui_state.frame_time_ms = frame_ms_smoothed;

        let mut output = ui::UiOutput::default();
        let mut pointer_over_ui = false;
        let mut text_focus = false;
        let mut free_rect = None;
        let modal_before = ui_state.modal_open();
        egui_macroquad::ui(|ctx| {
            // Keyboard focus on a button or slider (egui gives it on Tab) would let Space both
            // press that widget and reach the world: outside dialogs only text fields keep focus.
            if !modal_before {
                let focused = ctx.memory(|m| m.focused());
                if let Some(id) = focused {
                    if egui_macroquad::egui::text_edit::TextEditState::load(ctx, id).is_none() {
                        ctx.memory_mut(|m| m.surrender_focus(id));
                    }
                }
            }
            // egui may run this closure twice in a frame: keep what both runs returned.
            output.merge(ui::show(ctx, &app, &mut ui_state, &examples));
            let rect = ctx.available_rect();
            free_rect = Some((vec2(rect.min.x, rect.min.y), vec2(rect.max.x, rect.max.y)));
            pointer_over_ui = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
            // A focused text field (a TextEdit, or a DragValue being typed into) keeps the keys.
            text_focus = ctx
                .memory(|m| m.focused())
                .is_some_and(|id| egui_macroquad::egui::text_edit::TextEditState::load(ctx, id).is_some());
        });
        // Who has the keyboard, decided once per frame for every key handler.
        let focus = if modal_before || ui_state.modal_open() {
            Focus::Modal
        } else if text_focus || text_focus_last_frame {
            Focus::TextField
        } else {
            Focus::World
        };
        text_focus_last_frame = text_focus;
        let screen = vec2(screen_width(), screen_height());
        let viewport = free_rect.unwrap_or((Vec2::ZERO, screen));
        app.camera.set_screen(screen, viewport);
        // The step-through's side panel changes the free area: frame the scene again when it
        // opens or closes.
        let debug_open = app.planner_debug.is_some();
        if !fitted_to_viewport || debug_open != debug_was_open {
            app.fit_view();
            fitted_to_viewport = true;
            debug_was_open = debug_open;
        }

        let input_frame = input::read_input(pointer_over_ui, focus);
        if interactive {
            // File commands, help and dropped files go through the UI, which asks about unsaved
            // changes and opens its file dialog.
            for command in tools::handle_input(&mut app, &input_frame) {
                ui_state.queue(command);
            }
            if is_quit_requested() {
                ui_state.request_quit();
            }
        }
        if apply_ui_output(&mut app, &mut ui_state, output) {
            // A clean quit (saved, or changes discarded on purpose) leaves no autosave behind:
            // only a crash or a kill does, and the next start offers it.
            if let Some(p) = recovery_path() {
                let _ = std::fs::remove_file(p);
            }
            break;
        }

        if !matches!(mode, Mode::Frames { .. }) && frame_count.is_multiple_of(60) && has_planner(&app) {
            // Plan time is wall-clock, so the shell measures it (about once a second).
            let mut metrics = app.world.metrics();
            steerlab::bench::fill_plan_times_with(&app.world, &mut metrics, 3);
            app.plan_time_us = metrics.iter().map(|m| m.planner.and_then(|p| p.plan_time_us)).collect();
        }
        if interactive {
            app.age_message(frame_seconds as f32);
            app.advance(frame_seconds);
            if app.dirty && get_time() - last_autosave > autosave_every {
                last_autosave = get_time();
                autosave(&app);
            }
        }

        render::draw_world(&app);
        egui_macroquad::draw();
        if let Some(path) = &rects_file {
            if frame_count.is_multiple_of(5) {
                write_widget_rects(path, &ui_state, &app);
            }
        }
        frame_count += 1;

        if let Mode::Frames { frames } = &mode {
            app.advance(frame_seconds);
            frame_times.push(frame_seconds as f32 * 1000.0);
            if frame_times.len() as u32 >= frames + 30 {
                print_frame_stats(&frame_times[30..], app.world.agents.len());
                break;
            }
        }
        if let Mode::Shot { out, .. } = &mode {
            shot_frames += 1;
            // egui needs a couple of frames to lay out its panels and fit the view to them.
            if shot_frames == 4 {
                get_screen_data().export_png(&out.to_string_lossy());
                let _ = writeln!(std::io::stdout(), "wrote {}", out.display());
                break;
            }
        }
        next_frame().await;
    }
}

/// Writes `{"frame": n, "steps": n, "running": b, "rects": {name: [x0, y0, x1, y1]}}` atomically, so a
/// test driving the window with xdotool can click widgets by name, as a person finds them by eye.
fn write_widget_rects(path: &Path, state: &ui::UiState, app: &App) {
    let rects: serde_json::Map<String, serde_json::Value> = state
        .widget_rects
        .iter()
        .map(|(name, r)| (name.clone(), serde_json::json!([r.min.x, r.min.y, r.max.x, r.max.y])))
        .collect();
    let value = serde_json::json!({
        "steps": app.world.steps,
        "running": app.running,
        "agents": app.world.agents.len(),
        "obstacles": app.world.obstacles.len(),
        "tool": app.tool.label(),
        "modal": state.modal_open(),
        "help": state.help_open,
        "dirty": app.dirty,
        "time_scale": app.time_scale,
        "selected_agent": app.selected_agent(),
        "selected": app.selection_count(),
        "snap": app.snap.on,
        "follow": app.follow,
        "timeline": app.timeline.range().map(|(first, furthest)| [first, furthest]),
        "positions": app.world.agents.iter().map(|a| [a.kinematics.position.x, a.kinematics.position.y]).collect::<Vec<_>>(),
        "plan_time_us": app.plan_time_us,
        "message": app.message.as_ref().map(|m| m.text.clone()),
        "title": app.title(),
        "view": match app.camera.mode {
            ViewMode::Top => "top",
            ViewMode::Orbit => "3d",
        },
        "planner_debug": app.planner_debug.as_ref().map(|d| serde_json::json!({
            "agent": d.agent,
            "iteration": d.iteration,
            "count": d.count(),
        })),
        "camera": {
            "center": [app.camera.center.x, app.camera.center.y],
            "zoom": app.camera.zoom,
            "viewport_center": [app.camera.viewport_center().x, app.camera.viewport_center().y],
        },
        "rects": rects,
    });
    let _ = write_atomically(path, &value.to_string());
}

fn print_frame_stats(times_ms: &[f32], agents: usize) {
    let mut sorted = times_ms.to_vec();
    sorted.sort_by(f32::total_cmp);
    let mean = sorted.iter().sum::<f32>() / sorted.len().max(1) as f32;
    let p95 = sorted.get(sorted.len() * 95 / 100).copied().unwrap_or(mean);
    let _ = writeln!(
        std::io::stdout(),
        "{agents} agents: mean frame {mean:.2} ms ({:.0} fps), p95 {p95:.2} ms over {} frames",
        1000.0 / mean.max(1e-3),
        sorted.len()
    );
}

/// On the very first start (no marker in the config folder) a one-line hint points at the help.
fn first_launch_hint(app: &mut App) {
    let Some(marker) = config_dir().map(|d| d.join("first-launch-done")) else { return };
    if marker.exists() {
        return;
    }
    let help = steerlab::app::commands::keys_label(steerlab::app::CommandId::Help);
    app.info_for(format!("New here? Press {help} for every key and mouse action."), 20.0);
    if let Some(dir) = marker.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = std::fs::write(marker, "");
}

fn has_planner(app: &App) -> bool {
    app.world.agents.iter().any(|a| matches!(a.behaviour, steerlab::sim::Behaviour::Planner { .. }))
}

fn autosave(app: &App) {
    let Some(path) = recovery_path() else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    // A world that cannot be saved (a non-finite number) is simply not autosaved.
    let _ = save_scene(&app.world, &path);
}

/// Carries out what the panels asked for; returns true when the window should close.
fn apply_ui_output(app: &mut App, state: &mut ui::UiState, output: ui::UiOutput) -> bool {
    let ui::UiOutput { commands, open_path, open_example, save_path, export_csv, recovery, quit } = output;
    for command in commands {
        app.apply(command);
    }
    if let Some(path) = open_path {
        open_file(app, state, &path);
    }
    if let Some(name) = open_example {
        open_file(app, state, &examples_dir().join(name));
    }
    if let Some(path) = save_path {
        save_file(app, state, &path);
    }
    if let Some((path, text)) = export_csv {
        match write_atomically(&path, &text) {
            Ok(()) => app.info(format!("exported metrics to {}", path.display())),
            Err(err) => app.set_error(format!("{}: {err}", path.display())),
        }
    }
    match recovery {
        Some(ui::RecoveryChoice::Restore) => {
            if let Some(path) = recovery_path() {
                match load_scene(&path) {
                    Ok(world) => {
                        app.open_world(world, None);
                        app.dirty = true;
                        app.info("restored the autosaved scene (save it to keep it)");
                    }
                    Err(err) => app.set_error(err.to_string()),
                }
            }
            state.recovery_available = false;
        }
        Some(ui::RecoveryChoice::Discard) => {
            if let Some(path) = recovery_path() {
                let _ = std::fs::remove_file(path);
            }
            state.recovery_available = false;
        }
        None => {}
    }
    quit
}

fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp-steerlab");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn open_file(app: &mut App, state: &mut ui::UiState, path: &Path) {
    match load_scene(path) {
        // A shipped example opens as an untitled copy: Save asks where, the original stays.
        Ok(world) if is_example(path) => {
            let name =
                path.file_name().map_or_else(|| "example".to_string(), |n| n.to_string_lossy().to_string());
            app.open_example(world, &name);
        }
        Ok(world) => {
            app.open_world(world, Some(path.to_path_buf()));
            remember_recent(state, path);
        }
        // The open scene stays exactly as it was; the one-line error goes to the status bar.
        Err(err) => app.set_error(err.to_string()),
    }
}

fn save_file(app: &mut App, state: &mut ui::UiState, path: &Path) {
    match save_scene(&app.world, path) {
        Ok(()) => {
            app.mark_saved(path.to_path_buf());
            state.note_saved(path);
            remember_recent(state, path);
            if let Some(p) = recovery_path() {
                let _ = std::fs::remove_file(p);
            }
        }
        Err(err) => app.set_error(err.to_string()),
    }
}
