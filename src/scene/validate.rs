//! Checks a [`SceneFile`] completely before anything is built: version, ids and references,
//! radii, ranges, finiteness, point counts, colours and names.
//!
//! Each check returns the first problem as `(json_path, reason)`; `io` turns the path into a line
//! and column. The limits below keep numbers where the simulation behaves (f32 world units
//! around one pixel at zoom 1): a coordinate of 1e7 is a typo, not a scene. Expressions are the
//! one thing checked later, when `convert` builds the curve (their parser lives in geometry).

use std::collections::HashMap;

use glam::Vec3;

use super::format::{
    AgentSpec, BehaviourSpec, BoundsSpec, CurveSpec, FieldSpec, SceneFile, SceneVec, FORMAT_VERSION,
    READABLE_VERSIONS,
};
use crate::behaviours::param::Param;
use crate::behaviours::{
    ArriveParams, AvoidParams, Limits, ParametricParams, PredictiveParams, ProjectedParams, PursuitParams,
    WanderParams, WaypointsParams,
};
use crate::behaviours::{CollisionAvoidanceParams, FlockingParams, OffsetPursuitParams};
use crate::behaviours::{ContainmentParams, FlowFieldParams};
use crate::planner::PlannerParams;
use crate::sim::{Combine, Rgb, Slot};

/// Largest |coordinate| of any position, point, centre or waypoint (curves reach at most this).
pub const MAX_COORDINATE: f32 = crate::geometry::curve::MAX_CURVE_COORDINATE;
/// Largest radius, size, amplitude or distance parameter.
pub const MAX_DISTANCE: f32 = 1e6;
/// Largest speed (max_speed, parametric speed, |velocity|).
pub const MAX_SPEED: f32 = 1e6;
/// Largest fixed step in seconds.
pub const MAX_DT: f32 = 0.1;
/// Most agents in a scene.
pub const MAX_AGENTS: usize = 100_000;
/// Most paths in a scene.
pub const MAX_PATHS: usize = 10_000;
/// Most curves in a scene.
pub const MAX_CURVES: usize = 10_000;
/// Most painted fields in a scene.
pub const MAX_FIELDS: usize = 10_000;
/// Most cells of one painted field, and of all of a scene's painted fields together (checked
/// from `columns` and `rows` before any grid is allocated).
pub const MAX_FIELD_CELLS: usize = crate::behaviours::flow_field::MAX_FLOW_CELLS;
/// Most targets in a scene.
pub const MAX_TARGETS: usize = 10_000;
/// Most obstacles in a scene.
pub const MAX_OBSTACLES: usize = 100_000;
/// Most points of all paths, splines and planner waypoints together.
pub const MAX_POINTS: usize = 5_000_000;
/// Most user waypoints of one planner ship (the planner's limit).
pub use crate::planner::MAX_WAYPOINTS;
/// Most entries in one agent's list of behaviours (the simulation's limit).
pub use crate::sim::MAX_BEHAVIOURS;
/// Smallest fixed step in seconds (10,000 steps per simulated second; a step of 1e-40 s made
/// `run --seconds 1` loop forever).
pub const MIN_DT: f32 = 1e-4;
/// Largest |value| of a curve parameter (t0, t_min, t_max, phase, orientation, pitch).
pub const MAX_PARAMETER: f32 = 1e6;
/// Largest |frequency| of a Lissajous curve and number of helix turns.
pub const MAX_FREQUENCY: f32 = 1000.0;
/// Longest expression, in characters (the curve code's limit, checked here first for the path).
pub use crate::geometry::curve::MAX_EXPRESSION_LEN;

/// A problem: the JSON path of the offending value and what is wrong with it.
pub type Issue = (String, String);

