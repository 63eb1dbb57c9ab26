//! The simulation: a [`World`] of agents, targets, obstacles, paths and curves, advanced by
//! [`World::step`] in fixed steps of `dt` seconds.
//!
//! The world never reads a clock and holds no randomness of its own beyond a seeded generator,
//! so the same scene stepped the same number of times gives a bit-identical result. Each step:
//! 1. targets and obstacles move with their velocities (bouncing inside the world's bounds);
//! 2. every agent asks its list of behaviours for a [`Steering`] (each a pure function of its
//!    state), combined by weighted blending or by priority ([`Mix`]);
//! 3. every agent integrates its request within its limits (semi-implicit Euler: velocity first,
//!    then position), its metrics are accumulated, events (arrived, collision) recorded, and a
//!    predictive follower observes where it now is on its path for the next step.
//!
//! Steps 2 and 3 are two passes over each block of 512 agents. Agents never read one another
//! within a step, so this is the same as one pass, but each pass's work per agent is a shorter
//! chain of dependent arithmetic, which the processor overlaps with the next agent's (measured
//! faster on 10,000 predictive followers than one pass), and a block is still in the cache for
//! its second pass (a crowd beyond the caches is read from memory once a step). Before them, one
//! walk over the agents finds what the step needs (a snapshot of the agents, a neighbour grid). The per-agent functions of the step are
//! always inlined, so the compiler's inlining choices cannot swing the speed between builds.
//!
//! The editor (`app`) changes the world through its public fields between steps; indices that
//! no longer resolve (a deleted path) make the agent stand still rather than panic.

use glam::Vec3;
use rayon::prelude::*;

use crate::behaviours::collision_avoidance::{self, CollisionAvoidanceParams};
use crate::behaviours::containment::{self, ContainmentParams};
use crate::behaviours::flocking::{self, FlockingParams};
use crate::behaviours::flow_field::{self, FieldSource, FlowFieldParams};
use crate::behaviours::neighbourhood::{Neighbour, NeighbourSource};
use crate::behaviours::offset_pursuit::{self, OffsetPursuitParams};
use crate::behaviours::{
    self, arrive, avoid, detour, evade, kinematic, parametric, predictive, projected, pursuit, wander,
    waypoints, AvoidParams, Gizmos, Kinematics, Limits, Steering,
};
use crate::behaviours::{
    face::{self, FaceParams},
    hide::{self, HideParams},
    interpose::{self, InterposeParams},
    leader_following::{self, LeaderFollowingParams},
};
use crate::geometry::{Curve, Polyline, Sphere};
use crate::planner;

mod metrics;
mod mix;
pub mod neighbours;

pub use metrics::{
    sight_blocked, AgentMetrics, CrowdMetrics, FormationMetrics, HeadingSum, HideMetrics, LeaderMetrics,
    MetricsSummary, ParametricMetrics, PathMetrics, PlannerMetrics, Polarization, PursuitMetrics,
    NULLABLE_METRICS,
};
pub use mix::{Combine, Entry, Mix, MixBox, Slot, MAX_BEHAVIOURS};

pub use crate::behaviours::{
    ArriveParams, ParametricParams, ParametricState, PredictiveParams, PredictiveState, ProjectedParams,
    ProjectedState, PursuitParams, WanderParams, WanderState, WaypointsParams, WaypointsState,
};
pub use crate::planner::{PlannerParams, ShipState};

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
    /// Parses `#rrggbb` (case-insensitive); None for anything else.
    pub fn from_hex(text: &str) -> Option<Rgb> {
        let hex = text.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let channel = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        Some(Rgb(channel(0)?, channel(2)?, channel(4)?))
    }
}

/// A polyline path with the id scenes refer to it by.
#[derive(Clone, Debug)]
pub struct NamedPath {
    /// Id in the scene file.
    pub id: String,
    /// The geometry.
    pub polyline: Polyline,
    /// Channel half-width drawn around the path and used by the `time_outside_radius` metric.
    pub radius: f32,
}

/// A painted flow field with its id (the scene's `fields`).
#[derive(Clone, Debug, PartialEq)]
pub struct NamedField {
    /// Id in the scene file.
    pub id: String,
    /// The grid of vectors, shared between copies of the world (keyframes of the timeline and
    /// undo snapshots hold the same grid until it is painted: `Arc::make_mut`).
    pub field: std::sync::Arc<flow_field::FlowField>,
}

/// A parametric curve with its id.
#[derive(Clone, Debug)]
pub struct NamedCurve {
    /// Id in the scene file.
    pub id: String,
    /// The curve.
    pub curve: Curve,
}

/// A point agents seek, flee or arrive at; it may move.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// Id in the scene file.
    pub id: String,
    /// Current position.
    pub position: Vec3,
    /// Velocity in units per second (bounces inside the world bounds).
    pub velocity: Vec3,
    /// Position and velocity at the scene's start (for reset).
    pub start: (Vec3, Vec3),
}

/// A sphere obstacle (a circle in 2D scenes); it may move.
#[derive(Clone, Debug, PartialEq)]
pub struct Obstacle {
    /// Current centre.
    pub position: Vec3,
    /// Radius in world units.
    pub radius: f32,
    /// Velocity in units per second (bounces inside the world bounds).
    pub velocity: Vec3,
    /// Position and velocity at the scene's start (for reset).
    pub start: (Vec3, Vec3),
}

impl Obstacle {
    /// An obstacle at rest at `position`, from the start.
    pub fn still(position: Vec3, radius: f32) -> Obstacle {
        Obstacle { position, radius, velocity: Vec3::ZERO, start: (position, Vec3::ZERO) }
    }
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

/// What an agent does, with references resolved to indices into the world's lists.
#[derive(Clone, Debug, PartialEq)]
pub enum Behaviour {
    /// Kinematic seek (seed 001).
    Seek {
        /// Index into `World::targets`.
        target: usize,
    },
    /// Kinematic flee (seed 001).
    Flee {
        /// Index into `World::targets`.
        target: usize,
    },
    /// Dynamic arrive (seed 001).
    Arrive {
        /// Index into `World::targets`.
        target: usize,
        /// Radii and time to target.
        params: ArriveParams,
    },
    /// Parametric curve following (seed 000).
    Parametric {
        /// Index into `World::curves`.
        curve: usize,
        /// Speed, delta T, T0, method.
        params: ParametricParams,
    },
    /// Waypoints with a node radius (seed 002's baseline).
    Waypoints {
        /// Index into `World::paths`.
        path: usize,
        /// Node radius and closest-node variant.
        params: WaypointsParams,
    },
    /// Projected path following (seed 002).
    Projected {
        /// Index into `World::paths`.
        path: usize,
        /// Offset ahead of the projection.
        params: ProjectedParams,
    },
    /// Predictive path following (seed 002 / Reynolds).
    Predictive {
        /// Index into `World::paths`.
        path: usize,
        /// Prediction time and channel radius.
        params: PredictiveParams,
    },
    /// The 3D waypoint planner and its ship (seed 004).
    Planner {
        /// Waypoints, clearance, iteration limit, replan interval, arrival radius (boxed: 64
        /// bytes, the size of every agent's record were it inline; see [`Agent`]).
        params: Box<PlannerParams>,
    },
    /// Obstacle avoidance (Reynolds): a probe along the velocity, a lateral push away from the
    /// first obstacle it meets. Usually an entry of higher priority than the agent's main one.
    AvoidObstacles {
        /// Look-ahead and margin.
        params: AvoidParams,
    },
    /// Pursuit of another agent (Reynolds): seek where it will be.
    Pursuit {
        /// Index into `World::agents` of the agent pursued.
        agent: usize,
        /// The cap on the prediction time.
        params: PursuitParams,
    },
    /// Evasion of another agent (Reynolds): flee from where it will be.
    Evade {
        /// Index into `World::agents` of the agent evaded.
        agent: usize,
        /// The cap on the prediction time (the same declaration as pursuit's).
        params: PursuitParams,
    },
    /// Wander (Reynolds): a target jittered on a circle ahead, from the agent's own seed.
    Wander {
        /// Circle radius and distance, jitter rate, seed.
        params: WanderParams,
    },
    /// Flocking (Reynolds' boids): separation, alignment and cohesion over the agents near it,
    /// found through the world's spatial hash.
    Flocking {
        /// The three weights, the radii and the view cone.
        params: FlockingParams,
    },
    /// Agent–agent collision avoidance (OpenSteer's unaligned collision avoidance): swerve from
    /// the earliest predicted close approach. Usually an entry of higher priority.
    CollisionAvoidance {
        /// Horizon and margin.
        params: CollisionAvoidanceParams,
    },
    /// Offset pursuit (Reynolds): hold a slot in another agent's (the leader's) frame, for
    /// formations.
    OffsetPursuit {
        /// Index into `World::agents` of the leader.
        agent: usize,
        /// The slot (ahead, left) and the approach time.
        params: OffsetPursuitParams,
    },
    /// Containment (Reynolds; Yuka's wall avoidance): stay inside a region, the polygon of a
    /// path's points. Usually an entry of higher priority than the agent's main one.
    Containment {
        /// Index into `World::paths` of the region's outline.
        region: usize,
        /// Look-ahead and margin.
        params: ContainmentParams,
    },
    /// Flow-field following (Reynolds): steer along a field, seeded noise, along a path or
    /// painted.
    FlowField {
        /// Index into `World::paths` of the path the field runs along; None: a noise field
        /// (unless `field` names a painted one).
        path: Option<usize>,
        /// Index into `World::fields` of the painted field read; None: noise or a path.
        field: Option<usize>,
        /// Look-ahead and the field's parameters.
        params: FlowFieldParams,
    },
    /// Leader following (Reynolds): trail a point behind another agent (the leader) and step
    /// out of its way when in front of it. Separation from other followers is a `flocking`
    /// entry with only its separation weight.
    LeaderFollowing {
        /// Index into `World::agents` of the leader.
        agent: usize,
        /// Distance behind, the zone kept clear ahead of the leader, approach time.
        params: LeaderFollowingParams,
    },
    /// Interpose (Buckland): get between two other agents.
    Interpose {
        /// Index into `World::agents` of the first agent.
        agent: usize,
        /// Index into `World::agents` of the second agent.
        other: usize,
        /// The slow radius.
        params: InterposeParams,
    },
    /// Hide (Buckland): put one of the world's obstacles between the agent and a hunter.
    Hide {
        /// Index into `World::agents` of the hunter.
        agent: usize,
        /// Clearance behind the obstacle and the slow radius.
        params: HideParams,
    },
    /// Face (Millington): turn the heading toward another agent at a bounded turn rate. Changes
    /// only the orientation (no linear request): an entry beside a moving behaviour.
    Face {
        /// Index into `World::agents` of the agent faced.
        agent: usize,
        /// Turn rate and slow angle.
        params: FaceParams,
    },
    /// Look where you are going (Millington): turn the heading toward the velocity at a bounded
    /// turn rate instead of snapping it (seed 001). Changes only the orientation.
    LookWhereYouAreGoing {
        /// Turn rate and slow angle.
        params: FaceParams,
    },
}

impl Behaviour {
    /// The scene-file name of the behaviour type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Behaviour::Seek { .. } => "seek",
            Behaviour::Flee { .. } => "flee",
            Behaviour::Arrive { .. } => "arrive",
            Behaviour::Parametric { .. } => "parametric",
            Behaviour::Waypoints { .. } => "waypoints",
            Behaviour::Projected { .. } => "projected",
            Behaviour::Predictive { .. } => "predictive",
            Behaviour::Planner { .. } => "planner",
            Behaviour::AvoidObstacles { .. } => "avoid_obstacles",
            Behaviour::Pursuit { .. } => "pursuit",
            Behaviour::Evade { .. } => "evade",
            Behaviour::Wander { .. } => "wander",
            Behaviour::Flocking { .. } => "flocking",
            Behaviour::CollisionAvoidance { .. } => "collision_avoidance",
            Behaviour::OffsetPursuit { .. } => "offset_pursuit",
            Behaviour::Containment { .. } => "containment",
            Behaviour::FlowField { .. } => "flow_field",
            Behaviour::LeaderFollowing { .. } => "leader_following",
            Behaviour::Interpose { .. } => "interpose",
            Behaviour::Hide { .. } => "hide",
            Behaviour::Face { .. } => "face",
            Behaviour::LookWhereYouAreGoing { .. } => "look_where_you_are_going",
        }
    }
    /// Whether the behaviour reads other agents (pursuit, flocking, …): then the step takes a
    /// snapshot of every agent's kinematics first, so that the order of agents never matters.
    pub fn reads_other_agents(&self) -> bool {
        match self {
            Behaviour::Seek { .. }
            | Behaviour::Flee { .. }
            | Behaviour::Arrive { .. }
            | Behaviour::Parametric { .. }
            | Behaviour::Waypoints { .. }
            | Behaviour::Projected { .. }
            | Behaviour::Predictive { .. }
            | Behaviour::Planner { .. }
            | Behaviour::AvoidObstacles { .. }
            | Behaviour::Wander { .. }
            | Behaviour::Containment { .. }
            | Behaviour::FlowField { .. }
            | Behaviour::LookWhereYouAreGoing { .. } => false,
            Behaviour::Pursuit { .. }
            | Behaviour::Evade { .. }
            | Behaviour::Flocking { .. }
            | Behaviour::CollisionAvoidance { .. }
            | Behaviour::OffsetPursuit { .. }
            | Behaviour::LeaderFollowing { .. }
            | Behaviour::Interpose { .. }
            | Behaviour::Hide { .. }
            | Behaviour::Face { .. } => true,
        }
    }

    /// Whether the behaviour only turns the agent's heading (face, look where you are going):
    /// it makes no linear request and takes no part in blending or priority; the step turns the
    /// heading by the first such entry instead of snapping it to the velocity.
    pub fn turns_only(&self) -> bool {
        matches!(self, Behaviour::Face { .. } | Behaviour::LookWhereYouAreGoing { .. })
    }

    /// Whether the behaviour asks the world's spatial hash for its neighbours (then the step
    /// rebuilds the hash first).
    pub fn needs_neighbours(&self) -> bool {
        matches!(self, Behaviour::Flocking { .. } | Behaviour::CollisionAvoidance { .. })
    }

    /// The other agent a pursuer or evader reacts to (index into `World::agents`); interpose's
    /// first agent.
    pub fn other_agent(&self) -> Option<usize> {
        match self {
            Behaviour::Pursuit { agent, .. }
            | Behaviour::Evade { agent, .. }
            | Behaviour::OffsetPursuit { agent, .. }
            | Behaviour::LeaderFollowing { agent, .. }
            | Behaviour::Interpose { agent, .. }
            | Behaviour::Hide { agent, .. }
            | Behaviour::Face { agent, .. } => Some(*agent),
            _ => None,
        }
    }

    /// The other agent's index, to re-point it (after agents were deleted).
    pub fn other_agent_mut(&mut self) -> Option<&mut usize> {
        match self {
            Behaviour::Pursuit { agent, .. }
            | Behaviour::Evade { agent, .. }
            | Behaviour::OffsetPursuit { agent, .. }
            | Behaviour::LeaderFollowing { agent, .. }
            | Behaviour::Interpose { agent, .. }
            | Behaviour::Hide { agent, .. }
            | Behaviour::Face { agent, .. } => Some(agent),
            _ => None,
        }
    }

    /// A second agent the behaviour reacts to (interpose's second agent).
    pub fn second_agent(&self) -> Option<usize> {
        match self {
            Behaviour::Interpose { other, .. } => Some(*other),
            _ => None,
        }
    }

    /// The second agent's index, to re-point it.
    pub fn second_agent_mut(&mut self) -> Option<&mut usize> {
        match self {
            Behaviour::Interpose { other, .. } => Some(other),
            _ => None,
        }
    }

    /// Whether the behaviour refers to some other agent by its index (first or second
    /// reference). The step no longer needs it (it reads a named agent at its place, wherever
    /// it is stored); a tool that renumbers the agents does (`step_cpu --space-order`).
    pub fn names_an_agent(&self) -> bool {
        self.other_agent().is_some() || self.second_agent().is_some()
    }

    /// Whether the behaviour refers to agent `idx` (first or second reference).
    pub fn refers_to_agent(&self, idx: usize) -> bool {
        self.other_agent() == Some(idx) || self.second_agent() == Some(idx)
    }

    /// The path index of a path follower, a containment region or a flow field along a path,
    /// to re-point it (after paths were deleted).
    pub fn path_mut(&mut self) -> Option<&mut usize> {
        match self {
            Behaviour::Waypoints { path, .. }
            | Behaviour::Projected { path, .. }
            | Behaviour::Predictive { path, .. }
            | Behaviour::Containment { region: path, .. } => Some(path),
            Behaviour::FlowField { path, .. } => path.as_mut(),
            _ => None,
        }
    }
    /// The target index of seek, flee and arrive, to re-point it.
    pub fn target_mut(&mut self) -> Option<&mut usize> {
        match self {
            Behaviour::Seek { target } | Behaviour::Flee { target } | Behaviour::Arrive { target, .. } => {
                Some(target)
            }
            _ => None,
        }
    }
    /// The curve index of a parametric follower, to re-point it.
    pub fn curve_mut(&mut self) -> Option<&mut usize> {
        match self {
            Behaviour::Parametric { curve, .. } => Some(curve),
            _ => None,
        }
    }

    /// The path a path follower follows, a containment's region, or the path a flow field
    /// runs along.
    pub fn path(&self) -> Option<usize> {
        match self {
            Behaviour::Waypoints { path, .. }
            | Behaviour::Projected { path, .. }
            | Behaviour::Predictive { path, .. }
            | Behaviour::Containment { region: path, .. } => Some(*path),
            Behaviour::FlowField { path, .. } => *path,
            _ => None,
        }
    }

    /// Whether the behaviour follows a path (waypoints, projected, predictive): the path
    /// metrics judge it against that path.
    pub fn follows_path(&self) -> bool {
        matches!(
            self,
            Behaviour::Waypoints { .. } | Behaviour::Projected { .. } | Behaviour::Predictive { .. }
        )
    }
    /// The target of seek, flee and arrive.
    pub fn target(&self) -> Option<usize> {
        match self {
            Behaviour::Seek { target } | Behaviour::Flee { target } | Behaviour::Arrive { target, .. } => {
                Some(*target)
            }
            _ => None,
        }
    }
    /// The curve a parametric follower follows.
    pub fn curve(&self) -> Option<usize> {
        match self {
            Behaviour::Parametric { curve, .. } => Some(*curve),
            _ => None,
        }
    }
}

/// A behaviour's memory between steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum BehaviourState {
    /// Seek, flee and arrive remember nothing.
    #[default]
    Stateless,
    /// The parameter T.
    Parametric(ParametricState),
    /// The current node.
    Waypoints(WaypointsState),
    /// The current segment.
    Projected(ProjectedState),
    /// The projection cursors and the observation made ahead (boxed: 152 bytes, the size of
    /// every agent's record were it inline; see [`Agent`]).
    Predictive(Box<PredictiveState>),
    /// The ship's plan and counters.
    Planner(Box<ShipState>),
    /// Wander's generator and target on its circle.
    Wander(WanderState),
    /// Offset pursuit: where the slot was last step.
    Slot(offset_pursuit::SlotTracker),
    /// Flocking: scratch within a step (see [`FlockState`]).
    Flock(FlockState),
    /// Collision avoidance: the agent's slot in the step's neighbour grid (written before it
    /// steers, like [`FlockState`]'s), where it finds the walk taken before the step when every
    /// agent avoids with the same parameters (`World::walk_avoidance`).
    Avoid(Option<u32>),
}

/// A flocking entry's scratch within one step: the agent's slot in the step's neighbour grid
/// (written before it steers) and the crowd metrics' sample that its walk over the neighbours
/// took on the way (taken by the metrics once it has moved), so that the crowd metrics need no
/// second walk when their radius is the walk's. Empty between steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockState {
    slot: Option<u32>,
    crowd: Option<metrics::CrowdSample>,
}

impl BehaviourState {
    /// The state a behaviour starts with.
    pub fn start(behaviour: &Behaviour) -> BehaviourState {
        match behaviour {
            Behaviour::Seek { .. }
            | Behaviour::Flee { .. }
            | Behaviour::Arrive { .. }
            | Behaviour::AvoidObstacles { .. }
            | Behaviour::Pursuit { .. }
            | Behaviour::Evade { .. }
            | Behaviour::Containment { .. }
            | Behaviour::FlowField { .. }
            | Behaviour::LeaderFollowing { .. }
            | Behaviour::Interpose { .. }
            | Behaviour::Hide { .. }
            | Behaviour::Face { .. }
            | Behaviour::LookWhereYouAreGoing { .. } => BehaviourState::Stateless,
            Behaviour::CollisionAvoidance { .. } => BehaviourState::Avoid(None),
            Behaviour::OffsetPursuit { .. } => BehaviourState::Slot(offset_pursuit::SlotTracker::default()),
            Behaviour::Flocking { .. } => BehaviourState::Flock(FlockState::default()),
            Behaviour::Parametric { params, .. } => {
                BehaviourState::Parametric(ParametricState::start(params))
            }
            Behaviour::Waypoints { .. } => BehaviourState::Waypoints(WaypointsState::default()),
            Behaviour::Projected { .. } => BehaviourState::Projected(ProjectedState::default()),
            Behaviour::Predictive { .. } => BehaviourState::Predictive(Box::default()),
            Behaviour::Planner { params } => BehaviourState::Planner(Box::new(ShipState::new(params))),
            Behaviour::Wander { params } => BehaviourState::Wander(WanderState::new(u64::from(params.seed))),
        }
    }
}

/// One moving agent.
///
/// Laid out in the order written (`repr(C)`), what every agent's step reads first: the agents
/// of a big crowd are walked far beyond the caches, and a step pays for every 64-byte line of
/// the record it touches. A seeking agent's step touches the kinematics, limits, gizmos, list,
/// main behaviour and the metrics' every-step part, all within the first 168 bytes; the
/// behaviour's state follows (a path follower's cursors), then what a step never reads.
/// With the metrics' rare part boxed (736 -> 560 bytes), measured by callgrind's cache
/// simulation (32 MiB last level, one thread, 1,000,000 agents, 2026-11-24): cache lines
/// missed per agent-step, seek 11.5 -> 10.5, predictive 18.1 -> 17.4. Then 560 -> 344 bytes
/// (gizmos one pointer, none when off; the predictive state and the metrics' path accumulator
/// boxed; the detour's obstacle index a `u32`), on-CPU ns per agent-step, one thread,
/// 1k / 100k / 1M agents (`examples/step_cpu`, 2026-11-25): seek 30 / 87 / 85-90 ->
/// 30 / 44 / 44-46, pursuit 50 / 102 / 104-108 -> 49 / 60 / 68. A model of the walk in C
/// put the cost on the record's stride: five lines touched in a 576-byte record cost 30 ns a
/// record, in a 320-byte record 12 ns. Then 344 -> 288 bytes (name, colour and start apart, in
/// [`About`]; on-CPU ns per agent-step, one thread, 1k / 1M agents, two alternating rounds,
/// 2026-11-26, the clock of `bench::thread_cpu_ns`): seek 35.7-37.2 / 40.5-41.0 -> 35.5 /
/// 40.1, pursuit 56.7-57.1 / 67.1-67.9 -> 56.1-56.9 / 64.7-65.4, evade 58.9-59.3 / 81.1-81.6
/// -> 59.4-60.4 / 82.7-85.3, arrive, predictive and wander within 1%: the step no longer pays
/// for the record's bytes. `the_agent_record_stays_compact` guards the size. Then 288 -> 208
/// bytes, on the Intel Xeon of 2026-11-28, whose memory streams slower than the EPYC's, so that
/// there the record's bytes were again what a big crowd's step paid for (seek 1.31x from 1,000
/// to 1,000,000 agents; 48 and 96 bytes of padding added 4 and 9 ns at 1,000,000): the list
/// behind one pointer, none for an agent of one blended behaviour ([`MixBox`]: 64 -> 8), the
/// planner's parameters boxed (the behaviour 64 -> 48), the arrival time a plain number (the
/// metrics 72 -> 64). On-CPU ns per agent-step, one thread, 1k / 100k / 1M agents, two
/// alternating rounds, 2026-11-29 (`examples/step_cpu`): seek 29.4 / 33.4-35.4 / 38.4-38.7 ->
/// 28.1 / 30.1 / 32.1-32.2, arrive 37.0-37.9 / 43.3-44.3 / 46.0-46.1 -> 35.4-35.9 / 36.8-39.2
/// / 40.0, pursuit 45.8-46.8 / 53.5-60.7 / 57.3-57.6 -> 44.8-47.7 / 48.9-50.2 / 51.2-51.9,
/// evade 56.2-57.1 / 69.4-69.7 / 67.4-67.6 -> 50.8-51.5 / 58.9-59.9 / 59.8-60.7 (the first
/// two cuts, 216 bytes).
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Agent {
    /// Position, velocity, heading.
    pub kinematics: Kinematics,
    /// Radius, max speed, max acceleration.
    pub limits: Limits,
    /// Gizmos of the last step (recorded only when the world's gizmos are on).
    pub gizmos: Gizmos,
    /// The rest of the list and how the list is combined (see [`Mix`]; its list last, beside
    /// the main behaviour).
    pub mix: MixBox,
    /// What it does: the first entry of its list of behaviours (its main behaviour, the one
    /// whose target, path or curve it follows and that the metrics judge).
    pub behaviour: Behaviour,
    /// Metrics accumulated since the last reset.
    pub metrics: AgentMetrics,
    /// The main behaviour's memory.
    pub state: BehaviourState,
    /// What no step reads: its name, colour and start, kept apart so that a crowd's step
    /// streams only what it reads (see [`About`]).
    pub about: Box<About>,
}

