//! Carrying out a [`Command`]: [`App::apply`] routes each command to the function of its area —
//! time, view, tools, selection, agents, geometry, the planner step-through — and every edit
//! there takes its undo snapshot first ([`App::checkpoint`]). Shell commands (files, help,
//! pictures) are the shell's and do nothing here.

use glam::Vec3;

use super::{edit, params_len, plural, select, tools, App, Command, PlannerDebug, Selection, ViewMode};
use crate::behaviours::{Kinematics, Limits};
use crate::planner::MAX_WAYPOINTS;
use crate::scene::{self, Issue};
use crate::sim::{Agent, Behaviour, World, MAX_BEHAVIOURS};

/// The undo merge kind of a Paint stroke's segments (the key's index is the stroke number).
const PAINT_MERGE: u8 = 7;

// Each area function checks a command's values before it edits ("if valid, checkpoint, edit"),
// which reads better than folding the check into a match guard that falls through to the arm
// for other areas' commands.
#[allow(clippy::collapsible_match)]
impl App {
    /// Applies a command (shell commands, [`Command::is_shell`], are left to the shell).
    pub fn apply(&mut self, command: Command) {
        match command {
            command @ (Command::Seek(_)
            | Command::StepBack
            | Command::TogglePlay
            | Command::SetRunning(_)
            | Command::Step
            | Command::Reset
            | Command::SetTimeScale(_)) => self.apply_time(command),
            command @ (Command::ToggleFollow
            | Command::SetAgentVisible { .. }
            | Command::Solo { .. }
            | Command::FitView
            | Command::ToggleView
            | Command::SetDisplay(_)
            | Command::ToggleSnap
            | Command::SetGridSize(_)
            | Command::DismissMessage) => self.apply_view(command),
            command @ (Command::SetTool(_)
            | Command::FinishDrawing
            | Command::SetNewAgentKind(_)
            | Command::SetNewCurveKind(_)
            | Command::SetBrushRadius(_)) => self.apply_tool(command),
            command @ (Command::Select(_)
            | Command::SelectMany(_)
            | Command::ToggleSelected(_)
            | Command::CycleAgent { .. }
            | Command::DeleteSelection
            | Command::MoveSelection { .. }
            | Command::Copy
            | Command::Paste { .. }
            | Command::Duplicate) => self.apply_selection(command),
            command @ (Command::SetBehaviour { .. }
            | Command::SetMix { .. }
            | Command::SetAgentProperties { .. }
            | Command::AddAgent { .. }
            | Command::Compare { .. }
            | Command::AddCopies { .. }
            | Command::Push { .. }
            | Command::AddWaypoint { .. }) => self.apply_agent(command),
            command @ (Command::AddObstacle { .. }
            | Command::AddTarget { .. }
            | Command::AppendPathPoint { .. }
            | Command::InsertPathPoint { .. }
            | Command::SetPathClosed { .. }
            | Command::SetPathRadius { .. }
            | Command::AddCurve { .. }
            | Command::SetCurve { .. }
            | Command::SetObstacle { .. }
            | Command::SetTarget { .. }
            | Command::Paint { .. }
            | Command::DeleteField(_)) => self.apply_geometry(command),
            command @ (Command::OpenPlannerDebug { .. }
            | Command::PlannerDebugGoto(_)
            | Command::ClosePlannerDebug) => self.apply_planner_debug(command),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::NewScene => self.new_scene(),
            Command::File(_) | Command::Shell(_) | Command::ToggleHelp => {}
        }
    }

    /// Playing, pausing, stepping, resetting, the time scale and moving along the recorded run.
    fn apply_time(&mut self, command: Command) {
        match command {
            Command::Seek(step) => {
                self.seek(step);
                self.follow_selected();
            }
            Command::StepBack => self.seek(self.world.steps.saturating_sub(1)),
            Command::TogglePlay => self.running = !self.running,
            Command::SetRunning(running) => self.running = running,
            Command::Step => {
                self.running = false;
                self.step_once();
                self.interpolation = 0.0;
            }
            Command::Reset => {
                self.timeline.clear();
                self.world.reset();
                self.trails.clear();
                self.history.clear();
                self.previous_positions = self.world.agents.iter().map(|a| a.kinematics.position).collect();
                self.accumulator = 0.0;
                self.planner_debug = None;
            }
            Command::SetTimeScale(scale) => {
                if scale.is_finite() {
                    self.time_scale = scale.clamp(0.1, 8.0);
                }
            }
            // Other areas' commands never reach here (see `apply`).
            _ => {}
        }
    }

