//! Per-agent metrics, accumulated step by step with the definitions of design.md, so
//! `steerlab run --json` and the window's Metrics panel report the same numbers.
//!
//! Path metrics use their own coherent projection of the agent onto its path (independent of
//! the behaviour's), so every path follower is measured the same way:
//! - cross-track error is the distance from the agent to that projection;
//! - `progress` is the arc length gained since the start, unwrapped across laps;
//! - a *backtrack* is a step whose arc length went back by more than [`BACKTRACK_TOLERANCE`];
//! - a *skip* is a step where the projection had to re-acquire the path somewhere not adjacent
//!   to where it was (the agent is more than four path radii, at least 100 units, from the
//!   locally tracked point and under half as far from another part of the path) and its arc
//!   length jumped forward by more than the agent travelled plus the path radius plus
//!   [`SKIP_TOLERANCE`]: an agent that cut across to another leg. The local tracking itself
//!   follows the nearest point round corners, which on the inside of a bend legitimately jumps
//!   ahead of the agent; that is not a skip.

use glam::Vec3;
use serde::Serialize;

use super::{Agent, BehaviourState, Event, EventKind, World};
use crate::behaviours::Kinematics;
use crate::geometry::{PathCursor, PathProjection, Polyline, Sphere};

/// The metrics of `run --json` (and their groups) that are `null` by definition when they did
/// not happen or do not apply: never arrived or caught, no obstacle or neighbour ever near, not
/// in a flock, no path, curve, plan, quarry, leader, hunter or pair. Any other `null` is a
/// non-finite number (serde_json writes one as `null`): the fuzzer and the extremes test read
/// the output with this list.
pub const NULLABLE_METRICS: &[&str] = &[
    "min_clearance",
    "arrived_at",
    "plan_time_us",
    "path",
    "parametric",
    "planner",
    "unreachable_waypoint",
    "unreachable_reason",
    "capture_time",
    "min_agent_gap",
    "mean_nearest_neighbour",
    "alignment",
    "polarization",
    "pursuit",
    "formation",
    "leader",
    "hide",
    "crowd",
    "seen_time",
    "interpose",
];

/// Arc length (world units) the projection may go back in one step before it counts as a backtrack.
pub const BACKTRACK_TOLERANCE: f32 = 0.5;
/// Arc length (world units) beyond the distance travelled that counts as a skip.
pub const SKIP_TOLERANCE: f32 = 1.0;
/// Beyond this distance from the tracked projection the metrics cursor may re-acquire the path
/// globally (at least this, or four path radii) — the same rule as predictive following, whose
/// projection of the agent the metrics hand over.
const REACQUIRE_MIN: f32 = 100.0;

/// Accumulators for one agent since the last reset.
///
/// What every agent records every step sits in the record itself; the accumulators that only
/// some agents fill (obstacles, crowds, pursuit, formation, hiding, leaders, a parametric
/// follower's speed error) sit behind one pointer, made the first time one of them is, so the
/// agent record that every pass of a step walks stays small. The path accumulator sits behind a
/// second pointer: a path follower fills it every step, but the walk over a crowd of seekers
/// would otherwise stride over its bytes. 320 -> 136 -> 72 bytes; the gain is measured with
/// the agent's layout (see [`Agent`]). Then 72 -> 64 bytes: the arrival time a plain number,
/// infinite until the agent arrives, instead of an option of 16 bytes.
///
/// Laid out in the order written (`repr(C)`): the every-step part, then the two pointers.
#[derive(Clone, Debug, PartialEq)]
#[repr(C)]
pub struct AgentMetrics {
    /// Steps recorded.
    pub steps: u64,
    /// Total path length travelled (world units).
    pub distance_travelled: f64,
    speed_sum: f64,
    /// Highest speed seen (units/s).
    pub max_speed: f32,
    /// Times the agent entered an obstacle.
    pub collisions: u32,
    /// Smallest gap between the agent's body and any obstacle (negative when overlapping).
    pub min_clearance: Option<f32>,
    /// Time of arrival in seconds; infinite until it arrives (see [`AgentMetrics::arrived_at`]).
    arrived: f64,
    /// None until one of its accumulators is first written (so a box is never all defaults,
    /// and equality means what it meant with the fields inline).
    rare: Option<Box<RareMetrics>>,
    path: Option<Box<PathAccumulator>>,
}