/// What no step of an agent reads, kept apart from its record ([`Agent::about`]): the hot/cold
/// split of the record. The step walks every record of a crowd, so every byte in the record
/// is a byte streamed from memory each step, read or not.
#[derive(Clone, Debug, PartialEq)]
pub struct About {
    /// Display name (unique names make traces and metrics easier to read).
    pub name: String,
    /// Colour in the window.
    pub color: Rgb,
    /// Kinematics at the scene's start (for reset).
    pub start: Kinematics,
}

impl Agent {
    /// Asks the processor to fetch what a step reads of this agent outside its record: the
    /// main behaviour's boxed state and the metrics' path accumulator (see [`step_agents`]).
    #[inline(always)]
    fn prefetch_apart(&self) {
        if let BehaviourState::Predictive(state) = &self.state {
            crate::behaviours::branchless::prefetch(
                &**state,
                0,
                std::mem::size_of::<PredictiveState>().div_ceil(64),
            );
        }
        self.metrics.prefetch_apart();
    }

    /// A new agent at rest at its start.
    pub fn new(name: String, color: Rgb, start: Kinematics, limits: Limits, behaviour: Behaviour) -> Agent {
        let state = BehaviourState::start(&behaviour);
        Agent {
            kinematics: start,
            limits,
            behaviour,
            state,
            mix: MixBox::default(),
            metrics: AgentMetrics::default(),
            gizmos: Gizmos::disabled(),
            about: Box::new(About { name, color, start }),
        }
    }

    /// Whether one of the agent's entries reads its neighbours (flocking, collision avoidance).
    pub fn needs_neighbours(&self) -> bool {
        self.behaviour.needs_neighbours() || self.mix.more.iter().any(|e| e.behaviour.needs_neighbours())
    }

    /// The agent's behaviours in list order: the main one, then every further entry's.
    pub fn behaviours(&self) -> impl Iterator<Item = &Behaviour> {
        std::iter::once(&self.behaviour).chain(self.mix.more.iter().map(|entry| &entry.behaviour))
    }

    /// Whether one of the agent's entries is flocking (it counts in the flock's polarization).
    pub fn has_flocking(&self) -> bool {
        matches!(self.behaviour, Behaviour::Flocking { .. })
            || self.mix.more.iter().any(|e| matches!(e.behaviour, Behaviour::Flocking { .. }))
    }

    /// Whether one of the agent's entries is obstacle avoidance.
    pub fn avoids_obstacles(&self) -> bool {
        matches!(self.behaviour, Behaviour::AvoidObstacles { .. })
            || self.mix.more.iter().any(|entry| matches!(entry.behaviour, Behaviour::AvoidObstacles { .. }))
    }

    /// Turns obstacle avoidance on (an entry in a priority group before every other, with the
    /// list combined by priority) or off (every avoidance entry removed).
    pub fn set_avoid_obstacles(&mut self, on: bool, params: AvoidParams) {
        if on == self.avoids_obstacles() {
            return;
        }
        let mix = self.mix.edit();
        if on {
            let first_group = mix.more.iter().map(|e| e.slot.group).chain([mix.main.group]).min();
            let group = first_group.unwrap_or(0);
            if group == 0 {
                mix.main.group += 1;
                for entry in &mut mix.more {
                    entry.slot.group += 1;
                }
            }
            mix.combine = Combine::Priority { threshold: Combine::DEFAULT_THRESHOLD };
            let avoid = Behaviour::AvoidObstacles { params };
            mix.more.push(Entry::new(avoid, Slot { weight: 1.0, group: 0 }));
        } else {
            mix.more.retain(|entry| !matches!(entry.behaviour, Behaviour::AvoidObstacles { .. }));
        }
    }

    /// Whether the agent's behaviour has finished (arrived, end of an open path or curve, no
    /// planner waypoint left: each reached or dropped as unreachable).
    pub fn is_finished(&self) -> bool {
        match &self.state {
            BehaviourState::Stateless
            | BehaviourState::Wander(_)
            | BehaviourState::Slot(_)
            | BehaviourState::Flock(_)
            | BehaviourState::Avoid(_) => false,
            BehaviourState::Parametric(s) => s.finished,
            BehaviourState::Waypoints(s) => s.finished,
            BehaviourState::Projected(s) => s.finished,
            BehaviourState::Predictive(s) => s.finished,
            BehaviourState::Planner(s) => s.finished,
        }
    }

    /// Whether the agent has finished by getting where it was going, what the metrics'
    /// `arrived_at` records: [`Agent::is_finished`], except that a planner ship counts only when
    /// its status is `arrived` — a ship that dropped waypoints as unreachable has finished
    /// without arriving.
    pub fn has_arrived_at_end(&self) -> bool {
        match &self.state {
            BehaviourState::Planner(s) => s.status() == crate::planner::ShipStatus::Arrived,
            _ => self.is_finished(),
        }
    }
}

/// What happened to whom in a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EventKind {
    /// The agent arrived (arrive: inside the target radius; seek: touching the target; path and
    /// curve followers: end of an open path or curve; planner: last waypoint reached).
    Arrived,
    /// The agent entered this obstacle (index into `World::obstacles`).
    Collision(usize),
}

/// An event of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Event {
    /// Simulated time at the end of the step, in seconds.
    pub time: f64,
    /// Index of the agent in `World::agents`.
    pub agent: usize,
    /// What happened.
    pub kind: EventKind,
}

/// What every agent's step reads, from a world whose snapshot and grid are made (a macro, so
/// that it borrows the world's fields, not the world: the step then moves the agents).
macro_rules! step_context {
    ($world:expr, $fastest_speed:expr, $time:expr, $touch_runs:expr) => {
        StepContext {
            dt: $world.dt,
            time: $time,
            paths: &$world.paths,
            fields: &$world.fields,
            curves: &$world.curves,
            targets: &$world.targets,
            spheres: &$world.spheres,
            agents: &$world.snapshot,
            places: &$world.agents.place,
            grid: &$world.grid,
            radii: &$world.radii,
            slot_headings: &$world.slot_headings,
            slot_radii: &$world.slot_radii,
            slot_of: &$world.slot_of,
            flock_walks: &$world.flock_walks,
            flock_rules: $world.flock_rules.as_ref(),
            slot_kinematics: &$world.slot_kinematics,
            avoid_walks: &$world.avoid_walks,
            fastest_speed: $fastest_speed,
            touch_runs: $touch_runs,
            bounds: $world.bounds.map(|b| planner::BounceBox { min: b.min, max: b.max }),
        }
    };
}

/// Which agents record their gizmos while gizmos are on ([`World::set_gizmo_focus`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GizmoFocus {
    /// Every agent (the default).
    #[default]
    All,
    /// Only this agent (None: no agent).
    Only(Option<usize>),
}

impl GizmoFocus {
    /// Whether agent `idx` records its gizmos.
    pub fn includes(self, idx: usize) -> bool {
        match self {
            GizmoFocus::All => true,
            GizmoFocus::Only(only) => only == Some(idx),
        }
    }
}

/// A world's agents: to every reader and writer a list by agent index (`len`, `get`, `iter`,
/// indexing, `push`, ... as on a `Vec<Agent>`), whose records a step may store in another order
/// (see "Stored in space order" below), and which also keeps what the agents' lists ask of a
/// step (whether some entry reads other agents, needs neighbours, avoids collisions, the
/// flock's query radius), found by a step's walk over every record and forgotten as soon as an
/// agent is borrowed mutably (any edit, push or reset). A step does not change what the lists
/// ask, so the steps
/// after it skip that walk: a crowd whose entries read no other agent is then walked once a
/// step instead of twice, and a crowd of pursuers walks only the lines its snapshot copies.
///
/// Measured gain (one thread, 1,000,000 agents, 2026-11-25): callgrind's cache simulation
/// (32 MiB last level), last-level misses per agent-step, seek 6.0 -> 4.75, pursuit 9.26 -> 6.76
/// (with the snapshot kept by the moves); on-CPU per agent-step (best of five rounds, the
/// builds before and after alternately, load 5): seek 79 -> 68.5 ns (100,000 agents 76 -> 66),
/// pursuit 108-113 -> 102-104.5, predictive 106.5 -> 98.7, wander 87.6 -> 80.2.
///
/// Stored in space order: the records are stored in `list`, in agent order unless a step put
/// them in the neighbour grid's order (`Agents::store_in_order`); then `place` gives each
/// agent's place in `list` and `index` each place's agent. Readers see agent order either way
/// (`get`, `iter`, indexing translate); what changes the list's shape (`remove`, `insert`,
/// `retain`, ..., `iter_mut`) puts the records back in agent order first
/// ([`Agents::as_mut_vec`]).
#[derive(Default)]
pub struct Agents {
    /// The records, in storage order.
    list: Vec<Agent>,
    /// Each agent's place in `list`, by agent index; empty when `list` is in agent order.
    place: Vec<u32>,
    /// Each place's agent index (the inverse of `place`); empty with it.
    index: Vec<u32>,
    needs: Option<StepNeeds>,
    /// What each place's agent reads of the walks taken before the step ([`walk_reads`]), in
    /// storage order: made when a walk first needs it (a crowd in which not every agent flocks
    /// or avoids), forgotten with `needs`, stored in a new order with the records.
    reads: Vec<u8>,
    /// Every agent's kinematics and body radius as the last step left them, written by each
    /// agent's move when some entry reads other agents (the next step's snapshot, without a
    /// walk to copy it); valid while `kept` is, which a mutable borrow clears with `needs`.
    next_snapshot: Vec<Kinematics>,
    next_radii: Vec<f32>,
    kept: bool,
}

/// A copy whose agents' boxes lie by kind: every list's entries, then every agent's metrics
/// boxes, then every behaviour state's box, every gizmo list, and last every name and colour
/// (`About`), each kind in agent order. Cloned agent by agent (the derived clone), each agent's
/// boxes would lie together, the ones its step reads between the ones it never reads, and a big
/// crowd's step would stream those too.
///
/// Measured gain (one thread, on-CPU ns per agent-step, 1,000 / 100,000 / 1,000,000 agents,
/// two alternating rounds, `examples/step_cpu`, idle, 2026-11-26; `step_cpu` times copies of
/// cloned crowds): predictive 83.3-83.5 / 99.0-100.5 / 94.2-94.5 -> 82.7-83.6 / 90.3-92.1 /
/// 87.6-87.8; flocking 286.5-286.9 / 326.8-329.6 / 334.7-338.6 -> 286.0-286.1 / 319.9-325.7 /
/// 340.5-341.0 (within its noise). A list made into a crowd (a scene read, a crowd spawned) is
/// laid out the same way (`From<Vec<Agent>>`); an agent pushed later (the editor's additions)
/// keeps its boxes together until the next clone (the timeline's keyframes, the undo history
/// and the benchmarks all clone).
impl Clone for Agents {
    fn clone(&self) -> Agents {
        Agents {
            list: by_kind(self.list.iter()),
            place: self.place.clone(),
            index: self.index.clone(),
            needs: self.needs,
            reads: self.reads.clone(),
            next_snapshot: self.next_snapshot.clone(),
            next_radii: self.next_radii.clone(),
            kept: self.kept,
        }
    }
}

/// A copy of `list` (in its order) whose boxes lie by kind, each kind in that order (see [`Agents`]' clone).
fn by_kind<'a>(list: impl Iterator<Item = &'a Agent> + Clone) -> Vec<Agent> {
    let mixes: Vec<MixBox> = list.clone().map(|agent| agent.mix.clone()).collect();
    let metrics: Vec<AgentMetrics> = list.clone().map(|agent| agent.metrics.clone()).collect();
    let states: Vec<BehaviourState> = list.clone().map(|agent| agent.state.clone()).collect();
    let gizmos: Vec<Gizmos> = list.clone().map(|agent| agent.gizmos.clone()).collect();
    let abouts: Vec<Box<About>> = list.clone().map(|agent| agent.about.clone()).collect();
    let parts = mixes.into_iter().zip(metrics).zip(states).zip(gizmos).zip(abouts);
    list.zip(parts)
        .map(|(agent, ((((mix, metrics), state), gizmos), about))| Agent {
            kinematics: agent.kinematics,
            limits: agent.limits,
            gizmos,
            mix,
            behaviour: agent.behaviour.clone(),
            metrics,
            state,
            about,
        })
        .collect()
}

/// Agent order, whatever the storage order: the agents' `Debug` is the list's.
impl std::fmt::Debug for Agents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Agents {
    /// How many agents.
    #[inline]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// No agent at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Where agent `idx` is stored in `list` (None past the end).
    #[inline]
    fn place_of(&self, idx: usize) -> Option<usize> {
        place_in(&self.place, self.list.len(), idx)
    }

    /// Whether the records are stored in another order than the agents' (see
    /// `Agents::store_in_order`).
    pub fn stored_apart(&self) -> bool {
        !self.place.is_empty()
    }

    /// Agent `idx`.
    #[inline]
    pub fn get(&self, idx: usize) -> Option<&Agent> {
        self.place_of(idx).and_then(|place| self.list.get(place))
    }

    /// Agent `idx`, to change (what the lists ask is found anew at the next step).
    #[inline]
    pub fn get_mut(&mut self, idx: usize) -> Option<&mut Agent> {
        self.changed();
        let place = self.place_of(idx)?;
        self.list.get_mut(place)
    }

    /// The first agent.
    pub fn first(&self) -> Option<&Agent> {
        self.get(0)
    }

    /// The last agent.
    pub fn last(&self) -> Option<&Agent> {
        self.len().checked_sub(1).and_then(|idx| self.get(idx))
    }

    /// Every agent, in agent order.
    pub fn iter(&self) -> Iter<'_> {
        if self.place.is_empty() {
            Iter::InOrder(self.list.iter())
        } else {
            Iter::Placed { list: &self.list, places: self.place.iter() }
        }
    }

    /// Every agent, in agent order, on the current rayon pool's threads.
    pub fn par_iter(&self) -> impl IndexedParallelIterator<Item = &Agent> + '_ {
        (0..self.len()).into_par_iter().map(move |idx| &self[idx])
    }

    /// Every agent, in agent order, to change (the records put back in agent order first).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Agent> {
        self.as_mut_vec().iter_mut()
    }

    /// The records as a `Vec<Agent>` in agent order, to change in any way (put back in agent
    /// order first when a step stored them in another: one pass over them).
    pub fn as_mut_vec(&mut self) -> &mut Vec<Agent> {
        self.in_agent_order();
        self.changed();
        &mut self.list
    }

    /// Adds an agent at the end (agent `len()`), in any storage order.
    pub fn push(&mut self, agent: Agent) {
        self.changed();
        if !self.place.is_empty() {
            let idx = self.list.len() as u32;
            self.place.push(idx);
            self.index.push(idx);
        }
        self.list.push(agent);
    }

    /// The agents in agent order, cloned.
    pub fn to_vec(&self) -> Vec<Agent> {
        self.iter().cloned().collect()
    }

    /// [`Vec::truncate`] in agent order.
    pub fn truncate(&mut self, len: usize) {
        self.as_mut_vec().truncate(len);
    }

    /// [`Vec::pop`] in agent order.
    pub fn pop(&mut self) -> Option<Agent> {
        self.as_mut_vec().pop()
    }

    /// [`Vec::remove`] in agent order.
    pub fn remove(&mut self, idx: usize) -> Agent {
        self.as_mut_vec().remove(idx)
    }

    /// [`Vec::insert`] in agent order.
    pub fn insert(&mut self, idx: usize, agent: Agent) {
        self.as_mut_vec().insert(idx, agent);
    }

    /// [`Vec::retain`] in agent order.
    pub fn retain(&mut self, keep: impl FnMut(&Agent) -> bool) {
        self.as_mut_vec().retain(keep);
    }

    /// [`Vec::clear`].
    pub fn clear(&mut self) {
        self.as_mut_vec().clear();
    }

    /// [`Vec::extend`]: agents added at the end, in any storage order.
    pub fn extend(&mut self, agents: impl IntoIterator<Item = Agent>) {
        agents.into_iter().for_each(|agent| self.push(agent));
    }

    /// What the lists ask, and the kept snapshot, are forgotten (an agent may have changed).
    #[inline]
    fn changed(&mut self) {
        self.needs = None;
        self.reads.clear();
        self.kept = false;
    }

    /// What each place's agent reads of the walks before the step ([`walk_reads`], in storage
    /// order): worked out from the records the first time it is asked for since they changed.
    fn reads(&mut self) -> &[u8] {
        if self.reads.len() != self.list.len() {
            self.reads.clear();
            self.reads.extend(self.list.iter().map(walk_reads));
        }
        &self.reads
    }

    /// The records put back in agent order (one move each, along the cycles of the order).
    fn in_agent_order(&mut self) {
        if self.place.is_empty() {
            return;
        }
        let mut index = std::mem::take(&mut self.index);
        self.place.clear();
        for place in 0..index.len() {
            // The record at `place` belongs at its agent index: swapped there until the one
            // that belongs here arrives (each swap puts one record where it belongs).
            while let Some(&idx) = index.get(place) {
                let idx = idx as usize;
                if idx == place || idx >= self.list.len() {
                    break;
                }
                self.list.swap(place, idx);
                index.swap(place, idx);
            }
        }
        // The kept snapshot and the walks' reads were in storage order.
        self.kept = false;
        self.reads.clear();
    }

    /// Stores the records in the order `order` gives (`order[s]` is the place, in the current
    /// storage, of the record to store at place `s`: the neighbour grid's [`neighbours::NeighbourGrid::order`]
    /// over a snapshot in storage order), keeping what the lists ask. Agent indices do not
    /// change. Ignored unless `order` holds every place once (`seen` is scratch).
    pub(crate) fn store_in_order(&mut self, order: &[u32], seen: &mut Vec<bool>) {
        let n = self.list.len();
        seen.clear();
        seen.resize(n, false);
        let every_place_once = order.len() == n
            && order.iter().all(|&place| {
                seen.get_mut(place as usize).is_some_and(|seen| !std::mem::replace(seen, true))
            });
        if !every_place_once {
            return;
        }
        let index: Vec<u32> = if self.index.is_empty() {
            order.to_vec()
        } else {
            order.iter().map(|&place| self.index.get(place as usize).copied().unwrap_or(0)).collect()
        };
        // The records copied in the new order, their boxes laid out anew kind by kind (see
        // `Agents`' clone): left where they were, each agent's boxes would be read at a random
        // place. (Laying out only the boxes that the step reads, not the names, measured slower:
        // 525 against 348-372 ns per agent-step, flocking at 1,000,000, one thread, `step_cpu
        // --long`, 2026-11-29.)
        let list = &self.list;
        self.list = by_kind(order.iter().filter_map(|&place| list.get(place as usize)));
        self.place.clear();
        self.place.resize(n, 0);
        for (s, &idx) in index.iter().enumerate() {
            if let Some(place) = self.place.get_mut(idx as usize) {
                *place = s as u32;
            }
        }
        self.index = index;
        if self.index.iter().enumerate().all(|(s, &idx)| s == idx as usize) {
            self.place.clear();
            self.index.clear();
        }
        // The kept snapshot and the walks' reads, in the new order too.
        let reads = &self.reads;
        self.reads = if reads.len() == n {
            order.iter().filter_map(|&place| reads.get(place as usize).copied()).collect()
        } else {
            Vec::new()
        };
        let (snapshot, radii) = (&self.next_snapshot, &self.next_radii);
        if self.kept && snapshot.len() == n && radii.len() == n {
            self.next_snapshot =
                order.iter().filter_map(|&place| snapshot.get(place as usize).copied()).collect();
            self.next_radii = order.iter().filter_map(|&place| radii.get(place as usize).copied()).collect();
        } else {
            self.kept = false;
        }
    }
}

impl std::ops::Index<usize> for Agents {
    type Output = Agent;

    /// Agent `idx` (panics past the end, as a `Vec` does).
    #[inline]
    fn index(&self, idx: usize) -> &Agent {
        match self.get(idx) {
            Some(agent) => agent,
            None => panic!("agent {idx} of {}", self.len()),
        }
    }
}

impl std::ops::IndexMut<usize> for Agents {
    #[inline]
    fn index_mut(&mut self, idx: usize) -> &mut Agent {
        let len = self.len();
        match self.get_mut(idx) {
            Some(agent) => agent,
            None => panic!("agent {idx} of {len}"),
        }
    }
}

