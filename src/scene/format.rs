//! The scene file format, version 2 (reading version 1 too), as plain serde types of its own.
//!
//! Version 2 gives each agent a list `behaviours` (the main one first; each entry a behaviour
//! object with `weight` and `group`) and `combine` (`{"mode": "blend"}` or
//! `{"mode": "priority", "threshold": t}`). Version 1's `behaviour`, `avoid_obstacles` and the
//! scene's `avoidance` are read into the same types and migrated by `convert::migrate`.
//!
//! These types mirror the JSON one to one and know nothing about the live [`crate::sim::World`]
//! (conversion is in `convert`, checks in `validate`). Every struct denies unknown fields.
//! Omitted fields take the defaults listed in the module documentation of [`crate::scene`];
//! the parameter defaults come from the behaviours' own `Default` impls so there is one source.
//!
//! Curves (tagged by `kind`) and behaviours (tagged by `type`) are not serde's internally tagged
//! enums, which buffer their whole content and lose the path of an error inside it: `stream`
//! reads the tag first and streams the rest into the variant's struct ([`Tagged`] names the
//! variants). The lists, point
//! lists and a few fields are read by `stream`'s functions too (`deserialize_with`), which
//! apply the size limits while reading and refuse the forms serde accepts and the format does
//! not have (an object written as an array, a name written as a map).

use std::fmt;

use glam::Vec3;
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::locate::PathSegment;
use super::stream::{self, Tagged};
use crate::behaviours::{
    ArriveParams, AvoidParams, Limits, ParametricMethod, ParametricParams, PredictiveParams, ProjectedParams,
    WaypointsParams,
};
use crate::planner::PlannerParams;
use crate::sim::DEFAULT_DT;

/// The version this build writes (it also reads version 1, migrating it on load).
pub const FORMAT_VERSION: u32 = 2;

/// Every version this build reads.
pub const READABLE_VERSIONS: [u32; 2] = [1, 2];

/// A vector written `[x, y]` (z = 0) or `[x, y, z]`; written back as `[x, y]` when z is 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SceneVec(pub Vec3);

impl From<Vec3> for SceneVec {
    fn from(v: Vec3) -> Self {
        SceneVec(v)
    }
}

impl Serialize for SceneVec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let SceneVec(v) = *self;
        let len = if v.z == 0.0 { 2 } else { 3 };
        let mut seq = serializer.serialize_seq(Some(len))?;
        seq.serialize_element(&v.x)?;
        seq.serialize_element(&v.y)?;
        if len == 3 {
            seq.serialize_element(&v.z)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for SceneVec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(SceneVecVisitor)
    }
}

struct SceneVecVisitor;

impl<'de> Visitor<'de> for SceneVecVisitor {
    type Value = SceneVec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("[x, y] or [x, y, z]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SceneVec, A::Error> {
        let mut components = [0.0f32; 3];
        let mut len = 0usize;
        while let Some(value) = seq.next_element::<f32>()? {
            if let Some(slot) = components.get_mut(len) {
                *slot = value;
            }
            len += 1;
        }
        match len {
            2 | 3 => Ok(SceneVec(Vec3::from_array(components))),
            1 => Err(de::Error::custom("expected [x, y] or [x, y, z], got 1 number")),
            _ => Err(de::Error::custom(format!("expected [x, y] or [x, y, z], got {len} numbers"))),
        }
    }
}

/// A whole scene file.
///
/// Read with serde alone (not through `io`), a scene must still pass
/// [`crate::scene::validate_scene`], as `scene_to_world` makes it: reading applies the size
/// limits only as far as memory needs, and keeps `paths`, `curves` and `fields` whose points
/// (vectors) pass their limit together only up to the item that passes it, a scene that
/// validation refuses at that item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    /// Format version; must be [`FORMAT_VERSION`].
    pub version: u32,
    /// Scene name (may be empty).
    #[serde(default)]
    pub name: String,
    /// What to look at in this scene.
    #[serde(default)]
    pub description: String,
    /// Fixed step in seconds, in (0, 0.1].
    #[serde(default = "default_dt")]
    pub dt: f32,
    /// Where moving targets and obstacles bounce (extension; see the module documentation).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "stream::strict_option")]
    pub bounds: Option<BoundsSpec>,
    /// Version 1 only: obstacle avoidance settings for every agent with `avoid_obstacles`
    /// (version 2 keeps them in each `avoid_obstacles` entry).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "stream::strict_option")]
    pub avoidance: Option<AvoidanceSpec>,
    /// Polyline paths.
    #[serde(default, deserialize_with = "stream::paths")]
    pub paths: Vec<PathSpec>,
    /// Parametric curves.
    #[serde(default, deserialize_with = "stream::curves")]
    pub curves: Vec<CurveSpec>,
    /// Painted flow fields (omitted when there are none, so older files read and write as they
    /// were).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "stream::fields")]
    pub fields: Vec<FieldSpec>,
    /// Targets.
    #[serde(default, deserialize_with = "stream::targets")]
    pub targets: Vec<TargetSpec>,
    /// Obstacles.
    #[serde(default, deserialize_with = "stream::obstacles")]
    pub obstacles: Vec<ObstacleSpec>,
    /// Agents.
    #[serde(default, deserialize_with = "stream::agents")]
    pub agents: Vec<AgentSpec>,
}

/// An axis-aligned box (extension `bounds`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundsSpec {
    /// Smallest corner.
    pub min: SceneVec,
    /// Largest corner.
    pub max: SceneVec,
}

/// Obstacle avoidance settings (extension `avoidance`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvoidanceSpec {
    /// Probe length in seconds of travel.
    #[serde(default = "default_look_ahead")]
    pub look_ahead: f32,
    /// Extra clearance beyond the sum of radii, in world units.
    #[serde(default = "default_margin")]
    pub margin: f32,
}

