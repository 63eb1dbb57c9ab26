//! The inspector: what is selected, editable. For an agent: name, colour, limits and obstacle
//! avoidance (`SetAgentProperties`), its behaviour and what it follows, and every behaviour
//! parameter as a slider with its unit, a tooltip and a reset button (`SetBehaviour`, sent at
//! once; the editor merges a drag into one undo step). For a planner also its waypoint list.
//! For a path, obstacle, target or curve their own fields.

use glam::Vec3;

use crate::app::edit::default_behaviour;
use crate::app::{App, BehaviourKind, Command, Selection};
use crate::behaviours::param::Param;
use crate::behaviours::Limits;
use crate::sim::{Behaviour, PlannerParams, Rgb};

use super::params::{behaviour_params, param_row, with_param};
use super::{curve_editor, trim_line_breaks, UiState, ERROR_RED};
use crate::scene::{MAX_COORDINATE, MAX_SPEED};

/// Draws the inspector of the current selection; returns the edits.
pub fn inspector(ui: &mut egui::Ui, app: &App, state: &mut UiState) -> Vec<Command> {
    if app.selection_count() > 1 {
        return super::group::group_inspector(ui, app, state);
    }
    match app.selection {
        None => {
            ui.heading("Inspector");
            ui.label(
                egui::RichText::new("Select an agent, path, obstacle, target or curve to edit it.").weak(),
            );
            scene_summary(ui, app);
            Vec::new()
        }
        Some(Selection::Agent(agent_idx)) => agent_inspector(ui, app, state, agent_idx, None),
        Some(Selection::Waypoint { agent, waypoint }) => {
            agent_inspector(ui, app, state, agent, Some(waypoint))
        }
        Some(Selection::Path(path)) => path_inspector(ui, app, state, path, None),
        Some(Selection::PathPoint { path, point }) => path_inspector(ui, app, state, path, Some(point)),
        Some(Selection::Obstacle(obstacle)) => obstacle_inspector(ui, app, state, obstacle),
        Some(Selection::Target(target)) => target_inspector(ui, app, state, target),
        Some(Selection::Curve(curve)) => curve_editor::curve_inspector(ui, app, state, curve),
    }
}

fn scene_summary(ui: &mut egui::Ui, app: &App) {
    let world = &app.world;
    ui.add_space(6.0);
    ui.strong(if world.name.is_empty() { "Untitled" } else { world.name.as_str() });
    if !world.description.is_empty() {
        ui.label(&world.description);
    }
    use crate::app::plural;
    ui.label(format!(
        "{} · {} · {} · {} · step {:.4} s",
        plural(world.paths.len(), "path"),
        plural(world.curves.len(), "curve"),
        plural(world.targets.len(), "target"),
        plural(world.obstacles.len(), "obstacle"),
        world.dt
    ));
}

/// One labelled row of three drag values (x, y, z), each within ±`limit` (a typed value beyond
/// it lands on it, as a radius row's does: the scene file refuses more, so the scene could no
/// longer be saved or autosaved); true when one changed. The fields' rectangles go into
/// `state` as `LABEL:x`, `LABEL:y`, `LABEL:z`.
fn vec3_row(
    ui: &mut egui::Ui,
    state: &mut UiState,
    (label, unit, doc): (&str, &str, &str),
    limit: f32,
    value: &mut Vec3,
) -> bool {
    ui.label(label).on_hover_text(doc);
    let mut changed = false;
    ui.horizontal(|ui| {
        for (axis, component) in [("x ", &mut value.x), ("y ", &mut value.y), ("z ", &mut value.z)] {
            let drag = egui::DragValue::new(component)
                .prefix(axis)
                .suffix(unit)
                .speed(1.0)
                .range(-limit..=limit)
                .clamp_existing_to_range(false);
            let response = ui.add(drag).on_hover_text(doc);
            state.record_rect(format!("{label}:{}", axis.trim()), response.rect);
            changed |= response.changed();
        }
    });
    ui.end_row();
    changed
}