/// Checks everything that can be checked without building geometry.
pub fn validate_scene(scene: &SceneFile) -> Result<(), Issue> {
    if !READABLE_VERSIONS.contains(&scene.version) {
        return Err((
            "version".into(),
            format!(
                "unsupported version {}, this build reads versions 1 and {FORMAT_VERSION}",
                scene.version
            ),
        ));
    }
    let version_1 = scene.version == 1;
    if scene.avoidance.is_some() && !version_1 {
        return Err((
            "avoidance".into(),
            "`avoidance` is version 1; in version 2 each `avoid_obstacles` entry holds its settings".into(),
        ));
    }
    check_sizes(scene)?;
    finite("dt", "dt", scene.dt)?;
    if !(MIN_DT..=MAX_DT).contains(&scene.dt) {
        return Err((
            "dt".into(),
            format!("`dt` must be from {MIN_DT} to {MAX_DT} seconds, got {}", scene.dt),
        ));
    }
    if let Some(bounds) = &scene.bounds {
        check_bounds(bounds)?;
    }
    if let Some(avoidance) = &scene.avoidance {
        param("avoidance.look_ahead", &AvoidParams::LOOK_AHEAD, avoidance.look_ahead)?;
        param("avoidance.margin", &AvoidParams::MARGIN, avoidance.margin)?;
    }

    let mut path_ids = Ids::new("path");
    for (i, path) in scene.paths.iter().enumerate() {
        let base = format!("paths[{i}]");
        path_ids.add(&base, &path.id, i)?;
        if path.points.len() < 2 {
            return Err((
                format!("{base}.points"),
                format!("a path needs at least 2 points, got {}", path.points.len()),
            ));
        }
        points(&format!("{base}.points"), &path.points)?;
        check_path_radius(&base, path.radius)?;
    }

    let mut curve_ids = Ids::new("curve");
    for (i, curve) in scene.curves.iter().enumerate() {
        let base = format!("curves[{i}]");
        curve_ids.add(&base, curve.id(), i)?;
        check_curve(&base, curve)?;
    }

    let mut field_ids = Ids::new("field");
    for (i, field) in scene.fields.iter().enumerate() {
        let base = format!("fields[{i}]");
        field_ids.add(&base, &field.id, i)?;
        check_field(&base, field)?;
    }

    let mut target_ids = Ids::new("target");
    for (i, target) in scene.targets.iter().enumerate() {
        let base = format!("targets[{i}]");
        target_ids.add(&base, &target.id, i)?;
        check_target(&base, target.position.0, target.velocity.0)?;
    }

    let mut obstacle_ids = Ids::new("obstacle");
    for (i, obstacle) in scene.obstacles.iter().enumerate() {
        let base = format!("obstacles[{i}]");
        if let Some(id) = &obstacle.id {
            obstacle_ids.add(&base, id, i)?;
        }
        check_obstacle(&base, obstacle.position.0, obstacle.radius, obstacle.velocity.0)?;
    }

    let agent_names: Vec<String> =
        scene.agents.iter().enumerate().map(|(i, a)| a.name_or_default(i)).collect();
    for (i, agent) in scene.agents.iter().enumerate() {
        let base = format!("agents[{i}]");
        let refs = References {
            paths: &path_ids,
            fields: &field_ids,
            curves: &curve_ids,
            targets: &target_ids,
            agents: &agent_names,
            this_agent: i,
        };
        if let Some(name) = &agent.name {
            if name.trim().is_empty() {
                return Err((format!("{base}.name"), "`name` must not be empty".into()));
            }
        }
        if let Some(color) = &agent.color {
            if Rgb::from_hex(color).is_none() {
                return Err((format!("{base}.color"), format!("`color` must be `#rrggbb`, got {color:?}")));
            }
        }
        coordinates(&format!("{base}.position"), "position", agent.position)?;
        velocity(&format!("{base}.velocity"), agent.velocity)?;
        bounded(&format!("{base}.orientation"), "orientation", agent.orientation, MAX_PARAMETER)?;
        param(&format!("{base}.radius"), &Limits::RADIUS, agent.radius)?;
        param(&format!("{base}.max_speed"), &Limits::MAX_SPEED, agent.max_speed)?;
        param(&format!("{base}.max_acceleration"), &Limits::MAX_ACCELERATION, agent.max_acceleration)?;
        if version_1 {
            if !agent.behaviours.is_empty() || !agent.combine.is_default() {
                let field = if agent.behaviours.is_empty() { "combine" } else { "behaviours" };
                return Err((format!("{base}.{field}"), format!("`{field}` needs version 2")));
            }
            let Some(behaviour) = &agent.behaviour else {
                return Err((base, "missing field `behaviour`".into()));
            };
            check_behaviour(&format!("{base}.behaviour"), behaviour, &refs)?;
        } else {
            for field in ["behaviour", "avoid_obstacles"] {
                let present = if field == "behaviour" {
                    agent.behaviour.is_some()
                } else {
                    agent.avoid_obstacles.is_some()
                };
                if present {
                    return Err((
                        format!("{base}.{field}"),
                        format!("`{field}` is version 1; version 2 lists every behaviour in `behaviours`"),
                    ));
                }
            }
            if agent.behaviours.is_empty() {
                return Err((base, "missing field `behaviours` (a list of at least one behaviour)".into()));
            }
            if agent.behaviours.len() > MAX_BEHAVIOURS {
                return Err((format!("{base}.behaviours"), too_many_behaviours()));
            }
            param(&format!("{base}.combine.threshold"), &Combine::THRESHOLD, agent.combine.threshold)?;
            for (j, entry) in agent.behaviours.iter().enumerate() {
                let entry_base = format!("{base}.behaviours[{j}]");
                check_behaviour(&entry_base, &entry.behaviour, &refs)?;
                param(&format!("{entry_base}.weight"), &Slot::WEIGHT, entry.weight)?;
                param(&format!("{entry_base}.group"), &Slot::GROUP, entry.group as f32)?;
            }
        }
    }
    Ok(())
}

