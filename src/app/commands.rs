//! The one table of commands: every keyboard command of the editor with its name, its keys, the
//! menu that offers it and when it is allowed. Hotkeys ([`resolve`]), the menus' shortcut labels
//! ([`shortcut`]), the help overlay and the README's key table ([`readme_tables`], checked by a
//! test) are all read from [`COMMANDS`], so a key is declared once.
//!
//! Modality is decided here and nowhere else: keys reach the table only while the world has the
//! keyboard ([`Focus::World`]). A text field, a focused widget, an open menu, combo box or other
//! popup, or an open modal dialog keeps every key for itself (the dialog owns Enter and Esc). The
//! shell asks the panels what is open once per frame and [`Focus::of`] decides.

use std::path::PathBuf;

use super::tools::{Key, Tool};
use super::{App, Command};

/// Who has the keyboard this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Focus {
    /// Nothing in the panels wants keys: hotkeys act on the world.
    #[default]
    World,
    /// A text field (or a number being typed) has focus: keys type into it.
    TextField,
    /// A menu, combo box, colour picker or other popup is open: keys go to it (its arrows,
    /// Enter and Esc), never to the world behind it, where they would act unseen.
    Popup,
    /// A modal dialog is open (file dialog, unsaved changes, recovery): it takes every key,
    /// Enter confirms and Esc cancels.
    Modal,
}

impl Focus {
    /// Who has the keyboard: a modal dialog (or a scene loading) first, then a text field (one
    /// focused now or at the end of the last frame: the panels move focus on Tab before they
    /// run, and the Tab still belongs to the field), then an open popup, else the world.
    pub fn of(modal: bool, text_field: bool, popup: bool) -> Focus {
        if modal {
            Focus::Modal
        } else if text_field {
            Focus::TextField
        } else if popup {
            Focus::Popup
        } else {
            Focus::World
        }
    }
}

/// File and window commands: carried out by the shell's UI, which asks about unsaved changes
/// and shows the file dialog first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileCommand {
    /// Replace the scene with an empty one.
    New,
    /// Show the file dialog to open a scene.
    OpenDialog,
    /// Open this file (Recent, drag and drop, the file dialog).
    OpenPath(PathBuf),
    /// Open the example with this file name (from the `examples` list) as an untitled copy.
    OpenExample(String),
    /// Save to the current file, or ask for one.
    Save,
    /// Ask for a file and save.
    SaveAs,
    /// Reload the scene's file, dropping unsaved changes (after asking).
    Revert,
    /// Ask for a file and write the metrics CSV.
    ExportCsv,
    /// Save a PNG of the window to the pictures folder.
    Screenshot,
    /// Start or stop recording the window as a PNG sequence.
    ToggleRecording,
    /// Leave the program.
    Quit,
}

impl FileCommand {
    /// Whether this command throws the current scene away (and so asks first when it is dirty).
    /// Opening through the dialog asks once the file is chosen, not before.
    pub fn discards_scene(&self) -> bool {
        matches!(
            self,
            FileCommand::New
                | FileCommand::OpenPath(_)
                | FileCommand::OpenExample(_)
                | FileCommand::Revert
                | FileCommand::Quit
        )
    }
}

/// The answer to the autosave recovery prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryChoice {
    /// Load the autosaved scene.
    Restore,
    /// Delete the autosave and carry on.
    Discard,
}

/// What a [`FileCommand`] comes to once every question is answered (unsaved changes confirmed, a
/// file chosen in the dialog): the shell carries it out at once, without asking again. The
/// panels return these as [`Command::Shell`] values, like every other command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShellCommand {
    /// Load this scene file (on a worker thread; the open scene stays until it arrives).
    Load(PathBuf),
    /// Load the example with this file name from `scenes/`, as an untitled copy.
    LoadExample(String),
    /// Save the scene to this file (atomically), then mark it saved.
    WriteScene(PathBuf),
    /// Write this metrics CSV text to this file (atomically).
    WriteCsv(PathBuf, String),
    /// The answer to the autosave recovery prompt.
    Recover(RecoveryChoice),
    /// Close the window.
    Exit,
}

