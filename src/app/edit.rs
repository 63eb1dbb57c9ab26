//! Edits of the world that keep it consistent: adding and deleting things (re-indexing the
//! references agents hold), moving them, picking them under the mouse, and choosing sensible
//! defaults for new agents. The caller (`App::apply`) takes the undo snapshot first.

use glam::{Vec2, Vec3};

use super::camera::Camera;
use super::Selection;
use crate::behaviours::ParametricMethod;
use crate::geometry::{Curve, Polyline};
use crate::sim::{
    Agent, ArriveParams, Behaviour, BehaviourState, ParametricParams, PlannerParams, PredictiveParams,
    ProjectedParams, WaypointsParams, World,
};

/// The behaviours a user can pick for an agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BehaviourKind {
    /// Kinematic seek.
    Seek,
    /// Kinematic flee.
    Flee,
    /// Dynamic arrive.
    Arrive,
    /// Parametric curve following.
    Parametric,
    /// Waypoints with a node radius.
    Waypoints,
    /// Projected path following.
    Projected,
    /// Predictive path following.
    #[default]
    Predictive,
    /// The 3D waypoint planner's ship.
    Planner,
}

impl BehaviourKind {
    /// Every kind, in menu order.
    pub const ALL: [BehaviourKind; 8] = [
        BehaviourKind::Seek,
        BehaviourKind::Flee,
        BehaviourKind::Arrive,
        BehaviourKind::Parametric,
        BehaviourKind::Waypoints,
        BehaviourKind::Projected,
        BehaviourKind::Predictive,
        BehaviourKind::Planner,
    ];

    /// The scene-file name.
    pub fn label(self) -> &'static str {
        match self {
            BehaviourKind::Seek => "seek",
            BehaviourKind::Flee => "flee",
            BehaviourKind::Arrive => "arrive",
            BehaviourKind::Parametric => "parametric",
            BehaviourKind::Waypoints => "waypoints",
            BehaviourKind::Projected => "projected",
            BehaviourKind::Predictive => "predictive",
            BehaviourKind::Planner => "planner",
        }
    }

    /// The kind of a behaviour.
    pub fn of(behaviour: &Behaviour) -> BehaviourKind {
        match behaviour {
            Behaviour::Seek { .. } => BehaviourKind::Seek,
            Behaviour::Flee { .. } => BehaviourKind::Flee,
            Behaviour::Arrive { .. } => BehaviourKind::Arrive,
            Behaviour::Parametric { .. } => BehaviourKind::Parametric,
            Behaviour::Waypoints { .. } => BehaviourKind::Waypoints,
            Behaviour::Projected { .. } => BehaviourKind::Projected,
            Behaviour::Predictive { .. } => BehaviourKind::Predictive,
            Behaviour::Planner { .. } => BehaviourKind::Planner,
        }
    }
}

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

/// Whether every reference of a behaviour resolves and its numbers are usable.
pub fn behaviour_is_valid(world: &World, behaviour: &Behaviour) -> bool {
    let finite_positive = |v: f32| v.is_finite() && v > 0.0;
    let finite = |v: f32| v.is_finite();
    match behaviour {
        Behaviour::Seek { target } | Behaviour::Flee { target } => *target < world.targets.len(),
        Behaviour::Arrive { target, params } => {
            *target < world.targets.len()
                && finite_positive(params.target_radius)
                && finite_positive(params.slow_radius)
                && finite_positive(params.time_to_target)
        }
        Behaviour::Parametric { curve, params } => {
            *curve < world.curves.len() && finite(params.speed) && finite(params.delta_t) && finite(params.t0)
        }
        Behaviour::Waypoints { path, params } => {
            *path < world.paths.len() && finite_positive(params.node_radius)
        }
        Behaviour::Projected { path, params } => *path < world.paths.len() && finite(params.offset),
        Behaviour::Predictive { path, params } => {
            *path < world.paths.len() && finite(params.prediction_time) && finite_positive(params.path_radius)
        }
        Behaviour::Planner { params } => {
            params.waypoints.iter().all(|w| w.is_finite())
                && finite(params.clearance)
                && finite_positive(params.arrival_radius)
                && finite_positive(params.replan_interval)
        }
    }
}

