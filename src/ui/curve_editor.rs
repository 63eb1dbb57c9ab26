//! The curve inspector: built-in kinds show their numbers as drag values (each change sends
//! `SetCurve`); `expr` curves get a typed editor for x(t), y(t), z(t), t_min and t_max that
//! validates as you type with [`Curve::new`] and shows the error in place, in red. Apply sends
//! `SetCurve` only when the text is valid.

use glam::Vec3;

use crate::app::{App, Command};
use crate::geometry::{Curve, CurveKind};
use crate::scene::{MAX_COORDINATE, MAX_DISTANCE, MAX_FREQUENCY, MAX_PARAMETER};

/// Widget rectangles by name (published for scripts and tests).
type Rects = std::collections::BTreeMap<String, egui::Rect>;

use super::{trim_line_breaks, UiState, ERROR_RED};

/// The text buffers of the expression editor of one curve.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprEditor {
    /// The curve edited (index into `world.curves`).
    pub curve: usize,
    /// The curve's shape when the buffers were filled (they refill when it changes elsewhere).
    pub source: CurveKind,
    /// x(t) as typed.
    pub x: String,
    /// y(t) as typed.
    pub y: String,
    /// z(t) as typed.
    pub z: String,
    /// t_min as typed.
    pub t_min: String,
    /// t_max as typed.
    pub t_max: String,
    /// The shape the text describes, or why it is not valid.
    pub validation: Result<CurveKind, String>,
}

impl ExprEditor {
    /// Buffers filled from curve `curve` of shape `kind` (None unless it is an `expr` curve).
    pub fn new(curve: usize, kind: &CurveKind) -> Option<ExprEditor> {
        let CurveKind::Expr { x, y, z, t_min, t_max } = kind else { return None };
        let mut editor = ExprEditor {
            curve,
            source: kind.clone(),
            x: x.clone(),
            y: y.clone(),
            z: z.clone(),
            t_min: t_min.to_string(),
            t_max: t_max.to_string(),
            validation: Ok(kind.clone()),
        };
        editor.revalidate();
        Some(editor)
    }

    /// Checks the text again (after an edit).
    pub fn revalidate(&mut self) {
        self.validation = validate_expr_curve(&self.x, &self.y, &self.z, &self.t_min, &self.t_max);
    }

    /// Whether the text differs from the curve as it is.
    pub fn is_modified(&self) -> bool {
        self.validation.as_ref().map_or(true, |kind| *kind != self.source)
    }
}

/// The `expr` curve typed in the editor's fields, or the first thing wrong with it (the
/// message names the bad component, e.g. `bad expression for x: …`).
pub fn validate_expr_curve(x: &str, y: &str, z: &str, t_min: &str, t_max: &str) -> Result<CurveKind, String> {
    let number = |name: &str, text: &str| -> Result<f32, String> {
        match text.trim().parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("{name} must be a finite number, got `{}`", text.trim())),
        }
    };
    let t_min_value = number("t_min", t_min)?;
    let t_max_value = number("t_max", t_max)?;
    if t_max_value <= t_min_value {
        return Err(format!("t_max ({t_max_value}) must be greater than t_min ({t_min_value})"));
    }
    let kind = CurveKind::Expr {
        x: x.trim().to_string(),
        y: y.trim().to_string(),
        z: z.trim().to_string(),
        t_min: t_min_value,
        t_max: t_max_value,
    };
    Curve::new(kind.clone()).map(|_| kind).map_err(|err| err.to_string())
}

/// Draws the inspector of curve `curve_idx`; returns `SetCurve` when it was changed.
pub fn curve_inspector(ui: &mut egui::Ui, app: &App, state: &mut UiState, curve_idx: usize) -> Vec<Command> {
    let mut commands = Vec::new();
    let Some(named) = app.world.curves.get(curve_idx) else { return commands };
    let kind = named.curve.kind();
    ui.heading(format!("Curve {}", named.id));
    let (t_min, t_max) = named.curve.t_range();
    ui.label(format!(
        "{} · T from {t_min:.3} to {t_max:.3}{}",
        kind_name(kind),
        if named.curve.is_closed() { " · closed" } else { "" }
    ));
    let followers = app.world.agents.iter().filter(|a| a.behaviour.curve() == Some(curve_idx)).count();
    ui.label(format!("followed by {followers} agent{}", if followers == 1 { "" } else { "s" }));

    if let CurveKind::Expr { .. } = kind {
        let stale = state.expr_editor.as_ref().is_none_or(|e| e.curve != curve_idx || e.source != *kind);
        if stale {
            state.expr_editor = ExprEditor::new(curve_idx, kind);
        }
        if let Some(editor) = state.expr_editor.as_mut() {
            if let Some(new_kind) = expr_editor(ui, editor, &mut state.widget_rects) {
                commands.push(Command::SetCurve { curve: curve_idx, kind: new_kind });
            }
        }
    } else if let Some(new_kind) = builtin_editor(ui, kind, &mut state.widget_rects) {
        if new_kind != *kind {
            commands.push(Command::SetCurve { curve: curve_idx, kind: new_kind });
        }
    }
    commands
}