/// The accumulators only some agents fill (see [`AgentMetrics`]).
#[derive(Clone, Debug, Default, PartialEq)]
struct RareMetrics {
    /// One bit per obstacle: whether the agent was inside it after the last step.
    inside: Vec<u64>,
    speed_error: Option<SpeedErrorAccumulator>,
    crowd: Option<CrowdAccumulator>,
    /// Pursuit: when the agent first touched the agent it pursues.
    capture_time: Option<f64>,
    /// Offset pursuit: distance to the slot, summed, its largest value and the steps counted.
    slot_error: Option<(f64, f32, u64)>,
    /// Hide: seconds in the hunter's sight, the hunter's distance summed, the steps counted.
    hiding: Option<(f64, f64, u64)>,
    /// Leader following: the smallest gap between its body and the leader's.
    leader_gap: Option<f32>,
}

#[derive(Clone, Debug, PartialEq)]
struct CrowdAccumulator {
    collisions: u32,
    touching: bool,
    min_gap: f32,
    nearest_sum: f64,
    nearest_samples: u64,
    alignment_sum: f64,
    alignment_samples: u64,
}

impl Default for CrowdAccumulator {
    fn default() -> Self {
        CrowdAccumulator {
            collisions: 0,
            touching: false,
            min_gap: f32::INFINITY,
            nearest_sum: 0.0,
            nearest_samples: 0,
            alignment_sum: 0.0,
            alignment_samples: 0,
        }
    }
}