/// A key with its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chord {
    /// The key.
    pub key: Key,
    /// Ctrl held.
    pub ctrl: bool,
    /// Shift held (a chord without shift also fires with shift held, unless a shifted chord of
    /// the same key matches first).
    pub shift: bool,
}

const fn plain(key: Key) -> Chord {
    Chord { key, ctrl: false, shift: false }
}
const fn ctrl(key: Key) -> Chord {
    Chord { key, ctrl: true, shift: false }
}
const fn ctrl_shift(key: Key) -> Chord {
    Chord { key, ctrl: true, shift: true }
}
const fn shifted(key: Key) -> Chord {
    Chord { key, ctrl: false, shift: true }
}

impl Chord {
    /// How the chord is written in menus, the help and the README.
    pub fn label(self) -> String {
        let key = match self.key {
            Key::Space => "Space".to_string(),
            Key::Right => "→".to_string(),
            Key::Period => ".".to_string(),
            Key::Left => "←".to_string(),
            Key::Comma => ",".to_string(),
            Key::Home => "Home".to_string(),
            Key::End => "End".to_string(),
            Key::Delete => "Delete".to_string(),
            Key::Backspace => "Backspace".to_string(),
            Key::Escape => "Esc".to_string(),
            Key::Enter => "Enter".to_string(),
            Key::Tab => "Tab".to_string(),
            Key::F1 => "F1".to_string(),
            Key::Slash if self.shift && !self.ctrl => return "?".to_string(),
            Key::Slash => "/".to_string(),
            Key::LeftBracket => "[".to_string(),
            Key::RightBracket => "]".to_string(),
            Key::Letter(c) => c.to_string(),
            Key::Digit(d) => d.to_string(),
        };
        let mut label = String::new();
        if self.ctrl {
            label.push_str("Ctrl+");
        }
        if self.shift {
            label.push_str("Shift+");
        }
        label + &key
    }
}

/// What a command does when its key is pressed (turned into a [`Command`] by [`CommandId::command`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommandId {
    /// Pick a tool.
    Tool(Tool),
    /// Play or pause.
    TogglePlay,
    /// One fixed step.
    Step,
    /// One step back along the recorded run.
    StepBack,
    /// Back to the start.
    Reset,
    /// Halve the time scale (to the next round value).
    Slower,
    /// Double the time scale (to the next round value).
    Faster,
    /// Frame the scene.
    FitView,
    /// 2D ↔ 3D.
    ToggleView,
    /// Follow camera on/off.
    Follow,
    /// Select the next agent.
    NextAgent,
    /// Select the previous agent.
    PreviousAgent,
    /// Delete the selection.
    Delete,
    /// Copy the selection.
    Copy,
    /// Paste the clipboard.
    Paste,
    /// Duplicate the selection.
    Duplicate,
    /// Select everything.
    SelectAll,
    /// Grid snapping on/off.
    ToggleSnap,
    /// Finish the path or spline being drawn.
    FinishDrawing,
    /// Esc outside drawing: back to the Select tool.
    SelectTool,
    /// Path tool: the next click starts a new path.
    NewPath,
    /// Clone the selected agent per comparable behaviour.
    Compare,
    /// Undo.
    Undo,
    /// Redo.
    Redo,
    /// File ▸ New.
    New,
    /// File ▸ Open.
    Open,
    /// File ▸ Save.
    Save,
    /// File ▸ Save As.
    SaveAs,
    /// File ▸ Revert to saved.
    Revert,
    /// File ▸ Screenshot.
    Screenshot,
    /// File ▸ Record (start / stop).
    Record,
    /// Help overlay.
    Help,
    /// Step-through: next iteration.
    StepNext,
    /// Step-through: previous iteration.
    StepPrevious,
    /// Step-through: first iteration.
    StepFirst,
    /// Step-through: last iteration.
    StepLast,
    /// Step-through: close it.
    StepClose,
}

/// When a command is allowed (besides the world having the keyboard).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// The planner step-through is open.
    StepThrough,
    /// A path or spline is being drawn.
    Drawing,
    /// The Path tool is active.
    PathTool,
    /// Something is selected.
    Selection,
    /// An agent is selected.
    AgentSelected,
    /// The clipboard holds a copy.
    Clipboard,
    /// There is something to undo.
    CanUndo,
    /// There is something to redo.
    CanRedo,
    /// The scene has a file and unsaved changes.
    CanRevert,
}

