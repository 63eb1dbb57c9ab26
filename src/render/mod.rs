//! Draws the world with macroquad: the top view in screen space (so lines keep their pixel
//! widths at any zoom) and the 3D orbit view through a `Camera3D`. Reads the editor state and
//! the gizmos the behaviours emitted; never mutates anything. Colours come from [`style`].
//!
//! Everything is drawn through macroquad's immediate-mode batcher, which merges consecutive
//! shapes into few draw calls; text (the slowest part) is drawn last and only where it helps:
//! names when there are at most [`MAX_LABELLED_AGENTS`] agents.

use macroquad::prelude::{
    clear_background, draw_circle, draw_circle_lines, draw_line, draw_poly, draw_rectangle, draw_text,
    draw_triangle, Color, Vec2,
};

use crate::app::{edit, App, Selection, Tool, ViewMode, MAX_GIZMO_AGENTS};
use crate::behaviours::{Gizmo, GizmoRole, GizmoShape};
use crate::sim::GizmoFocus;
use crate::sim::{Agent, Behaviour};

pub mod batch;
pub mod crowd;
pub mod labels;
pub mod orbit;
pub mod orbit_crowd;
pub mod planner;
pub mod style;

use labels::Labels;

/// Names are drawn next to agents up to this many agents.
pub const MAX_LABELLED_AGENTS: usize = 40;

/// Trail samples drawn in total, shared among agents (each agent shows its most recent share).
pub const TRAIL_BUDGET: usize = 12_000;
/// Trails are drawn for every agent up to this many agents, beyond it for the selected one only.
pub const MAX_TRAIL_AGENTS: usize = 500;
/// Velocity arrows are drawn up to this many agents (the arrow shape already shows heading).
pub const MAX_VELOCITY_ARROWS: usize = 300;

/// Draws the world in the active view (call before egui).
pub fn draw_world(app: &App) {
    match app.camera.mode {
        ViewMode::Top => draw_top(app),
        ViewMode::Orbit => orbit::draw_orbit(app),
    }
}

/// Whether the display toggles let this gizmo be drawn.
pub fn gizmo_visible(app: &App, gizmo: &Gizmo, planner: bool) -> bool {
    let d = &app.display;
    match gizmo.role {
        GizmoRole::Target => d.targets,
        GizmoRole::Projection | GizmoRole::CurrentSegment => {
            if planner {
                d.plan
            } else {
                d.projection
            }
        }
        GizmoRole::Prediction => d.prediction,
        GizmoRole::DesiredVelocity | GizmoRole::SteeringForce => d.steering,
        GizmoRole::NodeRadius => d.node_radii,
        GizmoRole::TargetRadius | GizmoRole::SlowRadius => d.arrive_radii,
        GizmoRole::PathRadius => d.path_radius,
        GizmoRole::Tangent | GizmoRole::ParameterValue => d.tangent,
        GizmoRole::Disturbance => true,
        GizmoRole::FallbackSegment => d.plan,
        GizmoRole::WanderCircle => d.targets,
        GizmoRole::FlowVector => d.steering,
        GizmoRole::Heading => d.steering,
        GizmoRole::NeighbourRadius | GizmoRole::NeighbourLink | GizmoRole::Boundary => d.probes,
        GizmoRole::Probe | GizmoRole::CastHit | GizmoRole::AvoidanceVector => {
            if planner {
                d.plan
            } else {
                d.probes
            }
        }
    }
}

/// Which agents get their gizmos drawn ([`App::gizmo_focus`]: the ones the world records).
pub fn gizmo_agents(app: &App) -> Vec<usize> {
    match app.gizmo_focus() {
        GizmoFocus::All => (0..app.world.agents.len()).collect(),
        GizmoFocus::Only(only) => only.into_iter().collect(),
    }
}

fn to_screen(app: &App, p: glam::Vec3) -> Vec2 {
    app.camera.world_to_screen(p)
}

/// An arrow in screen space with a filled head, its shaft `width` wide and its head sized for
/// it, both given at UI scale 1 and drawn `k` times larger ([`Camera::pixel_scale`]).
///
/// [`Camera::pixel_scale`]: crate::app::Camera::pixel_scale
pub(crate) fn draw_arrow(from: Vec2, to: Vec2, width: f32, k: f32, color: Color) {
    let dir = to - from;
    let length = dir.length();
    if length < 1.0 {
        return;
    }
    let unit = dir / length;
    let head = (length * 0.35).min((9.0 + width * 2.0) * k);
    let base = to - unit * head;
    draw_line(from.x, from.y, base.x, base.y, width * k, color);
    let side = Vec2::new(-unit.y, unit.x) * head * 0.45;
    draw_triangle(to, base + side, base - side, color);
}

fn draw_dashed_circle(center: Vec2, radius: f32, thickness: f32, color: Color) {
    let n = ((radius * 0.4) as usize).clamp(12, 96) & !1;
    for i in (0..n).step_by(2) {
        let a0 = i as f32 / n as f32 * std::f32::consts::TAU;
        let a1 = (i + 1) as f32 / n as f32 * std::f32::consts::TAU;
        let p0 = center + Vec2::new(a0.cos(), a0.sin()) * radius;
        let p1 = center + Vec2::new(a1.cos(), a1.sin()) * radius;
        draw_line(p0.x, p0.y, p1.x, p1.y, thickness, color);
    }
}

pub(crate) fn nice_grid_step(zoom: f32) -> f32 {
    let target_px = 40.0;
    let raw = target_px / zoom.max(1e-6);
    let magnitude = 10f32.powf(raw.log10().floor());
    for factor in [1.0, 2.0, 5.0, 10.0] {
        if magnitude * factor >= raw {
            return magnitude * factor;
        }
    }
    magnitude * 10.0
}

