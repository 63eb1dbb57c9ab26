//! Conversion between the file format ([`SceneFile`]) and the live [`World`].
//!
//! [`scene_to_world`] validates the whole file first, so a bad file builds nothing; the only
//! error found while building is a bad expression (its parser lives in `Curve::new`), reported
//! at `curves[i].x` (or `.y`, `.z`). Ids become indices; the world is reset so parametric agents
//! start at F(T0).
//!
//! [`world_to_scene`] writes what the scene started as (the agents', targets' and obstacles'
//! `start`, not where they are now), resolving indices back to ids. A dangling index (a path
//! deleted in the editor while an agent still follows it) is written as the id
//! `(missing path 3)`, which names no object, so the agent is kept but the scene fails
//! validation there: `scene_to_json` refuses to save it with an error that points at the agent,
//! rather than silently dropping the agent or writing a file that cannot be loaded.

use std::collections::HashMap;

use glam::Vec3;
use rayon::prelude::*;

use super::format::{
    AgentSpec, ArriveSpec, AvoidanceSpec, BehaviourSpec, BoundsSpec, CircleSpec, CollisionAvoidanceSpec,
    CombineMode, CombineSpec, CurveSpec, EllipseSpec, EntrySpec, ExprSpec, FaceSpec, FlockingSpec, HelixSpec,
    HideSpec, InterposeSpec, KinematicSpec, LeaderFollowingSpec, LemniscateSpec, LissajousSpec, LookSpec,
    ObstacleSpec, OffsetPursuitSpec, ParametricSpec, PathSpec, PlannerSpec, PredictiveSpec, ProjectedSpec,
    PursuitSpec, SceneFile, SceneVec, SplineSpec, TargetSpec, WanderSpec, WaypointsSpec, FORMAT_VERSION,
};
use super::format::{ContainmentSpec, FieldSpec, FlowFieldSpec};
use super::validate::validate_scene;
use crate::behaviours::flow_field::FlowField;
use crate::behaviours::OffsetPursuitParams;
use crate::behaviours::{
    ArriveParams, AvoidParams, CollisionAvoidanceParams, FlockingParams, Kinematics, Limits,
    ParametricParams, PredictiveParams, ProjectedParams, PursuitParams, WanderParams, WaypointsParams,
};
use crate::behaviours::{ContainmentParams, FlowFieldParams};
use crate::behaviours::{FaceParams, HideParams, InterposeParams, LeaderFollowingParams};
use crate::geometry::{Curve, CurveError, CurveKind, Polyline};
use crate::planner::PlannerParams;
use crate::sim::{
    Agent, Behaviour, Bounds, Combine, Entry, Mix, MixBox, NamedCurve, NamedField, NamedPath, Obstacle, Rgb,
    Slot, Target, World,
};

/// The app's one palette of agent colours, clearly distinct from each other and from the light
/// background (no yellow or pastels): a scene's agents without a colour get them by index
/// (cycled), and the editor gives new agents and Compare clones the first one not in use.
pub const PALETTE: [Rgb; 12] = [
    Rgb(0xe6, 0x19, 0x4b),
    Rgb(0x3c, 0xb4, 0x4b),
    Rgb(0x43, 0x63, 0xd8),
    Rgb(0xf5, 0x82, 0x31),
    Rgb(0x91, 0x1e, 0xb4),
    Rgb(0x42, 0xd4, 0xf4),
    Rgb(0xf0, 0x32, 0xe6),
    Rgb(0x9a, 0x63, 0x24),
    Rgb(0x46, 0x99, 0x90),
    Rgb(0x80, 0x00, 0x00),
    Rgb(0x00, 0x00, 0x75),
    Rgb(0xe3, 0x77, 0xc2),
];

/// Padding around the scene's content for automatic bounds, in world units.
pub const AUTO_BOUNDS_PADDING: f32 = 150.0;

/// Samples per curve when computing automatic bounds.
const CURVE_SAMPLES: usize = 64;

/// The palette colour of the agent at `agent_idx`.
pub fn palette_color(agent_idx: usize) -> Rgb {
    PALETTE.get(agent_idx % PALETTE.len()).copied().unwrap_or(Rgb(0xff, 0xff, 0xff))
}