/// The agents in agent order ([`Agents::iter`]).
#[derive(Clone, Debug)]
pub enum Iter<'a> {
    /// Stored in agent order.
    InOrder(std::slice::Iter<'a, Agent>),
    /// Stored in another order: each agent read at its place.
    Placed {
        /// The records, in storage order.
        list: &'a [Agent],
        /// The places left, in agent order.
        places: std::slice::Iter<'a, u32>,
    },
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Agent;

    #[inline]
    fn next(&mut self) -> Option<&'a Agent> {
        match self {
            Iter::InOrder(iter) => iter.next(),
            Iter::Placed { list, places } => places.next().and_then(|&place| list.get(place as usize)),
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::InOrder(iter) => iter.size_hint(),
            Iter::Placed { places, .. } => places.size_hint(),
        }
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<&'a Agent> {
        match self {
            Iter::InOrder(iter) => iter.nth(n),
            Iter::Placed { list, places } => places.nth(n).and_then(|&place| list.get(place as usize)),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::InOrder(iter) => iter.next_back(),
            Iter::Placed { list, places } => places.next_back().and_then(|&place| list.get(place as usize)),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl std::iter::FusedIterator for Iter<'_> {}

/// The crowd with its boxes laid out by kind, as a clone lays them out: a list built agent by
/// agent (a scene read from a file, a crowd spawned from templates) has each agent's boxes
/// together, its name between what its step reads, until something clones it.
///
/// Measured gain (a scene saved and read back, stepped on one thread against a clone of it, on-CPU
/// ns per agent-step of steps 4-8, five alternating rounds, 100,000 agents, 2026-11-27, a noisy
/// host): predictive following 107-157 read back against 103-135 cloned (12% on average),
/// flocking 389-470 against 348-456; seek the same.
impl From<Vec<Agent>> for Agents {
    fn from(list: Vec<Agent>) -> Agents {
        let list = by_kind(list.iter());
        Agents { list, ..Agents::default() }
    }
}

impl FromIterator<Agent> for Agents {
    fn from_iter<I: IntoIterator<Item = Agent>>(agents: I) -> Agents {
        Agents::from(agents.into_iter().collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for &'a Agents {
    type Item = &'a Agent;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Agents {
    type Item = &'a mut Agent;
    type IntoIter = std::slice::IterMut<'a, Agent>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Everything that moves and everything it moves around.
#[derive(Clone, Debug)]
pub struct World {
    /// Scene name.
    pub name: String,
    /// What to look at in this scene.
    pub description: String,
    /// Fixed step in seconds.
    pub dt: f32,
    /// Polyline paths.
    pub paths: Vec<NamedPath>,
    /// Parametric curves.
    pub curves: Vec<NamedCurve>,
    /// Painted flow fields.
    pub fields: Vec<NamedField>,
    /// Targets.
    pub targets: Vec<Target>,
    /// Obstacles.
    pub obstacles: Vec<Obstacle>,
    /// Agents, by agent index to every reader and writer (stored in another order while a big
    /// crowd is stepped: see [`Agents`]).
    pub agents: Agents,
    /// Where moving targets and obstacles bounce (None: they never bounce).
    pub bounds: Option<Bounds>,
    /// Fixed steps taken since the start.
    pub steps: u64,
    events: Vec<Event>,
    spheres: Vec<Sphere>,
    /// Scratch: every agent's kinematics at the start of the step (agent–agent behaviours).
    snapshot: Vec<Kinematics>,
    /// Every agent's start-of-step position, bucketed by cell (flocking, collision avoidance);
    /// empty unless some entry needs neighbours.
    grid: neighbours::NeighbourGrid,
    /// Scratch: the positions the grid is built from.
    positions: Vec<Vec3>,
    /// Scratch: every agent's body radius, beside `snapshot` (contacts in the metrics).
    radii: Vec<f32>,
    /// Scratch, in the grid's slot order: each agent's unit heading (its start-of-step
    /// velocity's `normalize_or_zero()`, computed once instead of once per agent that sees it)
    /// and body radius, and each agent's slot; filled when the grid is.
    slot_headings: Vec<Vec3>,
    slot_radii: Vec<f32>,
    slot_of: Vec<u32>,
    /// Scratch, in the grid's slot order: what each slot's agent reads of the walks taken
    /// before the step ([`walk_reads`]); empty when every agent flocks or avoids alike, or no
    /// walk is taken ([`World::gather_slot_reads`]).
    slot_reads: Vec<u8>,
    /// Scratch, in the grid's slot order: every agent's walk over its neighbours, when the
    /// step's flock is uniform ([`World::walk_flock`]).
    flock_walks: Vec<FlockWalk>,
    /// The rules of the flock walked before the step (`flock_walks`' parameters), worked out
    /// once for the step instead of once per agent (`None` when nobody was walked).
    flock_rules: Option<flocking::FlockRules>,
    /// Scratch, in the grid's slot order: every agent's facing direction (for `flock_walks`).
    slot_forwards: Vec<Vec3>,
    /// From this many agents a uniform flock is walked before the step ([`FLOCK_WALK_MIN_AGENTS`];
    /// the tests compare against `usize::MAX`: every agent walks in its own step).
    flock_walk_from: usize,
    /// Scratch, in the grid's slot order: every agent's start-of-step kinematics (when some
    /// entry avoids collisions: its walk reads its neighbours' here, not by agent index).
    slot_kinematics: Vec<Kinematics>,
    /// Scratch, in the grid's slot order: every agent's collision avoidance walk, when the
    /// step's avoidance is uniform ([`World::walk_avoidance`]).
    avoid_walks: Vec<AvoidWalk>,
    /// From this many agents a uniform avoidance is walked before the step
    /// ([`AVOID_WALK_MIN_AGENTS`]; the tests compare against `usize::MAX`).
    avoid_walk_from: usize,
    /// From this many agents a crowd whose entries walk over neighbours is stored in the
    /// grid's order ([`SPACE_ORDER_MIN_AGENTS`]; the tests pass their
    /// own, `usize::MAX` for never).
    space_order_from: usize,
    /// The step after which the records were last stored in the grid's order (None: not yet,
    /// or since a reset).
    stored_at: Option<u64>,
    /// Scratch for [`Agents::store_in_order`].
    seen: Vec<bool>,
    gizmos_enabled: bool,
    /// Which agents record gizmos while they are on.
    gizmo_focus: GizmoFocus,
    /// The flock's polarization since the last reset.
    polarization: Polarization,
}

/// From this many agents, a crowd whose entries walk over their neighbours (flocking,
/// collision avoidance, separation beside leader following ...) is stored in the neighbour
/// grid's order ([`Agents::store_in_order`], every [`RESTORE_EVERY`] steps), so that the step
/// reads the records, the snapshot and the walks where the grid has them, near one another,
/// instead of crossing from agent order (random in space) to the grid's order and back every
/// step. The agents keep their indices (readers see agent order; an agent an entry names is
/// read at its place, [`StepContext::named`]), and each cell's agents are walked in agent order
/// whatever the storage ([`neighbours::NeighbourGrid::order_ties_by`]), so the step's results
/// are the same, bit for bit, in any storage order (tested).
///
/// Measured gain (one thread, on-CPU ns per agent-step, Intel Xeon, 2026-11-29,
/// `examples/step_cpu KERNEL 1000 10000 100000 1000000 --agent-order`, the storings untimed):
/// flocking 267.6 / 289.7 / 325.8 / 334.0 against 263.2 / 300.1 / 346.7 / 379.0 in agent order
/// (1.44 -> 1.25x from 1,000 to 1,000,000), collision avoidance 495.8 / 540.8 / 585.1 / 577.7
/// against 500.0 / 533.1 / 618.3 / 624.4 (1.25 -> 1.18x). One crowd stepped 128 times, the
/// storings timed (`--long`): flocking at 100,000 / 1,000,000 boids 332.5-341.5 / 329.9-338.1
/// against 355.5-364.7 / 375.1-376.3, collision avoidance 848.8 / 852.7 against 873.5 / 945.3.
/// A storing costs about 900 ns an agent (its records and boxes copied), 14 ns an agent-step
/// over [`RESTORE_EVERY`] steps. Below this size the crowd's arrays sit in the caches and the
/// storing would not pay.
pub(crate) const SPACE_ORDER_MIN_AGENTS: usize = 32_768;

/// Steps between two storings of a big crowd in the grid's order ([`SPACE_ORDER_MIN_AGENTS`]).
/// Measured (flocking, 128 steps, one thread, `step_cpu --long`): every 32 steps 364.1-380.0 ns
/// per agent-step at 1,000,000 boids (agent order 392.0-403.1 in the same runs), every 64
/// 329.9-338.1 (375.1-376.3).
pub(crate) const RESTORE_EVERY: u64 = 64;

/// Default fixed step: 60 steps per second.
pub const DEFAULT_DT: f32 = 1.0 / 60.0;

impl Default for World {
    fn default() -> Self {
        World {
            name: String::new(),
            description: String::new(),
            dt: DEFAULT_DT,
            paths: Vec::new(),
            fields: Vec::new(),
            curves: Vec::new(),
            targets: Vec::new(),
            obstacles: Vec::new(),
            agents: Agents::default(),
            bounds: None,
            steps: 0,
            events: Vec::new(),
            spheres: Vec::new(),
            snapshot: Vec::new(),
            grid: neighbours::NeighbourGrid::new(),
            positions: Vec::new(),
            radii: Vec::new(),
            slot_headings: Vec::new(),
            slot_radii: Vec::new(),
            slot_of: Vec::new(),
            slot_reads: Vec::new(),
            flock_walks: Vec::new(),
            flock_rules: None,
            slot_forwards: Vec::new(),
            flock_walk_from: FLOCK_WALK_MIN_AGENTS,
            slot_kinematics: Vec::new(),
            avoid_walks: Vec::new(),
            avoid_walk_from: AVOID_WALK_MIN_AGENTS,
            space_order_from: SPACE_ORDER_MIN_AGENTS,
            stored_at: None,
            seen: Vec::new(),
            gizmos_enabled: false,
            gizmo_focus: GizmoFocus::All,
            polarization: Polarization::default(),
        }
    }
}

impl World {
    /// About how many bytes this world holds apart from its painted fields: the agents (each
    /// record, its list and name), paths, curves, targets and obstacles. What an undo snapshot
    /// costs beyond the fields it shares ([`crate::app`]'s undo keeps within a budget).
    pub fn approx_bytes_without_fields(&self) -> usize {
        use std::mem::size_of;
        let agents: usize = self
            .agents
            .iter()
            .map(|a| {
                size_of::<Agent>()
                    + a.about.name.len()
                    + if a.mix.is_boxed() { size_of::<mix::Mix>() } else { 0 }
                    + if a.mix.more.spilled() { a.mix.more.capacity() * size_of::<mix::Entry>() } else { 0 }
                    + a.metrics.heap_bytes()
            })
            .sum();
        let paths: usize = self.paths.iter().map(|p| p.polyline.points().len() * 2 * size_of::<Vec3>()).sum();
        size_of::<World>()
            + agents
            + paths
            + self.curves.len() * size_of::<NamedCurve>()
            + self.targets.len() * size_of::<Target>()
            + self.obstacles.len() * size_of::<Obstacle>()
    }

    /// Simulated time in seconds (`steps · dt`, computed so it never drifts).
    pub fn time(&self) -> f64 {
        self.steps as f64 * self.dt as f64
    }

    /// Events of the last step.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Records every agent's gizmos from the next step on (the window turns this on), or only
    /// those of the agents the [`GizmoFocus`] names.
    pub fn set_gizmos_enabled(&mut self, enabled: bool) {
        self.gizmos_enabled = enabled;
        self.apply_gizmo_focus();
    }

    /// Whether gizmos are recorded.
    pub fn gizmos_enabled(&self) -> bool {
        self.gizmos_enabled
    }

    /// Which agents record gizmos while they are on: a crowd whose gizmos are not all drawn
    /// records only the shown agent's, so its other agents take the simulation's fast paths
    /// (flocking straight over the grid's arrays) and push nothing.
    /// Returns whether anything changed: a new focus, or a focused agent that did not record
    /// (agents were added, removed or reordered since).
    pub fn set_gizmo_focus(&mut self, focus: GizmoFocus) -> bool {
        let recording = |agent: &Agent| agent.gizmos.is_enabled() == self.gizmos_enabled;
        let stale = match focus {
            GizmoFocus::All => !self.agents.iter().all(recording),
            GizmoFocus::Only(only) => {
                only.and_then(|idx| self.agents.get(idx)).is_some_and(|a| !recording(a))
            }
        };
        if focus == self.gizmo_focus && !stale {
            return false;
        }
        self.gizmo_focus = focus;
        self.apply_gizmo_focus();
        true
    }

    /// The agents that record gizmos while they are on.
    pub fn gizmo_focus(&self) -> GizmoFocus {
        self.gizmo_focus
    }

    fn apply_gizmo_focus(&mut self) {
        for (idx, agent) in self.agents.iter_mut().enumerate() {
            agent.gizmos.set_enabled(self.gizmos_enabled && self.gizmo_focus.includes(idx));
        }
    }

    /// Records agent `idx`'s gizmos as its next step would draw them, moving nothing (when
    /// gizmos are on): the window asks for it when a crowd's gizmos follow the selection and
    /// another agent is picked, whose last step recorded none. Its step runs on a copy of the
    /// agent against the world as it is; only the copy's gizmos are kept.
    pub fn preview_gizmos(&mut self, idx: usize) {
        if !self.gizmos_enabled || idx >= self.agents.len() {
            return;
        }
        // The next step's start, with the targets and obstacles put back afterwards.
        let (targets, obstacles) = (self.targets.clone(), self.obstacles.clone());
        self.move_targets_and_obstacles();
        let parallel = self.agents.len() >= PARALLEL_MIN_AGENTS && rayon::current_num_threads() > 1;
        let needs = self.gather_snapshot(parallel);
        let fastest_speed = self.rebuild_neighbour_grid(parallel, needs);
        self.flock_walks.clear();
        self.flock_rules = None;
        self.avoid_walks.clear();
        // The step reads by place (see `Agents`).
        let place = self.agents.place_of(idx).unwrap_or(idx);
        if let Some(mut agent) = self.agents.get(idx).cloned() {
            agent.gizmos.set_enabled(true);
            let ctx = step_context!(self, fastest_speed, (self.steps + 1) as f64 * self.dt as f64, false);
            let steering = steer_agent(place, &mut agent, &ctx);
            move_agent(place, &mut agent, steering, &ctx, &mut Vec::new());
            if let Some(shown) = self.agents.get_mut(idx) {
                shown.gizmos = agent.gizmos;
            }
        }
        (self.targets, self.obstacles) = (targets, obstacles);
    }

    /// Puts everything back where the scene started: positions, velocities, behaviour state,
    /// metrics, time. Parametric agents are placed at F(T0) (seed 000, step 2).
    pub fn reset(&mut self) {
        self.steps = 0;
        self.polarization = Polarization::default();
        self.events.clear();
        for target in &mut self.targets {
            (target.position, target.velocity) = target.start;
        }
        for obstacle in &mut self.obstacles {
            (obstacle.position, obstacle.velocity) = obstacle.start;
        }
        for idx in 0..self.agents.len() {
            self.reset_agent(idx);
        }
    }

    /// Puts one agent back at its start with fresh state and metrics (after its behaviour or
    /// start changed in the editor).
    pub fn reset_agent(&mut self, agent_idx: usize) {
        let curves = &self.curves;
        let Some(agent) = self.agents.get_mut(agent_idx) else { return };
        agent.kinematics = agent.about.start;
        agent.state = BehaviourState::start(&agent.behaviour);
        agent.mix.reset_states();
        if let Behaviour::Parametric { curve, params } = &agent.behaviour {
            if let Some(named) = curves.get(*curve) {
                agent.kinematics.position = named.curve.point(params.t0);
                agent.kinematics.velocity = Vec3::ZERO;
            }
        }
        agent.metrics = AgentMetrics::default();
        agent.gizmos.set_enabled(self.gizmos_enabled && self.gizmo_focus.includes(agent_idx));
    }

    /// Whether a big crowd may be stored in the neighbour grid's order (on by default, from
    /// 32,768 agents: see `sim::SPACE_ORDER_MIN_AGENTS`). Off, the records stay in agent order: for comparisons
    /// (`examples/step_cpu --agent-order`). The step's results are the same either way.
    pub fn set_space_order(&mut self, on: bool) {
        self.space_order_from = if on { SPACE_ORDER_MIN_AGENTS } else { usize::MAX };
        if !on {
            self.agents.in_agent_order();
        }
    }

    /// Advances the world by one fixed step of `self.dt` seconds.
    pub fn step(&mut self) {
        self.step_parallel_from(PARALLEL_MIN_AGENTS);
    }

    /// [`World::step`], split over rayon's threads (the current pool's) when there are at
    /// least `parallel_from` agents. Bit-identical to the single-threaded step for any
    /// `parallel_from` and any thread count; tests and benchmarks pass their own threshold.
    pub fn step_parallel_from(&mut self, parallel_from: usize) {
        self.events.clear();
        self.steps += 1;
        let time = self.time();

        self.move_targets_and_obstacles();

        let threads = rayon::current_num_threads();
        let parallel = self.agents.len() >= parallel_from.max(1) && threads > 1;
        let needs = self.gather_snapshot(parallel);
        let fastest_speed = self.rebuild_neighbour_grid(parallel, needs);
        self.gather_slot_reads(parallel, needs);
        self.walk_flock(parallel, needs);
        self.walk_avoidance(parallel, needs, fastest_speed);
        let n_agents = self.agents.len();
        // The flock's headings are summed while the agents move (when there is a grid).
        let flock = !self.grid.is_empty();
        // The next step's snapshot, written by the moves (every agent's place is written).
        let keep = needs.reads_others;
        self.agents.next_snapshot.resize(if keep { n_agents } else { 0 }, Kinematics::default());
        self.agents.next_radii.resize(if keep { n_agents } else { 0 }, 0.0);
        // The neighbour runs are read ahead only when nearly every agent walks them.
        let ctx = step_context!(self, fastest_speed, time, nearly_all(needs.walkers, n_agents));
        // Two passes over each block of agents (why: see the module documentation): every
        // behaviour first, then every integration with its metrics and events.
        if parallel {
            // All cores, same result: an agent's step reads only its own state and the
            // snapshot `ctx`, so each agent's arithmetic is the same on any thread; events are
            // gathered per chunk and joined in chunk order, which is agent order.
            let chunk = n_agents.div_ceil(threads * CHUNKS_PER_THREAD).max(1);
            // Every chunk's share of what the moves keep (none of what is not kept).
            let n_chunks = n_agents.div_ceil(chunk);
            let snapshots = chunks_of(&mut self.agents.next_snapshot, chunk, n_chunks);
            let radii = chunks_of(&mut self.agents.next_radii, chunk, n_chunks);
            let chunks: Vec<(Vec<Event>, HeadingSum)> = self
                .agents
                .list
                .par_chunks_mut(chunk)
                .zip(snapshots)
                .zip(radii)
                .enumerate()
                .map(|(chunk_idx, ((agents, snapshot), radii))| {
                    let mut events = Vec::new();
                    let mut headings = HeadingSum::default();
                    let kept = Kept { flock: flock.then_some(&mut headings), snapshot, radii };
                    step_agents(chunk_idx * chunk, agents, kept, &ctx, &mut events);
                    (events, headings)
                })
                .collect();
            let mut headings = HeadingSum::default();
            for (events, chunk_headings) in chunks {
                self.events.extend(events);
                headings = headings.join(chunk_headings);
            }
            if flock {
                self.polarization.record(headings.polarization());
            }
        } else {
            let mut headings = HeadingSum::default();
            let kept = Kept {
                flock: flock.then_some(&mut headings),
                snapshot: &mut self.agents.next_snapshot,
                radii: &mut self.agents.next_radii,
            };
            step_agents(0, &mut self.agents.list, kept, &ctx, &mut self.events);
            if flock {
                // Summed by the moves (exactly, so the same on any split), not by a walk over
                // the records after them.
                self.polarization.record(headings.polarization());
            }
        }
        self.agents.kept = keep;
        if self.agents.stored_apart() && !self.events.is_empty() {
            // Each event of the agent stored at its place, in agent order as a step over the
            // agents in their own order gives them (each agent's in the order it pushed them).
            for event in &mut self.events {
                event.agent = self.agents.index.get(event.agent).map_or(event.agent, |&idx| idx as usize);
            }
            self.events.sort_by_key(|event| event.agent);
        }
        self.store_in_space_order();
    }

    /// A big crowd stored in the order of this step's grid, every [`RESTORE_EVERY`] steps (see
    /// [`SPACE_ORDER_MIN_AGENTS`]): when its entries walk over neighbours and it has at least
    /// [`World::space_order_from`] agents.
    fn store_in_space_order(&mut self) {
        let n = self.agents.len();
        let eligible = n >= self.space_order_from && n > 1 && self.grid.len() == n;
        let due = self.stored_at.is_none_or(|at| self.steps < at || self.steps - at >= RESTORE_EVERY);
        if eligible && due {
            self.agents.store_in_order(self.grid.order(), &mut self.seen);
            self.stored_at = Some(self.steps);
        }
    }

    /// A step's first part: targets and obstacles move on (bouncing off the bounds), and the
    /// obstacles' spheres are made for the agents' step.
    fn move_targets_and_obstacles(&mut self) {
        let dt = self.dt;
        for target in &mut self.targets {
            target.position += target.velocity * dt;
            if let Some(bounds) = self.bounds {
                bounce(&mut target.position, &mut target.velocity, 0.0, bounds);
            }
        }
        for obstacle in &mut self.obstacles {
            obstacle.position += obstacle.velocity * dt;
            if let Some(bounds) = self.bounds {
                bounce(&mut obstacle.position, &mut obstacle.velocity, obstacle.radius, bounds);
            }
        }
        self.spheres.clear();
        self.spheres.extend(self.obstacles.iter().map(|o| Sphere { center: o.position, radius: o.radius }));
    }

    /// What every agent's step reads of the others: their start-of-step kinematics and body
    /// radii (when some entry reads other agents), gathered on all cores for a big crowd (each
    /// agent's copy goes to its own place: the same on any thread count). Returns what the
    /// agents' lists ask of the step, found in the same walk over the agents.
    ///
    /// One walk where there were three: one to see whether any entry reads other agents, one to
    /// see whether any needs neighbours (in the grid's rebuild), and the copy. On one thread the
    /// copy starts at the first agent that reads others (the agents before it are copied then,
    /// in one go), so a crowd of readers is walked once and a crowd of none is never copied.
    /// Measured gain (callgrind's cache simulation, 32 MiB last level, one thread, 1,000,000
    /// agents, 2026-11-24): cache lines missed per agent-step, seek 13.5 -> 11.5, predictive
    /// 20.1 -> 18.1; instructions 547 -> 536 and 1,094 -> 1,083.
    ///
    /// No walk at all when the agents were not borrowed mutably since the last step (see
    /// [`Agents`], where the gain is measured): what the lists ask is the last step's, and the
    /// snapshot, if one is needed, is the one the last step's moves kept.
    fn gather_snapshot(&mut self, parallel: bool) -> StepNeeds {
        // What the lists asked of the last step, when no agent was borrowed mutably since: no
        // walk at all, the snapshot the last step's moves kept, or the snapshot alone.
        let kept = std::mem::take(&mut self.agents.kept);
        if let (Some(needs), true) = (self.agents.needs, kept) {
            std::mem::swap(&mut self.snapshot, &mut self.agents.next_snapshot);
            std::mem::swap(&mut self.radii, &mut self.agents.next_radii);
            return needs;
        }
        self.snapshot.clear();
        self.radii.clear();
        if let Some(needs) = self.agents.needs {
            if needs.reads_others {
                // One walk filling both (two walks read every record's first line twice).
                let agents = &self.agents.list;
                if parallel {
                    agents
                        .par_iter()
                        .map(|agent| (agent.kinematics, agent.limits.radius))
                        .unzip_into_vecs(&mut self.snapshot, &mut self.radii);
                } else {
                    self.snapshot.reserve(agents.len());
                    self.radii.reserve(agents.len());
                    for agent in agents {
                        self.snapshot.push(agent.kinematics);
                        self.radii.push(agent.limits.radius);
                    }
                }
            }
            return needs;
        }
        let needs = self.gather_snapshot_and_needs(parallel);
        self.agents.needs = Some(needs);
        needs
    }

    /// [`World::gather_snapshot`] when what the lists ask is not known: found in the same walk.
    fn gather_snapshot_and_needs(&mut self, parallel: bool) -> StepNeeds {
        let agents = &self.agents.list;
        if parallel {
            let needs = agents.par_iter().map(StepNeeds::of).reduce(StepNeeds::default, StepNeeds::join);
            if needs.reads_others {
                agents
                    .par_iter()
                    .map(|agent| (agent.kinematics, agent.limits.radius))
                    .unzip_into_vecs(&mut self.snapshot, &mut self.radii);
            }
            return needs;
        }
        let mut needs = StepNeeds::default();
        let mut walk = agents.iter();
        for agent in walk.by_ref() {
            needs = needs.join(StepNeeds::of(agent));
            if needs.reads_others {
                // This agent and every one before it, then the rest as they are walked.
                let copied = agents.len() - walk.len();
                let before = agents.get(..copied).unwrap_or_default();
                self.snapshot.extend(before.iter().map(|agent| agent.kinematics));
                self.radii.extend(before.iter().map(|agent| agent.limits.radius));
                break;
            }
        }
        for agent in walk {
            needs = needs.join(StepNeeds::of(agent));
            self.snapshot.push(agent.kinematics);
            self.radii.push(agent.limits.radius);
        }
        needs
    }

    /// The flock's polarization |mean heading| since the last reset (after each step, over the
    /// moving agents with a flocking entry).
    pub fn polarization(&self) -> &Polarization {
        &self.polarization
    }

    /// Rebuilds the spatial hash over the start-of-step snapshot when some entry needs
    /// neighbours (cells as wide as the largest query radius; empties it otherwise). Returns the
    /// fastest agent's speed (what collision avoidance's query radius allows for).
    fn rebuild_neighbour_grid(&mut self, parallel: bool, needs: StepNeeds) -> f32 {
        let speed = |k: &Kinematics| k.velocity.length();
        // The maximum of non-negative speeds (NaN ignored): the same in any order. Only
        // collision avoidance reads it: without it, no walk over the snapshot (pursuit at
        // 1,000,000 agents, callgrind's cache simulation: last-level misses per agent-step
        // 9.67 -> 9.26, instructions 693 -> 683).
        let fastest = if !needs.collision_avoidance {
            0.0
        } else if parallel {
            self.snapshot.par_iter().map(speed).reduce(|| 0.0f32, f32::max)
        } else {
            self.snapshot.iter().map(speed).fold(0.0f32, f32::max)
        };
        // The largest finite radius asked: the flocking entries' (found by `gather_snapshot`),
        // and collision avoidance's, which depends on the fastest speed, so takes a walk of its
        // own, only when some agent avoids collisions. The maximum of numbers that are never
        // NaN as one comparison, in any order the same (the cell is at least 1 unit, so a
        // zero's sign never shows).
        let needed = needs.neighbours;
        let mut cell = needs.flock_radius;
        if needs.collision_avoidance {
            let query = |agent: &Agent| {
                let mut asked = 0.0f32;
                let mut ask = |behaviour: &Behaviour| {
                    if let Behaviour::CollisionAvoidance { params } = behaviour {
                        let radius = threat_radius_out_of_line(agent, params, fastest);
                        if radius.is_finite() {
                            asked = crate::geometry::max_of_number(asked, radius);
                        }
                    }
                };
                ask(&agent.behaviour);
                agent.mix.more.iter().for_each(|entry| ask(&entry.behaviour));
                asked
            };
            let max = crate::geometry::max_of_number;
            // When every agent has one entry with the same parameters, its radius is read from
            // the snapshot (32 bytes an agent) instead of the records (208): the same radii.
            let (snapshot, radii) = (&self.snapshot, &self.radii);
            let uniform = match needs.avoid {
                Uniform::Same(params)
                    if snapshot.len() == self.agents.len() && radii.len() == snapshot.len() =>
                {
                    Some(params)
                }
                _ => None,
            };
            let asked = match uniform {
                Some(params) => {
                    let query = |(k, &radius): (&Kinematics, &f32)| {
                        let radius =
                            collision_avoidance::threat_radius_of(k.velocity, radius, &params, fastest);
                        if radius.is_finite() {
                            max(0.0, radius)
                        } else {
                            0.0
                        }
                    };
                    if parallel {
                        snapshot.par_iter().zip(radii.par_iter()).map(query).reduce(|| 0.0, max)
                    } else {
                        snapshot.iter().zip(radii).map(query).fold(0.0, max)
                    }
                }
                None if parallel => self.agents.list.par_iter().map(query).reduce(|| 0.0, max),
                None => self.agents.list.iter().map(query).fold(0.0, max),
            };
            cell = max(cell, asked);
        }
        if needed {
            self.positions.clear();
            self.positions.extend(self.snapshot.iter().map(|k| k.position));
            self.grid.rebuild(&self.positions, cell.max(1.0));
            if self.agents.stored_apart() {
                // The snapshot is by place: each cell's agents in agent order, as over a
                // snapshot by agent index (the same walks, bit for bit).
                self.grid.order_ties_by(&self.agents.index);
            }
        } else if !self.grid.is_empty() {
            self.grid.rebuild(&[], 1.0);
        }
        let order = self.grid.order();
        self.slot_headings.clear();
        self.slot_radii.clear();
        self.slot_of.clear();
        self.slot_of.resize(if order.is_empty() { 0 } else { self.snapshot.len() }, u32::MAX);
        let (snapshot, radii) = (&self.snapshot, &self.radii);
        // The gathers below read the snapshot at random places (by agent index, in slot
        // order): each asks for the kinematics [`GATHER_AHEAD`] slots on.
        let ask_ahead = |slot: usize| {
            if let Some(k) = order.get(slot + GATHER_AHEAD).and_then(|&idx| snapshot.get(idx as usize)) {
                // Its first and last byte's lines (28 bytes: sometimes across two lines).
                crate::behaviours::branchless::prefetch(k, 0, 1);
                crate::behaviours::branchless::prefetch(k, std::mem::size_of::<Kinematics>() - 1, 1);
            }
        };
        // Collision avoidance reads its neighbours' whole state: in slot order beside their
        // positions, so that a walk reads contiguous memory, not each neighbour's by agent index
        // at a random place. Gathered first: the headings are then worked out from it in slot
        // order, not read at random places a second time. Measured gain (collision avoidance,
        // one thread, on-CPU ns per agent-step at 1,000,000 agents, five alternating rounds,
        // `examples/step_cpu`, 2026-11-27): 596.7-646.2 -> 586.4-589.0; 1,000 agents the same
        // (522.8-603.3 against 522.0-553.1).
        self.slot_kinematics.clear();
        if needs.collision_avoidance {
            let kinematics = |(slot, &agent_idx): (usize, &u32)| {
                ask_ahead(slot);
                snapshot.get(agent_idx as usize).copied().unwrap_or_default()
            };
            if parallel {
                self.slot_kinematics.par_extend(order.par_iter().enumerate().map(kinematics));
            } else {
                self.slot_kinematics.extend(order.iter().enumerate().map(kinematics));
            }
        }
        let slot_kinematics = &self.slot_kinematics;
        let gathered = !slot_kinematics.is_empty();
        // The agent at `slot`'s start-of-step kinematics: gathered above, or read by its index.
        let kinematics_at = |slot: usize, agent_idx: u32| {
            if gathered {
                slot_kinematics.get(slot)
            } else {
                ask_ahead(slot);
                snapshot.get(agent_idx as usize)
            }
        };
        let heading = |(slot, &agent_idx): (usize, &u32)| {
            kinematics_at(slot, agent_idx).map_or(Vec3::ZERO, |k| k.velocity.normalize_or_zero())
        };
        let radius = |&agent_idx: &u32| radii.get(agent_idx as usize).copied().unwrap_or(0.0);
        // A uniform flock is walked before the step (`walk_flock`), along each agent's facing
        // direction: gathered in the same loop as the headings, from the same reads at random
        // places (a loop of its own cost 5% of a step at 1,000,000 boids, one thread).
        self.slot_forwards.clear();
        let forwards = matches!(needs.flock, Uniform::Same(_));
        let heading_and_forward = |(slot, &agent_idx): (usize, &u32)| {
            kinematics_at(slot, agent_idx).map_or((Vec3::ZERO, Vec3::ZERO), |k| {
                (k.velocity.normalize_or_zero(), crate::behaviours::neighbourhood::forward(k))
            })
        };
        match (parallel, forwards) {
            (true, true) => order
                .par_iter()
                .enumerate()
                .map(heading_and_forward)
                .unzip_into_vecs(&mut self.slot_headings, &mut self.slot_forwards),
            (true, false) => self.slot_headings.par_extend(order.par_iter().enumerate().map(heading)),
            (false, true) => {
                for (heading, forward) in order.iter().enumerate().map(heading_and_forward) {
                    self.slot_headings.push(heading);
                    self.slot_forwards.push(forward);
                }
            }
            (false, false) => self.slot_headings.extend(order.iter().enumerate().map(heading)),
        }
        if parallel {
            self.slot_radii.par_extend(order.par_iter().map(radius));
        } else {
            self.slot_radii.extend(order.iter().map(radius));
        }
        for (slot, &agent_idx) in order.iter().enumerate() {
            if let Some(entry) = self.slot_of.get_mut(agent_idx as usize) {
                *entry = slot as u32;
            }
        }
        fastest
    }

    /// What each slot's agent reads of the walks taken before the step, into `slot_reads`, when
    /// a walk is taken over a crowd in which some agent does not flock or does not avoid (its
    /// slot is then skipped, or walked for its crowd sample alone); left empty otherwise (every
    /// slot walked). The agents' reads are kept by place ([`Agents::reads`]), worked out again
    /// only when the records change. Measured gain: see [`NEARLY_ALL_BUT_ONE_IN`].
    fn gather_slot_reads(&mut self, parallel: bool, needs: StepNeeds) {
        self.slot_reads.clear();
        let n = self.agents.len();
        let flock = matches!(needs.flock, Uniform::Same(_)) && needs.flockers < n;
        let avoid = matches!(needs.avoid, Uniform::Same(_)) && needs.avoiders < n;
        if !(flock || avoid) || self.grid.is_empty() {
            return;
        }
        let reads = self.agents.reads();
        let read = |&place: &u32| reads.get(place as usize).copied().unwrap_or(u8::MAX);
        let order = self.grid.order();
        if parallel {
            self.slot_reads.par_extend(order.par_iter().map(read));
        } else {
            self.slot_reads.extend(order.iter().map(read));
        }
    }

    /// Every agent's walk over its neighbours, in the grid's slot order, before the agents'
    /// step (which then takes its flocking entry's request from its slot's walk): when every
    /// agent that flocks has exactly one flocking entry and all share their parameters (bit for
    /// bit; an agent that does not flock, a predator among the boids, reads no walk and its slot
    /// is skipped: [`World::gather_slot_reads`]), there are at least
    /// [`World::flock_walk_from`] agents, and not every agent draws gizmos (an agent
    /// drawing them walks in its own step). Otherwise `flock_walks` is left empty.
    ///
    /// Why: in agent order (the bench's crowd, a scene's agents: random in space) each agent's
    /// walk reads the grid's slot-ordered arrays at random places, a dozen lines each depending
    /// on the one before (position, cell, bounds of the rows, the rows), which beyond the caches
    /// is most of a boid's step. In slot order, one agent's rows are mostly the last one's; the
    /// agents' step then reads its walk at the agent's slot (one place, its address known from
    /// the sequential `slot_of`). Each walk is the same arithmetic over the same neighbours in
    /// the same order as in the agent's own step (tested bit for bit against it). Measured gain:
    /// see [`FLOCK_WALK_MIN_AGENTS`].
    fn walk_flock(&mut self, parallel: bool, needs: StepNeeds) {
        self.flock_rules = None;
        let Uniform::Same(params) = needs.flock else {
            self.flock_walks.clear();
            return;
        };
        let n = self.grid.len();
        let all_gizmos = self.gizmos_enabled && self.gizmo_focus == GizmoFocus::All;
        let arrays =
            self.slot_headings.len() == n && self.slot_radii.len() == n && self.slot_forwards.len() == n;
        // (A slot whose agent does not flock is skipped: `slot_reads`.)
        if n == 0 || n < self.flock_walk_from || !arrays || all_gizmos || self.snapshot.len() != n {
            self.flock_walks.clear();
            return;
        }
        let rules = flocking::FlockRules::of(&params);
        self.flock_rules = Some(rules);
        // The crowd metrics' sample on the way, as the agent's own walk takes it (see
        // `behaviour_steering`: the same test, every agent having a slot).
        let (query, reach) = (params.query_radius(), self.grid.cell_size());
        let fused = query == reach && (query * query).sqrt() == query;
        // Every slot's walk is written below (the last step's are not cleared first: at
        // 1,000,000 boids that was 64 MB written for nothing, 2-3% of a step).
        self.flock_walks.resize(n, FlockWalk::default());
        // Every agent's facing direction in slot order was gathered with the headings
        // (`rebuild_neighbour_grid`): reads at random places (by agent index) in a loop of their
        // own are in flight together, where inside the walks each waited in turn (one thread,
        // 1,000,000 boids: a fifth of the step).
        let (grid, forwards) = (&self.grid, &self.slot_forwards);
        let (headings, radii, reads) = (&self.slot_headings, &self.slot_radii, &self.slot_reads);
        walk_in_chunks(&mut self.flock_walks, parallel, |first_slot, walks| {
            let slots = FlockSlots { grid, forwards, headings, radii, reads };
            walk_flock_slots(first_slot, walks, &rules, fused, &slots);
        });
    }

    /// Every agent's collision avoidance walk (its first threat, and the crowd metrics' sample),
    /// in the grid's slot order, before the agents' step, which then reads it at the agent's
    /// slot: when every agent that avoids collisions has exactly one collision avoidance entry
    /// and all share their parameters (bit for bit; an agent that does not avoid reads no
    /// threat, and its slot is skipped, or walked for the crowd sample alone that its own walk
    /// would take: [`World::gather_slot_reads`]), and there are at least
    /// [`World::avoid_walk_from`] agents.
    /// Otherwise `avoid_walks` is left empty. Why: as for the flock ([`World::walk_flock`]):
    /// in agent order each walk starts at a random place of the slot-ordered arrays; in slot
    /// order one agent's rows are mostly the last one's. Each walk is the agent's own (the same
    /// neighbours in the same order, the same arithmetic: tested bit for bit against it). An
    /// agent drawing gizmos draws them from its walk's threat. Measured gain: see
    /// [`AVOID_WALK_MIN_AGENTS`].
    fn walk_avoidance(&mut self, parallel: bool, needs: StepNeeds, fastest: f32) {
        let Uniform::Same(params) = needs.avoid else {
            self.avoid_walks.clear();
            return;
        };
        let n = self.grid.len();
        let arrays =
            self.slot_kinematics.len() == n && self.slot_headings.len() == n && self.slot_radii.len() == n;
        // (A slot whose agent neither avoids nor reads a crowd sample is skipped: `slot_reads`.)
        if n == 0 || n < self.avoid_walk_from || !arrays || self.snapshot.len() != n {
            self.avoid_walks.clear();
            return;
        }
        // Every slot's walk is written below (not cleared first, as the flock's).
        self.avoid_walks.resize(n, AvoidWalk::default());
        let crowd = AvoidCrowd {
            params: &params,
            fastest,
            grid: &self.grid,
            kinematics: &self.slot_kinematics,
            headings: &self.slot_headings,
            radii: &self.slot_radii,
            reads: &self.slot_reads,
        };
        walk_in_chunks(&mut self.avoid_walks, parallel, |first_slot, walks| {
            walk_avoidance_slots(first_slot, walks, &crowd);
        });
    }

    /// Steps `n` times.
    pub fn run_steps(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    /// Metrics of every agent, in agent order.
    pub fn metrics(&self) -> Vec<MetricsSummary> {
        self.agents.iter().map(|agent| agent.metrics.summary(agent, self)).collect()
    }

    /// The polyline an agent follows, if it is a path follower whose path exists.
    pub fn agent_path(&self, agent: &Agent) -> Option<&NamedPath> {
        agent
            .behaviour
            .follows_path()
            .then(|| agent.behaviour.path())
            .flatten()
            .and_then(|idx| self.paths.get(idx))
    }

    /// The field a flow-field behaviour reads (None for other behaviours, or a field along a
    /// path that no longer exists).
    pub fn flow_field_of(&self, behaviour: &Behaviour) -> Option<FieldSource<'_>> {
        match behaviour {
            Behaviour::FlowField { path, field, params } => {
                field_source(&self.paths, &self.fields, *path, *field, params)
            }
            _ => None,
        }
    }
}

/// How many slots ahead the grid's gathers from the snapshot (headings, facing directions,
/// kinematics in slot order: [`World::rebuild_neighbour_grid`]) ask for the kinematics they
/// will read. Measured gain (`step_cpu flocking`, on-CPU ns per agent-step, one thread, load
/// 2-3, 2026-11-26): 100,000 / 1,000,000 boids 379-395 / 427-429 -> 370-373 / 389-404; 32
/// ahead the same.
const GATHER_AHEAD: usize = 16;

/// From this many agents on, [`World::step`] uses every core (rayon's global pool; the
/// `--threads N` flag of `run` and `bench` sizes it). Below it a step is too short to share:
/// handing out the work costs more than it saves.
pub const PARALLEL_MIN_AGENTS: usize = 4_096;

/// Chunks per thread in a parallel step (a few, so a thread that finishes early takes another).
const CHUNKS_PER_THREAD: usize = 4;

/// What every agent's step reads.
struct StepContext<'a> {
    dt: f32,
    time: f64,
    paths: &'a [NamedPath],
    fields: &'a [NamedField],
    curves: &'a [NamedCurve],
    targets: &'a [Target],
    spheres: &'a [Sphere],
    /// Every agent's kinematics at the start of the step, by place: in storage order, which is
    /// agent order unless the records are stored apart (see [`Agents`]; empty unless some entry
    /// reads other agents: see [`Behaviour::reads_other_agents`]). An agent named by its index
    /// is read through [`StepContext::named`].
    agents: &'a [Kinematics],
    /// Each agent's place in `agents` and `radii`, by agent index (`Agents::place`; empty when
    /// they are in agent order).
    places: &'a [u32],
    /// `agents`' positions bucketed by cell (empty unless some entry needs neighbours).
    grid: &'a neighbours::NeighbourGrid,
    /// Every agent's body radius, beside `agents` (empty when `agents` is).
    radii: &'a [f32],
    /// In the grid's slot order: unit headings and body radii of the agents (beside
    /// `grid.sorted_positions()`), and the slot of each agent (by agent index).
    slot_headings: &'a [Vec3],
    slot_radii: &'a [f32],
    slot_of: &'a [u32],
    /// By slot: each agent's walk over its neighbours, taken before the step when every agent
    /// flocks with the same parameters (empty otherwise: see [`World::walk_flock`]).
    flock_walks: &'a [FlockWalk],
    /// Their rules (the same for every agent walked).
    flock_rules: Option<&'a flocking::FlockRules>,
    /// In the grid's slot order: every agent's kinematics at the start of the step (beside
    /// `grid.sorted_positions()`; empty unless some entry avoids collisions).
    slot_kinematics: &'a [Kinematics],
    /// By slot: each agent's collision avoidance walk, taken before the step when every agent
    /// avoids with the same parameters (empty otherwise: see [`World::walk_avoidance`]).
    avoid_walks: &'a [AvoidWalk],
    /// The fastest agent's speed at the start of the step (0 when no entry avoids collisions,
    /// the only one that reads it).
    fastest_speed: f32,
    /// Whether nearly every agent walks its neighbours (see [`NEARLY_ALL_BUT_ONE_IN`]): then,
    /// in a big grid, [`step_agents`] reads the runs of the agents ahead before their walks,
    /// or the walks taken before the step at the slots of the agents ahead.
    touch_runs: bool,
    /// Where moving obstacles bounce (the planner's short-horizon layer predicts the bounces).
    bounds: Option<planner::BounceBox>,
}

/// Where agent `idx` is stored among `len` records: `idx` itself when `places` is empty (the
/// records in agent order), else its entry in `places` (`Agents::place`). None past the end.
/// The one rule behind [`Agents::get`] and a step's reads of a named agent.
#[inline(always)]
fn place_in(places: &[u32], len: usize, idx: usize) -> Option<usize> {
    if places.is_empty() {
        (idx < len).then_some(idx)
    } else {
        places.get(idx).map(|&place| place as usize)
    }
}

impl<'a> StepContext<'a> {
    /// Where agent `idx` (an index an entry names) is in `agents` and `radii`: its place when
    /// the records are stored apart, else `idx` itself. None past the end.
    #[inline(always)]
    fn place_of(&self, idx: usize) -> Option<usize> {
        place_in(self.places, self.agents.len(), idx)
    }

    /// The start-of-step kinematics of agent `idx`, named by an entry (pursuit's quarry, a
    /// leader, ...), wherever its record is stored; None for a dangling index.
    #[inline(always)]
    fn named(&self, idx: usize) -> Option<&'a Kinematics> {
        self.place_of(idx).and_then(|place| self.agents.get(place))
    }

    /// The body radius of agent `idx`, named by an entry, wherever its record is stored.
    #[inline(always)]
    fn named_radius(&self, idx: usize) -> Option<f32> {
        self.place_of(idx).and_then(|place| self.radii.get(place).copied())
    }
}

/// [`collision_avoidance::threat_radius`] out of line: inlined into the walk over every agent's
/// entries, the compiler worked out the agent's speed for it before looking at the entry, for
/// every agent of every step, a square root included, whether or not it avoids anyone (with
/// the `max_of_number` uses, `World::step` of 2,000 predictive followers went from 1,233 to
/// 1,195 instructions per agent-step: `profile_step predictive` under callgrind).
#[inline(never)]
fn threat_radius_out_of_line(agent: &Agent, params: &CollisionAvoidanceParams, fastest: f32) -> f32 {
    collision_avoidance::threat_radius(&agent.kinematics, &agent.limits, params, fastest)
}

/// What the agents' lists ask of a step (found by [`World::gather_snapshot`]'s walk).
#[derive(Clone, Copy, Debug, Default)]
struct StepNeeds {
    /// Some entry reads other agents: the step takes a snapshot of them.
    reads_others: bool,
    /// Some entry needs neighbours: the step builds the grid.
    neighbours: bool,
    /// Some entry is collision avoidance (its query radius needs the fastest speed, known
    /// only once the snapshot is taken).
    collision_avoidance: bool,
    /// The largest finite query radius of the flocking entries (0 when none).
    flock_radius: f32,
    /// Whether every agent that flocks has exactly one flocking entry, all with the same
    /// parameters.
    flock: UniformFlock,
    /// How many agents have a flocking entry (when not every agent does, the flock's walks
    /// before the step skip the others' slots: [`World::gather_slot_reads`]).
    flockers: usize,
    /// How many agents have a collision avoidance entry (likewise for the avoidance's walks).
    avoiders: usize,
    /// How many agents have an entry that reads its neighbours (the step reads their
    /// neighbours ahead only when nearly every agent does: see [`nearly_all`]).
    walkers: usize,
    /// Whether every agent that avoids collisions has exactly one collision avoidance entry,
    /// all with the same parameters.
    avoid: UniformAvoid,
}

/// Whether the agents walked so far each have exactly one entry of a kind that walks over its
/// neighbours (flocking, collision avoidance), all with the same parameters (bit for bit):
/// then their walks can be taken before the step, in the grid's order ([`World::walk_flock`],
/// [`World::walk_avoidance`]).
#[derive(Clone, Copy, Debug, Default)]
enum Uniform<P> {
    /// No agent walked yet.
    #[default]
    NoAgent,
    /// Every agent so far: one such entry with these parameters.
    Same(P),
    /// Some agent has none, or more than one, or other parameters.
    Mixed,
}

/// Whether every agent that flocks flocks with the same parameters.
type UniformFlock = Uniform<FlockingParams>;

/// Whether every agent that avoids collisions avoids them with the same parameters.
type UniformAvoid = Uniform<CollisionAvoidanceParams>;

/// Parameters compared bit for bit (so that `-0.0` and `0.0`, or two NaNs, are told apart as
/// the arithmetic would tell them apart).
trait SameBits {
    fn same_bits(&self, other: &Self) -> bool;
}

impl SameBits for FlockingParams {
    fn same_bits(&self, other: &Self) -> bool {
        let bits = |p: &FlockingParams| {
            [p.separation, p.alignment, p.cohesion, p.separation_radius, p.radius, p.view_angle]
                .map(f32::to_bits)
        };
        bits(self) == bits(other)
    }
}

impl SameBits for CollisionAvoidanceParams {
    fn same_bits(&self, other: &Self) -> bool {
        let bits = |p: &CollisionAvoidanceParams| [p.horizon, p.margin].map(f32::to_bits);
        bits(self) == bits(other)
    }
}

impl<P: Copy + SameBits> Uniform<P> {
    /// One agent's: its one entry's parameters; none to share when it has several; left out
    /// when it has none (it joins any set).
    #[inline(always)]
    fn of(mut entries: impl Iterator<Item = P>) -> Uniform<P> {
        match (entries.next(), entries.next()) {
            (None, _) => Uniform::NoAgent,
            (Some(params), None) => Uniform::Same(params),
            _ => Uniform::Mixed,
        }
    }

    /// Both sets of agents together (the same in any order).
    #[inline(always)]
    fn join(self, other: Uniform<P>) -> Uniform<P> {
        match (self, other) {
            (Uniform::NoAgent, x) | (x, Uniform::NoAgent) => x,
            (Uniform::Same(a), Uniform::Same(b)) if a.same_bits(&b) => Uniform::Same(a),
            _ => Uniform::Mixed,
        }
    }
}

/// One agent's walk over its neighbours, taken before the step in the grid's slot order
/// ([`World::walk_flock`]): what the flocking rules' sums and the crowd metrics' running sums
/// come to before the agent's own velocity and limits are known: 60 bytes, one cache line
/// each (the step reads them at random places; 92 bytes of the sums as they are, two lines
/// each: on-CPU per agent-step at 1,000,000 boids, one thread, load 5-6, 457-477 ns against
/// 427-441).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct FlockWalk {
    crowd: CrowdSums,
    pull: flocking::FlockPull<Vec3>,
}

impl Default for CrowdSums {
    fn default() -> Self {
        CrowdWalk::new(Vec3::ZERO, 0.0).sums
    }
}

/// From this many agents, a uniform flock is walked before the step, in the grid's slot order
/// ([`World::walk_flock`]): from any size, as it pays at 1,000 boids too.
///
/// Measured gain (`step_cpu flocking 1000 10000 100000 1000000`, on-CPU ns per agent-step, one
/// thread, best of five rounds, builds run alternately, 2026-11-26, load 4-6): 290 / 369 / 590 /
/// 703 before, 266 / 321 / 396 / 427 after (the walk taken in slot order, kept as one line per
/// agent, read ahead from [`WALK_AHEAD_MIN_AGENTS`] boids). Tried first and not kept: stepping
/// the agents themselves in slot order (each record read at a random place instead of each
/// walk's rows): 606 ns at 10,000 boids and 1,098 at 1,000,000, against 351 and 735.
pub(crate) const FLOCK_WALK_MIN_AGENTS: usize = 0;

/// Whether `count` of `n` agents is nearly all of them: at most one agent in
/// [`NEARLY_ALL_BUT_ONE_IN`] left out.
#[inline]
fn nearly_all(count: usize, n: usize) -> bool {
    n.saturating_sub(count).saturating_mul(NEARLY_ALL_BUT_ONE_IN) <= n
}

/// What a step does for every agent of a crowd because some of its agents need it, without
/// knowing which, is done only when at most one agent in this many does not: the reads ahead
/// of the neighbour runs ([`touch_neighbour_runs`], every agent's), and of the walks taken
/// before the step at the slots of the agents ahead. Each agent that does not walk its
/// neighbours would cost a read that nobody uses.
///
/// Without this bound, among 1,000,000 seekers with one boid every seeker's neighbour runs were
/// read ahead: 191.0-209.3 ns per agent-step against 97.9-98.7 without (one thread, on-CPU,
/// 2026-11-29, the seekers packed on their target: `examples/mixed_crowd boids`). Session 37
/// bounded the walks before the step by it too (one boid among 100,000 seekers had made every
/// seeker walk its neighbours: 4,760.6 against 80.7 ns); session 38 skips the slots of the
/// agents that read no walk instead ([`World::gather_slot_reads`]), so that a flock or an
/// avoidance is walked in the grid's order whatever share of the crowd takes part: half a flock
/// of 1,000,000 seeking, in agent order (as the window keeps it), 867.0-1,043.2 -> 449.9-503.5
/// ns; 100,000 avoiders a quarter of them seeking 1,797.4-1,879.8 -> 1,285.7-1,306.4
/// (`examples/mixed_crowd flock|avoiders ... --agent-order`, three alternating rounds).
pub(crate) const NEARLY_ALL_BUT_ONE_IN: usize = 8;

/// The walks of slots `first_slot..` into `walks` ([`World::walk_flock`]): for each slot, the
/// walk its agent's flocking entry takes in `behaviour_steering` (from its start-of-step
/// position and facing direction, by slot: `grid.sorted_positions()` and `forwards`; its own
/// slot skipped; the crowd sample on the way when `fused`).
#[inline(never)]
fn walk_flock_slots(
    first_slot: usize,
    walks: &mut [FlockWalk],
    rules: &flocking::FlockRules,
    fused: bool,
    slots: &FlockSlots,
) {
    let FlockSlots { grid, forwards, headings, radii, reads } = *slots;
    let positions = grid.sorted_positions();
    let mine = positions
        .get(first_slot..)
        .unwrap_or_default()
        .iter()
        .zip(forwards.get(first_slot..).unwrap_or_default());
    for (offset, (walk, (&position, &forward))) in walks.iter_mut().zip(mine).enumerate() {
        let slot = first_slot + offset;
        if reads.get(slot).is_some_and(|read| read & READS_FLOCK_WALK == 0) {
            // An agent that does not flock reads no walk of the flock.
            continue;
        }
        let mut crowd = CrowdWalk::new(position, radii.get(slot).copied().unwrap_or(0.0));
        let sums = flocking::flocking_sums_over_runs_of(
            position,
            forward,
            positions,
            headings,
            grid,
            slot,
            rules,
            |other, position, heading| {
                if fused {
                    crowd.add(position, heading, radii.get(other).copied().unwrap_or(0.0));
                }
            },
        );
        *walk = FlockWalk { crowd: crowd.sums, pull: sums.pull() };
    }
}

/// What the flock's walks read, in the grid's slot order ([`World::walk_flock`]): the grid,
/// every agent's facing direction, unit heading and body radius, and what each slot's agent
/// reads ([`World::gather_slot_reads`]; empty: every agent flocks).
#[derive(Clone, Copy)]
struct FlockSlots<'a> {
    grid: &'a neighbours::NeighbourGrid,
    forwards: &'a [Vec3],
    headings: &'a [Vec3],
    radii: &'a [f32],
    reads: &'a [u8],
}

/// An agent's flocking entry reads its slot's walk of the flock ([`World::walk_flock`]).
const READS_FLOCK_WALK: u8 = 1;
/// An agent's collision avoidance entry reads its slot's threat ([`World::walk_avoidance`]).
const READS_AVOID_WALK: u8 = 2;
/// An agent whose list reads its neighbours records a crowd sample (from the avoidance's walk
/// at its slot when its flocking entry's walk took none).
const READS_CROWD: u8 = 4;

/// What `agent` reads of the walks taken before the step: `READS_*` bits.
/// The crowd bit is [`Agent::needs_neighbours`], the test the step's crowd sample takes.
fn walk_reads(agent: &Agent) -> u8 {
    let kinds = agent.behaviours().fold(0, |reads, behaviour| {
        reads
            | match behaviour {
                Behaviour::Flocking { .. } => READS_FLOCK_WALK,
                Behaviour::CollisionAvoidance { .. } => READS_AVOID_WALK,
                _ => 0,
            }
    });
    kinds | if agent.needs_neighbours() { READS_CROWD } else { 0 }
}

/// `walk(first_slot, walks)` over every slot's walk: in chunks on every thread of the current
/// pool when `parallel` (each slot's walk to its own place: the same on any thread count), else
/// in one go.
fn walk_in_chunks<W: Send>(walks: &mut [W], parallel: bool, walk: impl Fn(usize, &mut [W]) + Sync) {
    if parallel {
        let chunk = walks.len().div_ceil(rayon::current_num_threads() * CHUNKS_PER_THREAD).max(1);
        walks.par_chunks_mut(chunk).enumerate().for_each(|(chunk_idx, walks)| walk(chunk_idx * chunk, walks));
    } else {
        walk(0, walks);
    }
}

/// One agent's collision avoidance walk, taken before the step in the grid's slot order
/// ([`World::walk_avoidance`]): its first threat and the crowd metrics' running sums, one cache
/// line (the step reads it at the agent's slot, a random place).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct AvoidWalk {
    crowd: CrowdSums,
    threat: Option<collision_avoidance::Threat>,
}