/// With snapping on, the grid shows the snapping spacing (a multiple of it when the lines would
/// be closer than a few pixels), so what is placed visibly lands on lines.
fn snap_grid_step(size: f32, zoom: f32) -> f32 {
    let mut step = size.max(1e-3);
    while step * zoom < 8.0 && step.is_finite() {
        step *= 5.0;
    }
    step
}

fn draw_grid(app: &App) {
    let camera = &app.camera;
    let k = camera.pixel_scale();
    // Spaced in points (pixels at UI scale 1), so a HiDPI screen shows the same grid.
    let points_per_unit = camera.zoom / k;
    let step = if app.snap.on {
        snap_grid_step(app.snap.size, points_per_unit)
    } else {
        nice_grid_step(points_per_unit)
    };
    let top_left = camera.screen_to_world(Vec2::ZERO);
    let bottom_right = camera.screen_to_world(camera.screen);
    let (x0, x1) = (top_left.x.min(bottom_right.x), top_left.x.max(bottom_right.x));
    let (y0, y1) = (top_left.y.min(bottom_right.y), top_left.y.max(bottom_right.y));
    let lines = ((x1 - x0) / step) as usize + ((y1 - y0) / step) as usize;
    if lines > 400 {
        return;
    }
    let mut x = (x0 / step).floor() * step;
    while x <= x1 {
        let major = ((x / step).round() as i64) % 5 == 0;
        let sx = to_screen(app, glam::Vec3::new(x, 0.0, 0.0)).x;
        let color = if major { style::GRID_MAJOR } else { style::GRID_MINOR };
        draw_line(sx, 0.0, sx, camera.screen.y, k, color);
        x += step;
    }
    let mut y = (y0 / step).floor() * step;
    while y <= y1 {
        let major = ((y / step).round() as i64) % 5 == 0;
        let sy = to_screen(app, glam::Vec3::new(0.0, y, 0.0)).y;
        let color = if major { style::GRID_MAJOR } else { style::GRID_MINOR };
        draw_line(0.0, sy, camera.screen.x, sy, k, color);
        y += step;
    }
}

/// Most points of one path drawn in a frame: a path of millions of points (a 50 MB scene) is
/// thinned to this many, so frame time and draw buffers stay bounded.
const MAX_DRAWN_PATH_POINTS: usize = 8_000;

/// The points of a path to draw, as (point index, screen position): a point within 1.5 px of
/// the last one kept is skipped (the first and the last are always kept), and what is still
/// above [`MAX_DRAWN_PATH_POINTS`] is thinned evenly. A closed path ends with its first point
/// again. Paths of a few thousand points keep every point they show apart.
fn drawn_path_points(app: &App, points: &[glam::Vec3], closed: bool) -> Vec<(usize, Vec2)> {
    let n = points.len();
    // A first even thinning bounds the work before the distance test (4 candidates per kept point).
    let coarse = n.div_ceil(MAX_DRAWN_PATH_POINTS * 4).max(1);
    let mut kept: Vec<(usize, Vec2)> = Vec::with_capacity(n.min(MAX_DRAWN_PATH_POINTS * 4));
    let last_idx = n.saturating_sub(1);
    let candidates = (0..n).step_by(coarse).chain((!last_idx.is_multiple_of(coarse)).then_some(last_idx));
    for idx in candidates {
        let Some(&p) = points.get(idx) else { continue };
        let s = to_screen(app, p);
        let far_enough = kept.last().is_none_or(|&(_, last)| last.distance_squared(s) >= 1.5 * 1.5);
        if far_enough || idx == last_idx {
            kept.push((idx, s));
        }
    }
    if kept.len() > MAX_DRAWN_PATH_POINTS {
        let stride = kept.len().div_ceil(MAX_DRAWN_PATH_POINTS);
        let last = kept.last().copied();
        kept = kept.into_iter().step_by(stride).collect();
        if let Some(last) = last {
            if kept.last() != Some(&last) {
                kept.push(last);
            }
        }
    }
    if closed && n > 2 {
        if let Some(&first) = kept.first() {
            kept.push(first);
        }
    }
    kept
}