/// Gives an agent a new behaviour. Parameter changes of the same behaviour keep its state (it
/// carries on from where it is); a different behaviour starts fresh from the current position.
pub fn set_behaviour(world: &mut World, agent_idx: usize, behaviour: Behaviour) {
    let Some(agent) = world.agents.get_mut(agent_idx) else { return };
    let same_kind = BehaviourKind::of(&agent.behaviour) == BehaviourKind::of(&behaviour);
    let same_reference =
        agent.behaviour.path() == behaviour.path() && agent.behaviour.curve() == behaviour.curve();
    let planner_changed = matches!(
        (&agent.behaviour, &behaviour),
        (Behaviour::Planner { params: a }, Behaviour::Planner { params: b }) if a.waypoints != b.waypoints
    );
    // Reached waypoints stay consumed when the user edits the others (issue 12).
    let ship_after_edit = match (&agent.behaviour, &agent.state, &behaviour) {
        (
            Behaviour::Planner { params: old },
            BehaviourState::Planner(ship),
            Behaviour::Planner { params: new },
        ) if planner_changed => Some(ship.after_edit(&old.waypoints, new)),
        _ => None,
    };
    agent.behaviour = behaviour;
    if let Some(ship) = ship_after_edit {
        agent.state = BehaviourState::Planner(Box::new(ship));
    } else if !(same_kind && same_reference) || planner_changed {
        agent.state = BehaviourState::start(&agent.behaviour);
        if let (Behaviour::Parametric { curve, params }, BehaviourState::Parametric(state)) =
            (&agent.behaviour, &mut agent.state)
        {
            // Start from the curve point nearest the agent rather than jumping to T0.
            if let Some(named) = world.curves.get(*curve) {
                state.t = nearest_parameter(&named.curve, agent.kinematics.position).unwrap_or(params.t0);
            }
        }
    }
}

/// The curve parameter whose point is nearest `p` (coarse search, 256 samples).
fn nearest_parameter(curve: &Curve, p: Vec3) -> Option<f32> {
    let (t_min, t_max) = curve.t_range();
    (0..=256)
        .map(|i| t_min + (t_max - t_min) * i as f32 / 256.0)
        .map(|t| (t, curve.point(t).distance_squared(p)))
        .filter(|(_, d)| d.is_finite())
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t)
}

/// A behaviour of `kind` attached to what is selected (a path, curve or target), or else to the
/// first one in the world; an error says what to add first.
pub fn default_behaviour(
    world: &World,
    kind: BehaviourKind,
    selection: Option<Selection>,
    position: Vec3,
) -> Result<Behaviour, String> {
    let selected_path = selection.and_then(Selection::path).or_else(|| match selection {
        Some(Selection::Agent(i)) => world.agents.get(i).and_then(|a| a.behaviour.path()),
        _ => None,
    });
    let selected_target = match selection {
        Some(Selection::Target(i)) => Some(i),
        Some(Selection::Agent(i)) => world.agents.get(i).and_then(|a| a.behaviour.target()),
        _ => None,
    };
    let selected_curve = match selection {
        Some(Selection::Curve(i)) => Some(i),
        Some(Selection::Agent(i)) => world.agents.get(i).and_then(|a| a.behaviour.curve()),
        _ => None,
    };
    let path = selected_path.or((!world.paths.is_empty()).then_some(0));
    let target = selected_target.or((!world.targets.is_empty()).then_some(0));
    let curve = selected_curve.or((!world.curves.is_empty()).then_some(0));
    let need = |what: &str| format!("add a {what} first (or select one): a {} agent needs it", kind.label());
    Ok(match kind {
        BehaviourKind::Seek => Behaviour::Seek { target: target.ok_or_else(|| need("target"))? },
        BehaviourKind::Flee => Behaviour::Flee { target: target.ok_or_else(|| need("target"))? },
        BehaviourKind::Arrive => Behaviour::Arrive {
            target: target.ok_or_else(|| need("target"))?,
            params: ArriveParams::default(),
        },
        BehaviourKind::Parametric => Behaviour::Parametric {
            curve: curve.ok_or_else(|| need("curve"))?,
            params: ParametricParams::default(),
        },
        BehaviourKind::Waypoints => Behaviour::Waypoints {
            path: path.ok_or_else(|| need("path"))?,
            params: WaypointsParams::default(),
        },
        BehaviourKind::Projected => Behaviour::Projected {
            path: path.ok_or_else(|| need("path"))?,
            params: ProjectedParams::default(),
        },
        BehaviourKind::Predictive => Behaviour::Predictive {
            path: path.ok_or_else(|| need("path"))?,
            params: PredictiveParams::default(),
        },
        BehaviourKind::Planner => {
            // Fly across the scene: one waypoint on the far side of the obstacles' centre.
            let (min, max) = scene_bounds(world);
            let centre = (min + max) * 0.5;
            let far = centre + (centre - position).with_z(0.0);
            let far = if far.distance(position) < 50.0 { position + Vec3::new(300.0, 0.0, 0.0) } else { far };
            Behaviour::Planner { params: PlannerParams { waypoints: vec![far], ..PlannerParams::default() } }
        }
    })
}

