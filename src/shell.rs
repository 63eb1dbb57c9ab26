//! The window shell: opens the macroquad window, runs the frame loop (egui panels → input →
//! commands → fixed steps → drawing), carries out file actions through `scene::io`, keeps the
//! recent-files list and the autosave recovery file, and renders `steerlab shot` pictures.
//!
//! Screenshots and recordings of the window are taken here too ([`capture`]).
//! Scenes load off the frame loop ([`loading`]): a big file shows a "Loading NAME… NN %"
//! dialog with Cancel while the window keeps drawing.
//!
//! This is the only place that reads the wall clock (frame time, autosave timer) and the only
//! place that knows about both macroquad and egui.

mod capture;
mod loading;
mod overlap;

use std::io::Write;
use std::path::{Path, PathBuf};

use macroquad::prelude::*;

use steerlab::app::{tools, App, Command, FileCommand, Focus, ShellCommand, ViewMode};
use steerlab::scene::{escape_controls, load_scene, parse_scene, save_scene, SceneError};
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
/// Wall-clock seconds of simulation a frame may spend: a crowd that needs more to keep up with
/// real time runs slower (fewer steps a frame) rather than slowing the window down, which would
/// ask for still more steps the next frame.
const SIMULATION_BUDGET_SECONDS: f64 = 0.008;

/// The share of a slow frame's time the simulation may take (see [`StepBudget`]).
const SIMULATION_SHARE: f64 = 0.25;

/// How much longer the paint and the present take for each second a step runs beside them (the
/// step takes part of the cores from the GL driver's rasteriser). Measured on 2 cores at 10,000
/// agents: the present grew by 0.3–0.6 ms beside 2–3 ms of steps on an idle machine and by 1.4
/// ms beside about 10 ms on a loaded one; a quarter is above both. Counted as half, a loaded
/// machine's 10,000-agent step was budgeted one a frame and the crowd fell to 0.86× real time.
const BESIDE_SHARE: f64 = 0.25;

/// How many fixed steps fit in [`SIMULATION_BUDGET_SECONDS`], from the measured cost of a step.
/// A step that costs more than the budget (100,000 agents: 35–110 ms) runs only every few
/// frames, so the simulation's share of the window's time stays about the budget on average and
/// the view stays responsive (panning, the panels) while the crowd runs slower than real time.
///
/// What a step costs is what it adds to the frame: its wall-clock time when it runs on the
/// frame's own thread; when it runs alongside egui's paint and the present ([`overlap`]), the
/// time the frame then waits for it and what it slows the paint and the present down
/// ([`StepBudget::learn_wait`]). Its own wall-clock time there says little: it shares the cores
/// with the GL driver's rasteriser (a 10,000-agent step took about 10 ms on the worker against
/// 2.8 ms in place on a loaded machine, and budgeting that held the crowd at 0.9× real time);
/// the wait alone is too little (100,000 agents then stepped every frame: 38 ms frames against
/// 25).
#[derive(Default)]
struct StepBudget {
    /// Smoothed wall-clock seconds a step adds to a frame (0 before the first measurement).
    seconds_per_step: f64,
    /// Budget saved up over frames that skipped a dear step (at most one step's worth).
    credit: f64,
    /// The steps run alongside the paint and the present: [`StepBudget::advance`] leaves the
    /// learning to [`StepBudget::learn_wait`].
    overlapped: bool,
    /// Steps run by the last [`StepBudget::advance`] and their wall-clock seconds.
    last_steps: u32,
    last_seconds: f64,
}

impl StepBudget {
    fn max_steps(&self) -> u32 {
        if self.seconds_per_step <= 0.0 {
            return 1;
        }
        (SIMULATION_BUDGET_SECONDS / self.seconds_per_step).floor().clamp(1.0, 1000.0) as u32
    }

    /// Whether this frame (`frame_seconds` long) may step: always while a step fits in the
    /// budget; otherwise once the budgets saved up over frames pay for one step. A frame earns
    /// the budget or [`SIMULATION_SHARE`] of its own length, whichever is more (a window slowed
    /// down by drawing would otherwise starve the simulation).
    fn step_this_frame(&mut self, frame_seconds: f64) -> bool {
        if self.seconds_per_step <= SIMULATION_BUDGET_SECONDS {
            self.credit = 0.0;
            return true;
        }
        let earned = SIMULATION_BUDGET_SECONDS.max(SIMULATION_SHARE * frame_seconds.clamp(0.0, 1.0));
        self.credit = (self.credit + earned).min(self.seconds_per_step);
        if self.credit + 1e-12 < self.seconds_per_step {
            return false;
        }
        self.credit = 0.0;
        true
    }