fn draw_paths(app: &App, labels: &mut Labels) {
    let zoom = app.camera.zoom;
    let k = app.camera.pixel_scale();
    let drawn: Vec<Vec<(usize, Vec2)>> = app
        .world
        .paths
        .iter()
        .map(|path| drawn_path_points(app, path.polyline.points(), path.polyline.is_closed()))
        .collect();
    // Channel bands first (opaque, so overlaps don't darken), then centre lines on top.
    if app.display.path_radius {
        for (path, points) in app.world.paths.iter().zip(&drawn) {
            let width = 2.0 * path.radius * zoom;
            for pair in points.windows(2) {
                if let [(_, sa), (_, sb)] = pair {
                    draw_line(sa.x, sa.y, sb.x, sb.y, width, style::PATH_BAND);
                }
            }
            for &(_, s) in points {
                draw_circle(s.x, s.y, path.radius * zoom, style::PATH_BAND);
            }
        }
    }
    for ((path_idx, path), points) in app.world.paths.iter().enumerate().zip(&drawn) {
        let selected = app.path_selected(path_idx);
        let hovered = app.hover.and_then(Selection::path) == Some(path_idx);
        let color = if selected {
            style::SELECTED
        } else if hovered {
            style::HOVER
        } else {
            style::PATH
        };
        let thickness = if selected { 3.0 } else { 2.0 } * k;
        for pair in points.windows(2) {
            let [(_, sa), (_, sb)] = pair else { continue };
            let (sa, sb) = (*sa, *sb);
            draw_line(sa.x, sa.y, sb.x, sb.y, thickness, color);
            // A small chevron in the middle of long segments shows the direction of travel.
            let length = sa.distance(sb);
            if length > 60.0 * k {
                let mid = (sa + sb) * 0.5;
                let unit = (sb - sa) / length;
                let side = Vec2::new(-unit.y, unit.x) * 5.0 * k;
                let tip = mid + unit * 5.0 * k;
                let back = mid - unit * 3.0 * k;
                draw_line(back.x + side.x, back.y + side.y, tip.x, tip.y, 1.5 * k, color);
                draw_line(back.x - side.x, back.y - side.y, tip.x, tip.y, 1.5 * k, color);
            }
        }
        let closing = usize::from(path.polyline.is_closed() && points.len() > 1);
        for &(point_idx, s) in points.iter().take(points.len() - closing) {
            let this = Selection::PathPoint { path: path_idx, point: point_idx };
            let size = if app.is_selected(this) { 5.0 } else { 3.0 } * k;
            let point_color =
                if app.is_selected(this) || app.hover == Some(this) { style::SELECTED } else { color };
            draw_rectangle(s.x - size, s.y - size, size * 2.0, size * 2.0, point_color);
            if point_idx == 0 {
                draw_circle_lines(s.x, s.y, 7.0 * k, 1.5 * k, color);
            }
        }
        if let Some(&first) = path.polyline.points().first() {
            labels.add_if_room(&path.id, to_screen(app, first), 8.0, 16, style::PATH);
        }
    }
}

/// Points along a curve for drawing (its top-down projection in 2D).
pub fn curve_samples(curve: &crate::geometry::Curve, n: usize) -> Vec<glam::Vec3> {
    let (t0, t1) = curve.t_range();
    (0..=n).map(|i| curve.point(t0 + (t1 - t0) * i as f32 / n as f32)).collect()
}

fn draw_curves(app: &App, labels: &mut Labels) {
    let k = app.camera.pixel_scale();
    for (idx, named) in app.world.curves.iter().enumerate() {
        let selected = app.is_selected(Selection::Curve(idx));
        let color = if selected {
            style::SELECTED
        } else if app.hover == Some(Selection::Curve(idx)) {
            style::HOVER
        } else {
            style::CURVE
        };
        let samples = curve_samples(&named.curve, 360);
        for pair in samples.windows(2) {
            let (a, b) = (to_screen(app, pair[0]), to_screen(app, pair[1]));
            draw_line(a.x, a.y, b.x, b.y, if selected { 2.5 } else { 1.5 } * k, color);
        }
        let handle = to_screen(app, edit::curve_handle(&named.curve));
        draw_circle_lines(handle.x, handle.y, 4.0 * k, 1.5 * k, color);
        labels.add_if_room(&named.id, handle, 6.0, 16, style::CURVE);
    }
}

fn draw_obstacles(app: &App) {
    let zoom = app.camera.zoom;
    let k = app.camera.pixel_scale();
    for (idx, obstacle) in app.world.obstacles.iter().enumerate() {
        let s = to_screen(app, obstacle.position);
        let r = obstacle.radius * zoom;
        draw_circle(s.x, s.y, r, style::OBSTACLE);
        let this = Selection::Obstacle(idx);
        let (edge, width) = if app.is_selected(this) {
            (style::SELECTED, 3.0)
        } else if app.hover == Some(this) {
            (style::HOVER, 2.5)
        } else {
            (style::OBSTACLE_EDGE, 1.5)
        };
        draw_circle_lines(s.x, s.y, r, width * k, edge);
        if obstacle.velocity.length_squared() > 0.0 {
            // From the surface to where it will be in a second (an arrow from the centre would
            // hide inside a slow sphere).
            let edge = obstacle.position + obstacle.velocity.normalize_or_zero() * obstacle.radius;
            draw_arrow(
                to_screen(app, edge),
                to_screen(app, edge + obstacle.velocity),
                1.5,
                k,
                style::OBSTACLE_EDGE,
            );
        }
    }
}

fn draw_targets(app: &App, labels: &mut Labels) {
    let k = app.camera.pixel_scale();
    for (idx, target) in app.world.targets.iter().enumerate() {
        let s = to_screen(app, target.position);
        let this = Selection::Target(idx);
        let color = if app.is_selected(this) {
            style::SELECTED
        } else if app.hover == Some(this) {
            style::HOVER
        } else {
            style::TARGET
        };
        draw_circle_lines(s.x, s.y, 9.0 * k, 2.0 * k, color);
        draw_circle(s.x, s.y, 3.0 * k, color);
        let (near, far) = (5.0 * k, 13.0 * k);
        draw_line(s.x - far, s.y, s.x - near, s.y, 1.5 * k, color);
        draw_line(s.x + near, s.y, s.x + far, s.y, 1.5 * k, color);
        draw_line(s.x, s.y - far, s.x, s.y - near, 1.5 * k, color);
        draw_line(s.x, s.y + near, s.x, s.y + far, 1.5 * k, color);
        labels.add_if_room(&target.id, s, 12.0, 16, style::TARGET);
    }
}

