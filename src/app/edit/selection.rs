//! Where things are: whether a selection still exists, its handle's position, moving it, the
//! bounds of the whole scene, and picking what is under the mouse (or which path segment).

use glam::{Vec2, Vec3};

use super::super::camera::Camera;
use super::super::Selection;
use super::{restart_followers, set_curve};
use crate::geometry::{Curve, Polyline};
use crate::sim::{Behaviour, BehaviourState, World};

/// Whether a selection still points at something.
pub fn selection_exists(world: &World, selection: Selection) -> bool {
    match selection {
        Selection::Agent(i) => i < world.agents.len(),
        Selection::Path(i) => i < world.paths.len(),
        Selection::PathPoint { path, point } => {
            world.paths.get(path).is_some_and(|p| point < p.polyline.points().len())
        }
        Selection::Obstacle(i) => i < world.obstacles.len(),
        Selection::Target(i) => i < world.targets.len(),
        Selection::Curve(i) => i < world.curves.len(),
        Selection::Waypoint { agent, waypoint } => match world.agents.get(agent).map(|a| &a.behaviour) {
            Some(Behaviour::Planner { params }) => waypoint < params.waypoints.len(),
            _ => false,
        },
    }
}

/// The box around everything in the world, painted fields' grids included (a default box when it
/// is empty).
pub fn scene_bounds(world: &World) -> (Vec3, Vec3) {
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    let mut add = |p: Vec3, r: f32| {
        if p.is_finite() {
            min = min.min(p - Vec3::splat(r));
            max = max.max(p + Vec3::splat(r));
        }
    };
    for path in &world.paths {
        for &p in path.polyline.points() {
            add(p, path.radius);
        }
    }
    for named in &world.curves {
        let (t0, t1) = named.curve.t_range();
        for i in 0..=64 {
            add(named.curve.point(t0 + (t1 - t0) * i as f32 / 64.0), 0.0);
        }
    }
    // A painted field's whole grid: where its cells can be painted.
    for named in &world.fields {
        let (columns, rows) = named.field.size();
        let origin = named.field.origin();
        let cell = named.field.cell_size();
        add(origin, 0.0);
        add(origin + Vec3::new(columns as f32 * cell, rows as f32 * cell, 0.0), 0.0);
    }
    for target in &world.targets {
        add(target.start.0, 10.0);
    }
    for obstacle in &world.obstacles {
        add(obstacle.start.0, obstacle.radius);
    }
    for agent in &world.agents {
        add(agent.about.start.position, agent.limits.radius);
        if let Behaviour::Planner { params } = &agent.behaviour {
            for &w in &params.waypoints {
                add(w, 10.0);
            }
        }
    }
    if !min.is_finite() || !max.is_finite() {
        return (Vec3::new(-400.0, -250.0, 0.0), Vec3::new(400.0, 250.0, 0.0));
    }
    (min, max)
}

/// Where a selection is (its handle), for dragging and drawing.
pub fn selection_position(world: &World, selection: Selection) -> Option<Vec3> {
    match selection {
        Selection::Agent(i) => world.agents.get(i).map(|a| a.kinematics.position),
        Selection::Path(i) => world.paths.get(i).and_then(|p| p.polyline.points().first().copied()),
        Selection::PathPoint { path, point } => {
            world.paths.get(path).and_then(|p| p.polyline.points().get(point).copied())
        }
        Selection::Obstacle(i) => world.obstacles.get(i).map(|o| o.position),
        Selection::Target(i) => world.targets.get(i).map(|t| t.position),
        Selection::Curve(i) => world.curves.get(i).map(|c| curve_handle(&c.curve)),
        Selection::Waypoint { agent, waypoint } => match world.agents.get(agent).map(|a| &a.behaviour) {
            Some(Behaviour::Planner { params }) => params.waypoints.get(waypoint).copied(),
            _ => None,
        },
    }
}

/// The point a curve is dragged by: its centre, or its first point.
pub fn curve_handle(curve: &Curve) -> Vec3 {
    use crate::geometry::CurveKind;
    match curve.kind() {
        CurveKind::Circle { center, .. }
        | CurveKind::Ellipse { center, .. }
        | CurveKind::Lemniscate { center, .. }
        | CurveKind::Lissajous { center, .. }
        | CurveKind::Helix { center, .. } => *center,
        CurveKind::Spline { points, .. } => points.first().copied().unwrap_or(Vec3::ZERO),
        CurveKind::Expr { .. } => curve.point(curve.t_range().0),
    }
}