/// Validates a scene and builds its world; on error, the JSON path of the offending value and
/// the reason.
pub fn scene_to_world(scene: &SceneFile) -> Result<World, (String, String)> {
    validate_scene(scene)?;
    let migrated = migrate(scene.clone());
    let scene = &migrated;

    // Curves are built on every core (an expression's range check can take milliseconds); the
    // error reported is the first in the file's order, whichever thread found it.
    let built: Vec<Result<Curve, CurveError>> =
        scene.curves.par_iter().map(|spec| Curve::new(curve_kind(spec))).collect();
    let mut curves = Vec::with_capacity(scene.curves.len());
    for (i, (spec, curve)) in scene.curves.iter().zip(built).enumerate() {
        let curve = curve.map_err(|err| curve_error(i, &err))?;
        curves.push(NamedCurve { id: spec.id().to_string(), curve });
    }
    let paths: Vec<NamedPath> = scene
        .paths
        .iter()
        .map(|spec| NamedPath {
            id: spec.id.clone(),
            polyline: Polyline::new(spec.points.iter().map(|p| p.0).collect(), spec.closed),
            radius: spec.radius,
        })
        .collect();
    let mut fields = Vec::with_capacity(scene.fields.len());
    for (i, spec) in scene.fields.iter().enumerate() {
        // Validation bounded the cell counts, so the sizes fit and the grid is small enough.
        let vectors = spec.vectors.iter().map(|[x, y]| Vec3::new(*x, *y, 0.0)).collect();
        let field = FlowField::from_vectors(
            spec.origin.0,
            spec.cell_size,
            usize::try_from(spec.columns).unwrap_or(usize::MAX),
            usize::try_from(spec.rows).unwrap_or(usize::MAX),
            vectors,
        )
        .map_err(|reason| (format!("fields[{i}]"), reason))?;
        fields.push(NamedField { id: spec.id.clone(), field: std::sync::Arc::new(field) });
    }
    let targets: Vec<Target> = scene
        .targets
        .iter()
        .map(|spec| Target {
            id: spec.id.clone(),
            position: spec.position.0,
            velocity: spec.velocity.0,
            start: (spec.position.0, spec.velocity.0),
        })
        .collect();
    let obstacles: Vec<Obstacle> = scene
        .obstacles
        .iter()
        .map(|spec| Obstacle {
            position: spec.position.0,
            radius: spec.radius,
            velocity: spec.velocity.0,
            start: (spec.position.0, spec.velocity.0),
        })
        .collect();

    let index = |ids: Vec<&str>| -> HashMap<String, usize> {
        ids.into_iter().enumerate().map(|(i, id)| (id.to_string(), i)).collect()
    };
    let path_idx = index(paths.iter().map(|p| p.id.as_str()).collect());
    let field_idx = index(fields.iter().map(|f| f.id.as_str()).collect());
    let curve_idx = index(curves.iter().map(|c| c.id.as_str()).collect());
    let target_idx = index(targets.iter().map(|t| t.id.as_str()).collect());
    let agent_names: Vec<String> =
        scene.agents.iter().enumerate().map(|(i, a)| a.name_or_default(i)).collect();
    let agent_idx = index(agent_names.iter().map(String::as_str).collect());
    let lookup = Lookup {
        paths: &path_idx,
        fields: &field_idx,
        curves: &curve_idx,
        targets: &target_idx,
        agents: &agent_idx,
    };

    let mut agents = Vec::with_capacity(scene.agents.len());
    for (i, spec) in scene.agents.iter().enumerate() {
        let mut entries = Vec::with_capacity(spec.behaviours.len());
        for (j, entry) in spec.behaviours.iter().enumerate() {
            let resolved = behaviour(&entry.behaviour, &lookup)
                .map_err(|(field, reason)| (format!("agents[{i}].behaviours[{j}].{field}"), reason))?;
            entries.push(Entry::new(resolved, Slot { weight: entry.weight, group: entry.group }));
        }
        let mut entries = entries.into_iter();
        let Some(main) = entries.next() else {
            return Err((format!("agents[{i}].behaviours"), "an agent needs at least one behaviour".into()));
        };
        let name = spec.name_or_default(i);
        let color = spec.color.as_deref().and_then(Rgb::from_hex).unwrap_or_else(|| palette_color(i));
        let start = Kinematics {
            position: spec.position.0,
            velocity: spec.velocity.0,
            orientation: spec.orientation,
        };
        let limits = Limits {
            radius: spec.radius,
            max_speed: spec.max_speed,
            max_acceleration: spec.max_acceleration,
        };
        let mut agent = Agent::new(name, color, start, limits, main.behaviour);
        agent.mix = MixBox::from(Mix {
            combine: match spec.combine.mode {
                CombineMode::Blend => Combine::Blend,
                CombineMode::Priority => Combine::Priority { threshold: spec.combine.threshold },
            },
            main: main.slot,
            more: entries.collect(),
            detour: Default::default(),
        });
        agents.push(agent);
    }

    let mut world = World::default();
    world.name = scene.name.clone();
    world.description = scene.description.clone();
    world.dt = scene.dt;
    world.paths = paths;
    world.fields = fields;
    world.curves = curves;
    world.targets = targets;
    world.obstacles = obstacles;
    world.agents = agents.into();
    world.bounds = match scene.bounds {
        Some(spec) => Some(Bounds { min: spec.min.0, max: spec.max.0 }),
        None => automatic_bounds(&world),
    };
    world.reset();
    Ok(world)
}