fn draw_trails(app: &App) {
    if !app.display.trails || app.world.agents.is_empty() {
        return;
    }
    // The cost is fill rate and vertex count, so the recent part shown per agent shrinks as the
    // crowd grows: TRAIL_BUDGET samples shared among all agents, drawn as one batch.
    let crowd = app.world.agents.len() > MAX_TRAIL_AGENTS;
    let per_agent = if crowd {
        crate::app::history::TRAIL_LENGTH
    } else {
        (TRAIL_BUDGET / app.world.agents.len()).clamp(4, crate::app::history::TRAIL_LENGTH)
    };
    let thickness =
        if app.world.agents.len() > MAX_GIZMO_AGENTS { 1.5 } else { 2.0 } * app.camera.pixel_scale();
    let mut batch = batch::Batch::default();
    let selected = app.selected_agent();
    for (idx, agent) in app.world.agents.iter().enumerate() {
        if app.is_hidden(idx) {
            continue;
        }
        // A crowd's trails are noise (and each segment costs two triangles): only the selected
        // agent keeps its trail then.
        if crowd && selected != Some(idx) {
            continue;
        }
        let samples = app.trails.trail_len(idx);
        let skip = samples.saturating_sub(per_agent);
        let shown = samples - skip;
        let mut previous: Option<Vec2> = None;
        for (i, p) in app.trails.trail(idx).skip(skip).enumerate() {
            let s = to_screen(app, p);
            if let Some(previous) = previous {
                let alpha = 0.05 + 0.5 * (i as f32 / shown.max(1) as f32);
                batch.line(previous, s, thickness, style::agent_color(agent.about.color, alpha));
            }
            previous = Some(s);
        }
    }
}

/// A gizmo to draw, for both views.
pub struct VisibleGizmo<'a> {
    /// The gizmo.
    pub gizmo: &'a Gizmo,
    /// Its colour (by role; the seed's colours for a planner's).
    pub color: Color,
    /// Whether it is a planner ship's.
    pub planner: bool,
    /// With more than one planner ship, a ship's own colour: its planned path carries a stripe
    /// of it over the seed's green, so the routes can be told apart (one ship keeps the seed's
    /// plain green).
    pub stripe: Option<Color>,
}

/// Every gizmo to draw this frame, in both views: the gizmos of the agents shown
/// ([`gizmo_agents`]) that the display toggles allow, except those of a ship being stepped
/// through (the step-through draws its recorded plan instead).
pub fn visible_gizmos(app: &App) -> impl Iterator<Item = VisibleGizmo<'_>> + '_ {
    let debugged = debugged_agent(app);
    let ships = app.world.agents.iter().filter(|a| matches!(a.behaviour, Behaviour::Planner { .. })).count();
    gizmo_agents(app)
        .into_iter()
        .filter(move |&idx| debugged != Some(idx) && !app.is_hidden(idx))
        .filter_map(|idx| app.world.agents.get(idx))
        .flat_map(move |agent| {
            let planner = matches!(agent.behaviour, Behaviour::Planner { .. });
            agent.gizmos.items().iter().filter(move |gizmo| gizmo_visible(app, gizmo, planner)).map(
                move |gizmo| VisibleGizmo {
                    gizmo,
                    color: style::gizmo_color(gizmo.role, planner),
                    planner,
                    stripe: (planner && ships > 1).then(|| style::agent_color(agent.about.color, 1.0)),
                },
            )
        })
}

fn draw_gizmos(app: &App) {
    let zoom = app.camera.zoom;
    let k = app.camera.pixel_scale();
    for VisibleGizmo { gizmo, color, stripe, .. } in visible_gizmos(app) {
        match gizmo.shape {
            GizmoShape::Point(p) => {
                let s = to_screen(app, p);
                match gizmo.role {
                    GizmoRole::CastHit => {
                        let r = 5.0 * k;
                        draw_line(s.x - r, s.y - r, s.x + r, s.y + r, 2.0 * k, color);
                        draw_line(s.x - r, s.y + r, s.x + r, s.y - r, 2.0 * k, color);
                    }
                    GizmoRole::Prediction => draw_circle_lines(s.x, s.y, 5.0 * k, 2.0 * k, color),
                    _ => draw_circle(s.x, s.y, 4.0 * k, color),
                }
            }
            GizmoShape::Line(a, b) => {
                let (sa, sb) = (to_screen(app, a), to_screen(app, b));
                let route = matches!(gizmo.role, GizmoRole::CurrentSegment | GizmoRole::FallbackSegment);
                let width = if route { 4.0 } else { 1.5 } * k;
                draw_line(sa.x, sa.y, sb.x, sb.y, width, color);
                if let (Some(stripe), GizmoRole::CurrentSegment) = (stripe, gizmo.role) {
                    draw_line(sa.x, sa.y, sb.x, sb.y, 1.5 * k, stripe);
                }
            }
            GizmoShape::Arrow(a, b) => {
                draw_arrow(to_screen(app, a), to_screen(app, b), 2.0, k, color);
            }
            GizmoShape::Circle { center, radius } => {
                let s = to_screen(app, center);
                let r = radius * zoom;
                if gizmo.role == GizmoRole::SlowRadius || gizmo.role == GizmoRole::NodeRadius {
                    draw_dashed_circle(s, r, 1.5 * k, color);
                } else if gizmo.role == GizmoRole::CastHit {
                    // The obstacle a planner cast detected: the seed's blue outline.
                    draw_circle_lines(s.x, s.y, r, 3.0 * k, color);
                } else {
                    draw_circle_lines(s.x, s.y, r, 1.5 * k, color);
                }
            }
            GizmoShape::Value { at, value } => {
                let s = to_screen(app, at);
                draw_text(format!("T={value:.2}"), s.x + 10.0 * k, s.y + 18.0 * k, 15.0 * k, color);
            }
        }
    }
}

/// The outline of an agent's arrow in screen space: tip, left, notch, right.
pub fn agent_arrow(center: Vec2, heading: f32, size: f32) -> [Vec2; 4] {
    // Screen y is down, world y is up: flip the heading.
    let (sin, cos) = (-heading).sin_cos();
    let forward = Vec2::new(cos, sin);
    let side = Vec2::new(-sin, cos);
    [
        center + forward * size * 1.4,
        center - forward * size + side * size,
        center - forward * size * 0.45,
        center - forward * size - side * size,
    ]
}

