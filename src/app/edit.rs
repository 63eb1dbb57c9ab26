//! Edits of agents and their behaviours that keep the world consistent: the behaviours a user
//! can pick, sensible defaults for new agents, replacing a behaviour, names and ids, and
//! Compare's clones. Edits of other things live beside it, by what they edit: `edit/paths.rs`
//! (paths and curves), `edit/delete.rs` (deleting anything, re-indexing what agents refer to) and
//! `edit/selection.rs` (where things are: picking under the mouse, moving, bounds). The caller
//! (`App::apply`) takes the undo snapshot first.

mod copies;
mod delete;
mod fields;
mod paths;
mod selection;

pub use copies::{append_copies, copies_of, Copies, COPIES, SPACING, SPREAD_HEADINGS};
pub use delete::{delete, Deleted};
pub use fields::{add_field_covering, delete_field, paint, paint_target, NEW_FIELD_MAX_SIDE};
pub use paths::{append_path_points, insert_path_point, restart_followers, set_curve, set_path_closed};
pub use selection::{
    curve_handle, move_selection, pick, pick_segment, scene_bounds, selection_exists, selection_position,
    translate_curve,
};

use glam::Vec3;

use super::Selection;
use crate::behaviours::{
    AvoidParams, CollisionAvoidanceParams, FaceParams, FlockingParams, HideParams, InterposeParams,
    LeaderFollowingParams, OffsetPursuitParams, ParametricMethod, PursuitParams, WanderParams,
};
use crate::behaviours::{ContainmentParams, FlowFieldParams};
use crate::geometry::Curve;
use crate::planner::MAX_WAYPOINTS;
use crate::sim::MAX_BEHAVIOURS;
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
    /// Obstacle avoidance (an entry of an agent's list; not offered for placing agents).
    AvoidObstacles,
    /// Pursuit of another agent.
    Pursuit,
    /// Evasion of another agent.
    Evade,
    /// Wander from the agent's own seed.
    Wander,
    /// Flocking: separation, alignment, cohesion.
    Flocking,
    /// Collision avoidance between agents (an entry of an agent's list).
    CollisionAvoidance,
    /// Offset pursuit: a formation slot in another agent's frame.
    OffsetPursuit,
    /// Containment in a region drawn as a path (an entry of an agent's list).
    Containment,
    /// Flow-field following in a seeded noise field.
    FlowNoise,
    /// Flow-field following in a field along a path.
    FlowAlongPath,
    /// Flow-field following in a painted field (the scene's `fields`, the Paint tool).
    FlowPainted,
    /// Leader following: trail another agent, out of its way.
    LeaderFollowing,
    /// Interpose: between two other agents.
    Interpose,
    /// Hide: behind an obstacle from another agent.
    Hide,
    /// Face another agent (turns the heading only; an entry of an agent's list).
    Face,
    /// Look where you are going (turns the heading only; an entry of an agent's list).
    LookWhereYouAreGoing,
}

