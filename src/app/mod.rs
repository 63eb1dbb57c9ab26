//! The editor: everything the window shows and changes, as plain state with no window in it.
//!
//! Panels (`ui`) read [`App`] and return [`Command`]s; the shell applies them with
//! [`App::apply`] (in `apply.rs`, one function per area) (file commands are carried out by the shell through `scene::io`, which then
//! calls [`App::open_world`] or [`App::set_error`]). Mouse and keyboard arrive as a plain
//! [`InputFrame`] in screen coordinates and go through the active [`Tool`] in `tools`. Time
//! arrives as frame seconds in [`App::advance`], which runs zero or more fixed simulation steps.
//! Every edit is undoable: an edit first pushes a snapshot of the world.

use std::path::PathBuf;

use glam::{Vec2, Vec3};

use crate::behaviours::Limits;
use crate::sim::{Behaviour, GizmoFocus, Rgb, World};

mod apply;
pub mod camera;
pub mod clipboard;
pub mod commands;
pub mod edit;
pub mod history;
pub mod planner_debug;
pub mod select;
pub mod timeline;
pub mod tools;

pub use camera::{Camera, Projection, ViewMode};
pub use commands::{CommandId, FileCommand, Focus, RecoveryChoice, ShellCommand};
pub use edit::BehaviourKind;
pub use history::{History, Trails, HISTORY_AGENTS};
pub use planner_debug::{PlannerDebug, StepMove};
pub use select::Snap;
pub use tools::{InputFrame, Key, MouseButton, Tool};

/// The most fixed steps run for one frame (so a slow frame can't snowball).
pub const MAX_STEPS_PER_FRAME: u32 = 64;

/// Gizmos are recorded and drawn for every agent up to this many agents, otherwise for the
/// selected one ([`App::gizmo_focus`]).
pub const MAX_GIZMO_AGENTS: usize = 60;
/// Undo depth.
pub const UNDO_LIMIT: usize = 200;
/// The most memory the undo steps may hold (about; oldest steps go first, the last one stays):
/// a snapshot of a 100,000-agent crowd is about 75 MB, and a stroke on the largest painted field
/// keeps a 48 MB copy, so 200 of either would not fit in a desktop's memory.
pub const UNDO_BYTES_LIMIT: usize = 1 << 30;

/// The one palette of agent colours (its home is the scene format, which colours agents that
/// have none).
pub use crate::scene::PALETTE;

/// The palette colour least in use in `world` (the first unused one while any is free), so a new
/// agent or a Compare clone never repeats a colour in use while the palette lasts.
pub fn free_colour(world: &World) -> Rgb {
    let uses = |c: &Rgb| world.agents.iter().filter(|a| a.about.color == *c).count();
    PALETTE.iter().copied().min_by_key(uses).unwrap_or(Rgb(0x33, 0x33, 0x33))
}

/// "1 agent", "3 agents".
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Seconds a note stays in the status bar (errors stay until dismissed or replaced).
pub const NOTE_SECONDS: f32 = 6.0;

/// Something in the world the editor can point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Selection {
    /// An agent (index into `world.agents`).
    Agent(usize),
    /// A whole path.
    Path(usize),
    /// One vertex of a path.
    PathPoint {
        /// Path index.
        path: usize,
        /// Vertex index.
        point: usize,
    },
    /// An obstacle.
    Obstacle(usize),
    /// A target.
    Target(usize),
    /// A curve (its centre handle).
    Curve(usize),
    /// A planner agent's user waypoint.
    Waypoint {
        /// Agent index.
        agent: usize,
        /// Waypoint index in its planner parameters.
        waypoint: usize,
    },
}