/// A polyline path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathSpec {
    /// Id agents refer to.
    pub id: String,
    /// At least two vertices.
    #[serde(deserialize_with = "stream::points")]
    pub points: Vec<SceneVec>,
    /// Whether the last point joins the first.
    #[serde(default)]
    pub closed: bool,
    /// Channel half-width.
    #[serde(default = "default_path_radius")]
    pub radius: f32,
}

/// A painted flow field: a grid of `columns × rows` square cells `cell_size` wide whose
/// lower-left corner is `origin`, one vector per cell, row by row from the bottom (row 0 at
/// `origin`'s y, columns left to right). `vectors` empty or omitted: every cell zero (nothing
/// painted); it is written omitted when every cell is zero.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    /// Id flow-field entries refer to (`"field": "swirl"`).
    pub id: String,
    /// The grid's lower-left corner (z = 0).
    pub origin: SceneVec,
    /// The width of a cell, world units.
    #[serde(default = "default_field_cell_size")]
    pub cell_size: f32,
    /// Cells across.
    pub columns: u64,
    /// Cells up.
    pub rows: u64,
    /// One `[x, y]` per cell, row-major from the bottom row (length `columns × rows`, or empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "stream::field_vectors")]
    pub vectors: Vec<[f32; 2]>,
}

/// A parametric curve, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CurveSpec {
    /// `circle`.
    Circle(CircleSpec),
    /// `ellipse`.
    Ellipse(EllipseSpec),
    /// `lemniscate`.
    Lemniscate(LemniscateSpec),
    /// `lissajous`.
    Lissajous(LissajousSpec),
    /// `helix`.
    Helix(HelixSpec),
    /// `spline`.
    Spline(SplineSpec),
    /// `expr`.
    Expr(ExprSpec),
}

/// The `kind` names of curves.
pub const CURVE_KINDS: [&str; 7] =
    ["circle", "ellipse", "lemniscate", "lissajous", "helix", "spline", "expr"];

impl CurveSpec {
    /// The curve's id.
    pub fn id(&self) -> &str {
        match self {
            CurveSpec::Circle(c) => &c.id,
            CurveSpec::Ellipse(c) => &c.id,
            CurveSpec::Lemniscate(c) => &c.id,
            CurveSpec::Lissajous(c) => &c.id,
            CurveSpec::Helix(c) => &c.id,
            CurveSpec::Spline(c) => &c.id,
            CurveSpec::Expr(c) => &c.id,
        }
    }
}

/// `circle`: center + radius·(cos t, sin t).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircleSpec {
    /// Id.
    pub id: String,
    /// Centre (default origin).
    #[serde(default)]
    pub center: SceneVec,
    /// Radius, > 0.
    pub radius: f32,
}

/// `ellipse`: center + (radius_x cos t, radius_y sin t).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EllipseSpec {
    /// Id.
    pub id: String,
    /// Centre (default origin).
    #[serde(default)]
    pub center: SceneVec,
    /// Half-width along x, > 0.
    pub radius_x: f32,
    /// Half-height along y, > 0.
    pub radius_y: f32,
}

/// `lemniscate`: a figure eight of half-width `size`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LemniscateSpec {
    /// Id.
    pub id: String,
    /// Centre (default origin).
    #[serde(default)]
    pub center: SceneVec,
    /// Half-width, > 0.
    pub size: f32,
}

/// `lissajous`: center + (ax sin(fx t + phase), ay sin(fy t), az).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LissajousSpec {
    /// Id.
    pub id: String,
    /// Centre (default origin).
    #[serde(default)]
    pub center: SceneVec,
    /// Amplitudes `[ax, ay]` or `[ax, ay, az]`.
    pub amplitude: SceneVec,
    /// Frequency along x.
    pub freq_x: f32,
    /// Frequency along y.
    pub freq_y: f32,
    /// Phase of x in radians (default 0).
    #[serde(default)]
    pub phase: f32,
}

/// `helix`: a 3D spiral rising `pitch` per turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelixSpec {
    /// Id.
    pub id: String,
    /// Centre of the base (default origin).
    #[serde(default)]
    pub center: SceneVec,
    /// Radius, > 0.
    pub radius: f32,
    /// Rise per turn.
    pub pitch: f32,
    /// Number of turns, > 0.
    pub turns: f32,
}

/// `spline`: Catmull-Rom through points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplineSpec {
    /// Id.
    pub id: String,
    /// At least two points.
    #[serde(deserialize_with = "stream::points")]
    pub points: Vec<SceneVec>,
    /// Whether it loops (default false).
    #[serde(default)]
    pub closed: bool,
}

/// `expr`: typed x(t), y(t), z(t) for t in [t_min, t_max].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExprSpec {
    /// Id.
    pub id: String,
    /// x(t).
    pub x: String,
    /// y(t).
    pub y: String,
    /// z(t) (default "0").
    #[serde(default = "default_expr_z")]
    pub z: String,
    /// Start of the parameter range (default 0).
    #[serde(default)]
    pub t_min: f32,
    /// End of the parameter range (default 2π).
    #[serde(default = "default_t_max")]
    pub t_max: f32,
}

/// A target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    /// Id agents refer to.
    pub id: String,
    /// Start position.
    pub position: SceneVec,
    /// Velocity (default 0).
    #[serde(default)]
    pub velocity: SceneVec,
}

/// An obstacle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObstacleSpec {
    /// Optional id, for the reader (nothing refers to obstacles; not kept in the World).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Start centre.
    pub position: SceneVec,
    /// Radius, > 0.
    pub radius: f32,
    /// Velocity (default 0).
    #[serde(default)]
    pub velocity: SceneVec,
}