impl BehaviourKind {
    /// Every kind, in menu order.
    pub const ALL: [BehaviourKind; 19] = [
        BehaviourKind::Seek,
        BehaviourKind::Flee,
        BehaviourKind::Arrive,
        BehaviourKind::Parametric,
        BehaviourKind::Waypoints,
        BehaviourKind::Projected,
        BehaviourKind::Predictive,
        BehaviourKind::Planner,
        BehaviourKind::Pursuit,
        BehaviourKind::Evade,
        BehaviourKind::Wander,
        BehaviourKind::Flocking,
        BehaviourKind::OffsetPursuit,
        BehaviourKind::FlowNoise,
        BehaviourKind::FlowAlongPath,
        BehaviourKind::FlowPainted,
        BehaviourKind::LeaderFollowing,
        BehaviourKind::Interpose,
        BehaviourKind::Hide,
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
            BehaviourKind::AvoidObstacles => "avoid_obstacles",
            BehaviourKind::Pursuit => "pursuit",
            BehaviourKind::Evade => "evade",
            BehaviourKind::Wander => "wander",
            BehaviourKind::Flocking => "flocking",
            BehaviourKind::CollisionAvoidance => "collision_avoidance",
            BehaviourKind::OffsetPursuit => "offset_pursuit",
            BehaviourKind::Containment => "containment",
            BehaviourKind::FlowNoise => "flow_field (noise)",
            BehaviourKind::FlowAlongPath => "flow_field (along path)",
            BehaviourKind::FlowPainted => "flow_field (painted)",
            BehaviourKind::LeaderFollowing => "leader_following",
            BehaviourKind::Interpose => "interpose",
            BehaviourKind::Hide => "hide",
            BehaviourKind::Face => "face",
            BehaviourKind::LookWhereYouAreGoing => "look_where_you_are_going",
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
            Behaviour::AvoidObstacles { .. } => BehaviourKind::AvoidObstacles,
            Behaviour::Pursuit { .. } => BehaviourKind::Pursuit,
            Behaviour::Evade { .. } => BehaviourKind::Evade,
            Behaviour::Wander { .. } => BehaviourKind::Wander,
            Behaviour::Flocking { .. } => BehaviourKind::Flocking,
            Behaviour::CollisionAvoidance { .. } => BehaviourKind::CollisionAvoidance,
            Behaviour::OffsetPursuit { .. } => BehaviourKind::OffsetPursuit,
            Behaviour::Containment { .. } => BehaviourKind::Containment,
            Behaviour::FlowField { field: Some(_), .. } => BehaviourKind::FlowPainted,
            Behaviour::FlowField { path: None, .. } => BehaviourKind::FlowNoise,
            Behaviour::FlowField { path: Some(_), .. } => BehaviourKind::FlowAlongPath,
            Behaviour::LeaderFollowing { .. } => BehaviourKind::LeaderFollowing,
            Behaviour::Interpose { .. } => BehaviourKind::Interpose,
            Behaviour::Hide { .. } => BehaviourKind::Hide,
            Behaviour::Face { .. } => BehaviourKind::Face,
            Behaviour::LookWhereYouAreGoing { .. } => BehaviourKind::LookWhereYouAreGoing,
        }
    }
}

/// Why an agent's list cannot hold more behaviours (the status bar's words for the scene
/// format's limit, [`MAX_BEHAVIOURS`]).
pub fn too_many_behaviours_reason() -> String {
    format!("an agent's list holds at most {MAX_BEHAVIOURS} behaviours")
}

/// Why a planner ship cannot hold more waypoints ([`MAX_WAYPOINTS`]).
pub fn too_many_waypoints_reason() -> String {
    format!("a planner ship holds at most {MAX_WAYPOINTS} waypoints")
}