fn kind_name(kind: &CurveKind) -> &'static str {
    match kind {
        CurveKind::Circle { .. } => "circle",
        CurveKind::Ellipse { .. } => "ellipse",
        CurveKind::Lemniscate { .. } => "lemniscate",
        CurveKind::Lissajous { .. } => "lissajous",
        CurveKind::Helix { .. } => "helix",
        CurveKind::Spline { .. } => "spline",
        CurveKind::Expr { .. } => "expression",
    }
}

/// The typed editor; returns the new shape when Apply was pressed with valid text. Field and
/// button rectangles go into `rects` as `expr:x(t)` … `expr:t_max` and `expr:apply`.
fn expr_editor(
    ui: &mut egui::Ui,
    editor: &mut ExprEditor,
    rects: &mut std::collections::BTreeMap<String, egui::Rect>,
) -> Option<CurveKind> {
    let mut edited = false;
    egui::Grid::new("expr_curve_grid").num_columns(2).show(ui, |ui| {
        let fields: [(&str, &str, &mut String); 5] = [
            ("x(t)", "x coordinate as a function of t, e.g. 200*cos(t)", &mut editor.x),
            ("y(t)", "y coordinate as a function of t, e.g. 100*sin(2*t)", &mut editor.y),
            ("z(t)", "z coordinate (height) as a function of t; 0 for a flat curve", &mut editor.z),
            ("t_min", "first value of the parameter t", &mut editor.t_min),
            ("t_max", "last value of the parameter t (greater than t_min)", &mut editor.t_max),
        ];
        for (label, doc, buffer) in fields {
            ui.label(label).on_hover_text(doc);
            let response = ui
                .add(egui::TextEdit::singleline(buffer).id_salt(("expr", label)).desired_width(180.0))
                .on_hover_text(doc);
            rects.insert(format!("expr:{label}"), response.rect);
            if response.changed() {
                trim_line_breaks(buffer);
                edited = true;
            }
            ui.end_row();
        }
    });
    if edited {
        editor.revalidate();
    }
    let mut applied = None;
    match editor.validation.clone() {
        Ok(kind) => {
            let mut revert = false;
            ui.horizontal(|ui| {
                let modified = kind != editor.source;
                let apply =
                    ui.add_enabled(modified, egui::Button::new("Apply")).on_hover_text("Use this curve");
                rects.insert("expr:apply".to_string(), apply.rect);
                if apply.clicked() {
                    applied = Some(kind.clone());
                }
                revert = ui.add_enabled(modified, egui::Button::new("Revert")).clicked();
                if !modified {
                    ui.label(egui::RichText::new("valid").weak());
                }
            });
            if revert {
                if let Some(fresh) = ExprEditor::new(editor.curve, &editor.source) {
                    *editor = fresh;
                }
            }
        }
        Err(why) => {
            ui.label(egui::RichText::new(why).color(ERROR_RED));
            let apply = ui
                .add_enabled(false, egui::Button::new("Apply"))
                .on_disabled_hover_text("Fix the error first");
            rects.insert("expr:apply".to_string(), apply.rect);
        }
    }
    ui.label(
        egui::RichText::new("Functions: sin cos tan exp ln sqrt abs, operators + - * / ^, the variable t.")
            .weak(),
    );
    applied
}

/// Three drag values within the scene file's coordinate limit (a typed value beyond it lands
/// on it: a curve the file refuses could no longer be saved or autosaved). Their rectangles go
/// into `rects` as `curve:LABEL:x` … `curve:LABEL:z`.
fn vec3_row(ui: &mut egui::Ui, rects: &mut Rects, label: &str, doc: &str, value: &mut Vec3) -> bool {
    ui.label(label).on_hover_text(doc);
    let mut changed = false;
    ui.horizontal(|ui| {
        for (axis, component) in [("x ", &mut value.x), ("y ", &mut value.y), ("z ", &mut value.z)] {
            let drag = egui::DragValue::new(component)
                .prefix(axis)
                .speed(1.0)
                .range(-MAX_COORDINATE..=MAX_COORDINATE)
                .clamp_existing_to_range(false);
            let response = ui.add(drag).on_hover_text(doc);
            rects.insert(format!("curve:{label}:{}", axis.trim()), response.rect);
            changed |= response.changed();
        }
    });
    ui.end_row();
    changed
}