/// The half-size of an agent's arrow on screen (pixels): its radius at the zoom, kept between
/// 4 and 40 points so a far-out view still shows it and a close one does not fill the view.
fn agent_size(app: &App, agent: &Agent) -> f32 {
    let k = app.camera.pixel_scale();
    (agent.limits.radius * app.camera.zoom).clamp(4.0 * k, 40.0 * k)
}

/// How an agent's arrow looks on screen: its size (pixels), body colour, outline colour and
/// outline width (the outline points are `agent_arrow(s, orientation, size)`); the one home of
/// these for the mesh and the crowd layer.
fn agent_look(app: &App, idx: usize, agent: &Agent) -> (f32, Color, Color, f32) {
    let size = agent_size(app, agent);
    let fill = style::agent_color(agent.about.color, 1.0);
    let (edge, width) = agent_highlight(app, idx).unwrap_or((Color::new(0.1, 0.1, 0.1, 0.9), 1.0));
    (size, fill, edge, width * app.camera.pixel_scale())
}

/// The outline colour and width (points) of a selected or hovered agent's arrow; `None` for
/// the others.
fn agent_highlight(app: &App, idx: usize) -> Option<(Color, f32)> {
    let this = Selection::Agent(idx);
    if app.is_selected(this) {
        Some((style::SELECTED, 2.5))
    } else if app.hover == Some(this) {
        Some((style::HOVER, 2.0))
    } else {
        None
    }
}

fn draw_agent(app: &App, idx: usize, agent: &Agent, batch: &mut batch::Batch) {
    let position = app.draw_position(idx);
    let s = to_screen(app, position);
    let (size, fill, edge, width) = agent_look(app, idx, agent);
    let [tip, left, notch, right] = agent_arrow(s, agent.kinematics.orientation, size);
    batch.triangle(tip, left, notch, fill);
    batch.triangle(tip, notch, right, fill);
    for (a, b) in [(tip, left), (left, notch), (notch, right), (right, tip)] {
        batch.line(a, b, width, edge);
    }
    draw_velocity(app, agent, position, s);
}

/// The velocity arrow of an agent at `position` (`s` on screen), when shown.
fn draw_velocity(app: &App, agent: &Agent, position: glam::Vec3, s: Vec2) {
    if app.display.velocity && app.world.agents.len() <= MAX_VELOCITY_ARROWS {
        let v = agent.kinematics.velocity;
        if v.length_squared() > 1.0 {
            let tip = to_screen(app, position + v * 0.4);
            draw_arrow(s, tip, 1.5, app.camera.pixel_scale(), style::agent_color(agent.about.color, 0.8));
        }
    }
}

/// A crowd's arrows through the CPU layer (see [`crowd`]); velocity arrows are off at these
/// sizes ([`MAX_VELOCITY_ARROWS`]).
fn draw_agents_layer(app: &App, prepared: Option<crowd::Ahead>) {
    if app.display.velocity && app.world.agents.len() <= MAX_VELOCITY_ARROWS {
        // Drawn first, so under the arrows, as on the mesh path.
        for (idx, agent) in app.world.agents.iter().enumerate().filter(|(idx, _)| !app.is_hidden(*idx)) {
            let position = app.draw_position(idx);
            draw_velocity(app, agent, position, to_screen(app, position));
        }
    }
    match prepared {
        Some(prepared) => crowd::draw_prepared(prepared, app.camera.screen),
        None => crowd::draw(crowd_sprites(app), app.camera.screen, app.camera.viewport),
    }
}

/// Every shown agent's arrow as the crowd layer draws it, in agent order (later ones on top);
/// built on all cores (at 100,000 agents it is a few milliseconds of one core).
pub fn crowd_sprites(app: &App) -> Vec<crowd::ArrowSprite> {
    use rayon::prelude::*;
    let sprite = |(idx, agent): (usize, &Agent)| {
        let s = to_screen(app, app.draw_position(idx));
        let (size, fill, edge, edge_width) = agent_look(app, idx, agent);
        crowd::ArrowSprite::new(
            s,
            agent.kinematics.orientation,
            size,
            crowd::color_bytes(fill),
            crowd::color_bytes(edge),
            edge_width,
        )
    };
    let agents = app.world.agents.par_iter().enumerate().with_min_len(1024);
    if app.hidden.is_empty() {
        // Indexed all the way, so collected in place: a filter (even one that keeps all) makes
        // rayon collect pieces and join them, a second copy of every sprite.
        agents.map(sprite).collect()
    } else {
        agents.filter(|(idx, _)| !app.is_hidden(*idx)).map(sprite).collect()
    }
}

/// The agent whose plan the step-through shows, if open.
pub fn debugged_agent(app: &App) -> Option<usize> {
    app.planner_debug.as_ref().map(|d| d.agent)
}

fn draw_planner_waypoints(app: &App, labels: &mut Labels) {
    let k = app.camera.pixel_scale();
    for (agent_idx, agent) in app.world.agents.iter().enumerate() {
        let Behaviour::Planner { params } = &agent.behaviour else { continue };
        let color = style::agent_color(agent.about.color, 1.0);
        for (i, &w) in params.waypoints.iter().enumerate() {
            let s = to_screen(app, w);
            let this = Selection::Waypoint { agent: agent_idx, waypoint: i };
            let edge = if app.is_selected(this) || app.hover == Some(this) { style::SELECTED } else { color };
            draw_poly(s.x, s.y, 4, 7.0 * k, 45.0, Color::new(1.0, 1.0, 1.0, 0.9));
            draw_poly_outline(s, 7.0 * k, 2.0 * k, edge);
            match unreachable_reason(agent, i) {
                Some(reason) => {
                    draw_unreachable_cross(s, k);
                    labels.add(&unreachable_label(w, i, &reason), s, 9.0, 16, style::UNREACHABLE);
                }
                None => labels.add(&waypoint_label(w, i), s, 7.0, 16, edge),
            }
        }
    }
}

