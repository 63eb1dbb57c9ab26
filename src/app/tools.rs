//! Mouse and keyboard handling for the editor's tools, on a plain [`InputFrame`] the shell
//! fills from the window's input each frame (`input.rs`). Headless tests build frames by hand.
//!
//! A press that starts over a panel never touches the world. Keys go through the command table
//! (`commands.rs`), which also decides whether the world has the keyboard; file and help
//! commands come back to the shell.

use std::path::PathBuf;

use glam::{Vec2, Vec3};

use super::camera::ViewMode;
use super::commands::{self, Chord, FileCommand, Focus};
use super::edit::{self, BehaviourKind};
use super::{App, Command, Selection};
use crate::behaviours::param::{Param, ParamKind};
use crate::geometry::CurveKind;

/// The editing tools of the toolbar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Select, hover, drag, delete.
    #[default]
    Select,
    /// Click to append points; click on a segment to insert one.
    Path,
    /// Click to place, drag to size.
    Obstacle,
    /// Click to place a target.
    Target,
    /// Click to place an agent with the toolbar's behaviour.
    Agent,
    /// Drag a built-in curve's centre and size, or click spline points.
    Curve,
    /// Drag to paint a flow field: the cells under the brush take the stroke's direction.
    Paint,
}

impl Tool {
    /// Every tool, in toolbar order.
    pub const ALL: [Tool; 7] =
        [Tool::Select, Tool::Path, Tool::Obstacle, Tool::Target, Tool::Agent, Tool::Curve, Tool::Paint];

    /// Toolbar label.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Path => "Path",
            Tool::Obstacle => "Obstacle",
            Tool::Target => "Target",
            Tool::Agent => "Agent",
            Tool::Curve => "Curve",
            Tool::Paint => "Paint",
        }
    }

    /// The key that picks the tool (shown in the toolbar and the help).
    pub fn key_label(self) -> String {
        commands::keys_label(commands::CommandId::Tool(self))
    }

    /// The one-line hint for the hint bar.
    pub fn hint(self) -> &'static str {
        match self {
            Tool::Select => {
                "Select: click to select, drag to move, Alt+drag (or Ctrl+drag) from an agent pushes it, Delete removes, M clones to compare, Tab 3D view"
            }
            Tool::Path => "Path: click to add points, click a segment to insert, Enter or Esc finishes, N starts a new path",
            Tool::Obstacle => "Obstacle: click to place, drag to size",
            Tool::Target => {
                "Target: click to place a target for seek, flee and arrive; with a planner ship selected, click to append a waypoint"
            }
            Tool::Agent => "Agent: click to place an agent with the behaviour chosen in the tool's bar over the view",
            Tool::Curve => "Curve: drag from the centre to size a curve; for a spline click points, Enter finishes",
            Tool::Paint => {
                "Paint: drag to paint a flow field (the selected agent's, else the first; the first stroke starts one over the view); each stroke is one undo step"
            }
        }
    }
}

/// What the curve tool makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CurveTool {
    /// A circle.
    #[default]
    Circle,
    /// An ellipse twice as wide as high.
    Ellipse,
    /// A lemniscate (figure eight).
    Lemniscate,
    /// A 3:2 Lissajous figure.
    Lissajous,
    /// A rising helix.
    Helix,
    /// A Catmull-Rom spline through clicked points.
    Spline,
}