fn agent_inspector(
    ui: &mut egui::Ui,
    app: &App,
    state: &mut UiState,
    agent_idx: usize,
    waypoint: Option<usize>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(agent) = app.world.agents.get(agent_idx) else { return commands };
    ui.heading("Agent");

    // Name, colour, limits and avoidance: one command for all of them.
    let mut name = agent.about.name.clone();
    let mut colour = [agent.about.color.0, agent.about.color.1, agent.about.color.2];
    let Limits { mut radius, mut max_speed, mut max_acceleration } = agent.limits;
    let mut avoid_obstacles = agent.avoids_obstacles();
    let mut changed = false;
    egui::Grid::new("agent_properties").num_columns(2).show(ui, |ui| {
        ui.label("name");
        let response =
            ui.add(egui::TextEdit::singleline(&mut name).id_salt("agent_name").desired_width(160.0));
        state.record_rect("agent_name", response.rect);
        if response.changed() {
            trim_line_breaks(&mut name);
            changed = true;
        }
        ui.end_row();
        ui.label("colour");
        changed |= ui
            .color_edit_button_srgb(&mut colour)
            .on_hover_text("Colour in the world, the plots and the tables")
            .changed();
        ui.end_row();
        let limit_rows: [(&Param, &mut f32); 3] = [
            (&Limits::RADIUS, &mut radius),
            (&Limits::MAX_SPEED, &mut max_speed),
            (&Limits::MAX_ACCELERATION, &mut max_acceleration),
        ];
        for (declaration, value) in limit_rows {
            // The declaration's range bounds dragging; a typed value outside it is refused
            // with a message (the limit keeps its value), never clamped.
            let refusal_id = egui::Id::new(("limit_refused", declaration.key));
            ui.label(declaration.label).on_hover_text(declaration.help);
            let before = *value;
            let mut typed = *value;
            // Unbounded, so a typed 1e300 or NaN reaches the check as what it is (infinite, not
            // clamped to f32::MAX); a typed value applies on Enter, so a refused one never
            // leaves behind a prefix typed on the way ("1e3" of "1e300").
            let drag = egui::DragValue::new(&mut typed)
                .range(f32::NEG_INFINITY..=f32::INFINITY)
                .update_while_editing(false)
                .suffix(format!(" {}", declaration.unit))
                .speed(1.0);
            let response = ui.add(drag).on_hover_text(declaration.help);
            state.record_rect(format!("limit:{}", declaration.key), response.rect);
            if response.changed() && typed != before {
                match declaration.check(typed) {
                    Ok(accepted) => {
                        *value = accepted;
                        changed = true;
                        ui.data_mut(|data| data.remove::<String>(refusal_id));
                    }
                    Err(err) => ui.data_mut(|data| data.insert_temp(refusal_id, err.to_string())),
                }
            }
            ui.end_row();
            if let Some(reason) = ui.data(|data| data.get_temp::<String>(refusal_id)) {
                ui.label("");
                let message = ui.add(super::refusal_label(&reason));
                state.record_rect(format!("refused:limit:{}", declaration.key), message.rect);
                ui.end_row();
            }
        }
        ui.label("avoid obstacles");
        changed |= ui
            .checkbox(&mut avoid_obstacles, "")
            .on_hover_text("Add obstacle avoidance (probe, cast, lateral push) to the behaviour's steering")
            .changed();
        ui.end_row();
    });
    if changed {
        commands.push(Command::SetAgentProperties {
            agent: agent_idx,
            name,
            color: Rgb(colour[0], colour[1], colour[2]),
            limits: Limits { radius, max_speed, max_acceleration },
            avoid_obstacles,
        });
    }

    ui.separator();
    ui.strong("Behaviour");
    commands.extend(behaviour_editor(ui, app, state, agent_idx, waypoint));

    ui.separator();
    ui.strong("Behaviour list").on_hover_text(
        "The main behaviour above is entry 1; more entries are combined with it by weighted blending or by priority",
    );
    commands.extend(super::mix_editor::mix_editor(ui, app, state, agent_idx));

    ui.separator();
    let k = &agent.kinematics;
    ui.label(format!(
        "position ({:.1}, {:.1}, {:.1}) · speed {:.1} u/s{}",
        k.position.x,
        k.position.y,
        k.position.z,
        k.velocity.length(),
        if agent.is_finished() { " · finished" } else { "" }
    ));

    ui.separator();
    commands.extend(super::copies::copies_rows(ui, app, state, agent_idx));
    commands
}