/// The ids of one kind of object, for duplicate and reference checks.
struct Ids {
    kind: &'static str,
    first_use: HashMap<String, usize>,
    in_order: Vec<String>,
}

impl Ids {
    fn new(kind: &'static str) -> Ids {
        Ids { kind, first_use: HashMap::new(), in_order: Vec::new() }
    }

    fn add(&mut self, base: &str, id: &str, idx: usize) -> Result<(), Issue> {
        let path = format!("{base}.id");
        if id.trim().is_empty() {
            return Err((path, "`id` must not be empty".into()));
        }
        if let Some(first) = self.first_use.get(id) {
            let list = plural(self.kind);
            return Err((
                path,
                format!("duplicate {} id `{id}` (already used by {list}[{first}])", self.kind),
            ));
        }
        self.first_use.insert(id.to_string(), idx);
        self.in_order.push(id.to_string());
        Ok(())
    }

    fn resolve(&self, path: String, id: &str) -> Result<(), Issue> {
        if self.first_use.contains_key(id) {
            return Ok(());
        }
        let known = if self.in_order.is_empty() {
            format!("the scene has no {}", plural(self.kind))
        } else {
            let names: Vec<String> = self.in_order.iter().map(|id| format!("`{id}`")).collect();
            format!("{} are: {}", plural(self.kind), names.join(", "))
        };
        Err((path, format!("no {} with id `{id}`; {known}", self.kind)))
    }
}

fn plural(kind: &str) -> String {
    format!("{kind}s")
}

struct References<'a> {
    paths: &'a Ids,
    fields: &'a Ids,
    curves: &'a Ids,
    targets: &'a Ids,
    /// Every agent's name (`name`, or `agent N`), by index.
    agents: &'a [String],
    /// The agent whose behaviours are checked.
    this_agent: usize,
}

impl References<'_> {
    /// Checks a reference to another agent by name: exactly one agent has it, and it is not the
    /// agent itself.
    fn other_agent(&self, path: String, name: &str) -> Result<(), Issue> {
        let matches: Vec<usize> =
            (0..self.agents.len()).filter(|&j| self.agents.get(j).is_some_and(|n| n == name)).collect();
        match matches.as_slice() {
            [] => {
                let names: Vec<String> = self.agents.iter().map(|n| format!("`{n}`")).collect();
                Err((path, format!("no agent named `{name}`; agents are: {}", names.join(", "))))
            }
            [j] if *j == self.this_agent => {
                Err((path, format!("an agent cannot refer to itself (`{name}`)")))
            }
            [_] => Ok(()),
            [first, second, ..] => Err((
                path,
                format!(
                    "agent name `{name}` is ambiguous (agents[{first}] and agents[{second}] both have it)"
                ),
            )),
        }
    }
}

