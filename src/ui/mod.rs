//! The window's egui panels: they read [`App`], edit copies of parameter structs, and return
//! intents in a [`UiOutput`]; they never change the editor or touch scene files themselves.
//!
//! The shell calls [`show`] once per frame inside the egui closure, merges what every egui pass
//! returned ([`UiOutput::merge`]: egui may run the closure twice in a frame), then
//! - goes through `commands` in order: one [`Command`] type for everything the panels ask (the
//!   panels' edits, the toolbar's choice of what new agents and curves are, the display toggles,
//!   dismissing the status line). [`App::apply`] takes the editor's; the shell carries out the
//!   [`Command::Shell`] ones ([`ShellCommand`]: load or save a scene file, write the metrics CSV,
//!   restore or discard the autosave, close the window — unsaved changes were confirmed here
//!   already) and the pictures (`FileCommand::Screenshot`, `ToggleRecording`);
//! - forwards the keyboard's shell [`Command`]s to [`UiState::queue`] and a window-close request to
//!   [`UiState::request_quit`], so the unsaved-changes question and the file dialog live in one
//!   place; after a successful load or save it calls [`UiState::note_recent`].
//!
//! Every panel is one function in its own file. The only file-system access here is the file
//! dialog's: its directory listing ([`file_dialog::list_dir`]), which reads names, never scenes,
//! and, when Save is pressed, whether the file exists or is a shipped example.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::app::{App, Command};
use crate::sim::Rgb;

pub mod agents;
pub mod copies;
pub mod curve_editor;
pub mod dialogs;
pub mod display;
pub mod file_dialog;
pub mod group;
pub mod help;
pub mod inspector;
pub mod legend;
pub mod loading;
pub mod metrics;
pub mod mix_editor;
pub mod params;
pub mod pickers;
pub mod plots;
pub mod preferences;
pub mod status;
pub mod step_through;
pub mod toolbar;

pub use curve_editor::{validate_expr_curve, ExprEditor};
pub use file_dialog::{FileDialog, FileDialogMode};
pub use metrics::{metrics_csv, MetricColumn};
pub use params::{behaviour_params, param_command, with_param, ParamSpec, ParamValue};
pub use preferences::Preferences;

/// How many recent files the File menu keeps.
pub const RECENT_LIMIT: usize = 10;

/// Which panels are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Panels {
    /// The left panel with the agents list and the inspector.
    pub scene: bool,
    /// The display toggles window.
    pub display: bool,
    /// The metrics table at the bottom.
    pub metrics: bool,
    /// The plots window.
    pub plots: bool,
}

impl Default for Panels {
    fn default() -> Self {
        Panels { scene: true, display: false, metrics: true, plots: false }
    }
}

/// Something the user asked for that may need the unsaved-changes question or a file dialog
/// (the app's [`FileCommand`](crate::app::FileCommand), one of the [`Command`]s).
pub use crate::app::FileCommand as Request;

pub use crate::app::{RecoveryChoice, ShellCommand};