impl CurveTool {
    /// Every kind, in menu order.
    pub const ALL: [CurveTool; 6] = [
        CurveTool::Circle,
        CurveTool::Ellipse,
        CurveTool::Lemniscate,
        CurveTool::Lissajous,
        CurveTool::Helix,
        CurveTool::Spline,
    ];
    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            CurveTool::Circle => "circle",
            CurveTool::Ellipse => "ellipse",
            CurveTool::Lemniscate => "lemniscate",
            CurveTool::Lissajous => "lissajous",
            CurveTool::Helix => "helix",
            CurveTool::Spline => "spline",
        }
    }
    /// The curve of this kind centred at `center` with size `size`.
    pub fn make(self, center: Vec3, size: f32) -> CurveKind {
        let size = size.max(10.0);
        match self {
            CurveTool::Circle => CurveKind::Circle { center, radius: size },
            CurveTool::Ellipse => CurveKind::Ellipse { center, radius_x: size, radius_y: size * 0.5 },
            CurveTool::Lemniscate => CurveKind::Lemniscate { center, size },
            CurveTool::Lissajous => CurveKind::Lissajous {
                center,
                amplitude: Vec3::new(size, size * 0.8, 0.0),
                freq_x: 3.0,
                freq_y: 2.0,
                phase: 0.5,
            },
            CurveTool::Helix => CurveKind::Helix { center, radius: size, pitch: size * 0.5, turns: 3.0 },
            CurveTool::Spline => {
                CurveKind::Spline { points: vec![center, center + Vec3::new(size, 0.0, 0.0)], closed: false }
            }
        }
    }
}

/// Mouse buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseButton {
    /// Left.
    Left,
    /// Right.
    Right,
    /// Middle.
    Middle,
}

/// Keys the editor reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// Play/pause.
    Space,
    /// Step (the step-through: next iteration).
    Right,
    /// Step (the step-through: next iteration).
    Period,
    /// The step-through: previous iteration.
    Left,
    /// The step-through: previous iteration.
    Comma,
    /// The step-through: first iteration.
    Home,
    /// The step-through: last iteration.
    End,
    /// Delete the selection.
    Delete,
    /// Delete the selection.
    Backspace,
    /// Finish a path/spline, or back to Select.
    Escape,
    /// Finish a path/spline.
    Enter,
    /// Toggle 2D/3D.
    Tab,
    /// Help.
    F1,
    /// Help (with shift: `?`).
    Slash,
    /// Slower.
    LeftBracket,
    /// Faster.
    RightBracket,
    /// A letter key (upper case).
    Letter(char),
    /// A digit key.
    Digit(u8),
}

/// One frame of input in screen pixels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputFrame {
    /// Mouse position (pixels, y down).
    pub mouse: Vec2,
    /// Buttons that went down this frame.
    pub pressed: Vec<MouseButton>,
    /// Buttons that went up this frame.
    pub released: Vec<MouseButton>,
    /// Buttons held.
    pub down: Vec<MouseButton>,
    /// Wheel movement (positive: away from the user, zoom in).
    pub wheel: f32,
    /// Keys that went down this frame.
    pub keys: Vec<Key>,
    /// Ctrl held.
    pub ctrl: bool,
    /// Shift held.
    pub shift: bool,
    /// Alt held.
    pub alt: bool,
    /// The pointer is over a panel (the panels want it).
    pub pointer_over_ui: bool,
    /// Who has the keyboard (hotkeys act only when the world has it).
    pub focus: Focus,
    /// Files dropped on the window.
    pub dropped_files: Vec<PathBuf>,
    /// Window size in pixels.
    pub screen: Vec2,
}

/// A drag in progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// What is dragged.
    pub selection: Selection,
    /// World offset from the mouse to the object's handle at the press.
    pub grab_offset: Vec3,
    /// Screen position of the press.
    pub pressed_at: Vec2,
    /// Whether the undo snapshot was taken (on the first movement).
    pub checkpointed: bool,
    /// The whole selection moves with it (it was pressed while part of a group).
    pub group: bool,
}

/// A rubber band being dragged on empty space with the Select tool, in screen pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RubberBand {
    /// Where the press was.
    pub from: Vec2,
    /// Where the mouse is.
    pub to: Vec2,
    /// Shift was held: what is inside is added to the selection.
    pub additive: bool,
}

/// Pixels a press must move before it becomes a rubber band (less is a click on empty space).
pub const RUBBER_BAND_MIN_PX: f32 = 4.0;