/// `base`, or `base 2`, `base 3`… whichever no agent has.
pub fn unique_agent_name(world: &World, base: &str) -> String {
    let taken = |name: &str| world.agents.iter().any(|a| a.name == name);
    if !taken(base) {
        return base.to_string();
    }
    (2..).map(|n| format!("{base} {n}")).find(|name| !taken(name)).unwrap_or_else(|| base.to_string())
}

/// `base1`, `base2`… whichever is not among `ids`.
pub fn unique_id<'a>(ids: impl Iterator<Item = &'a str> + Clone, base: &str) -> String {
    (1..)
        .map(|n| format!("{base}{n}"))
        .find(|candidate| !ids.clone().any(|id| id == candidate))
        .unwrap_or_else(|| base.to_string())
}

/// Deletes a selection; agents that depend on a deleted path, curve or target go too.
/// Returns a note for the status bar.
pub fn delete(world: &mut World, selection: Selection) -> String {
    match selection {
        Selection::Agent(i) => {
            if i < world.agents.len() {
                let agent = world.agents.remove(i);
                format!("deleted agent {}", agent.name)
            } else {
                String::new()
            }
        }
        Selection::Obstacle(i) => {
            if i < world.obstacles.len() {
                world.obstacles.remove(i);
            }
            "deleted obstacle".to_string()
        }
        Selection::PathPoint { path, point } => {
            let Some(named) = world.paths.get(path) else { return String::new() };
            let mut points = named.polyline.points().to_vec();
            if points.len() <= 2 {
                return delete(world, Selection::Path(path));
            }
            if point < points.len() {
                points.remove(point);
            }
            let closed = named.polyline.is_closed() && points.len() >= 3;
            if let Some(named) = world.paths.get_mut(path) {
                named.polyline = Polyline::new(points, closed);
            }
            restart_followers(world, path);
            "deleted path point".to_string()
        }
        Selection::Path(i) => {
            if i >= world.paths.len() {
                return String::new();
            }
            let removed = world.paths.remove(i);
            let before = world.agents.len();
            world.agents.retain(|a| a.behaviour.path() != Some(i));
            for agent in &mut world.agents {
                if let Behaviour::Waypoints { path, .. }
                | Behaviour::Projected { path, .. }
                | Behaviour::Predictive { path, .. } = &mut agent.behaviour
                {
                    if *path > i {
                        *path -= 1;
                    }
                }
            }
            dependants_note("path", &removed.id, before - world.agents.len())
        }
        Selection::Target(i) => {
            if i >= world.targets.len() {
                return String::new();
            }
            let removed = world.targets.remove(i);
            let before = world.agents.len();
            world.agents.retain(|a| a.behaviour.target() != Some(i));
            for agent in &mut world.agents {
                if let Behaviour::Seek { target }
                | Behaviour::Flee { target }
                | Behaviour::Arrive { target, .. } = &mut agent.behaviour
                {
                    if *target > i {
                        *target -= 1;
                    }
                }
            }
            dependants_note("target", &removed.id, before - world.agents.len())
        }
        Selection::Curve(i) => {
            if i >= world.curves.len() {
                return String::new();
            }
            let removed = world.curves.remove(i);
            let before = world.agents.len();
            world.agents.retain(|a| a.behaviour.curve() != Some(i));
            for agent in &mut world.agents {
                if let Behaviour::Parametric { curve, .. } = &mut agent.behaviour {
                    if *curve > i {
                        *curve -= 1;
                    }
                }
            }
            dependants_note("curve", &removed.id, before - world.agents.len())
        }
        Selection::Waypoint { agent, waypoint } => {
            if let Some(Behaviour::Planner { params }) = world.agents.get(agent).map(|a| a.behaviour.clone())
            {
                let mut params = params;
                if waypoint < params.waypoints.len() && params.waypoints.len() > 1 {
                    params.waypoints.remove(waypoint);
                    set_behaviour(world, agent, Behaviour::Planner { params });
                    return "deleted waypoint".to_string();
                }
            }
            "a planner keeps at least one waypoint".to_string()
        }
    }
}