    /// Runs `app.advance` within the budget and, in place, learns from how long it took.
    pub fn advance(&mut self, app: &mut App, frame_seconds: f64) {
        self.last_steps = 0;
        if app.running && !self.step_this_frame(frame_seconds) {
            // The time of a skipped frame is dropped, as time that does not fit in a frame is.
            return;
        }
        let start = std::time::Instant::now();
        let steps = app.advance_at_most(frame_seconds, self.max_steps());
        self.last_steps = steps;
        self.last_seconds = start.elapsed().as_secs_f64();
        if !self.overlapped {
            self.learn(self.last_seconds, steps);
        }
    }

    /// After steps run alongside the paint and the present (`hidden` seconds): they cost the
    /// frame the `waited` seconds it waited for them once the present was over, and
    /// [`BESIDE_SHARE`] of the time they ran beside the paint and the present.
    fn learn_wait(&mut self, waited: f64, hidden: f64) {
        let beside = self.last_seconds.min(hidden).max(0.0);
        self.learn(waited + BESIDE_SHARE * beside, self.last_steps);
        self.last_steps = 0;
    }

    fn learn(&mut self, seconds: f64, steps: u32) {
        if steps == 0 || !seconds.is_finite() {
            return;
        }
        // At least a microsecond: 0 means "not measured yet" (one step at a time).
        let per_step = (seconds / f64::from(steps)).max(1e-6);
        self.seconds_per_step = if self.seconds_per_step <= 0.0 {
            per_step
        } else {
            self.seconds_per_step * 0.8 + per_step * 0.2
        };
    }
}

/// Entries in the recent-files list.
const RECENT_LIMIT: usize = 10;

/// What the window is opened for.
pub enum Mode {
    /// Interactive editing, opening this scene file (loaded off the frame loop) or the given world.
    Interactive {
        /// The scene file to load once the window is open (the world given to [`run`] shows
        /// meanwhile).
        open: Option<PathBuf>,
    },
    /// Run `frames` frames with the simulation running and print frame-time statistics.
    Frames {
        /// Frames measured after a warm-up.
        frames: u32,
        /// The view the frames draw.
        view: ViewMode,
        /// The UI scale they are drawn at (within `ui::preferences::UI_SCALE_RANGE`).
        ui_scale: f32,
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
        /// The UI scale the picture is drawn at (within `ui::preferences::UI_SCALE_RANGE`).
        ui_scale: f32,
        /// Set once the picture is written, or with the reason it could not be (for
        /// `cannot write FILE: REASON`); unset if the window closed before.
        written: std::sync::Arc<std::sync::OnceLock<Result<(), String>>>,
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

/// Beside the autosave: the file it is a copy of (`file:PATH`) or the example (`example:NAME`),
/// so a restored scene saves where it came from (it used to come back untitled).
fn recovery_origin_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("recovery-origin.txt"))
}

/// Removes the autosave and its origin (a clean quit, a save, a discarded recovery).
fn remove_recovery() {
    for path in [recovery_path(), recovery_origin_path()].into_iter().flatten() {
        let _ = std::fs::remove_file(path);
    }
}

/// Opens a restored autosave as the scene it was a copy of, with its changes unsaved.
fn open_recovered(app: &mut App, world: World) {
    let origin = recovery_origin_path().and_then(|p| std::fs::read_to_string(p).ok()).unwrap_or_default();
    if let Some(name) = origin.strip_prefix("example:") {
        app.open_example(world, name);
    } else if let Some(file) = origin.strip_prefix("file:").filter(|f| !f.is_empty()) {
        app.open_world(world, Some(PathBuf::from(file)));
    } else {
        app.open_world(world, None);
    }
    app.dirty = true;
    app.info(format!("restored the autosaved {} (save it to keep it)", app.display_name()));
}

fn recent_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("recent.txt"))
}

fn preferences_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("preferences.json"))
}

/// The preferences file's choices, or the defaults when there is none (reading never fails:
/// see [`ui::Preferences::from_json`]).
fn load_preferences() -> ui::Preferences {
    preferences_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map_or_else(ui::Preferences::default, |text| ui::Preferences::from_json(&text))
}

