//! Behaviour parameters as data: [`behaviour_params`] lists every tunable parameter of a
//! behaviour with its label, unit, tooltip (the parameter struct's `///` text), current value,
//! default and range; [`with_param`] returns the behaviour with one parameter changed. The
//! inspector draws the list generically, so tests can change any slider without a window.
//!
//! Both functions destructure the parameter structs without `..`, so a new field fails to
//! compile here until the UI shows it. Planner waypoints are a list and have their own editor in
//! the inspector.

use crate::app::Command;
use crate::behaviours::param::{Param, ParamKind};
use crate::behaviours::{
    AvoidParams, CollisionAvoidanceParams, FaceParams, FlockingParams, HideParams, InterposeParams,
    LeaderFollowingParams, OffsetPursuitParams, ParametricMethod, PursuitParams, WanderParams,
};
use crate::behaviours::{ContainmentParams, FlowFieldParams};
use crate::sim::{
    ArriveParams, Behaviour, ParametricParams, PlannerParams, PredictiveParams, ProjectedParams,
    WaypointsParams,
};

/// A parameter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    /// A number.
    Float(f32),
    /// A count.
    Int(u32),
    /// A switch.
    Bool(bool),
    /// Parametric following's method.
    Method(ParametricMethod),
}

impl ParamValue {
    /// The value as the number its declaration checks (switches are 0 or 1; a method has none).
    pub fn as_number(self) -> Option<f32> {
        match self {
            ParamValue::Float(v) => Some(v),
            ParamValue::Int(v) => Some(v as f32),
            ParamValue::Bool(v) => Some(if v { 1.0 } else { 0.0 }),
            ParamValue::Method(_) => None,
        }
    }
}

/// One tunable parameter of a behaviour: its declaration's facts and the current value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// The field name (as in the scene file).
    pub key: &'static str,
    /// The label shown.
    pub label: &'static str,
    /// The unit shown after the value ("" for none).
    pub unit: &'static str,
    /// What it does (the tooltip).
    pub doc: &'static str,
    /// The current value.
    pub value: ParamValue,
    /// The default value (reset button).
    pub default: ParamValue,
    /// The accepted range for numbers and counts (the slider's and the scene validator's).
    pub range: (f32, f32),
    /// Whether the slider is logarithmic.
    pub logarithmic: bool,
    /// The declaration (None for the parametric method, a choice rather than a number).
    pub declaration: Option<Param>,
}

impl ParamSpec {
    /// Accepts a value the user entered, or says why not (never clamps).
    pub fn check(&self, value: ParamValue) -> Result<ParamValue, String> {
        let (Some(declaration), Some(number)) = (self.declaration, value.as_number()) else {
            return Ok(value);
        };
        declaration.check(number).map_err(|err| err.to_string())?;
        // The range may be narrower than the declaration's where parameters constrain each
        // other (arrive's slow radius is never below its target radius).
        let (min, max) = self.range;
        if number < min || number > max {
            let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
            return Err(format!(
                "`{}` must be from {min} to {max}{unit} with the other parameters as they are, got {}",
                self.key,
                crate::behaviours::param::number_text(number)
            ));
        }
        Ok(value)
    }
}

/// The value of `declaration` in its kind (a count, a switch or a number).
fn typed(declaration: &Param, number: f32) -> ParamValue {
    match declaration.kind {
        ParamKind::Float | ParamKind::Log => ParamValue::Float(number),
        ParamKind::Int => ParamValue::Int(number.max(0.0) as u32),
        ParamKind::Bool => ParamValue::Bool(number != 0.0),
    }
}

/// The row of `declaration` holding `value`.
pub fn row(declaration: &Param, value: ParamValue) -> ParamSpec {
    let Param { key, label, unit, min, max, default, help, kind } = *declaration;
    ParamSpec {
        key,
        label,
        unit,
        doc: help,
        value,
        default: typed(declaration, default),
        range: (min, max),
        logarithmic: kind == ParamKind::Log,
        declaration: Some(*declaration),
    }
}