/// Moves a selection to `position` (its start too, so Reset keeps the edit). Path points
/// restart their followers; a whole path or curve moves rigidly.
pub fn move_selection(world: &mut World, selection: Selection, position: Vec3) {
    // A move the scene file could not hold would leave a scene that can no longer be saved: the
    // item stays where it was (a drag past the limits stops at its last good spot).
    let within = |p: Vec3| crate::scene::check_point("", p).is_ok();
    if !within(position) {
        return;
    }
    match selection {
        Selection::Agent(i) => {
            if let Some(agent) = world.agents.get_mut(i) {
                agent.kinematics.position = position;
                agent.about.start.position = position;
            }
        }
        Selection::Obstacle(i) => {
            if let Some(o) = world.obstacles.get_mut(i) {
                o.position = position;
                o.start.0 = position;
            }
        }
        Selection::Target(i) => {
            if let Some(t) = world.targets.get_mut(i) {
                t.position = position;
                t.start.0 = position;
            }
        }
        Selection::PathPoint { path, point } => {
            if let Some(named) = world.paths.get_mut(path) {
                let mut points = named.polyline.points().to_vec();
                if let Some(p) = points.get_mut(point) {
                    *p = position;
                }
                named.polyline = Polyline::new(points, named.polyline.is_closed());
            }
            restart_followers(world, path);
        }
        Selection::Path(path) => {
            if let Some(named) = world.paths.get_mut(path) {
                let first = named.polyline.points().first().copied().unwrap_or(Vec3::ZERO);
                let delta = position - first;
                let points: Vec<Vec3> = named.polyline.points().iter().map(|&p| p + delta).collect();
                if !points.iter().all(|&p| within(p)) {
                    return;
                }
                named.polyline = Polyline::new(points, named.polyline.is_closed());
            }
            restart_followers(world, path);
        }
        Selection::Curve(i) => {
            if let Some(named) = world.curves.get(i) {
                let delta = position - curve_handle(&named.curve);
                let kind = translate_curve(named.curve.kind().clone(), delta);
                if let Ok(curve) = Curve::new(kind) {
                    set_curve(world, i, curve);
                }
            }
        }
        Selection::Waypoint { agent, waypoint } => {
            if let Some(a) = world.agents.get_mut(agent) {
                if let Behaviour::Planner { params } = &mut a.behaviour {
                    if let Some(w) = params.waypoints.get_mut(waypoint) {
                        *w = position;
                    }
                }
                // The ship flies to the moved waypoint: it replans from where it is (as an edit of
                // the waypoint list in the inspector does).
                a.state = BehaviourState::start(&a.behaviour);
            }
        }
    }
}

/// A curve shape moved by `delta` (expressions get `+ dx` appended to each component).
pub fn translate_curve(kind: crate::geometry::CurveKind, delta: Vec3) -> crate::geometry::CurveKind {
    use crate::geometry::CurveKind;
    match kind {
        CurveKind::Circle { center, radius } => CurveKind::Circle { center: center + delta, radius },
        CurveKind::Ellipse { center, radius_x, radius_y } => {
            CurveKind::Ellipse { center: center + delta, radius_x, radius_y }
        }
        CurveKind::Lemniscate { center, size } => CurveKind::Lemniscate { center: center + delta, size },
        CurveKind::Lissajous { center, amplitude, freq_x, freq_y, phase } => {
            CurveKind::Lissajous { center: center + delta, amplitude, freq_x, freq_y, phase }
        }
        CurveKind::Helix { center, radius, pitch, turns } => {
            CurveKind::Helix { center: center + delta, radius, pitch, turns }
        }
        CurveKind::Spline { points, closed } => {
            CurveKind::Spline { points: points.into_iter().map(|p| p + delta).collect(), closed }
        }
        CurveKind::Expr { x, y, z, t_min, t_max } => CurveKind::Expr {
            x: shift_expression(&x, delta.x),
            y: shift_expression(&y, delta.y),
            z: shift_expression(&z, delta.z),
            t_min,
            t_max,
        },
    }
}

/// `expression` moved by `d`: `(e) + d`, or, when it already has that form (a drag moves a curve
/// a little every frame), the same `(e)` with the two offsets added, so the text never grows
/// with the length of a drag; an offset that comes back to zero gives `e` again.
pub fn shift_expression(expression: &str, d: f32) -> String {
    if d == 0.0 {
        return expression.to_string();
    }
    let (inner, offset) = split_offset(expression).unwrap_or((expression, 0.0));
    let total = offset + d;
    if total == 0.0 || !total.is_finite() {
        return if total == 0.0 { inner.to_string() } else { format!("({expression}) + {d}") };
    }
    format!("({inner}) + {total}")
}

/// `(e) + d` split into `e` and `d`, when the opening parenthesis closes right before ` + d`.
fn split_offset(expression: &str) -> Option<(&str, f32)> {
    let (head, number) = expression.rsplit_once(") + ")?;
    let inner = head.strip_prefix('(')?;
    let offset: f32 = number.parse().ok()?;
    let mut depth = 0i32;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    (depth == 0 && offset.is_finite()).then_some((inner, offset))
}

