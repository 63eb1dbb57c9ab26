//! The planner's colour key: a swatch and a name for each colour of the planner's picture that
//! needs one (the seed's green plan, the complete fallback search's orange, the unreachable
//! waypoint's cross). The Display panel and the step-through both show it; the colours are read
//! from their one home, `render/style.rs`.

use std::collections::BTreeMap;

use crate::behaviours::GizmoRole;
use crate::render::style;

/// The key's entries: name (also the widget-rect suffix), label and channels (r, g, b).
pub fn planner_key() -> [(&'static str, &'static str, (u8, u8, u8)); 3] {
    let channels = |c: [f32; 3]| c.map(|v| (v * 255.0).round().clamp(0.0, 255.0) as u8);
    let plan = style::gizmo_color(GizmoRole::CurrentSegment, true);
    let [pr, pg, pb] = channels([plan.r, plan.g, plan.b]);
    let cross = style::UNREACHABLE;
    let [ur, ug, ub] = channels([cross.r, cross.g, cross.b]);
    [
        ("plan", "planned path (the seed's loop)", (pr, pg, pb)),
        ("fallback", "route from the complete fallback search", style::FALLBACK_ROUTE_RGB),
        ("unreachable", "unreachable waypoint (crossed, with the reason)", (ur, ug, ub)),
    ]
}

/// Draws the key, one swatch and label per entry; each row's rectangle goes into `rects` as
/// `{prefix}:{name}`.
pub fn planner_legend(ui: &mut egui::Ui, prefix: &str, rects: &mut BTreeMap<String, egui::Rect>) {
    for (name, label, (r, g, b)) in planner_key() {
        let row = ui.horizontal(|ui| {
            let (swatch, _) = ui.allocate_exact_size(egui::vec2(14.0, 6.0), egui::Sense::hover());
            ui.painter().rect_filled(swatch, 1.0, egui::Color32::from_rgb(r, g, b));
            ui.label(egui::RichText::new(label).small());
        });
        rects.insert(format!("{prefix}:{name}"), row.response.rect);
    }
}