/// Why waypoint `index` of a planner agent was reported unreachable, if it was (the ship's
/// status, as in the inspector and `run --json`).
pub fn unreachable_reason(agent: &Agent, index: usize) -> Option<crate::planner::UnreachableReason> {
    let crate::sim::BehaviourState::Planner(ship) = &agent.state else { return None };
    ship.unreachable.iter().find(|u| u.index == index).map(|u| u.reason)
}

/// The label of an unreachable waypoint: its label, "unreachable" and the reason's name.
pub fn unreachable_label(w: glam::Vec3, index: usize, reason: &crate::planner::UnreachableReason) -> String {
    format!("{} unreachable: {}", waypoint_label(w, index), reason.code().replace('_', " "))
}

/// The cross drawn over an unreachable waypoint at screen point `s` (both views), `k` times its
/// size at UI scale 1.
pub fn draw_unreachable_cross(s: Vec2, k: f32) {
    let r = 11.0 * k;
    draw_line(s.x - r, s.y - r, s.x + r, s.y + r, 4.0 * k, style::UNREACHABLE);
    draw_line(s.x - r, s.y + r, s.x + r, s.y - r, 4.0 * k, style::UNREACHABLE);
}

/// A planner waypoint's label: its number, and its height when it is off the ground.
pub fn waypoint_label(w: glam::Vec3, index: usize) -> String {
    if w.z.abs() >= 0.5 {
        format!("{} (z {:.0})", index + 1, w.z)
    } else {
        format!("{}", index + 1)
    }
}

/// The push being aimed (Alt/Ctrl+drag): an arrow from the agent and its size.
fn draw_push_preview(app: &App, labels: &mut Labels) {
    let Some(push) = app.tool_state.push else { return };
    let Some(agent) = app.world.agents.get(push.agent) else { return };
    let color = style::gizmo_color(GizmoRole::Disturbance, true);
    let from = to_screen(app, agent.kinematics.position);
    let to = to_screen(app, push.to);
    draw_arrow(from, to, 3.0, app.camera.pixel_scale(), color);
    let change = (push.to - agent.kinematics.position).length() * crate::app::tools::PUSH_PER_UNIT;
    labels.add(&format!("push {change:.0} units/s"), to, 8.0, 16, color);
}

fn draw_poly_outline(center: Vec2, radius: f32, width: f32, color: Color) {
    let corners: Vec<Vec2> = (0..4)
        .map(|i| {
            let a = std::f32::consts::FRAC_PI_2 * i as f32;
            center + Vec2::new(a.cos(), a.sin()) * radius
        })
        .collect();
    for i in 0..4 {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        draw_line(a.x, a.y, b.x, b.y, width, color);
    }
}

fn draw_tool_preview(app: &App) {
    let state = &app.tool_state;
    let zoom = app.camera.zoom;
    let k = app.camera.pixel_scale();
    if let Some(brush) = state.brush_at.filter(|_| app.tool == Tool::Paint) {
        let s = to_screen(app, brush);
        draw_circle_lines(s.x, s.y, app.brush_radius * zoom, 1.5 * k, style::PREVIEW);
    }
    if let Some(p) = state.pending_path_point {
        let s = to_screen(app, p);
        draw_rectangle(s.x - 4.0 * k, s.y - 4.0 * k, 8.0 * k, 8.0 * k, style::PREVIEW);
    }
    for pair in state.spline_points.windows(2) {
        let (a, b) = (to_screen(app, pair[0]), to_screen(app, pair[1]));
        draw_line(a.x, a.y, b.x, b.y, 1.5 * k, style::PREVIEW);
    }
    for &p in &state.spline_points {
        let s = to_screen(app, p);
        draw_circle(s.x, s.y, 4.0 * k, style::PREVIEW);
    }
    if let Some(centre) = state.sizing_from {
        let s = to_screen(app, centre);
        draw_circle(s.x, s.y, 3.0 * k, style::PREVIEW);
        if app.tool == Tool::Obstacle || app.tool == Tool::Curve {
            draw_circle_lines(s.x, s.y, 25.0 * zoom, k, style::PREVIEW);
        }
    }
}

/// Agents' names go first, next to them and clear of every agent's body (agents that start
/// together would otherwise hide each other's names).
fn agent_labels(app: &App, labels: &mut Labels) {
    let labelled = app.display.labels && app.world.agents.len() <= MAX_LABELLED_AGENTS;
    for (idx, agent) in app.world.agents.iter().enumerate().filter(|(idx, _)| !app.is_hidden(*idx)) {
        let s = to_screen(app, app.draw_position(idx));
        let size = agent_size(app, agent);
        labels.reserve(s - Vec2::splat(size), s + Vec2::splat(size));
    }
    if !labelled {
        return;
    }
    // The selected and hovered agents first, always; the others where there is room.
    let picked =
        |idx: usize| app.is_selected(Selection::Agent(idx)) || app.hover == Some(Selection::Agent(idx));
    for first in [true, false] {
        for (idx, agent) in app.world.agents.iter().enumerate().filter(|(idx, _)| !app.is_hidden(*idx)) {
            if picked(idx) != first {
                continue;
            }
            let s = to_screen(app, app.draw_position(idx));
            // The labels scale their gaps themselves: the size in points, 2 points apart.
            let gap = agent_size(app, agent) / app.camera.pixel_scale() + 2.0;
            let color = style::agent_color(agent.about.color, 1.0);
            if first {
                labels.add(&agent.about.name, s, gap, 16, color);
            } else {
                labels.add_if_room(&agent.about.name, s, gap, 16, color);
            }
        }
    }
}