/// An agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentSpec {
    /// Display name (default `agent N`, N counting from 1; must not be empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `#rrggbb` (default: the palette colour for the agent's index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Start position.
    pub position: SceneVec,
    /// Start velocity (default 0).
    #[serde(default)]
    pub velocity: SceneVec,
    /// Start heading in radians (default 0).
    #[serde(default)]
    pub orientation: f32,
    /// Body radius (default 8).
    #[serde(default = "default_agent_radius")]
    pub radius: f32,
    /// Maximum speed (default 150).
    #[serde(default = "default_max_speed")]
    pub max_speed: f32,
    /// Maximum acceleration (default 400).
    #[serde(default = "default_max_acceleration")]
    pub max_acceleration: f32,
    /// Version 1 only: whether obstacle avoidance is added (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avoid_obstacles: Option<bool>,
    /// Version 1 only: what it does (required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<BehaviourSpec>,
    /// Version 2: how the list is combined (default: blending).
    #[serde(default, skip_serializing_if = "CombineSpec::is_default", deserialize_with = "stream::strict")]
    pub combine: CombineSpec,
    /// Version 2: the list of behaviours, the main one first (required, at least one; at most
    /// [`super::validate::MAX_BEHAVIOURS`]).
    #[serde(default, deserialize_with = "stream::behaviours")]
    pub behaviours: Vec<EntrySpec>,
}

impl AgentSpec {
    /// The agent's name: its `name`, or `agent N` (N counted from 1) when it has none. Other
    /// agents refer to it by this name (pursuit, evade).
    pub fn name_or_default(&self, agent_idx: usize) -> String {
        self.name.clone().unwrap_or_else(|| format!("agent {}", agent_idx + 1))
    }
}

/// How an agent's behaviours are combined (version 2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombineSpec {
    /// `"blend"` (weighted sum) or `"priority"` (first group over the threshold wins).
    #[serde(deserialize_with = "stream::strict")]
    pub mode: CombineMode,
    /// Priority only: the force a group must exceed to win (units/s²).
    #[serde(default = "default_threshold")]
    pub threshold: f32,
}

impl Default for CombineSpec {
    fn default() -> Self {
        CombineSpec { mode: CombineMode::Blend, threshold: default_threshold() }
    }
}

impl CombineSpec {
    /// Whether this is the default (blending), which is not written.
    pub fn is_default(&self) -> bool {
        *self == CombineSpec::default()
    }
}

/// The combination mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombineMode {
    /// Weighted blending.
    Blend,
    /// Priority groups.
    Priority,
}

/// One entry of an agent's list: a behaviour object with two more fields, `weight` (default 1)
/// and `group` (default 0).
#[derive(Clone, Debug, PartialEq)]
pub struct EntrySpec {
    /// The behaviour.
    pub behaviour: BehaviourSpec,
    /// Its weight when summed.
    pub weight: f32,
    /// Its priority group.
    pub group: u32,
}

impl EntrySpec {
    /// An entry of weight 1 in group 0.
    pub fn plain(behaviour: BehaviourSpec) -> EntrySpec {
        EntrySpec { behaviour, weight: 1.0, group: 0 }
    }
}

impl Serialize for EntrySpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::to_value(&self.behaviour).map_err(serde::ser::Error::custom)?;
        if let Value::Object(fields) = &mut value {
            fields.insert(
                "weight".into(),
                serde_json::to_value(self.weight).map_err(serde::ser::Error::custom)?,
            );
            fields.insert("group".into(), Value::from(self.group));
        }
        value.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for EntrySpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (behaviour, stream::Extras { weight, group }) = stream::entry(deserializer)?;
        Ok(EntrySpec { behaviour, weight, group })
    }
}

/// Reads an entry (a behaviour object with `weight` and `group`) held as a [`Value`], the way
/// the loader read it before it streamed from the text; errors carry the path relative to the
/// entry. Tests only: the oracle the streaming reader is compared with.
#[cfg(test)]
pub(crate) fn entry_from_value(value: Value) -> Result<EntrySpec, RelativeIssue> {
    let mut weight = 1.0f32;
    let mut group = 0u32;
    let value = match value {
        Value::Object(mut fields) => {
            if let Some(w) = fields.remove("weight") {
                weight = serde_json::from_value(w).map_err(|err| {
                    (vec![PathSegment::Key("weight".into())], tidy_message(&err.to_string()))
                })?;
            }
            if let Some(g) = fields.remove("group") {
                group = serde_json::from_value(g).map_err(|err| {
                    (vec![PathSegment::Key("group".into())], tidy_message(&err.to_string()))
                })?;
            }
            Value::Object(fields)
        }
        other => other,
    };
    Ok(EntrySpec { behaviour: behaviour_from_value(value)?, weight, group })
}

/// A behaviour, tagged by `type`; references are ids.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BehaviourSpec {
    /// `seek`.
    Seek(KinematicSpec),
    /// `flee`.
    Flee(KinematicSpec),
    /// `arrive`.
    Arrive(ArriveSpec),
    /// `parametric`.
    Parametric(ParametricSpec),
    /// `waypoints`.
    Waypoints(WaypointsSpec),
    /// `projected`.
    Projected(ProjectedSpec),
    /// `predictive`.
    Predictive(PredictiveSpec),
    /// `planner`.
    Planner(PlannerSpec),
    /// `avoid_obstacles`.
    AvoidObstacles(AvoidanceSpec),
    /// `pursuit`.
    Pursuit(PursuitSpec),
    /// `evade`.
    Evade(PursuitSpec),
    /// `wander`.
    Wander(WanderSpec),
    /// `flocking`.
    Flocking(FlockingSpec),
    /// `collision_avoidance`.
    CollisionAvoidance(CollisionAvoidanceSpec),
    /// `offset_pursuit`.
    OffsetPursuit(OffsetPursuitSpec),
    /// `containment`.
    Containment(ContainmentSpec),
    /// `flow_field`.
    FlowField(FlowFieldSpec),
    /// `leader_following`.
    LeaderFollowing(LeaderFollowingSpec),
    /// `interpose`.
    Interpose(InterposeSpec),
    /// `hide`.
    Hide(HideSpec),
    /// `face`.
    Face(FaceSpec),
    /// `look_where_you_are_going`.
    LookWhereYouAreGoing(LookSpec),
}