/// One agent's view of the crowd at the start of a step (see [`AgentMetrics::record_crowd`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdSample {
    /// Smallest gap between its body and another agent's (None: no agent within range).
    pub min_gap: Option<f32>,
    /// Distance to its nearest neighbour within range.
    pub nearest: Option<f32>,
    /// Cosine between its heading and its neighbours' mean heading (None: no neighbour moving
    /// or itself at rest).
    pub alignment: Option<f32>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct PathAccumulator {
    cursor: PathCursor,
    last_cross_track: f32,
    last_along: f32,
    progress: f64,
    cross_track_sum: f64,
    max_cross_track: f32,
    time_outside: f64,
    backtracks: u32,
    skips: u32,
    samples: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct SpeedErrorAccumulator {
    sum: f64,
    max: f32,
    samples: u64,
}

/// What one step of one agent looked like.
pub(crate) struct StepSample<'a> {
    pub agent_idx: usize,
    pub before: &'a Kinematics,
    pub after: &'a Kinematics,
    pub radius: f32,
    pub dt: f32,
    pub time: f64,
    pub spheres: &'a [Sphere],
    /// The followed path and the channel radius it is judged against.
    pub path: Option<(&'a Polyline, f32)>,
    /// The set speed of a parametric follower.
    pub parametric_speed: Option<f32>,
    pub arrived_now: bool,
}

impl Default for AgentMetrics {
    fn default() -> Self {
        AgentMetrics {
            steps: 0,
            distance_travelled: 0.0,
            speed_sum: 0.0,
            max_speed: 0.0,
            collisions: 0,
            min_clearance: None,
            arrived: f64::INFINITY,
            rare: None,
            path: None,
        }
    }
}

impl AgentMetrics {
    /// Time of arrival in seconds, None until the agent arrives.
    #[inline(always)]
    pub fn arrived_at(&self) -> Option<f64> {
        self.arrived.is_finite().then_some(self.arrived)
    }

    /// Asks the processor to fetch the path accumulator, which sits apart from the record (see
    /// `step_agents`' fetches).
    #[inline(always)]
    pub(crate) fn prefetch_apart(&self) {
        if let Some(path) = &self.path {
            crate::behaviours::branchless::prefetch(
                &**path,
                0,
                std::mem::size_of::<PathAccumulator>().div_ceil(64),
            );
        }
    }

    /// Asks the processor to fetch the rare accumulators, which sit apart from the record (see
    /// `step_agents`' fetches): an evader, a hider, a formation member, a follower and every
    /// agent reading its neighbours write one of them every step.
    ///
    /// Measured gain (one thread, on-CPU ns per agent-step, 1k / 10k / 100k / 1M agents, two
    /// alternating rounds, `examples/step_cpu`, idle, 2026-11-26): evade 59.3-59.7 / 70.5 /
    /// 82.0-83.0 / 81.8-83.0 -> 60.1-61.1 / 71.1-71.4 / 73.5-74.3 / 72.4-73.3; hide 1M
    /// 519.3-520.6 -> 515.8-516.8; offset pursuit 1M 77.5-78.0 -> 78.7-78.9. Not asked for when
    /// the flock was walked before the step: flocking 1M 341.1-344.8 -> 352.7-353.9 with it
    /// (the walks and gathers already ask for their lines ahead), and again no gain after the
    /// branchless grid (330.2 -> 333.6): it asks for the crowd accumulator's line alone
    /// ([`Self::prefetch_crowd`]). Asked for when collision avoidance was walked before
    /// the step (once its walk had lost its branches): 679.7 / 735.1 / 768.8 / 798.7 -> 678.4
    /// / 721.7 / 741.7 / 758.3 at 1k / 10k / 100k / 1M agents.
    #[inline(always)]
    pub(crate) fn prefetch_rare(&self) {
        if let Some(rare) = &self.rare {
            crate::behaviours::branchless::prefetch(
                &**rare,
                0,
                std::mem::size_of::<RareMetrics>().div_ceil(64),
            );
        }
    }

    /// Asks the processor to fetch the one line of the rare accumulators that a flock's move
    /// writes (the crowd accumulator), when the flock was walked before the step and the rare
    /// box as a whole is not asked for (see [`Self::prefetch_rare`]). Measured gain (one
    /// thread, on-CPU ns per agent-step, `examples/step_cpu flocking 1000 1000000`, two
    /// alternating rounds, idle, 2026-11-26, with the grid's sort by blocks in both builds):
    /// 1,000,000 boids 340.8-345.7 -> 335.0-341.7; 1,000 within the noise.
    #[inline(always)]
    pub(crate) fn prefetch_crowd(&self) {
        if let Some(rare) = &self.rare {
            crate::behaviours::branchless::prefetch(&rare.crowd, 0, 1);
        }
    }

    /// Adds one step's crowd sample of an agent whose list reads its neighbours: a collision is
    /// counted when it goes from touching no other agent to touching one.
    pub(crate) fn record_crowd(&mut self, sample: &CrowdSample) {
        let acc = self.rare_mut().crowd.get_or_insert_with(Default::default);
        let touching = sample.min_gap.is_some_and(|gap| gap < 0.0);
        if touching && !acc.touching {
            acc.collisions += 1;
        }
        acc.touching = touching;
        if let Some(gap) = sample.min_gap {
            acc.min_gap = acc.min_gap.min(gap);
        }
        if let Some(nearest) = sample.nearest {
            acc.nearest_sum += f64::from(nearest);
            acc.nearest_samples += 1;
        }
        if let Some(alignment) = sample.alignment {
            acc.alignment_sum += f64::from(alignment);
            acc.alignment_samples += 1;
        }
    }

    /// Records a formation member's distance from its slot this step.
    pub(crate) fn record_slot_error(&mut self, error: f32) {
        let (sum, max, n) = self.rare_mut().slot_error.get_or_insert((0.0, 0.0, 0));
        *sum += f64::from(error);
        *max = max.max(error);
        *n += 1;
    }

    /// Records a hider's step: whether the hunter saw it (no obstacle across the line between
    /// them) for `dt` seconds, and how far the hunter was.
    pub(crate) fn record_hiding(&mut self, seen: bool, hunter_distance: f32, dt: f32) {
        let (time_seen, distance_sum, n) = self.rare_mut().hiding.get_or_insert((0.0, 0.0, 0));
        if seen {
            *time_seen += f64::from(dt);
        }
        *distance_sum += f64::from(hunter_distance);
        *n += 1;
    }

    /// Records a leader follower's step: the gap between its body and the leader's.
    pub(crate) fn record_leader_gap(&mut self, gap: f32) {
        let smallest = self.rare_mut().leader_gap.get_or_insert(f32::INFINITY);
        *smallest = smallest.min(gap);
    }

    /// Records that a pursuer touches the agent it pursues at `time` (the first time counts).
    pub(crate) fn record_capture(&mut self, time: f64) {
        self.rare_mut().capture_time.get_or_insert(time);
    }

    /// Adds one step; pushes collision events.
    /// Returns the projection of the agent's new position onto its path, if it follows one.
    #[inline(always)]
    pub(crate) fn record(&mut self, sample: &StepSample, events: &mut Vec<Event>) -> Option<PathProjection> {
        self.steps += 1;
        let moved = sample.after.position.distance(sample.before.position);
        self.distance_travelled += moved as f64;
        let speed = sample.after.velocity.length();
        self.speed_sum += speed as f64;
        // `max_speed` is never NaN (it starts at 0 and only takes this): a plain comparison.
        self.max_speed = crate::geometry::max_of_number(self.max_speed, speed);
        if sample.arrived_now && self.arrived_at().is_none() {
            self.arrived = sample.time;
        }
        if !sample.spheres.is_empty() {
            self.record_obstacles(sample, events);
        }
        let projection =
            sample.path.map(|(polyline, path_radius)| self.record_path(polyline, path_radius, sample, moved));
        if let Some(set_speed) = sample.parametric_speed {
            if set_speed > 0.0 && sample.dt > 0.0 {
                let measured = moved / sample.dt;
                let error = ((measured - set_speed) / set_speed).abs();
                let acc = self.rare_mut().speed_error.get_or_insert_with(Default::default);
                acc.sum += error as f64;
                acc.max = acc.max.max(error);
                acc.samples += 1;
            }
        }
        projection
    }

    /// Collisions and clearance against the obstacles; called only when there are some (out of
    /// line: most scenes and every benchmark run without obstacles).
    #[inline(never)]
    fn record_obstacles(&mut self, sample: &StepSample, events: &mut Vec<Event>) {
        let words = sample.spheres.len().div_ceil(64);
        let rare = self.rare.get_or_insert_with(Default::default);
        if rare.inside.len() < words {
            rare.inside.resize(words, 0);
        }
        let position = sample.after.position;
        let mut min_gap = f32::INFINITY;
        for (obstacle_idx, sphere) in sample.spheres.iter().enumerate() {
            let gap = position.distance(sphere.center) - sphere.radius - sample.radius;
            min_gap = min_gap.min(gap);
            let (word, bit) = (obstacle_idx / 64, 1u64 << (obstacle_idx % 64));
            let Some(flags) = rare.inside.get_mut(word) else { continue };
            let was_inside = *flags & bit != 0;
            let is_inside = gap < 0.0;
            if is_inside && !was_inside {
                self.collisions += 1;
                events.push(Event {
                    time: sample.time,
                    agent: sample.agent_idx,
                    kind: EventKind::Collision(obstacle_idx),
                });
            }
            if is_inside {
                *flags |= bit;
            } else {
                *flags &= !bit;
            }
        }
        self.min_clearance = Some(self.min_clearance.map_or(min_gap, |m| m.min(min_gap)));
    }

    /// The rarely filled accumulators, made the first time one is written.
    fn rare_mut(&mut self) -> &mut RareMetrics {
        self.rare.get_or_insert_with(Default::default)
    }

    /// Bytes this agent's metrics hold outside its record (what an undo snapshot copies).
    pub(crate) fn heap_bytes(&self) -> usize {
        let rare = self.rare.as_ref().map_or(0, |rare| {
            std::mem::size_of::<RareMetrics>() + rare.inside.capacity() * std::mem::size_of::<u64>()
        });
        rare + self.path.as_ref().map_or(0, |_| std::mem::size_of::<PathAccumulator>())
    }

    #[inline(always)]
    fn record_path(
        &mut self,
        polyline: &Polyline,
        path_radius: f32,
        sample: &StepSample,
        moved: f32,
    ) -> PathProjection {
        let length = polyline.length();
        let closed = polyline.is_closed();
        let acc = self.path.get_or_insert_with(Default::default);
        let first = !acc.cursor.initialised;
        let reacquire = REACQUIRE_MIN.max(4.0 * path_radius);
        let slack = path_radius.max(0.0) + SKIP_TOLERANCE;
        let (projection, reacquired) =
            polyline.project_point_local_reporting(sample.after.position, &mut acc.cursor, reacquire);
        if first {
            acc.last_along = projection.distance_along;
        } else {
            let mut delta = projection.distance_along - acc.last_along;
            if closed && length > 0.0 {
                if delta > 0.5 * length {
                    delta -= length;
                } else if delta < -0.5 * length {
                    delta += length;
                }
            }
            if delta < -BACKTRACK_TOLERANCE {
                acc.backtracks += 1;
            }
            if reacquired && delta > moved + slack + SKIP_TOLERANCE {
                acc.skips += 1;
            }
            acc.progress += delta as f64;
            acc.last_along = projection.distance_along;
        }
        acc.samples += 1;
        acc.last_cross_track = projection.distance;
        acc.cross_track_sum += projection.distance as f64;
        // Never NaN, as `max_speed` above.
        acc.max_cross_track = crate::geometry::max_of_number(acc.max_cross_track, projection.distance);
        if projection.distance > path_radius {
            acc.time_outside += sample.dt as f64;
        }
        projection
    }

    /// Distance to the followed path's centre line at the last step (None if no path).
    pub fn last_cross_track(&self) -> Option<f32> {
        self.path.as_ref().map(|acc| acc.last_cross_track)
    }

    /// Mean speed over the recorded steps (units/s).
    pub fn mean_speed(&self) -> f32 {
        if self.steps == 0 {
            0.0
        } else {
            (self.speed_sum / self.steps as f64) as f32
        }
    }

    /// The summary of design.md for this agent.
    pub fn summary(&self, agent: &Agent, world: &World) -> MetricsSummary {
        let path = self.path.as_ref().map(|acc| PathMetrics {
            mean_cross_track: if acc.samples == 0 {
                0.0
            } else {
                (acc.cross_track_sum / acc.samples as f64) as f32
            },
            max_cross_track: acc.max_cross_track,
            time_outside_radius: acc.time_outside as f32,
            progress: acc.progress as f32,
            backtracks: acc.backtracks,
            skips: acc.skips,
        });
        let path = path.or_else(|| {
            // A path follower that has not stepped yet still reports zeros.
            world.agent_path(agent).map(|_| PathMetrics::default())
        });
        let rare = self.rare.as_deref();
        let parametric = match (&agent.behaviour, rare.and_then(|r| r.speed_error.as_ref())) {
            (super::Behaviour::Parametric { .. }, Some(acc)) => Some(ParametricMetrics {
                speed_error_mean: if acc.samples == 0 { 0.0 } else { (acc.sum / acc.samples as f64) as f32 },
                speed_error_max: acc.max,
            }),
            (super::Behaviour::Parametric { .. }, None) => Some(ParametricMetrics::default()),
            _ => None,
        };
        let planner = match &agent.state {
            BehaviourState::Planner(ship) => Some(PlannerMetrics {
                plan_time_us: None,
                iterations: ship.iterations,
                replans: ship.replans,
                waypoints_reached: ship.waypoints_reached,
                planned_length: ship.planned_length,
                straight_length: ship.straight_length,
                status: ship.status(),
                unreachable_waypoint: ship.unreachable.first().map(|u| u.index as u32 + 1),
                unreachable_reason: ship.unreachable.first().map(|u| u.reason.code()),
                fallback_plans: ship.fallback_plans,
            }),
            _ => None,
        };
        let mean = |sum: f64, n: u64| (n > 0).then(|| (sum / n as f64) as f32);
        let crowd = rare.and_then(|r| r.crowd.as_ref()).map(|acc| CrowdMetrics {
            agent_collisions: acc.collisions,
            min_agent_gap: acc.min_gap.is_finite().then_some(acc.min_gap),
            mean_nearest_neighbour: mean(acc.nearest_sum, acc.nearest_samples),
            alignment: mean(acc.alignment_sum, acc.alignment_samples),
            polarization: agent.has_flocking().then(|| world.polarization().mean()).flatten(),
        });
        // An agent is a pursuer, a formation member or a hider (hide or evade) when any entry of
        // its list is.
        let has = |is: fn(&super::Behaviour) -> bool| agent.behaviours().any(is);
        let pursuit = has(|b| matches!(b, super::Behaviour::Pursuit { .. }))
            .then_some(PursuitMetrics { capture_time: rare.and_then(|r| r.capture_time) });
        let formation = has(|b| matches!(b, super::Behaviour::OffsetPursuit { .. })).then(|| {
            let (sum, max, n) = rare.and_then(|r| r.slot_error).unwrap_or((0.0, 0.0, 0));
            FormationMetrics { mean_slot_error: mean(sum, n).unwrap_or(0.0), max_slot_error: max }
        });
        let hide =
            has(|b| matches!(b, super::Behaviour::Hide { .. } | super::Behaviour::Evade { .. })).then(|| {
                let (time_seen, distance_sum, n) = rare.and_then(|r| r.hiding).unwrap_or((0.0, 0.0, 0));
                HideMetrics {
                    time_seen: time_seen as f32,
                    mean_hunter_distance: mean(distance_sum, n).unwrap_or(0.0),
                }
            });
        let leader = has(|b| matches!(b, super::Behaviour::LeaderFollowing { .. })).then(|| LeaderMetrics {
            min_leader_gap: rare.and_then(|r| r.leader_gap).filter(|gap| gap.is_finite()),
        });
        MetricsSummary {
            name: agent.about.name.clone(),
            behaviour: agent.behaviour.type_name().to_string(),
            final_position: agent.kinematics.position,
            distance_travelled: self.distance_travelled as f32,
            mean_speed: self.mean_speed(),
            max_speed: self.max_speed,
            collisions: self.collisions,
            min_clearance: self.min_clearance,
            arrived_at: self.arrived_at(),
            path,
            parametric,
            planner,
            crowd,
            pursuit,
            formation,
            hide,
            leader,
        }
    }
}

/// The metrics of design.md for one agent (serialised flat, as `run --json` prints them).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricsSummary {
    /// Agent name.
    pub name: String,
    /// Behaviour type name.
    pub behaviour: String,
    /// Where the agent is now.
    pub final_position: Vec3,
    /// Path length travelled (world units).
    pub distance_travelled: f32,
    /// Mean speed (units/s).
    pub mean_speed: f32,
    /// Highest speed (units/s).
    pub max_speed: f32,
    /// Times the agent entered an obstacle.
    pub collisions: u32,
    /// Smallest gap between body and obstacle surfaces (null without obstacles).
    pub min_clearance: Option<f32>,
    /// Arrival time in seconds (null if it never arrived; a planner ship arrives only when its
    /// status is `arrived`, not when it finished by dropping unreachable waypoints).
    pub arrived_at: Option<f64>,
    /// Path-follower metrics.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathMetrics>,
    /// Parametric-follower metrics.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub parametric: Option<ParametricMetrics>,
    /// Planner metrics.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub planner: Option<PlannerMetrics>,
    /// Crowd metrics (agents with a flocking or collision-avoidance entry).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub crowd: Option<CrowdMetrics>,
    /// Pursuit metrics (agents with a pursuit entry, main or not).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub pursuit: Option<PursuitMetrics>,
    /// Formation metrics (agents with an offset-pursuit entry, main or not).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub formation: Option<FormationMetrics>,
    /// Hiding metrics (agents with a hide or an evade entry, main or not: the hunter is the agent
    /// hidden from or evaded).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub hide: Option<HideMetrics>,
    /// Leader-following metrics (agents with a leader-following entry, main or not).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub leader: Option<LeaderMetrics>,
}