fn check_behaviour(base: &str, behaviour: &BehaviourSpec, refs: &References) -> Result<(), Issue> {
    let at = |field: &str| format!("{base}.{field}");
    match behaviour {
        BehaviourSpec::Seek(spec) | BehaviourSpec::Flee(spec) => {
            refs.targets.resolve(at("target"), &spec.target)
        }
        BehaviourSpec::Arrive(spec) => {
            refs.targets.resolve(at("target"), &spec.target)?;
            param(&at("target_radius"), &ArriveParams::TARGET_RADIUS, spec.target_radius)?;
            param(&at("slow_radius"), &ArriveParams::SLOW_RADIUS, spec.slow_radius)?;
            if spec.slow_radius < spec.target_radius {
                return Err((
                    at("slow_radius"),
                    format!(
                        "`slow_radius` ({}) must not be smaller than `target_radius` ({})",
                        spec.slow_radius, spec.target_radius
                    ),
                ));
            }
            param(&at("time_to_target"), &ArriveParams::TIME_TO_TARGET, spec.time_to_target)
        }
        BehaviourSpec::Parametric(spec) => {
            refs.curves.resolve(at("curve"), &spec.curve)?;
            param(&at("speed"), &ParametricParams::SPEED, spec.speed)?;
            param(&at("delta_t"), &ParametricParams::DELTA_T, spec.delta_t)?;
            param(&at("t0"), &ParametricParams::T0, spec.t0)
        }
        BehaviourSpec::Waypoints(spec) => {
            refs.paths.resolve(at("path"), &spec.path)?;
            param(&at("node_radius"), &WaypointsParams::NODE_RADIUS, spec.node_radius)
        }
        BehaviourSpec::Projected(spec) => {
            refs.paths.resolve(at("path"), &spec.path)?;
            param(&at("offset"), &ProjectedParams::OFFSET, spec.offset)
        }
        BehaviourSpec::Predictive(spec) => {
            refs.paths.resolve(at("path"), &spec.path)?;
            param(&at("prediction_time"), &PredictiveParams::PREDICTION_TIME, spec.prediction_time)?;
            param(&at("path_radius"), &PredictiveParams::PATH_RADIUS, spec.path_radius)
        }
        BehaviourSpec::AvoidObstacles(spec) => {
            param(&at("look_ahead"), &AvoidParams::LOOK_AHEAD, spec.look_ahead)?;
            param(&at("margin"), &AvoidParams::MARGIN, spec.margin)
        }
        BehaviourSpec::Pursuit(spec) | BehaviourSpec::Evade(spec) => {
            refs.other_agent(at("agent"), &spec.agent)?;
            param(&at("max_prediction"), &PursuitParams::MAX_PREDICTION, spec.max_prediction)
        }
        BehaviourSpec::Wander(spec) => {
            param(&at("radius"), &WanderParams::RADIUS, spec.radius)?;
            param(&at("distance"), &WanderParams::DISTANCE, spec.distance)?;
            param(&at("jitter"), &WanderParams::JITTER, spec.jitter)?;
            param(&at("seed"), &WanderParams::SEED, spec.seed as f32)
        }
        BehaviourSpec::Flocking(spec) => {
            param(&at("separation"), &FlockingParams::SEPARATION, spec.separation)?;
            param(&at("alignment"), &FlockingParams::ALIGNMENT, spec.alignment)?;
            param(&at("cohesion"), &FlockingParams::COHESION, spec.cohesion)?;
            param(&at("separation_radius"), &FlockingParams::SEPARATION_RADIUS, spec.separation_radius)?;
            param(&at("radius"), &FlockingParams::RADIUS, spec.radius)?;
            param(&at("view_angle"), &FlockingParams::VIEW_ANGLE, spec.view_angle)
        }
        BehaviourSpec::OffsetPursuit(spec) => {
            refs.other_agent(at("agent"), &spec.agent)?;
            param(&at("offset_x"), &OffsetPursuitParams::OFFSET_X, spec.offset_x)?;
            param(&at("offset_y"), &OffsetPursuitParams::OFFSET_Y, spec.offset_y)?;
            param(&at("approach_time"), &OffsetPursuitParams::APPROACH_TIME, spec.approach_time)
        }
        BehaviourSpec::CollisionAvoidance(spec) => {
            param(&at("horizon"), &CollisionAvoidanceParams::HORIZON, spec.horizon)?;
            param(&at("margin"), &CollisionAvoidanceParams::MARGIN, spec.margin)
        }
        BehaviourSpec::Containment(spec) => {
            refs.paths.resolve(at("region"), &spec.region)?;
            param(&at("look_ahead"), &ContainmentParams::LOOK_AHEAD, spec.look_ahead)?;
            param(&at("margin"), &ContainmentParams::MARGIN, spec.margin)
        }
        BehaviourSpec::FlowField(spec) => {
            if let Some(field) = &spec.field {
                if spec.path.is_some() {
                    return Err((
                        at("field"),
                        "a flow field reads a painted `field` or runs along a `path`, not both".into(),
                    ));
                }
                refs.fields.resolve(at("field"), field)?;
            }
            if let Some(path) = &spec.path {
                refs.paths.resolve(at("path"), path)?;
            }
            param(&at("look_ahead"), &FlowFieldParams::LOOK_AHEAD, spec.look_ahead)?;
            param(&at("seed"), &FlowFieldParams::SEED, spec.seed as f32)?;
            param(&at("scale"), &FlowFieldParams::SCALE, spec.scale)?;
            param(&at("pull"), &FlowFieldParams::PULL, spec.pull)
        }
        BehaviourSpec::LeaderFollowing(spec) => {
            use crate::behaviours::leader_following::{BEHIND, SIGHT_DISTANCE, SIGHT_RADIUS};
            refs.other_agent(at("agent"), &spec.agent)?;
            param(&at("behind"), &BEHIND, spec.behind)?;
            param(&at("sight_distance"), &SIGHT_DISTANCE, spec.sight_distance)?;
            param(&at("sight_radius"), &SIGHT_RADIUS, spec.sight_radius)?;
            param(&at("approach_time"), &OffsetPursuitParams::APPROACH_TIME, spec.approach_time)
        }
        BehaviourSpec::Interpose(spec) => {
            let [a, b] = &spec.agents;
            refs.other_agent(at("agents[0]"), a)?;
            refs.other_agent(at("agents[1]"), b)?;
            if a == b {
                return Err((
                    at("agents[1]"),
                    format!("interpose needs two different agents, got `{a}` twice"),
                ));
            }
            param(&at("slow_radius"), &crate::behaviours::interpose::SLOW_RADIUS, spec.slow_radius)
        }
        BehaviourSpec::Hide(spec) => {
            use crate::behaviours::hide::{DISTANCE_FROM_BOUNDARY, SLOW_RADIUS};
            refs.other_agent(at("agent"), &spec.agent)?;
            param(&at("distance_from_boundary"), &DISTANCE_FROM_BOUNDARY, spec.distance_from_boundary)?;
            param(&at("slow_radius"), &SLOW_RADIUS, spec.slow_radius)
        }
        BehaviourSpec::Face(spec) => {
            refs.other_agent(at("agent"), &spec.agent)?;
            param(&at("max_rotation"), &crate::behaviours::face::MAX_ROTATION, spec.max_rotation)?;
            param(&at("slow_angle"), &crate::behaviours::face::SLOW_ANGLE, spec.slow_angle)
        }
        BehaviourSpec::LookWhereYouAreGoing(spec) => {
            param(&at("max_rotation"), &crate::behaviours::face::MAX_ROTATION, spec.max_rotation)?;
            param(&at("slow_angle"), &crate::behaviours::face::SLOW_ANGLE, spec.slow_angle)
        }
        BehaviourSpec::Planner(spec) => {
            if spec.waypoints.len() > MAX_WAYPOINTS {
                return Err((at("waypoints"), too_many_waypoints()));
            }
            points(&at("waypoints"), &spec.waypoints)?;
            param(&at("clearance"), &PlannerParams::CLEARANCE, spec.clearance)?;
            param(&at("iteration_limit"), &PlannerParams::ITERATION_LIMIT, spec.iteration_limit as f32)?;
            param(&at("replan_interval"), &PlannerParams::REPLAN_INTERVAL, spec.replan_interval)?;
            param(&at("arrival_radius"), &PlannerParams::ARRIVAL_RADIUS, spec.arrival_radius)?;
            param(&at("incoming_fire"), &PlannerParams::INCOMING_FIRE, spec.incoming_fire)?;
            param(&at("fire_strength"), &PlannerParams::FIRE_STRENGTH, spec.fire_strength)?;
            param(&at("fire_seed"), &PlannerParams::FIRE_SEED, spec.fire_seed as f32)
        }
    }
}