/// The `type` names of behaviours.
pub const BEHAVIOUR_TYPES: [&str; 22] = [
    "seek",
    "flee",
    "arrive",
    "parametric",
    "waypoints",
    "projected",
    "predictive",
    "planner",
    "avoid_obstacles",
    "pursuit",
    "evade",
    "wander",
    "flocking",
    "collision_avoidance",
    "offset_pursuit",
    "containment",
    "flow_field",
    "leader_following",
    "interpose",
    "hide",
    "face",
    "look_where_you_are_going",
];

/// `containment`: stay inside a region, the polygon through the points of the path named by
/// `region` (drawn with the Path tool; joined last to first even when the path is open).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContainmentSpec {
    /// The id of the path whose points outline the region.
    pub region: String,
    /// Seconds ahead along the velocity that the boundary is checked.
    #[serde(default = "default_containment_look_ahead")]
    pub look_ahead: f32,
    /// Distance from the boundary where the push inward starts, world units.
    #[serde(default = "default_containment_margin")]
    pub margin: f32,
}

/// `flow_field`: steer along a field; the painted field `field` when it is given, along the path
/// `path` when that is given (not both), else seeded noise (`seed`, `scale`). Every parameter is
/// written, so the unused ones survive a save.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowFieldSpec {
    /// The id of the path the field runs along; absent: a noise field (or a painted one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The id of the painted field (scene's `fields`) read; absent: noise or a path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Seconds ahead along the velocity that the field is read.
    #[serde(default = "default_flow_look_ahead")]
    pub look_ahead: f32,
    /// Noise field: the lattice seed.
    #[serde(default = "default_flow_seed")]
    pub seed: u32,
    /// Noise field: the lattice cell width, world units.
    #[serde(default = "default_flow_scale")]
    pub scale: f32,
    /// Field along a path: distance of full pull toward the path, world units.
    #[serde(default = "default_flow_pull")]
    pub pull: f32,
}

/// `offset_pursuit`: a slot in the frame of another agent (the leader), by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OffsetPursuitSpec {
    /// The leader's `name`.
    pub agent: String,
    /// The slot's offset ahead of the leader (negative: behind), world units.
    #[serde(default = "default_offset_x")]
    pub offset_x: f32,
    /// The slot's offset to the leader's left (negative: right), world units.
    #[serde(default = "default_offset_y")]
    pub offset_y: f32,
    /// Seconds over which a slot error is closed.
    #[serde(default = "default_approach_time")]
    pub approach_time: f32,
    /// Whether the slot's own velocity is matched (off: only the distance is closed).
    #[serde(default = "default_match_velocity")]
    pub match_velocity: bool,
}

/// `leader_following`: trail another agent (the leader), by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderFollowingSpec {
    /// The leader's `name`.
    pub agent: String,
    /// Distance of the follow point behind the leader, world units.
    #[serde(default = "default_lf_behind")]
    pub behind: f32,
    /// Length of the zone ahead of the leader kept clear, world units.
    #[serde(default = "default_lf_sight_distance")]
    pub sight_distance: f32,
    /// Half-width of that zone, world units.
    #[serde(default = "default_lf_sight_radius")]
    pub sight_radius: f32,
    /// Seconds over which the distance to the follow point is closed.
    #[serde(default = "default_approach_time")]
    pub approach_time: f32,
    /// Whether the follower steps out of the leader's path (off: it only holds the follow point).
    #[serde(default = "default_lf_clear_path")]
    pub clear_path: bool,
}

/// `interpose`: get between two other agents, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterposeSpec {
    /// The two agents' `name`s.
    #[serde(deserialize_with = "stream::pair")]
    pub agents: [String; 2],
    /// Inside this distance of the point between them the agent slows down, world units.
    #[serde(default = "default_interpose_slow_radius")]
    pub slow_radius: f32,
}

/// `hide`: behind the scene's obstacles from a hunter, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HideSpec {
    /// The hunter's `name`.
    pub agent: String,
    /// Gap between the obstacle and the agent at the hiding spot, world units.
    #[serde(default = "default_hide_distance_from_boundary")]
    pub distance_from_boundary: f32,
    /// Inside this distance of the hiding spot the agent slows down, world units.
    #[serde(default = "default_hide_slow_radius")]
    pub slow_radius: f32,
}

/// `face`: turn the heading toward another agent, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceSpec {
    /// The `name` of the agent faced.
    pub agent: String,
    /// Fastest turn, radians per second.
    #[serde(default = "default_max_rotation")]
    pub max_rotation: f32,
    /// Inside this heading error the turn slows down, radians.
    #[serde(default = "default_slow_angle")]
    pub slow_angle: f32,
}

/// `look_where_you_are_going`: turn the heading toward the velocity at a bounded rate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LookSpec {
    /// Fastest turn, radians per second.
    #[serde(default = "default_max_rotation")]
    pub max_rotation: f32,
    /// Inside this heading error the turn slows down, radians.
    #[serde(default = "default_slow_angle")]
    pub slow_angle: f32,
}

/// `flocking`: separation, alignment and cohesion weights, their radii and the view cone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlockingSpec {
    /// Weight of separation.
    #[serde(default = "default_flock_separation")]
    pub separation: f32,
    /// Weight of alignment.
    #[serde(default = "default_flock_alignment")]
    pub alignment: f32,
    /// Weight of cohesion.
    #[serde(default = "default_flock_cohesion")]
    pub cohesion: f32,
    /// Separation radius, world units.
    #[serde(default = "default_flock_separation_radius")]
    pub separation_radius: f32,
    /// Alignment and cohesion radius, world units.
    #[serde(default = "default_flock_radius")]
    pub radius: f32,
    /// Full view angle, radians.
    #[serde(default = "default_flock_view_angle")]
    pub view_angle: f32,
}

/// `collision_avoidance` (between agents).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollisionAvoidanceSpec {
    /// Seconds ahead that approaches count.
    #[serde(default = "default_ca_horizon")]
    pub horizon: f32,
    /// Extra clearance, world units.
    #[serde(default = "default_ca_margin")]
    pub margin: f32,
}