/// Metrics of a leader follower, measured on each step's start-of-step state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LeaderMetrics {
    /// Smallest gap between its body and the leader's (negative: it ran into the leader, as a
    /// follower that does not clear the leader's path does when the leader turns back; null
    /// before the first step).
    pub min_leader_gap: Option<f32>,
}

/// Metrics of a hider or an evader, measured on each step's start-of-step state against the
/// agent it hides from or evades (its hunter): the hunter sees it when no obstacle crosses the
/// segment between their centres.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct HideMetrics {
    /// Seconds the hunter had it in sight.
    pub time_seen: f32,
    /// Mean distance from the hunter (world units).
    pub mean_hunter_distance: f32,
}

/// Whether an obstacle crosses the segment from `a` to `b` (a line of sight between them).
pub fn sight_blocked(a: Vec3, b: Vec3, spheres: &[Sphere]) -> bool {
    let ab = b - a;
    let length_squared = ab.length_squared();
    spheres.iter().any(|s| {
        let t = if length_squared > 0.0 {
            ((s.center - a).dot(ab) / length_squared).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (a + ab * t).distance(s.center) < s.radius
    })
}

/// Metrics of a formation member (offset pursuit): how far it was from its slot, measured on
/// each step's start-of-step state against the leader's slot then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct FormationMetrics {
    /// Mean distance from its slot (world units).
    pub mean_slot_error: f32,
    /// Largest distance from its slot (world units).
    pub max_slot_error: f32,
}

