//! The planner step-through picture (seed 004's walk-through) in the seed's colours, for both
//! views: green for the planned path so far, red for the direct route from the ship to the first
//! user waypoint, blue for the obstacle the cast hit (outlined) and the contact point, black for
//! the avoidance vector, and the swept sphere of the current cast as a faint capsule. The
//! proto-waypoints on the stack are hollow rings (the top one larger), avoidance waypoints are
//! lettered A, B, C … in the order the loop made them. Routes of the complete fallback search that
//! ran by the shown iteration are drawn over the green in the fallback's orange (the live gizmos'
//! `FallbackSegment` colour), with their corners as orange dots.

use glam::Vec3;
use macroquad::prelude::{draw_circle, draw_circle_lines, draw_line, draw_triangle, Color, Vec2};

use super::labels::Labels;
use super::style;
use crate::app::{App, PlannerDebug};
use crate::geometry::Sphere;

/// What one iteration shows, in world coordinates (the same for both views).
pub struct Picture {
    /// The planned path so far: the ship, then the real waypoints.
    pub green: Vec<Vec3>,
    /// The ship's direct route to the first user waypoint.
    pub red: Option<(Vec3, Vec3)>,
    /// The swept sphere of this iteration's cast: from, to (the contact, or the target), radius.
    pub capsule: Option<(Vec3, Vec3, f32)>,
    /// The part of the route beyond the contact, not swept (drawn faint).
    pub beyond: Option<(Vec3, Vec3)>,
    /// The obstacle the cast hit, as it was when the plan was made.
    pub hit_sphere: Option<Sphere>,
    /// Where the cast sphere's centre touched the inflated obstacle.
    pub hit_point: Option<Vec3>,
    /// The avoidance vector: hit point → avoidance waypoint.
    pub avoidance: Option<(Vec3, Vec3)>,
    /// The stack, top first: position and whether it is the top.
    pub stack: Vec<(Vec3, bool)>,
    /// Avoidance waypoints made so far, with their letters.
    pub lettered: Vec<(Vec3, String)>,
    /// Where this iteration's cast started.
    pub perspective: Vec3,
    /// Routes of the fallback searches that ran by this iteration (start, corners, waypoint).
    pub fallback: Vec<Vec<Vec3>>,
}

impl Picture {
    /// The picture of `debug`'s current iteration.
    pub fn of(debug: &PlannerDebug) -> Picture {
        let green = debug.path_so_far();
        let fallback = debug.fallback_so_far();
        let red = debug.user_waypoints.first().map(|&w| (debug.plan.start, w));
        let Some(it) = debug.current() else {
            return Picture {
                green,
                red,
                capsule: None,
                beyond: None,
                hit_sphere: None,
                hit_point: None,
                avoidance: None,
                stack: Vec::new(),
                lettered: Vec::new(),
                perspective: debug.plan.start,
                fallback,
            };
        };
        let contact = it.hit.map(|h| h.point);
        let capsule = Some((it.perspective, contact.unwrap_or(it.target), debug.cast_radius));
        let beyond = contact.map(|c| (c, it.target));
        let hit_sphere = it.hit.and_then(|h| debug.obstacles.get(h.obstacle).copied());
        let avoidance = it.avoidance.map(|a| (a.hit_point, a.waypoint));
        let stack = it.stack.iter().rev().enumerate().map(|(depth, &p)| (p, depth == 0)).collect();
        // Letters for the avoidance waypoints made up to and including this iteration.
        let made = debug
            .plan
            .iterations
            .iter()
            .take(debug.iteration + 1)
            .filter_map(|it| it.avoidance)
            .filter_map(|a| debug.avoidance_letter(a.waypoint).map(|letter| (a.waypoint, letter)))
            .collect();
        Picture {
            green,
            red,
            capsule,
            beyond,
            hit_sphere,
            hit_point: contact,
            avoidance,
            stack,
            lettered: made,
            perspective: it.perspective,
            fallback,
        }
    }
}

/// The seed's colours.
pub fn green() -> Color {
    style::gizmo_color(crate::behaviours::GizmoRole::CurrentSegment, true)
}
/// Red: the direct route.
pub fn red() -> Color {
    style::gizmo_color(crate::behaviours::GizmoRole::Probe, true)
}
/// Blue: the obstacle a cast detected.
pub fn blue() -> Color {
    style::gizmo_color(crate::behaviours::GizmoRole::CastHit, true)
}
/// Black: the avoidance vector.
pub fn black() -> Color {
    style::gizmo_color(crate::behaviours::GizmoRole::AvoidanceVector, true)
}
/// Orange: a route from the complete fallback search (the live gizmos' colour).
pub fn orange() -> Color {
    style::gizmo_color(crate::behaviours::GizmoRole::FallbackSegment, true)
}
/// The faint capsule of the swept sphere.
pub const CAPSULE_FILL: Color = style::rgba(0x1f, 0x4e, 0xd8, 0.08);
/// The capsule's outline.
pub const CAPSULE_EDGE: Color = style::rgba(0x1f, 0x4e, 0xd8, 0.45);
/// Proto-waypoints on the stack.
pub const STACK: Color = style::rgba(0x6a, 0x3d, 0x9a, 1.0);