/// The behaviour kind, its reference, and its parameters.
fn behaviour_editor(
    ui: &mut egui::Ui,
    app: &App,
    state: &mut UiState,
    agent_idx: usize,
    waypoint: Option<usize>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(agent) = app.world.agents.get(agent_idx) else { return commands };
    let behaviour = &agent.behaviour;
    let current_kind = BehaviourKind::of(behaviour);
    let selection = Some(Selection::Agent(agent_idx));
    let position = agent.kinematics.position;

    egui::Grid::new("behaviour_kind").num_columns(2).show(ui, |ui| {
        ui.label("type")
            .on_hover_text("What the agent does; switching keeps the path, target or curve it uses");
        let kind_combo = egui::ComboBox::from_id_salt("behaviour_kind")
            .selected_text(current_kind.label())
            .show_ui(ui, |ui| {
                for kind in BehaviourKind::ALL {
                    match default_behaviour(&app.world, kind, selection, Some(agent_idx), position) {
                        Ok(new_behaviour) => {
                            if ui.selectable_label(kind == current_kind, kind.label()).clicked()
                                && kind != current_kind
                            {
                                commands.push(Command::SetBehaviour {
                                    agent: agent_idx,
                                    behaviour: new_behaviour,
                                });
                            }
                        }
                        Err(why) => {
                            ui.add_enabled(false, egui::SelectableLabel::new(false, kind.label()))
                                .on_disabled_hover_text(why);
                        }
                    }
                }
            });
        state.record_rect("behaviour_kind", kind_combo.response.rect);
        ui.end_row();
        if let Some(changed) =
            super::pickers::reference_rows(ui, app, agent_idx, behaviour, "main", &mut state.widget_rects)
        {
            commands.push(Command::SetBehaviour { agent: agent_idx, behaviour: changed });
        }
    });

    let specs = behaviour_params(behaviour);
    if !specs.is_empty() {
        egui::Grid::new("behaviour_params").num_columns(3).show(ui, |ui| {
            for spec in &specs {
                if let Some(value) = param_row(ui, spec, &mut state.widget_rects) {
                    if let Some(changed) = with_param(behaviour, spec.key, value) {
                        if changed != *behaviour {
                            commands.push(Command::SetBehaviour { agent: agent_idx, behaviour: changed });
                        }
                    }
                }
            }
        });
    }
    if let Behaviour::Planner { params } = behaviour {
        if let Some(new_params) = waypoint_list(ui, state, params, waypoint) {
            commands.push(Command::SetBehaviour {
                agent: agent_idx,
                behaviour: Behaviour::Planner { params: Box::new(new_params) },
            });
        }
        if let Some(last) = waypoint_list_hint(params) {
            ui.label(egui::RichText::new(last).color(ERROR_RED));
        }
        ui.add_space(4.0);
        let open_here = app.planner_debug.as_ref().is_some_and(|d| d.agent == agent_idx);
        let label = if open_here { "Step through again from here" } else { "Step through the plan…" };
        let step = ui.button(label).on_hover_text(
            "Replan from where the ship is now, recording every iteration of the loop, and show them one at a time (pauses the simulation)",
        );
        state.record_rect("planner_step_through", step.rect);
        if step.clicked() {
            commands.push(Command::OpenPlannerDebug { agent: agent_idx });
        }
        if let crate::sim::BehaviourState::Planner(ship) = &agent.state {
            ui.label(
                egui::RichText::new(format!(
                    "{} of {} waypoints left · {} hits taken",
                    ship.remaining.len(),
                    params.waypoints.len(),
                    ship.hits
                ))
                .weak(),
            );
            let status = ship.status_line();
            let text = egui::RichText::new(format!("Status: {status}"));
            let text = match ship.status() {
                crate::planner::ShipStatus::Unreachable => text.color(ERROR_RED),
                _ => text.weak(),
            };
            let shown = ui.label(text);
            state.record_rect("planner_status", shown.rect);
        }
        ui.label(
            egui::RichText::new(
                "Target tool: click to append a waypoint. Alt+drag (or Ctrl+drag) from the ship pushes it.",
            )
            .weak()
            .small(),
        );
    }
    commands
}