/// Writes the preferences file atomically; a failure is reported once on stderr (the window
/// goes on with the choices in memory).
fn save_preferences(preferences: &ui::Preferences) {
    let Some(file) = preferences_path() else { return };
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(err) = write_atomically(&file, &preferences.to_json()) {
        static REPORTED: std::sync::Once = std::sync::Once::new();
        REPORTED.call_once(|| eprintln!("steerlab: cannot write {}: {err}", file.display()));
    }
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

/// `scenes/` of the source tree (where `cargo run` runs from), or next to the executable
/// (`STEERLAB_EXAMPLES_DIR` names another folder, so tests can try to overwrite a copy).
pub fn examples_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("STEERLAB_EXAMPLES_DIR") {
        return PathBuf::from(dir);
    }
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
    steerlab::scene::is_shipped_example(path, &examples_dir())
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
    steerlab::bench::crowd_world(default_world(), n)
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
    let interactive = matches!(mode, Mode::Interactive { .. });
    // The scene being loaded on a worker thread (the command line's file first).
    let mut loading: Option<loading::Loading> = match &mode {
        Mode::Interactive { open: Some(path) } => {
            app.example = None;
            Some(loading::Loading::start(path, loading::Purpose::CommandLine, get_time()))
        }
        _ => None,
    };
    let mut frame_times: Vec<f32> = Vec::new();
    // The UI scale and panels the user left (interactive only: pictures and frame figures do
    // not depend on them).
    let mut saved_preferences = ui::Preferences::of(&ui_state);
    if interactive {
        ui_state.recovery_available = recovery_path().is_some_and(|p| p.is_file());
        prevent_quit();
        first_launch_hint(&mut app);
        saved_preferences = load_preferences();
        saved_preferences.apply(&mut ui_state);
    }
    egui_macroquad::cfg(|ctx| ctx.set_visuals(egui_macroquad::egui::Visuals::light()));

    let mut shot_frames = 0u32;
    let mut capture = capture::Capture::new();
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
    let mut profile = FrameProfile::enabled().then(FrameProfile::default);
    let mut phase_start = std::time::Instant::now();
    let mut step_budget = StepBudget::default();
    let mut typed_chars = input::TypedChars::new();
    let mut steps_after_warm_up = 0u64;
    let mut cpu_after_warm_up = None;
    // The simulation steps of a frame run while the frame is presented ([`overlap`]).
    let mut overlap = overlap::Overlap::<Handed>::new("steerlab-frame", overlap::enabled());
    let steps_in_frames = interactive || matches!(mode, Mode::Frames { .. });
    step_budget.overlapped = overlap.threaded();

    if let Mode::Frames { view, ui_scale, .. } = &mode {
        app.camera.mode = *view;
        ui_state.ui_scale = ui::preferences::clamp_ui_scale(*ui_scale);
    }
    if let Mode::Shot { seconds, view, step_through, ui_scale, .. } = &mode {
        ui_state.ui_scale = ui::preferences::clamp_ui_scale(*ui_scale);
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
        let mut popup_open = false;
        let mut free_rect = None;
        let modal_before = ui_state.modal_open() || loading.is_some();
        let loading_view = loading.as_ref().filter(|l| l.dialog_due(get_time())).map(|l| l.view());
        let mut cancel_loading = false;
        // The characters typed since the last frame, read just before egui receives them.
        let mut typed = Some(typed_chars.take());
        egui_macroquad::ui(|ctx| {
            // A chord's letter must not type (egui may run this closure twice a frame; the
            // events are this frame's on the first run only).
            if let Some(typed) = typed.take() {
                ctx.input_mut(|i| ui::drop_chord_text(&mut i.events, &typed));
            }
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
            if let Some(view) = &loading_view {
                cancel_loading |= ui::loading::loading_window(ctx, view, &mut ui_state.widget_rects);
            }
            // In screen pixels, where the world is drawn and the mouse is read (egui's rectangles
            // are in points: at UI scale 2 the free area's corner at (340, 64) points lies at
            // (680, 128) pixels; taken as pixels, the world was drawn under the side panel).
            let rect = ctx.available_rect();
            let ppp = ctx.pixels_per_point();
            free_rect = Some((vec2(rect.min.x, rect.min.y) * ppp, vec2(rect.max.x, rect.max.y) * ppp));
            pointer_over_ui = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
            // A focused text field (a TextEdit, or a DragValue being typed into) keeps the keys,
            // and so does an open menu, combo box or popup.
            text_focus = ui::text_field_focused(ctx);
            popup_open = ui::popup_open(ctx);
        });
        // Who has the keyboard, decided once per frame for every key handler.
        let focus = Focus::of(
            modal_before || ui_state.modal_open() || loading.is_some(),
            text_focus || text_focus_last_frame,
            popup_open,
        );
        text_focus_last_frame = text_focus;
        if let Some(profile) = &mut profile {
            profile.add(0, &mut phase_start);
        }
        let screen = vec2(screen_width(), screen_height());
        let viewport = free_rect.unwrap_or((Vec2::ZERO, screen));
        app.camera.set_screen(screen, viewport);
        app.camera.ui_scale = ui_state.ui_scale;
        // The step-through's side panel changes the free area: frame the scene again when it
        // opens or closes.
        let debug_open = app.planner_debug.is_some();
        if !fitted_to_viewport || debug_open != debug_was_open {
            app.fit_view();
            fitted_to_viewport = true;
            debug_was_open = debug_open;
        }

        // While a scene loads, clicks and keys never reach the world (Esc cancels the load).
        let input_frame = input::read_input(pointer_over_ui || loading.is_some(), focus);
        if loading.is_some() && is_key_pressed(KeyCode::Escape) {
            cancel_loading = true;
        }
        if cancel_loading {
            if let Some(load) = loading.take() {
                load.cancel();
                app.info(format!("stopped loading {}; the open scene is unchanged", load.name()));
            }
        }
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
        let preferences = ui::Preferences::of(&ui_state);
        if interactive && preferences != saved_preferences {
            save_preferences(&preferences);
            saved_preferences = preferences;
        }
        if apply_ui_output(&mut app, &mut ui_state, output, &mut loading, &mut capture) {
            // A clean quit (saved, or changes discarded on purpose) leaves no autosave behind:
            // only a crash or a kill does, and the next start offers it.
            remove_recovery();
            break;
        }

        if !matches!(mode, Mode::Frames { .. }) && frame_count.is_multiple_of(60) && has_planner(&app) {
            // Plan time is wall-clock, so the shell measures it (about once a second).
            let mut metrics = app.world.metrics();
            steerlab::bench::fill_plan_times_with(&app.world, &mut metrics, 3);
            app.plan_time_us = metrics.iter().map(|m| m.planner.and_then(|p| p.plan_time_us)).collect();
        }
        if let Some(result) = loading.as_ref().and_then(|l| l.poll()) {
            if let Some(load) = loading.take() {
                finish_load(&mut app, &mut ui_state, &load, result);
            }
        }
        if let Some(profile) = &mut profile {
            profile.add(1, &mut phase_start);
        }
        if interactive {
            app.age_message(frame_seconds as f32);
            if app.dirty && get_time() - last_autosave > autosave_every {
                last_autosave = get_time();
                autosave(&app);
            }
        }

        if let Some(profile) = &mut profile {
            profile.add(2, &mut phase_start);
        }
        render::draw_world(&app);
        if let Some(profile) = &mut profile {
            profile.add(3, &mut phase_start);
        }
        if let Some(path) = &rects_file {
            if frame_count.is_multiple_of(5) {
                let recording = capture.recorded_seconds();
                write_widget_rects(
                    path,
                    &ui_state,
                    &app,
                    frame_count,
                    loading.as_ref().map(|l| l.view()),
                    recording,
                );
            }
        }
        frame_count += 1;
        if let (Some(p), true) = (&mut profile, interactive) {
            p.frames += 1;
            if p.frames == 300 {
                eprint!("{}", p.report());
                *p = FrameProfile::default();
            }
        }

        if let Mode::Frames { frames, .. } = &mode {
            frame_times.push(frame_seconds as f32 * 1000.0);
            if let Some(profile) = &mut profile {
                // The warm-up frames are not profiled either.
                if frame_times.len() == 30 {
                    *profile = FrameProfile::default();
                }
                profile.frames += 1;
            }
            if frame_times.len() == 30 {
                steps_after_warm_up = app.world.steps;
                cpu_after_warm_up = steerlab::bench::process_cpu_ns();
            }
            if frame_times.len() as u32 >= frames + 30 {
                let simulated = (app.world.steps - steps_after_warm_up) as f64 * f64::from(app.world.dt);
                let scene = file
                    .as_deref()
                    .and_then(Path::file_name)
                    .map(|n| escape_controls(&n.to_string_lossy()).into_owned());
                let cpu_ms = cpu_after_warm_up
                    .zip(steerlab::bench::process_cpu_ns())
                    .map(|(before, after)| after.saturating_sub(before) as f64 / 1e6 / f64::from(*frames));
                // The view the frames were drawn in (the camera's, not the one asked for), and
                // the UI scale when not 1.
                let view = match app.camera.mode {
                    ViewMode::Top => None,
                    ViewMode::Orbit => Some("3D view".to_string()),
                };
                let scale = (ui_state.ui_scale != 1.0).then(|| format!("UI scale {}", ui_state.ui_scale));
                let view = match (view, scale) {
                    (Some(v), Some(k)) => Some(format!("{v}, {k}")),
                    (v, k) => v.or(k),
                };
                print_frame_stats(
                    &frame_times[30..],
                    scene.as_deref(),
                    view.as_deref(),
                    app.world.agents.len(),
                    simulated,
                );
                if let Some(cpu_ms) = cpu_ms {
                    let _ = writeln!(
                        std::io::stdout(),
                        "on-CPU {cpu_ms:.2} ms a frame (all threads of the process: simulation, drawing, the GL \
                         driver's rasteriser; not the X server)"
                    );
                }
                if let Some(profile) = &profile {
                    let _ = write!(std::io::stdout(), "{}", profile.report());
                }
                break;
            }
        }
        // From here on the frame is egui's paint and the present, which read nothing of the
        // editor state: this frame's simulation steps run on the worker meanwhile ([`overlap`]),
        // and the next frame draws their result.
        let display_name = app.display_name();
        let job: overlap::Job<Handed> = if steps_in_frames {
            Box::new(move |h: &mut Handed| h.step_budget.advance(&mut h.app, frame_seconds))
        } else {
            Box::new(|_: &mut Handed| {})
        };
        let hidden_start = std::time::Instant::now();
        overlap.start(Handed { app, step_budget }, job);
        // Inline (`STEERLAB_OVERLAP=0`), the steps ran just now.
        if let Some(profile) = &mut profile {
            profile.add(2, &mut phase_start);
        }
        egui_macroquad::draw();
        // Pictures are read here, after everything is drawn and before the REC mark; what they
        // say goes to the status bar once the state is back.
        let mut notes: Vec<Result<String, String>> = Vec::new();
        notes.extend(capture.after_draw(&display_name, frame_seconds));
        for written in capture.written() {
            notes.push(match written {
                capture::Written::Screenshot(path) => {
                    Ok(format!("saved a picture of the window to {}", path.display()))
                }
                capture::Written::Failed(text) => Err(text),
            });
        }
        if let Some(seconds) = capture.recorded_seconds() {
            draw_rec_mark(seconds);
        }
        if let Some(profile) = &mut profile {
            profile.add(4, &mut phase_start);
        }
        if let Mode::Shot { out, written, .. } = &mode {
            shot_frames += 1;
            // egui needs a couple of frames to lay out its panels and fit the view to them.
            if shot_frames == 4 {
                let image = get_screen_data();
                let (width, height) = (u32::from(image.width), u32::from(image.height));
                let _ = written.set(capture::write_png(out, width, height, &image.bytes));
                // The worker's (empty) job is over before the window closes.
                drop(overlap.finish());
                break;
            }
        }
        next_frame().await;
        // `next_frame().await`: GL submission, rasterisation, swap.
        if let Some(profile) = &mut profile {
            profile.add(5, &mut phase_start);
        }
        let wait_start = std::time::Instant::now();
        Handed { app, step_budget } = overlap.finish();
        if overlap.threaded() {
            step_budget
                .learn_wait(wait_start.elapsed().as_secs_f64(), (wait_start - hidden_start).as_secs_f64());
        }
        for note in notes {
            match note {
                Ok(text) => app.info(text),
                Err(text) => app.set_error(text),
            }
        }
        // Whatever of the steps did not fit in the present.
        if let Some(profile) = &mut profile {
            profile.add(2, &mut phase_start);
        }
    }
}