/// Fewest screen pixels between the arrows of a painted field (denser cells are drawn every
/// k-th).
pub(crate) const PAINTED_ARROW_MIN_PX: f32 = 14.0;

/// Every painted field: an arrow per painted cell (zero cells are left blank) within the view,
/// and with the Paint tool the outline of each grid (only cells inside it take paint).
fn draw_painted_fields(app: &App) {
    let camera = &app.camera;
    let k = camera.pixel_scale();
    let top_left = camera.screen_to_world(Vec2::ZERO);
    let bottom_right = camera.screen_to_world(camera.screen);
    let (view_lo, view_hi) = (top_left.min(bottom_right), top_left.max(bottom_right));
    for named in &app.world.fields {
        let field = &named.field;
        let (columns, rows) = field.size();
        let cell = field.cell_size();
        let origin = field.origin();
        if app.tool == Tool::Paint {
            let a = to_screen(app, origin);
            let b = to_screen(app, origin + glam::Vec3::new(columns as f32 * cell, rows as f32 * cell, 0.0));
            let (lo, hi) = (a.min(b), a.max(b));
            macroquad::shapes::draw_rectangle_lines(
                lo.x,
                lo.y,
                hi.x - lo.x,
                hi.y - lo.y,
                1.5 * k,
                style::PAINTED_FIELD_EDGE,
            );
        }
        let cell_px = cell * camera.zoom.max(1e-6);
        let every = ((PAINTED_ARROW_MIN_PX * k / cell_px).ceil() as usize).max(1);
        // Only the cells in view are visited.
        let range = |lo: f32, hi: f32, origin: f32, n: usize| {
            let first = ((lo - origin) / cell).floor().max(0.0) as usize;
            let last = (((hi - origin) / cell).ceil().max(0.0) as usize).min(n);
            (first - first % every, last)
        };
        let (c0, c1) = range(view_lo.x, view_hi.x, origin.x, columns);
        let (r0, r1) = range(view_lo.y, view_hi.y, origin.y, rows);
        for (from, to) in painted_arrows(field, c0..c1, r0..r1, every) {
            draw_arrow(to_screen(app, from), to_screen(app, to), 1.5, k, style::PAINTED_FIELD);
        }
    }
}

/// A painted field's arrows (tail, tip) over these columns and rows, every `every`-th cell
/// each way (at least 1), blank cells left out: each through its cell's centre along the
/// painted direction, 0.8 of the cells it stands for long. The top and the 3D view draw these.
pub(crate) fn painted_arrows(
    field: &crate::behaviours::flow_field::FlowField,
    columns: std::ops::Range<usize>,
    rows: std::ops::Range<usize>,
    every: usize,
) -> impl Iterator<Item = (glam::Vec3, glam::Vec3)> + '_ {
    let every = every.max(1);
    let half = field.cell_size() * every as f32 * 0.4;
    rows.step_by(every).flat_map(move |row| {
        columns.clone().step_by(every).filter_map(move |col| {
            let direction = field.cell(col, row).normalize_or_zero();
            let centre = field.cell_centre(col, row);
            (direction != glam::Vec3::ZERO).then(|| (centre - direction * half, centre + direction * half))
        })
    })
}

/// Screen pixels between the arrows of a drawn flow field.
const FLOW_ARROW_SPACING: f32 = 48.0;

/// The flow field of the selected agent (or, while every agent's gizmos are drawn, of the first
/// agent with one) as arrows over the view, when steering gizmos are on.
fn draw_flow_field(app: &App) {
    if !app.display.steering {
        return;
    }
    let has_field = |idx: &usize| {
        app.world.agents.get(*idx).is_some_and(|agent| {
            std::iter::once(&agent.behaviour)
                .chain(agent.mix.more.iter().map(|e| &e.behaviour))
                .any(|b| matches!(b, Behaviour::FlowField { .. }))
        })
    };
    let shown = app.selected_agent().filter(has_field).or_else(|| {
        (app.world.agents.len() <= MAX_GIZMO_AGENTS)
            .then(|| (0..app.world.agents.len()).find(has_field))
            .flatten()
    });
    let Some(agent) = shown.and_then(|idx| app.world.agents.get(idx)) else { return };
    let Some(field) = std::iter::once(&agent.behaviour)
        .chain(agent.mix.more.iter().map(|e| &e.behaviour))
        .find_map(|b| app.world.flow_field_of(b))
    else {
        return;
    };
    use crate::behaviours::flow_field::VectorField;
    let camera = &app.camera;
    let k = camera.pixel_scale();
    let step = FLOW_ARROW_SPACING * k / camera.zoom.max(1e-3);
    let top_left = camera.screen_to_world(Vec2::ZERO);
    let bottom_right = camera.screen_to_world(camera.screen);
    let (x0, x1) = (top_left.x.min(bottom_right.x), top_left.x.max(bottom_right.x));
    let (y0, y1) = (top_left.y.min(bottom_right.y), top_left.y.max(bottom_right.y));
    if (x1 - x0) / step * (y1 - y0) / step > 4000.0 {
        return;
    }
    let color = style::gizmo_color(GizmoRole::FlowVector, false);
    let mut y = (y0 / step).floor() * step + step * 0.5;
    while y <= y1 {
        let mut x = (x0 / step).floor() * step + step * 0.5;
        while x <= x1 {
            let at = glam::Vec3::new(x, y, 0.0);
            let direction = field.sample(at);
            if direction != glam::Vec3::ZERO {
                let from = to_screen(app, at - direction * step * 0.3);
                let to = to_screen(app, at + direction * step * 0.3);
                draw_arrow(from, to, 1.5, k, color);
            }
            x += step;
        }
        y += step;
    }
}