/// Checks a value against its declaration (finite, in range, whole for counts; never clamped).
/// Integers are compared after conversion to f32, which is exact within every declared range
/// (the largest, `fire_seed`, ends at 2^24 − 1); a larger count fails the range check.
pub fn param(path: &str, declaration: &Param, value: f32) -> Result<(), Issue> {
    declaration.check(value).map(|_| ()).map_err(|err| (path.to_string(), err.to_string()))
}

/// A path's radius as a file's is checked (`base` names the path: `paths[2]`, or `path` in the
/// editor, which checks its edits with the file's checks so that it never makes a scene the
/// loader refuses).
pub fn check_path_radius(base: &str, radius: f32) -> Result<(), Issue> {
    positive(&format!("{base}.radius"), "radius", radius, MAX_DISTANCE)
}

/// A target's position and velocity as a file's are checked (see [`check_path_radius`]).
pub fn check_target(base: &str, position: Vec3, velocity: Vec3) -> Result<(), Issue> {
    coordinates(&format!("{base}.position"), "position", SceneVec(position))?;
    self::velocity(&format!("{base}.velocity"), SceneVec(velocity))
}

/// An obstacle's position, radius and velocity as a file's are checked (see
/// [`check_path_radius`]).
pub fn check_obstacle(base: &str, position: Vec3, radius: f32, velocity: Vec3) -> Result<(), Issue> {
    coordinates(&format!("{base}.position"), "position", SceneVec(position))?;
    positive(&format!("{base}.radius"), "radius", radius, MAX_DISTANCE)?;
    self::velocity(&format!("{base}.velocity"), SceneVec(velocity))
}