/// Metrics of an agent in a crowd, measured on the start-of-step state of every step against
/// the agents within the world's neighbour radius (the largest query radius of the step).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct CrowdMetrics {
    /// Times it came into contact with another agent's body (from touching none to touching one).
    pub agent_collisions: u32,
    /// Smallest gap between its body and another agent's (negative: overlapping; null when no
    /// agent ever came within the neighbour radius).
    pub min_agent_gap: Option<f32>,
    /// Mean distance to its nearest neighbour, over the steps it had one within the radius.
    pub mean_nearest_neighbour: Option<f32>,
    /// Mean cosine between its heading and its neighbours' mean heading (1: flying with them,
    /// about 0: unrelated; the flock's local polarization), over the steps with neighbours.
    pub alignment: Option<f32>,
    /// The whole flock's polarization, the same on every row of the flock: the length of the
    /// mean unit heading of every moving agent with a flocking entry (1: all fly one way, about
    /// 0: no common direction), averaged over the steps (see [`Polarization`]). Null for agents
    /// without a flocking entry.
    pub polarization: Option<f32>,
}

/// The sum of the unit headings of moving agents, kept exactly (each component in fixed point,
/// units of 2^-32, rounded once per heading), so that agents summed in any order and in any
/// split give the same bits: a step sums its flock chunk by chunk on every thread while it
/// moves the agents, in the order they are stored, and joins the chunks (see
/// [`crate::sim::World::step`]). An f32 sum would depend on that order. Exact up to 2^31 agents
/// (each component at most 2^32 in these units).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeadingSum {
    x: i64,
    y: i64,
    z: i64,
    moving: u64,
}