/// The scene a world started as; see the module documentation for dangling references.
pub fn world_to_scene(world: &World) -> SceneFile {
    SceneFile {
        version: FORMAT_VERSION,
        name: world.name.clone(),
        description: world.description.clone(),
        dt: world.dt,
        bounds: world.bounds.map(|b| BoundsSpec { min: SceneVec(b.min), max: SceneVec(b.max) }),
        avoidance: None,
        paths: world
            .paths
            .iter()
            .map(|p| PathSpec {
                id: p.id.clone(),
                points: p.polyline.points().iter().copied().map(SceneVec).collect(),
                closed: p.polyline.is_closed(),
                radius: p.radius,
            })
            .collect(),
        curves: world.curves.iter().map(|c| curve_spec(&c.id, c.curve.kind())).collect(),
        fields: world.fields.iter().map(field_spec).collect(),
        targets: world
            .targets
            .iter()
            .map(|t| TargetSpec {
                id: t.id.clone(),
                position: SceneVec(t.start.0),
                velocity: SceneVec(t.start.1),
            })
            .collect(),
        obstacles: world
            .obstacles
            .iter()
            .map(|o| ObstacleSpec {
                id: None,
                position: SceneVec(o.start.0),
                radius: o.radius,
                velocity: SceneVec(o.start.1),
            })
            .collect(),
        agents: world.agents.iter().map(|agent| agent_spec(world, agent)).collect(),
    }
}

/// The scene form of a painted field (its vectors omitted when every cell is zero).
fn field_spec(named: &NamedField) -> FieldSpec {
    let field = &named.field;
    let (columns, rows) = field.size();
    FieldSpec {
        id: named.id.clone(),
        origin: SceneVec(field.origin()),
        cell_size: field.cell_size(),
        columns: columns as u64,
        rows: rows as u64,
        vectors: if field.is_blank() {
            Vec::new()
        } else {
            field.vectors().iter().map(|v| [v.x, v.y]).collect()
        },
    }
}

struct Lookup<'a> {
    paths: &'a HashMap<String, usize>,
    fields: &'a HashMap<String, usize>,
    curves: &'a HashMap<String, usize>,
    targets: &'a HashMap<String, usize>,
    agents: &'a HashMap<String, usize>,
}

/// Resolves an id (validation has already checked it exists; this only guards against misuse).
fn resolve(
    map: &HashMap<String, usize>,
    field: &str,
    kind: &str,
    id: &str,
) -> Result<usize, (String, String)> {
    map.get(id).copied().ok_or_else(|| (field.to_string(), format!("no {kind} with id `{id}`")))
}