/// Why an edit would give an agent more than the scene format holds: a list of `entries`
/// behaviours (0: the count is not changed by the edit) past [`MAX_BEHAVIOURS`], or a planner
/// among `behaviours` with more than [`MAX_WAYPOINTS`] waypoints. The window refuses such an edit
/// with this line, so that what it makes always saves and loads again.
pub fn past_a_limit<'a>(
    behaviours: impl IntoIterator<Item = &'a Behaviour>,
    entries: usize,
) -> Option<String> {
    if entries > MAX_BEHAVIOURS {
        return Some(format!("not changed: {}", too_many_behaviours_reason()));
    }
    behaviours
        .into_iter()
        .any(|b| matches!(b, Behaviour::Planner { params } if params.waypoints.len() > MAX_WAYPOINTS))
        .then(|| format!("not changed: {}", too_many_waypoints_reason()))
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
        Behaviour::AvoidObstacles { params } => finite(params.look_ahead) && finite(params.margin),
        Behaviour::Pursuit { agent, params } | Behaviour::Evade { agent, params } => {
            *agent < world.agents.len() && finite(params.max_prediction)
        }
        Behaviour::Wander { params } => {
            finite(params.radius) && finite(params.distance) && finite(params.jitter)
        }
        Behaviour::Flocking { params } => {
            let FlockingParams { separation, alignment, cohesion, separation_radius, radius, view_angle } =
                *params;
            [separation, alignment, cohesion, separation_radius, radius, view_angle].into_iter().all(finite)
        }
        Behaviour::CollisionAvoidance { params } => finite(params.horizon) && finite(params.margin),
        Behaviour::OffsetPursuit { agent, params } => {
            *agent < world.agents.len()
                && finite(params.offset_x)
                && finite(params.offset_y)
                && finite_positive(params.approach_time)
        }
        Behaviour::Containment { region, params } => {
            *region < world.paths.len() && finite(params.look_ahead) && finite(params.margin)
        }
        Behaviour::FlowField { path, field, params } => {
            path.is_none_or(|p| p < world.paths.len())
                && field.is_none_or(|f| f < world.fields.len())
                && finite(params.look_ahead)
                && finite_positive(params.scale)
                && finite_positive(params.pull)
        }
        Behaviour::LeaderFollowing { agent, params } => {
            let LeaderFollowingParams { behind, sight_distance, sight_radius, approach_time, clear_path: _ } =
                *params;
            *agent < world.agents.len()
                && [behind, sight_distance, sight_radius].into_iter().all(finite)
                && finite_positive(approach_time)
        }
        Behaviour::Interpose { agent, other, params } => {
            *agent < world.agents.len()
                && *other < world.agents.len()
                && agent != other
                && finite(params.slow_radius)
        }
        Behaviour::Hide { agent, params } => {
            *agent < world.agents.len() && finite(params.distance_from_boundary) && finite(params.slow_radius)
        }
        Behaviour::Face { agent, params } => {
            *agent < world.agents.len() && finite(params.max_rotation) && finite_positive(params.slow_angle)
        }
        Behaviour::LookWhereYouAreGoing { params } => {
            finite(params.max_rotation) && finite_positive(params.slow_angle)
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
    let same_reference = agent.behaviour.path() == behaviour.path()
        && agent.behaviour.curve() == behaviour.curve()
        && agent.behaviour.other_agent() == behaviour.other_agent()
        && agent.behaviour.second_agent() == behaviour.second_agent()
        && wander_seed(&agent.behaviour) == wander_seed(&behaviour);
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

/// A wanderer's seed (a new seed starts its walk afresh).
fn wander_seed(behaviour: &Behaviour) -> Option<u32> {
    match behaviour {
        Behaviour::Wander { params } => Some(params.seed),
        _ => None,
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

/// The painted field a flow-field behaviour reads, if it reads one.
pub fn painted_field_of(behaviour: &Behaviour) -> Option<usize> {
    match behaviour {
        Behaviour::FlowField { field, .. } => *field,
        _ => None,
    }
}

/// A behaviour of `kind` attached to what is selected (a path, curve or target), or else to the
/// first one in the world; an error says what to add first. `owner` is the agent that will hold
/// it (None: a new agent, not in the world yet): a behaviour that refers to other agents never
/// refers to its owner — it takes the selected agent if that is another one, else the agent
/// nearest `position` other than the owner.
pub fn default_behaviour(
    world: &World,
    kind: BehaviourKind,
    selection: Option<Selection>,
    owner: Option<usize>,
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
    // The agents to react to, best first: the selected one (if not the owner), then the others
    // nearest first; never the owner.
    let others = other_agents_by_preference(world, selection, owner, position);
    let other_agent = others.first().copied();
    let path = selected_path.or((!world.paths.is_empty()).then_some(0));
    let target = selected_target.or((!world.targets.is_empty()).then_some(0));
    let curve = selected_curve.or((!world.curves.is_empty()).then_some(0));
    let need = |what: &str| format!("add a {what} first (or select one): a {} agent needs it", kind.label());
    let need_agent = || match owner {
        Some(_) => format!("add another agent first: {} needs an agent other than this one", kind.label()),
        None => need("agent"),
    };
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
            Behaviour::Planner {
                params: Box::new(PlannerParams { waypoints: vec![far], ..PlannerParams::default() }),
            }
        }
        BehaviourKind::AvoidObstacles => Behaviour::AvoidObstacles { params: AvoidParams::default() },
        BehaviourKind::Pursuit => Behaviour::Pursuit {
            agent: other_agent.ok_or_else(need_agent)?,
            params: PursuitParams::default(),
        },
        BehaviourKind::Evade => {
            Behaviour::Evade { agent: other_agent.ok_or_else(need_agent)?, params: PursuitParams::default() }
        }
        // A different seed for each new wanderer, so that two placed agents fan out.
        BehaviourKind::Wander => Behaviour::Wander {
            params: WanderParams {
                seed: u32::try_from(world.agents.len()).unwrap_or(0) % (1 << 24) + 1,
                ..WanderParams::default()
            },
        },
        BehaviourKind::Flocking => Behaviour::Flocking { params: FlockingParams::default() },
        BehaviourKind::OffsetPursuit => Behaviour::OffsetPursuit {
            agent: other_agent.ok_or_else(need_agent)?,
            params: OffsetPursuitParams::default(),
        },
        BehaviourKind::CollisionAvoidance => {
            Behaviour::CollisionAvoidance { params: CollisionAvoidanceParams::default() }
        }
        BehaviourKind::Containment => Behaviour::Containment {
            region: region_for(world, selection, position).ok_or_else(|| {
                "draw a region first: a path of at least 3 points (Path tool, then tick \"closed\")"
                    .to_string()
            })?,
            params: ContainmentParams::default(),
        },
        BehaviourKind::FlowNoise => {
            Behaviour::FlowField { path: None, field: None, params: FlowFieldParams::default() }
        }
        BehaviourKind::FlowAlongPath => Behaviour::FlowField {
            path: Some(path.ok_or_else(|| need("path"))?),
            field: None,
            params: FlowFieldParams::default(),
        },
        // The field the selected agent reads, else the scene's first painted field.
        BehaviourKind::FlowPainted => Behaviour::FlowField {
            path: None,
            field: Some(
                selection
                    .and_then(|s| match s {
                        Selection::Agent(i) => {
                            world.agents.get(i).and_then(|a| painted_field_of(&a.behaviour))
                        }
                        _ => None,
                    })
                    .or((!world.fields.is_empty()).then_some(0))
                    .ok_or_else(|| {
                        "paint a field first (Paint tool: drag across the world), then pick it".to_string()
                    })?,
            ),
            params: FlowFieldParams::default(),
        },
        BehaviourKind::LeaderFollowing => Behaviour::LeaderFollowing {
            agent: other_agent.ok_or_else(need_agent)?,
            params: LeaderFollowingParams::default(),
        },
        BehaviourKind::Interpose => match others.as_slice() {
            [agent, other, ..] => {
                Behaviour::Interpose { agent: *agent, other: *other, params: InterposeParams::default() }
            }
            _ => {
                return Err(format!(
                    "interpose needs two other agents to get between: add {}",
                    match others.len() {
                        0 => "two agents first",
                        _ => "one more agent first",
                    }
                ))
            }
        },
        BehaviourKind::Hide => {
            Behaviour::Hide { agent: other_agent.ok_or_else(need_agent)?, params: HideParams::default() }
        }
        BehaviourKind::Face => {
            Behaviour::Face { agent: other_agent.ok_or_else(need_agent)?, params: FaceParams::default() }
        }
        BehaviourKind::LookWhereYouAreGoing => {
            Behaviour::LookWhereYouAreGoing { params: FaceParams::default() }
        }
    })
}

/// The region a new containment entry keeps an agent in: the selected path when it has at least
/// three points, else the smallest closed path around `position`, else the last closed path,
/// else the last path of at least three points.
fn region_for(world: &World, selection: Option<Selection>, position: Vec3) -> Option<usize> {
    use crate::behaviours::containment::query_point_polygon;
    let usable = |idx: &usize| world.paths.get(*idx).is_some_and(|p| p.polyline.points().len() >= 3);
    if let Some(selected) = selection.and_then(Selection::path).filter(usable) {
        return Some(selected);
    }
    let closed = |idx: &usize| usable(idx) && world.paths.get(*idx).is_some_and(|p| p.polyline.is_closed());
    let area = |idx: usize| {
        let points = world.paths.get(idx).map(|p| p.polyline.points()).unwrap_or_default();
        let mut twice = 0.0f32;
        let mut previous = points.last().copied().unwrap_or_default();
        for &v in points {
            twice += previous.x * v.y - v.x * previous.y;
            previous = v;
        }
        (twice * 0.5).abs()
    };
    let around = (0..world.paths.len())
        .filter(closed)
        .filter(|&idx| {
            world
                .paths
                .get(idx)
                .and_then(|p| query_point_polygon(position, p.polyline.points()))
                .is_some_and(|q| q.inside)
        })
        .min_by(|&a, &b| area(a).total_cmp(&area(b)));
    around
        .or_else(|| (0..world.paths.len()).rev().find(closed))
        .or_else(|| (0..world.paths.len()).rev().find(usable))
}

/// Every agent but `owner`, the selected one first (when it is not the owner), then by distance
/// from `position` (ties by index).
fn other_agents_by_preference(
    world: &World,
    selection: Option<Selection>,
    owner: Option<usize>,
    position: Vec3,
) -> Vec<usize> {
    let selected = match selection {
        Some(Selection::Agent(i)) if i < world.agents.len() && Some(i) != owner => Some(i),
        _ => None,
    };
    let mut rest: Vec<(f32, usize)> = world
        .agents
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != owner && Some(*i) != selected)
        .map(|(i, agent)| (agent.kinematics.position.distance_squared(position), i))
        .collect();
    rest.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    selected.into_iter().chain(rest.into_iter().map(|(_, i)| i)).collect()
}