/// From this many agents, a uniform collision avoidance is walked before the step, in the
/// grid's slot order ([`World::walk_avoidance`]): from any size, as it pays at 1,000 agents too.
///
/// Measured gain (`step_cpu collision_avoidance 1000 10000 100000 1000000`, on-CPU ns per
/// agent-step, one thread, load 2-4, 2026-11-26): neighbours read by agent index (before)
/// 1,130 / 1,285 / 1,775 / 3,737; read from the slot-ordered kinematics, each agent walking in
/// its own step 1,188 / 1,304 / 1,608 / 2,682; walked before the step in slot order 1,109 /
/// 1,212 / 1,260 / 1,270.
pub(crate) const AVOID_WALK_MIN_AGENTS: usize = 0;

/// What a uniform collision avoidance's walks read ([`World::walk_avoidance`]): the shared
/// parameters, the fastest agent's speed, the grid and the agents' start-of-step kinematics,
/// headings and body radii in its slot order.
struct AvoidCrowd<'a> {
    params: &'a CollisionAvoidanceParams,
    fastest: f32,
    grid: &'a neighbours::NeighbourGrid,
    kinematics: &'a [Kinematics],
    headings: &'a [Vec3],
    radii: &'a [f32],
    /// What each slot's agent reads ([`World::gather_slot_reads`]; empty: everything).
    reads: &'a [u8],
}