/// Every tunable parameter of `behaviour`, in display order (empty for seek and flee), each
/// from its declaration (`PARAMS` of the parameter struct).
pub fn behaviour_params(behaviour: &Behaviour) -> Vec<ParamSpec> {
    match behaviour {
        Behaviour::Seek { target: _ } | Behaviour::Flee { target: _ } => Vec::new(),
        Behaviour::Arrive { target: _, params } => {
            let ArriveParams { target_radius, slow_radius, time_to_target, braking_cap } = *params;
            // The validator's rule `slow_radius ≥ target_radius` narrows both ranges.
            let narrowed = |spec: ParamSpec, min: f32, max: f32| ParamSpec { range: (min, max), ..spec };
            let target = row(&ArriveParams::TARGET_RADIUS, ParamValue::Float(target_radius));
            let slow = row(&ArriveParams::SLOW_RADIUS, ParamValue::Float(slow_radius));
            vec![
                narrowed(target, target.range.0, target.range.1.min(slow_radius)),
                narrowed(slow, slow.range.0.max(target_radius), slow.range.1),
                row(&ArriveParams::TIME_TO_TARGET, ParamValue::Float(time_to_target)),
                row(&ArriveParams::BRAKING_CAP, ParamValue::Bool(braking_cap)),
            ]
        }
        Behaviour::Parametric { curve: _, params } => {
            let ParametricParams { speed, delta_t, t0, method } = *params;
            vec![
                row(&ParametricParams::SPEED, ParamValue::Float(speed)),
                row(&ParametricParams::DELTA_T, ParamValue::Float(delta_t)),
                row(&ParametricParams::T0, ParamValue::Float(t0)),
                ParamSpec {
                    key: "method",
                    label: "method",
                    unit: "",
                    doc: "Secant (the seed's twelve steps: the speed drifts with the curvature) or \
                          arc length (corrected: the measured speed equals the set speed).",
                    value: ParamValue::Method(method),
                    default: ParamValue::Method(ParametricParams::default().method),
                    range: (0.0, 1.0),
                    logarithmic: false,
                    declaration: None,
                },
            ]
        }
        Behaviour::Waypoints { path: _, params } => {
            let WaypointsParams { node_radius, closest_node } = *params;
            vec![
                row(&WaypointsParams::NODE_RADIUS, ParamValue::Float(node_radius)),
                row(&WaypointsParams::CLOSEST_NODE, ParamValue::Bool(closest_node)),
            ]
        }
        Behaviour::Projected { path: _, params } => {
            let ProjectedParams { offset } = *params;
            vec![row(&ProjectedParams::OFFSET, ParamValue::Float(offset))]
        }
        Behaviour::Predictive { path: _, params } => {
            let PredictiveParams { prediction_time, path_radius } = *params;
            vec![
                row(&PredictiveParams::PREDICTION_TIME, ParamValue::Float(prediction_time)),
                row(&PredictiveParams::PATH_RADIUS, ParamValue::Float(path_radius)),
            ]
        }
        Behaviour::AvoidObstacles { params } => {
            let AvoidParams { look_ahead, margin } = *params;
            vec![
                row(&AvoidParams::LOOK_AHEAD, ParamValue::Float(look_ahead)),
                row(&AvoidParams::MARGIN, ParamValue::Float(margin)),
            ]
        }
        Behaviour::Pursuit { agent: _, params } | Behaviour::Evade { agent: _, params } => {
            let PursuitParams { max_prediction } = *params;
            vec![row(&PursuitParams::MAX_PREDICTION, ParamValue::Float(max_prediction))]
        }
        Behaviour::Wander { params } => {
            let WanderParams { radius, distance, jitter, seed } = *params;
            vec![
                row(&WanderParams::RADIUS, ParamValue::Float(radius)),
                row(&WanderParams::DISTANCE, ParamValue::Float(distance)),
                row(&WanderParams::JITTER, ParamValue::Float(jitter)),
                row(&WanderParams::SEED, ParamValue::Int(seed)),
            ]
        }
        Behaviour::Flocking { params } => {
            let FlockingParams { separation, alignment, cohesion, separation_radius, radius, view_angle } =
                *params;
            vec![
                row(&FlockingParams::SEPARATION, ParamValue::Float(separation)),
                row(&FlockingParams::ALIGNMENT, ParamValue::Float(alignment)),
                row(&FlockingParams::COHESION, ParamValue::Float(cohesion)),
                row(&FlockingParams::SEPARATION_RADIUS, ParamValue::Float(separation_radius)),
                row(&FlockingParams::RADIUS, ParamValue::Float(radius)),
                row(&FlockingParams::VIEW_ANGLE, ParamValue::Float(view_angle)),
            ]
        }
        Behaviour::OffsetPursuit { agent: _, params } => {
            let OffsetPursuitParams { offset_x, offset_y, approach_time, match_velocity } = *params;
            vec![
                row(&OffsetPursuitParams::OFFSET_X, ParamValue::Float(offset_x)),
                row(&OffsetPursuitParams::OFFSET_Y, ParamValue::Float(offset_y)),
                row(&OffsetPursuitParams::APPROACH_TIME, ParamValue::Float(approach_time)),
                row(&OffsetPursuitParams::MATCH_VELOCITY, ParamValue::Bool(match_velocity)),
            ]
        }
        Behaviour::Containment { region: _, params } => {
            let ContainmentParams { look_ahead, margin } = *params;
            vec![
                row(&ContainmentParams::LOOK_AHEAD, ParamValue::Float(look_ahead)),
                row(&ContainmentParams::MARGIN, ParamValue::Float(margin)),
            ]
        }
        // The rows of the field in use: noise (seed, scale), along a path (pull) or painted
        // (none: its cells are painted in the world).
        Behaviour::FlowField { path, field, params } => {
            let FlowFieldParams { look_ahead, seed, scale, pull } = *params;
            let mut rows = vec![row(&FlowFieldParams::LOOK_AHEAD, ParamValue::Float(look_ahead))];
            match (field, path) {
                (Some(_), _) => {}
                (None, Some(_)) => rows.push(row(&FlowFieldParams::PULL, ParamValue::Float(pull))),
                (None, None) => {
                    rows.push(row(&FlowFieldParams::SEED, ParamValue::Int(seed)));
                    rows.push(row(&FlowFieldParams::SCALE, ParamValue::Float(scale)));
                }
            }
            rows
        }
        Behaviour::CollisionAvoidance { params } => {
            let CollisionAvoidanceParams { horizon, margin } = *params;
            vec![
                row(&CollisionAvoidanceParams::HORIZON, ParamValue::Float(horizon)),
                row(&CollisionAvoidanceParams::MARGIN, ParamValue::Float(margin)),
            ]
        }
        Behaviour::LeaderFollowing { agent: _, params } => {
            use crate::behaviours::leader_following::{BEHIND, CLEAR_PATH, SIGHT_DISTANCE, SIGHT_RADIUS};
            let LeaderFollowingParams { behind, sight_distance, sight_radius, approach_time, clear_path } =
                *params;
            vec![
                row(&BEHIND, ParamValue::Float(behind)),
                row(&SIGHT_DISTANCE, ParamValue::Float(sight_distance)),
                row(&SIGHT_RADIUS, ParamValue::Float(sight_radius)),
                row(&OffsetPursuitParams::APPROACH_TIME, ParamValue::Float(approach_time)),
                row(&CLEAR_PATH, ParamValue::Bool(clear_path)),
            ]
        }
        Behaviour::Interpose { agent: _, other: _, params } => {
            let InterposeParams { slow_radius } = *params;
            vec![row(&crate::behaviours::interpose::SLOW_RADIUS, ParamValue::Float(slow_radius))]
        }
        Behaviour::Hide { agent: _, params } => {
            use crate::behaviours::hide::{DISTANCE_FROM_BOUNDARY, SLOW_RADIUS};
            let HideParams { distance_from_boundary, slow_radius } = *params;
            vec![
                row(&DISTANCE_FROM_BOUNDARY, ParamValue::Float(distance_from_boundary)),
                row(&SLOW_RADIUS, ParamValue::Float(slow_radius)),
            ]
        }
        Behaviour::Face { agent: _, params } | Behaviour::LookWhereYouAreGoing { params } => {
            use crate::behaviours::face::{MAX_ROTATION, SLOW_ANGLE};
            let FaceParams { max_rotation, slow_angle } = *params;
            vec![
                row(&MAX_ROTATION, ParamValue::Float(max_rotation)),
                row(&SLOW_ANGLE, ParamValue::Float(slow_angle)),
            ]
        }
        Behaviour::Planner { params } => {
            let PlannerParams {
                waypoints: _,
                clearance,
                iteration_limit,
                replan_interval,
                arrival_radius,
                smoothing,
                incoming_fire,
                fire_strength,
                fire_seed,
            } = &**params;
            vec![
                row(&PlannerParams::CLEARANCE, ParamValue::Float(*clearance)),
                row(&PlannerParams::ITERATION_LIMIT, ParamValue::Int(*iteration_limit)),
                row(&PlannerParams::REPLAN_INTERVAL, ParamValue::Float(*replan_interval)),
                row(&PlannerParams::ARRIVAL_RADIUS, ParamValue::Float(*arrival_radius)),
                row(&PlannerParams::SMOOTHING, ParamValue::Bool(*smoothing)),
                row(&PlannerParams::INCOMING_FIRE, ParamValue::Float(*incoming_fire)),
                row(&PlannerParams::FIRE_STRENGTH, ParamValue::Float(*fire_strength)),
                row(
                    &PlannerParams::FIRE_SEED,
                    ParamValue::Int(u32::try_from(*fire_seed).unwrap_or(u32::MAX)),
                ),
            ]
        }
    }
}