/// `wander`: Reynolds' jittered circle, from the agent's own seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WanderSpec {
    /// Radius of the wander circle, world units.
    #[serde(default = "default_wander_radius")]
    pub radius: f32,
    /// Distance of the circle ahead of the agent, world units.
    #[serde(default = "default_wander_distance")]
    pub distance: f32,
    /// Jitter rate, world units per second.
    #[serde(default = "default_wander_jitter")]
    pub jitter: f32,
    /// The agent's seed (0–16,777,215).
    #[serde(default = "default_wander_seed")]
    pub seed: u32,
}

/// `pursuit` and `evade`: the other agent, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PursuitSpec {
    /// The other agent's `name`.
    pub agent: String,
    /// The cap on the prediction time, seconds.
    #[serde(default = "default_max_prediction")]
    pub max_prediction: f32,
}

/// `seek` and `flee`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KinematicSpec {
    /// Target id.
    pub target: String,
}

/// `arrive`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArriveSpec {
    /// Target id.
    pub target: String,
    /// Arrived inside this distance.
    #[serde(default = "default_target_radius")]
    pub target_radius: f32,
    /// Slows down inside this distance (≥ target_radius).
    #[serde(default = "default_slow_radius")]
    pub slow_radius: f32,
    /// Seconds to reach the wanted speed.
    #[serde(default = "default_time_to_target")]
    pub time_to_target: f32,
    /// Cap the speed by the speed from which the agent can still stop (off: the seed's ramp).
    #[serde(default = "default_braking_cap")]
    pub braking_cap: bool,
}

/// `parametric`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParametricSpec {
    /// Curve id.
    pub curve: String,
    /// Speed along the curve.
    #[serde(default = "default_parametric_speed")]
    pub speed: f32,
    /// Secant parameter increment.
    #[serde(default = "default_delta_t")]
    pub delta_t: f32,
    /// Starting parameter.
    #[serde(default = "default_t0")]
    pub t0: f32,
    /// `"secant"` or `"arc_length"`.
    #[serde(default = "default_method", deserialize_with = "stream::strict")]
    pub method: ParametricMethod,
}

/// `waypoints`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaypointsSpec {
    /// Path id.
    pub path: String,
    /// A node is reached inside this distance.
    #[serde(default = "default_node_radius")]
    pub node_radius: f32,
    /// Seed 002's closest-node variant.
    #[serde(default = "default_closest_node")]
    pub closest_node: bool,
}

/// `projected`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectedSpec {
    /// Path id.
    pub path: String,
    /// Distance of the virtual target ahead of the projection.
    #[serde(default = "default_offset")]
    pub offset: f32,
}

/// `predictive`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PredictiveSpec {
    /// Path id.
    pub path: String,
    /// Seconds ahead.
    #[serde(default = "default_prediction_time")]
    pub prediction_time: f32,
    /// Channel half-width.
    #[serde(default = "default_predictive_path_radius")]
    pub path_radius: f32,
}

/// `planner`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannerSpec {
    /// Waypoints in order (default none; at most [`super::validate::MAX_WAYPOINTS`]).
    #[serde(default, deserialize_with = "stream::waypoints")]
    pub waypoints: Vec<SceneVec>,
    /// Clearance beyond the ship's radius.
    #[serde(default = "default_clearance")]
    pub clearance: f32,
    /// Most iterations per plan, 1–10,000.
    #[serde(default = "default_iteration_limit")]
    pub iteration_limit: u32,
    /// Seconds between replans.
    #[serde(default = "default_replan_interval")]
    pub replan_interval: f32,
    /// A waypoint is reached inside this distance.
    #[serde(default = "default_arrival_radius")]
    pub arrival_radius: f32,
    /// Drop waypoints whose neighbours see each other.
    #[serde(default = "default_smoothing")]
    pub smoothing: bool,
    /// Random hits per second knocking the ship off course (default 0: none).
    #[serde(default = "default_incoming_fire", skip_serializing_if = "is_default_incoming_fire")]
    pub incoming_fire: f32,
    /// Velocity change of one hit, units per second.
    #[serde(default = "default_fire_strength", skip_serializing_if = "is_default_fire_strength")]
    pub fire_strength: f32,
    /// Seed of the hits' generator.
    #[serde(default = "default_fire_seed", skip_serializing_if = "is_default_fire_seed")]
    pub fire_seed: u64,
}

/// Fire fields are written only when they differ from the defaults (most ships are not shot at).
fn is_default_incoming_fire(value: &f32) -> bool {
    *value == default_incoming_fire()
}

fn is_default_fire_strength(value: &f32) -> bool {
    *value == default_fire_strength()
}

fn is_default_fire_seed(value: &u64) -> bool {
    *value == default_fire_seed()
}

impl<'de> Deserialize<'de> for CurveSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        stream::tagged(deserializer)
    }
}

impl<'de> Deserialize<'de> for BehaviourSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        stream::tagged(deserializer)
    }
}

impl Tagged for CurveSpec {
    const TAG: &'static str = "kind";
    const WHAT: &'static str = "curve kind";
    const NAMES: &'static [&'static str] = &CURVE_KINDS;
    const POINTS: &'static str = "points";
    const POINTS_LIMIT: (usize, fn() -> String) =
        (super::validate::MAX_POINTS, super::validate::too_many_points);

    fn read_variant<'de, D: Deserializer<'de>>(kind: &str, deserializer: D) -> Result<Self, D::Error> {
        let d = deserializer;
        Ok(match kind {
            "circle" => CurveSpec::Circle(Deserialize::deserialize(d)?),
            "ellipse" => CurveSpec::Ellipse(Deserialize::deserialize(d)?),
            "lemniscate" => CurveSpec::Lemniscate(Deserialize::deserialize(d)?),
            "lissajous" => CurveSpec::Lissajous(Deserialize::deserialize(d)?),
            "helix" => CurveSpec::Helix(Deserialize::deserialize(d)?),
            "spline" => CurveSpec::Spline(Deserialize::deserialize(d)?),
            _ => CurveSpec::Expr(Deserialize::deserialize(d)?),
        })
    }
}