/// The walks of slots `first_slot..` into `walks` ([`World::walk_avoidance`]): for each slot,
/// what its agent's collision avoidance entry finds in `behaviour_steering` (from its
/// start-of-step state and body radius, by slot: `kinematics` and `radii`), and the crowd
/// metrics' sample that `crowd_sample` takes for it.
#[inline(never)]
fn walk_avoidance_slots(first_slot: usize, walks: &mut [AvoidWalk], shared: &AvoidCrowd) {
    let AvoidCrowd { params, fastest, grid, kinematics, headings, radii, reads } = *shared;
    let mine = kinematics
        .get(first_slot..)
        .unwrap_or_default()
        .iter()
        .zip(radii.get(first_slot..).unwrap_or_default());
    for (offset, (walk, (me, &radius))) in walks.iter_mut().zip(mine).enumerate() {
        let slot = first_slot + offset;
        let read = reads.get(slot).copied().unwrap_or(READS_AVOID_WALK);
        if read & READS_AVOID_WALK == 0 {
            // An agent that does not avoid reads no threat: only its crowd sample, if it reads
            // one (as `crowd_sample` takes it in its own step).
            if read & READS_CROWD != 0 {
                walk.crowd = crowd_sums(slot, me.position, radius, grid, headings, radii);
            }
            continue;
        }
        let mine = AvoidSlot { slot, me, radius };
        *walk = avoid_walk_in_one(mine, shared).unwrap_or_else(|| {
            let neighbours = SlotNeighbours { grid, kinematics, me: *me };
            let threat = collision_avoidance::first_threat(me, radius, &neighbours, params, fastest);
            let crowd = crowd_sums(slot, me.position, radius, grid, headings, radii);
            AvoidWalk { crowd, threat }
        });
    }
}

/// The agent whose walk [`avoid_walk_in_one`] takes: in slot `slot` of the grid, in state `me`,
/// of body `radius`.
#[derive(Clone, Copy)]
struct AvoidSlot<'a> {
    slot: usize,
    me: &'a Kinematics,
    radius: f32,
}

/// An agent's [`AvoidWalk`] in one walk over the grid, where [`walk_avoidance_slots`] would
/// otherwise take two: [`collision_avoidance::first_threat`]'s over the neighbours within the
/// agent's threat radius, and [`crowd_sums`]' over those within the grid's cell size. The
/// threat radius is never wider than the cell (the cell is the widest asked), so each of its
/// neighbours is among the crowd walk's, and is offered to the threat search in the same order
/// as its own walk would (see [`neighbours::NeighbourGrid::for_each_run`]); the others are
/// offered as not counting. `None` when one walk cannot stand for the two: a threat radius
/// wider than the cell (an infinite one).
///
/// Why: each walk's loops (over the rows, over a row's candidates, over the picked ones) end
/// after a count a big crowd does not repeat, each end a mispredicted branch; one walk has half
/// of them, and reads the rows once. Measured gain: `World::step` at 1,000 / 10,000 / 100,000 /
/// 1,000,000 agents 678.0 / 720.3 / 740.2 / 759.2 -> 522.8 / 552.1 / 575.8 / 590.7 ns per
/// agent-step (one thread, on-CPU, `examples/step_cpu collision_avoidance`, idle, 2026-11-26,
/// the same in a second round); callgrind's branch simulation, 20,000 agents: instructions
/// 8,220 -> 6,764 an agent-step, mispredicted branches 17.1 -> 10.4.
#[inline(always)]
fn avoid_walk_in_one(mine: AvoidSlot, shared: &AvoidCrowd) -> Option<AvoidWalk> {
    let AvoidSlot { slot, me, radius } = mine;
    let AvoidCrowd { params, fastest, grid, kinematics, headings, radii, .. } = *shared;
    let position = me.position;
    let reach = grid.cell_size();
    let query = collision_avoidance::threat_radius_of(me.velocity, radius, params, fastest);
    let within_cell = query <= reach;
    if !within_cell {
        return None;
    }
    let (reach_sq, query_sq) = (reach * reach, query * query);
    let positions = grid.sorted_positions();
    let mut crowd = CrowdWalk::new(position, radius);
    let mut search = collision_avoidance::ThreatSearch::new(radius, params);
    grid.for_each_run(position, reach, |run| {
        let start = run.start;
        let (Some(run_positions), Some(run_headings), Some(run_radii), Some(run_kinematics)) = (
            positions.get(run.clone()),
            headings.get(run.clone()),
            radii.get(run.clone()),
            kinematics.get(run),
        ) else {
            return;
        };
        let near = |_, other: Vec3| (other - position).length_squared() <= reach_sq;
        neighbours::pick_within(run_positions, near, |offset| {
            let (Some(&other), Some(&heading), Some(&other_radius), Some(k)) = (
                run_positions.get(offset),
                run_headings.get(offset),
                run_radii.get(offset),
                run_kinematics.get(offset),
            ) else {
                return;
            };
            // The crowd walk's test (within the cell, not the agent's own slot) and the threat
            // walk's (`SlotNeighbours` over `for_each_within` at the threat radius).
            if start + offset != slot {
                crowd.add(other, heading, other_radius);
            }
            let r = other - position;
            let counts = other.is_finite() & (r.length_squared() <= query_sq) & (*k != *me);
            search.offer(r, k.velocity - me.velocity, counts);
        });
    });
    Some(AvoidWalk { crowd: crowd.sums, threat: search.threat() })
}

impl StepNeeds {
    /// One agent's needs: its main entry's, then the list's others' (without a chained
    /// iterator).
    #[inline(always)]
    fn of(agent: &Agent) -> StepNeeds {
        let mut needs = StepNeeds::default();
        needs.add(&agent.behaviour);
        agent.mix.more.iter().for_each(|entry| needs.add(&entry.behaviour));
        // Exactly one flocking entry: its parameters; none: left out (it reads no flock walk);
        // several: none to share. The same for collision avoidance: an agent without it reads
        // no threat from the avoidance walk, and the crowd sample the walk took at its slot is
        // the one its own walk would take (the same sums over the same start-of-step arrays).
        needs.flock = Uniform::of(agent.behaviours().filter_map(|behaviour| match behaviour {
            Behaviour::Flocking { params } => Some(*params),
            _ => None,
        }));
        needs.flockers = usize::from(!matches!(needs.flock, Uniform::NoAgent));
        needs.walkers = usize::from(needs.neighbours);
        needs.avoid = Uniform::of(agent.behaviours().filter_map(|behaviour| match behaviour {
            Behaviour::CollisionAvoidance { params } => Some(*params),
            _ => None,
        }));
        needs.avoiders = usize::from(!matches!(needs.avoid, Uniform::NoAgent));
        needs
    }

    #[inline(always)]
    fn add(&mut self, behaviour: &Behaviour) {
        self.reads_others |= behaviour.reads_other_agents();
        match behaviour {
            Behaviour::Flocking { params } => {
                self.neighbours = true;
                let radius = params.query_radius();
                if radius.is_finite() {
                    self.flock_radius = crate::geometry::max_of_number(self.flock_radius, radius);
                }
            }
            Behaviour::CollisionAvoidance { .. } => {
                self.neighbours = true;
                self.collision_avoidance = true;
            }
            _ => {}
        }
    }

    /// Both agents' needs (the same in any order).
    #[inline(always)]
    fn join(self, other: StepNeeds) -> StepNeeds {
        StepNeeds {
            reads_others: self.reads_others || other.reads_others,
            neighbours: self.neighbours || other.neighbours,
            collision_avoidance: self.collision_avoidance || other.collision_avoidance,
            flock_radius: crate::geometry::max_of_number(self.flock_radius, other.flock_radius),
            flock: self.flock.join(other.flock),
            flockers: self.flockers.saturating_add(other.flockers),
            walkers: self.walkers.saturating_add(other.walkers),
            avoiders: self.avoiders.saturating_add(other.avoiders),
            avoid: self.avoid.join(other.avoid),
        }
    }
}

/// The neighbours of one agent as the group behaviours read them: the agents the spatial hash
/// finds near a point, with their start-of-step velocities. The asking agent is told apart by
/// its start-of-step state (`me`): another agent in exactly the same state is on the same
/// point with the same velocity, which no rule can push apart, and is skipped with it.
struct GridNeighbours<'a> {
    grid: &'a neighbours::NeighbourGrid,
    agents: &'a [Kinematics],
    me: Kinematics,
}

impl<'a> GridNeighbours<'a> {
    /// The neighbours of an agent in state `me` in the step's grid: read in slot order when
    /// the step keeps the agents' kinematics so (collision avoidance), else by agent index.
    fn of(ctx: &StepContext<'a>, me: Kinematics) -> GridSource<'a> {
        if ctx.slot_kinematics.len() == ctx.grid.len() {
            GridSource::Slots(SlotNeighbours { grid: ctx.grid, kinematics: ctx.slot_kinematics, me })
        } else {
            GridSource::Agents(GridNeighbours { grid: ctx.grid, agents: ctx.agents, me })
        }
    }
}

impl NeighbourSource for GridNeighbours<'_> {
    #[inline]
    fn for_each_near(&self, point: Vec3, radius: f32, mut visit: impl FnMut(&Neighbour)) {
        let order = self.grid.order();
        self.grid.for_each_within(point, radius, |slot, position| {
            let Some(other) = order.get(slot).and_then(|&idx| self.agents.get(idx as usize)) else { return };
            if *other != self.me {
                visit(&Neighbour { position, velocity: other.velocity });
            }
        });
    }
}

/// [`GridNeighbours`] read from the agents' kinematics kept in the grid's slot order: the same
/// neighbours in the same order, from contiguous memory.
struct SlotNeighbours<'a> {
    grid: &'a neighbours::NeighbourGrid,
    kinematics: &'a [Kinematics],
    me: Kinematics,
}

impl NeighbourSource for SlotNeighbours<'_> {
    #[inline]
    fn for_each_near(&self, point: Vec3, radius: f32, mut visit: impl FnMut(&Neighbour)) {
        self.grid.for_each_within(point, radius, |slot, position| {
            let Some(other) = self.kinematics.get(slot) else { return };
            if *other != self.me {
                visit(&Neighbour { position, velocity: other.velocity });
            }
        });
    }
}

/// Where a step's agent reads its neighbours (see [`GridNeighbours::of`]).
enum GridSource<'a> {
    Slots(SlotNeighbours<'a>),
    Agents(GridNeighbours<'a>),
}

impl NeighbourSource for GridSource<'_> {
    #[inline]
    fn for_each_near(&self, point: Vec3, radius: f32, visit: impl FnMut(&Neighbour)) {
        match self {
            GridSource::Slots(slots) => slots.for_each_near(point, radius, visit),
            GridSource::Agents(agents) => agents.for_each_near(point, radius, visit),
        }
    }
}

/// Agents steered before any of them is moved, in [`step_agents`]: a block is walked twice
/// while it is still in the processor's second-level cache (512 agents of 208 bytes, 104 KiB),
/// so a crowd far beyond the caches is read from memory once a step, not once a pass.
const STEP_BLOCK: usize = 512;

/// Cache lines of the next block's agent that [`step_agents`] asks the processor to fetch
/// while it moves the agent at the same place in this block: as many lines from the record's
/// start as the record has bytes (four for 208 bytes: the whole record unless it starts past
/// byte 48 of a line, when up to its last 24 bytes, the state's tail and the [`About`] pointer,
/// are left; five for the 288 bytes it was measured with). The moves read only what the steering pass brought into the second-level cache, so memory would sit idle through them; the steering
/// pass then finds its block there. Asked for in the steering pass instead (half the lines in
/// each pass, or the agents 8 and 24 ahead), it gained nothing.
///
/// Measured gain (one thread, on-CPU ns per agent-step, best of five rounds,
/// `examples/step_cpu`, load 3-5, 2026-11-26): seek 1,000 / 100,000 / 1,000,000 agents
/// 27-30 / 46-47 / 47-48 -> 27-30 / 37-39 / 39-40; pursuit 1,000,000 70.6 -> 68.0; wander and
/// predictive within their noise (they were flat already); flocking within its noise.
const PREFETCH_LINES: usize = std::mem::size_of::<Agent>().div_ceil(64);

/// How far ahead in its block the steering pass asks for what an agent keeps apart from its
/// record (`Agent::prefetch_apart`): the record itself is in the cache by then. Measured gain
/// (predictive following, one thread, on-CPU ns per agent-step, steps 5-8 at every size,
/// `examples/step_cpu`, load 3-7, 2026-11-26): 1,000,000 agents 102-104 -> 92-95; 1,000
/// agents 70-83 either way (noise); 16 ahead 97-99; seek unchanged (38.7 / 40.2).
const APART_AHEAD: usize = 8;

/// The agents `agents` (the first of them agent `first_idx`) take their step, block by block
/// of [`STEP_BLOCK`]: every steering of the block, then every move (the same as one pass:
/// agents never read one another within a step, only the snapshot in `ctx`).
///
/// Measured gain over two passes over all the agents (one thread, 2026-11-24): callgrind's
/// cache simulation (32 MiB last level) of seek at 1,000,000 agents, last-level misses per
/// agent-step 10.5 -> 6.75; instructions of `profile_step` (2,000 agents) seek 562 -> 553,
/// predictive 1,289 -> 1,245 per agent-step. Wall clock, seek / predictive / wander at
/// 1,000,000 agents, with the two commits before it (load 2.2–3.1): 104–116 -> 80–92,
/// 163–175 -> 121–123, 151–160 -> 101–103 ns per agent-step.
///
/// A flocking agent's heading after its move is added to `kept.flock` (when there is a grid),
/// which the flock's polarization reads after the step instead of walking every record, and
/// every list's entries, again.
/// In a big grid, the neighbour runs of the agents ahead are read before their walks (see
/// [`touch_neighbour_runs`]).
#[inline(never)]
fn step_agents(
    first_idx: usize,
    agents: &mut [Agent],
    mut kept: Kept,
    ctx: &StepContext,
    events: &mut Vec<Event>,
) {
    let mut steerings = [Steering::NONE; STEP_BLOCK];
    // (No reads ahead when the flock or the avoidance was walked before the step: its walks
    // are taken.)
    let touch = ctx.touch_runs
        && ctx.grid.len() >= TOUCH_MIN_AGENTS
        && ctx.slot_headings.len() == ctx.grid.len()
        && ctx.flock_walks.is_empty()
        && ctx.avoid_walks.is_empty();
    // The rare metrics an agent's move writes apart from its record (an evader's, a hider's, a
    // flock's, an avoider's) are asked for beside what `prefetch_apart` asks for, unless the
    // flock's walks were taken before the step (see `AgentMetrics::prefetch_rare`).
    let walked = !ctx.flock_walks.is_empty();
    // The walks taken before the step are read at each agent's slot: read ahead in a big grid.
    // (Not when only a few agents read them: each agent's would be asked for.)
    let walks_ahead =
        ctx.touch_runs && ctx.flock_walks.len().max(ctx.avoid_walks.len()) >= WALK_AHEAD_MIN_AGENTS;
    let mut touched = 0u32;
    let n_agents = agents.len();
    for (block_idx, start) in (0..n_agents).step_by(STEP_BLOCK).enumerate() {
        let (this_and_before, after) = agents.split_at_mut((start + STEP_BLOCK).min(n_agents));
        let block = this_and_before.get_mut(start..).unwrap_or_default();
        let first = first_idx + block_idx * STEP_BLOCK;
        for offset in 0..block.len() {
            if let Some(ahead) = block.get(offset + APART_AHEAD) {
                ahead.prefetch_apart();
                if !walked {
                    ahead.metrics.prefetch_rare();
                } else {
                    ahead.metrics.prefetch_crowd();
                }
            }
            let (Some(agent), Some(steering)) = (block.get_mut(offset), steerings.get_mut(offset)) else {
                break;
            };
            let agent_idx = first + offset;
            let batch = TOUCH_BATCH;
            if walks_ahead {
                if let Some(&slot) = ctx.slot_of.get(agent_idx + WALK_AHEAD) {
                    if let Some(walk) = ctx.flock_walks.get(slot as usize) {
                        crate::behaviours::branchless::prefetch(walk, 0, 1);
                    }
                    if let Some(walk) = ctx.avoid_walks.get(slot as usize) {
                        crate::behaviours::branchless::prefetch(walk, 0, 1);
                    }
                }
            }
            if touch && (agent_idx - first_idx).is_multiple_of(batch) {
                for ahead in agent_idx + 2 * batch..agent_idx + 3 * batch {
                    touched ^= touch_neighbour_runs(ahead, ctx, false);
                }
                for ahead in agent_idx + batch..agent_idx + 2 * batch {
                    touched ^= touch_neighbour_runs(ahead, ctx, true);
                }
            }
            *steering = steer_agent(first + offset, agent, ctx);
        }
        let kept_from = block_idx * STEP_BLOCK;
        let snapshot = kept.snapshot.get_mut(kept_from..).unwrap_or_default();
        let radii = kept.radii.get_mut(kept_from..).unwrap_or_default();
        for ((offset, agent), steering) in block.iter_mut().enumerate().zip(steerings.iter()) {
            // The next block's agent at this place is fetched while this one moves (see
            // `PREFETCH_LINES`).
            if let Some(next) = after.get(offset) {
                crate::behaviours::branchless::prefetch(next, 0, PREFETCH_LINES);
            }
            move_agent(first + offset, agent, *steering, ctx, events);
            if let Some(headings) = kept.flock.as_deref_mut() {
                if agent.has_flocking() {
                    headings.add(agent.kinematics.velocity);
                }
            }
            if let (Some(kinematics), Some(radius)) = (snapshot.get_mut(offset), radii.get_mut(offset)) {
                (*kinematics, *radius) = (agent.kinematics, agent.limits.radius);
            }
        }
    }
    std::hint::black_box(touched);
}