/// Planner waypoints: editable coordinates, add and remove. Returns the edited parameters.
fn waypoint_list(
    ui: &mut egui::Ui,
    state: &mut UiState,
    params: &PlannerParams,
    selected: Option<usize>,
) -> Option<PlannerParams> {
    let mut edited = params.clone();
    let mut changed = false;
    let mut remove = None;
    ui.strong("Waypoints")
        .on_hover_text("The user's waypoints, flown in order (drag them in the world, too)");
    egui::Grid::new("planner_waypoints").num_columns(3).show(ui, |ui| {
        let count = edited.waypoints.len();
        for (idx, point) in edited.waypoints.iter_mut().enumerate() {
            let label =
                if selected == Some(idx) { format!("▶ {}", idx + 1) } else { format!("{}", idx + 1) };
            ui.label(label);
            ui.horizontal(|ui| {
                for (axis, component) in [("x ", &mut point.x), ("y ", &mut point.y), ("z ", &mut point.z)] {
                    let drag = egui::DragValue::new(component)
                        .prefix(axis)
                        .speed(1.0)
                        .range(-MAX_COORDINATE..=MAX_COORDINATE)
                        .clamp_existing_to_range(false);
                    changed |= ui.add(drag).changed();
                }
            });
            let remove_button = ui
                .add_enabled(count > 1, egui::Button::new("✖").small())
                .on_hover_text("Remove this waypoint")
                .on_disabled_hover_text("A planner keeps at least one waypoint");
            if remove_button.clicked() {
                remove = Some(idx);
            }
            ui.end_row();
        }
    });
    if let Some(idx) = remove {
        if idx < edited.waypoints.len() && edited.waypoints.len() > 1 {
            edited.waypoints.remove(idx);
            changed = true;
        }
    }
    let room = edited.waypoints.len() < crate::planner::MAX_WAYPOINTS;
    let add = ui
        .add_enabled(room, egui::Button::new("Add waypoint"))
        .on_hover_text("Append a waypoint 100 units past the last one")
        .on_disabled_hover_text(crate::app::edit::too_many_waypoints_reason());
    state.record_rect("inspector:add_waypoint", add.rect);
    if add.clicked() {
        let last = edited.waypoints.last().copied().unwrap_or(Vec3::ZERO);
        edited.waypoints.push(last + Vec3::new(100.0, 0.0, 0.0));
        changed = true;
    }
    (changed && edited != *params).then_some(edited)
}

/// A warning when the planner has nowhere to go.
fn waypoint_list_hint(params: &PlannerParams) -> Option<&'static str> {
    params.waypoints.is_empty().then_some("This planner has no waypoints: add one.")
}