impl Tagged for BehaviourSpec {
    const TAG: &'static str = "type";
    const WHAT: &'static str = "behaviour type";
    const NAMES: &'static [&'static str] = &BEHAVIOUR_TYPES;
    const POINTS: &'static str = "waypoints";
    const POINTS_LIMIT: (usize, fn() -> String) =
        (super::validate::MAX_WAYPOINTS, super::validate::too_many_waypoints);

    fn read_variant<'de, D: Deserializer<'de>>(kind: &str, deserializer: D) -> Result<Self, D::Error> {
        let d = deserializer;
        Ok(match kind {
            "seek" => BehaviourSpec::Seek(Deserialize::deserialize(d)?),
            "flee" => BehaviourSpec::Flee(Deserialize::deserialize(d)?),
            "arrive" => BehaviourSpec::Arrive(Deserialize::deserialize(d)?),
            "parametric" => BehaviourSpec::Parametric(Deserialize::deserialize(d)?),
            "waypoints" => BehaviourSpec::Waypoints(Deserialize::deserialize(d)?),
            "projected" => BehaviourSpec::Projected(Deserialize::deserialize(d)?),
            "predictive" => BehaviourSpec::Predictive(Deserialize::deserialize(d)?),
            "planner" => BehaviourSpec::Planner(Deserialize::deserialize(d)?),
            "pursuit" => BehaviourSpec::Pursuit(Deserialize::deserialize(d)?),
            "evade" => BehaviourSpec::Evade(Deserialize::deserialize(d)?),
            "wander" => BehaviourSpec::Wander(Deserialize::deserialize(d)?),
            "flocking" => BehaviourSpec::Flocking(Deserialize::deserialize(d)?),
            "collision_avoidance" => BehaviourSpec::CollisionAvoidance(Deserialize::deserialize(d)?),
            "offset_pursuit" => BehaviourSpec::OffsetPursuit(Deserialize::deserialize(d)?),
            "containment" => BehaviourSpec::Containment(Deserialize::deserialize(d)?),
            "flow_field" => BehaviourSpec::FlowField(Deserialize::deserialize(d)?),
            "leader_following" => BehaviourSpec::LeaderFollowing(Deserialize::deserialize(d)?),
            "interpose" => BehaviourSpec::Interpose(Deserialize::deserialize(d)?),
            "hide" => BehaviourSpec::Hide(Deserialize::deserialize(d)?),
            "face" => BehaviourSpec::Face(Deserialize::deserialize(d)?),
            "look_where_you_are_going" => BehaviourSpec::LookWhereYouAreGoing(Deserialize::deserialize(d)?),
            _ => BehaviourSpec::AvoidObstacles(Deserialize::deserialize(d)?),
        })
    }
}

/// A problem inside a curve or behaviour: the path relative to that object, and the reason.
pub type RelativeIssue = (Vec<PathSegment>, String);

/// Reads a curve object held as a [`Value`]; errors carry the path relative to the curve.
/// Tests only, as [`entry_from_value`].
#[cfg(test)]
pub(crate) fn curve_from_value(value: Value) -> Result<CurveSpec, RelativeIssue> {
    let (kind, fields) = split_tag(value, "kind", "curve kind", &CURVE_KINDS)?;
    variant(&kind, fields)
}

/// Reads a behaviour object held as a [`Value`]; errors carry the path relative to the
/// behaviour. Tests only, as [`entry_from_value`].
#[cfg(test)]
pub(crate) fn behaviour_from_value(value: Value) -> Result<BehaviourSpec, RelativeIssue> {
    let (kind, fields) = split_tag(value, "type", "behaviour type", &BEHAVIOUR_TYPES)?;
    variant(&kind, fields)
}

/// Takes the tag out of a tagged object; the tag is one of `allowed` on success.
#[cfg(test)]
fn split_tag(
    value: Value,
    tag: &str,
    what: &str,
    allowed: &[&str],
) -> Result<(String, serde_json::Map<String, Value>), RelativeIssue> {
    let expected = allowed.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ");
    let Value::Object(mut fields) = value else {
        return Err((vec![], format!("expected an object with a `{tag}` field, got {}", describe(&value))));
    };
    let tag_path = || vec![PathSegment::Key(tag.to_string())];
    match fields.remove(tag) {
        None => Err((vec![], format!("missing field `{tag}` (one of {expected})"))),
        Some(Value::String(name)) if allowed.contains(&name.as_str()) => Ok((name, fields)),
        Some(Value::String(name)) => {
            Err((tag_path(), format!("unknown {what} `{name}`, expected one of {expected}")))
        }
        Some(other) => {
            Err((tag_path(), format!("expected a string naming the {what}, got {}", describe(&other))))
        }
    }
}

/// Reads the variant `name` of `T` from the object's fields (the tag taken out).
#[cfg(test)]
fn variant<T: Tagged>(name: &str, fields: serde_json::Map<String, Value>) -> Result<T, RelativeIssue> {
    let mut track = serde_path_to_error::Track::new();
    T::read_variant(name, serde_path_to_error::Deserializer::new(Value::Object(fields), &mut track))
        .map_err(|err| (segments_of(&track.path()), tidy_message(&err.to_string())))
}

/// A JSON value's kind for messages: `a string`, `the number 3`, ...
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

/// Converts `serde_path_to_error`'s path into ours.
pub(crate) fn segments_of(path: &serde_path_to_error::Path) -> Vec<PathSegment> {
    path.iter()
        .filter_map(|segment| match segment {
            serde_path_to_error::Segment::Seq { index } => Some(PathSegment::Index(*index)),
            serde_path_to_error::Segment::Map { key } => Some(PathSegment::Key(key.clone())),
            serde_path_to_error::Segment::Enum { variant } => Some(PathSegment::Key(variant.clone())),
            serde_path_to_error::Segment::Unknown => None,
        })
        .collect()
}