/// What [`step_agents`]' moves keep: the flocking agents' headings summed (the flock's
/// polarization; None: not summed), and, each by agent index within its agents (empty: not
/// kept), every agent's kinematics and body radius (the next step's snapshot).
struct Kept<'a> {
    flock: Option<&'a mut HeadingSum>,
    snapshot: &'a mut [Kinematics],
    radii: &'a mut [f32],
}

/// `values` in `n_chunks` chunks of `chunk` (the last ones empty when `values` is short).
fn chunks_of<T>(values: &mut [T], chunk: usize, n_chunks: usize) -> Vec<&mut [T]> {
    let mut chunks: Vec<&mut [T]> = values.chunks_mut(chunk).collect();
    chunks.resize_with(n_chunks, Default::default);
    chunks
}

/// From this many agents in the grid, [`step_agents`] reads ahead what the neighbour walks of
/// the agents it is about to steer will read ([`touch_neighbour_runs`]). Below it the grid's
/// slot-ordered arrays sit in the last-level cache and the reads ahead cost more than they save
/// (flocking, one thread, on-CPU per agent-step, 2026-11-25: 1,000 boids 300 -> 340 ns, 10,000
/// 364 -> 405-440, 100,000 527-558 -> 554-560).
const TOUCH_MIN_AGENTS: usize = 262_144;

/// From this many agents walked before the step (a uniform flock or collision avoidance),
/// [`step_agents`] asks for the walk each agent will read at its slot (a random place)
/// [`WALK_AHEAD`] agents before it steers. Measured (flocking, on-CPU, one thread):
/// 100,000 boids 503 -> 404-417 ns per agent-step reading each walk ahead in batches of plain
/// reads (2026-11-25, load 4-5); with the prefetch hint instead, 100,000 / 1,000,000 boids
/// 376-420 / 400-409 -> 343-348 / 352-357 (2026-11-26, load 2-3; 32 ahead the same);
/// 1,000 and 10,000 do not ask (their walks stay in the caches).
const WALK_AHEAD_MIN_AGENTS: usize = 16_384;

/// How many agents ahead [`step_agents`] asks for the walk an agent will read at its slot
/// (from [`WALK_AHEAD_MIN_AGENTS`] agents).
const WALK_AHEAD: usize = 16;

/// Agents read ahead at a time by [`step_agents`]: every `TOUCH_BATCH` agents it reads the
/// grid rows (their bounds in the grid's table of starts) of the agents two to three batches
/// ahead and the slots of those one to two batches ahead, so that a batch's reads, none waiting
/// for another, are in flight together (measured: batches of 4, 16 and 32 within 1%).
const TOUCH_BATCH: usize = 16;

/// Reads the first and last of each run of grid slots that agent `agent_idx`'s walk over its
/// neighbours will read (positions, headings, radii; with `slots` false, only the bounds of the
/// runs), some agents before its walk: the processor then fetches them while it is still busy
/// with the agents before it. These are plain reads whose values are kept (`black_box`) so
/// that they are made; they were written before the crate had its prefetch hint
/// (`branchless::prefetch`, used for the agent records in [`step_agents`]), which has not been
/// tried here.
///
/// Measured gain (flocking at 1,000,000 boids, one thread, on-CPU per agent-step, best of five
/// rounds of four steps, 2026-11-25, load 5): 1,190-1,221 ns -> 822-833 reading one agent
/// ahead at a time, 775-783 in batches; beside callgrind's count (which does not model
/// fetches in flight): the walk's reads are the step's only ones at random places, 9 of its 23
/// last-level misses per agent-step.
#[inline(always)]
fn touch_neighbour_runs(agent_idx: usize, ctx: &StepContext, slots: bool) -> u32 {
    let Some(me) = ctx.agents.get(agent_idx) else { return 0 };
    let positions = ctx.grid.sorted_positions();
    let mut seen = 0u32;
    ctx.grid.for_each_run(me.position, ctx.grid.cell_size(), |run| {
        if !slots {
            seen ^= run.start as u32 ^ run.end as u32;
            return;
        }
        let last = run.end.saturating_sub(1);
        for slot in [run.start, last] {
            if let (Some(p), Some(h), Some(r)) =
                (positions.get(slot), ctx.slot_headings.get(slot), ctx.slot_radii.get(slot))
            {
                seen ^= p.x.to_bits() ^ h.x.to_bits() ^ r.to_bits();
            }
        }
    });
    seen
}

/// The first half of an agent's step: its list of behaviours, combined (one entry: its request
/// as it is). A flocking entry is told the agent's slot in the grid first.
#[inline(always)]
fn steer_agent(agent_idx: usize, agent: &mut Agent, ctx: &StepContext) -> Steering {
    agent.gizmos.clear();
    if !ctx.grid.is_empty() {
        // An agent the grid did not index has no slot (u32::MAX): its crowd sample takes its own walk.
        let slot = ctx.slot_of.get(agent_idx).copied().filter(|&slot| slot != u32::MAX);
        let states =
            std::iter::once(&mut agent.state).chain(agent.mix.entries_mut().iter_mut().map(|e| &mut e.state));
        for state in states {
            match state {
                BehaviourState::Flock(flock) => *flock = FlockState { slot, crowd: None },
                BehaviourState::Avoid(mine) => *mine = slot,
                _ => {}
            }
        }
    }
    if agent.mix.more.is_empty() {
        let Agent { kinematics, limits, behaviour, state, gizmos, .. } = agent;
        // One entry: no avoidance entry beside it.
        return behaviour_steering(kinematics, limits, behaviour, state, gizmos, ctx, None);
    }
    mix::combined_steering(agent, ctx)
}

/// The second half: integrate the request, then events and metrics.
#[inline(always)]
fn move_agent(
    agent_idx: usize,
    agent: &mut Agent,
    steering: Steering,
    ctx: &StepContext,
    events: &mut Vec<Event>,
) {
    let before = agent.kinematics;
    integrate(&mut agent.kinematics, &agent.limits, steering, ctx.dt);
    if let Some(rate) = turn_rate(agent, &before, ctx) {
        agent.kinematics.orientation = face::wrap_angle(before.orientation + rate * ctx.dt);
    }

    let was_finished = agent.metrics.arrived_at().is_some();
    let arrived_now = !was_finished && has_arrived(agent, ctx);
    if arrived_now {
        events.push(Event { time: ctx.time, agent: agent_idx, kind: EventKind::Arrived });
    }
    // The followed path and the channel it is judged against; the set speed of a curve
    // follower, measured while the curve is being followed, not once an open curve ended.
    let (path, set_speed) = match &agent.behaviour {
        Behaviour::Predictive { path, params } => {
            (ctx.paths.get(*path).map(|named| (named, params.path_radius)), None)
        }
        Behaviour::Projected { path, .. } | Behaviour::Waypoints { path, .. } => {
            (ctx.paths.get(*path).map(|named| (named, named.radius)), None)
        }
        Behaviour::Parametric { params, .. } if !(was_finished || arrived_now) => {
            (None, Some(params.speed.abs()))
        }
        _ => (None, None),
    };
    let sample = metrics::StepSample {
        agent_idx,
        before: &before,
        after: &agent.kinematics,
        radius: agent.limits.radius,
        dt: ctx.dt,
        time: ctx.time,
        spheres: ctx.spheres,
        path: path.map(|(named, path_radius)| (&named.polyline, path_radius)),
        parametric_speed: set_speed,
        arrived_now,
    };
    let projection = agent.metrics.record(&sample, events);
    if !ctx.grid.is_empty() && agent.needs_neighbours() {
        // The sample a flocking entry's walk took on its way, else a walk of its own.
        let states =
            std::iter::once(&mut agent.state).chain(agent.mix.entries_mut().iter_mut().map(|e| &mut e.state));
        let taken = states
            .filter_map(|state| match state {
                BehaviourState::Flock(flock) => flock.crowd.take(),
                _ => None,
            })
            .last();
        // Else the one the collision avoidance walk took before the step, else its own.
        let sample = taken.unwrap_or_else(|| {
            let walk = ctx.slot_of.get(agent_idx).and_then(|&slot| ctx.avoid_walks.get(slot as usize));
            match walk {
                Some(walk) => walk.crowd.finish(before.velocity),
                None => crowd_sample(agent_idx, &before, agent.limits.radius, ctx),
            }
        });
        agent.metrics.record_crowd(&sample);
    }
    // Formation, hiding and pursuit metrics judge the first entry of their kind, main or not.
    let (mut slot, mut hunter, mut quarry, mut followed) = (None, None, None, None);
    for behaviour in agent.behaviours() {
        match *behaviour {
            Behaviour::OffsetPursuit { agent: leader, params } => {
                slot = slot.or(Some((leader, params.offset_x, params.offset_y)))
            }
            // An evader is judged as a hider from the agent it evades (how long that agent had
            // it in sight, how far it kept): Compare races a hider against a plain evader.
            Behaviour::Hide { agent: other, .. } | Behaviour::Evade { agent: other, .. } => {
                hunter = hunter.or(Some(other))
            }
            Behaviour::Pursuit { agent: other, .. } => quarry = quarry.or(Some(other)),
            Behaviour::LeaderFollowing { agent: leader, .. } => followed = followed.or(Some(leader)),
            _ => {}
        }
    }
    if let Some(leader) = followed {
        let reach = ctx.named_radius(leader).map(|r| r + agent.limits.radius);
        if let (Some(reach), Some(leader)) = (reach, ctx.named(leader)) {
            agent.metrics.record_leader_gap(leader.position.distance(before.position) - reach);
        }
    }
    if let Some((leader, offset_x, offset_y)) = slot {
        if let Some(leader) = ctx.named(leader) {
            let slot = offset_pursuit::slot_position(leader, offset_x, offset_y);
            agent.metrics.record_slot_error(slot.distance(before.position));
        }
    }
    if let Some(hunter) = hunter.and_then(|idx| ctx.named(idx)) {
        let seen = !sight_blocked(hunter.position, before.position, ctx.spheres);
        agent.metrics.record_hiding(seen, hunter.position.distance(before.position), ctx.dt);
    }
    if let Some(other) = quarry {
        let reach = ctx.named_radius(other).map(|r| r + agent.limits.radius);
        let gap = ctx.named(other).map(|o| o.position.distance(before.position));
        if let (Some(reach), Some(gap)) = (reach, gap) {
            if gap < reach {
                agent.metrics.record_capture(ctx.time);
            }
        }
    }
    // Predictive following starts its next step by projecting the agent and its prediction
    // onto the path: the metrics just projected the agent with the same rule, so hand that over
    // and make the prediction's projection now, beside it.
    if let (Behaviour::Predictive { params, .. }, BehaviourState::Predictive(state), Some((named, _))) =
        (&agent.behaviour, &mut agent.state, path)
    {
        predictive::observe(&agent.kinematics, &agent.limits, &named.polyline, state, params, projection);
    }
}

/// The turn rate of the agent's first turning entry (face, look where you are going), from its
/// start-of-step state `before`; None when it has none (the heading then follows the velocity,
/// seed 001). Draws the turning entry's gizmos: the heading it turns toward.
#[inline(always)]
fn turn_rate(agent: &mut Agent, before: &Kinematics, ctx: &StepContext) -> Option<f32> {
    let turning = std::iter::once(&agent.behaviour)
        .chain(agent.mix.more.iter().map(|e| &e.behaviour))
        .find(|b| b.turns_only())?;
    let (rate, toward) = match turning {
        Behaviour::Face { agent: other, params } => {
            let target = ctx.named(*other)?.position;
            (face::face(before, target, params), target - before.position)
        }
        Behaviour::LookWhereYouAreGoing { params } => {
            (face::look_where_you_are_going(before, params), before.velocity)
        }
        _ => return None,
    };
    if agent.gizmos.is_enabled() {
        let reach = agent.limits.radius * 4.0;
        let goal = toward.with_z(0.0).normalize_or_zero() * reach;
        let (sin, cos) = before.orientation.sin_cos();
        let position = before.position;
        agent
            .gizmos
            .push(behaviours::GizmoRole::Heading, behaviours::GizmoShape::Line(position, position + goal));
        agent.gizmos.push(
            behaviours::GizmoRole::Heading,
            behaviours::GizmoShape::Arrow(position, position + Vec3::new(cos, sin, 0.0) * reach),
        );
    }
    Some(rate)
}

/// Agent `agent_idx` (in state `me`, of body `radius`) among the others at the start of the
/// step, within the grid's cell size (the largest neighbour radius of the step).
fn crowd_sample(agent_idx: usize, me: &Kinematics, radius: f32, ctx: &StepContext) -> metrics::CrowdSample {
    let my_slot = ctx.slot_of.get(agent_idx).map_or(usize::MAX, |&slot| slot as usize);
    crowd_sums(my_slot, me.position, radius, ctx.grid, ctx.slot_headings, ctx.slot_radii).finish(me.velocity)
}

/// The crowd metrics' sums of the agent in slot `my_slot` (`usize::MAX`: none), at `position`
/// with body `radius`, among the others within the grid's cell size: straight over the grid's
/// runs of slots and the slot-ordered headings and radii (the same agents in the same order as
/// `for_each_within`, without a lookup by agent index).
#[inline]
fn crowd_sums(
    my_slot: usize,
    position: Vec3,
    radius: f32,
    grid: &neighbours::NeighbourGrid,
    headings: &[Vec3],
    radii: &[f32],
) -> CrowdSums {
    let positions = grid.sorted_positions();
    let reach = grid.cell_size();
    let reach_sq = reach * reach;
    let mut crowd = CrowdWalk::new(position, radius);
    grid.for_each_run(position, reach, |run| {
        let start = run.start;
        let (Some(run_positions), Some(run_headings), Some(run_radii)) =
            (positions.get(run.clone()), headings.get(run.clone()), radii.get(run))
        else {
            return;
        };
        let near = |offset: usize, other: Vec3| {
            ((other - position).length_squared() <= reach_sq) & (start + offset != my_slot)
        };
        neighbours::pick_within(run_positions, near, |offset| {
            if let (Some(&other), Some(&heading), Some(&other_radius)) =
                (run_positions.get(offset), run_headings.get(offset), run_radii.get(offset))
            {
                crowd.add(other, heading, other_radius);
            }
        });
    });
    crowd.sums
}

/// The crowd metrics' running sums over one agent's neighbours (its own walk in
/// [`crowd_sample`], or a flocking entry's walk on the way).
#[derive(Clone, Copy, Debug)]
struct CrowdWalk {
    me: Vec3,
    radius: f32,
    sums: CrowdSums,
}

/// What [`CrowdWalk::finish`] reads of a walk (kept per agent by [`World::walk_flock`]).
#[derive(Clone, Copy, Debug)]
struct CrowdSums {
    min_gap: f32,
    nearest: f32,
    headings: Vec3,
}

impl CrowdWalk {
    #[inline(always)]
    fn new(me: Vec3, radius: f32) -> CrowdWalk {
        let sums = CrowdSums { min_gap: f32::INFINITY, nearest: f32::INFINITY, headings: Vec3::ZERO };
        CrowdWalk { me, radius, sums }
    }

    /// A neighbour at `position` with unit heading `heading` and body radius `other_radius`.
    #[inline(always)]
    fn add(&mut self, position: Vec3, heading: Vec3, other_radius: f32) {
        let distance = position.distance(self.me);
        self.sums.nearest = self.sums.nearest.min(distance);
        self.sums.min_gap = self.sums.min_gap.min(distance - self.radius - other_radius);
        self.sums.headings += heading;
    }

    /// The sample, for an agent moving at `velocity`.
    #[inline(always)]
    fn finish(self, velocity: Vec3) -> metrics::CrowdSample {
        self.sums.finish(velocity)
    }
}

impl CrowdSums {
    /// [`CrowdWalk::finish`].
    #[inline(always)]
    fn finish(self, velocity: Vec3) -> metrics::CrowdSample {
        let heading = velocity.normalize_or_zero();
        let mean_heading = self.headings.normalize_or_zero();
        metrics::CrowdSample {
            min_gap: self.min_gap.is_finite().then_some(self.min_gap),
            nearest: self.nearest.is_finite().then_some(self.nearest),
            alignment: (heading != Vec3::ZERO && mean_heading != Vec3::ZERO)
                .then(|| heading.dot(mean_heading)),
        }
    }
}

/// One behaviour's request (a pure function of the agent's state and the world).
///
/// `detour` is given by the combination of an agent's list when the agent avoids obstacles
/// (`mix`): every behaviour with a goal point — seek, arrive, pursuit, interpose, hide, offset
/// pursuit, leader following — then aims round the obstacle in its way
/// ([`detour::Detour::aim`]) instead of straight at the goal.
#[inline(always)]
fn behaviour_steering(
    k: &Kinematics,
    limits: &Limits,
    behaviour: &Behaviour,
    state: &mut BehaviourState,
    gizmos: &mut Gizmos,
    ctx: &StepContext,
    mut detour: Option<&mut detour::Detour>,
) -> Steering {
    let mut aim = |goal: Vec3, gizmos: &mut Gizmos| match detour.as_deref_mut() {
        Some(detour) => detour.aim(k.position, k.velocity, goal, limits.radius, gizmos),
        None => goal,
    };
    let target_pos = |target: usize| ctx.targets.get(target).map(|t| t.position);
    match (behaviour, state) {
        (Behaviour::Seek { target }, _) => match target_pos(*target) {
            Some(position) => kinematic::seek(k, aim(position, gizmos), limits.max_speed, gizmos),
            None => Steering::Velocity(Vec3::ZERO),
        },
        (Behaviour::Flee { target }, _) => match target_pos(*target) {
            Some(position) => kinematic::flee(k, position, limits.max_speed, gizmos),
            None => Steering::Velocity(Vec3::ZERO),
        },
        (Behaviour::Arrive { target, params }, _) => match target_pos(*target) {
            Some(position) => arrive::arrive(k, limits, aim(position, gizmos), params, gizmos),
            None => brake(k, limits),
        },
        (Behaviour::Parametric { curve, params }, BehaviourState::Parametric(state)) => {
            match ctx.curves.get(*curve) {
                Some(named) => parametric::parametric(&named.curve, state, params, ctx.dt, gizmos),
                None => Steering::Velocity(Vec3::ZERO),
            }
        }
        (Behaviour::Waypoints { path, params }, BehaviourState::Waypoints(state)) => {
            match ctx.paths.get(*path) {
                Some(named) => waypoints::waypoints(k, limits, &named.polyline, state, params, gizmos),
                None => brake(k, limits),
            }
        }
        (Behaviour::Projected { path, params }, BehaviourState::Projected(state)) => {
            match ctx.paths.get(*path) {
                Some(named) => projected::projected(k, limits, &named.polyline, state, params, gizmos),
                None => brake(k, limits),
            }
        }
        (Behaviour::Predictive { path, params }, BehaviourState::Predictive(state)) => {
            match ctx.paths.get(*path) {
                Some(named) => predictive::predictive(k, limits, &named.polyline, state, params, gizmos),
                None => brake(k, limits),
            }
        }
        (Behaviour::Planner { params }, BehaviourState::Planner(state)) => {
            planner::ship_in_box(k, limits, ctx.spheres, ctx.bounds, params, state, ctx.dt, gizmos)
        }
        (Behaviour::AvoidObstacles { params }, _) => {
            match avoid::avoid_obstacles(k, limits, ctx.spheres, ctx.dt, params, gizmos) {
                Some(acceleration) => Steering::Acceleration(acceleration),
                None => Steering::NONE,
            }
        }
        // The other agent as it was at the start of the step; gone (a dangling index): brake.
        (Behaviour::Pursuit { agent, params }, _) => match ctx.named(*agent) {
            Some(other) => pursuit::pursuit_aiming(k, limits, other, params, aim, gizmos),
            None => brake(k, limits),
        },
        (Behaviour::Evade { agent, params }, _) => match ctx.named(*agent) {
            Some(other) => evade::evade(k, limits, other, params, gizmos),
            None => brake(k, limits),
        },
        (Behaviour::Wander { params }, BehaviourState::Wander(state)) => {
            wander::wander(k, limits, state, params, ctx.dt, gizmos)
        }
        (Behaviour::Flocking { params }, state) => {
            if gizmos.is_enabled() || ctx.slot_headings.len() != ctx.grid.len() {
                let neighbours = GridNeighbours::of(ctx, *k);
                return flocking::flocking_steering(k, limits, &neighbours, params, gizmos);
            }
            // The same request read straight from the grid's slot-ordered arrays (an agent in
            // the asking one's exact state is on its point, which no rule counts). When the
            // walk's radius is the crowd metrics' (the grid's cell size: every agent of the
            // step flocks with the same radius), it takes their sample on the way.
            let flock = match state {
                BehaviourState::Flock(flock) => Some(flock),
                _ => None,
            };
            let my_slot = flock.as_ref().and_then(|f| f.slot);
            let reach = ctx.grid.cell_size();
            let query = params.query_radius();
            let fused = my_slot.is_some() && query == reach && (query * query).sqrt() == query;
            // The walk taken before the step in the grid's order, when the flock is uniform
            // (the same sums from the same neighbours in the same order; see `World::walk_flock`).
            if let Some(walk) = my_slot.and_then(|slot| ctx.flock_walks.get(slot as usize)) {
                if let (true, Some(flock)) = (fused, flock) {
                    flock.crowd = Some(walk.crowd.finish(k.velocity));
                }
                let rules = ctx.flock_rules.copied().unwrap_or_else(|| flocking::FlockRules::of(params));
                return flocking::flocking_steering_from_sums(k.velocity, limits, walk.pull, &rules);
            }
            let mut crowd = CrowdWalk::new(k.position, limits.radius);
            let request = flocking::flocking_steering_over_runs(
                k,
                limits,
                ctx.grid.sorted_positions(),
                ctx.slot_headings,
                ctx.grid,
                my_slot.map_or(usize::MAX, |slot| slot as usize),
                params,
                |slot, position, heading| {
                    if fused {
                        crowd.add(position, heading, ctx.slot_radii.get(slot).copied().unwrap_or(0.0));
                    }
                },
            );
            if let (true, Some(flock)) = (fused, flock) {
                flock.crowd = Some(crowd.finish(k.velocity));
            }
            request
        }
        (Behaviour::OffsetPursuit { agent, params }, BehaviourState::Slot(tracker)) => {
            match ctx.named(*agent) {
                Some(leader) => offset_pursuit::offset_pursuit_tracked_aiming(
                    k, limits, leader, params, tracker, ctx.dt, aim, gizmos,
                ),
                None => brake(k, limits),
            }
        }
        (Behaviour::LeaderFollowing { agent, params }, _) => match ctx.named(*agent) {
            Some(leader) => leader_following::leader_following_aiming(k, limits, leader, params, aim, gizmos),
            None => brake(k, limits),
        },
        (Behaviour::Interpose { agent, other, params }, _) => match (ctx.named(*agent), ctx.named(*other)) {
            (Some(a), Some(b)) => interpose::interpose_aiming(k, limits, a, b, params, aim, gizmos),
            _ => brake(k, limits),
        },
        (Behaviour::Hide { agent, params }, _) => match ctx.named(*agent) {
            Some(hunter) => {
                let evade = PursuitParams::default();
                hide::hide_aiming(k, limits, hunter, ctx.spheres, params, &evade, aim, gizmos)
            }
            None => brake(k, limits),
        },
        // Turning only: the heading is turned in `move_agent` (see `Behaviour::turns_only`).
        (Behaviour::Face { .. } | Behaviour::LookWhereYouAreGoing { .. }, _) => Steering::NONE,
        (Behaviour::CollisionAvoidance { params }, state) => {
            // The walk taken before the step in the grid's order, when every agent that avoids
            // avoids with the same parameters (see `World::walk_avoidance`); else its own.
            let slot = match state {
                BehaviourState::Avoid(slot) => *slot,
                _ => None,
            };
            let threat = match slot.and_then(|slot| ctx.avoid_walks.get(slot as usize)) {
                Some(walk) => walk.threat,
                None => {
                    let neighbours = GridNeighbours::of(ctx, *k);
                    collision_avoidance::first_threat(
                        k,
                        limits.radius,
                        &neighbours,
                        params,
                        ctx.fastest_speed,
                    )
                }
            };
            collision_avoidance::avoid_threat(k, limits, params, threat, gizmos)
        }
        // A region that no longer exists asks for nothing (the entry is dropped with the path).
        (Behaviour::Containment { region, params }, _) => match ctx.paths.get(*region) {
            Some(named) => containment::containment(k, limits, named.polyline.points(), params, gizmos),
            None => Steering::NONE,
        },
        (Behaviour::FlowField { path, field, params }, _) => {
            match field_source(ctx.paths, ctx.fields, *path, *field, params) {
                Some(field) => flow_field::flow_field(k, limits, &field, params, gizmos),
                None => brake(k, limits),
            }
        }
        // The state does not match the behaviour (changed in the editor without a reset):
        // start the behaviour's state afresh and hold still this step.
        (behaviour, state) => {
            *state = BehaviourState::start(behaviour);
            brake(k, limits)
        }
    }
}