impl Selection {
    /// The path a selection belongs to, if any.
    pub fn path(self) -> Option<usize> {
        match self {
            Selection::Path(path) | Selection::PathPoint { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// Which explanatory drawings are shown (the window's Display toggles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Display {
    /// Velocity arrows.
    pub velocity: bool,
    /// Desired velocity and steering force.
    pub steering: bool,
    /// Target points.
    pub targets: bool,
    /// Projections on the path.
    pub projection: bool,
    /// Predicted positions.
    pub prediction: bool,
    /// The channel of width 2·radius around paths.
    pub path_radius: bool,
    /// Waypoint node radii.
    pub node_radii: bool,
    /// Parametric tangent and T.
    pub tangent: bool,
    /// Arrive target and slow radii.
    pub arrive_radii: bool,
    /// Obstacle-avoidance probes and hits.
    pub probes: bool,
    /// Fading trails.
    pub trails: bool,
    /// Agent names next to them.
    pub labels: bool,
    /// Planner: planned path, direct route, hits, avoidance vectors.
    pub plan: bool,
    /// Background grid.
    pub grid: bool,
}

impl Default for Display {
    fn default() -> Self {
        Display {
            velocity: true,
            steering: false,
            targets: true,
            projection: true,
            prediction: true,
            path_radius: true,
            node_radii: false,
            tangent: false,
            arrive_radii: true,
            probes: true,
            trails: true,
            labels: true,
            plan: true,
            grid: true,
        }
    }
}

/// A line for the status bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Errors are shown in red and stay until dismissed or replaced.
    pub is_error: bool,
    /// Seconds of display left for a note (it expires); None for errors, which stay.
    pub seconds_left: Option<f32>,
}

/// A structural change or a transport action, returned by panels and tools.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Play or pause.
    TogglePlay,
    /// Play (true) or pause (false).
    SetRunning(bool),
    /// Run one fixed step (pauses).
    Step,
    /// Back to the scene's start.
    Reset,
    /// Simulation speed, 0.1–8.
    SetTimeScale(f32),
    /// Change tool.
    SetTool(Tool),
    /// Change the selection.
    Select(Option<Selection>),
    /// Select several things (the first is the primary; the rubber band).
    SelectMany(Vec<Selection>),
    /// Add this to the selection, or take it out when it is in (Shift+click).
    ToggleSelected(Selection),
    /// Delete what is selected (and agents that depend on it), in one undo step.
    DeleteSelection,
    /// Move everything selected by this much, in one undo step (the inspector's Move by).
    MoveSelection {
        /// World units.
        delta: Vec3,
    },
    /// Copy the selection to the editor's clipboard (as a scene fragment).
    Copy,
    /// Paste the clipboard and select it: centred on `at` (the world point under the mouse when
    /// pasted with the key over the view), or else offset from the copy, each paste a step
    /// further (the Edit menu).
    Paste {
        /// Where the centre of what was copied lands (its height is kept).
        at: Option<Vec3>,
    },
    /// Copy and paste the selection in one step, leaving the clipboard as it was.
    Duplicate,
    /// Grid snapping on or off.
    ToggleSnap,
    /// The grid spacing for snapping, world units.
    SetGridSize(f32),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Replace an agent's behaviour (inspector edits; consecutive edits of one agent merge into one undo step).
    SetBehaviour {
        /// Agent index.
        agent: usize,
        /// The new behaviour.
        behaviour: Behaviour,
    },
    /// Replace the rest of an agent's list of behaviours and how the list is combined (the
    /// inspector's list editor; consecutive edits of one agent merge into one undo step).
    SetMix {
        /// Agent index.
        agent: usize,
        /// The new combination, main slot and further entries.
        mix: crate::sim::Mix,
    },
    /// Change an agent's name, colour, limits and avoidance.
    SetAgentProperties {
        /// Agent index.
        agent: usize,
        /// New name.
        name: String,
        /// New colour.
        color: Rgb,
        /// New limits.
        limits: Limits,
        /// Avoid obstacles.
        avoid_obstacles: bool,
    },
    /// Add an agent with the behaviour chosen in the Agent tool's options.
    AddAgent {
        /// Where.
        position: Vec3,
        /// Which behaviour.
        kind: BehaviourKind,
    },
    /// Add an obstacle.
    AddObstacle {
        /// Centre.
        position: Vec3,
        /// Radius.
        radius: f32,
    },
    /// Add a target.
    AddTarget {
        /// Where.
        position: Vec3,
    },
    /// Append a point to a path (None: start a new path with this and the pending point).
    AppendPathPoint {
        /// Path index, or None for a new path.
        path: Option<usize>,
        /// The point(s): a new path needs two.
        points: Vec<Vec3>,
    },
    /// Insert a point into segment `segment` of a path.
    InsertPathPoint {
        /// Path index.
        path: usize,
        /// Segment index (the point goes after vertex `segment`).
        segment: usize,
        /// The point.
        point: Vec3,
    },
    /// Open or close a path.
    SetPathClosed {
        /// Path index.
        path: usize,
        /// Closed?
        closed: bool,
    },
    /// Change a path's channel radius.
    SetPathRadius {
        /// Path index.
        path: usize,
        /// Radius.
        radius: f32,
    },
    /// Add a curve (selected afterwards).
    AddCurve {
        /// Its shape.
        kind: crate::geometry::CurveKind,
    },
    /// Replace a curve's shape.
    SetCurve {
        /// Curve index.
        curve: usize,
        /// New shape.
        kind: crate::geometry::CurveKind,
    },
    /// Change an obstacle's radius, velocity or position.
    SetObstacle {
        /// Obstacle index.
        obstacle: usize,
        /// Centre.
        position: Vec3,
        /// Radius.
        radius: f32,
        /// Velocity.
        velocity: Vec3,
    },
    /// Change a target's position and velocity.
    SetTarget {
        /// Target index.
        target: usize,
        /// Position.
        position: Vec3,
        /// Velocity.
        velocity: Vec3,
    },
    /// Clone an agent once per comparable behaviour on the same path/curve/target.
    Compare {
        /// Agent index.
        agent: usize,
    },
    /// Add copies of an agent spread round it (see `edit::copies_of`).
    AddCopies {
        /// Agent index.
        agent: usize,
        /// How many (`edit::COPIES`).
        copies: usize,
        /// About how far apart neighbouring copies start (`edit::SPACING`).
        spacing: f32,
        /// Turn each copy's start heading by a different angle (`edit::SPREAD_HEADINGS`).
        spread_headings: bool,
    },
    /// Frame the whole scene.
    FitView,
    /// Switch between the top and the 3D view.
    ToggleView,
    /// Push a planner ship (a disturbance), world units per second added to its velocity.
    Push {
        /// Agent index.
        agent: usize,
        /// Velocity change.
        impulse: Vec3,
    },
    /// Append a waypoint to a planner agent's list (the Target tool with a planner selected).
    AddWaypoint {
        /// Agent index.
        agent: usize,
        /// Where.
        position: Vec3,
    },
    /// Replan a planner agent from where it is, recording every iteration, and show them one at
    /// a time (pauses the simulation).
    OpenPlannerDebug {
        /// Agent index.
        agent: usize,
    },
    /// Show this iteration of the recorded plan (clamped to the recorded range).
    PlannerDebugGoto(usize),
    /// Leave the step-through mode.
    ClosePlannerDebug,
    /// Replace the world with an empty scene.
    NewScene,
    /// Finish the path or spline being drawn (a spline of two or more points becomes a curve);
    /// the Path tool's next click starts a new path.
    FinishDrawing,
    /// A file or window command for the shell (it asks about unsaved changes first).
    File(FileCommand),
    /// Show or hide the help overlay (the shell's).
    ToggleHelp,
    /// The behaviour the Agent tool gives new agents (the toolbar).
    SetNewAgentKind(BehaviourKind),
    /// The kind of curve the Curve tool makes (the toolbar).
    SetNewCurveKind(tools::CurveTool),
    /// The Paint tool's brush radius, world units (the toolbar; refused outside
    /// [`tools::BRUSH_RADIUS`]'s range).
    SetBrushRadius(f32),
    /// Delete a painted field (the Paint toolbar's button, for the field the tool paints): the
    /// entries that read it read noise or their path instead, later fields keep their entries.
    DeleteField(usize),
    /// One segment of a Paint stroke: the cells of the painted field within the brush radius of
    /// `from`–`to` take its direction (the field is started, covering the view, when the scene
    /// has none). Segments of one `stroke` share one undo step.
    Paint {
        /// Where the segment starts (world).
        from: Vec3,
        /// Where it ends (world); the direction painted is `to − from`.
        to: Vec3,
        /// The stroke's number ([`tools::ToolState`] counts them).
        stroke: u32,
    },
    /// The display toggles (the Display window).
    SetDisplay(Display),
    /// Clear the status line (the × next to an error).
    DismissMessage,
    /// Show or hide an agent in the view and the plots (not an edit: no undo, not saved).
    SetAgentVisible {
        /// Agent index.
        agent: usize,
        /// Shown?
        visible: bool,
    },
    /// Go to this step of the recorded run (the timeline slider; pauses).
    Seek(u64),
    /// Turn the follow camera on or off (it keeps the selected agent in the middle of the view).
    ToggleFollow,
    /// Select the next agent (or the previous one), wrapping around; selects the first when no
    /// agent is selected.
    CycleAgent {
        /// Forward (true) or backward.
        forward: bool,
    },
    /// One step back along the recorded run (pauses).
    StepBack,
    /// Show only this agent; when it is already the only one shown, show every agent again.
    Solo {
        /// Agent index.
        agent: usize,
    },
    /// A file command whose questions are answered: the shell reads or writes the file, answers
    /// the autosave, or closes the window.
    Shell(ShellCommand),
}

impl Command {
    /// Whether the shell, not [`App::apply`], carries this command out.
    pub fn is_shell(&self) -> bool {
        matches!(self, Command::File(_) | Command::Shell(_) | Command::ToggleHelp)
    }
}

/// A snapshot for undo.
#[derive(Clone, Debug)]
struct Snapshot {
    world: World,
    selection: Option<Selection>,
    group: Vec<Selection>,
    /// The editor's ids of the world's agents (see `App::agent_ids`).
    agent_ids: Vec<u64>,
    /// Edits with the same key merge into this snapshot (slider drags).
    merge_key: Option<(usize, u8)>,
    /// About what this snapshot adds to the undo steps' memory: its world without the fields,
    /// and the painted fields it does not share with the snapshot before it.
    bytes: usize,
}

/// The whole editor state.
#[derive(Debug)]
pub struct App {
    /// The live world.
    pub world: World,
    /// The file the scene came from or was last saved to.
    pub file: Option<PathBuf>,
    /// The shipped example this untitled scene is a copy of (its file name): Save asks where.
    pub example: Option<String>,
    /// Unsaved changes.
    pub dirty: bool,
    /// Whether time runs.
    pub running: bool,
    /// Simulation speed (0.1–8).
    pub time_scale: f32,
    /// The active tool.
    pub tool: Tool,
    /// What is selected: the primary item when several are (see `select`).
    pub selection: Option<Selection>,
    /// Everything selected when several things are, the primary among them (it counts only
    /// while it holds [`App::selection`]; read it through [`App::selected`]).
    pub group: Vec<Selection>,
    /// Grid snapping for placing and dragging.
    pub snap: Snap,
    /// The last copy, as a scene fragment (JSON).
    pub clipboard: Option<String>,
    /// The centre of what the clipboard holds, where it was copied (a paste at the mouse puts
    /// this point under the mouse).
    pub clipboard_anchor: Option<Vec3>,
    /// Pastes of the clipboard so far (each lands one offset further).
    pub pastes: u32,
    /// What is under the mouse.
    pub hover: Option<Selection>,
    /// Display toggles.
    pub display: Display,
    /// The view.
    pub camera: Camera,
    /// Behaviour given to agents placed with the agent tool.
    pub new_agent_kind: BehaviourKind,
    /// Curve kind made by the curve tool.
    pub new_curve_kind: tools::CurveTool,
    /// The Paint tool's brush radius, world units ([`tools::BRUSH_RADIUS`]).
    pub brush_radius: f32,
    /// Paint strokes begun so far: each stroke's number, so that each is its own undo step.
    pub paint_strokes: u32,
    /// Status line.
    pub message: Option<Message>,
    /// Recent positions of every agent.
    pub trails: Trails,
    /// Time series for the plots.
    pub history: History,
    /// Tool state between frames (a path being drawn, a drag).
    pub tool_state: tools::ToolState,
    /// Agent positions before the last step (for interpolated drawing).
    pub previous_positions: Vec<Vec3>,
    /// Fraction of a step left in the accumulator, 0–1 (for interpolated drawing).
    pub interpolation: f32,
    /// Wall-clock microseconds of each planner agent's plan, measured by the shell now and then
    /// (the core never reads a clock), by agent index; shown in the Metrics panel.
    pub plan_time_us: Vec<Option<f64>>,
    /// The planner step-through, when open.
    pub planner_debug: Option<PlannerDebug>,
    /// Names of the agents hidden in the view and the plots (they still run and have metrics).
    pub hidden: std::collections::BTreeSet<String>,
    /// Keyframes of the run, for scrubbing and stepping back.
    pub timeline: timeline::Timeline,
    /// The camera follows the selected agent.
    pub follow: bool,
    accumulator: f64,
    /// An id for each agent of the world, which stays with it while agents are added, deleted
    /// and brought back by undo (indices shift), so trails and plots stay with their agents.
    agent_ids: Vec<u64>,
    next_agent_id: u64,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    undo_bytes_limit: usize,
}

/// What a snapshot of `world` costs beyond the snapshot `before` it: the world without its
/// fields, and every painted field not shared with `before` (a field is shared until painted).
fn snapshot_bytes(world: &World, before: Option<&World>) -> usize {
    let fields: usize = world
        .fields
        .iter()
        .filter(|f| {
            !before.is_some_and(|b| b.fields.iter().any(|g| std::sync::Arc::ptr_eq(&f.field, &g.field)))
        })
        .map(|f| std::mem::size_of_val(f.field.vectors()))
        .sum();
    world.approx_bytes_without_fields() + fields
}

impl App {
    /// An editor on `world` (from `file`, if any), paused... no: running, as a sandbox should be.
    pub fn new(world: World, file: Option<PathBuf>) -> App {
        let mut app = App {
            world,
            file,
            example: None,
            dirty: false,
            running: true,
            time_scale: 1.0,
            tool: Tool::Select,
            selection: None,
            group: Vec::new(),
            snap: Snap::default(),
            clipboard: None,
            clipboard_anchor: None,
            pastes: 0,
            hover: None,
            display: Display::default(),
            camera: Camera::default(),
            new_agent_kind: BehaviourKind::Predictive,
            new_curve_kind: tools::CurveTool::Circle,
            brush_radius: tools::BRUSH_RADIUS.default,
            paint_strokes: 0,
            message: None,
            trails: Trails::default(),
            history: History::default(),
            tool_state: tools::ToolState::default(),
            previous_positions: Vec::new(),
            interpolation: 0.0,
            plan_time_us: Vec::new(),
            planner_debug: None,
            hidden: std::collections::BTreeSet::new(),
            timeline: timeline::Timeline::default(),
            follow: false,
            accumulator: 0.0,
            agent_ids: Vec::new(),
            next_agent_id: 0,
            undo: Vec::new(),
            redo: Vec::new(),
            undo_bytes_limit: UNDO_BYTES_LIMIT,
        };
        app.after_world_replaced();
        app
    }