/// What is under a screen position, within `tolerance` points (pixels at UI scale 1, more above
/// it: [`Camera::pixel_scale`], as the markers are drawn); agents first, then targets,
/// waypoints, path points, obstacles, curve handles, and path segments.
pub fn pick(world: &World, camera: &Camera, screen: Vec2, tolerance: f32) -> Option<Selection> {
    let k = camera.pixel_scale();
    let tolerance_px = tolerance * k;
    let projection = camera.projection();
    let near = |p: Vec3, extra: f32| -> Option<f32> {
        let s = projection.to_screen(p)?;
        let d = s.distance(screen);
        (d <= tolerance_px + extra * k).then_some(d)
    };
    let mut best: Option<(f32, Selection)> = None;
    let mut consider = |d: Option<f32>, selection: Selection, priority: f32| {
        if let Some(d) = d {
            let score = d + priority * k;
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, selection));
            }
        }
    };
    for (i, agent) in world.agents.iter().enumerate() {
        let radius = agent.limits.radius * projection.pixels_per_unit(agent.kinematics.position) / k;
        consider(near(agent.kinematics.position, radius), Selection::Agent(i), 0.0);
        if let Behaviour::Planner { params } = &agent.behaviour {
            for (w, &p) in params.waypoints.iter().enumerate() {
                consider(near(p, 4.0), Selection::Waypoint { agent: i, waypoint: w }, 1.0);
            }
        }
    }
    for (i, target) in world.targets.iter().enumerate() {
        consider(near(target.position, 6.0), Selection::Target(i), 1.0);
    }
    for (path_idx, path) in world.paths.iter().enumerate() {
        for (point_idx, &p) in path.polyline.points().iter().enumerate() {
            consider(near(p, 2.0), Selection::PathPoint { path: path_idx, point: point_idx }, 2.0);
        }
    }
    for (i, curve) in world.curves.iter().enumerate() {
        consider(near(curve_handle(&curve.curve), 4.0), Selection::Curve(i), 3.0);
    }
    for (i, obstacle) in world.obstacles.iter().enumerate() {
        let Some(centre) = projection.to_screen(obstacle.position) else { continue };
        let radius_px = obstacle.radius * projection.pixels_per_unit(obstacle.position);
        let d = centre.distance(screen);
        if d <= radius_px + tolerance_px {
            consider(Some((d - radius_px).max(0.0)), Selection::Obstacle(i), 4.0);
        }
    }
    if best.is_none() {
        if let Some((path, _)) = segment_within(world, camera, screen, tolerance_px) {
            return Some(Selection::Path(path));
        }
    }
    best.map(|(_, s)| s)
}

/// The path segment under a screen position, within `tolerance` points (as [`pick`]'s): (path,
/// segment index).
pub fn pick_segment(world: &World, camera: &Camera, screen: Vec2, tolerance: f32) -> Option<(usize, usize)> {
    segment_within(world, camera, screen, tolerance * camera.pixel_scale())
}

/// [`pick_segment`] within `tolerance_px` screen pixels.
fn segment_within(world: &World, camera: &Camera, screen: Vec2, tolerance_px: f32) -> Option<(usize, usize)> {
    let projection = camera.projection();
    let mut best: Option<(f32, (usize, usize))> = None;
    for (path_idx, path) in world.paths.iter().enumerate() {
        let n = path.polyline.segment_count();
        for segment in 0..n {
            let (a, b) = path.polyline.segment(segment);
            let (Some(sa), Some(sb)) = (projection.to_screen(a), projection.to_screen(b)) else { continue };
            let ab = sb - sa;
            let t = if ab.length_squared() > 0.0 {
                ((screen - sa).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let d = (sa + ab * t).distance(screen);
            if d <= tolerance_px && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, (path_idx, segment)));
            }
        }
    }
    best.map(|(_, hit)| hit)
}

#[cfg(test)]
mod shift_tests {
    use super::shift_expression;

    #[test]
    fn dragging_an_expression_curve_keeps_one_offset_however_long_the_drag() {
        let mut e = "100*cos(t)".to_string();
        for _ in 0..500 {
            e = shift_expression(&e, 0.5);
        }
        assert_eq!(e, "(100*cos(t)) + 250");
        assert_eq!(shift_expression(&e, -250.0), "100*cos(t)");
        assert_eq!(shift_expression(&e, 0.0), e);
    }

    #[test]
    fn an_expression_that_only_looks_offset_is_wrapped_not_split() {
        // The first parenthesis closes before the end: not our own `(e) + d` form.
        assert_eq!(shift_expression("(t) * (t) + 3", 1.0), "((t) * (t) + 3) + 1");
        assert_eq!(shift_expression("(t) + x", 1.0), "((t) + x) + 1");
        assert_eq!(shift_expression("t", -2.5), "(t) + -2.5");
    }
}