/// Replaces serde's Rust type names in messages with words a scene author knows.
pub(crate) fn tidy_message(message: &str) -> String {
    message
        .replace("expected f32", "expected a number")
        .replace("expected u32", "expected a whole number from 0 to 4294967295")
        .replace("expected a sequence", "expected an array")
        .replace("expected struct SceneFile", "expected a scene object")
        .replace("expected struct ", "expected an object ")
}

macro_rules! defaults {
    ($($name:ident: $ty:ty = $value:expr;)*) => {
        $(fn $name() -> $ty { $value })*
    };
}

defaults! {
    default_dt: f32 = DEFAULT_DT;
    default_threshold: f32 = crate::sim::Combine::DEFAULT_THRESHOLD;
    default_look_ahead: f32 = AvoidParams::default().look_ahead;
    default_margin: f32 = AvoidParams::default().margin;
    default_path_radius: f32 = 20.0;
    default_expr_z: String = "0".to_string();
    default_t_max: f32 = std::f32::consts::TAU;
    default_agent_radius: f32 = Limits::default().radius;
    default_max_speed: f32 = Limits::default().max_speed;
    default_max_acceleration: f32 = Limits::default().max_acceleration;
    default_target_radius: f32 = ArriveParams::default().target_radius;
    default_slow_radius: f32 = ArriveParams::default().slow_radius;
    default_time_to_target: f32 = ArriveParams::default().time_to_target;
    default_braking_cap: bool = ArriveParams::default().braking_cap;
    default_parametric_speed: f32 = ParametricParams::default().speed;
    default_delta_t: f32 = ParametricParams::default().delta_t;
    default_t0: f32 = ParametricParams::default().t0;
    default_method: ParametricMethod = ParametricParams::default().method;
    default_node_radius: f32 = WaypointsParams::default().node_radius;
    default_closest_node: bool = WaypointsParams::default().closest_node;
    default_offset: f32 = ProjectedParams::default().offset;
    default_prediction_time: f32 = PredictiveParams::default().prediction_time;
    default_predictive_path_radius: f32 = PredictiveParams::default().path_radius;
    default_clearance: f32 = PlannerParams::default().clearance;
    default_iteration_limit: u32 = PlannerParams::default().iteration_limit;
    default_replan_interval: f32 = PlannerParams::default().replan_interval;
    default_arrival_radius: f32 = PlannerParams::default().arrival_radius;
    default_smoothing: bool = PlannerParams::default().smoothing;
    default_incoming_fire: f32 = PlannerParams::default().incoming_fire;
    default_fire_strength: f32 = PlannerParams::default().fire_strength;
    default_fire_seed: u64 = PlannerParams::default().fire_seed;
    default_max_prediction: f32 = crate::behaviours::PursuitParams::default().max_prediction;
    default_wander_radius: f32 = crate::behaviours::WanderParams::default().radius;
    default_wander_distance: f32 = crate::behaviours::WanderParams::default().distance;
    default_wander_jitter: f32 = crate::behaviours::WanderParams::default().jitter;
    default_wander_seed: u32 = crate::behaviours::WanderParams::default().seed;
    default_flock_separation: f32 = crate::behaviours::FlockingParams::default().separation;
    default_flock_alignment: f32 = crate::behaviours::FlockingParams::default().alignment;
    default_flock_cohesion: f32 = crate::behaviours::FlockingParams::default().cohesion;
    default_flock_separation_radius: f32 = crate::behaviours::FlockingParams::default().separation_radius;
    default_flock_radius: f32 = crate::behaviours::FlockingParams::default().radius;
    default_flock_view_angle: f32 = crate::behaviours::FlockingParams::default().view_angle;
    default_ca_horizon: f32 = crate::behaviours::CollisionAvoidanceParams::default().horizon;
    default_ca_margin: f32 = crate::behaviours::CollisionAvoidanceParams::default().margin;
    default_offset_x: f32 = crate::behaviours::OffsetPursuitParams::default().offset_x;
    default_offset_y: f32 = crate::behaviours::OffsetPursuitParams::default().offset_y;
    default_approach_time: f32 = crate::behaviours::OffsetPursuitParams::default().approach_time;
    default_match_velocity: bool = crate::behaviours::OffsetPursuitParams::default().match_velocity;
    default_containment_look_ahead: f32 = crate::behaviours::ContainmentParams::default().look_ahead;
    default_containment_margin: f32 = crate::behaviours::ContainmentParams::default().margin;
    default_flow_look_ahead: f32 = crate::behaviours::FlowFieldParams::default().look_ahead;
    default_field_cell_size: f32 = crate::behaviours::flow_field::CELL_SIZE.default;
    default_flow_seed: u32 = crate::behaviours::FlowFieldParams::default().seed;
    default_flow_scale: f32 = crate::behaviours::FlowFieldParams::default().scale;
    default_flow_pull: f32 = crate::behaviours::FlowFieldParams::default().pull;
    default_lf_behind: f32 = crate::behaviours::LeaderFollowingParams::default().behind;
    default_lf_sight_distance: f32 = crate::behaviours::LeaderFollowingParams::default().sight_distance;
    default_lf_sight_radius: f32 = crate::behaviours::LeaderFollowingParams::default().sight_radius;
    default_lf_clear_path: bool = crate::behaviours::LeaderFollowingParams::default().clear_path;
    default_interpose_slow_radius: f32 = crate::behaviours::InterposeParams::default().slow_radius;
    default_hide_distance_from_boundary: f32 =
        crate::behaviours::HideParams::default().distance_from_boundary;
    default_hide_slow_radius: f32 = crate::behaviours::HideParams::default().slow_radius;
    default_max_rotation: f32 = crate::behaviours::FaceParams::default().max_rotation;
    default_slow_angle: f32 = crate::behaviours::FaceParams::default().slow_angle;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(name: &str) -> PathSegment {
        PathSegment::Key(name.to_string())
    }

    #[test]
    fn vectors_accept_two_or_three_numbers() {
        let v: SceneVec = serde_json::from_str("[1, 2]").unwrap();
        assert_eq!(v, SceneVec(Vec3::new(1.0, 2.0, 0.0)));
        let v: SceneVec = serde_json::from_str("[1, 2.5, -3]").unwrap();
        assert_eq!(v, SceneVec(Vec3::new(1.0, 2.5, -3.0)));
    }

    #[test]
    fn vectors_of_other_lengths_are_refused() {
        for (text, message) in [
            ("[]", "expected [x, y] or [x, y, z], got 0 numbers"),
            ("[1]", "expected [x, y] or [x, y, z], got 1 number"),
            ("[1, 2, 3, 4]", "expected [x, y] or [x, y, z], got 4 numbers"),
            ("{\"x\": 1}", "invalid type: map, expected [x, y] or [x, y, z]"),
            ("7", "invalid type: integer `7`, expected [x, y] or [x, y, z]"),
        ] {
            let err = serde_json::from_str::<SceneVec>(text).unwrap_err().to_string();
            assert!(err.starts_with(message), "{text}: {err}");
        }
    }

    #[test]
    fn vectors_are_written_short_when_flat() {
        assert_eq!(serde_json::to_string(&SceneVec(Vec3::new(1.5, -2.0, 0.0))).unwrap(), "[1.5,-2.0]");
        assert_eq!(serde_json::to_string(&SceneVec(Vec3::new(1.0, 2.0, 3.0))).unwrap(), "[1.0,2.0,3.0]");
    }

    #[test]
    fn omitted_behaviour_parameters_take_the_param_defaults() {
        let spec = behaviour_from_value(json!({"type": "arrive", "target": "flag"})).unwrap();
        let defaults = ArriveParams::default();
        assert_eq!(
            spec,
            BehaviourSpec::Arrive(ArriveSpec {
                target: "flag".into(),
                target_radius: defaults.target_radius,
                slow_radius: defaults.slow_radius,
                time_to_target: defaults.time_to_target,
                braking_cap: defaults.braking_cap,
            })
        );
        let spec = behaviour_from_value(json!({"type": "planner"})).unwrap();
        let defaults = PlannerParams::default();
        let BehaviourSpec::Planner(planner) = spec else { panic!("not a planner") };
        assert_eq!(planner.iteration_limit, defaults.iteration_limit);
        assert_eq!(planner.replan_interval, defaults.replan_interval);
        assert!(planner.waypoints.is_empty());
    }

    #[test]
    fn behaviour_errors_carry_the_inner_path() {
        let err = behaviour_from_value(json!({"type": "predictive", "path": "p", "path_radius": "wide"}));
        assert_eq!(
            err,
            Err((vec![key("path_radius")], "invalid type: string \"wide\", expected a number".to_string()))
        );
        let err = behaviour_from_value(json!({"type": "planner", "waypoints": [[0, 0], [1, "x"]]}));
        assert_eq!(
            err.map_err(|(path, _)| path),
            Err(vec![key("waypoints"), PathSegment::Index(1), PathSegment::Index(1)])
        );
    }

    #[test]
    fn unknown_behaviour_type_names_the_allowed_ones() {
        let (path, reason) = behaviour_from_value(json!({"type": "zigzag"})).unwrap_err();
        assert_eq!(path, vec![key("type")]);
        assert_eq!(
            reason,
            "unknown behaviour type `zigzag`, expected one of `seek`, `flee`, `arrive`, `parametric`, \
             `waypoints`, `projected`, `predictive`, `planner`, `avoid_obstacles`, `pursuit`, `evade`, `wander`, \
             `flocking`, `collision_avoidance`, `offset_pursuit`, `containment`, `flow_field`, \
             `leader_following`, `interpose`, `hide`, `face`, `look_where_you_are_going`"
        );
    }

    #[test]
    fn missing_or_mistyped_tags_are_refused() {
        let (path, reason) = curve_from_value(json!({"id": "c"})).unwrap_err();
        assert!(path.is_empty());
        assert!(reason.starts_with("missing field `kind`"), "{reason}");
        let (path, reason) = curve_from_value(json!({"id": "c", "kind": 3})).unwrap_err();
        assert_eq!(path, vec![key("kind")]);
        assert_eq!(reason, "expected a string naming the curve kind, got the number 3");
        let (path, reason) = curve_from_value(json!("circle")).unwrap_err();
        assert!(path.is_empty());
        assert_eq!(reason, "expected an object with a `kind` field, got the string \"circle\"");
    }

    #[test]
    fn the_tag_is_not_an_unknown_field_but_others_are() {
        let (path, reason) =
            curve_from_value(json!({"kind": "circle", "id": "c", "radius": 1, "colour": 2})).unwrap_err();
        assert_eq!(path, vec![key("colour")]);
        assert!(reason.starts_with("unknown field `colour`"), "{reason}");
    }

    #[test]
    fn tagged_enums_serialise_with_the_tag_first() {
        let spec = CurveSpec::Circle(CircleSpec { id: "c".into(), center: SceneVec::default(), radius: 2.0 });
        assert_eq!(
            serde_json::to_string(&spec).unwrap(),
            r#"{"kind":"circle","id":"c","center":[0.0,0.0],"radius":2.0}"#
        );
        let spec = BehaviourSpec::Seek(KinematicSpec { target: "t".into() });
        assert_eq!(serde_json::to_string(&spec).unwrap(), r#"{"type":"seek","target":"t"}"#);
    }

    #[test]
    fn plain_serde_users_see_the_inner_path_in_the_message() {
        let err = serde_json::from_value::<BehaviourSpec>(json!({"type": "seek", "target": 5})).unwrap_err();
        assert_eq!(err.to_string(), "target: invalid type: integer `5`, expected a string");
    }
}
