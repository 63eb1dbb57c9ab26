//! The Display panel: one checkbox per explanatory drawing, each with a tooltip saying what it
//! shows. Returns the changed [`Display`] for the shell to store in `app.display`.

use std::collections::BTreeMap;

use crate::app::Display;

/// Draws the toggles; returns the new display settings when one was switched. Checkbox
/// rectangles go into `rects` as `display:LABEL`.
pub fn display_panel(
    ui: &mut egui::Ui,
    display: &Display,
    rects: &mut BTreeMap<String, egui::Rect>,
) -> Option<Display> {
    let Display {
        mut velocity,
        mut steering,
        mut targets,
        mut projection,
        mut prediction,
        mut path_radius,
        mut node_radii,
        mut tangent,
        mut arrive_radii,
        mut probes,
        mut trails,
        mut labels,
        mut plan,
        mut grid,
    } = *display;
    let mut changed = false;
    let rows: [(&mut bool, &str, &str); 14] = [
        (&mut velocity, "velocity", "Arrows for the agents' velocities"),
        (&mut steering, "steering", "The desired velocity and the steering force the behaviour asked for"),
        (&mut targets, "targets", "The points behaviours steer toward"),
        (&mut projection, "projection", "Path followers' projections onto the path and the current segment"),
        (&mut prediction, "prediction", "Predictive following's predicted position"),
        (&mut path_radius, "path radius", "The channel of width 2·radius around paths"),
        (&mut node_radii, "node radii", "Waypoint following's node radius around every path point"),
        (&mut tangent, "tangent", "Parametric following's tangent F'(T) and the value of T"),
        (&mut arrive_radii, "arrive radii", "Arrive's target radius (stop) and slow radius (brake)"),
        (&mut probes, "probes", "Obstacle-avoidance probes, cast hits and avoidance vectors"),
        (&mut trails, "trails", "Fading trails of the last seconds of every agent"),
        (&mut labels, "labels", "Agent names next to the agents"),
        (&mut plan, "plan", "Planner: the planned path (green; orange where the complete fallback search found it), the direct route, cast hits and avoidance vectors"),
        (&mut grid, "grid", "The background grid"),
    ];
    for (value, label, doc) in rows {
        let response = ui.checkbox(value, label).on_hover_text(doc);
        rects.insert(format!("display:{label}"), response.rect);
        changed |= response.changed();
    }
    let mut new = Display {
        velocity,
        steering,
        targets,
        projection,
        prediction,
        path_radius,
        node_radii,
        tangent,
        arrive_radii,
        probes,
        trails,
        labels,
        plan,
        grid,
    };
    ui.add_space(4.0);
    ui.label(egui::RichText::new("Planner colours").small().strong());
    super::legend::planner_legend(ui, "display:legend", rects);
    ui.horizontal(|ui| {
        if ui.button("All").on_hover_text("Show every drawing").clicked() {
            new = all_on();
            changed = true;
        }
        if ui.button("Defaults").on_hover_text("Back to the default drawings").clicked() {
            new = Display::default();
            changed = true;
        }
    });
    (changed && new != *display).then_some(new)
}

/// Every drawing switched on.
fn all_on() -> Display {
    Display {
        velocity: true,
        steering: true,
        targets: true,
        projection: true,
        prediction: true,
        path_radius: true,
        node_radii: true,
        tangent: true,
        arrive_radii: true,
        probes: true,
        trails: true,
        labels: true,
        plan: true,
        grid: true,
    }
}