/// Everything the panels remember between frames.
#[derive(Clone, Debug)]
pub struct UiState {
    /// Which panels are visible.
    pub panels: Panels,
    /// The help overlay is open.
    pub help_open: bool,
    /// Metrics table sorting: column and descending.
    pub metrics_sort: Option<(MetricColumn, bool)>,
    /// The metrics table as last computed (a big crowd's is recomputed a few times a second).
    pub metrics_cache: metrics::MetricsCache,
    /// Recently opened or saved files, newest first (the shell persists this list).
    pub recent: Vec<PathBuf>,
    /// UI zoom factor (HiDPI), 0.5–3; applied with `ctx.set_zoom_factor`.
    pub ui_scale: f32,
    /// The UI scale slider's value while it is dragged (applied to `ui_scale` on release).
    pub ui_scale_dragged: Option<f32>,
    /// Duration of the last frame in milliseconds (set by the shell).
    pub frame_time_ms: f32,
    /// The simulated time and step count as the status bar last drew them (published to the
    /// window tests, which check that what the bar says is what the world view shows).
    pub status_clock: String,
    /// An autosaved scene can be restored (set by the shell; cleared by the prompt).
    pub recovery_available: bool,
    /// The directory Open starts in when the scene has no file (the shipped examples); Save As
    /// refuses a file directly in it.
    pub default_dir: PathBuf,
    /// The directory Save As starts in when nothing was saved yet (the home folder).
    pub home_dir: PathBuf,
    /// The folder the user last saved to (Save As starts there).
    pub last_save_dir: Option<PathBuf>,
    /// The open file dialog.
    pub file_dialog: Option<FileDialog>,
    /// A request waiting for the answer to "Discard unsaved changes?".
    pub confirm: Option<Request>,
    /// The expression editor of the selected `expr` curve.
    pub expr_editor: Option<ExprEditor>,
    /// The agent inspector's Copies rows.
    pub copies: copies::CopiesForm,
    /// Requests from the keyboard or the window, handled at the next [`show`].
    pub queued: Vec<Request>,
    /// Rectangles of the main widgets from the last frame, by name (`tool:Select`, `play`,
    /// `agent:0` …), for headless tests and window scripts, in egui points: multiply by
    /// [`UiState::pixels_per_point`] for the screen's pixels.
    pub widget_rects: BTreeMap<String, egui::Rect>,
    /// Screen pixels per egui point in the last frame (the UI scale times the display's own).
    pub pixels_per_point: f32,
    after_save: Option<Request>,
    awaiting_save: bool,
}

impl Default for UiState {
    fn default() -> Self {
        UiState {
            panels: Panels::default(),
            help_open: false,
            metrics_sort: None,
            metrics_cache: metrics::MetricsCache::default(),
            recent: Vec::new(),
            ui_scale: 1.0,
            ui_scale_dragged: None,
            frame_time_ms: 0.0,
            status_clock: String::new(),
            recovery_available: false,
            default_dir: PathBuf::from("."),
            home_dir: PathBuf::from("."),
            last_save_dir: None,
            file_dialog: None,
            confirm: None,
            expr_editor: None,
            copies: copies::CopiesForm::default(),
            queued: Vec::new(),
            widget_rects: BTreeMap::new(),
            pixels_per_point: 1.0,
            after_save: None,
            awaiting_save: false,
        }
    }
}

impl UiState {
    /// Takes a shell command from the keyboard or a dropped file ([`Command::is_shell`]); a
    /// file command is handled at the next [`show`] (asking about unsaved changes, opening the
    /// file dialog). Other commands are the app's and are ignored here.
    pub fn queue(&mut self, command: Command) {
        match command {
            Command::File(request) => self.queued.push(request),
            Command::ToggleHelp => self.help_open = !self.help_open,
            _ => {}
        }
    }

    /// Whether a modal dialog (file dialog, unsaved changes, recovery) is open: it takes every key.
    pub fn modal_open(&self) -> bool {
        self.file_dialog.is_some() || self.confirm.is_some() || self.recovery_available
    }