/// "seeker 2" → "seeker": the name a copy's number follows (a copy of a copy is "seeker 3",
/// not "seeker 2 2"; a paste and the Copies row number from it alike).
pub(crate) fn base_name(name: &str) -> &str {
    match name.rsplit_once(' ') {
        Some((base, n)) if !base.is_empty() && n.parse::<u32>().is_ok_and(|n| n >= 2) => base,
        _ => name,
    }
}

/// Wander seeds no wanderer uses yet, handed out one at a time (a paste's and the Copies row's
/// wanderers each walk their own walk): a seed in use becomes the next free one above it
/// (modulo 2^24, the seeds' range). Each seed's search starts where the last one's for the same
/// seed ended (everything between was taken), so a thousand copies of one wanderer cost a
/// thousand probes, not half a million; the seeds are the ones a search from the seed itself
/// would find.
pub(crate) struct FreshSeeds {
    taken: std::collections::HashSet<u32>,
    next: std::collections::HashMap<u32, u32>,
}

impl FreshSeeds {
    /// With the seeds in `taken` in use.
    pub(crate) fn new(taken: impl IntoIterator<Item = u32>) -> FreshSeeds {
        FreshSeeds { taken: taken.into_iter().collect(), next: std::collections::HashMap::new() }
    }

    /// `seed` if free, else the next free seed above it; taken from now on.
    pub(crate) fn fresh(&mut self, seed: u32) -> u32 {
        let mut candidate = self.next.get(&seed).copied().unwrap_or(seed);
        while self.taken.contains(&candidate) {
            candidate = (candidate + 1) % (1 << 24);
        }
        self.taken.insert(candidate);
        self.next.insert(seed, (candidate + 1) % (1 << 24));
        candidate
    }
}