fn dependants_note(what: &str, id: &str, agents: usize) -> String {
    match agents {
        0 => format!("deleted {what} {id}"),
        1 => format!("deleted {what} {id} and the agent that used it"),
        n => format!("deleted {what} {id} and the {n} agents that used it"),
    }
}

/// Restarts the behaviour state of the agents following `path` (after its shape changed).
pub fn restart_followers(world: &mut World, path: usize) {
    for agent in &mut world.agents {
        if agent.behaviour.path() == Some(path) {
            agent.state = BehaviourState::start(&agent.behaviour);
        }
    }
}

/// Appends points to a path, or makes a new open path of them; returns (path, last point).
pub fn append_path_points(world: &mut World, path: Option<usize>, points: &[Vec3]) -> (usize, usize) {
    match path.filter(|&p| p < world.paths.len()) {
        Some(path_idx) => {
            let named = &mut world.paths[path_idx];
            let mut all = named.polyline.points().to_vec();
            all.extend_from_slice(points);
            let last = all.len() - 1;
            named.polyline = Polyline::new(all, named.polyline.is_closed());
            restart_followers(world, path_idx);
            (path_idx, last)
        }
        None => {
            let id = unique_id(world.paths.iter().map(|p| p.id.as_str()), "path");
            world.paths.push(crate::sim::NamedPath {
                id,
                polyline: Polyline::new(points.to_vec(), false),
                radius: 20.0,
            });
            (world.paths.len() - 1, points.len().saturating_sub(1))
        }
    }
}

/// Inserts a point after vertex `segment`; returns the new point's index.
pub fn insert_path_point(world: &mut World, path: usize, segment: usize, point: Vec3) -> Option<usize> {
    let named = world.paths.get_mut(path)?;
    let mut points = named.polyline.points().to_vec();
    let at = (segment + 1).min(points.len());
    points.insert(at, point);
    named.polyline = Polyline::new(points, named.polyline.is_closed());
    restart_followers(world, path);
    Some(at)
}

/// Opens or closes a path.
pub fn set_path_closed(world: &mut World, path: usize, closed: bool) {
    if let Some(named) = world.paths.get_mut(path) {
        named.polyline = Polyline::new(named.polyline.points().to_vec(), closed);
    }
    restart_followers(world, path);
}

/// Replaces a curve; its followers carry on from the nearest point.
pub fn set_curve(world: &mut World, curve_idx: usize, curve: Curve) {
    if let Some(named) = world.curves.get_mut(curve_idx) {
        named.curve = curve;
    }
}

/// Clones agent `agent_idx` once per comparable behaviour: path followers get one of each
/// path-following behaviour on the same path; parametric followers one per method; seek, flee
/// and arrive agents one of each of those on the same target. Returns how many were added.
pub fn compare(world: &mut World, agent_idx: usize) -> usize {
    let Some(original) = world.agents.get(agent_idx).cloned() else { return 0 };
    let variants: Vec<(String, Behaviour)> = match &original.behaviour {
        Behaviour::Waypoints { path, .. }
        | Behaviour::Projected { path, .. }
        | Behaviour::Predictive { path, .. } => {
            let path = *path;
            vec![
                ("waypoints".into(), Behaviour::Waypoints { path, params: WaypointsParams::default() }),
                (
                    "closest-node".into(),
                    Behaviour::Waypoints {
                        path,
                        params: WaypointsParams { closest_node: true, ..Default::default() },
                    },
                ),
                ("projected".into(), Behaviour::Projected { path, params: ProjectedParams::default() }),
                ("predictive".into(), Behaviour::Predictive { path, params: PredictiveParams::default() }),
            ]
        }
        Behaviour::Parametric { curve, params } => [ParametricMethod::Secant, ParametricMethod::ArcLength]
            .into_iter()
            .map(|method| {
                let name = if method == ParametricMethod::Secant { "secant" } else { "arc_length" };
                (
                    name.to_string(),
                    Behaviour::Parametric { curve: *curve, params: ParametricParams { method, ..*params } },
                )
            })
            .collect(),
        Behaviour::Seek { target } | Behaviour::Flee { target } | Behaviour::Arrive { target, .. } => {
            let target = *target;
            vec![
                ("seek".into(), Behaviour::Seek { target }),
                ("arrive".into(), Behaviour::Arrive { target, params: ArriveParams::default() }),
            ]
        }
        Behaviour::Planner { params } => vec![(
            "smoothed".into(),
            Behaviour::Planner { params: PlannerParams { smoothing: !params.smoothing, ..params.clone() } },
        )],
    };
    let mut added = 0;
    for (label, behaviour) in variants {
        if behaviour == original.behaviour {
            continue;
        }
        let name = unique_agent_name(world, &format!("{} {label}", original.name));
        let colour = super::free_colour(world);
        let mut agent = Agent::new(name, colour, original.start, original.limits, behaviour);
        agent.avoid_obstacles = original.avoid_obstacles;
        world.agents.push(agent);
        let idx = world.agents.len() - 1;
        world.reset_agent(idx);
        added += 1;
    }
    added
}