fn set_f32(slot: &mut f32, value: ParamValue) -> Option<()> {
    match value {
        ParamValue::Float(v) if v.is_finite() => {
            *slot = v;
            Some(())
        }
        _ => None,
    }
}

fn set_bool(slot: &mut bool, value: ParamValue) -> Option<()> {
    match value {
        ParamValue::Bool(v) => {
            *slot = v;
            Some(())
        }
        _ => None,
    }
}

/// `behaviour` with parameter `key` set to `value`; None when the behaviour has no such
/// parameter, the value has the wrong type, or its declaration refuses it (not finite, out of
/// range, not whole) — a refused value is never clamped into range.
pub fn with_param(behaviour: &Behaviour, key: &str, value: ParamValue) -> Option<Behaviour> {
    let spec = behaviour_params(behaviour).into_iter().find(|spec| spec.key == key)?;
    spec.check(value).ok()?;
    let mut changed = behaviour.clone();
    match &mut changed {
        Behaviour::Seek { target: _ } | Behaviour::Flee { target: _ } => return None,
        Behaviour::Arrive { target: _, params } => {
            let ArriveParams { target_radius, slow_radius, time_to_target, braking_cap } = params;
            match key {
                "target_radius" => set_f32(target_radius, value)?,
                "slow_radius" => set_f32(slow_radius, value)?,
                "time_to_target" => set_f32(time_to_target, value)?,
                "braking_cap" => set_bool(braking_cap, value)?,
                _ => return None,
            }
        }
        Behaviour::Parametric { curve: _, params } => {
            let ParametricParams { speed, delta_t, t0, method } = params;
            match (key, value) {
                ("speed", _) => set_f32(speed, value)?,
                ("delta_t", _) => set_f32(delta_t, value)?,
                ("t0", _) => set_f32(t0, value)?,
                ("method", ParamValue::Method(new_method)) => *method = new_method,
                _ => return None,
            }
        }
        Behaviour::Waypoints { path: _, params } => {
            let WaypointsParams { node_radius, closest_node } = params;
            match key {
                "node_radius" => set_f32(node_radius, value)?,
                "closest_node" => set_bool(closest_node, value)?,
                _ => return None,
            }
        }
        Behaviour::Projected { path: _, params } => {
            let ProjectedParams { offset } = params;
            match key {
                "offset" => set_f32(offset, value)?,
                _ => return None,
            }
        }
        Behaviour::Predictive { path: _, params } => {
            let PredictiveParams { prediction_time, path_radius } = params;
            match key {
                "prediction_time" => set_f32(prediction_time, value)?,
                "path_radius" => set_f32(path_radius, value)?,
                _ => return None,
            }
        }
        Behaviour::AvoidObstacles { params } => {
            let AvoidParams { look_ahead, margin } = params;
            match key {
                "look_ahead" => set_f32(look_ahead, value)?,
                "margin" => set_f32(margin, value)?,
                _ => return None,
            }
        }
        Behaviour::Pursuit { agent: _, params } | Behaviour::Evade { agent: _, params } => {
            let PursuitParams { max_prediction } = params;
            match key {
                "max_prediction" => set_f32(max_prediction, value)?,
                _ => return None,
            }
        }
        Behaviour::Wander { params } => {
            let WanderParams { radius, distance, jitter, seed } = params;
            match (key, value) {
                ("radius", _) => set_f32(radius, value)?,
                ("distance", _) => set_f32(distance, value)?,
                ("jitter", _) => set_f32(jitter, value)?,
                ("seed", ParamValue::Int(n)) => *seed = n,
                _ => return None,
            }
        }
        Behaviour::Flocking { params } => {
            let FlockingParams { separation, alignment, cohesion, separation_radius, radius, view_angle } =
                params;
            match key {
                "separation" => set_f32(separation, value)?,
                "alignment" => set_f32(alignment, value)?,
                "cohesion" => set_f32(cohesion, value)?,
                "separation_radius" => set_f32(separation_radius, value)?,
                "radius" => set_f32(radius, value)?,
                "view_angle" => set_f32(view_angle, value)?,
                _ => return None,
            }
        }
        Behaviour::OffsetPursuit { agent: _, params } => {
            let OffsetPursuitParams { offset_x, offset_y, approach_time, match_velocity } = params;
            match key {
                "offset_x" => set_f32(offset_x, value)?,
                "offset_y" => set_f32(offset_y, value)?,
                "approach_time" => set_f32(approach_time, value)?,
                "match_velocity" => set_bool(match_velocity, value)?,
                _ => return None,
            }
        }
        Behaviour::Containment { region: _, params } => {
            let ContainmentParams { look_ahead, margin } = params;
            match key {
                "look_ahead" => set_f32(look_ahead, value)?,
                "margin" => set_f32(margin, value)?,
                _ => return None,
            }
        }
        Behaviour::FlowField { path: _, field: _, params } => {
            let FlowFieldParams { look_ahead, seed, scale, pull } = params;
            match (key, value) {
                ("look_ahead", _) => set_f32(look_ahead, value)?,
                ("seed", ParamValue::Int(n)) => *seed = n,
                ("scale", _) => set_f32(scale, value)?,
                ("pull", _) => set_f32(pull, value)?,
                _ => return None,
            }
        }
        Behaviour::CollisionAvoidance { params } => {
            let CollisionAvoidanceParams { horizon, margin } = params;
            match key {
                "horizon" => set_f32(horizon, value)?,
                "margin" => set_f32(margin, value)?,
                _ => return None,
            }
        }
        Behaviour::LeaderFollowing { agent: _, params } => {
            let LeaderFollowingParams { behind, sight_distance, sight_radius, approach_time, clear_path } =
                params;
            match key {
                "behind" => set_f32(behind, value)?,
                "sight_distance" => set_f32(sight_distance, value)?,
                "sight_radius" => set_f32(sight_radius, value)?,
                "approach_time" => set_f32(approach_time, value)?,
                "clear_path" => set_bool(clear_path, value)?,
                _ => return None,
            }
        }
        Behaviour::Interpose { agent: _, other: _, params } => {
            let InterposeParams { slow_radius } = params;
            match key {
                "slow_radius" => set_f32(slow_radius, value)?,
                _ => return None,
            }
        }
        Behaviour::Hide { agent: _, params } => {
            let HideParams { distance_from_boundary, slow_radius } = params;
            match key {
                "distance_from_boundary" => set_f32(distance_from_boundary, value)?,
                "slow_radius" => set_f32(slow_radius, value)?,
                _ => return None,
            }
        }
        Behaviour::Face { agent: _, params } | Behaviour::LookWhereYouAreGoing { params } => {
            let FaceParams { max_rotation, slow_angle } = params;
            match key {
                "max_rotation" => set_f32(max_rotation, value)?,
                "slow_angle" => set_f32(slow_angle, value)?,
                _ => return None,
            }
        }
        Behaviour::Planner { params } => {
            let PlannerParams {
                waypoints: _,
                clearance,
                iteration_limit,
                replan_interval,
                arrival_radius,
                smoothing,
                incoming_fire,
                fire_strength,
                fire_seed,
            } = &mut **params;
            match (key, value) {
                ("clearance", _) => set_f32(clearance, value)?,
                ("iteration_limit", ParamValue::Int(n)) => *iteration_limit = n,
                ("replan_interval", _) => set_f32(replan_interval, value)?,
                ("arrival_radius", _) => set_f32(arrival_radius, value)?,
                ("smoothing", _) => set_bool(smoothing, value)?,
                ("incoming_fire", _) => set_f32(incoming_fire, value)?,
                ("fire_strength", _) => set_f32(fire_strength, value)?,
                ("fire_seed", ParamValue::Int(n)) => *fire_seed = u64::from(n),
                _ => return None,
            }
        }
    }
    Some(changed)
}