/// What the frame loop hands to the [`overlap`] worker while a frame is painted and presented.
struct Handed {
    app: App,
    step_budget: StepBudget,
}

/// Writes `{"frame": n, "steps": n, "running": b, "positions": …, "orientations": …, "rects":
/// {name: [x0, y0, x1, y1]}}` (and more) atomically, so a test driving the window with xdotool
/// can click widgets by name, as a person finds them by eye.
fn write_widget_rects(
    path: &Path,
    state: &ui::UiState,
    app: &App,
    frame: u64,
    loading: Option<ui::loading::LoadingView>,
    recording: Option<f64>,
) {
    let rects: serde_json::Map<String, serde_json::Value> = state
        .widget_rects
        .iter()
        .map(|(name, r)| {
            // In screen pixels, where a script clicks (the rectangles are in egui's points).
            let [min, max] = [r.min, r.max].map(|p| p.to_vec2() * state.pixels_per_point);
            (name.clone(), serde_json::json!([min.x, min.y, max.x, max.y]))
        })
        .collect();
    let value = serde_json::json!({
        "frame": frame,
        "steps": app.world.steps,
        "status_clock": state.status_clock,
        "running": app.running,
        "agents": app.world.agents.len(),
        "obstacles": app.world.obstacles.len(),
        "obstacle_positions": app.world.obstacles.iter().map(|o| [o.position.x, o.position.y]).collect::<Vec<_>>(),
        "tool": app.tool.label(),
        "modal": state.modal_open(),
        // The file dialog: its title, its name field, the file its "Replace it?" asks about, and
        // why a save was refused there.
        "file_dialog": state.file_dialog.as_ref().map(|d| serde_json::json!({
            "title": d.mode.title(),
            "file_name": d.file_name,
            "asking": d.confirm_replace.as_ref().map(|p| p.display().to_string()),
            "refused": d.refused.as_ref().map(|(_, why)| why.clone()),
        })),
        "ui_scale": state.ui_scale,
        "panels": state.panels,
        "help": state.help_open,
        "dirty": app.dirty,
        "time_scale": app.time_scale,
        "selected_agent": app.selected_agent(),
        "selected": app.selection_count(),
        "snap": app.snap.on,
        "follow": app.follow,
        "timeline": app.timeline.range().map(|(first, furthest)| [first, furthest]),
        "positions": app.world.agents.iter().map(|a| [a.kinematics.position.x, a.kinematics.position.y]).collect::<Vec<_>>(),
        "orientations": app.world.agents.iter().map(|a| a.kinematics.orientation).collect::<Vec<_>>(),
        // The first 64 agents' names.
        "names": app.world.agents.iter().take(64).map(|a| a.about.name.as_str()).collect::<Vec<_>>(),
        // The agents whose gizmos are recorded now (the first 64 of them).
        "gizmo_agents": app.world.agents.iter().enumerate().filter(|(_, a)| !a.gizmos.items().is_empty()).map(|(i, _)| i).take(64).collect::<Vec<_>>(),
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
        // Where the first 16 agents are on the screen in the view shown (tests click them).
        "agent_screen": (0..app.world.agents.len().min(16))
            .map(|i| app.camera.projection().to_screen(app.draw_position(i)).map(|s| [s.x, s.y]))
            .collect::<Vec<_>>(),
        "camera": {
            "center": [app.camera.center.x, app.camera.center.y],
            "zoom": app.camera.zoom,
            "viewport_center": [app.camera.viewport_center().x, app.camera.viewport_center().y],
        },
        "expr_editor": state.expr_editor.as_ref().map(|e| serde_json::json!({
            "curve": e.curve,
            "x": e.x,
            "error": e.validation.as_ref().err(),
            "applied_x": match &e.source {
                steerlab::geometry::CurveKind::Expr { x, .. } => Some(x.clone()),
                _ => None,
            },
        })),
        "recording": recording.is_some(),
        "recorded_seconds": recording,
        "loading": loading.map(|l| serde_json::json!({"name": l.name, "percent": l.percent, "text": l.text()})),
        "rects": rects,
    });
    let _ = write_atomically(path, &value.to_string());
}