    /// Replaces the world with a loaded one and starts a fresh undo history: the undo steps
    /// belong to the scene they were made in (undoing into the old scene would put it under the
    /// new file's name, and Save would write it there).
    pub fn open_world(&mut self, world: World, file: Option<PathBuf>) {
        self.world = world;
        self.file = file;
        self.example = None;
        self.dirty = false;
        self.selection = None;
        self.hover = None;
        self.after_world_replaced();
        self.info(format!("opened {}", self.display_name()));
    }

    /// Opens a shipped example as an untitled copy named after it ("compare (example)"): Save
    /// asks where, so the shipped file is never overwritten.
    pub fn open_example(&mut self, world: World, example: &str) {
        self.open_world(world, None);
        self.example = Some(example.to_string());
        self.info(format!("opened {}; Save asks where to keep your copy", self.display_name()));
    }

    /// What every new scene starts with (opened, restored, reverted, new): no undo or redo
    /// steps, no selection, no recorded run, trails or plots.
    fn after_world_replaced(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.group.clear();
        self.world.set_gizmos_enabled(true);
        self.world.reset();
        self.hidden.clear();
        self.timeline.clear();
        self.trails.clear();
        self.history.clear();
        self.agent_ids.clear();
        self.agents_appended();
        self.tool_state = tools::ToolState::default();
        self.previous_positions = self.world.agents.iter().map(|a| a.kinematics.position).collect();
        self.accumulator = 0.0;
        self.planner_debug = None;
        self.fit_view();
    }