fn behaviour(spec: &BehaviourSpec, lookup: &Lookup) -> Result<Behaviour, (String, String)> {
    Ok(match spec {
        BehaviourSpec::Seek(s) => {
            Behaviour::Seek { target: resolve(lookup.targets, "target", "target", &s.target)? }
        }
        BehaviourSpec::Flee(s) => {
            Behaviour::Flee { target: resolve(lookup.targets, "target", "target", &s.target)? }
        }
        BehaviourSpec::Arrive(s) => Behaviour::Arrive {
            target: resolve(lookup.targets, "target", "target", &s.target)?,
            params: ArriveParams {
                target_radius: s.target_radius,
                slow_radius: s.slow_radius,
                time_to_target: s.time_to_target,
                braking_cap: s.braking_cap,
            },
        },
        BehaviourSpec::Parametric(s) => Behaviour::Parametric {
            curve: resolve(lookup.curves, "curve", "curve", &s.curve)?,
            params: ParametricParams { speed: s.speed, delta_t: s.delta_t, t0: s.t0, method: s.method },
        },
        BehaviourSpec::Waypoints(s) => Behaviour::Waypoints {
            path: resolve(lookup.paths, "path", "path", &s.path)?,
            params: WaypointsParams { node_radius: s.node_radius, closest_node: s.closest_node },
        },
        BehaviourSpec::Projected(s) => Behaviour::Projected {
            path: resolve(lookup.paths, "path", "path", &s.path)?,
            params: ProjectedParams { offset: s.offset },
        },
        BehaviourSpec::Predictive(s) => Behaviour::Predictive {
            path: resolve(lookup.paths, "path", "path", &s.path)?,
            params: PredictiveParams { prediction_time: s.prediction_time, path_radius: s.path_radius },
        },
        BehaviourSpec::AvoidObstacles(s) => {
            Behaviour::AvoidObstacles { params: AvoidParams { look_ahead: s.look_ahead, margin: s.margin } }
        }
        BehaviourSpec::Pursuit(s) => Behaviour::Pursuit {
            agent: resolve(lookup.agents, "agent", "agent", &s.agent)?,
            params: PursuitParams { max_prediction: s.max_prediction },
        },
        BehaviourSpec::Evade(s) => Behaviour::Evade {
            agent: resolve(lookup.agents, "agent", "agent", &s.agent)?,
            params: PursuitParams { max_prediction: s.max_prediction },
        },
        BehaviourSpec::Wander(s) => Behaviour::Wander {
            params: WanderParams { radius: s.radius, distance: s.distance, jitter: s.jitter, seed: s.seed },
        },
        BehaviourSpec::Flocking(s) => {
            let FlockingSpec { separation, alignment, cohesion, separation_radius, radius, view_angle } = *s;
            Behaviour::Flocking {
                params: FlockingParams {
                    separation,
                    alignment,
                    cohesion,
                    separation_radius,
                    radius,
                    view_angle,
                },
            }
        }
        BehaviourSpec::OffsetPursuit(s) => Behaviour::OffsetPursuit {
            agent: resolve(lookup.agents, "agent", "agent", &s.agent)?,
            params: OffsetPursuitParams {
                offset_x: s.offset_x,
                offset_y: s.offset_y,
                approach_time: s.approach_time,
                match_velocity: s.match_velocity,
            },
        },
        BehaviourSpec::Containment(s) => Behaviour::Containment {
            region: resolve(lookup.paths, "region", "path", &s.region)?,
            params: ContainmentParams { look_ahead: s.look_ahead, margin: s.margin },
        },
        BehaviourSpec::FlowField(s) => Behaviour::FlowField {
            path: match &s.path {
                Some(id) => Some(resolve(lookup.paths, "path", "path", id)?),
                None => None,
            },
            field: match &s.field {
                Some(id) => Some(resolve(lookup.fields, "field", "field", id)?),
                None => None,
            },
            params: FlowFieldParams { look_ahead: s.look_ahead, seed: s.seed, scale: s.scale, pull: s.pull },
        },
        BehaviourSpec::CollisionAvoidance(s) => Behaviour::CollisionAvoidance {
            params: CollisionAvoidanceParams { horizon: s.horizon, margin: s.margin },
        },
        BehaviourSpec::LeaderFollowing(s) => Behaviour::LeaderFollowing {
            agent: resolve(lookup.agents, "agent", "agent", &s.agent)?,
            params: LeaderFollowingParams {
                behind: s.behind,
                sight_distance: s.sight_distance,
                sight_radius: s.sight_radius,
                approach_time: s.approach_time,
                clear_path: s.clear_path,
            },
        },
        BehaviourSpec::Interpose(s) => {
            let [a, b] = &s.agents;
            Behaviour::Interpose {
                agent: resolve(lookup.agents, "agents[0]", "agent", a)?,
                other: resolve(lookup.agents, "agents[1]", "agent", b)?,
                params: InterposeParams { slow_radius: s.slow_radius },
            }
        }
        BehaviourSpec::Hide(s) => Behaviour::Hide {
            agent: resolve(lookup.agents, "agent", "agent", &s.agent)?,
            params: HideParams {
                distance_from_boundary: s.distance_from_boundary,
                slow_radius: s.slow_radius,
            },
        },
        BehaviourSpec::Face(s) => Behaviour::Face {
            agent: resolve(lookup.agents, "agent", "agent", &s.agent)?,
            params: FaceParams { max_rotation: s.max_rotation, slow_angle: s.slow_angle },
        },
        BehaviourSpec::LookWhereYouAreGoing(s) => Behaviour::LookWhereYouAreGoing {
            params: FaceParams { max_rotation: s.max_rotation, slow_angle: s.slow_angle },
        },
        BehaviourSpec::Planner(s) => Behaviour::Planner {
            params: Box::new(PlannerParams {
                waypoints: s.waypoints.iter().map(|w| w.0).collect(),
                clearance: s.clearance,
                iteration_limit: s.iteration_limit,
                replan_interval: s.replan_interval,
                arrival_radius: s.arrival_radius,
                smoothing: s.smoothing,
                incoming_fire: s.incoming_fire,
                fire_strength: s.fire_strength,
                fire_seed: s.fire_seed,
            }),
        },
    })
}