/// A point of a path, spline or waypoint list as a file's are checked (see
/// [`check_path_radius`]).
pub fn check_point(path: &str, point: Vec3) -> Result<(), Issue> {
    coordinates(path, "point", SceneVec(point))
}

/// A curve's parameters as a file's are checked (see [`check_path_radius`]; expressions are
/// checked when the curve is built).
pub fn check_curve(base: &str, curve: &CurveSpec) -> Result<(), Issue> {
    let at = |field: &str| format!("{base}.{field}");
    match curve {
        CurveSpec::Circle(spec) => {
            coordinates(&at("center"), "center", spec.center)?;
            positive(&at("radius"), "radius", spec.radius, MAX_DISTANCE)
        }
        CurveSpec::Ellipse(spec) => {
            coordinates(&at("center"), "center", spec.center)?;
            positive(&at("radius_x"), "radius_x", spec.radius_x, MAX_DISTANCE)?;
            positive(&at("radius_y"), "radius_y", spec.radius_y, MAX_DISTANCE)
        }
        CurveSpec::Lemniscate(spec) => {
            coordinates(&at("center"), "center", spec.center)?;
            positive(&at("size"), "size", spec.size, MAX_DISTANCE)
        }
        CurveSpec::Lissajous(spec) => {
            coordinates(&at("center"), "center", spec.center)?;
            coordinates(&at("amplitude"), "amplitude", spec.amplitude)?;
            bounded(&at("freq_x"), "freq_x", spec.freq_x, MAX_FREQUENCY)?;
            bounded(&at("freq_y"), "freq_y", spec.freq_y, MAX_FREQUENCY)?;
            bounded(&at("phase"), "phase", spec.phase, MAX_PARAMETER)
        }
        CurveSpec::Helix(spec) => {
            coordinates(&at("center"), "center", spec.center)?;
            positive(&at("radius"), "radius", spec.radius, MAX_DISTANCE)?;
            bounded(&at("pitch"), "pitch", spec.pitch, MAX_PARAMETER)?;
            positive(&at("turns"), "turns", spec.turns, MAX_FREQUENCY)
        }
        CurveSpec::Spline(spec) => {
            if spec.points.len() < 2 {
                return Err((
                    at("points"),
                    format!("a spline needs at least 2 points, got {}", spec.points.len()),
                ));
            }
            points(&at("points"), &spec.points)
        }
        CurveSpec::Expr(spec) => {
            for (field, text) in [("x", &spec.x), ("y", &spec.y), ("z", &spec.z)] {
                let len = text.chars().count();
                if len > MAX_EXPRESSION_LEN {
                    return Err((
                        at(field),
                        format!("expression is too long ({len} characters, at most {MAX_EXPRESSION_LEN})"),
                    ));
                }
            }
            bounded(&at("t_min"), "t_min", spec.t_min, MAX_PARAMETER)?;
            bounded(&at("t_max"), "t_max", spec.t_max, MAX_PARAMETER)?;
            if spec.t_max <= spec.t_min {
                return Err((
                    at("t_max"),
                    format!("`t_max` ({}) must be greater than `t_min` ({})", spec.t_max, spec.t_min),
                ));
            }
            Ok(())
        }
    }
}

fn check_bounds(bounds: &BoundsSpec) -> Result<(), Issue> {
    coordinates("bounds.min", "min", bounds.min)?;
    coordinates("bounds.max", "max", bounds.max)?;
    let (min, max) = (bounds.min.0, bounds.max.0);
    for (axis, name) in ["x", "y", "z"].iter().enumerate() {
        if max[axis] < min[axis] {
            return Err((
                "bounds.max".into(),
                format!("`max` must not be below `min` on any axis ({name}: {} < {})", max[axis], min[axis]),
            ));
        }
    }
    Ok(())
}

fn finite(path: &str, name: &str, value: f32) -> Result<(), Issue> {
    if value.is_finite() {
        Ok(())
    } else {
        Err((path.into(), format!("`{name}` must be a finite number, got {}", non_finite(value))))
    }
}

/// Words for a non-finite number (JSON has none, but 1e39 overflows an f32 to infinity).
fn non_finite(value: f32) -> String {
    if value.is_nan() {
        "NaN".into()
    } else {
        format!("{}infinity (a number too large to be finite)", if value < 0.0 { "-" } else { "" })
    }
}

/// Finite and in (0, max].
fn positive(path: &str, name: &str, value: f32, max: f32) -> Result<(), Issue> {
    finite(path, name, value)?;
    if value <= 0.0 {
        return Err((path.into(), format!("`{name}` must be greater than 0, got {value}")));
    }
    if value > max {
        return Err((path.into(), format!("`{name}` must be at most {max}, got {value}")));
    }
    Ok(())
}