    /// Gives the agents added at the end of the world their ids (and no trail or plot yet).
    pub(crate) fn agents_appended(&mut self) {
        let ids = self.agent_ids.clone();
        self.set_agent_ids(ids);
    }

    /// Takes `ids` as the ids of the world's agents, in order (extended with new ids for agents
    /// beyond them), and moves the trails and plots along with their agents.
    pub(crate) fn set_agent_ids(&mut self, mut ids: Vec<u64>) {
        let n = self.world.agents.len();
        ids.truncate(n);
        while ids.len() < n {
            ids.push(self.next_agent_id);
            self.next_agent_id += 1;
        }
        let before: std::collections::HashMap<u64, usize> =
            self.agent_ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        let old: Vec<Option<usize>> = ids.iter().map(|id| before.get(id).copied()).collect();
        self.trails.remap(&old);
        self.history.remap(&old);
        self.agent_ids = ids;
    }

    /// The agent the camera follows (its id and name): follow is on and an agent is selected.
    fn followed(&self) -> Option<(u64, String)> {
        let agent = self.selected_agent().filter(|_| self.follow)?;
        Some((*self.agent_ids.get(agent)?, self.world.agents.get(agent)?.about.name.clone()))
    }

    /// After agents went or came back: the agent the camera `followed` is selected again when
    /// nothing else to follow is; when it is gone, follow stops, and the returned note says so.
    fn keep_following(&mut self, followed: Option<(u64, String)>) -> Option<String> {
        let (id, name) = followed?;
        match self.agent_ids.iter().position(|&i| i == id) {
            Some(agent) => {
                if self.selected_agent().is_none() {
                    self.selection = Some(Selection::Agent(agent));
                }
                None
            }
            None => {
                self.follow = false;
                Some(format!("the camera stopped following {name}, which is gone"))
            }
        }
    }