fn curve_kind(spec: &CurveSpec) -> CurveKind {
    match spec {
        CurveSpec::Circle(s) => CurveKind::Circle { center: s.center.0, radius: s.radius },
        CurveSpec::Ellipse(s) => {
            CurveKind::Ellipse { center: s.center.0, radius_x: s.radius_x, radius_y: s.radius_y }
        }
        CurveSpec::Lemniscate(s) => CurveKind::Lemniscate { center: s.center.0, size: s.size },
        CurveSpec::Lissajous(s) => CurveKind::Lissajous {
            center: s.center.0,
            amplitude: s.amplitude.0,
            freq_x: s.freq_x,
            freq_y: s.freq_y,
            phase: s.phase,
        },
        CurveSpec::Helix(s) => {
            CurveKind::Helix { center: s.center.0, radius: s.radius, pitch: s.pitch, turns: s.turns }
        }
        CurveSpec::Spline(s) => {
            CurveKind::Spline { points: s.points.iter().map(|p| p.0).collect(), closed: s.closed }
        }
        CurveSpec::Expr(s) => {
            CurveKind::Expr { x: s.x.clone(), y: s.y.clone(), z: s.z.clone(), t_min: s.t_min, t_max: s.t_max }
        }
    }
}

fn curve_error(curve_idx: usize, err: &CurveError) -> (String, String) {
    match err {
        CurveError::BadExpression { component, .. } => {
            (format!("curves[{curve_idx}].{component}"), err.to_string())
        }
        CurveError::TooFewPoints(_) => (format!("curves[{curve_idx}].points"), err.to_string()),
    }
}

/// A curve's scene form (the editor checks a curve it is given with the file's checks).
pub fn curve_spec(id: &str, kind: &CurveKind) -> CurveSpec {
    let id = id.to_string();
    match kind.clone() {
        CurveKind::Circle { center, radius } => {
            CurveSpec::Circle(CircleSpec { id, center: SceneVec(center), radius })
        }
        CurveKind::Ellipse { center, radius_x, radius_y } => {
            CurveSpec::Ellipse(EllipseSpec { id, center: SceneVec(center), radius_x, radius_y })
        }
        CurveKind::Lemniscate { center, size } => {
            CurveSpec::Lemniscate(LemniscateSpec { id, center: SceneVec(center), size })
        }
        CurveKind::Lissajous { center, amplitude, freq_x, freq_y, phase } => {
            CurveSpec::Lissajous(LissajousSpec {
                id,
                center: SceneVec(center),
                amplitude: SceneVec(amplitude),
                freq_x,
                freq_y,
                phase,
            })
        }
        CurveKind::Helix { center, radius, pitch, turns } => {
            CurveSpec::Helix(HelixSpec { id, center: SceneVec(center), radius, pitch, turns })
        }
        CurveKind::Spline { points, closed } => {
            CurveSpec::Spline(SplineSpec { id, points: points.into_iter().map(SceneVec).collect(), closed })
        }
        CurveKind::Expr { x, y, z, t_min, t_max } => CurveSpec::Expr(ExprSpec { id, x, y, z, t_min, t_max }),
    }
}