/// The field of a flow-field behaviour: the painted field `field` when it names one, else along
/// path `path` when it names one (None when what it names is gone), else seeded noise.
fn field_source<'a>(
    paths: &'a [NamedPath],
    fields: &'a [NamedField],
    path: Option<usize>,
    field: Option<usize>,
    p: &FlowFieldParams,
) -> Option<FieldSource<'a>> {
    match (field, path) {
        (Some(idx), _) => fields.get(idx).map(|named| FieldSource::Painted(&named.field)),
        (None, Some(idx)) => {
            paths.get(idx).map(|named| FieldSource::AlongPolyline { path: &named.polyline, pull: p.pull })
        }
        (None, None) => Some(FieldSource::Noise { seed: u64::from(p.seed), scale: p.scale }),
    }
}

/// Decelerate to a stop.
fn brake(k: &Kinematics, limits: &Limits) -> Steering {
    Steering::Acceleration(behaviours::accelerate_toward_velocity(
        k.velocity,
        Vec3::ZERO,
        behaviours::STEER_TIME,
        limits.max_acceleration,
    ))
}

/// Applies a steering request within the limits for `dt` seconds.
#[inline(always)]
pub fn integrate(k: &mut Kinematics, limits: &Limits, steering: Steering, dt: f32) {
    let max_speed = limits.max_speed.max(0.0);
    match steering {
        Steering::Velocity(velocity) => {
            k.velocity = finite_or_zero(velocity).clamp_length_max(max_speed);
            k.position += k.velocity * dt;
        }
        Steering::Acceleration(linear) => {
            (k.position, k.velocity) = accelerate(k.position, k.velocity, linear, limits, dt);
        }
        Steering::Position(point) => {
            if point.is_finite() && dt > 0.0 {
                k.velocity = (point - k.position) / dt;
                k.position = point;
            } else {
                k.velocity = Vec3::ZERO;
            }
        }
    }
    k.orientation = kinematic::new_orientation(k.orientation, k.velocity);
}

/// [`integrate`]'s dynamic step in 3D or in a plane (the planar flocking benchmark): the
/// acceleration (zero unless finite) clamped to the limit, then the velocity clamped to the top
/// speed, then the position moved on (semi-implicit Euler). Returns the new position and
/// velocity.
#[inline(always)]
pub fn accelerate<V: crate::behaviours::vector::SteerVector>(
    position: V,
    velocity: V,
    linear: V,
    limits: &Limits,
    dt: f32,
) -> (V, V) {
    let linear = if linear.is_finite() { linear } else { V::ZERO };
    let linear = linear.clamp_length_max(limits.max_acceleration.max(0.0));
    let velocity = (velocity + linear * dt).clamp_length_max(limits.max_speed.max(0.0));
    (position + velocity * dt, velocity)
}

fn finite_or_zero(v: Vec3) -> Vec3 {
    if v.is_finite() {
        v
    } else {
        Vec3::ZERO
    }
}

#[inline(always)]
fn has_arrived(agent: &Agent, ctx: &StepContext) -> bool {
    let position = agent.kinematics.position;
    match &agent.behaviour {
        Behaviour::Arrive { target, params } => {
            ctx.targets.get(*target).is_some_and(|t| t.position.distance(position) < params.target_radius)
        }
        Behaviour::Seek { target } => {
            ctx.targets.get(*target).is_some_and(|t| t.position.distance(position) < agent.limits.radius)
        }
        Behaviour::Flee { .. } => false,
        _ => agent.has_arrived_at_end(),
    }
}