    /// Records a successful save to `path` (Save As starts in its folder next time).
    pub fn note_saved(&mut self, path: &std::path::Path) {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            self.last_save_dir = Some(dir.to_path_buf());
        }
        self.note_recent(path.to_path_buf());
    }

    /// The window's close button was pressed: quit, after asking about unsaved changes.
    pub fn request_quit(&mut self) {
        self.queued.push(Request::Quit);
    }

    /// Puts `path` first in the recent files list (after a successful open or save).
    pub fn note_recent(&mut self, path: PathBuf) {
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
    }

    /// Handles a request now: asks first when it would discard unsaved changes.
    pub fn request(&mut self, request: Request, app: &App, out: &mut UiOutput) {
        if request.discards_scene() && app.dirty {
            self.confirm = Some(request);
        } else {
            self.perform(request, app, out);
        }
    }

    /// Carries a request out without asking.
    fn perform(&mut self, request: Request, app: &App, out: &mut UiOutput) {
        match request {
            Request::New => out.commands.push(Command::NewScene),
            Request::OpenDialog => {
                self.file_dialog = Some(FileDialog::new(FileDialogMode::Open, self.start_dir(app), ""));
            }
            Request::OpenPath(path) => out.shell(ShellCommand::Load(path)),
            Request::OpenExample(name) => out.shell(ShellCommand::LoadExample(name)),
            Request::Save => match &app.file {
                Some(file) => {
                    out.shell(ShellCommand::WriteScene(file.clone()));
                    self.awaiting_save = true;
                }
                None => self.open_save_dialog(app),
            },
            Request::SaveAs => self.open_save_dialog(app),
            Request::Revert => {
                // Only a scene with a file can be reverted (the menu entry is greyed out otherwise).
                if let Some(file) = &app.file {
                    out.shell(ShellCommand::Load(file.clone()));
                }
            }
            Request::ExportCsv => {
                let name = app.file.as_ref().and_then(|f| f.file_stem()).map_or_else(
                    || "metrics.csv".to_string(),
                    |stem| format!("{}-metrics.csv", stem.to_string_lossy()),
                );
                self.file_dialog =
                    Some(FileDialog::new(FileDialogMode::ExportCsv, self.save_dir(app), &name));
            }
            Request::Quit => out.shell(ShellCommand::Exit),
            // Pictures are the shell's: it reads the frame buffer after drawing.
            Request::Screenshot | Request::ToggleRecording => out.commands.push(Command::File(request)),
        }
    }

    fn open_save_dialog(&mut self, app: &App) {
        let name = app
            .file
            .as_ref()
            .and_then(|f| f.file_name())
            .map(|n| n.to_string_lossy().to_string())
            .or_else(|| app.example.clone())
            .unwrap_or_else(|| "scene.json".to_string());
        self.file_dialog = Some(
            FileDialog::new(FileDialogMode::Save, self.save_dir(app), &name)
                .protecting(self.default_dir.clone()),
        );
    }

    fn file_dir(app: &App) -> Option<PathBuf> {
        app.file
            .as_ref()
            .and_then(|f| f.parent())
            .filter(|p| !p.as_os_str().is_empty())
            .map(|p| p.to_path_buf())
    }

    /// Where Open starts: the scene's folder, else the last folder saved to, else the examples.
    fn start_dir(&self, app: &App) -> PathBuf {
        Self::file_dir(app).or_else(|| self.last_save_dir.clone()).unwrap_or_else(|| self.default_dir.clone())
    }

    /// Where Save As (and Export) start: the scene's folder, else the last folder saved to, else
    /// home — never the shipped examples.
    pub fn save_dir(&self, app: &App) -> PathBuf {
        Self::file_dir(app).or_else(|| self.last_save_dir.clone()).unwrap_or_else(|| self.home_dir.clone())
    }

    /// The answer to "Discard unsaved changes?".
    pub fn answer_confirm(&mut self, answer: dialogs::ConfirmAnswer, app: &App, out: &mut UiOutput) {
        let Some(request) = self.confirm.take() else { return };
        match answer {
            dialogs::ConfirmAnswer::Save => {
                self.after_save = Some(request);
                self.perform(Request::Save, app, out);
            }
            dialogs::ConfirmAnswer::Discard => self.perform(request, app, out),
            dialogs::ConfirmAnswer::Cancel => {}
        }
    }

    /// Runs a request that waited for a save once the save went through (the scene is no
    /// longer dirty); forgets it when the save failed or was cancelled.
    fn continue_after_save(&mut self, app: &App, out: &mut UiOutput) {
        if self.after_save.is_none() {
            self.awaiting_save = false;
            return;
        }
        let saving_in_dialog = self.file_dialog.as_ref().is_some_and(|d| d.mode == FileDialogMode::Save);
        if saving_in_dialog {
            return;
        }
        if self.awaiting_save {
            // The shell saved (or failed to) between the frames.
            self.awaiting_save = false;
            if let Some(request) = self.after_save.take() {
                if !app.dirty {
                    self.perform(request, app, out);
                }
            }
        } else {
            // The save dialog was cancelled.
            self.after_save = None;
        }
    }

    /// Records the screen rectangle of a named widget.
    pub fn record_rect(&mut self, name: impl Into<String>, rect: egui::Rect) {
        self.widget_rects.insert(name.into(), rect);
    }
}