/// A dashed line `thickness` pixels wide, with dashes `dash` pixels long.
fn dashed_line(a: Vec2, b: Vec2, thickness: f32, dash: f32, color: Color) {
    let length = a.distance(b);
    if length < 1.0 {
        return;
    }
    let dashes = (length / dash.max(1.0)).ceil() as usize;
    for i in (0..dashes).step_by(2) {
        let p = a.lerp(b, i as f32 / dashes as f32);
        let q = a.lerp(b, ((i + 1) as f32 / dashes as f32).min(1.0));
        draw_line(p.x, p.y, q.x, q.y, thickness, color);
    }
}

/// The capsule outline in screen space: the two semicircles joined by the tangent lines (a convex
/// polygon), so it can be filled as a fan without overlaps.
pub fn capsule_outline(a: Vec2, b: Vec2, radius: f32) -> Vec<Vec2> {
    let axis = (b - a).try_normalize().unwrap_or(Vec2::X);
    let normal = Vec2::new(-axis.y, axis.x);
    let steps = 16;
    let mut points = Vec::with_capacity(2 * steps + 2);
    for i in 0..=steps {
        let angle = std::f32::consts::PI * i as f32 / steps as f32;
        let (sin, cos) = angle.sin_cos();
        points.push(b + (normal * cos + axis * sin) * radius);
    }
    for i in 0..=steps {
        let angle = std::f32::consts::PI * i as f32 / steps as f32;
        let (sin, cos) = angle.sin_cos();
        points.push(a + (-normal * cos - axis * sin) * radius);
    }
    points
}

/// Draws the step-through in the top view.
pub fn draw_top(app: &App, debug: &PlannerDebug, labels: &mut Labels) {
    let camera = &app.camera;
    let s = |p: Vec3| camera.world_to_screen(p);
    let zoom = camera.zoom;
    let k = camera.pixel_scale();
    let picture = Picture::of(debug);

    if let Some((from, to, radius)) = picture.capsule {
        let outline = capsule_outline(s(from), s(to), radius * zoom);
        let centre = (s(from) + s(to)) * 0.5;
        for pair in outline.windows(2) {
            draw_triangle(centre, pair[0], pair[1], CAPSULE_FILL);
        }
        if let (Some(&first), Some(&last)) = (outline.first(), outline.last()) {
            draw_triangle(centre, last, first, CAPSULE_FILL);
        }
        for pair in outline.windows(2) {
            draw_line(pair[0].x, pair[0].y, pair[1].x, pair[1].y, k, CAPSULE_EDGE);
        }
        if let (Some(&first), Some(&last)) = (outline.first(), outline.last()) {
            draw_line(last.x, last.y, first.x, first.y, k, CAPSULE_EDGE);
        }
    }
    if let Some((from, to)) = picture.beyond {
        dashed_line(s(from), s(to), 1.5 * k, 8.0 * k, CAPSULE_EDGE);
    }
    if let Some(sphere) = picture.hit_sphere {
        let c = s(sphere.center);
        draw_circle_lines(c.x, c.y, sphere.radius * zoom, 3.5 * k, blue());
    }
    if let Some((a, b)) = picture.red {
        let (a, b) = (s(a), s(b));
        draw_line(a.x, a.y, b.x, b.y, 2.0 * k, red());
    }
    for pair in picture.green.windows(2) {
        let (a, b) = (s(pair[0]), s(pair[1]));
        draw_line(a.x, a.y, b.x, b.y, 4.0 * k, green());
    }
    for &p in picture.green.iter().skip(1) {
        let c = s(p);
        draw_circle(c.x, c.y, 4.0 * k, green());
    }
    for route in &picture.fallback {
        for pair in route.windows(2) {
            let (a, b) = (s(pair[0]), s(pair[1]));
            draw_line(a.x, a.y, b.x, b.y, 4.0 * k, orange());
        }
        for &p in route.iter().skip(1) {
            let c = s(p);
            draw_circle(c.x, c.y, 4.5 * k, orange());
        }
    }
    if let Some(hit) = picture.hit_point {
        let c = s(hit);
        if let Some((_, _, radius)) = picture.capsule {
            draw_circle_lines(c.x, c.y, radius * zoom, 1.5 * k, blue());
        }
        draw_circle(c.x, c.y, 4.0 * k, blue());
    }
    if let Some((from, to)) = picture.avoidance {
        super::draw_arrow(s(from), s(to), 2.5, k, black());
    }
    for &(p, top) in &picture.stack {
        let c = s(p);
        let (radius, width) = if top { (11.0, 2.5) } else { (8.0, 1.5) };
        draw_circle_lines(c.x, c.y, radius * k, width * k, STACK);
    }
    let perspective = s(picture.perspective);
    draw_circle_lines(perspective.x, perspective.y, 6.0 * k, 2.0 * k, black());

    for (p, label) in &picture.lettered {
        labels.add(label, s(*p), 7.0, 20, black());
    }
    if let Some(&(top, _)) = picture.stack.first() {
        labels.add("top of stack", s(top), 12.0, 15, STACK);
    }
    if let Some(sphere) = picture.hit_sphere {
        let c = s(sphere.center);
        labels.add(
            "hit",
            c + Vec2::new(sphere.radius * zoom * 0.7, -sphere.radius * zoom * 0.7),
            4.0,
            15,
            blue(),
        );
    }
}
