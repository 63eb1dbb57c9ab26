//! Behaviour parameters as data: [`behaviour_params`] lists every tunable parameter of a
//! behaviour with its label, unit, tooltip (the parameter struct's `///` text), current value,
//! default and range; [`with_param`] returns the behaviour with one parameter changed. The
//! inspector draws the list generically, so tests can change any slider without a window.
//!
//! Both functions destructure the parameter structs without `..`, so a new field fails to
//! compile here until the UI shows it. Planner waypoints are a list and have their own editor in
//! the inspector.

use crate::app::Command;
use crate::behaviours::ParametricMethod;
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

/// One tunable parameter of a behaviour.
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
    /// Slider range for numbers and counts.
    pub range: (f32, f32),
    /// Whether the slider is logarithmic.
    pub logarithmic: bool,
}

fn float(
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    doc: &'static str,
    value: f32,
    default: f32,
    range: (f32, f32),
) -> ParamSpec {
    ParamSpec {
        key,
        label,
        unit,
        doc,
        value: ParamValue::Float(value),
        default: ParamValue::Float(default),
        range,
        logarithmic: false,
    }
}

fn switch(
    key: &'static str,
    label: &'static str,
    doc: &'static str,
    value: bool,
    default: bool,
) -> ParamSpec {
    ParamSpec {
        key,
        label,
        unit: "",
        doc,
        value: ParamValue::Bool(value),
        default: ParamValue::Bool(default),
        range: (0.0, 1.0),
        logarithmic: false,
    }
}