    /// The scene's file name, "NAME (example)" for a copy of a shipped example, or "untitled".
    pub fn display_name(&self) -> String {
        if let Some(name) = self.file.as_ref().and_then(|p| p.file_name()) {
            return name.to_string_lossy().to_string();
        }
        match &self.example {
            Some(example) => format!("{} (example)", example.strip_suffix(".json").unwrap_or(example)),
            None => "untitled".to_string(),
        }
    }

    /// The window title: name, a star for unsaved changes.
    pub fn title(&self) -> String {
        format!("{}{} — steerlab", if self.dirty { "*" } else { "" }, self.display_name())
    }

    /// Shows an error in the status bar (the world stays as it is).
    pub fn set_error(&mut self, text: impl Into<String>) {
        self.message = Some(Message { text: text.into(), is_error: true, seconds_left: None });
    }

    /// Shows a note in the status bar.
    pub fn info(&mut self, text: impl Into<String>) {
        self.info_for(text, NOTE_SECONDS);
    }

    /// Shows a note in the status bar for `seconds` of window time.
    pub fn info_for(&mut self, text: impl Into<String>, seconds: f32) {
        self.message = Some(Message { text: text.into(), is_error: false, seconds_left: Some(seconds) });
    }

    /// Ages the status note by `seconds` of window time (the shell passes frame time, the app
    /// reads no clock) and clears it once it has been shown long enough.
    pub fn age_message(&mut self, seconds: f32) {
        let expired = match self.message.as_mut().and_then(|m| m.seconds_left.as_mut()) {
            Some(left) if seconds.is_finite() && seconds > 0.0 => {
                *left -= seconds;
                *left <= 0.0
            }
            _ => false,
        };
        if expired {
            self.message = None;
        }
    }