    /// What is shown and how: camera, follow, shown and hidden agents, display toggles, the snapping grid, the status line.
    fn apply_view(&mut self, command: Command) {
        match command {
            Command::ToggleFollow => {
                self.follow = !self.follow;
                self.info(match (self.follow, self.selected_agent()) {
                    (true, Some(_)) => "the camera follows the selected agent (L again to stop)",
                    (true, None) => "follow is on: select an agent for the camera to follow",
                    (false, _) => "the camera stays put",
                });
                self.follow_selected();
            }
            Command::SetAgentVisible { agent, visible } => {
                if let Some(a) = self.world.agents.get(agent) {
                    if visible {
                        self.hidden.remove(&a.about.name);
                    } else {
                        self.hidden.insert(a.about.name.clone());
                    }
                }
            }
            Command::Solo { agent } => {
                if self.world.agents.get(agent).is_some() {
                    let others = (0..self.world.agents.len()).filter(|&i| i != agent);
                    let already_solo = !self.is_hidden(agent) && others.clone().all(|i| self.is_hidden(i));
                    self.hidden.clear();
                    if !already_solo {
                        self.hidden.extend(
                            others.filter_map(|i| self.world.agents.get(i)).map(|a| a.about.name.clone()),
                        );
                    }
                }
            }
            Command::FitView => self.fit_view(),
            Command::ToggleView => {
                self.camera.mode = match self.camera.mode {
                    ViewMode::Top => ViewMode::Orbit,
                    ViewMode::Orbit => ViewMode::Top,
                };
            }
            Command::SetDisplay(display) => self.display = display,
            Command::ToggleSnap => {
                self.snap.on = !self.snap.on;
                self.info(if self.snap.on {
                    format!("placing and dragging snap to a {} grid", self.snap.size)
                } else {
                    "snapping off".to_string()
                });
            }
            Command::SetGridSize(size) => {
                if size.is_finite() {
                    self.snap.size =
                        size.clamp(*select::GRID_SIZE_RANGE.start(), *select::GRID_SIZE_RANGE.end());
                }
            }
            Command::DismissMessage => self.message = None,
            // Other areas' commands never reach here (see `apply`).
            _ => {}
        }
    }

    /// The active tool and what it makes.
    fn apply_tool(&mut self, command: Command) {
        match command {
            Command::SetTool(tool) => {
                self.tool = tool;
                self.tool_state = tools::ToolState::default();
            }
            Command::FinishDrawing => {
                self.tool_state.pending_path_point = None;
                self.tool_state.active_path = None;
                if self.selection.and_then(Selection::path).is_some() {
                    self.selection = None;
                }
                let points = std::mem::take(&mut self.tool_state.spline_points);
                if points.len() >= 2 {
                    self.apply(Command::AddCurve {
                        kind: crate::geometry::CurveKind::Spline { points, closed: false },
                    });
                }
            }
            Command::SetNewAgentKind(kind) => self.new_agent_kind = kind,
            Command::SetNewCurveKind(kind) => self.new_curve_kind = kind,
            Command::SetBrushRadius(radius) => match tools::BRUSH_RADIUS.check(radius) {
                Ok(_) => self.brush_radius = radius,
                Err(err) => self.set_error(format!("brush radius: {err}")),
            },
            // Other areas' commands never reach here (see `apply`).
            _ => {}
        }
    }