/// The box around everything in the world (a default box when it is empty).
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
    for target in &world.targets {
        add(target.start.0, 10.0);
    }
    for obstacle in &world.obstacles {
        add(obstacle.start.0, obstacle.radius);
    }
    for agent in &world.agents {
        add(agent.start.position, agent.limits.radius);
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
    if !position.is_finite() {
        return;
    }
    match selection {
        Selection::Agent(i) => {
            if let Some(agent) = world.agents.get_mut(i) {
                agent.kinematics.position = position;
                agent.start.position = position;
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
                let points = named.polyline.points().iter().map(|&p| p + delta).collect();
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
        CurveKind::Expr { x, y, z, t_min, t_max } => {
            let shift = |e: String, d: f32| if d == 0.0 { e } else { format!("({e}) + {d}") };
            CurveKind::Expr { x: shift(x, delta.x), y: shift(y, delta.y), z: shift(z, delta.z), t_min, t_max }
        }
    }
}

/// What is under a screen position, within `tolerance_px` pixels; agents first, then targets,
/// waypoints, path points, obstacles, curve handles, and path segments.
pub fn pick(world: &World, camera: &Camera, screen: Vec2, tolerance_px: f32) -> Option<Selection> {
    let near = |p: Vec3, extra_px: f32| -> Option<f32> {
        let s = camera.to_screen(p)?;
        let d = s.distance(screen);
        (d <= tolerance_px + extra_px).then_some(d)
    };
    let mut best: Option<(f32, Selection)> = None;
    let mut consider = |d: Option<f32>, selection: Selection, priority: f32| {
        if let Some(d) = d {
            let score = d + priority;
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, selection));
            }
        }
    };
    for (i, agent) in world.agents.iter().enumerate() {
        let px = agent.limits.radius * camera.pixels_per_unit(agent.kinematics.position);
        consider(near(agent.kinematics.position, px), Selection::Agent(i), 0.0);
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
        let Some(centre) = camera.to_screen(obstacle.position) else { continue };
        let radius_px = obstacle.radius * camera.pixels_per_unit(obstacle.position);
        let d = centre.distance(screen);
        if d <= radius_px + tolerance_px {
            consider(Some((d - radius_px).max(0.0)), Selection::Obstacle(i), 4.0);
        }
    }
    if best.is_none() {
        if let Some((path, _)) = pick_segment(world, camera, screen, tolerance_px) {
            return Some(Selection::Path(path));
        }
    }
    best.map(|(_, s)| s)
}

/// The path segment under a screen position: (path, segment index).
pub fn pick_segment(
    world: &World,
    camera: &Camera,
    screen: Vec2,
    tolerance_px: f32,
) -> Option<(usize, usize)> {
    let mut best: Option<(f32, (usize, usize))> = None;
    for (path_idx, path) in world.paths.iter().enumerate() {
        let n = path.polyline.segment_count();
        for segment in 0..n {
            let (a, b) = path.polyline.segment(segment);
            let (Some(sa), Some(sb)) = (camera.to_screen(a), camera.to_screen(b)) else { continue };
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