/// Finite and |value| ≤ limit.
fn bounded(path: &str, name: &str, value: f32, limit: f32) -> Result<(), Issue> {
    finite(path, name, value)?;
    if value.abs() > limit {
        return Err((path.into(), format!("`{name}` must be from -{limit} to {limit}, got {value}")));
    }
    Ok(())
}

fn coordinates(path: &str, name: &str, v: SceneVec) -> Result<(), Issue> {
    // The component's path is written only for a fault: the editor checks every point of a
    // dragged path each frame.
    for (axis, c) in v.0.to_array().into_iter().enumerate() {
        let component_path = || format!("{path}[{axis}]");
        if !c.is_finite() {
            return Err((
                component_path(),
                format!("`{name}` must hold finite numbers, got {}", non_finite(c)),
            ));
        }
        if c.abs() > MAX_COORDINATE {
            return Err((
                component_path(),
                format!("coordinate {c} of `{name}` is out of range (at most {MAX_COORDINATE} either way)"),
            ));
        }
    }
    Ok(())
}

fn points(path: &str, points: &[SceneVec]) -> Result<(), Issue> {
    let usable = |p: &SceneVec| p.0.to_array().iter().all(|c| c.is_finite() && c.abs() <= MAX_COORDINATE);
    // The path text is built only for the point at fault (a path may hold millions).
    match points.iter().position(|p| !usable(p)) {
        Some(i) => points.get(i).map_or(Ok(()), |p| coordinates(&format!("{path}[{i}]"), "point", *p)),
        None => Ok(()),
    }
}

/// Checks one painted field: a corner and cell size in range, a grid of 1 to
/// [`MAX_FIELD_CELLS`] cells lying within the coordinate limits, and `columns × rows` finite
/// vectors (or none). The cell count was checked in [`check_sizes`].
fn check_field(base: &str, field: &FieldSpec) -> Result<(), Issue> {
    let at = |name: &str| format!("{base}.{name}");
    coordinates(&at("origin"), "origin", field.origin)?;
    if field.origin.0.z != 0.0 {
        return Err((at("origin[2]"), "a painted field lies on the ground: its `origin` needs z = 0".into()));
    }
    param(&at("cell_size"), &crate::behaviours::flow_field::CELL_SIZE, field.cell_size)?;
    for (name, count) in [("columns", field.columns), ("rows", field.rows)] {
        if count == 0 {
            return Err((at(name), format!("`{name}` must be at least 1")));
        }
    }
    for (axis, name, count) in [(0, "columns", field.columns), (1, "rows", field.rows)] {
        let far = field.origin.0[axis] + field.cell_size * count as f32;
        if !far.is_finite() || far.abs() > MAX_COORDINATE {
            return Err((
                at(name),
                format!(
                    "{count} {name} of {} u reach {far} from the origin, beyond the coordinate limit ({MAX_COORDINATE})",
                    field.cell_size
                ),
            ));
        }
    }
    let cells = field.columns.saturating_mul(field.rows);
    if !field.vectors.is_empty() && field.vectors.len() as u64 != cells {
        return Err((
            at("vectors"),
            format!(
                "a field of {} × {} cells needs {cells} vectors (one per cell, row by row from the bottom) or none, got {}",
                field.columns,
                field.rows,
                field.vectors.len()
            ),
        ));
    }
    let usable = |v: &[f32; 2]| v.iter().all(|c| c.is_finite() && c.abs() <= MAX_DISTANCE);
    if let Some(i) = field.vectors.iter().position(|v| !usable(v)) {
        let v = field.vectors.get(i).copied().unwrap_or_default();
        for (axis, c) in v.into_iter().enumerate() {
            bounded(&format!("{base}.vectors[{i}][{axis}]"), "vector", c, MAX_DISTANCE)?;
        }
    }
    Ok(())
}

/// Why a list holding `count` items is refused (its limit is `limit`); the reader says the same
/// when it stops at the first item past the limit.
pub(crate) fn too_many(list: &str, count: usize, limit: usize) -> String {
    format!("too many {list}: {count}, at most {limit}")
}

/// Why the points of paths, splines and planner waypoints are refused once they pass
/// [`MAX_POINTS`] together.
pub(crate) fn too_many_points() -> String {
    format!(
        "too many points: the scene's paths, splines and planner waypoints hold at most {MAX_POINTS} in all"
    )
}