/// The id at `idx` in a list, or a placeholder naming the dangling index.
fn id_or_missing<'a>(mut ids: impl Iterator<Item = &'a str>, idx: usize, kind: &str) -> String {
    ids.nth(idx).map_or_else(|| format!("(missing {kind} {idx})"), str::to_string)
}

fn agent_spec(world: &World, agent: &Agent) -> AgentSpec {
    let main = EntrySpec {
        behaviour: behaviour_spec(world, &agent.behaviour),
        weight: agent.mix.main.weight,
        group: agent.mix.main.group,
    };
    let more = agent.mix.more.iter().map(|entry| EntrySpec {
        behaviour: behaviour_spec(world, &entry.behaviour),
        weight: entry.slot.weight,
        group: entry.slot.group,
    });
    let combine = match agent.mix.combine {
        Combine::Blend => CombineSpec::default(),
        Combine::Priority { threshold } => CombineSpec { mode: CombineMode::Priority, threshold },
    };
    AgentSpec {
        name: Some(agent.about.name.clone()),
        color: Some(agent.about.color.to_hex()),
        position: SceneVec(agent.about.start.position),
        velocity: SceneVec(agent.about.start.velocity),
        orientation: agent.about.start.orientation,
        radius: agent.limits.radius,
        max_speed: agent.limits.max_speed,
        max_acceleration: agent.limits.max_acceleration,
        avoid_obstacles: None,
        behaviour: None,
        combine,
        behaviours: std::iter::once(main).chain(more).collect(),
    }
}

/// Version 1 → version 2 (a version-2 scene comes back unchanged). Each agent's `behaviour`
/// becomes the first entry of its list; `avoid_obstacles: true` adds an `avoid_obstacles`
/// entry with the scene's `avoidance` settings in group 0, the behaviour moves to group 1, and
/// the list is combined by priority — the same arbitration version 1 applied.
pub fn migrate(mut scene: SceneFile) -> SceneFile {
    if scene.version != 1 {
        return scene;
    }
    let avoidance = scene.avoidance.take().unwrap_or(AvoidanceSpec {
        look_ahead: AvoidParams::LOOK_AHEAD.default,
        margin: AvoidParams::MARGIN.default,
    });
    for agent in &mut scene.agents {
        let avoids = agent.avoid_obstacles.take().unwrap_or(false);
        let Some(behaviour) = agent.behaviour.take() else { continue };
        if avoids {
            agent.combine =
                CombineSpec { mode: CombineMode::Priority, threshold: Combine::DEFAULT_THRESHOLD };
            agent.behaviours = vec![
                EntrySpec { behaviour, weight: 1.0, group: 1 },
                EntrySpec { behaviour: BehaviourSpec::AvoidObstacles(avoidance), weight: 1.0, group: 0 },
            ];
        } else {
            agent.behaviours = vec![EntrySpec::plain(behaviour)];
        }
    }
    scene.version = FORMAT_VERSION;
    scene
}