    /// Whether agent `agent_idx` is hidden in the view (the legend's show/solo).
    pub fn is_hidden(&self, agent_idx: usize) -> bool {
        self.world.agents.get(agent_idx).is_some_and(|a| self.hidden.contains(&a.about.name))
    }

    /// Records that the scene was saved to `file`.
    pub fn mark_saved(&mut self, file: PathBuf) {
        self.file = Some(file);
        self.example = None;
        self.dirty = false;
        self.info(format!("saved {}", self.display_name()));
    }

    /// Whether there is something to undo / redo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Pushes an undo snapshot before an edit and marks the scene dirty. Edits with the same
    /// `merge_key` in a row share one snapshot (a slider drag is one undo step).
    pub fn checkpoint(&mut self, merge_key: Option<(usize, u8)>) {
        self.dirty = true;
        // The recorded run belongs to the scene before the edit.
        self.timeline.clear();
        self.redo.clear();
        if merge_key.is_some() && self.undo.last().is_some_and(|s| s.merge_key == merge_key) {
            return;
        }
        let mut snapshot = self.snapshot_now(self.undo.last().map(|s| &s.world));
        snapshot.merge_key = merge_key;
        self.undo.push(snapshot);
        self.trim_undo();
    }

    /// Drops the oldest undo steps beyond [`UNDO_LIMIT`] or the memory budget (the last stays).
    fn trim_undo(&mut self) {
        let mut held: usize = self.undo.iter().map(|s| s.bytes).sum();
        while self.undo.len() > 1 && (self.undo.len() > UNDO_LIMIT || held > self.undo_bytes_limit) {
            held -= self.undo.remove(0).bytes;
        }
    }

    /// About how much memory the undo steps hold (see [`UNDO_BYTES_LIMIT`]).
    pub fn undo_bytes(&self) -> usize {
        self.undo.iter().map(|s| s.bytes).sum()
    }

    /// How many undo steps there are.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Sets the undo memory budget (tests use a small one).
    pub fn set_undo_bytes_limit(&mut self, bytes: usize) {
        self.undo_bytes_limit = bytes;
    }

    /// Puts `snapshot` back; returns a note when the camera stopped following an agent it took away.
    fn restore(&mut self, snapshot: Snapshot) -> Option<String> {
        let followed = self.followed();
        self.world = snapshot.world;
        self.selection = snapshot.selection.filter(|s| edit::selection_exists(&self.world, *s));
        self.group = snapshot.group;
        self.group.retain(|s| edit::selection_exists(&self.world, *s));
        self.hover = None;
        self.tool_state = tools::ToolState::default();
        self.world.set_gizmos_enabled(true);
        self.previous_positions = self.world.agents.iter().map(|a| a.kinematics.position).collect();
        self.set_agent_ids(snapshot.agent_ids);
        self.dirty = true;
        self.timeline.clear();
        self.close_stale_planner_debug();
        self.keep_following(followed)
    }