/// The command that sets one parameter of agent `agent`'s `behaviour` (what a slider emits);
/// None when nothing would change.
pub fn param_command(agent: usize, behaviour: &Behaviour, key: &str, value: ParamValue) -> Option<Command> {
    let changed = with_param(behaviour, key, value)?;
    (changed != *behaviour).then_some(Command::SetBehaviour { agent, behaviour: changed })
}

/// `behaviour` following path, target, curve or other agent `reference` instead (by index);
/// planners have no reference and come back unchanged.
pub fn with_reference(behaviour: &Behaviour, reference: usize) -> Behaviour {
    let mut changed = behaviour.clone();
    match &mut changed {
        Behaviour::Seek { target } | Behaviour::Flee { target } | Behaviour::Arrive { target, .. } => {
            *target = reference;
        }
        Behaviour::Parametric { curve, .. } => *curve = reference,
        Behaviour::Waypoints { path, .. }
        | Behaviour::Projected { path, .. }
        | Behaviour::Predictive { path, .. } => {
            *path = reference;
        }
        Behaviour::Pursuit { agent, .. }
        | Behaviour::Evade { agent, .. }
        | Behaviour::OffsetPursuit { agent, .. }
        | Behaviour::LeaderFollowing { agent, .. }
        | Behaviour::Interpose { agent, .. }
        | Behaviour::Hide { agent, .. }
        | Behaviour::Face { agent, .. } => *agent = reference,
        Behaviour::Containment { region, .. } => *region = reference,
        Behaviour::FlowField { path, field, .. } => {
            *path = Some(reference);
            *field = None;
        }
        Behaviour::Planner { .. }
        | Behaviour::AvoidObstacles { .. }
        | Behaviour::Wander { .. }
        | Behaviour::Flocking { .. }
        | Behaviour::CollisionAvoidance { .. }
        | Behaviour::LookWhereYouAreGoing { .. } => {}
    }
    changed
}