fn behaviour_spec(world: &World, behaviour: &Behaviour) -> BehaviourSpec {
    let target_id = |idx: usize| id_or_missing(world.targets.iter().map(|t| t.id.as_str()), idx, "target");
    let path_id = |idx: usize| id_or_missing(world.paths.iter().map(|p| p.id.as_str()), idx, "path");
    let curve_id = |idx: usize| id_or_missing(world.curves.iter().map(|c| c.id.as_str()), idx, "curve");
    let agent_name =
        |idx: usize| id_or_missing(world.agents.iter().map(|a| a.about.name.as_str()), idx, "agent");
    match behaviour {
        Behaviour::Seek { target } => BehaviourSpec::Seek(KinematicSpec { target: target_id(*target) }),
        Behaviour::Flee { target } => BehaviourSpec::Flee(KinematicSpec { target: target_id(*target) }),
        Behaviour::Arrive { target, params } => BehaviourSpec::Arrive(ArriveSpec {
            target: target_id(*target),
            target_radius: params.target_radius,
            slow_radius: params.slow_radius,
            time_to_target: params.time_to_target,
            braking_cap: params.braking_cap,
        }),
        Behaviour::Parametric { curve, params } => BehaviourSpec::Parametric(ParametricSpec {
            curve: curve_id(*curve),
            speed: params.speed,
            delta_t: params.delta_t,
            t0: params.t0,
            method: params.method,
        }),
        Behaviour::Waypoints { path, params } => BehaviourSpec::Waypoints(WaypointsSpec {
            path: path_id(*path),
            node_radius: params.node_radius,
            closest_node: params.closest_node,
        }),
        Behaviour::Projected { path, params } => {
            BehaviourSpec::Projected(ProjectedSpec { path: path_id(*path), offset: params.offset })
        }
        Behaviour::Predictive { path, params } => BehaviourSpec::Predictive(PredictiveSpec {
            path: path_id(*path),
            prediction_time: params.prediction_time,
            path_radius: params.path_radius,
        }),
        Behaviour::Planner { params } => BehaviourSpec::Planner(PlannerSpec {
            waypoints: params.waypoints.iter().copied().map(SceneVec).collect(),
            clearance: params.clearance,
            iteration_limit: params.iteration_limit,
            replan_interval: params.replan_interval,
            arrival_radius: params.arrival_radius,
            smoothing: params.smoothing,
            incoming_fire: params.incoming_fire,
            fire_strength: params.fire_strength,
            fire_seed: params.fire_seed,
        }),
        Behaviour::AvoidObstacles { params } => BehaviourSpec::AvoidObstacles(AvoidanceSpec {
            look_ahead: params.look_ahead,
            margin: params.margin,
        }),
        Behaviour::Pursuit { agent, params } => BehaviourSpec::Pursuit(PursuitSpec {
            agent: agent_name(*agent),
            max_prediction: params.max_prediction,
        }),
        Behaviour::Evade { agent, params } => BehaviourSpec::Evade(PursuitSpec {
            agent: agent_name(*agent),
            max_prediction: params.max_prediction,
        }),
        Behaviour::Wander { params } => {
            let WanderParams { radius, distance, jitter, seed } = *params;
            BehaviourSpec::Wander(WanderSpec { radius, distance, jitter, seed })
        }
        Behaviour::Flocking { params } => {
            let FlockingParams { separation, alignment, cohesion, separation_radius, radius, view_angle } =
                *params;
            BehaviourSpec::Flocking(FlockingSpec {
                separation,
                alignment,
                cohesion,
                separation_radius,
                radius,
                view_angle,
            })
        }
        Behaviour::OffsetPursuit { agent, params } => {
            let OffsetPursuitParams { offset_x, offset_y, approach_time, match_velocity } = *params;
            BehaviourSpec::OffsetPursuit(OffsetPursuitSpec {
                agent: agent_name(*agent),
                offset_x,
                offset_y,
                approach_time,
                match_velocity,
            })
        }
        Behaviour::Containment { region, params } => {
            let ContainmentParams { look_ahead, margin } = *params;
            BehaviourSpec::Containment(ContainmentSpec { region: path_id(*region), look_ahead, margin })
        }
        Behaviour::FlowField { path, field, params } => {
            let FlowFieldParams { look_ahead, seed, scale, pull } = *params;
            let field_id =
                |idx: usize| id_or_missing(world.fields.iter().map(|f| f.id.as_str()), idx, "field");
            BehaviourSpec::FlowField(FlowFieldSpec {
                path: if field.is_some() { None } else { path.map(path_id) },
                field: field.map(field_id),
                look_ahead,
                seed,
                scale,
                pull,
            })
        }
        Behaviour::CollisionAvoidance { params } => {
            let CollisionAvoidanceParams { horizon, margin } = *params;
            BehaviourSpec::CollisionAvoidance(CollisionAvoidanceSpec { horizon, margin })
        }
        Behaviour::LeaderFollowing { agent, params } => {
            let LeaderFollowingParams { behind, sight_distance, sight_radius, approach_time, clear_path } =
                *params;
            BehaviourSpec::LeaderFollowing(LeaderFollowingSpec {
                agent: agent_name(*agent),
                behind,
                sight_distance,
                sight_radius,
                approach_time,
                clear_path,
            })
        }
        Behaviour::Interpose { agent, other, params } => {
            let InterposeParams { slow_radius } = *params;
            BehaviourSpec::Interpose(InterposeSpec {
                agents: [agent_name(*agent), agent_name(*other)],
                slow_radius,
            })
        }
        Behaviour::Hide { agent, params } => {
            let HideParams { distance_from_boundary, slow_radius } = *params;
            BehaviourSpec::Hide(HideSpec { agent: agent_name(*agent), distance_from_boundary, slow_radius })
        }
        Behaviour::Face { agent, params } => {
            let FaceParams { max_rotation, slow_angle } = *params;
            BehaviourSpec::Face(FaceSpec { agent: agent_name(*agent), max_rotation, slow_angle })
        }
        Behaviour::LookWhereYouAreGoing { params } => {
            let FaceParams { max_rotation, slow_angle } = *params;
            BehaviourSpec::LookWhereYouAreGoing(LookSpec { max_rotation, slow_angle })
        }
    }
}