/// The top view.
pub fn draw_top(app: &App) {
    clear_background(style::BACKGROUND);
    let mut labels = Labels::new(app.camera.pixel_scale());
    // A crowd's layer is brought up to date on rayon's threads (its sprites worked out, then
    // the layer rasterised) while this thread reserves the agents' label room and draws what
    // lies under the crowd; see `crowd::Ahead` for the measured gain (10,000 agents: −0.34 ms a
    // frame).
    let layer = crowd::use_crowd_layer(app.world.agents.len());
    let mut prepared = if layer { crowd::Ahead::take_for(app.camera.screen) } else { None };
    rayon::in_place_scope(|scope| {
        if let Some(prepared) = prepared.as_mut() {
            scope
                .spawn(move |_| prepared.prepare(crowd_sprites(app), app.camera.screen, app.camera.viewport));
        }
        agent_labels(app, &mut labels);
        if app.display.grid || app.snap.on {
            draw_grid(app);
        }
        draw_paths(app, &mut labels);
        draw_curves(app, &mut labels);
        draw_painted_fields(app);
        draw_obstacles(app);
        draw_targets(app, &mut labels);
        draw_trails(app);
        draw_flow_field(app);
        draw_gizmos(app);
        if let Some(debug) = &app.planner_debug {
            planner::draw_top(app, debug, &mut labels);
        }
        draw_planner_waypoints(app, &mut labels);
    });
    if layer {
        draw_agents_layer(app, prepared);
    } else {
        let mut agents = batch::Batch::default();
        for (idx, agent) in app.world.agents.iter().enumerate().filter(|(idx, _)| !app.is_hidden(*idx)) {
            draw_agent(app, idx, agent, &mut agents);
        }
        agents.flush();
    }
    draw_tool_preview(app);
    draw_push_preview(app, &mut labels);
    draw_rubber_band(app);
    labels.draw();
}

/// The rubber band of a box selection (screen space, so the same in both views).
pub(crate) fn draw_rubber_band(app: &App) {
    let Some(band) = app.tool_state.rubber_band else { return };
    let (min, max) = (band.from.min(band.to), band.from.max(band.to));
    let size = max - min;
    if size.x.max(size.y) < crate::app::tools::RUBBER_BAND_MIN_PX {
        return;
    }
    draw_rectangle(min.x, min.y, size.x, size.y, style::RUBBER_BAND_FILL);
    let width = 1.5 * app.camera.pixel_scale();
    macroquad::shapes::draw_rectangle_lines(min.x, min.y, size.x, size.y, width, style::SELECTED);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::World;

    fn app_on_screen() -> App {
        let mut app = App::new(World::default(), None);
        let screen = Vec2::new(1280.0, 800.0);
        app.camera.set_screen(screen, (Vec2::ZERO, screen));
        app.camera.center = glam::Vec3::ZERO;
        app.camera.zoom = 1.0;
        app
    }

    #[test]
    fn a_small_path_draws_every_point_and_a_closed_one_returns_to_its_start() {
        let app = app_on_screen();
        let points: Vec<glam::Vec3> = (0..12).map(|i| glam::Vec3::new(i as f32 * 30.0, 0.0, 0.0)).collect();
        let open = drawn_path_points(&app, &points, false);
        assert_eq!(open.iter().map(|(i, _)| *i).collect::<Vec<_>>(), (0..12).collect::<Vec<_>>());
        let closed = drawn_path_points(&app, &points, true);
        assert_eq!(closed.len(), 13);
        assert_eq!(closed.first(), closed.last());
    }

    #[test]
    fn a_path_of_millions_of_points_is_thinned_keeping_both_ends() {
        let app = app_on_screen();
        let n = 3_000_000;
        let points: Vec<glam::Vec3> = (0..n)
            .map(|i| glam::Vec3::new((i % 2000) as f32 * 0.5 - 500.0, (i / 2000) as f32 * 0.01 - 300.0, 0.0))
            .collect();
        let drawn = drawn_path_points(&app, &points, false);
        assert!(drawn.len() <= MAX_DRAWN_PATH_POINTS + 1, "{}", drawn.len());
        assert!(drawn.len() > MAX_DRAWN_PATH_POINTS / 2, "{}", drawn.len());
        assert_eq!(drawn.first().map(|(i, _)| *i), Some(0));
        assert_eq!(drawn.last().map(|(i, _)| *i), Some(n - 1));
        assert!(drawn.windows(2).all(|w| w[0].0 < w[1].0), "in order along the path");
    }

    #[test]
    fn points_closer_than_a_pixel_and_a_half_are_merged() {
        let app = app_on_screen();
        // 1000 points 0.1 px apart span 100 px: about one drawn point per 1.5 px.
        let points: Vec<glam::Vec3> = (0..1000).map(|i| glam::Vec3::new(i as f32 * 0.1, 0.0, 0.0)).collect();
        let drawn = drawn_path_points(&app, &points, false);
        assert!((60..=70).contains(&drawn.len()), "{}", drawn.len());
        assert!(drawn.windows(2).take(drawn.len() - 2).all(|w| w[0].1.distance(w[1].1) >= 1.5));
    }
}