/// Why a planner ship's waypoints are refused past [`MAX_WAYPOINTS`] (the reader's check, at the
/// waypoint past it, and `validate`'s for a scene built in code).
pub(crate) fn too_many_waypoints() -> String {
    format!("too many waypoints: a planner ship holds at most {MAX_WAYPOINTS}")
}

/// Why an agent's list of behaviours is refused past [`MAX_BEHAVIOURS`] entries.
pub(crate) fn too_many_behaviours() -> String {
    format!("too many behaviours: an agent's list holds at most {MAX_BEHAVIOURS}")
}

/// The user waypoints an agent's planner entries hold (they count toward [`MAX_POINTS`]).
pub(crate) fn waypoints_of(agent: &AgentSpec) -> usize {
    agent
        .behaviour
        .iter()
        .chain(agent.behaviours.iter().map(|entry| &entry.behaviour))
        .map(|behaviour| match behaviour {
            BehaviourSpec::Planner(spec) => spec.waypoints.len(),
            _ => 0,
        })
        .fold(0usize, usize::saturating_add)
}

/// Why a painted field holding more than [`MAX_FIELD_CELLS`] vectors is refused (the reader's
/// check, at the vector past it: a field holds one vector per cell, and no field has more cells).
pub(crate) fn too_many_vectors() -> String {
    format!("too many vectors: a painted field holds one per cell, at most {MAX_FIELD_CELLS}")
}

/// Checks the counts against the size limits (the largest scene this build reads).
fn check_sizes(scene: &SceneFile) -> Result<(), Issue> {
    let lists = [
        ("paths", scene.paths.len(), MAX_PATHS),
        ("fields", scene.fields.len(), MAX_FIELDS),
        ("curves", scene.curves.len(), MAX_CURVES),
        ("targets", scene.targets.len(), MAX_TARGETS),
        ("obstacles", scene.obstacles.len(), MAX_OBSTACLES),
        ("agents", scene.agents.len(), MAX_AGENTS),
    ];
    for (list, count, limit) in lists {
        if count > limit {
            return Err((list.into(), too_many(list, count, limit)));
        }
    }
    let mut cells = 0u64;
    for (i, field) in scene.fields.iter().enumerate() {
        let own = field.columns.saturating_mul(field.rows);
        cells = cells.saturating_add(own);
        if own > MAX_FIELD_CELLS as u64 {
            return Err((
                format!("fields[{i}]"),
                format!(
                    "a painted field of {} × {} = {own} cells is too big: at most {MAX_FIELD_CELLS} cells (2048 × 2048)",
                    field.columns, field.rows
                ),
            ));
        }
        if cells > MAX_FIELD_CELLS as u64 {
            return Err((
                format!("fields[{i}]"),
                format!("too many cells: the scene's painted fields hold at most {MAX_FIELD_CELLS} in all"),
            ));
        }
    }
    let mut total = 0usize;
    for (i, path) in scene.paths.iter().enumerate() {
        total += path.points.len();
        if total > MAX_POINTS {
            return Err((format!("paths[{i}].points"), too_many_points()));
        }
    }
    for (i, curve) in scene.curves.iter().enumerate() {
        if let CurveSpec::Spline(spline) = curve {
            total += spline.points.len();
            if total > MAX_POINTS {
                return Err((format!("curves[{i}].points"), too_many_points()));
            }
        }
    }
    for (i, agent) in scene.agents.iter().enumerate() {
        // Version 1's `behaviour` (None), or version 2's entries by index.
        let v1 = agent.behaviour.iter().map(|behaviour| (None, behaviour));
        let v2 = agent.behaviours.iter().enumerate().map(|(j, entry)| (Some(j), &entry.behaviour));
        for (entry, behaviour) in v1.chain(v2) {
            if let BehaviourSpec::Planner(spec) = behaviour {
                total = total.saturating_add(spec.waypoints.len());
                if total > MAX_POINTS {
                    let at = entry.map_or("behaviour".to_string(), |j| format!("behaviours[{j}]"));
                    return Err((format!("agents[{i}].{at}.waypoints"), too_many_points()));
                }
            }
        }
    }
    Ok(())
}

fn velocity(path: &str, v: SceneVec) -> Result<(), Issue> {
    for (axis, c) in v.0.to_array().into_iter().enumerate() {
        if !c.is_finite() {
            return Err((
                format!("{path}[{axis}]"),
                format!("`velocity` must hold finite numbers, got {}", non_finite(c)),
            ));
        }
    }
    let speed = v.0.as_dvec3().length();
    if speed > f64::from(MAX_SPEED) {
        return Err((path.into(), format!("speed {speed} is out of range (at most {MAX_SPEED})")));
    }
    Ok(())
}