/// Tool state between frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolState {
    /// An object being dragged.
    pub drag: Option<Drag>,
    /// The first point of a path not yet created (a path needs two points).
    pub pending_path_point: Option<Vec3>,
    /// The path the path tool appends to.
    pub active_path: Option<usize>,
    /// An obstacle or curve being sized: its centre.
    pub sizing_from: Option<Vec3>,
    /// Spline points clicked so far.
    pub spline_points: Vec<Vec3>,
    /// A left press that started over a panel (ignored until released).
    pub press_over_ui: bool,
    /// Last mouse position while panning or orbiting.
    pub view_drag: Option<Vec2>,
    /// A push being aimed (Alt or Ctrl + drag from an agent).
    pub push: Option<PushDrag>,
    /// A rubber band being dragged.
    pub rubber_band: Option<RubberBand>,
    /// A Paint stroke in progress: where its last segment ended (world) and its number.
    pub stroke: Option<(Vec3, u32)>,
    /// Where the Paint tool's brush is (world; None over a panel), for its outline.
    pub brush_at: Option<Vec3>,
}

/// The Paint tool's brush radius: cells whose centre lies this close to the stroke take its
/// direction.
pub const BRUSH_RADIUS: Param = Param {
    key: "brush_radius",
    label: "brush",
    unit: "u",
    min: 1.0,
    max: 2000.0,
    default: 40.0,
    help: "Paint tool: cells whose centre lies within this distance of the stroke take its direction.",
    kind: ParamKind::Log,
};

/// Screen pixels the mouse moves before a Paint stroke lays its next segment (shorter moves
/// give jittery directions).
pub const PAINT_SEGMENT_PX: f32 = 6.0;

/// A push being aimed: the arrow runs from the agent to `to`; on release the agent's velocity
/// changes by `(to − position) ·` [`PUSH_PER_UNIT`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PushDrag {
    /// The agent pushed.
    pub agent: usize,
    /// The arrow's head, in the world (on the plane at the agent's height).
    pub to: Vec3,
}

/// Velocity change per world unit of push arrow (1/s: an arrow 100 units long adds 100 units/s).
pub const PUSH_PER_UNIT: f32 = 1.0;

/// Points within which a click picks something (pixels at UI scale 1; `edit::pick` scales them
/// as the markers are drawn).
pub const PICK_TOLERANCE_PX: f32 = 8.0;

/// Handles one frame of input: applies tool edits to `app`, returns the commands the shell
/// carries out (file commands and the help overlay, [`Command::is_shell`]).
pub fn handle_input(app: &mut App, input: &InputFrame) -> Vec<Command> {
    let mut shell = Vec::new();
    for file in &input.dropped_files {
        shell.push(Command::File(FileCommand::OpenPath(file.clone())));
    }
    for &key in &input.keys {
        let chord = Chord { key, ctrl: input.ctrl, shift: input.shift };
        let Some(mut command) = commands::resolve(chord, app, input.focus).and_then(|id| id.command(app))
        else {
            continue;
        };
        // Pasted with the key over the view: what was copied lands under the mouse.
        if let Command::Paste { at } = &mut command {
            if !input.pointer_over_ui {
                let height = app.clipboard_anchor.map_or(0.0, |a| a.z);
                *at = app.camera.pick_point(input.mouse, height).map(|p| app.snapped(p));
            }
        }
        if command.is_shell() {
            shell.push(command);
        } else {
            app.apply(command);
        }
    }
    // A modal dialog (a file dialog, a question) takes the mouse as it takes the keys: a click
    // beside it never reaches the world behind it.
    if input.focus == Focus::Modal && !input.pointer_over_ui {
        let blocked = InputFrame { pointer_over_ui: true, ..input.clone() };
        handle_view(app, &blocked);
        handle_pointer(app, &blocked);
    } else {
        handle_view(app, input);
        handle_pointer(app, input);
    }
    shell
}