impl When {
    /// Whether the condition holds for `app`.
    pub fn holds(self, app: &App) -> bool {
        match self {
            When::Always => true,
            When::StepThrough => app.planner_debug.is_some(),
            When::Drawing => app.is_drawing(),
            When::PathTool => app.tool == Tool::Path,
            When::Selection => app.selection.is_some(),
            When::AgentSelected => app.selected_agent().is_some(),
            When::Clipboard => app.clipboard.is_some(),
            When::CanUndo => app.can_undo(),
            When::CanRedo => app.can_redo(),
            When::CanRevert => app.file.is_some() && app.dirty,
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    /// What it is.
    pub id: CommandId,
    /// Its name in menus and buttons.
    pub name: &'static str,
    /// What it does, for the help overlay and the README.
    pub help: &'static str,
    /// Its keys; the first is the one menus show.
    pub keys: &'static [Chord],
    /// The menu that offers it, if any.
    pub menu: Option<&'static str>,
    /// When it is allowed.
    pub when: When,
}

macro_rules! tool_row {
    ($tool:expr, $name:literal, $digit:literal, $letter:literal) => {
        CommandSpec {
            id: CommandId::Tool($tool),
            name: $name,
            help: concat!("the ", $name, " tool"),
            keys: &[plain(Key::Digit($digit)), plain(Key::Letter($letter))],
            menu: None,
            when: When::Always,
        }
    };
}

/// Every keyboard command. Order matters where keys are shared: the first allowed row wins
/// (the step-through's arrows before Step, finishing a drawing before Esc's Select tool).
pub const COMMANDS: &[CommandSpec] = &[
    tool_row!(Tool::Select, "Select", 1, 'S'),
    tool_row!(Tool::Path, "Path", 2, 'P'),
    tool_row!(Tool::Obstacle, "Obstacle", 3, 'O'),
    tool_row!(Tool::Target, "Target", 4, 'T'),
    tool_row!(Tool::Agent, "Agent", 5, 'A'),
    tool_row!(Tool::Curve, "Curve", 6, 'C'),
    tool_row!(Tool::Paint, "Paint", 7, 'B'),
    CommandSpec {
        id: CommandId::StepNext,
        name: "Next iteration",
        help: "step-through open: next iteration",
        keys: &[plain(Key::Right), plain(Key::Period)],
        menu: None,
        when: When::StepThrough,
    },
    CommandSpec {
        id: CommandId::StepPrevious,
        name: "Previous iteration",
        help: "step-through open: previous iteration",
        keys: &[plain(Key::Left), plain(Key::Comma)],
        menu: None,
        when: When::StepThrough,
    },
    CommandSpec {
        id: CommandId::StepFirst,
        name: "First iteration",
        help: "step-through open: first iteration",
        keys: &[plain(Key::Home)],
        menu: None,
        when: When::StepThrough,
    },
    CommandSpec {
        id: CommandId::StepLast,
        name: "Last iteration",
        help: "step-through open: last iteration",
        keys: &[plain(Key::End)],
        menu: None,
        when: When::StepThrough,
    },
    CommandSpec {
        id: CommandId::StepClose,
        name: "Close the step-through",
        help: "step-through open: close it",
        keys: &[plain(Key::Escape)],
        menu: None,
        when: When::StepThrough,
    },
    CommandSpec {
        id: CommandId::TogglePlay,
        name: "Play / Pause",
        help: "play or pause",
        keys: &[plain(Key::Space)],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Step,
        name: "Step",
        help: "run one fixed step (pauses)",
        keys: &[plain(Key::Right), plain(Key::Period)],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::StepBack,
        name: "Step back",
        help: "one step back along the recorded run (pauses; the timeline slider scrubs it)",
        keys: &[plain(Key::Left), plain(Key::Comma)],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Reset,
        name: "Reset",
        help: "back to the scene's start",
        keys: &[plain(Key::Letter('R'))],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Slower,
        name: "Slower",
        help: "time scale down one round step (0.1, 0.25, 0.5, 1, 2, 4, 8)",
        keys: &[plain(Key::LeftBracket)],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Faster,
        name: "Faster",
        help: "time scale up one round step",
        keys: &[plain(Key::RightBracket)],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::FitView,
        name: "Fit",
        help: "frame the whole scene",
        keys: &[plain(Key::Letter('F'))],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::ToggleView,
        name: "3D",
        help: "switch between the top view and the 3D view",
        keys: &[plain(Key::Tab)],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Follow,
        name: "Follow",
        help: "the camera follows the selected agent (again: stop)",
        keys: &[plain(Key::Letter('L'))],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::NextAgent,
        name: "Next agent",
        help: "select the next agent (wraps around)",
        keys: &[plain(Key::Letter('G'))],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::PreviousAgent,
        name: "Previous agent",
        help: "select the previous agent",
        keys: &[shifted(Key::Letter('G'))],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Delete,
        name: "Delete selection",
        help: "delete the selection (and agents that depend on it)",
        keys: &[plain(Key::Delete), plain(Key::Backspace)],
        menu: Some("Edit"),
        when: When::Selection,
    },
    CommandSpec {
        id: CommandId::Copy,
        name: "Copy",
        help: "copy the selection (agents with their behaviours, paths, curves, targets, obstacles)",
        keys: &[ctrl(Key::Letter('C'))],
        menu: Some("Edit"),
        when: When::Selection,
    },
    CommandSpec {
        id: CommandId::Paste,
        name: "Paste",
        help: "paste the copy: under the mouse over the view, else beside the copy (each paste a step further); names and colours made unique",
        keys: &[ctrl(Key::Letter('V'))],
        menu: Some("Edit"),
        when: When::Clipboard,
    },
    CommandSpec {
        id: CommandId::Duplicate,
        name: "Duplicate",
        help: "copy and paste the selection in one step",
        keys: &[ctrl(Key::Letter('D'))],
        menu: Some("Edit"),
        when: When::Selection,
    },
    CommandSpec {
        id: CommandId::SelectAll,
        name: "Select all",
        help: "select every agent, path, curve, target and obstacle",
        keys: &[ctrl(Key::Letter('A'))],
        menu: Some("Edit"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::ToggleSnap,
        name: "Snap to grid",
        help: "grid snapping on or off: placing and dragging land on the grid",
        keys: &[ctrl(Key::Letter('G'))],
        menu: Some("View"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::FinishDrawing,
        name: "Finish drawing",
        help: "finish the path or spline being drawn; the next click starts a new one",
        keys: &[plain(Key::Enter), plain(Key::Escape)],
        menu: None,
        when: When::Drawing,
    },
    CommandSpec {
        id: CommandId::SelectTool,
        name: "Select tool",
        help: "not drawing: back to the Select tool",
        keys: &[plain(Key::Escape)],
        menu: None,
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::NewPath,
        name: "New path",
        help: "Path tool: the next click starts a new path",
        keys: &[plain(Key::Letter('N'))],
        menu: None,
        when: When::PathTool,
    },
    CommandSpec {
        id: CommandId::Compare,
        name: "Compare",
        help: "clone the selected agent once per comparable behaviour",
        keys: &[plain(Key::Letter('M'))],
        menu: None,
        when: When::AgentSelected,
    },
    CommandSpec {
        id: CommandId::Undo,
        name: "Undo",
        help: "undo",
        keys: &[ctrl(Key::Letter('Z'))],
        menu: Some("Edit"),
        when: When::CanUndo,
    },
    CommandSpec {
        id: CommandId::Redo,
        name: "Redo",
        help: "redo",
        keys: &[ctrl_shift(Key::Letter('Z')), ctrl(Key::Letter('Y'))],
        menu: Some("Edit"),
        when: When::CanRedo,
    },
    CommandSpec {
        id: CommandId::New,
        name: "New",
        help: "new empty scene",
        keys: &[ctrl(Key::Letter('N'))],
        menu: Some("File"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Open,
        name: "Open…",
        help: "open a scene",
        keys: &[ctrl(Key::Letter('O'))],
        menu: Some("File"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Save,
        name: "Save",
        help: "save (asks where for a new scene or an example)",
        keys: &[ctrl(Key::Letter('S'))],
        menu: Some("File"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::SaveAs,
        name: "Save As…",
        help: "save under a new name",
        keys: &[ctrl_shift(Key::Letter('S'))],
        menu: Some("File"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Revert,
        name: "Revert to saved",
        help: "reload the scene's file, dropping unsaved changes (asks first)",
        keys: &[ctrl(Key::Letter('R'))],
        menu: Some("File"),
        when: When::CanRevert,
    },
    CommandSpec {
        id: CommandId::Screenshot,
        name: "Screenshot",
        help: "save a PNG of the window to the pictures folder",
        keys: &[ctrl(Key::Letter('P'))],
        menu: Some("File"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Record,
        name: "Record / Stop",
        help: "start or stop recording the window as a PNG sequence",
        keys: &[ctrl_shift(Key::Letter('P'))],
        menu: Some("File"),
        when: When::Always,
    },
    CommandSpec {
        id: CommandId::Help,
        name: "Help",
        help: "show or hide this help",
        keys: &[plain(Key::F1), shifted(Key::Slash)],
        menu: Some("View"),
        when: When::Always,
    },
];

/// Mouse gestures (not commands, but listed with them in the help and the README).
pub const MOUSE: [(&str, &str); 15] = [
    ("wheel", "zoom at the cursor (3D: move closer or farther)"),
    ("right or middle drag", "pan the top view"),
    ("right drag (3D)", "orbit the camera"),
    ("middle or Shift+right drag (3D)", "pan the 3D view"),
    ("left click / drag (Select)", "select (hover highlights); drag moves what is under the cursor (all of the selection when it is selected)"),
    ("Shift+click (Select)", "add to the selection, or take out of it"),
    (
        "drag on empty space (Select; Shift adds)",
        "rubber band: selects the agents, obstacles, targets and curve handles inside it, and paths wholly inside",
    ),
    ("Shift+left drag (3D)", "lift or lower what is dragged"),
    (
        "Alt+drag or Ctrl+drag from an agent",
        "push it: on release its velocity changes by the arrow, 1 unit/s per unit",
    ),
    ("click (Path)", "append a point (two clicks start a path); click a segment of it to insert one"),
    ("click or drag (Obstacle, Curve)", "place an obstacle or a curve; dragging sets its size"),
    ("click (Target, Agent)", "place a target (with a planner selected: a waypoint) or an agent"),
    (
        "drag (Paint)",
        "paint a flow field: cells within the brush radius of the stroke take its direction; one undo step per stroke",
    ),
    ("click in a panel row", "select that agent"),
    ("drop a .json file on the window", "open it as a scene"),
];

/// The row of `id` (every id has one).
pub fn spec(id: CommandId) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.id == id)
}

/// The first key of `id`, as menus show it ("Ctrl+S"), or "" when it has none.
pub fn shortcut(id: CommandId) -> String {
    spec(id).and_then(|s| s.keys.first()).map(|c| c.label()).unwrap_or_default()
}

/// Every key of `id`, as the help shows them ("Delete or Backspace").
pub fn keys_label(id: CommandId) -> String {
    spec(id).map(|s| s.keys.iter().map(|c| c.label()).collect::<Vec<_>>().join(" or ")).unwrap_or_default()
}

/// The menu name of `id`.
pub fn name(id: CommandId) -> &'static str {
    spec(id).map_or("", |s| s.name)
}

/// Whether `id` may run now (menus grey it out otherwise).
pub fn enabled(id: CommandId, app: &App) -> bool {
    spec(id).is_some_and(|s| s.when.holds(app))
}

/// The command a key press means now, or None: the world must have the keyboard, and the first
/// allowed row whose chord matches wins (exact modifiers first, then ignoring Shift).
pub fn resolve(chord: Chord, app: &App, focus: Focus) -> Option<CommandId> {
    if focus != Focus::World {
        return None;
    }
    let exact = |c: &Chord| *c == chord;
    let loose = |c: &Chord| c.key == chord.key && c.ctrl == chord.ctrl && !c.shift;
    let find = |matches: &dyn Fn(&Chord) -> bool| {
        COMMANDS.iter().find(|spec| spec.keys.iter().any(matches) && spec.when.holds(app)).map(|spec| spec.id)
    };
    find(&exact).or_else(|| find(&loose))
}

/// The next round time scale below (`faster = false`) or above `scale`.
pub fn time_scale_step(scale: f32, faster: bool) -> f32 {
    const STEPS: [f32; 7] = [0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0];
    let scale = if scale.is_finite() { scale } else { 1.0 };
    if faster {
        STEPS.iter().copied().find(|s| *s > scale * 1.001).unwrap_or(8.0)
    } else {
        STEPS.iter().rev().copied().find(|s| *s < scale * 0.999).unwrap_or(0.1)
    }
}

impl CommandId {
    /// The command this means for `app` now (None when there is nothing to do).
    pub fn command(self, app: &App) -> Option<Command> {
        use super::planner_debug::StepMove;
        let step =
            |step: StepMove| app.planner_debug.as_ref().map(|d| Command::PlannerDebugGoto(d.target(step)));
        Some(match self {
            CommandId::Tool(tool) => Command::SetTool(tool),
            CommandId::TogglePlay => Command::TogglePlay,
            CommandId::Step => Command::Step,
            CommandId::StepBack => Command::StepBack,
            CommandId::Reset => Command::Reset,
            CommandId::Slower => Command::SetTimeScale(time_scale_step(app.time_scale, false)),
            CommandId::Faster => Command::SetTimeScale(time_scale_step(app.time_scale, true)),
            CommandId::FitView => Command::FitView,
            CommandId::ToggleView => Command::ToggleView,
            CommandId::Delete => Command::DeleteSelection,
            CommandId::Copy => Command::Copy,
            CommandId::Paste => Command::Paste { at: None },
            CommandId::Duplicate => Command::Duplicate,
            CommandId::SelectAll => Command::SelectMany(super::select::everything(&app.world)),
            CommandId::ToggleSnap => Command::ToggleSnap,
            CommandId::Follow => Command::ToggleFollow,
            CommandId::NextAgent => Command::CycleAgent { forward: true },
            CommandId::PreviousAgent => Command::CycleAgent { forward: false },
            CommandId::FinishDrawing => Command::FinishDrawing,
            CommandId::SelectTool => Command::SetTool(Tool::Select),
            CommandId::NewPath => Command::FinishDrawing,
            CommandId::Compare => Command::Compare { agent: app.selected_agent()? },
            CommandId::Undo => Command::Undo,
            CommandId::Redo => Command::Redo,
            CommandId::New => Command::File(FileCommand::New),
            CommandId::Open => Command::File(FileCommand::OpenDialog),
            CommandId::Save => Command::File(FileCommand::Save),
            CommandId::SaveAs => Command::File(FileCommand::SaveAs),
            CommandId::Revert => Command::File(FileCommand::Revert),
            CommandId::Screenshot => Command::File(FileCommand::Screenshot),
            CommandId::Record => Command::File(FileCommand::ToggleRecording),
            CommandId::Help => Command::ToggleHelp,
            CommandId::StepNext => step(StepMove::Next)?,
            CommandId::StepPrevious => step(StepMove::Previous)?,
            CommandId::StepFirst => step(StepMove::First)?,
            CommandId::StepLast => step(StepMove::Last)?,
            CommandId::StepClose => Command::ClosePlannerDebug,
        })
    }
}

/// The README's key and mouse tables, generated from [`COMMANDS`] and [`MOUSE`] (a test checks
/// that the README holds exactly this between its `keys:begin` and `keys:end` markers).
pub fn readme_tables() -> String {
    let mut text = String::from("| key | action |\n| --- | --- |\n");
    for spec in COMMANDS {
        let keys: Vec<String> = spec.keys.iter().map(|c| format!("`{}`", c.label())).collect();
        text.push_str(&format!("| {} | {} |\n", keys.join(" or "), spec.help));
    }
    text.push_str("\n| mouse | action |\n| --- | --- |\n");
    for (gesture, action) in MOUSE {
        text.push_str(&format!("| {gesture} | {action} |\n"));
    }
    text
}