/// One unit of [`HeadingSum`]'s fixed point: 2^32 per unit of heading.
const HEADING_UNITS: f64 = 4_294_967_296.0;

impl HeadingSum {
    /// Adds `velocity`'s unit heading, when it moves (a zero or non-finite velocity adds
    /// nothing).
    #[inline(always)]
    pub fn add(&mut self, velocity: Vec3) {
        let heading = velocity.normalize_or_zero();
        if heading != Vec3::ZERO {
            // |component| <= 1: exact in f64 after scaling, and within i64.
            let fixed = |c: f32| (f64::from(c) * HEADING_UNITS).round() as i64;
            self.x = self.x.wrapping_add(fixed(heading.x));
            self.y = self.y.wrapping_add(fixed(heading.y));
            self.z = self.z.wrapping_add(fixed(heading.z));
            self.moving += 1;
        }
    }

    /// Both sums together (the same in any order).
    #[inline(always)]
    pub fn join(self, other: HeadingSum) -> HeadingSum {
        HeadingSum {
            x: self.x.wrapping_add(other.x),
            y: self.y.wrapping_add(other.y),
            z: self.z.wrapping_add(other.z),
            moving: self.moving + other.moving,
        }
    }

    /// |mean unit heading| (at most 1), None when nothing moved.
    pub fn polarization(self) -> Option<f32> {
        (self.moving > 0).then(|| {
            let mean = |sum: i64| sum as f64 / HEADING_UNITS / self.moving as f64;
            let (x, y, z) = (mean(self.x), mean(self.y), mean(self.z));
            ((x * x + y * y + z * z).sqrt() as f32).min(1.0)
        })
    }
}