/// What the panels ask for this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiOutput {
    /// Commands, in order: for [`App::apply`] (the panels' edits, the toolbar's choices, the
    /// display toggles, dismissing the status line) and, as [`Command::Shell`], for the shell
    /// (files chosen in the dialogs, the recovery answer, closing the window).
    pub commands: Vec<Command>,
}

impl UiOutput {
    /// Adds another pass's output to this one (its commands after these).
    pub fn merge(&mut self, other: UiOutput) {
        self.commands.extend(other.commands);
    }

    /// Whether nothing was asked for.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Appends a shell command.
    pub fn shell(&mut self, command: ShellCommand) {
        self.commands.push(Command::Shell(command));
    }

    /// The shell commands, in order.
    pub fn shell_commands(&self) -> impl Iterator<Item = &ShellCommand> {
        self.commands.iter().filter_map(|c| match c {
            Command::Shell(s) => Some(s),
            _ => None,
        })
    }

    /// The last shell command `pick` takes (later ones replace earlier ones, as the shell
    /// carries them out in order).
    fn last<T>(&self, pick: impl Fn(&ShellCommand) -> Option<T>) -> Option<T> {
        self.shell_commands().filter_map(pick).last()
    }

    /// The last scene file asked to load, if any (a later load replaces an earlier one).
    pub fn open_path(&self) -> Option<PathBuf> {
        self.last(|c| match c {
            ShellCommand::Load(path) => Some(path.clone()),
            _ => None,
        })
    }

    /// The last example asked to load, if any.
    pub fn open_example(&self) -> Option<String> {
        self.last(|c| match c {
            ShellCommand::LoadExample(name) => Some(name.clone()),
            _ => None,
        })
    }

    /// The last file the scene is to be saved to, if any.
    pub fn save_path(&self) -> Option<PathBuf> {
        self.last(|c| match c {
            ShellCommand::WriteScene(path) => Some(path.clone()),
            _ => None,
        })
    }

    /// The last metrics CSV to write (file, text), if any.
    pub fn export_csv(&self) -> Option<(PathBuf, String)> {
        self.last(|c| match c {
            ShellCommand::WriteCsv(path, text) => Some((path.clone(), text.clone())),
            _ => None,
        })
    }

    /// The answer to the recovery prompt, if given.
    pub fn recovery(&self) -> Option<RecoveryChoice> {
        self.last(|c| match c {
            ShellCommand::Recover(choice) => Some(*choice),
            _ => None,
        })
    }

    /// Whether the window is to close.
    pub fn quit(&self) -> bool {
        self.shell_commands().any(|c| *c == ShellCommand::Exit)
    }
}

/// Points a panel scrolls for one notch of the mouse wheel (egui's own choice for a line on
/// native platforms).
pub const SCROLL_POINTS_PER_NOTCH: f32 = 40.0;

/// What the platform's miniquad reports for one wheel notch: 1 on X11 (Linux), 120 (a notch
/// in Windows' units) elsewhere.
pub const RAW_WHEEL_NOTCH: f32 = if cfg!(target_os = "linux") { 1.0 } else { 120.0 };

/// The shell's egui bridge (version 0.17, see Cargo.toml) hands egui the raw wheel delta divided
/// by 90, as lines (`MouseWheelUnit::Line`); egui scrolls `line_scroll_speed` points a line.
pub const EGUI_BRIDGE_WHEEL_DIVISOR: f32 = 90.0;

/// egui's `line_scroll_speed` that makes one wheel notch scroll [`SCROLL_POINTS_PER_NOTCH`].
/// egui's default (40) gave 40/90 of a point a notch on X11: found by an audit in a real
/// window (20 notches moved the Open dialog's list 11 px).
pub const LINE_SCROLL_SPEED: f32 = SCROLL_POINTS_PER_NOTCH * EGUI_BRIDGE_WHEEL_DIVISOR / RAW_WHEEL_NOTCH;