/// Where a frame's wall-clock time goes, summed over the frames measured (`STEERLAB_FRAME_PROFILE=1`
/// turns it on; `steerlab frames` prints it, the interactive window every 300 frames on stderr).
#[derive(Default)]
struct FrameProfile {
    /// Seconds in each phase, in [`FrameProfile::PHASES`] order.
    seconds: [f64; 6],
    frames: u32,
}

impl FrameProfile {
    /// The phases of one frame, in the order the loop runs them.
    const PHASES: [&'static str; 6] = [
        "egui layout (panels)",
        "input + commands",
        "simulation (in place, or waited for)",
        "world drawing (CPU)",
        "egui paint",
        "present (GL + llvmpipe raster)",
    ];

    fn enabled() -> bool {
        std::env::var_os("STEERLAB_FRAME_PROFILE").is_some_and(|v| v != "0")
    }

    fn add(&mut self, phase: usize, since: &mut std::time::Instant) {
        let now = std::time::Instant::now();
        if let Some(total) = self.seconds.get_mut(phase) {
            *total += now.duration_since(*since).as_secs_f64();
        }
        *since = now;
    }

    fn report(&self) -> String {
        let frames = f64::from(self.frames.max(1));
        let total: f64 = self.seconds.iter().sum();
        let mut text = format!(
            "frame profile over {} frames ({:.2} ms a frame):\n",
            self.frames,
            total * 1000.0 / frames
        );
        for (name, seconds) in Self::PHASES.iter().zip(self.seconds) {
            text += &format!(
                "  {name:<32} {:>8.2} ms  {:>5.1}%\n",
                seconds * 1000.0 / frames,
                100.0 * seconds / total.max(1e-12)
            );
        }
        text
    }
}