/// `base`, or `base 2`, `base 3`… whichever no agent has.
pub fn unique_agent_name(world: &World, base: &str) -> String {
    let taken = |name: &str| world.agents.iter().any(|a| a.about.name == name);
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

/// Clones agent `agent_idx` once per comparable behaviour: path followers get one of each
/// path-following behaviour on the same path; parametric followers one per method; seek, flee
/// and arrive agents one of each of those on the same target; a pursuer or an evader one that
/// predicts nothing (plain seek or flee of the same agent); a boid one per flocking rule with
/// that rule's weight at 0; a formation member one that holds the same slot without matching
/// the slot's velocity; a leader follower one that never clears the leader's path; a hider one
/// that only flees the hunter (an evader that predicts nothing, judged by the same hiding
/// metrics). The rest of the list comes along unchanged. Returns how many were added.
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
        // One rule off at a time: what each rule does to the crowd columns (without separation
        // it touches its neighbours, without alignment it heads its own way, without cohesion
        // it drifts off to the flock's edge).
        Behaviour::Flocking { params } => vec![
            (
                "no separation".into(),
                Behaviour::Flocking { params: FlockingParams { separation: 0.0, ..*params } },
            ),
            (
                "no alignment".into(),
                Behaviour::Flocking { params: FlockingParams { alignment: 0.0, ..*params } },
            ),
            (
                "no cohesion".into(),
                Behaviour::Flocking { params: FlockingParams { cohesion: 0.0, ..*params } },
            ),
        ],
        // The same slot approached without moving with it (or with, when the original does
        // not): the slot error columns show the lag of a plain approach.
        Behaviour::OffsetPursuit { agent, params } => {
            let match_velocity = !params.match_velocity;
            let label = if match_velocity { "velocity matching" } else { "no velocity matching" };
            vec![(
                label.into(),
                Behaviour::OffsetPursuit {
                    agent: *agent,
                    params: OffsetPursuitParams { match_velocity, ..*params },
                },
            )]
        }
        // The same follow point held without stepping out of the leader's path (or with).
        Behaviour::LeaderFollowing { agent, params } => {
            let clear_path = !params.clear_path;
            let label = if clear_path { "clearing" } else { "no clearing" };
            vec![(
                label.into(),
                Behaviour::LeaderFollowing {
                    agent: *agent,
                    params: LeaderFollowingParams { clear_path, ..*params },
                },
            )]
        }
        // Hiding against plain flight from the same hunter (an evader that predicts nothing);
        // both get the hiding metrics (`seen (s)`, hunter distance).
        Behaviour::Hide { agent, .. } => vec![(
            "flee".into(),
            Behaviour::Evade { agent: *agent, params: PursuitParams { max_prediction: 0.0 } },
        )],
        Behaviour::AvoidObstacles { .. }
        | Behaviour::Wander { .. }
        | Behaviour::CollisionAvoidance { .. }
        | Behaviour::Containment { .. }
        | Behaviour::FlowField { .. }
        | Behaviour::Interpose { .. }
        | Behaviour::Face { .. }
        | Behaviour::LookWhereYouAreGoing { .. } => Vec::new(),
        // Pursuit and evasion against their own prediction capped at 0 s: plain seek and flee
        // of the other agent (what `pursuit-evasion.json` compares).
        Behaviour::Pursuit { agent, params } => vec![
            ("predicting".into(), Behaviour::Pursuit { agent: *agent, params: *params }),
            (
                "no prediction".into(),
                Behaviour::Pursuit { agent: *agent, params: PursuitParams { max_prediction: 0.0 } },
            ),
        ],
        Behaviour::Evade { agent, params } => vec![
            ("predicting".into(), Behaviour::Evade { agent: *agent, params: *params }),
            (
                "no prediction".into(),
                Behaviour::Evade { agent: *agent, params: PursuitParams { max_prediction: 0.0 } },
            ),
        ],
        Behaviour::Planner { params } => vec![(
            "smoothed".into(),
            Behaviour::Planner {
                params: Box::new(PlannerParams { smoothing: !params.smoothing, ..(**params).clone() }),
            },
        )],
    };
    // Boids read each other: clones on the boid's own start would sit inside its body, so they
    // start round it instead, a body width and a unit apart, a third of a turn from each other.
    let beside = matches!(original.behaviour, Behaviour::Flocking { .. });
    let mut added = 0;
    for (label, behaviour) in variants {
        if behaviour == original.behaviour {
            continue;
        }
        let name = unique_agent_name(world, &format!("{} {label}", original.about.name));
        let colour = super::free_colour(world);
        let mut start = original.about.start;
        if beside {
            let angle = std::f32::consts::FRAC_PI_2 + added as f32 * std::f32::consts::TAU / 3.0;
            let gap = 2.0 * original.limits.radius + 1.0;
            start.position += Vec3::new(angle.cos(), angle.sin(), 0.0) * gap;
        }
        let mut agent = Agent::new(name, colour, start, original.limits, behaviour);
        agent.mix = original.mix.clone();
        world.agents.push(agent);
        let idx = world.agents.len() - 1;
        world.reset_agent(idx);
        added += 1;
    }
    added
}