fn handle_view(app: &mut App, input: &InputFrame) {
    if input.wheel != 0.0 && !input.pointer_over_ui {
        app.camera.hold();
        let factor = 1.1f32.powf(input.wheel.clamp(-10.0, 10.0));
        match app.camera.mode {
            ViewMode::Top => app.camera.zoom_at(input.mouse, factor),
            ViewMode::Orbit => app.camera.distance = (app.camera.distance / factor).clamp(20.0, 100_000.0),
        }
    }
    let view_button = input.down.contains(&MouseButton::Right) || input.down.contains(&MouseButton::Middle);
    let view_pressed =
        input.pressed.contains(&MouseButton::Right) || input.pressed.contains(&MouseButton::Middle);
    if view_pressed && !input.pointer_over_ui {
        app.tool_state.view_drag = Some(input.mouse);
    }
    if !view_button {
        app.tool_state.view_drag = None;
    }
    if let Some(last) = app.tool_state.view_drag {
        let delta = input.mouse - last;
        if delta != Vec2::ZERO {
            app.camera.hold();
        }
        let orbiting =
            app.camera.mode == ViewMode::Orbit && input.down.contains(&MouseButton::Right) && !input.shift;
        if orbiting {
            app.camera.yaw -= delta.x * 0.008;
            app.camera.pitch = (app.camera.pitch + delta.y * 0.006).clamp(0.05, 1.55);
        } else if app.camera.mode == ViewMode::Orbit {
            // Pan the focus on the ground, scaled to the distance.
            let scale = app.camera.distance * 0.0015;
            let (sin, cos) = app.camera.yaw.sin_cos();
            let right = Vec3::new(-sin, cos, 0.0);
            let forward = Vec3::new(-cos, -sin, 0.0);
            app.camera.center += (-right * delta.x + forward * delta.y) * scale;
        } else {
            app.camera.pan_pixels(delta);
        }
        app.tool_state.view_drag = Some(input.mouse);
    }
}