/// One line: `[SCENE, ]N agents: mean frame …, p95 …; simulation at …x real time`.
fn print_frame_stats(
    times_ms: &[f32],
    scene: Option<&str>,
    view: Option<&str>,
    agents: usize,
    simulated_seconds: f64,
) {
    let mut sorted = times_ms.to_vec();
    sorted.sort_by(f32::total_cmp);
    let mean = sorted.iter().sum::<f32>() / sorted.len().max(1) as f32;
    let p95 = sorted.get(sorted.len() * 95 / 100).copied().unwrap_or(mean);
    let wall_seconds = f64::from(sorted.iter().sum::<f32>()) / 1000.0;
    let _ = writeln!(
        std::io::stdout(),
        "{}{agents} agents: mean frame {mean:.2} ms ({:.0} fps), p95 {p95:.2} ms over {} frames; simulation at {:.2}x real time",
        scene.iter().chain(view.iter()).map(|s| format!("{s}, ")).collect::<String>(),
        1000.0 / mean.max(1e-3),
        sorted.len(),
        simulated_seconds / wall_seconds.max(1e-9)
    );
}

/// The "● REC" mark in the top right corner while a recording runs (drawn after the frame was
/// captured, so recordings do not show it).
fn draw_rec_mark(seconds: f64) {
    let text = format!("● REC {seconds:.1} s");
    let size = 24.0;
    let width = measure_text(&text, None, size as u16, 1.0).width;
    let x = screen_width() - width - 24.0;
    draw_rectangle(x - 8.0, 34.0, width + 16.0, 30.0, Color::new(1.0, 1.0, 1.0, 0.85));
    draw_text(&text, x, 56.0, size, Color::new(0.85, 0.1, 0.1, 1.0));
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
    if save_scene(&app.world, &path).is_err() {
        return;
    }
    let origin = match (&app.file, &app.example) {
        (Some(file), _) => file.to_str().map(|f| format!("file:{f}")),
        (None, Some(example)) => Some(format!("example:{example}")),
        (None, None) => None,
    };
    if let Some(origin_path) = recovery_origin_path() {
        let _ = std::fs::write(origin_path, origin.unwrap_or_default());
    }
}