/// `behaviour` with its second agent reference (interpose's second agent) set to `reference`;
/// behaviours with one reference or none come back unchanged.
pub fn with_second_reference(behaviour: &Behaviour, reference: usize) -> Behaviour {
    let mut changed = behaviour.clone();
    if let Some(other) = changed.second_agent_mut() {
        *other = reference;
    }
    changed
}

/// A method's label.
pub fn method_label(method: ParametricMethod) -> &'static str {
    match method {
        ParametricMethod::Secant => "secant (seed)",
        ParametricMethod::ArcLength => "arc length",
    }
}

/// A number's slider (without its own value) and, beside it, a box to type the value in that
/// applies it on Enter or when the box loses focus: egui 0.31's slider applies every partial
/// entry as it is typed (`1e300` applied `1` on the way to its refusal, `150` applied 1 and 15).
/// Dragging the slider applies at once. The box takes any number, so that a value outside the
/// declaration reaches the check and is refused, not clamped. The pair's rectangle goes into
/// `rects` as `param:KEY`, the box at its right end.
fn slider_and_box<N: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    spec: &ParamSpec,
    value: N,
    range: std::ops::RangeInclusive<N>,
    logarithmic: bool,
    rects: &mut std::collections::BTreeMap<String, egui::Rect>,
) -> Option<N> {
    let (mut dragged_to, mut typed) = (value, value);
    let row = ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let slider = egui::Slider::new(&mut dragged_to, range)
            .logarithmic(logarithmic)
            .clamping(egui::SliderClamping::Never)
            .show_value(false);
        let dragged = ui.add(slider).on_hover_text(spec.doc);
        let (min, max) = spec.range;
        let mut field = egui::DragValue::new(&mut typed)
            .range(f64::NEG_INFINITY..=f64::INFINITY)
            .update_while_editing(false)
            .speed(f64::from((max - min).abs() / 500.0).clamp(1e-4, 1e4))
            .max_decimals(if spec.logarithmic { 4 } else { 3 });
        if !spec.unit.is_empty() {
            field = field.suffix(format!(" {}", spec.unit));
        }
        let typed_in = ui.add(field).on_hover_text(spec.doc);
        (dragged.changed(), typed_in.changed())
    });
    let (dragged, typed_in) = row.inner;
    rects.insert(format!("param:{}", spec.key), row.response.rect);
    if typed_in && typed != value {
        return Some(typed);
    }
    (dragged && dragged_to != value).then_some(dragged_to)
}