/// The box moving targets and obstacles bounce in when a scene names none: the box around its
/// content if anything moves, else none. The loader applies it to a file without `bounds`, and
/// the editor to a scene whose edit sets something moving, so a scene behaves the same before
/// and after it is saved and opened again.
pub fn automatic_bounds(world: &World) -> Option<Bounds> {
    if anything_moves(world) {
        content_bounds(world)
    } else {
        None
    }
}

fn anything_moves(world: &World) -> bool {
    world.targets.iter().any(|t| t.start.1 != Vec3::ZERO)
        || world.obstacles.iter().any(|o| o.start.1 != Vec3::ZERO)
}

/// The box around everything in the world (paths, sampled curves, targets, obstacles with their
/// radii, agents, planner waypoints), padded by [`AUTO_BOUNDS_PADDING`] within
/// ±[`super::MAX_COORDINATE`]; None for an empty world.
fn content_bounds(world: &World) -> Option<Bounds> {
    let mut points: Vec<Vec3> = Vec::new();
    for path in &world.paths {
        points.extend_from_slice(path.polyline.points());
    }
    for named in &world.curves {
        let (t_min, t_max) = named.curve.t_range();
        for i in 0..=CURVE_SAMPLES {
            let t = t_min + (t_max - t_min) * (i as f32 / CURVE_SAMPLES as f32);
            points.push(named.curve.point(t));
        }
    }
    points.extend(world.targets.iter().map(|t| t.start.0));
    for obstacle in &world.obstacles {
        points.push(obstacle.start.0 - Vec3::splat(obstacle.radius));
        points.push(obstacle.start.0 + Vec3::splat(obstacle.radius));
    }
    for agent in &world.agents {
        points.push(agent.about.start.position);
        if let Behaviour::Planner { params } = &agent.behaviour {
            points.extend_from_slice(&params.waypoints);
        }
    }
    let finite = points.into_iter().filter(|p| p.is_finite());
    let (min, max) = finite.fold(None, |acc: Option<(Vec3, Vec3)>, p| match acc {
        None => Some((p, p)),
        Some((min, max)) => Some((min.min(p), max.max(p))),
    })?;
    let pad = Vec3::splat(AUTO_BOUNDS_PADDING);
    // Padded, but never past the coordinates a scene may hold: content at the limit padded
    // beyond it made a scene its own loader refused (found by the editing monkey: a target set
    // to y = 1,000,000 and given a velocity).
    let limit = Vec3::splat(super::MAX_COORDINATE);
    Some(Bounds { min: (min - pad).max(-limit), max: (max + pad).min(limit) })
}