    /// Closes the step-through when its agent is gone or no longer a planner.
    fn close_stale_planner_debug(&mut self) {
        let stale = self.planner_debug.as_ref().is_some_and(|d| {
            !matches!(self.world.agents.get(d.agent).map(|a| &a.behaviour), Some(Behaviour::Planner { .. }))
        });
        if stale {
            self.planner_debug = None;
        }
    }

    /// The editor as it is, for undo or redo; its memory counted beyond the snapshot `before`
    /// it on the stack it goes to.
    fn snapshot_now(&self, before: Option<&World>) -> Snapshot {
        Snapshot {
            world: self.world.clone(),
            selection: self.selection,
            group: self.group.clone(),
            agent_ids: self.agent_ids.clone(),
            merge_key: None,
            bytes: snapshot_bytes(&self.world, before),
        }
    }

    /// Undoes the last edit.
    pub fn undo(&mut self) {
        if let Some(snapshot) = self.undo.pop() {
            let current = self.snapshot_now(self.redo.last().map(|s| &s.world));
            self.redo.push(current);
            let stopped = self.restore(snapshot);
            self.info(stopped.map_or_else(|| "undone".to_string(), |s| format!("undone; {s}")));
        }
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self) {
        if let Some(snapshot) = self.redo.pop() {
            let current = self.snapshot_now(self.undo.last().map(|s| &s.world));
            self.undo.push(current);
            self.trim_undo();
            let stopped = self.restore(snapshot);
            self.info(stopped.map_or_else(|| "redone".to_string(), |s| format!("redone; {s}")));
        }
    }

    /// Whether the last `count` agents' starts are all inside the view's rectangle (the copies
    /// [`Command::AddCopies`] just appended).
    fn copies_in_view(&self, count: usize) -> bool {
        let (lo, hi) = self.camera.viewport;
        let first = self.world.agents.len().saturating_sub(count);
        self.world.agents.iter().skip(first).all(|agent| {
            let at = self.camera.world_to_screen(agent.about.start.position);
            at.cmpge(lo).all() && at.cmple(hi).all()
        })
    }

    /// Frames everything in the scene.
    pub fn fit_view(&mut self) {
        let (min, max) = edit::scene_bounds(&self.world);
        self.camera.fit(min, max);
    }

    /// The colour for the next new agent: the palette colour least in use.
    pub fn next_colour(&mut self) -> Rgb {
        free_colour(&self.world)
    }

    /// The agents whose gizmos are recorded and drawn: every agent of a scene of at most
    /// [`MAX_GIZMO_AGENTS`], only the selected agent of a bigger crowd (whose other agents then
    /// take the simulation's fast paths).
    pub fn gizmo_focus(&self) -> GizmoFocus {
        if self.world.agents.len() <= MAX_GIZMO_AGENTS {
            GizmoFocus::All
        } else {
            GizmoFocus::Only(self.selected_agent())
        }
    }

    /// Makes the world record the gizmos that are drawn ([`App::gizmo_focus`]); an agent that
    /// comes into focus gets its gizmos at once (as its next step would draw them), so picking
    /// an agent of a paused crowd shows them.
    pub fn sync_gizmo_focus(&mut self) {
        let focus = self.gizmo_focus();
        if self.world.set_gizmo_focus(focus) {
            if let GizmoFocus::Only(Some(idx)) = focus {
                self.world.preview_gizmos(idx);
            }
        }
    }

    /// Runs one fixed step and records trails and plot samples.
    pub fn step_once(&mut self) {
        self.sync_gizmo_focus();
        self.previous_positions.clear();
        self.previous_positions.extend(self.world.agents.iter().map(|a| a.kinematics.position));
        self.timeline.start_if_empty(&self.world);
        // The window reads every agent each frame (trails, plots, drawing), in agent order, and
        // a storing in the grid's order would stall a frame of a big crowd (about 1 µs an
        // agent): its crowd stays in agent order (see `sim::SPACE_ORDER_MIN_AGENTS`).
        self.world.set_space_order(false);
        self.world.step();
        self.timeline.record(&self.world);
        self.trails.record(&self.world);
        self.history.record(&self.world);
    }