    /// What is selected, and what is done to all of it: delete, move, copy, paste, duplicate.
    fn apply_selection(&mut self, command: Command) {
        match command {
            Command::Select(selection) => {
                self.selection = selection.filter(|s| edit::selection_exists(&self.world, *s));
                self.group.clear();
            }
            Command::SelectMany(items) => self.select_many(items),
            Command::ToggleSelected(item) => self.toggle_selected(item),
            Command::CycleAgent { forward } => {
                let n = self.world.agents.len();
                if n > 0 {
                    let next = match self.selected_agent() {
                        Some(i) if forward => (i + 1) % n,
                        Some(i) => (i + n - 1) % n,
                        None if forward => 0,
                        None => n - 1,
                    };
                    self.selection = Some(Selection::Agent(next));
                    self.follow_selected();
                }
            }
            Command::DeleteSelection => self.delete_selection(),
            Command::MoveSelection { delta } => self.move_selection_by(delta),
            Command::Copy => self.copy_selection(),
            Command::Paste { at } => {
                self.paste_clipboard(at);
                self.bound_moving_things();
            }
            Command::Duplicate => {
                self.duplicate_selection();
                self.bound_moving_things();
            }
            // Other areas' commands never reach here (see `apply`).
            _ => {}
        }
    }

    /// Agents: adding, their behaviours and properties, Compare's clones, pushes and planner waypoints.
    fn apply_agent(&mut self, command: Command) {
        match command {
            Command::SetBehaviour { agent, behaviour } => {
                if behaviour.refers_to_agent(agent) {
                    self.set_error("an agent cannot refer to itself".to_string());
                } else if let Some(why) = edit::past_a_limit(std::iter::once(&behaviour), 0) {
                    self.set_error(why);
                } else if self.world.agents.get(agent).is_some_and(|a| a.behaviour != behaviour)
                    && edit::behaviour_is_valid(&self.world, &behaviour)
                {
                    self.checkpoint(Some((agent, 1)));
                    edit::set_behaviour(&mut self.world, agent, behaviour);
                    self.close_stale_planner_debug();
                }
            }
            Command::SetMix { agent, mut mix } => {
                let valid =
                    mix.more.iter().all(|entry| edit::behaviour_is_valid(&self.world, &entry.behaviour));
                let refers_to_itself = mix.more.iter().any(|entry| entry.behaviour.refers_to_agent(agent));
                let past_a_limit = edit::past_a_limit(
                    mix.more.iter().map(|entry| &entry.behaviour),
                    mix.more.len().saturating_add(1),
                );
                if refers_to_itself {
                    self.set_error("an agent cannot refer to itself".to_string());
                } else if let Some(why) = past_a_limit {
                    self.set_error(why);
                } else if valid && self.world.agents.get(agent).is_some_and(|a| a.mix != mix) {
                    self.checkpoint(Some((agent, 3)));
                    mix.reset_states();
                    if let Some(a) = self.world.agents.get_mut(agent) {
                        a.mix = mix.into();
                    }
                }
            }
            Command::SetAgentProperties { agent, name, color, limits, avoid_obstacles } => {
                let valid = limits.radius > 0.0
                    && limits.max_speed >= 0.0
                    && limits.max_acceleration >= 0.0
                    && limits.radius.is_finite()
                    && limits.max_speed.is_finite()
                    && limits.max_acceleration.is_finite();
                let adds_an_entry = self.world.agents.get(agent).is_some_and(|a| {
                    avoid_obstacles && !a.avoids_obstacles() && a.mix.more.len() + 1 >= MAX_BEHAVIOURS
                });
                // A new name another agent has: behaviours and scene files refer to agents by
                // name, so two of one name would make such a reference ambiguous (the scene
                // would no longer save). An agent keeping its own name is not asked.
                let renamed = self.world.agents.get(agent).is_some_and(|a| a.about.name != name);
                let taken = renamed
                    .then(|| self.world.agents.iter().position(|a| a.about.name == name))
                    .flatten()
                    .filter(|&other| other != agent);
                if taken.is_some() {
                    self.set_error(format!(
                        "name not changed: another agent is already called `{name}` (names are \
                         unique: behaviours refer to agents by name)"
                    ));
                } else if adds_an_entry {
                    self.set_error(format!(
                        "obstacle avoidance not turned on: {}",
                        edit::too_many_behaviours_reason()
                    ));
                } else if valid && self.world.agents.get(agent).is_some() {
                    self.checkpoint(Some((agent, 2)));
                    if let Some(a) = self.world.agents.get_mut(agent) {
                        a.about.name = name;
                        a.about.color = color;
                        a.limits = limits;
                        a.set_avoid_obstacles(avoid_obstacles, crate::behaviours::AvoidParams::default());
                    }
                }
            }
            Command::AddAgent { position, kind } => {
                if !self.accepts(scene::check_point("agent.position", position)) {
                    return;
                }
                match edit::default_behaviour(&self.world, kind, self.selection, None, position) {
                    Ok(behaviour) => {
                        self.checkpoint(None);
                        let colour = self.next_colour();
                        let name = edit::unique_agent_name(&self.world, kind.label());
                        let start = Kinematics { position, velocity: Vec3::ZERO, orientation: 0.0 };
                        let mut agent = Agent::new(name, colour, start, Limits::default(), behaviour);
                        let avoid = !self.world.obstacles.is_empty();
                        agent.set_avoid_obstacles(avoid, crate::behaviours::AvoidParams::default());
                        self.world.agents.push(agent);
                        let idx = self.world.agents.len() - 1;
                        self.world.reset_agent(idx);
                        self.previous_positions.push(self.world.agents[idx].kinematics.position);
                        self.agents_appended();
                        self.selection = Some(Selection::Agent(idx));
                    }
                    Err(why) => self.set_error(why),
                }
            }
            Command::Compare { agent } => {
                if self.world.agents.get(agent).is_some() {
                    self.checkpoint(None);
                    let added = edit::compare(&mut self.world, agent);
                    self.agents_appended();
                    self.previous_positions =
                        self.world.agents.iter().map(|a| a.kinematics.position).collect();
                    self.info(format!(
                        "added {} to compare with; Reset (R) to race them",
                        plural(added, "agent")
                    ));
                }
            }
            Command::AddCopies { agent, copies, spacing, spread_headings } => {
                // The copies are made from the world as it is; the undo snapshot is taken only
                // once they are, so a refusal leaves the scene and the history as they were.
                match edit::copies_of(&self.world, agent, copies, spacing, spread_headings) {
                    Ok(made) => {
                        let limited = made.limited;
                        self.checkpoint(None);
                        let added = edit::append_copies(&mut self.world, made);
                        self.agents_appended();
                        self.previous_positions =
                            self.world.agents.iter().map(|a| a.kinematics.position).collect();
                        let name =
                            self.world.agents.get(agent).map_or(String::new(), |a| a.about.name.clone());
                        let limit = if limited {
                            format!(" (the scene holds at most {} agents)", crate::scene::MAX_AGENTS)
                        } else {
                            String::new()
                        };
                        let copies =
                            if added == 1 { "1 copy".to_string() } else { format!("{added} copies") };
                        // A crowd spreading past the view is framed whole, so that what was made
                        // is seen (the view after one agent was picked is often close up).
                        let framed = !self.copies_in_view(added);
                        if framed {
                            self.fit_view();
                        }
                        let view = if framed { "; the view frames the scene" } else { "" };
                        self.info(format!("added {copies} of {name}{limit}{view}; Ctrl+Z takes them away"));
                    }
                    Err(why) => self.set_error(why),
                }
            }
            Command::Push { agent, impulse } => {
                if impulse.is_finite() {
                    if let Some(a) = self.world.agents.get_mut(agent) {
                        a.kinematics.velocity += impulse;
                    }
                }
            }
            Command::AddWaypoint { agent, position } => {
                let place = scene::check_point("waypoint", position);
                let mut refused = None;
                let behaviour = match self.world.agents.get(agent).map(|a| &a.behaviour) {
                    Some(Behaviour::Planner { params }) if params.waypoints.len() >= MAX_WAYPOINTS => {
                        self.set_error(format!("waypoint not added: {}", edit::too_many_waypoints_reason()));
                        None
                    }
                    Some(Behaviour::Planner { .. }) if place.is_err() => {
                        refused = Some(place);
                        None
                    }
                    Some(Behaviour::Planner { params }) => {
                        let mut params = params.clone();
                        params.waypoints.push(position);
                        Some((Behaviour::Planner { params }, params_len(&self.world, agent) + 1))
                    }
                    _ => None,
                };
                if let Some(place) = refused {
                    self.accepts(place);
                }
                if let Some((behaviour, count)) = behaviour {
                    self.checkpoint(None);
                    edit::set_behaviour(&mut self.world, agent, behaviour);
                    self.selection = Some(Selection::Waypoint { agent, waypoint: count - 1 });
                    self.info(format!(
                        "waypoint {count} added; Shift+drag it in 3D (or edit z) to set its height"
                    ));
                }
            }
            // Other areas' commands never reach here (see `apply`).
            _ => {}
        }
    }