/// Reflects a moving point (a sphere of `radius`) off the walls of `bounds`.
fn bounce(position: &mut Vec3, velocity: &mut Vec3, radius: f32, bounds: Bounds) {
    for axis in 0..3 {
        let low = bounds.min[axis] + radius;
        let high = bounds.max[axis] - radius;
        if low > high {
            continue;
        }
        if position[axis] < low {
            position[axis] = low + (low - position[axis]).min(high - low);
            velocity[axis] = velocity[axis].abs();
        } else if position[axis] > high {
            position[axis] = high - (position[axis] - high).min(high - low);
            velocity[axis] = -velocity[axis].abs();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A permutation of `0..n` from `seed` (a plain LCG shuffle).
    fn shuffled_places(n: usize, seed: u64) -> Vec<u32> {
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut state = seed | 1;
        for i in (1..n).rev() {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            order.swap(i, (state >> 33) as usize % (i + 1));
        }
        order
    }

    #[test]
    fn agents_stored_in_another_order_read_and_change_in_agent_order() {
        use crate::bench::{world_for, Kernel};
        let world = world_for(Kernel::Wander, 97, 3);
        let plain = format!("{:?}", world.agents);
        let names = |agents: &Agents| agents.iter().map(|a| a.about.name.clone()).collect::<Vec<_>>();
        let mut seen = Vec::new();
        for seed in 0..6 {
            let mut agents = world.agents.clone();
            // Twice: a second order on top of the first.
            agents.store_in_order(&shuffled_places(97, seed), &mut seen);
            agents.store_in_order(&shuffled_places(97, seed + 100), &mut seen);
            assert!(agents.stored_apart());
            assert_ne!(
                agents.list.iter().map(|a| a.about.name.clone()).collect::<Vec<_>>(),
                names(&world.agents)
            );
            assert_eq!(format!("{agents:?}"), plain);
            assert_eq!(format!("{:?}", agents.to_vec()), format!("{:?}", world.agents.to_vec()));
            assert_eq!(format!("{:?}", agents.clone()), plain);
            for idx in [0, 1, 50, 96] {
                assert_eq!(agents[idx].about.name, world.agents[idx].about.name);
                assert_eq!(agents.get(idx).map(|a| &a.about.name), Some(&world.agents[idx].about.name));
            }
            assert!(agents.get(97).is_none());
            assert_eq!(agents.first().map(|a| &a.about.name), world.agents.first().map(|a| &a.about.name));
            assert_eq!(agents.last().map(|a| &a.about.name), world.agents.last().map(|a| &a.about.name));
            assert_eq!(agents.iter().rev().nth(3).map(|a| &a.about.name), Some(&world.agents[93].about.name));
            assert_eq!(agents.iter().len(), 97);
            let parallel: Vec<String> = agents.par_iter().map(|a| a.about.name.clone()).collect();
            assert_eq!(parallel, names(&world.agents));
            // Changed through an index: the agent of that index.
            agents[5].about.name = "five".into();
            assert_eq!(agents.iter().nth(5).map(|a| a.about.name.as_str()), Some("five"));
            // Pushed while stored apart, then removed after it: agent order throughout.
            agents.push(world.agents[0].clone());
            assert_eq!(agents.len(), 98);
            assert_eq!(agents[97].about.name, world.agents[0].about.name);
            let removed = agents.remove(10);
            assert_eq!(removed.about.name, world.agents[10].about.name);
            assert!(!agents.stored_apart(), "a change of shape puts the records back in agent order");
            let mut expected = names(&world.agents);
            expected[5] = "five".into();
            expected.remove(10);
            expected.push(world.agents[0].about.name.clone());
            assert_eq!(names(&agents), expected);
            assert_eq!(agents.list.iter().map(|a| a.about.name.clone()).collect::<Vec<_>>(), expected);
        }
        // Orders that are not every place once are ignored.
        let mut agents = world.agents.clone();
        for bad in [vec![0u32; 97], (0..96).collect(), (1..98).collect()] {
            agents.store_in_order(&bad, &mut seen);
            assert!(!agents.stored_apart());
            assert_eq!(format!("{agents:?}"), plain);
        }
        // The order back to agent order is no order apart.
        agents.store_in_order(&shuffled_places(97, 7), &mut seen);
        let back: Vec<u32> = {
            let mut back = vec![0u32; 97];
            for (s, &idx) in agents.index.iter().enumerate() {
                back[idx as usize] = s as u32;
            }
            back
        };
        agents.store_in_order(&back, &mut seen);
        assert!(!agents.stored_apart());
        assert_eq!(format!("{:?}", agents.list), plain);
    }

    /// For every benchmark kernel with gizmos on, after 3 steps: `copy` of the world has every
    /// agent the same to the last field, and the same after 3 more steps taken by both, with the
    /// same events.
    fn copies_are_the_crowd_and_step_as_it_does(copy: impl Fn(&World) -> World) {
        for kernel in crate::bench::Kernel::ALL {
            let mut world = crate::bench::world_variant(kernel, 40, 8, 1);
            world.set_gizmos_enabled(true);
            world.run_steps(3);
            let mut copy = copy(&world);
            let label = kernel.label();
            assert_eq!(format!("{:?}", copy.agents.list), format!("{:?}", world.agents.list), "{label}");
            world.run_steps(3);
            copy.run_steps(3);
            assert_eq!(format!("{:?}", copy.agents.list), format!("{:?}", world.agents.list), "{label}");
            assert_eq!(copy.events(), world.events(), "{label}");
        }
    }

    /// A cloned crowd (its boxes laid out by kind, see `Agents`' `Clone`) is the crowd, for
    /// every kind of box: state boxes, lists of entries, rare and path metrics, agents that read
    /// others, gizmo lists.
    #[test]
    fn a_cloned_crowd_is_the_crowd_and_steps_as_it_does() {
        copies_are_the_crowd_and_step_as_it_does(World::clone);
    }

    /// A list made into a crowd (as a scene read from a file is) is laid out anew by kind
    /// (`From<Vec<Agent>>`) and is the list's crowd.
    #[test]
    fn a_list_made_a_crowd_is_the_list_and_steps_as_it_does() {
        copies_are_the_crowd_and_step_as_it_does(|world| {
            let mut made = world.clone();
            made.agents = Agents::from(world.agents.iter().cloned().collect::<Vec<Agent>>());
            made
        });
    }

    /// The slot-ordered arrays a step gathers are the start-of-step snapshot's, slot by slot:
    /// headings, radii, facing directions (a uniform flock), whole kinematics (collision
    /// avoidance) and each agent's slot, on one thread and on the pool alike (the headings of
    /// collision avoidance's crowd are worked out from its gathered kinematics).
    #[test]
    fn the_slot_ordered_arrays_are_the_snapshot_in_slot_order() {
        use crate::bench::Kernel;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a 2-thread pool");
        for kernel in [Kernel::Flocking, Kernel::CollisionAvoidance] {
            for parallel_from in [usize::MAX, 0] {
                let mut world = crate::bench::world_variant(kernel, 300, 8, 2);
                pool.install(|| (0..3).for_each(|_| world.step_parallel_from(parallel_from)));
                let order = world.grid.order();
                let label = format!("{} parallel from {parallel_from}", kernel.label());
                assert_eq!(order.len(), 300, "{label}");
                assert_eq!(world.slot_forwards.is_empty(), kernel != Kernel::Flocking, "{label}");
                assert_eq!(world.slot_kinematics.is_empty(), kernel != Kernel::CollisionAvoidance, "{label}");
                for (slot, &agent_idx) in order.iter().enumerate() {
                    let idx = agent_idx as usize;
                    let k = world.snapshot[idx];
                    let heading = k.velocity.normalize_or_zero();
                    assert_eq!(
                        world.slot_headings[slot].to_array().map(f32::to_bits),
                        heading.to_array().map(f32::to_bits),
                        "{label}"
                    );
                    assert_eq!(world.slot_radii[slot].to_bits(), world.radii[idx].to_bits(), "{label}");
                    assert_eq!(world.slot_of[idx] as usize, slot, "{label}");
                    if let Some(forward) = world.slot_forwards.get(slot) {
                        assert_eq!(*forward, crate::behaviours::neighbourhood::forward(&k), "{label}");
                    }
                    if let Some(gathered) = world.slot_kinematics.get(slot) {
                        assert_eq!(*gathered, k, "{label}");
                    }
                }
            }
        }
    }

    /// An agent of one blended behaviour holds no list box in its record (`MixBox`), and no
    /// step, reset or gizmo toggle makes one: every kernel, every shipped scene, steps with
    /// gizmos on and off and a reset between. An agent whose list is more than its main
    /// behaviour has one.
    #[test]
    fn steps_make_no_list_box_for_an_agent_of_one_behaviour() {
        fn check(world: &World, label: &str) {
            for (i, agent) in world.agents.iter().enumerate() {
                assert_eq!(agent.mix.is_boxed(), *agent.mix != Mix::DEFAULT, "{label} agent {i}");
            }
        }
        let mut worlds: Vec<(String, World)> = crate::bench::Kernel::ALL
            .into_iter()
            .map(|kernel| (kernel.label().to_string(), crate::bench::world_variant(kernel, 40, 8, 1)))
            .collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        for entry in std::fs::read_dir(dir).expect("scenes") {
            let path = entry.expect("entry").path();
            let world = crate::scene::load_scene(&path).expect("a shipped scene loads");
            worlds.push((path.display().to_string(), world));
        }
        let mut unboxed = 0;
        for (label, world) in &mut worlds {
            check(world, label);
            world.set_gizmos_enabled(true);
            world.run_steps(20);
            world.set_gizmos_enabled(false);
            world.run_steps(20);
            check(world, label);
            world.reset();
            check(world, label);
            check(&world.clone(), label);
            unboxed += world.agents.iter().filter(|a| !a.mix.is_boxed()).count();
        }
        assert!(unboxed > 100, "the check saw agents without a box: {unboxed}");
    }

    /// A list compares by what it holds, boxed or not; the default list is held without a box,
    /// and an edit boxes it.
    #[test]
    fn a_list_box_compares_by_its_list() {
        let none = MixBox::default();
        assert!(!none.is_boxed() && *none == Mix::DEFAULT);
        assert!(!MixBox::from(Mix::default()).is_boxed());
        let mut edited = MixBox::default();
        edited.edit();
        assert!(edited.is_boxed());
        assert_eq!(edited, none, "a box holding the default list is the default list");
        edited.edit().main.weight = 2.0;
        assert_ne!(edited, none);
        assert_eq!(MixBox::from(Mix::clone(&edited)), edited);
        let mut unedited = MixBox::default();
        assert!(unedited.entries_mut().is_empty());
        unedited.reset_states();
        assert!(!unedited.is_boxed(), "reading or resetting makes no box");
    }

    /// The record every pass of a step walks stays within the size its measured speed was
    /// taken at (see [`Agent`]); a field added inline that pushes it over fails here, so the
    /// cost is weighed, not found later in `steerlab bench`.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn the_agent_record_stays_compact() {
        use std::mem::size_of;
        let sizes = [
            ("Agent", size_of::<Agent>(), 208),
            ("AgentMetrics", size_of::<AgentMetrics>(), 64),
            ("Gizmos", size_of::<Gizmos>(), 8),
            ("BehaviourState", size_of::<BehaviourState>(), 32),
            // The list's box with its first extra entry inline (callgrind at 1,000,000 agents
            // of the leader crowd: 7% fewer last-level read misses than box and vector apart).
            ("Mix", size_of::<mix::Mix>(), 136),
        ];
        for (name, size, at_most) in sizes {
            assert!(size <= at_most, "{name} is {size} bytes, over {at_most}: {sizes:?}");
        }
    }

    #[test]
    fn nearly_all_leaves_out_at_most_one_agent_in_eight() {
        assert!(nearly_all(0, 0) && nearly_all(7, 8) && nearly_all(350, 400));
        assert!(!nearly_all(6, 8) && !nearly_all(349, 400) && !nearly_all(1, 1_000_000));
        assert!(nearly_all(usize::MAX, 3), "more than all is all");
    }

    #[test]
    fn hex_colours_round_trip_and_reject_garbage() {
        assert_eq!(Rgb::from_hex("#e6194B"), Some(Rgb(0xe6, 0x19, 0x4b)));
        assert_eq!(Rgb(1, 2, 255).to_hex(), "#0102ff");
        for bad in ["e6194b", "#e6194", "#e6194bb", "#gg0000", "#é6194b", ""] {
            assert_eq!(Rgb::from_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn integrate_clamps_acceleration_then_speed() {
        let limits = Limits { radius: 1.0, max_speed: 10.0, max_acceleration: 100.0 };
        let mut k = Kinematics { velocity: Vec3::new(9.0, 0.0, 0.0), ..Default::default() };
        integrate(&mut k, &limits, Steering::Acceleration(Vec3::new(1000.0, 0.0, 0.0)), 0.1);
        assert_eq!(k.velocity, Vec3::new(10.0, 0.0, 0.0));
        assert_eq!(k.position, Vec3::new(1.0, 0.0, 0.0));
    }

    #[test]
    fn integrate_ignores_non_finite_requests() {
        let limits = Limits::default();
        let mut k = Kinematics::default();
        integrate(&mut k, &limits, Steering::Acceleration(Vec3::new(f32::NAN, 0.0, 0.0)), 0.1);
        assert!(k.position.is_finite() && k.velocity.is_finite());
        integrate(&mut k, &limits, Steering::Position(Vec3::splat(f32::INFINITY)), 0.1);
        assert!(k.position.is_finite() && k.velocity.is_finite());
    }

    #[test]
    fn bounce_reflects_off_both_walls() {
        let bounds = Bounds { min: Vec3::splat(-10.0), max: Vec3::splat(10.0) };
        let mut p = Vec3::new(12.0, -11.0, 0.0);
        let mut v = Vec3::new(5.0, -5.0, 0.0);
        bounce(&mut p, &mut v, 1.0, bounds);
        assert_eq!(p, Vec3::new(6.0, -7.0, 0.0));
        assert_eq!(v, Vec3::new(-5.0, 5.0, 0.0));
    }

    /// The world's agents with every step's cache dropped: what a step finds without them.
    fn without_caches(world: &World) -> World {
        let mut copy = world.clone();
        copy.agents = copy.agents.to_vec().into();
        copy
    }

    fn same_kinematics(a: &World, b: &World) -> bool {
        a.agents.len() == b.agents.len()
            && a.agents.iter().zip(b.agents.iter()).all(|(x, y)| x.kinematics == y.kinematics)
    }

    #[test]
    fn steps_after_kept_needs_and_snapshots_equal_steps_without_them() {
        use crate::bench::{world_for, Kernel};
        for kernel in [Kernel::Seek, Kernel::Pursuit, Kernel::Flocking, Kernel::CollisionAvoidance] {
            let mut world = world_for(kernel, 300, 8);
            for _ in 0..5 {
                let mut fresh = without_caches(&world);
                world.step();
                fresh.step();
                assert!(same_kinematics(&world, &fresh), "{}", kernel.label());
                assert_eq!(world.polarization(), fresh.polarization());
            }
        }
    }

    /// `world` stepped `steps` times on a pool of `threads` (every step split over the pool
    /// from 64 agents), with its flock or its collision avoidance walked before the step
    /// (`walked`) or each agent walking in its own step: every agent's kinematics, gizmos and
    /// metrics, the events and the polarization, printed (`Debug` prints each float's shortest
    /// exact form: equal text, equal bits); and whether walks were taken before a step.
    fn walk_run(world: &World, walked: bool, threads: usize, steps: usize) -> (String, bool) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        let mut world = world.clone();
        world.flock_walk_from = if walked { 0 } else { usize::MAX };
        world.avoid_walk_from = world.flock_walk_from;
        pool.install(|| {
            let mut out = String::new();
            let mut walks_taken = false;
            for step in 0..steps {
                world.step_parallel_from(64);
                walks_taken |= !world.flock_walks.is_empty() || !world.avoid_walks.is_empty();
                out += &printed_step(step, &world);
            }
            out += &format!("{:?}", world.metrics());
            (out, walks_taken)
        })
    }

    /// What a run's comparisons read of `world` after step `step`: every agent's kinematics and
    /// gizmos, the events and the polarization (`Debug` prints each float's shortest exact form:
    /// equal text, equal bits).
    fn printed_step(step: usize, world: &World) -> String {
        let kinematics: Vec<_> = world.agents.iter().map(|a| a.kinematics).collect();
        let gizmos: Vec<_> = world.agents.iter().map(|a| a.gizmos.items().to_vec()).collect();
        format!("{step} {kinematics:?} {gizmos:?} {:?} {:?}\n", world.events(), world.polarization())
    }

    /// How [`order_run`] stores a world's records while it steps.
    #[derive(Clone, Copy, Debug)]
    enum Storage {
        /// In agent order throughout.
        AgentOrder,
        /// In the grid's order, as a big crowd is (here from 2 agents).
        GridOrder,
        /// Shuffled before the first step and again after every fifth (on top of the last).
        Shuffled(u64),
    }

    /// `world` stepped `steps` times on a pool of `threads` (every step split over the pool
    /// from 64 agents), its records stored as `storage` says: every agent's kinematics, gizmos
    /// and metrics, the events and the polarization, printed as `walk_run` prints them (equal
    /// text, equal bits); and whether the records were ever stored apart from agent order.
    fn order_run(world: &World, storage: Storage, threads: usize, steps: usize) -> (String, bool) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        let mut world = world.clone();
        world.space_order_from = if matches!(storage, Storage::GridOrder) { 2 } else { usize::MAX };
        let mut seen = Vec::new();
        pool.install(|| {
            let mut out = String::new();
            let mut apart = false;
            for step in 0..steps {
                if let Storage::Shuffled(seed) = storage {
                    if step % 5 == 0 {
                        let order = shuffled_places(world.agents.len(), seed + step as u64);
                        world.agents.store_in_order(&order, &mut seen);
                    }
                }
                apart |= world.agents.stored_apart();
                world.step_parallel_from(64);
                apart |= world.agents.stored_apart();
                out += &printed_step(step, &world);
            }
            out += &format!("{:?}", world.metrics());
            (out, apart)
        })
    }

    #[test]
    fn a_crowd_stored_in_any_order_steps_as_in_agent_order_bit_for_bit() {
        use crate::bench::{world_for, Kernel};
        // (crowd, whether the step may store it apart: it walks over neighbours)
        let mut crowds: Vec<(&str, World, bool)> = Vec::new();
        crowds.push(("flock", world_for(Kernel::Flocking, 300, 0), true));
        crowds.push(("big flock", world_for(Kernel::Flocking, 5_000, 0), true));
        let mut packed = world_for(Kernel::Flocking, 700, 0);
        packed.agents.iter_mut().for_each(|agent| agent.kinematics.position *= 0.05);
        crowds.push(("packed flock", packed, true));
        // More than `MAX_CELL_SLOTS` in one cell: which ones a walk reads shows.
        let mut stacked = world_for(Kernel::Flocking, 600, 0);
        stacked.agents.iter_mut().for_each(|agent| agent.kinematics.position *= 1e-4);
        crowds.push(("stacked flock", stacked, true));
        let mut drawn = world_for(Kernel::Flocking, 400, 0);
        drawn.set_gizmos_enabled(true);
        drawn.set_gizmo_focus(GizmoFocus::Only(Some(17)));
        crowds.push(("drawn flock", drawn, true));
        let mut mixed = world_for(Kernel::Flocking, 400, 0);
        if let Behaviour::Flocking { params } = &mut mixed.agents[5].behaviour {
            params.cohesion = 1.5;
        }
        crowds.push(("mixed flock", mixed, true));
        // Obstacles in the flock's way: collision events, pushed agent by agent.
        let mut rocky = world_for(Kernel::Flocking, 500, 0);
        let spread = rocky.agents.iter().map(|a| a.kinematics.position.length()).fold(0.0f32, f32::max);
        for k in 0..40 {
            let angle = k as f32 * 2.399_963;
            let position = Vec3::new(angle.cos(), angle.sin(), 0.0) * spread * (k as f32 / 40.0).sqrt();
            rocky.obstacles.push(Obstacle::still(position, 12.0));
        }
        crowds.push(("rocky flock", rocky, true));
        for (scale, label) in [(1.0, "avoiders"), (0.05, "packed avoiders"), (20.0, "sparse avoiders")] {
            let mut world = world_for(Kernel::CollisionAvoidance, 400, 0);
            world.agents.iter_mut().for_each(|agent| agent.kinematics.position *= scale);
            crowds.push((label, world, true));
        }
        let mut lost = world_for(Kernel::CollisionAvoidance, 300, 0);
        lost.agents[3].kinematics.position = Vec3::NAN;
        crowds.push(("an avoider lost at NaN", lost, true));
        // Entries that name other agents, read at the named agent's place (`StepContext::named`).
        // With no neighbour walk there is no grid to store by.
        crowds.push(("pursuers", world_for(Kernel::Pursuit, 300, 0), false));
        let mut chased = world_for(Kernel::Flocking, 300, 0);
        chased.agents[0].behaviour = Behaviour::Pursuit { agent: 7, params: Default::default() };
        crowds.push(("a flock with a pursuer", chased, true));
        // Half the flock seeking, a few avoiding beside flocking: the walks before the step skip
        // the seekers' slots and walk the others' by what each reads (`World::gather_slot_reads`),
        // which must follow the records into every storage order.
        let mut halved = world_for(Kernel::Flocking, 600, 0);
        for (idx, agent) in halved.agents.iter_mut().enumerate() {
            if idx % 2 == 1 {
                let seek = Behaviour::Seek { target: 0 };
                agent.state = BehaviourState::start(&seek);
                agent.behaviour = seek;
            } else if idx % 10 == 0 {
                let avoid = Behaviour::CollisionAvoidance { params: CollisionAvoidanceParams::default() };
                agent.mix.edit().more.push(Entry::new(avoid, Slot::default()));
            }
        }
        crowds.push(("a flock half of seekers", halved, true));
        // Every kind of naming, main entry or not, one past the crowd's end and one of itself,
        // beside the flock's walks, with pillars to hide behind (every named reading's metrics
        // too: captures, slot errors, leader gaps, hiding).
        let mut naming = world_for(Kernel::Flocking, 400, 0);
        let mains = [
            Behaviour::Pursuit { agent: 7, params: Default::default() },
            Behaviour::Evade { agent: 399, params: Default::default() },
            Behaviour::OffsetPursuit { agent: 0, params: Default::default() },
            Behaviour::LeaderFollowing { agent: 123, params: Default::default() },
            Behaviour::Interpose { agent: 250, other: 7, params: Default::default() },
            Behaviour::Hide { agent: 3, params: Default::default() },
            Behaviour::Pursuit { agent: 4_000, params: Default::default() },
            Behaviour::Pursuit { agent: 7, params: Default::default() },
        ];
        for (idx, behaviour) in mains.into_iter().enumerate() {
            let agent = &mut naming.agents[idx * 40];
            agent.state = BehaviourState::start(&behaviour);
            agent.behaviour = behaviour;
        }
        let faces = Behaviour::Face { agent: 300, params: Default::default() };
        naming.agents[13].mix.edit().more.push(Entry::new(faces, Slot { weight: 1.0, group: 0 }));
        let evades = Behaviour::Evade { agent: 20, params: Default::default() };
        naming.agents[20].mix.edit().more.push(Entry::new(evades, Slot { weight: 0.5, group: 0 }));
        let spread = naming.agents.iter().map(|a| a.kinematics.position.length()).fold(0.0f32, f32::max);
        for k in 0..12 {
            let position = Vec3::new(k as f32 / 12.0 - 0.5, 0.25, 0.0) * spread;
            naming.obstacles.push(Obstacle::still(position, 10.0));
        }
        crowds.push(("a flock naming others", naming, true));
        // No grid at all.
        crowds.push(("arrivers", world_for(Kernel::Arrive, 300, 0), false));
        for (label, world, may_be_apart) in &crowds {
            let (plain, apart) = order_run(world, Storage::AgentOrder, 1, 40);
            assert!(!apart, "{label}");
            assert!(
                plain.contains("Collision") || *label != "rocky flock",
                "{label}: no collision event to order"
            );
            for threads in 1..=3 {
                let (gridded, apart) = order_run(world, Storage::GridOrder, threads, 40);
                assert_eq!(apart, *may_be_apart, "{label}, {threads} threads");
                assert!(gridded == plain, "{label}: stored in the grid's order, {threads} threads");
                let (shuffled, _) = order_run(world, Storage::Shuffled(threads as u64), threads, 40);
                assert!(shuffled == plain, "{label}: shuffled, {threads} threads");
            }
        }
    }

    #[test]
    fn a_flock_walked_in_grid_order_steps_as_each_agent_walking_its_own() {
        use crate::bench::{world_for, Kernel};
        // Random crowds (the bench's), spread as it spreads them and packed 20 times closer
        // (rows of cells longer than the walk's branch-free batches), one with a drawn agent
        // (gizmos on for one: it walks in its own step), one whose flock is not uniform (one
        // agent with other parameters: nobody is walked before the step).
        let mut crowds = Vec::new();
        for (n, packed) in [(300, false), (700, true), (5_000, false)] {
            let mut world = world_for(Kernel::Flocking, n, 0);
            if packed {
                world.agents.iter_mut().for_each(|agent| agent.kinematics.position *= 0.05);
            }
            crowds.push((world, true));
        }
        // Every boid seeing ahead only (the rules' cosines count), all alike.
        let mut narrow = world_for(Kernel::Flocking, 400, 0);
        for agent in narrow.agents.iter_mut() {
            if let Behaviour::Flocking { params } = &mut agent.behaviour {
                params.view_angle = 4.0;
            }
        }
        crowds.push((narrow, true));
        let mut drawn = world_for(Kernel::Flocking, 400, 0);
        drawn.set_gizmos_enabled(true);
        drawn.set_gizmo_focus(GizmoFocus::Only(Some(17)));
        crowds.push((drawn, true));
        let mut mixed = world_for(Kernel::Flocking, 400, 0);
        if let Behaviour::Flocking { params } = &mut mixed.agents[5].behaviour {
            params.cohesion = 1.5;
        }
        crowds.push((mixed, false));
        // Agents that do not flock among the boids (a pursuer of a boid, a seeker, an avoider
        // whose query is wider than the flock's): the boids are walked before the step all the
        // same, the others walk in their own step.
        let mut hunted = world_for(Kernel::Flocking, 500, 0);
        let others = [
            (0, Behaviour::Pursuit { agent: 7, params: Default::default() }),
            (9, Behaviour::Seek { target: 0 }),
            (30, Behaviour::CollisionAvoidance { params: CollisionAvoidanceParams::default() }),
        ];
        for (idx, behaviour) in others {
            let agent = &mut hunted.agents[idx];
            agent.state = BehaviourState::start(&behaviour);
            agent.behaviour = behaviour;
        }
        crowds.push((hunted, true));
        // A few boids among seekers, half and half, and one agent in eight not flocking: walked
        // before the step, the seekers' slots skipped.
        for (others, walked) in [(390, true), (200, true), (50, true), (51, true)] {
            let mut world = world_for(Kernel::Flocking, 400, 0);
            for agent in world.agents.iter_mut().take(others) {
                let seek = Behaviour::Seek { target: 0 };
                agent.state = BehaviourState::start(&seek);
                agent.behaviour = seek;
            }
            crowds.push((world, walked));
        }
        // Every boid also avoiding collisions: the grid's cells are as wide as the avoidance's
        // threat radius, wider than the flock's query, so the crowd metrics' sample is not the
        // flock walk's (it is walked apart, over the wider cell).
        let mut wide = world_for(Kernel::Flocking, 400, 0);
        for agent in wide.agents.iter_mut() {
            let avoid = Behaviour::CollisionAvoidance { params: CollisionAvoidanceParams::default() };
            agent.mix.edit().more.push(Entry::new(avoid, Slot::default()));
        }
        let mut probe = wide.clone();
        probe.step();
        let query = match &probe.agents[0].behaviour {
            Behaviour::Flocking { params } => params.query_radius(),
            _ => f32::NAN,
        };
        assert!(probe.grid.cell_size() > query, "{} against {query}", probe.grid.cell_size());
        crowds.push((wide, true));
        for (idx, (world, uniform)) in crowds.iter().enumerate() {
            let (plain, _) = walk_run(world, false, 1, 25);
            for threads in 1..=3 {
                let (walked, taken) = walk_run(world, true, threads, 25);
                assert_eq!(taken, *uniform, "crowd {idx}, {threads} threads");
                assert!(walked == plain, "crowd {idx}, {threads} threads");
            }
        }
    }

    #[test]
    fn collision_avoidance_walked_in_grid_order_steps_as_each_agent_walking_its_own() {
        use crate::bench::{world_for, Kernel};
        // Random crowds (the bench's), spread as it spreads them, packed 20 times closer (many
        // overlapping: the first overlap found wins, so the order of the walk shows), and 20
        // times sparser (the grid hashed, not dense); one with an agent lost at NaN and one at
        // rest on another's point; one with a drawn agent (gizmos on for one); one where an
        // agent avoids with another margin (nobody is walked before the step); agents that do
        // not avoid among the avoiders (walked before the step all the same, their slots skipped
        // or walked for their crowd sample alone).
        let mut crowds = Vec::new();
        for (n, scale) in [(300, 1.0), (700, 0.05), (400, 20.0), (5_000, 1.0)] {
            let mut world = world_for(Kernel::CollisionAvoidance, n, 0);
            world.agents.iter_mut().for_each(|agent| agent.kinematics.position *= scale);
            crowds.push((world, true));
        }
        let mut odd = world_for(Kernel::CollisionAvoidance, 300, 0);
        odd.agents[3].kinematics.position = Vec3::NAN;
        odd.agents[4].kinematics.velocity = Vec3::new(f32::NAN, 0.0, 0.0);
        odd.agents[5].kinematics = Kinematics { velocity: Vec3::ZERO, ..odd.agents[6].kinematics };
        crowds.push((odd, true));
        let mut drawn = world_for(Kernel::CollisionAvoidance, 400, 0);
        drawn.agents.iter_mut().for_each(|agent| agent.kinematics.position *= 0.2);
        drawn.set_gizmos_enabled(true);
        drawn.set_gizmo_focus(GizmoFocus::Only(Some(17)));
        crowds.push((drawn, true));
        let mut other_margin = world_for(Kernel::CollisionAvoidance, 400, 0);
        if let Behaviour::CollisionAvoidance { params } = &mut other_margin.agents[5].behaviour {
            params.margin = 6.0;
        }
        crowds.push((other_margin, false));
        // Seekers (the first a fast one, wider than the cells), then boids that do not avoid
        // (their crowd sample taken from the flock's walk or from the avoidance walk: the grid's
        // cells are the avoidance's), a pursuer of an avoider and an interposer.
        let boid = world_for(Kernel::Flocking, 1, 0).agents[0].behaviour.clone();
        let others = |k: usize| -> Vec<Behaviour> {
            (0..k)
                .map(|idx| match idx % 6 {
                    0 | 1 => Behaviour::Seek { target: 0 },
                    2 | 3 => boid.clone(),
                    4 => Behaviour::Pursuit { agent: 200, params: Default::default() },
                    _ => Behaviour::Interpose { agent: 201, other: 202, params: Default::default() },
                })
                .collect()
        };
        for (k, walked) in [(1, true), (50, true), (51, true), (300, true)] {
            let mut world = world_for(Kernel::CollisionAvoidance, 400, 0);
            world.agents.iter_mut().for_each(|agent| agent.kinematics.position *= 0.3);
            for (agent, behaviour) in world.agents.iter_mut().zip(others(k)) {
                agent.state = BehaviourState::start(&behaviour);
                agent.behaviour = behaviour;
            }
            world.agents[0].limits.max_speed *= 20.0;
            crowds.push((world, walked));
        }
        for (idx, (world, uniform)) in crowds.iter().enumerate() {
            let (plain, _) = walk_run(world, false, 1, 25);
            for threads in 1..=3 {
                let (walked, taken) = walk_run(world, true, threads, 25);
                assert_eq!(taken, *uniform, "crowd {idx}, {threads} threads");
                assert!(walked == plain, "crowd {idx}, {threads} threads");
            }
        }
    }

    /// Agents that change kind between steps (seekers becoming boids and avoiders, boids
    /// becoming seekers, through the list's mutable access): the walks before the step read
    /// each agent's kind as it is now, not as it was when the walks' reads were worked out
    /// (`Agents::reads`), in agent order and stored in the grid's order alike.
    #[test]
    fn agents_that_change_kind_mid_run_read_the_walks_of_their_new_kind() {
        use crate::bench::{world_for, Kernel};
        let mut world = world_for(Kernel::Flocking, 500, 0);
        let boid = world.agents[0].behaviour.clone();
        let avoid = Behaviour::CollisionAvoidance { params: CollisionAvoidanceParams::default() };
        let seek = Behaviour::Seek { target: 0 };
        let set = |agent: &mut Agent, behaviour: &Behaviour| {
            agent.state = BehaviourState::start(behaviour);
            agent.behaviour = behaviour.clone();
        };
        for agent in world.agents.iter_mut().skip(100) {
            set(agent, &seek);
        }
        let run = |walked: bool, space_order_from: usize| {
            let mut world = world.clone();
            world.flock_walk_from = if walked { 0 } else { usize::MAX };
            world.avoid_walk_from = world.flock_walk_from;
            world.space_order_from = space_order_from;
            let mut out = String::new();
            let mut skipped = false;
            for step in 0..30 {
                match step {
                    8 => (100..300).for_each(|idx| set(&mut world.agents[idx], &boid)),
                    16 => (0..50).for_each(|idx| set(&mut world.agents[idx], &seek)),
                    22 => (300..400).for_each(|idx| set(&mut world.agents[idx], &avoid)),
                    _ => {}
                }
                world.step_parallel_from(64);
                skipped |= !world.slot_reads.is_empty() && !world.flock_walks.is_empty();
                out += &printed_step(step, &world);
            }
            out += &format!("{:?}", world.metrics());
            (out, skipped)
        };
        let (plain, _) = run(false, usize::MAX);
        for space_order_from in [usize::MAX, 2] {
            let (walked, skipped) = run(true, space_order_from);
            assert!(skipped, "some slots skipped ({space_order_from})");
            assert!(walked == plain, "stored from {space_order_from} agents");
        }
    }

    /// A world of collision avoiders sharing `params`, one at each `(x, y, vx, vy, radius)`.
    fn avoiders(agents: &[(f32, f32, f32, f32, f32)], params: CollisionAvoidanceParams) -> World {
        let mut world = World::default();
        for (idx, &(x, y, vx, vy, radius)) in agents.iter().enumerate() {
            let start = Kinematics {
                position: Vec3::new(x, y, 0.0),
                velocity: Vec3::new(vx, vy, 0.0),
                orientation: 0.0,
            };
            let limits = Limits { radius, max_speed: 40.0, max_acceleration: 80.0 };
            let behaviour = Behaviour::CollisionAvoidance { params };
            world.agents.push(Agent::new(format!("a{idx}"), Rgb(1, 2, 3), start, limits, behaviour));
        }
        world.reset();
        world
    }

    /// `world` stepped four times with its uniform collision avoidance walked before the step
    /// (which it must be) and with each agent walking its own: the same bits.
    fn walked_steps_as_each_walking_its_own(
        world: &World,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let (plain, _) = walk_run(world, false, 1, 4);
        let (walked, taken) = walk_run(world, true, 1, 4);
        proptest::prop_assert!(taken);
        proptest::prop_assert!(walked == plain);
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Random crowds of collision avoiders, close enough to meet (positions, velocities,
        /// radii and the shared parameters drawn at random, absurd ones among them): walked
        /// before the step or each agent walking its own, the same bits.
        #[test]
        fn random_avoiders_walked_before_the_step_step_as_each_walking_its_own(
            agents in proptest::collection::vec(
                (-60.0f32..60.0, -60.0f32..60.0, -30.0f32..30.0, -30.0f32..30.0, 0.0f32..8.0),
                2..60,
            ),
            horizon in proptest::prop_oneof![0.0f32..10.0, proptest::strategy::Just(1e30f32)],
            margin in proptest::prop_oneof![0.0f32..200.0, proptest::strategy::Just(0.0f32)],
        ) {
            let world = avoiders(&agents, CollisionAvoidanceParams { horizon, margin });
            walked_steps_as_each_walking_its_own(&world)?;
        }

        /// As above, with the crowd packed (overlapping, so the first overlap found wins and
        /// the order of the walk shows) and two agents far away: the grid is hashed, with a
        /// few buckets for a few agents, so that its cells share them (a walk meeting the
        /// buckets in the order of its cells would meet them in another order at the cell size
        /// than at the threat radius).
        #[test]
        fn packed_avoiders_in_a_hashed_grid_walked_before_the_step_step_as_each_walking_its_own(
            agents in proptest::collection::vec(
                (-30.0f32..30.0, -30.0f32..30.0, -30.0f32..30.0, -30.0f32..30.0, 1.0f32..12.0),
                6..16,
            ),
            horizon in 0.0f32..0.3,
            margin in 0.0f32..4.0,
        ) {
            let far = [(-5.0e4, 0.0, 0.0, 0.0, 1.0), (5.0e4, 5.0e4, 0.0, 0.0, 1.0)];
            let agents: Vec<_> = agents.iter().chain(&far).copied().collect();
            let world = avoiders(&agents, CollisionAvoidanceParams { horizon, margin });
            walked_steps_as_each_walking_its_own(&world)?;
        }

        /// Random mixed crowds: each agent a boid, an avoider, both, a seeker or a pursuer of
        /// another agent (kinds drawn with weights, so that the share of each crosses the
        /// one-in-eight bound both ways), packed or spread. Walked before the step (the slots of
        /// the agents that do not read a walk skipped) or each agent walking its own: the same
        /// bits on 1 and 2 threads; and walks are taken exactly when the test's own count says
        /// (some agent flocks or avoids, every one alike).
        #[test]
        fn random_mixed_crowds_step_alike_walked_or_not(
            kinds in proptest::collection::vec(
                proptest::prop_oneof![
                    8 => proptest::strategy::Just(0u8),
                    8 => proptest::strategy::Just(1u8),
                    2 => proptest::strategy::Just(2u8),
                    1 => proptest::strategy::Just(3u8),
                    1 => proptest::strategy::Just(4u8),
                ],
                16..120,
            ),
            bias in 0u8..3,
            packed in proptest::bool::ANY,
        ) {
            use crate::bench::{world_for, Kernel};
            let mut world = world_for(Kernel::Flocking, kinds.len(), 0);
            let boid = world.agents[0].behaviour.clone();
            let avoid = Behaviour::CollisionAvoidance { params: CollisionAvoidanceParams::default() };
            let n = kinds.len();
            let (mut flockers, mut avoiders) = (0, 0);
            for (idx, (agent, &kind)) in world.agents.iter_mut().zip(&kinds).enumerate() {
                // `bias` leans the crowd toward boids (0), avoiders (1) or neither.
                let kind = match (bias, kind) {
                    (0, 1) => 0,
                    (1, 0) => 1,
                    _ => kind,
                };
                let (main, second) = match kind {
                    0 => (boid.clone(), None),
                    1 => (avoid.clone(), None),
                    2 => (boid.clone(), Some(avoid.clone())),
                    3 => (Behaviour::Seek { target: 0 }, None),
                    _ => (Behaviour::Pursuit { agent: (idx * 7 + 3) % n, params: Default::default() }, None),
                };
                flockers += usize::from(matches!(kind, 0 | 2));
                avoiders += usize::from(matches!(kind, 1 | 2));
                agent.state = BehaviourState::start(&main);
                agent.behaviour = main;
                agent.mix = MixBox::default();
                if let Some(second) = second {
                    agent.mix.edit().more.push(Entry::new(second, Slot::default()));
                }
                if packed {
                    agent.kinematics.position *= 0.1;
                }
            }
            let expected = flockers > 0 || avoiders > 0;
            let (plain, _) = walk_run(&world, false, 1, 6);
            for threads in 1..=2 {
                let (walked, taken) = walk_run(&world, true, threads, 6);
                proptest::prop_assert_eq!(taken, expected, "{} threads", threads);
                proptest::prop_assert!(walked == plain, "{} threads", threads);
            }
        }
    }

    #[test]
    fn an_edit_between_steps_is_seen_by_the_next_step() {
        use crate::bench::{world_for, Kernel};
        let mut world = world_for(Kernel::Pursuit, 100, 8);
        world.run_steps(2);
        // A pursuer turned into a flock member, and another moved: the next step must take a
        // fresh snapshot and build the grid.
        if let Some(agent) = world.agents.get_mut(3) {
            agent.behaviour = Behaviour::Flocking { params: FlockingParams::default() };
            agent.state = BehaviourState::start(&agent.behaviour);
        }
        world.agents[7].kinematics.position += Vec3::new(5.0, 0.0, 0.0);
        let mut fresh = without_caches(&world);
        world.run_steps(3);
        fresh.run_steps(3);
        assert!(same_kinematics(&world, &fresh));
    }
}