/// Carries out what the panels asked for; returns true when the window should close.
fn apply_ui_output(
    app: &mut App,
    state: &mut ui::UiState,
    output: ui::UiOutput,
    loading: &mut Option<loading::Loading>,
    capture: &mut capture::Capture,
) -> bool {
    // A new load replaces one still running (its scene would be replaced at once anyway).
    let mut start_load = |path: &Path, purpose: loading::Purpose| {
        if let Some(old) = loading.take() {
            old.cancel();
        }
        *loading = Some(loading::Loading::start(path, purpose, get_time()));
    };
    let mut quit = false;
    for command in output.commands {
        match command {
            Command::File(FileCommand::Screenshot) => capture.request_screenshot(),
            Command::File(FileCommand::ToggleRecording) => {
                match capture.toggle_recording(&app.display_name()) {
                    Ok(text) => app.info(text),
                    Err(text) => app.set_error(text),
                }
            }
            Command::Shell(ShellCommand::Load(path)) => start_load(&path, loading::Purpose::Open),
            Command::Shell(ShellCommand::LoadExample(name)) => {
                start_load(&examples_dir().join(name), loading::Purpose::Open)
            }
            Command::Shell(ShellCommand::WriteScene(path)) => save_file(app, state, &path),
            Command::Shell(ShellCommand::WriteCsv(path, text)) => match write_atomically(&path, &text) {
                Ok(()) => app.info(format!("exported metrics to {}", path.display())),
                Err(err) => app.set_error(format!("{}: {err}", path.display())),
            },
            Command::Shell(ShellCommand::Recover(choice)) => {
                if let Some(path) = recovery_path() {
                    match choice {
                        ui::RecoveryChoice::Restore => start_load(&path, loading::Purpose::Recovery),
                        ui::RecoveryChoice::Discard => remove_recovery(),
                    }
                }
                state.recovery_available = false;
            }
            Command::Shell(ShellCommand::Exit) => quit = true,
            command => app.apply(command),
        }
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

/// Takes the scene a worker loaded (or its error) into the window.
fn finish_load(
    app: &mut App,
    state: &mut ui::UiState,
    load: &loading::Loading,
    result: Result<World, SceneError>,
) {
    match load.purpose {
        loading::Purpose::Open => open_loaded(app, state, &load.path, result),
        loading::Purpose::CommandLine => {
            let message = app.message.clone();
            let failed = result.is_err();
            open_loaded(app, state, &load.path, result);
            if !failed {
                app.message = message;
            }
        }
        loading::Purpose::Recovery => match result {
            Ok(world) => open_recovered(app, world),
            Err(err) => app.set_error(err.to_string()),
        },
    }
}

fn open_loaded(app: &mut App, state: &mut ui::UiState, path: &Path, result: Result<World, SceneError>) {
    match result {
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
    // Save As can name a shipped example (a path typed into the dialog, or its folder browsed
    // to); the window never overwrites one, whatever scene is open.
    if is_example(path) {
        app.set_error(format!(
            "not saved: {} is a shipped example; save your copy under another name or in another folder",
            escape_controls(&path.display().to_string())
        ));
        return;
    }
    match save_scene(&app.world, path) {
        Ok(()) => {
            app.mark_saved(path.to_path_buf());
            state.note_saved(path);
            remember_recent(state, path);
            remove_recovery();
        }
        Err(err) => app.set_error(err.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_dearer_than_the_frame_budget_runs_every_few_frames_and_a_cheap_one_every_frame() {
        let mut budget =
            StepBudget { seconds_per_step: 4.0 * SIMULATION_BUDGET_SECONDS, ..StepBudget::default() };
        let stepped: Vec<bool> = (0..12).map(|_| budget.step_this_frame(0.001)).collect();
        assert_eq!(stepped.iter().filter(|&&s| s).count(), 3, "{stepped:?}");
        assert_eq!(stepped.get(3), Some(&true), "the fourth frame has saved up one step: {stepped:?}");
        let mut cheap =
            StepBudget { seconds_per_step: 0.5 * SIMULATION_BUDGET_SECONDS, ..StepBudget::default() };
        assert!((0..12).all(|_| cheap.step_this_frame(0.001)));
        assert_eq!(cheap.max_steps(), 2);
        // Before any measurement the first frame steps (and measures).
        assert!(StepBudget::default().step_this_frame(0.001));
        // Frames slowed down by drawing earn a share of their length: a step of 4 budgets
        // every other frame when a frame lasts 8 budgets.
        let mut slow =
            StepBudget { seconds_per_step: 4.0 * SIMULATION_BUDGET_SECONDS, ..StepBudget::default() };
        let frame = 8.0 * SIMULATION_BUDGET_SECONDS;
        let stepped = (0..12).filter(|_| slow.step_this_frame(frame)).count();
        assert_eq!(stepped, 6);
    }

    #[test]
    fn a_crowd_stepped_on_the_frame_worker_goes_through_the_same_states_as_stepped_in_place() {
        // Above `sim::PARALLEL_MIN_AGENTS`, so that the worker's steps use the thread pool too.
        let fresh = || App::new(crowd_world(5_000), None);
        let mut threaded = overlap::Overlap::<App>::new("test-frame-worker", true);
        let mut inline = overlap::Overlap::<App>::new("test-frame-inline", false);
        let (mut a, mut b) = (fresh(), fresh());
        a.running = true;
        b.running = true;
        let snapshot = |app: &App| -> Vec<u32> {
            app.world
                .agents
                .iter()
                .flat_map(|agent| {
                    let k = &agent.kinematics;
                    [k.position.x, k.position.y, k.velocity.x, k.velocity.y, k.orientation].map(f32::to_bits)
                })
                .collect()
        };
        for frame in 0..12 {
            // Frames of uneven length: zero, one or two steps each.
            let seconds = [0.004, 0.017, 0.03][frame % 3];
            let job = move |app: &mut App| {
                app.advance_at_most(seconds, 4);
            };
            threaded.start(a, Box::new(job));
            inline.start(b, Box::new(job));
            (a, b) = (threaded.finish(), inline.finish());
            assert_eq!(a.world.steps, b.world.steps);
            assert!(snapshot(&a) == snapshot(&b), "frame {frame}: the states differ");
            assert_eq!(a.interpolation.to_bits(), b.interpolation.to_bits());
        }
        assert!(a.world.steps >= 10, "{} steps", a.world.steps);
    }

    #[test]
    fn overlapped_steps_cost_what_the_frame_waits_for_them() {
        let mut app = App::new(crowd_world(200), None);
        app.running = true;
        let mut budget = StepBudget { overlapped: true, ..StepBudget::default() };
        // Steps that hid in the paint and the present entirely cost nothing: every frame steps,
        // as many times as real time asks.
        budget.advance(&mut app, 0.04);
        assert_eq!(budget.last_steps, 1, "one step before anything is measured");
        budget.learn_wait(0.0, 0.0);
        assert!(budget.seconds_per_step > 0.0 && budget.seconds_per_step < 1e-5);
        assert_eq!(budget.max_steps(), 1000);
        budget.advance(&mut app, 0.04);
        assert_eq!(budget.last_steps, 2, "0.04 s of frame at dt 1/60 (with the left-over)");
        // Waited for: a step that keeps the frame waiting four budgets runs every few frames.
        for _ in 0..40 {
            budget.last_steps = 1;
            budget.last_seconds = 0.0;
            budget.learn_wait(4.0 * SIMULATION_BUDGET_SECONDS, 0.01);
        }
        assert!(
            (budget.seconds_per_step - 4.0 * SIMULATION_BUDGET_SECONDS).abs()
                < 1e-3 * SIMULATION_BUDGET_SECONDS
        );
        let stepped = (0..12).filter(|_| budget.step_this_frame(0.001)).count();
        assert_eq!(stepped, 3);
        // A step that ran 20 ms beside a paint and present of 12 ms and kept the frame waiting
        // 8 ms more costs the wait and a quarter of the 12 ms.
        let mut beside =
            StepBudget { overlapped: true, last_steps: 1, last_seconds: 0.02, ..StepBudget::default() };
        beside.learn_wait(0.008, 0.012);
        assert!((beside.seconds_per_step - (0.008 + BESIDE_SHARE * 0.012)).abs() < 1e-12);
        // In place, a step's own wall-clock time is its cost (the worker's job leaves it alone).
        let mut in_place = StepBudget::default();
        in_place.advance(&mut app, 0.02);
        assert!(in_place.seconds_per_step > 0.0);
        let mut overlapped = StepBudget { overlapped: true, ..StepBudget::default() };
        overlapped.advance(&mut app, 0.02);
        assert_eq!(overlapped.seconds_per_step, 0.0);
    }
}