fn path_inspector(
    ui: &mut egui::Ui,
    app: &App,
    state: &mut UiState,
    path_idx: usize,
    point: Option<usize>,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(path) = app.world.paths.get(path_idx) else { return commands };
    ui.heading(format!("Path {}", path.id));
    let points = path.polyline.points();
    let mut closed = path.polyline.is_closed();
    let mut radius = path.radius;
    egui::Grid::new("path_properties").num_columns(2).show(ui, |ui| {
        ui.label("closed").on_hover_text("Join the last point back to the first (a lap track)");
        let checkbox = ui.add_enabled(points.len() >= 3, egui::Checkbox::new(&mut closed, ""));
        state.record_rect("path:closed", checkbox.rect);
        if checkbox.changed() {
            commands.push(Command::SetPathClosed { path: path_idx, closed });
        }
        ui.end_row();
        let doc = "Channel half-width drawn around the path and used by the time-outside-radius metric (world units)";
        ui.label("radius").on_hover_text(doc);
        let drag = egui::DragValue::new(&mut radius).range(1.0..=500.0).clamp_existing_to_range(false).suffix(" u").speed(0.5);
        if ui.add(drag).on_hover_text(doc).changed() && radius != path.radius {
            commands.push(Command::SetPathRadius { path: path_idx, radius });
        }
        ui.end_row();
        ui.label("points");
        ui.label(format!("{}", points.len()));
        ui.end_row();
        ui.label("length");
        ui.label(format!("{:.1} u", path.polyline.length()));
        ui.end_row();
    });
    if let Some(point_idx) = point {
        if let Some(p) = points.get(point_idx) {
            ui.label(format!(
                "point {} at ({:.1}, {:.1}, {:.1}); drag it in the world",
                point_idx + 1,
                p.x,
                p.y,
                p.z
            ));
        }
    }
    let followers = app.world.agents.iter().filter(|a| a.behaviour.path() == Some(path_idx)).count();
    ui.label(format!("followed by {followers} agent{}", if followers == 1 { "" } else { "s" }));
    commands
}

/// `velocity`, shortened to within the scene file's speed limit (a hair under it, so that the
/// file's check, made in f64, never finds it a rounding error over).
fn within_speed_limit(velocity: Vec3) -> Vec3 {
    velocity.clamp_length_max(MAX_SPEED * (1.0 - 4.0 * f32::EPSILON))
}

fn obstacle_inspector(
    ui: &mut egui::Ui,
    app: &App,
    state: &mut UiState,
    obstacle_idx: usize,
) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(obstacle) = app.world.obstacles.get(obstacle_idx) else { return commands };
    ui.heading(format!("Obstacle {}", obstacle_idx + 1));
    let (mut position, mut velocity) = (obstacle.position, obstacle.velocity);
    let mut radius = obstacle.radius;
    let mut changed = false;
    egui::Grid::new("obstacle_properties").num_columns(2).show(ui, |ui| {
        changed |= vec3_row(
            ui,
            state,
            ("position", "", "Centre (world units); an edit also becomes its start position"),
            MAX_COORDINATE,
            &mut position,
        );
        let doc = "Radius of the sphere (a circle in 2D scenes), world units";
        ui.label("radius").on_hover_text(doc);
        changed |= ui
            .add(
                egui::DragValue::new(&mut radius)
                    .range(1.0..=1000.0)
                    .clamp_existing_to_range(false)
                    .suffix(" u")
                    .speed(0.5),
            )
            .on_hover_text(doc)
            .changed();
        ui.end_row();
        changed |= vec3_row(
            ui,
            state,
            ("velocity", "", "Velocity in units per second (bounces inside the world's bounds)"),
            MAX_SPEED,
            &mut velocity,
        );
        velocity = within_speed_limit(velocity);
    });
    if changed {
        commands.push(Command::SetObstacle { obstacle: obstacle_idx, position, radius, velocity });
    }
    commands
}

fn target_inspector(ui: &mut egui::Ui, app: &App, state: &mut UiState, target_idx: usize) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(target) = app.world.targets.get(target_idx) else { return commands };
    ui.heading(format!("Target {}", target.id));
    let (mut position, mut velocity) = (target.position, target.velocity);
    let mut changed = false;
    egui::Grid::new("target_properties").num_columns(2).show(ui, |ui| {
        changed |= vec3_row(
            ui,
            state,
            ("position", "", "Position (world units); an edit also becomes its start position"),
            MAX_COORDINATE,
            &mut position,
        );
        changed |= vec3_row(
            ui,
            state,
            ("velocity", "", "Velocity in units per second (bounces inside the world's bounds)"),
            MAX_SPEED,
            &mut velocity,
        );
        velocity = within_speed_limit(velocity);
    });
    if changed {
        commands.push(Command::SetTarget { target: target_idx, position, velocity });
    }
    let users = app.world.agents.iter().filter(|a| a.behaviour.target() == Some(target_idx)).count();
    ui.label(format!("used by {users} agent{}", if users == 1 { "" } else { "s" }));
    commands
}