/// A character the window system reported as typed (the shell feeds them to the panels' text
/// fields through egui, then corrects what egui received with these: see
/// [`drop_chord_text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedChar {
    /// The character.
    pub character: char,
    /// Ctrl, Alt or the logo (Cmd) key was held: a chord, which must type nothing (miniquad on
    /// X11 reports Ctrl+C as the character 'c' as well as the key press).
    pub chord: bool,
    /// egui received it as a `Text` event (egui-miniquad passes printable characters unless the
    /// modifiers of the last key event it saw held Ctrl or Cmd; the chord's own key press comes
    /// after its character, so a chord's first letter gets through).
    pub reached_egui: bool,
}

/// Takes the letters of Ctrl, Alt and Cmd chords out of this frame's egui events, so a chord
/// never types into a text field. On X11 miniquad reports Ctrl+C as the character 'c' before
/// the key press, and egui-miniquad checks the character against the modifiers of the key event
/// before it (Ctrl itself, pressed without modifiers), so the letter gets through beside egui's
/// Copy, Paste or select-all.
///
/// `typed` are the characters the window system reported this frame, in order (the shell reads
/// them from the window's event queue with their modifiers). The ones that reached egui arrived as one-character
/// `Text` events in the same order; a pasted text (egui adds one for Ctrl+V, after the 'v') is
/// another `Text` event in between, passed over. Call once a frame, before the panels run.
pub fn drop_chord_text(events: &mut Vec<egui::Event>, typed: &[TypedChar]) {
    let mut cursor = 0;
    let mut doomed = Vec::new();
    for typed_char in typed.iter().filter(|t| t.reached_egui) {
        let mut buffer = [0u8; 4];
        let text: &str = typed_char.character.encode_utf8(&mut buffer);
        let found = events
            .iter()
            .skip(cursor)
            .position(|event| matches!(event, egui::Event::Text(t) if t == text))
            .map(|offset| cursor + offset);
        let Some(index) = found else { break };
        if typed_char.chord {
            doomed.push(index);
        }
        cursor = index + 1;
    }
    for index in doomed.into_iter().rev() {
        events.remove(index);
    }
}

/// Whether a text field has the keyboard: a focused `TextEdit`, or a `DragValue` being typed
/// into (the shell reads it after the panels ran, for [`crate::app::Focus::of`]).
pub fn text_field_focused(ctx: &egui::Context) -> bool {
    ctx.memory(|m| m.focused()).is_some_and(|id| egui::text_edit::TextEditState::load(ctx, id).is_some())
}

/// Whether a menu, combo box, colour picker or other popup is open, or was at the end of the last
/// frame (so the Esc that closes one does not also reach the world). egui 0.31 keeps a combo
/// box's or a colour picker's popup in `Memory::any_popup_open`, but a menu only in its bar's
/// own state; every popup and menu is shown in an area of `Order::Foreground`, which the panels
/// never use otherwise (the loading dialog's `Modal` is one too, and is modal anyway).
pub fn popup_open(ctx: &egui::Context) -> bool {
    ctx.memory(|m| {
        m.any_popup_open()
            || m.areas().visible_layer_ids().iter().any(|layer| layer.order == egui::Order::Foreground)
    })
}