/// Draws one parameter row (label, widget, reset button) into a three-column grid; returns
/// the new value when the user changed it. The widget's and the reset button's rectangles go
/// into `rects` as `param:KEY` and `reset:KEY`.
pub fn param_row(
    ui: &mut egui::Ui,
    spec: &ParamSpec,
    rects: &mut std::collections::BTreeMap<String, egui::Rect>,
) -> Option<ParamValue> {
    let refusal_id = egui::Id::new(("param_refused", spec.key));
    let mut new_value = None;
    // The unit is the value's suffix, so the label column stays narrow.
    ui.label(spec.label).on_hover_text(spec.doc);
    match spec.value {
        ParamValue::Float(value) => {
            let (min, max) = spec.range;
            if let Some(changed) = slider_and_box(ui, spec, value, min..=max, spec.logarithmic, rects) {
                new_value = Some(ParamValue::Float(changed));
            }
        }
        ParamValue::Int(value) => {
            let (min, max) = spec.range;
            let logarithmic = spec.logarithmic || max / min.max(1.0) > 1000.0;
            let range = (min as u32)..=(max as u32);
            if let Some(changed) = slider_and_box(ui, spec, value, range, logarithmic, rects) {
                new_value = Some(ParamValue::Int(changed));
            }
        }
        ParamValue::Bool(mut value) => {
            let response = ui.checkbox(&mut value, "").on_hover_text(spec.doc);
            rects.insert(format!("param:{}", spec.key), response.rect);
            if response.changed() {
                new_value = Some(ParamValue::Bool(value));
            }
        }
        ParamValue::Method(mut method) => {
            let before = method;
            egui::ComboBox::from_id_salt(("param", spec.key))
                .selected_text(method_label(method))
                .show_ui(ui, |ui| {
                    for option in [ParametricMethod::Secant, ParametricMethod::ArcLength] {
                        ui.selectable_value(&mut method, option, method_label(option));
                    }
                })
                .response
                .on_hover_text(spec.doc);
            if method != before {
                new_value = Some(ParamValue::Method(method));
            }
        }
    }
    let is_default = spec.value == spec.default;
    let reset = ui
        .add_enabled(!is_default, egui::Button::new("⟲").small())
        .on_hover_text(format!("Reset to the default ({})", value_text(spec.default, spec.unit)));
    rects.insert(format!("reset:{}", spec.key), reset.rect);
    if reset.clicked() {
        new_value = Some(spec.default);
    }
    ui.end_row();
    // A typed value outside the declaration is refused, not clamped: the value stays as it
    // was and the reason is shown under the row until an accepted value replaces it.
    if let Some(value) = new_value {
        match spec.check(value) {
            Ok(_) => ui.data_mut(|data| data.remove::<String>(refusal_id)),
            Err(reason) => {
                ui.data_mut(|data| data.insert_temp(refusal_id, reason));
                new_value = None;
            }
        }
    }
    if let Some(reason) = ui.data(|data| data.get_temp::<String>(refusal_id)) {
        // Under the widget, wrapped to its column: a long reason must not widen the label
        // column or the panel (a resizable panel keeps a width its content once took).
        ui.label("");
        let message = ui.add(super::refusal_label(&reason));
        rects.insert(format!("refused:{}", spec.key), message.rect);
        ui.end_row();
    }
    new_value
}

/// A value as text with its unit.
pub fn value_text(value: ParamValue, unit: &str) -> String {
    let text = match value {
        ParamValue::Float(v) => format!("{v}"),
        ParamValue::Int(v) => format!("{v}"),
        ParamValue::Bool(v) => if v { "on" } else { "off" }.to_string(),
        ParamValue::Method(m) => method_label(m).to_string(),
    };
    if unit.is_empty() {
        text
    } else {
        format!("{text} {unit}")
    }
}