/// The scene-wide flock polarization |mean heading| (0..1), measured after every step over the
/// moving agents with a flocking entry; `World` keeps one.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Polarization {
    sum: f64,
    samples: u64,
    last: Option<f32>,
}

impl Polarization {
    /// |mean of the unit headings| of the moving agents among `velocities`; None when none moves
    /// (the same in any order: see [`HeadingSum`]).
    pub fn of(velocities: impl Iterator<Item = Vec3>) -> Option<f32> {
        let mut sum = HeadingSum::default();
        velocities.for_each(|v| sum.add(v));
        sum.polarization()
    }

    /// Records one step's value (None: no flocking agent moved; not counted).
    pub fn record(&mut self, value: Option<f32>) {
        self.last = value;
        if let Some(v) = value {
            self.sum += f64::from(v);
            self.samples += 1;
        }
    }

    /// The mean over the steps recorded.
    pub fn mean(&self) -> Option<f32> {
        (self.samples > 0).then(|| (self.sum / self.samples as f64) as f32)
    }

    /// The last step's value.
    pub fn now(&self) -> Option<f32> {
        self.last
    }
}

/// Metrics of a pursuer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PursuitMetrics {
    /// When it first touched the agent it pursues, in seconds (null: not caught).
    pub capture_time: Option<f64>,
}

/// Metrics of path followers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PathMetrics {
    /// Mean distance to the path's centre line.
    pub mean_cross_track: f32,
    /// Largest distance to the path's centre line.
    pub max_cross_track: f32,
    /// Seconds spent farther than the path radius from the centre line.
    pub time_outside_radius: f32,
    /// Arc length gained along the path, laps included.
    pub progress: f32,
    /// Steps where the arc length went back by more than a tolerance.
    pub backtracks: u32,
    /// Steps where the arc length jumped forward by more than the agent travelled.
    pub skips: u32,
}

/// Metrics of parametric followers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ParametricMetrics {
    /// Mean of |measured speed − set speed| / set speed.
    pub speed_error_mean: f32,
    /// Largest relative speed error.
    pub speed_error_max: f32,
}