/// Draws every panel for one frame and returns what the user asked for.
///
/// `examples` lists the bundled scenes as (file name, description); the description is the
/// menu item's tooltip. Call inside the egui closure; see the module docs for what the shell
/// does with the output.
pub fn show(ctx: &egui::Context, app: &App, state: &mut UiState, examples: &[(String, String)]) -> UiOutput {
    let mut out = UiOutput::default();
    let scale = preferences::clamp_ui_scale(state.ui_scale);
    if (ctx.zoom_factor() - scale).abs() > 1e-3 {
        ctx.set_zoom_factor(scale);
    }
    if ctx.options(|o| o.line_scroll_speed) != LINE_SCROLL_SPEED {
        ctx.options_mut(|o| o.line_scroll_speed = LINE_SCROLL_SPEED);
    }

    state.widget_rects.clear();
    state.pixels_per_point = ctx.pixels_per_point();
    let confirm_was_open = state.confirm.is_some();
    state.continue_after_save(app, &mut out);
    for request in std::mem::take(&mut state.queued) {
        state.request(request, app, &mut out);
    }

    // While a dialog is open (a file dialog, a question), it alone takes clicks: the panels and
    // windows behind it are greyed and inert, as the world behind it is (`tools::handle_input`).
    let modal = state.modal_open();
    egui::TopBottomPanel::top("steerlab_toolbar").show(ctx, |ui| {
        if modal {
            ui.disable();
        }
        toolbar::toolbar(ui, app, state, examples, &mut out);
    });
    let status_panel = egui::TopBottomPanel::bottom("steerlab_status").show(ctx, |ui| {
        if modal {
            ui.disable();
        }
        let status = status::status_bar(ui, app, state);
        if status.dismiss_message {
            out.commands.push(Command::DismissMessage);
        }
        if let Some(message) = app.message.as_ref().filter(|_| status.copy_message) {
            ctx.copy_text(message.text.clone());
        }
    });
    state.record_rect("status_bar", status_panel.response.rect);
    let between_bars = ctx.available_rect();
    if state.panels.metrics {
        let mut spare = 0.0;
        let metrics_panel = egui::TopBottomPanel::bottom("steerlab_metrics")
            .resizable(false)
            .exact_height(metrics::panel_height(ctx, app.world.agents.len(), state.metrics_cache.fit))
            .show(ctx, |ui| {
                if modal {
                    ui.disable();
                }
                let copy = metrics::metrics_panel(ui, app, state);
                spare = copy.spare;
                if let Some(selection) = copy.select {
                    out.commands.push(Command::Select(Some(selection)));
                }
                if copy.copy_csv {
                    ctx.copy_text(metrics_csv(&app.metrics()));
                }
                if copy.export_csv {
                    state.request(Request::ExportCsv, app, &mut out);
                }
            });
        state.record_rect("metrics_panel", metrics_panel.response.rect);
        let height = metrics_panel.response.rect.height() - spare;
        state.metrics_cache.fit = Some(metrics::PanelFit { agents: app.world.agents.len(), height });
    }
    if state.panels.scene {
        let panel =
            egui::SidePanel::left("steerlab_scene").resizable(true).default_width(340.0).show(ctx, |ui| {
                if modal {
                    ui.disable();
                }
                ui.spacing_mut().slider_width = 100.0;
                egui::ScrollArea::vertical().show(ui, |ui| {
                    out.commands.extend(agents::agents_list(ui, app, state));
                    ui.separator();
                    out.commands.extend(inspector::inspector(ui, app, state));
                });
            });
        state.record_rect("scene_panel", panel.response.rect);
    }
    if let Some(debug) = &app.planner_debug {
        // A side panel rather than a window: the world view shrinks beside it, so the panel never
        // hides the iteration it explains.
        let name = app.world.agents.get(debug.agent).map_or("?", |a| a.about.name.as_str());
        let panel = egui::SidePanel::right("steerlab_step_through")
            .resizable(true)
            .default_width(330.0)
            .show(ctx, |ui| {
                if modal {
                    ui.disable();
                }
                ui.horizontal(|ui| {
                    ui.heading("Planner step-through");
                    let close = ui.small_button("✖").on_hover_text("Leave the step-through");
                    state.widget_rects.insert("step:x".to_string(), close.rect);
                    if close.clicked() {
                        out.commands.push(Command::ClosePlannerDebug);
                    }
                });
                egui::ScrollArea::vertical().show(ui, |ui| {
                    out.commands.extend(step_through::step_through_panel(
                        ui,
                        debug,
                        name,
                        &mut state.widget_rects,
                    ));
                });
            });
        state.record_rect("step_panel", panel.response.rect);
    }
    if state.panels.display {
        display_window(ctx, app, state, between_bars, &mut out);
    }
    if state.panels.plots {
        plots_window(ctx, app, state, between_bars);
    }
    toolbar::tool_options_area(ctx, app, state, &mut out);
    if state.help_open {
        let mut open = true;
        // Between the bars and never wider or taller than that band: the descriptions wrap and
        // the contents scroll. (Centred on the whole window with no width limit, at UI scale 2
        // its key column lay off the window's left edge and its bottom over the status bar.)
        let overhead = window_frame_overhead(ctx);
        let max_size =
            (between_bars.size() - overhead - egui::vec2(16.0, 16.0)).max(egui::vec2(120.0, 120.0));
        let window = egui::Window::new("Help — keys and mouse")
            .open(&mut open)
            .enabled(!modal)
            .default_width(720.0_f32.min(max_size.x))
            .max_width(max_size.x)
            .max_height(max_size.y)
            .constrain_to(between_bars)
            .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 8.0))
            .show(ctx, |ui| {
                help::help_panel(ui);
            });
        if let Some(window) = window {
            state.record_rect("help", window.response.rect);
        }
        state.help_open = open;
    }
    if let Some(mut dialog) = state.file_dialog.take() {
        match file_dialog::file_dialog_window(ctx, &mut dialog, &mut state.widget_rects) {
            Some(file_dialog::FileDialogResult::Chosen(path)) => match dialog.mode {
                FileDialogMode::Open => state.request(Request::OpenPath(path), app, &mut out),
                FileDialogMode::Save => {
                    out.shell(ShellCommand::WriteScene(path));
                    state.awaiting_save = true;
                }
                FileDialogMode::ExportCsv => {
                    out.shell(ShellCommand::WriteCsv(path, metrics_csv(&app.metrics())));
                }
            },
            Some(file_dialog::FileDialogResult::Cancelled) => {}
            None => state.file_dialog = Some(dialog),
        }
    }
    if state.confirm.is_some() {
        if let Some(answer) = dialogs::confirm_window(ctx, app, &mut state.widget_rects, confirm_was_open) {
            state.answer_confirm(answer, app, &mut out);
        }
    }
    if state.recovery_available {
        if let Some(choice) = dialogs::recovery_window(ctx, &mut state.widget_rects) {
            state.recovery_available = false;
            out.shell(ShellCommand::Recover(choice));
        }
    }
    out
}