fn handle_pointer(app: &mut App, input: &InputFrame) {
    let left_pressed = input.pressed.contains(&MouseButton::Left);
    let left_released = input.released.contains(&MouseButton::Left);
    let left_down = input.down.contains(&MouseButton::Left);
    if left_pressed && input.pointer_over_ui {
        app.tool_state.press_over_ui = true;
    }
    if app.tool_state.press_over_ui {
        if left_released || !left_down {
            app.tool_state.press_over_ui = false;
        }
        return;
    }
    app.hover = if input.pointer_over_ui {
        None
    } else {
        edit::pick(&app.world, &app.camera, input.mouse, PICK_TOLERANCE_PX)
    };
    let height = app.selection.and_then(|s| edit::selection_position(&app.world, s)).map_or(0.0, |p| p.z);
    // Placing snaps to the grid when snapping is on.
    let Some(mouse_world) = app.camera.pick_point(input.mouse, 0.0).map(|p| app.snapped(p)) else { return };

    if let Some(mut band) = app.tool_state.rubber_band {
        band.to = input.mouse;
        if left_released || !left_down {
            app.tool_state.rubber_band = None;
            if band.from.distance(band.to) >= RUBBER_BAND_MIN_PX {
                let inside = super::select::select_in_box(&app.world, &app.camera, band.from, band.to);
                let mut items = if band.additive { app.selected() } else { Vec::new() };
                items.extend(inside);
                app.apply(Command::SelectMany(items));
            }
        } else {
            app.tool_state.rubber_band = Some(band);
        }
        return;
    }

    // A push being aimed follows the mouse on the agent's height and fires on release.
    if let Some(mut push) = app.tool_state.push {
        let Some(agent) = app.world.agents.get(push.agent) else {
            app.tool_state.push = None;
            return;
        };
        let from = agent.kinematics.position;
        if let Some(to) = app.camera.pick_point(input.mouse, from.z) {
            push.to = to;
        }
        if left_released || !left_down {
            app.tool_state.push = None;
            let impulse = (push.to - from) * PUSH_PER_UNIT;
            if impulse.length() > 1e-3 {
                let name = agent.about.name.clone();
                app.apply(Command::Push { agent: push.agent, impulse });
                app.info(format!("pushed {name} by {:.0} u/s", impulse.length()));
            }
        } else {
            app.tool_state.push = Some(push);
        }
        return;
    }

    // Dragging continues whatever the tool (a drag started by Select or by clicking a point).
    if let Some(mut drag) = app.tool_state.drag {
        if left_down || left_released {
            let moved = input.mouse.distance(drag.pressed_at) > 2.0;
            if moved {
                if !drag.checkpointed {
                    app.checkpoint(None);
                    drag.checkpointed = true;
                }
                let target = if input.shift && app.camera.mode == ViewMode::Orbit {
                    // Shift-drag in 3D lifts or lowers: one pixel is one unit, scaled by distance.
                    let current = edit::selection_position(&app.world, drag.selection).unwrap_or(mouse_world);
                    let lift = (drag.pressed_at.y - input.mouse.y) * app.camera.distance * 0.0015;
                    drag.pressed_at = input.mouse;
                    current + Vec3::Z * lift
                } else {
                    let on_plane = app.camera.pick_point(input.mouse, height).unwrap_or(mouse_world);
                    // The dragged handle lands on the grid; the rest of a group keeps its offsets.
                    app.snapped(on_plane + drag.grab_offset)
                };
                if drag.group {
                    let items = app.selected();
                    if let Some(at) = edit::selection_position(&app.world, drag.selection) {
                        super::select::move_many(&mut app.world, &items, target - at);
                    }
                } else {
                    edit::move_selection(&mut app.world, drag.selection, target);
                }
            }
            if left_released && drag.group && !drag.checkpointed {
                // A click (no movement) on a member of a group selects just it.
                app.apply(Command::Select(Some(drag.selection)));
            }
            app.tool_state.drag = if left_released { None } else { Some(drag) };
        } else {
            app.tool_state.drag = None;
        }
        return;
    }

    match app.tool {
        Tool::Select => {
            if left_pressed {
                let picked = app.hover;
                match picked {
                    Some(Selection::Agent(agent)) if input.alt || input.ctrl => {
                        app.apply(Command::Select(picked));
                        let from = app.world.agents.get(agent).map_or(mouse_world, |a| a.kinematics.position);
                        app.tool_state.push = Some(PushDrag { agent, to: from });
                    }
                    Some(selection) if input.shift && app.camera.mode == ViewMode::Top => {
                        app.apply(Command::ToggleSelected(selection));
                    }
                    Some(selection) if app.selection_count() > 1 && app.is_selected(selection) => {
                        // Pressing a member of the group grabs the whole group; it becomes the
                        // primary so the inspector and the drag follow it.
                        let mut items = app.selected();
                        items.retain(|s| *s != selection);
                        items.insert(0, selection);
                        app.apply(Command::SelectMany(items));
                        start_drag(app, selection, input, height);
                        if let Some(drag) = app.tool_state.drag.as_mut() {
                            drag.group = true;
                        }
                    }
                    Some(selection) => {
                        app.apply(Command::Select(Some(selection)));
                        start_drag(app, selection, input, height);
                    }
                    None => {
                        if !input.shift {
                            app.apply(Command::Select(None));
                        }
                        app.tool_state.rubber_band =
                            Some(RubberBand { from: input.mouse, to: input.mouse, additive: input.shift });
                    }
                }
            }
        }
        Tool::Path => {
            if left_pressed {
                path_click(app, input, mouse_world);
            }
        }
        Tool::Obstacle => {
            if left_pressed {
                app.tool_state.sizing_from = Some(mouse_world);
            }
            if left_released {
                if let Some(centre) = app.tool_state.sizing_from.take() {
                    let dragged = centre.distance(mouse_world);
                    let radius = if dragged * app.camera.pixels_per_unit(centre) < 4.0 {
                        25.0
                    } else {
                        dragged.max(2.0)
                    };
                    app.apply(Command::AddObstacle { position: centre, radius });
                }
            }
        }
        Tool::Target => {
            if left_pressed {
                match planner_selected(app) {
                    // With a planner ship (or one of its waypoints) selected the click appends a
                    // waypoint on the plane at the selected ship's or waypoint's height.
                    Some(agent) => {
                        let at =
                            app.snapped(app.camera.pick_point(input.mouse, height).unwrap_or(mouse_world));
                        app.apply(Command::AddWaypoint { agent, position: at });
                    }
                    None => app.apply(Command::AddTarget { position: mouse_world }),
                }
            }
        }
        Tool::Agent => {
            if left_pressed {
                let kind: BehaviourKind = app.new_agent_kind;
                app.apply(Command::AddAgent { position: mouse_world, kind });
            }
        }
        Tool::Paint => paint_stroke(app, input, left_pressed, left_down),
        Tool::Curve => {
            if app.new_curve_kind == CurveTool::Spline {
                if left_pressed {
                    app.tool_state.spline_points.push(mouse_world);
                }
            } else {
                if left_pressed {
                    app.tool_state.sizing_from = Some(mouse_world);
                }
                if left_released {
                    if let Some(centre) = app.tool_state.sizing_from.take() {
                        let dragged = centre.distance(mouse_world);
                        let size =
                            if dragged * app.camera.pixels_per_unit(centre) < 4.0 { 100.0 } else { dragged };
                        app.apply(Command::AddCurve { kind: app.new_curve_kind.make(centre, size) });
                    }
                }
            }
        }
    }
}