/// Metrics of the planner's ship.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PlannerMetrics {
    /// Wall-clock microseconds for the first plan, measured by the shell (the core reads no clock).
    pub plan_time_us: Option<f64>,
    /// Planner iterations over all plans.
    pub iterations: u32,
    /// Plans after the first.
    pub replans: u32,
    /// User waypoints reached.
    pub waypoints_reached: u32,
    /// Length of the first plan.
    pub planned_length: f32,
    /// Straight-line length through the user waypoints.
    pub straight_length: f32,
    /// `flying`, `arrived` or `unreachable` ([`ShipStatus`](crate::planner::ShipStatus)).
    pub status: crate::planner::ShipStatus,
    /// The first waypoint reported unreachable (1-based), if any.
    pub unreachable_waypoint: Option<u32>,
    /// Why: `inside_obstacle`, `not_finite` or `no_route` (sealed in).
    pub unreachable_reason: Option<&'static str>,
    /// Plans that ran the complete fallback search.
    pub fallback_plans: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    mod heading_sums {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]
            /// Any velocities (huge, tiny, zero, NaN among them), summed in any order and cut into
            /// any chunks, give the same bits; and the figure is the plain f64 mean of the unit
            /// headings' length, to the fixed point's rounding (2^-32 a heading).
            #[test]
            fn any_order_and_any_split_give_the_same_bits(
                velocities in prop::collection::vec(
                    (prop_oneof![-1e30f32..1e30, -1.0f32..1.0, Just(0.0f32), Just(f32::NAN)],
                     prop_oneof![-1e30f32..1e30, -1.0f32..1.0, Just(0.0f32)],
                     -1.0f32..1.0)
                        .prop_map(|(x, y, z)| Vec3::new(x, y, z)),
                    0..200),
                seed in any::<u64>(),
                cut in 0usize..200,
            ) {
                let whole = Polarization::of(velocities.iter().copied());
                // A shuffle by the seed (a plain LCG: no clock, no crate).
                let mut shuffled = velocities.clone();
                let mut state = seed | 1;
                for i in (1..shuffled.len()).rev() {
                    state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    shuffled.swap(i, (state >> 33) as usize % (i + 1));
                }
                let cut = cut.min(shuffled.len());
                let (a, b) = shuffled.split_at(cut);
                let mut first = HeadingSum::default();
                a.iter().for_each(|&v| first.add(v));
                let mut second = HeadingSum::default();
                b.iter().for_each(|&v| second.add(v));
                prop_assert_eq!(second.join(first).polarization(), whole);
                // The oracle: f64 sums of the unit headings.
                let units: Vec<Vec3> =
                    velocities.iter().map(|v| v.normalize_or_zero()).filter(|h| *h != Vec3::ZERO).collect();
                match whole {
                    None => prop_assert!(units.is_empty()),
                    Some(p) => {
                        let n = units.len() as f64;
                        let mean = |c: fn(&Vec3) -> f32| units.iter().map(|h| f64::from(c(h))).sum::<f64>() / n;
                        let (x, y, z) = (mean(|h| h.x), mean(|h| h.y), mean(|h| h.z));
                        let plain = (x * x + y * y + z * z).sqrt().min(1.0);
                        prop_assert!((f64::from(p) - plain).abs() < 1e-6, "{} against {}", p, plain);
                    }
                }
            }
        }
    }

    #[test]
    fn mean_speed_of_no_steps_is_zero() {
        assert_eq!(AgentMetrics::default().mean_speed(), 0.0);
    }

    #[test]
    fn summary_serialises_flat_with_nulls() {
        let summary = MetricsSummary {
            name: "a".into(),
            behaviour: "seek".into(),
            final_position: Vec3::new(1.0, 2.0, 0.0),
            distance_travelled: 3.0,
            mean_speed: 1.5,
            max_speed: 2.0,
            collisions: 0,
            min_clearance: None,
            arrived_at: None,
            path: Some(PathMetrics::default()),
            parametric: None,
            planner: None,
            crowd: Some(CrowdMetrics { agent_collisions: 2, ..CrowdMetrics::default() }),
            pursuit: None,
            formation: None,
            hide: None,
            leader: None,
        };
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["agent_collisions"], serde_json::json!(2));
        assert!(json["min_agent_gap"].is_null() && json.get("capture_time").is_none());
        assert_eq!(json["final_position"], serde_json::json!([1.0, 2.0, 0.0]));
        assert!(json["arrived_at"].is_null());
        assert_eq!(json["backtracks"], 0);
        assert!(json.get("speed_error_mean").is_none());
    }
}