    /// Paths, curves, targets and obstacles.
    fn apply_geometry(&mut self, command: Command) {
        match command {
            Command::AddObstacle { position, radius } => {
                if self.accepts(scene::check_obstacle("obstacle", position, radius, Vec3::ZERO)) {
                    self.checkpoint(None);
                    self.world.obstacles.push(crate::sim::Obstacle::still(position, radius));
                    self.selection = Some(Selection::Obstacle(self.world.obstacles.len() - 1));
                }
            }
            Command::AddTarget { position } => {
                if self.accepts(scene::check_target("target", position, Vec3::ZERO)) {
                    self.checkpoint(None);
                    let id = edit::unique_id(self.world.targets.iter().map(|t| t.id.as_str()), "target");
                    self.world.targets.push(crate::sim::Target {
                        id,
                        position,
                        velocity: Vec3::ZERO,
                        start: (position, Vec3::ZERO),
                    });
                    self.selection = Some(Selection::Target(self.world.targets.len() - 1));
                }
            }
            Command::AppendPathPoint { path, points } => {
                // A new path comes with its first two points (the Path tool holds the first click
                // until the second); a stale path index appends nowhere.
                let fits = match path {
                    Some(path) => path < self.world.paths.len() && !points.is_empty(),
                    None => points.len() >= 2,
                };
                if fits && points.iter().all(|&p| self.accepts(scene::check_point("point", p))) {
                    self.checkpoint(None);
                    let (path_idx, point_idx) = edit::append_path_points(&mut self.world, path, &points);
                    self.selection = Some(Selection::PathPoint { path: path_idx, point: point_idx });
                }
            }
            Command::InsertPathPoint { path, segment, point } => {
                if self.world.paths.get(path).is_some() && self.accepts(scene::check_point("point", point)) {
                    self.checkpoint(None);
                    if let Some(point_idx) = edit::insert_path_point(&mut self.world, path, segment, point) {
                        self.selection = Some(Selection::PathPoint { path, point: point_idx });
                    }
                }
            }
            Command::SetPathClosed { path, closed } => {
                if self.world.paths.get(path).is_some_and(|p| p.polyline.is_closed() != closed) {
                    self.checkpoint(None);
                    edit::set_path_closed(&mut self.world, path, closed);
                }
            }
            Command::SetPathRadius { path, radius } => {
                if self.world.paths.get(path).is_some()
                    && self.accepts(scene::check_path_radius("path", radius))
                {
                    self.checkpoint(Some((path, 3)));
                    if let Some(p) = self.world.paths.get_mut(path) {
                        p.radius = radius;
                    }
                }
            }
            Command::AddCurve { kind } => {
                if let Some(curve) = self.checked_curve(kind) {
                    self.checkpoint(None);
                    let id = edit::unique_id(self.world.curves.iter().map(|c| c.id.as_str()), "curve");
                    self.world.curves.push(crate::sim::NamedCurve { id, curve });
                    self.selection = Some(Selection::Curve(self.world.curves.len() - 1));
                }
            }
            Command::SetCurve { curve, kind } => {
                if self.world.curves.get(curve).is_some() {
                    if let Some(new_curve) = self.checked_curve(kind) {
                        self.checkpoint(Some((curve, 4)));
                        edit::set_curve(&mut self.world, curve, new_curve);
                    }
                }
            }
            Command::SetObstacle { obstacle, position, radius, velocity } => {
                if self.world.obstacles.get(obstacle).is_some()
                    && self.accepts(scene::check_obstacle("obstacle", position, radius, velocity))
                {
                    self.checkpoint(Some((obstacle, 5)));
                    if let Some(o) = self.world.obstacles.get_mut(obstacle) {
                        o.position = position;
                        o.radius = radius;
                        o.velocity = velocity;
                        o.start = (position, velocity);
                    }
                    self.bound_moving_things();
                }
            }
            Command::Paint { from, to, stroke } => {
                if !(from.is_finite() && to.is_finite()) || from.distance_squared(to) == 0.0 {
                    return;
                }
                // Every segment of a stroke merges into the stroke's one snapshot.
                self.checkpoint(Some((stroke as usize, PAINT_MERGE)));
                let field = match edit::paint_target(&self.world, self.selected_agent()) {
                    Some(field) => Some(field),
                    None => {
                        let corners = (
                            self.camera.screen_to_world(glam::Vec2::ZERO),
                            self.camera.screen_to_world(self.camera.screen),
                        );
                        let field = edit::add_field_covering(
                            &mut self.world,
                            corners.0.min(corners.1).min(from).min(to),
                            corners.0.max(corners.1).max(from).max(to),
                        );
                        if let Some(named) = field.and_then(|f| self.world.fields.get(f)) {
                            let (columns, rows) = named.field.size();
                            self.info(format!(
                                "started the painted field {} ({columns} × {rows} cells): pick it in a flow_field entry's field",
                                named.id
                            ));
                        }
                        field
                    }
                };
                if let Some(field) = field {
                    edit::paint(&mut self.world, field, from, to, self.brush_radius);
                }
            }
            Command::DeleteField(field) => {
                if field < self.world.fields.len() {
                    self.checkpoint(None);
                    let message = edit::delete_field(&mut self.world, field);
                    self.info(message);
                }
            }
            Command::SetTarget { target, position, velocity } => {
                if self.world.targets.get(target).is_some()
                    && self.accepts(scene::check_target("target", position, velocity))
                {
                    self.checkpoint(Some((target, 6)));
                    if let Some(t) = self.world.targets.get_mut(target) {
                        t.position = position;
                        t.velocity = velocity;
                        t.start = (position, velocity);
                    }
                    self.bound_moving_things();
                }
            }
            // Other areas' commands never reach here (see `apply`).
            _ => {}
        }
    }