/// egui's colour of an agent colour.
pub fn color32(rgb: Rgb) -> egui::Color32 {
    egui::Color32::from_rgb(rgb.0, rgb.1, rgb.2)
}

/// A one-line field's text with pasted line breaks removed (nothing else is filtered).
pub fn one_line(text: &str) -> String {
    text.chars().filter(|c| *c != '\n' && *c != '\r').collect()
}

/// Removes line breaks from a one-line field's buffer in place; true if it changed.
pub(crate) fn trim_line_breaks(text: &mut String) -> bool {
    if text.contains(['\n', '\r']) {
        *text = one_line(text);
        true
    } else {
        false
    }
}

/// The red used for errors.
pub const ERROR_RED: egui::Color32 = egui::Color32::from_rgb(0xe0, 0x40, 0x40);

/// What an egui window adds around its contents, which `max_size` does not count: the title bar
/// (the heading font's row, at least a button's height), the title's and the contents' margins,
/// and the frame's stroke, plus a point of rounding.
fn window_frame_overhead(ctx: &egui::Context) -> egui::Vec2 {
    let style = ctx.style();
    let heading = egui::TextStyle::Heading.resolve(&style);
    let title = ctx.fonts(|fonts| fonts.row_height(&heading)).max(style.spacing.interact_size.y);
    let margins = style.spacing.window_margin.sum();
    let stroke = 2.0 * style.visuals.window_stroke.width + 1.0;
    egui::vec2(margins.x + stroke, title + 2.0 * margins.y + stroke)
}