/// A drag value within `range`, the scene file's limits for the number (a typed value beyond
/// them lands on the nearer end); its rectangle goes into `rects` as `curve:LABEL`.
fn number_row(
    ui: &mut egui::Ui,
    rects: &mut Rects,
    (label, unit, doc): (&str, &str, &str),
    value: &mut f32,
    range: std::ops::RangeInclusive<f32>,
    speed: f64,
) -> bool {
    ui.label(label).on_hover_text(doc);
    let mut drag = egui::DragValue::new(value).speed(speed).range(range).clamp_existing_to_range(false);
    if !unit.is_empty() {
        drag = drag.suffix(format!(" {unit}"));
    }
    let response = ui.add(drag).on_hover_text(doc);
    rects.insert(format!("curve:{label}"), response.rect);
    ui.end_row();
    response.changed()
}

/// Drag values for a built-in kind; returns the edited shape when something changed.
fn builtin_editor(ui: &mut egui::Ui, kind: &CurveKind, rects: &mut Rects) -> Option<CurveKind> {
    let mut edited = kind.clone();
    let mut changed = false;
    egui::Grid::new("builtin_curve_grid").num_columns(2).show(ui, |ui| match &mut edited {
        CurveKind::Circle { center, radius } => {
            changed |= vec3_row(ui, rects, "centre", "Centre of the circle (world units)", center);
            changed |= number_row(
                ui,
                rects,
                ("radius", "u", "Radius (world units)"),
                radius,
                1.0..=MAX_DISTANCE,
                1.0,
            );
        }
        CurveKind::Ellipse { center, radius_x, radius_y } => {
            changed |= vec3_row(ui, rects, "centre", "Centre of the ellipse (world units)", center);
            changed |= number_row(
                ui,
                rects,
                ("radius x", "u", "Half-width along x (world units)"),
                radius_x,
                1.0..=MAX_DISTANCE,
                1.0,
            );
            changed |= number_row(
                ui,
                rects,
                ("radius y", "u", "Half-height along y (world units)"),
                radius_y,
                1.0..=MAX_DISTANCE,
                1.0,
            );
        }
        CurveKind::Lemniscate { center, size } => {
            changed |= vec3_row(ui, rects, "centre", "Centre of the figure eight (world units)", center);
            changed |= number_row(
                ui,
                rects,
                ("size", "u", "Half-width of the figure eight (world units)"),
                size,
                1.0..=MAX_DISTANCE,
                1.0,
            );
        }
        CurveKind::Lissajous { center, amplitude, freq_x, freq_y, phase } => {
            changed |= vec3_row(ui, rects, "centre", "Centre of the figure (world units)", center);
            changed |= vec3_row(ui, rects, "amplitude", "Half-extent along x and y (world units)", amplitude);
            changed |= number_row(
                ui,
                rects,
                ("freq x", "", "Frequency of the x oscillation"),
                freq_x,
                0.0..=MAX_FREQUENCY,
                0.05,
            );
            changed |= number_row(
                ui,
                rects,
                ("freq y", "", "Frequency of the y oscillation"),
                freq_y,
                0.0..=MAX_FREQUENCY,
                0.05,
            );
            changed |= number_row(
                ui,
                rects,
                ("phase", "rad", "Phase of the x oscillation (radians)"),
                phase,
                -MAX_PARAMETER..=MAX_PARAMETER,
                0.01,
            );
        }
        CurveKind::Helix { center, radius, pitch, turns } => {
            changed |= vec3_row(ui, rects, "centre", "Centre of the helix's base (world units)", center);
            changed |= number_row(
                ui,
                rects,
                ("radius", "u", "Radius of the helix (world units)"),
                radius,
                1.0..=MAX_DISTANCE,
                1.0,
            );
            changed |= number_row(
                ui,
                rects,
                ("pitch", "u", "Rise per turn (world units)"),
                pitch,
                -MAX_PARAMETER..=MAX_PARAMETER,
                1.0,
            );
            changed |=
                number_row(ui, rects, ("turns", "", "Number of turns"), turns, 0.1..=MAX_FREQUENCY, 0.05);
        }
        CurveKind::Spline { points, closed } => {
            ui.label("closed").on_hover_text("Join the last point back to the first");
            changed |= ui.checkbox(closed, "").changed();
            ui.end_row();
            for (point_idx, point) in points.iter_mut().enumerate() {
                changed |= vec3_row(
                    ui,
                    rects,
                    &format!("point {point_idx}"),
                    "A point the spline passes through",
                    point,
                );
            }
        }
        CurveKind::Expr { .. } => {}
    });
    (changed && Curve::new(edited.clone()).is_ok()).then_some(edited)
}