    /// The planner step-through.
    fn apply_planner_debug(&mut self, command: Command) {
        match command {
            Command::OpenPlannerDebug { agent } => match PlannerDebug::record(&self.world, agent) {
                Some(debug) => {
                    self.running = false;
                    self.info(format!(
                        "recorded {} planner iterations from the ship's position; step through them",
                        debug.count()
                    ));
                    self.planner_debug = Some(debug);
                }
                None => self.set_error("step-through needs a planner agent"),
            },
            Command::PlannerDebugGoto(iteration) => {
                if let Some(debug) = &mut self.planner_debug {
                    debug.goto(iteration);
                }
            }
            Command::ClosePlannerDebug => self.planner_debug = None,
            // Other areas' commands never reach here (see `apply`).
            _ => {}
        }
    }

    /// Replaces the world with an empty scene, with a fresh undo history (as for an opened one).
    fn new_scene(&mut self) {
        let mut world = World::default();
        world.name = "Untitled".to_string();
        world.description = "A new scene.".to_string();
        self.world = world;
        self.file = None;
        self.example = None;
        self.selection = None;
        self.after_world_replaced();
        self.dirty = false;
    }
}

impl App {
    /// Whether a value a command carries passes the scene file's check of it; if not, the error
    /// says why and the command changes nothing (the editor never makes a scene that its own
    /// loader refuses, so every edit can be saved and opened again).
    fn accepts(&mut self, check: Result<(), Issue>) -> bool {
        match check {
            Ok(()) => true,
            Err((at, reason)) => {
                self.set_error(format!("refused: {at}: {reason}"));
                false
            }
        }
    }

    /// A curve of `kind` if its parameters pass the file's checks and it can be built; else the
    /// error says why.
    fn checked_curve(&mut self, kind: crate::geometry::CurveKind) -> Option<crate::geometry::Curve> {
        if !self.accepts(scene::check_curve("curve", &scene::curve_spec("", &kind))) {
            return None;
        }
        match crate::geometry::Curve::new(kind) {
            Ok(curve) => Some(curve),
            Err(err) => {
                self.set_error(err.to_string());
                None
            }
        }
    }

    /// Gives a scene without bounds the box its loader would give it once something in it moves
    /// ([`scene::automatic_bounds`]), so it runs the same before and after it is saved.
    fn bound_moving_things(&mut self) {
        if self.world.bounds.is_none() {
            self.world.bounds = scene::automatic_bounds(&self.world);
        }
    }
}