    /// Goes to step `target` of the recorded run (clamped to it) and pauses: restores the last
    /// keyframe at or before it and re-simulates the steps in between, bit for bit as they ran.
    pub fn seek(&mut self, target: u64) {
        self.timeline.start_if_empty(&self.world);
        let Some((first, furthest)) = self.timeline.range() else { return };
        let target = target.clamp(first, furthest);
        self.running = false;
        self.accumulator = 0.0;
        self.interpolation = 0.0;
        if target == self.world.steps {
            return;
        }
        // Forward within the same keyframe interval: just run on from here.
        let run_on = target > self.world.steps
            && self.timeline.keyframe_before(target).is_none_or(|k| k.steps <= self.world.steps);
        if !run_on {
            let Some(keyframe) = self.timeline.keyframe_before(target) else { return };
            self.world = keyframe.clone();
            self.history.truncate_after(self.world.time());
            self.trails.clear();
            self.planner_debug = None;
        }
        while self.world.steps < target {
            self.step_once();
        }
        self.previous_positions = self.world.agents.iter().map(|a| a.kinematics.position).collect();
    }

    /// Advances by `frame_seconds` of wall time (scaled by the time scale) in fixed steps;
    /// returns the number of steps run. The remainder sets [`App::interpolation`].
    pub fn advance(&mut self, frame_seconds: f64) -> u32 {
        self.advance_at_most(frame_seconds, MAX_STEPS_PER_FRAME)
    }

    /// [`App::advance`] running at most `max_steps` steps (at least one, at most
    /// [`MAX_STEPS_PER_FRAME`]): the shell passes what fits in its frame budget, so a crowd too
    /// big to simulate in real time runs slower instead of dragging the window down with it
    /// (time that could not be simulated is dropped, not owed).
    pub fn advance_at_most(&mut self, frame_seconds: f64, max_steps: u32) -> u32 {
        self.sync_gizmo_focus();
        let max_steps = max_steps.clamp(1, MAX_STEPS_PER_FRAME);
        if !self.running || !frame_seconds.is_finite() || frame_seconds <= 0.0 {
            self.interpolation = 0.0;
            return 0;
        }
        let dt = self.world.dt.max(1e-4) as f64;
        self.accumulator += frame_seconds.min(0.25) * self.time_scale as f64;
        let mut steps = 0;
        while self.accumulator >= dt && steps < max_steps {
            self.step_once();
            self.accumulator -= dt;
            steps += 1;
        }
        if steps == max_steps && self.accumulator >= dt {
            self.accumulator = 0.0;
        }
        self.interpolation = (self.accumulator / dt).clamp(0.0, 1.0) as f32;
        self.follow_selected();
        steps
    }

    /// With follow on, centres the view on the selected agent (top view and 3D).
    pub fn follow_selected(&mut self) {
        if !self.follow {
            return;
        }
        if let Some(agent) = self.selected_agent().filter(|&i| i < self.world.agents.len()) {
            let position = self.draw_position(agent);
            if position.is_finite() {
                self.camera.center = match self.camera.mode {
                    ViewMode::Top => position.with_z(self.camera.center.z),
                    ViewMode::Orbit => position,
                };
            }
        }
    }

    /// The metrics of every agent, with the shell's plan-time measurements filled in.
    pub fn metrics(&self) -> Vec<crate::sim::MetricsSummary> {
        let mut summaries = self.world.metrics();
        for (summary, time) in summaries.iter_mut().zip(&self.plan_time_us) {
            if let Some(planner) = summary.planner.as_mut() {
                planner.plan_time_us = *time;
            }
        }
        summaries
    }

    /// An agent's position for drawing, interpolated between the last two steps.
    pub fn draw_position(&self, agent_idx: usize) -> Vec3 {
        let Some(agent) = self.world.agents.get(agent_idx) else { return Vec3::ZERO };
        match self.previous_positions.get(agent_idx) {
            Some(previous) if self.running => previous.lerp(agent.kinematics.position, self.interpolation),
            _ => agent.kinematics.position,
        }
    }

    /// Whether a path or spline is being drawn (Enter or Esc finishes it).
    pub fn is_drawing(&self) -> bool {
        self.tool_state.pending_path_point.is_some()
            || self.tool_state.active_path.is_some()
            || !self.tool_state.spline_points.is_empty()
    }

    /// The agent tool's target: the selected agent's index, if an agent is selected.
    pub fn selected_agent(&self) -> Option<usize> {
        match self.selection {
            Some(Selection::Agent(idx)) | Some(Selection::Waypoint { agent: idx, .. }) => Some(idx),
            _ => None,
        }
    }

    /// Screen position of the mouse in world coordinates on the ground (top view or 3D).
    pub fn mouse_world(&self, mouse: Vec2) -> Option<Vec3> {
        self.camera.pick_point(mouse, 0.0)
    }
}

/// How many waypoints planner agent `agent` has (0 for other agents).
fn params_len(world: &World, agent: usize) -> usize {
    match world.agents.get(agent).map(|a| &a.behaviour) {
        Some(Behaviour::Planner { params }) => params.waypoints.len(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests;