/// Every tunable parameter of `behaviour`, in display order (empty for seek and flee).
pub fn behaviour_params(behaviour: &Behaviour) -> Vec<ParamSpec> {
    match behaviour {
        Behaviour::Seek { target: _ } | Behaviour::Flee { target: _ } => Vec::new(),
        Behaviour::Arrive { target: _, params } => {
            let ArriveParams { target_radius, slow_radius, time_to_target, braking_cap } = *params;
            let d = ArriveParams::default();
            vec![
                float(
                    "target_radius",
                    "target radius",
                    "units",
                    "Inside this distance the agent has arrived (world units, typically 2–20).",
                    target_radius,
                    d.target_radius,
                    (0.5, 100.0),
                ),
                float(
                    "slow_radius",
                    "slow radius",
                    "units",
                    "Inside this distance the agent slows down (world units, typically 50–200).",
                    slow_radius,
                    d.slow_radius,
                    (1.0, 500.0),
                ),
                ParamSpec {
                    logarithmic: true,
                    ..float(
                        "time_to_target",
                        "time to target",
                        "s",
                        "Time over which to reach the target speed (seconds, seed default 0.1).",
                        time_to_target,
                        d.time_to_target,
                        (0.01, 2.0),
                    )
                },
                switch(
                    "braking_cap",
                    "braking cap",
                    "Cap the target speed by the speed from which the agent can still stop at the target \
                     (a deviation from the seed, default on). Off gives the seed's linear ramp alone.",
                    braking_cap,
                    d.braking_cap,
                ),
            ]
        }
        Behaviour::Parametric { curve: _, params } => {
            let ParametricParams { speed, delta_t, t0, method } = *params;
            let d = ParametricParams::default();
            vec![
                float(
                    "speed",
                    "speed",
                    "units/s",
                    "Desired speed along the curve (world units per second, typically 20–300).",
                    speed,
                    d.speed,
                    (0.0, 600.0),
                ),
                ParamSpec {
                    logarithmic: true,
                    ..float(
                        "delta_t",
                        "delta T",
                        "T",
                        "The seed's small parameter increment for the secant (T units, typically 0.001–0.1).",
                        delta_t,
                        d.delta_t,
                        (0.0001, 1.0),
                    )
                },
                float(
                    "t0",
                    "T0",
                    "T",
                    "Starting parameter T0 (where Reset puts the agent).",
                    t0,
                    d.t0,
                    (-50.0, 50.0),
                ),
                ParamSpec {
                    key: "method",
                    label: "method",
                    unit: "",
                    doc: "Secant (the seed's twelve steps: the speed drifts with the curvature) or \
                          arc length (corrected: the measured speed equals the set speed).",
                    value: ParamValue::Method(method),
                    default: ParamValue::Method(d.method),
                    range: (0.0, 1.0),
                    logarithmic: false,
                },
            ]
        }
        Behaviour::Waypoints { path: _, params } => {
            let WaypointsParams { node_radius, closest_node } = *params;
            let d = WaypointsParams::default();
            vec![
                float(
                    "node_radius",
                    "node radius",
                    "units",
                    "A node counts as reached inside this distance (world units, typically 5–60).",
                    node_radius,
                    d.node_radius,
                    (1.0, 200.0),
                ),
                switch(
                    "closest_node",
                    "closest node",
                    "Seed 002's first idea: always treat the closest node as the current one (cuts corners).",
                    closest_node,
                    d.closest_node,
                ),
            ]
        }
        Behaviour::Projected { path: _, params } => {
            let ProjectedParams { offset } = *params;
            let d = ProjectedParams::default();
            vec![float(
                "offset",
                "offset",
                "units",
                "How far ahead of the projection the virtual target runs (world units, typically 10–80).",
                offset,
                d.offset,
                (0.0, 300.0),
            )]
        }
        Behaviour::Predictive { path: _, params } => {
            let PredictiveParams { prediction_time, path_radius } = *params;
            let d = PredictiveParams::default();
            vec![
                float(
                    "prediction_time",
                    "prediction time",
                    "s",
                    "How far ahead in time the position is predicted (seconds, typically 0.1–1.5).",
                    prediction_time,
                    d.prediction_time,
                    (0.0, 3.0),
                ),
                float(
                    "path_radius",
                    "path radius",
                    "units",
                    "Half-width of the channel inside which no correction is made (world units, typically 5–60).",
                    path_radius,
                    d.path_radius,
                    (1.0, 200.0),
                ),
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
            } = params;
            let d = PlannerParams::default();
            vec![
                float(
                    "clearance",
                    "clearance",
                    "units",
                    "Extra clearance kept from obstacles beyond the ship's radius (world units, typically 2–30).",
                    *clearance,
                    d.clearance,
                    (0.0, 100.0),
                ),
                ParamSpec {
                    key: "iteration_limit",
                    label: "iteration limit",
                    unit: "",
                    doc: "Most planner iterations per plan (typically 8–64); a partial plan is extended by replans.",
                    value: ParamValue::Int(*iteration_limit),
                    default: ParamValue::Int(d.iteration_limit),
                    range: (1.0, 256.0),
                    logarithmic: true,
                },
                ParamSpec {
                    logarithmic: true,
                    ..float(
                        "replan_interval",
                        "replan interval",
                        "s",
                        "Seconds between replans (seed: 0.5).",
                        *replan_interval,
                        d.replan_interval,
                        (0.05, 10.0),
                    )
                },
                float(
                    "arrival_radius",
                    "arrival radius",
                    "units",
                    "A waypoint is reached inside this distance (world units, typically 5–30).",
                    *arrival_radius,
                    d.arrival_radius,
                    (1.0, 100.0),
                ),
                switch(
                    "smoothing",
                    "smoothing",
                    "Drop waypoints whose neighbours see each other.",
                    *smoothing,
                    d.smoothing,
                ),
                ParamSpec {
                    logarithmic: true,
                    ..float(
                        "incoming_fire",
                        "incoming fire",
                        "hits/s",
                        "Random hits per second that knock the ship off course (0 = none, typically 0.2–3).",
                        *incoming_fire,
                        d.incoming_fire,
                        (0.0, 20.0),
                    )
                },
                float(
                    "fire_strength",
                    "fire strength",
                    "units/s",
                    "Velocity change of one hit, world units per second (typically 10–100).",
                    *fire_strength,
                    d.fire_strength,
                    (0.0, 300.0),
                ),
                ParamSpec {
                    key: "fire_seed",
                    label: "fire seed",
                    unit: "",
                    doc: "Seed of the hits' random generator: the same seed and start give the same hits.",
                    value: ParamValue::Int(u32::try_from(*fire_seed).unwrap_or(u32::MAX)),
                    default: ParamValue::Int(u32::try_from(d.fire_seed).unwrap_or(u32::MAX)),
                    range: (0.0, 9999.0),
                    logarithmic: false,
                },
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
/// parameter, the value has the wrong type, or it is not finite.
pub fn with_param(behaviour: &Behaviour, key: &str, value: ParamValue) -> Option<Behaviour> {
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
            } = params;
            match (key, value) {
                ("clearance", _) => set_f32(clearance, value)?,
                ("iteration_limit", ParamValue::Int(n)) => *iteration_limit = n.max(1),
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

/// `behaviour` following path, target or curve `reference` instead (by index); planners have
/// no reference and come back unchanged.
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
        Behaviour::Planner { .. } => {}
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

/// Draws one parameter row (label, widget, reset button) into a three-column grid; returns
/// the new value when the user changed it. The widget's and the reset button's rectangles go
/// into `rects` as `param:KEY` and `reset:KEY`.
pub fn param_row(
    ui: &mut egui::Ui,
    spec: &ParamSpec,
    rects: &mut std::collections::BTreeMap<String, egui::Rect>,
) -> Option<ParamValue> {
    let mut new_value = None;
    // The unit is the value's suffix, so the label column stays narrow.
    ui.label(spec.label).on_hover_text(spec.doc);
    match spec.value {
        ParamValue::Float(mut value) => {
            let (min, max) = spec.range;
            let mut slider = egui::Slider::new(&mut value, min..=max)
                .logarithmic(spec.logarithmic)
                .clamping(egui::SliderClamping::Edits);
            if !spec.unit.is_empty() {
                slider = slider.suffix(format!(" {}", spec.unit));
            }
            if spec.logarithmic {
                slider = slider.max_decimals(4);
            }
            let response = ui.add(slider).on_hover_text(spec.doc);
            rects.insert(format!("param:{}", spec.key), response.rect);
            if response.changed() {
                new_value = Some(ParamValue::Float(value));
            }
        }
        ParamValue::Int(mut value) => {
            let (min, max) = spec.range;
            let slider = egui::Slider::new(&mut value, (min as u32)..=(max as u32))
                .logarithmic(spec.logarithmic)
                .clamping(egui::SliderClamping::Edits);
            let response = ui.add(slider).on_hover_text(spec.doc);
            rects.insert(format!("param:{}", spec.key), response.rect);
            if response.changed() {
                new_value = Some(ParamValue::Int(value));
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