/// The Paint tool: a press starts a stroke where the mouse is (on the ground, not snapped);
/// while the button is held, each move of [`PAINT_SEGMENT_PX`] or more paints the segment since
/// the last one; the release ends the stroke.
fn paint_stroke(app: &mut App, input: &InputFrame, left_pressed: bool, left_down: bool) {
    let at = app.camera.pick_point(input.mouse, 0.0);
    app.tool_state.brush_at = at.filter(|_| !input.pointer_over_ui);
    let Some(at) = at else { return };
    if left_pressed {
        app.paint_strokes = app.paint_strokes.wrapping_add(1);
        app.tool_state.stroke = Some((at, app.paint_strokes));
        return;
    }
    let Some((last, stroke)) = app.tool_state.stroke else { return };
    if !left_down {
        app.tool_state.stroke = None;
        return;
    }
    let moved_px = last.distance(at) * app.camera.pixels_per_unit(at);
    if moved_px >= PAINT_SEGMENT_PX {
        app.apply(Command::Paint { from: last, to: at, stroke });
        app.tool_state.stroke = Some((at, stroke));
    }
}

/// The planner agent selected (directly or through one of its waypoints), if any.
pub fn planner_selected(app: &App) -> Option<usize> {
    let agent = app.selected_agent()?;
    matches!(app.world.agents.get(agent)?.behaviour, crate::sim::Behaviour::Planner { .. }).then_some(agent)
}

fn start_drag(app: &mut App, selection: Selection, input: &InputFrame, height: f32) {
    let Some(handle) = edit::selection_position(&app.world, selection) else { return };
    let on_plane = app.camera.pick_point(input.mouse, height).unwrap_or(handle);
    app.tool_state.drag = Some(Drag {
        selection,
        grab_offset: handle - on_plane,
        pressed_at: input.mouse,
        checkpointed: false,
        group: false,
    });
}

fn path_click(app: &mut App, input: &InputFrame, point: Vec3) {
    let active = app.tool_state.active_path.or_else(|| app.selection.and_then(Selection::path));
    // Clicking a vertex of the active path grabs it.
    if let Some(Selection::PathPoint { path, .. }) = app.hover {
        if Some(path) == active || active.is_none() {
            let selection = app.hover.unwrap_or(Selection::Path(path));
            app.selection = Some(selection);
            app.tool_state.active_path = Some(path);
            start_drag(app, selection, input, 0.0);
            return;
        }
    }
    // Clicking a segment of the active path inserts a point there.
    if let Some((path, segment)) = edit::pick_segment(&app.world, &app.camera, input.mouse, PICK_TOLERANCE_PX)
    {
        if Some(path) == active {
            app.apply(Command::InsertPathPoint { path, segment, point });
            app.tool_state.active_path = Some(path);
            return;
        }
    }
    match active.filter(|&p| p < app.world.paths.len()) {
        Some(path) => {
            app.apply(Command::AppendPathPoint { path: Some(path), points: vec![point] });
            app.tool_state.active_path = Some(path);
        }
        None => match app.tool_state.pending_path_point.take() {
            Some(first) => {
                app.apply(Command::AppendPathPoint { path: None, points: vec![first, point] });
                app.tool_state.active_path = app.selection.and_then(Selection::path);
            }
            None => {
                app.tool_state.pending_path_point = Some(point);
                app.selection = None;
            }
        },
    }
}