/// The smallest free area (points) the Plots window is kept in; with less, it is kept between
/// the toolbar and the status bar.
pub const PLOTS_MIN_FREE: egui::Vec2 = egui::vec2(240.0, 200.0);

/// Where the Plots and Display windows are kept: the `free` area (the world view between the panels) when it
/// is at least [`PLOTS_MIN_FREE`], else the band `between_bars`.
pub fn plots_bounds(free: egui::Rect, between_bars: egui::Rect) -> egui::Rect {
    if free.width() >= PLOTS_MIN_FREE.x && free.height() >= PLOTS_MIN_FREE.y {
        free
    } else {
        between_bars
    }
}

/// The Display window, at the top right of the same bounds as the Plots window (the world view,
/// or between the bars when the view is too small): anchored to the whole window, it used to
/// cover the toolbar's Compare, Snap and Help buttons. Its checkboxes scroll when the bounds are
/// shorter than they are. Call after every panel is laid out.
fn display_window(
    ctx: &egui::Context,
    app: &App,
    state: &mut UiState,
    between_bars: egui::Rect,
    out: &mut UiOutput,
) {
    let bounds = plots_bounds(ctx.available_rect(), between_bars);
    let max_height = (bounds.height() - window_frame_overhead(ctx).y - 16.0).max(32.0);
    let mut open = true;
    let window = egui::Window::new("Display")
        .open(&mut open)
        .enabled(!state.modal_open())
        .resizable(false)
        .constrain_to(bounds)
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 8.0))
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().max_height(max_height).min_scrolled_height(0.0).show(ui, |ui| {
                out.commands.extend(
                    display::display_panel(ui, &app.display, &mut state.widget_rects)
                        .map(Command::SetDisplay),
                );
            });
        });
    if let Some(window) = window {
        state.record_rect("display", window.response.rect);
    }
    state.panels.display = open;
}

/// The Plots window, kept inside the free area (the world view between the panels) and never
/// larger than it: at a large UI scale in a small window it used to cover the whole view, its
/// title bar out of reach. Where the panels leave too little of the view for plots (UI scale 3
/// in a 1280×800 window leaves 18 points), it is kept between the toolbar and the status bar
/// instead, over the panels. Call after every panel is laid out.
fn plots_window(ctx: &egui::Context, app: &App, state: &mut UiState, between_bars: egui::Rect) {
    let free = ctx.available_rect();
    let bounds = plots_bounds(free, between_bars);
    let size = egui::vec2(420.0_f32.min(bounds.width() * 0.6), 360.0_f32.min(bounds.height() * 0.6));
    // Left of the Display window (anchored at the top right) when there is room.
    let x = (bounds.right() - 680.0).max(bounds.left() + 8.0).min(bounds.right() - size.x);
    let mut open = true;
    let window = egui::Window::new("Plots")
        .open(&mut open)
        .enabled(!state.modal_open())
        .constrain_to(bounds)
        .max_size((bounds.size() - window_frame_overhead(ctx)).max(egui::vec2(64.0, 32.0)))
        .default_size(size)
        .default_pos(egui::pos2(x, bounds.top() + 8.0))
        .show(ctx, |ui| {
            // Too little room for both plots at their smallest: they scroll. (The window's own
            // scrolling keeps 64 points of contents, more than UI scale 3 leaves in 1280×800.)
            egui::ScrollArea::vertical().min_scrolled_height(0.0).show(ui, |ui| {
                plots::plots_panel(ui, app);
            });
        });
    if let Some(window) = window {
        state.record_rect("plots", window.response.rect);
    }
    state.panels.plots = open;
}

/// "refused: REASON" in red, wrapped to the width it is given: a refusal shown in a grid or a
/// row never widens its column or the panel (a resizable panel keeps a width its content
/// once took, so one long reason used to push the world view aside for good).
pub fn refusal_label(reason: &str) -> egui::Label {
    egui::Label::new(egui::RichText::new(format!("refused: {reason}")).color(ERROR_RED)).wrap()
}
