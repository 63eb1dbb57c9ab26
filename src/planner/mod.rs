//! The 3D waypoint planner of seed 004 (`004_*.txt`, "Path-Finding in 3D") and the ship that
//! flies it.
//!
//! # Motivation
//! The user gives a ship a queue of waypoints; obstacles stand in the way. The seed splits the work
//! in two: a planner that turns the queue into a route of real waypoints around the obstacles
//! (recomputed every half second in case obstacles move), and a movement system that thrusts
//! toward the next real waypoint and copes with whatever pushes the ship off course.
//!
//! # Implementation
//! - [`plan()`] (`plan.rs`): the proto-waypoint stack, sphere casts and avoidance waypoints, pure,
//!   with the avoidance formula and the degenerate cases documented in its header.
//! - [`ObstacleIndex`] (`grid.rs`): a uniform grid so a cast only tests nearby obstacles.
//! - [`ship()`] (`ship.rs`): replans on the first step and every `replan_interval` seconds
//!   (accumulated from `dt`, never a clock), drops reached waypoints, thrusts toward the next real
//!   waypoint within the agent's limits and brakes to stop on the last one.
//! - [`bench_field`] (`field.rs`): deterministic random fields for the benchmark and tests.
//! - [`dense::dense_field`] (`dense.rs`): seeded dense fields, an independent grid oracle of
//!   reachability and the flight checker of issue 9.
//!
//! # Parameters
//! [`PlannerParams`]: `waypoints`, `clearance`, `iteration_limit`, `replan_interval` (seed: 0.5 s),
//! `arrival_radius`, `smoothing`, and the "incoming fire" disturbance (`incoming_fire` hits per
//! second of `fire_strength`, seeded by `fire_seed`). The ship's radius, speed and acceleration
//! come from its [`Limits`].

use crate::behaviours::param::{Param, ParamKind};
use crate::behaviours::{Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Sphere;
use glam::Vec3;
use serde::{Deserialize, Serialize};

pub mod dense;
pub mod fallback;
pub mod field;
pub mod grid;
pub mod plan;
pub mod ship;

pub use field::{bench_field, bench_scenario, BenchField, SplitMix64};
pub use grid::{IndexHit, IndexStats, ObstacleIndex};
pub use plan::{
    path_length, plan, plan_spheres, straight_length, Avoidance, FallbackMode, Plan, PlanHit, PlanIteration,
    PlanNote, PlanOptions, PlanStatus, Unreachable, UnreachableReason, WaypointKind,
};

/// Most user waypoints one planner ship holds (a scene file past it is refused at the waypoint
/// past it; the window's Target tool and inspector refuse the one past it). Shipped scenes use up
/// to 5; each plan walks every remaining waypoint and the step-through records the proto-waypoint
/// stack at every iteration (up to `iteration_limit` of them), so the list is kept to what a
/// person places by hand: 2,000,000 waypoints on one ship took 19 s for 2 simulated seconds.
pub const MAX_WAYPOINTS: usize = 1_000;

/// Parameters of the `planner` behaviour (scene fields besides `waypoints`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlannerParams {
    /// The user's waypoints, in order (a queue).
    pub waypoints: Vec<Vec3>,
    /// Extra clearance kept from obstacles beyond the ship's radius (world units, typically 2–30).
    pub clearance: f32,
    /// Most planner iterations per plan (typically 8–64); a partial plan is extended by replans.
    pub iteration_limit: u32,
    /// Seconds between replans (seed: 0.5).
    pub replan_interval: f32,
    /// A waypoint is reached inside this distance (world units, typically 5–30).
    pub arrival_radius: f32,
    /// Drop waypoints whose neighbours see each other.
    pub smoothing: bool,
    /// "Incoming fire": random hits per second that knock the ship off course (0 = none,
    /// typically 0.2–3). Each hit is a velocity change of `fire_strength` in a random direction,
    /// drawn from a generator seeded by `fire_seed` and the ship's start, never from a clock.
    pub incoming_fire: f32,
    /// Velocity change of one hit, world units per second (typically 10–100).
    pub fire_strength: f32,
    /// Seed of the hits' generator (two ships with the same seed and start are hit alike).
    pub fire_seed: u64,
}

impl PlannerParams {
    /// Declaration of `clearance`.
    pub const CLEARANCE: Param = Param {
        key: "clearance",
        label: "clearance",
        unit: "u",
        min: 0.0,
        max: 200.0,
        default: 10.0,
        help: "Extra clearance kept from obstacles beyond the ship radius.",
        kind: ParamKind::Float,
    };
    /// Declaration of `iteration_limit`.
    pub const ITERATION_LIMIT: Param = Param {
        key: "iteration_limit",
        label: "iteration limit",
        unit: "",
        min: 1.0,
        max: 10000.0,
        default: 32.0,
        help: "Most planner iterations per plan; a partial plan is extended by replans.",
        kind: ParamKind::Int,
    };
    /// Declaration of `replan_interval`.
    pub const REPLAN_INTERVAL: Param = Param {
        key: "replan_interval",
        label: "replan interval",
        unit: "s",
        min: 0.05,
        max: 60.0,
        default: 0.5,
        help: "Seconds between replans (seed: 0.5).",
        kind: ParamKind::Log,
    };
    /// Declaration of `arrival_radius`.
    pub const ARRIVAL_RADIUS: Param = Param {
        key: "arrival_radius",
        label: "arrival radius",
        unit: "u",
        min: 1.0,
        max: 200.0,
        default: 10.0,
        help: "A waypoint is reached inside this distance.",
        kind: ParamKind::Float,
    };
    /// Declaration of `smoothing`.
    pub const SMOOTHING: Param = Param {
        key: "smoothing",
        label: "smoothing",
        unit: "",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        help: "Drop waypoints whose neighbours see each other.",
        kind: ParamKind::Bool,
    };
    /// Declaration of `incoming_fire`.
    pub const INCOMING_FIRE: Param = Param {
        key: "incoming_fire",
        label: "incoming fire",
        unit: "hits/s",
        min: 0.0,
        max: 50.0,
        default: 0.0,
        help: "Random hits per second that knock the ship off course (0: none).",
        kind: ParamKind::Float,
    };
    /// Declaration of `fire_strength`.
    pub const FIRE_STRENGTH: Param = Param {
        key: "fire_strength",
        label: "fire strength",
        unit: "u/s",
        min: 0.0,
        max: 1000.0,
        default: 40.0,
        help: "Velocity change of one hit.",
        kind: ParamKind::Float,
    };
    /// Declaration of `fire_seed`.
    pub const FIRE_SEED: Param = Param {
        key: "fire_seed",
        label: "fire seed",
        unit: "",
        min: 0.0,
        max: 16777215.0,
        default: 1.0,
        help: "Seed of the hits generator: the same seed and start give the same hits.",
        kind: ParamKind::Int,
    };
    /// Every parameter, in field order (the panel, the validator and the docs read this).
    pub const PARAMS: &'static [Param] = &[
        Self::CLEARANCE,
        Self::ITERATION_LIMIT,
        Self::REPLAN_INTERVAL,
        Self::ARRIVAL_RADIUS,
        Self::SMOOTHING,
        Self::INCOMING_FIRE,
        Self::FIRE_STRENGTH,
        Self::FIRE_SEED,
    ];
}

impl Default for PlannerParams {
    fn default() -> Self {
        PlannerParams {
            waypoints: Vec::new(),
            clearance: Self::CLEARANCE.default,
            iteration_limit: Self::ITERATION_LIMIT.default_u32(),
            replan_interval: Self::REPLAN_INTERVAL.default,
            arrival_radius: Self::ARRIVAL_RADIUS.default,
            smoothing: Self::SMOOTHING.default_bool(),
            incoming_fire: Self::INCOMING_FIRE.default,
            fire_strength: Self::FIRE_STRENGTH.default,
            fire_seed: u64::from(Self::FIRE_SEED.default_u32()),
        }
    }
}

impl PlannerParams {
    /// The options the ship plans with (no per-iteration trace).
    pub fn plan_options(&self) -> PlanOptions {
        PlanOptions {
            clearance: self.clearance,
            iteration_limit: self.iteration_limit,
            smoothing: self.smoothing,
            record: false,
            fallback: FallbackMode::WhenStuck,
        }
    }
}

/// The ship's memory between steps: waypoints left, the current plan, replan timer and counters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShipState {
    /// User waypoints not yet reached.
    pub remaining: Vec<Vec3>,
    /// Real waypoints of the current plan.
    pub planned: Vec<Vec3>,
    /// Seconds since the last plan.
    pub since_replan: f32,
    /// Plans made after the first.
    pub replans: u32,
    /// User waypoints reached.
    pub waypoints_reached: u32,
    /// Iterations used by all plans so far.
    pub iterations: u32,
    /// Length of the first plan from the start through all waypoints.
    pub planned_length: f32,
    /// Straight-line length from the start through the user waypoints.
    pub straight_length: f32,
    /// True once no waypoint remains: each was reached or dropped as unreachable
    /// ([`ShipState::status`] tells which; only `arrived` counts as arrival in the metrics).
    pub finished: bool,
    /// What each entry of `planned` is; `User(i)` indexes `remaining`.
    pub kinds: Vec<WaypointKind>,
    /// Where the current leg (toward `planned[0]`) starts: the previous waypoint, or the ship's
    /// position when the plan was made.
    pub leg_start: Vec3,
    /// Where the ship was when it turned onto the current leg, if the straight route from there
    /// was checked clear (else `leg_start`); being near either route counts as on course.
    pub leg_entry: Vec3,
    /// True once the first step has run (the first plan is made then).
    pub has_planned: bool,
    /// The ship's position at its first step.
    pub start: Vec3,
    /// Where the ship settles once finished.
    pub hold: Option<Vec3>,
    /// User waypoints dropped because a plan found them unreachable.
    pub skipped: u32,
    /// Those waypoints with the reason each was reported unreachable, in the order reported
    /// (`index` counts in the scene's waypoint list).
    pub unreachable: Vec<Unreachable>,
    /// Replans made early because the ship was knocked off its leg (included in `replans`).
    pub early_replans: u32,
    /// How the latest plan ended.
    pub status: Option<PlanStatus>,
    /// The latest plan's avoidance waypoints with their hit points (for gizmos).
    pub avoidances: Vec<Avoidance>,
    /// The obstacle index of the last plan, reused by the next while the obstacles (and the
    /// cast radius) are exactly the same: a static field pays for the grid once, a moving one
    /// gets a fresh index at every replan.
    pub index: Option<ObstacleIndex>,
    /// The incoming-fire generator (seeded on the first step from `fire_seed` and the start).
    pub fire_rng: SplitMix64,
    /// Hits taken from incoming fire.
    pub hits: u32,
    /// The latest hit: where the ship was, the velocity change, and seconds since.
    pub last_hit: Option<(Vec3, Vec3, f32)>,
    /// Replans that kept the route being flown (commitment, `ship.rs` step 2).
    pub kept_routes: u32,
    /// Plans that ran the complete fallback search.
    pub fallback_plans: u32,
    /// Replans forced to the fallback because the ship made no progress.
    pub forced_fallbacks: u32,
    /// The waypoint progress is measured toward, the closest the ship has come to it since it
    /// last made progress, and seconds since then.
    pub progress: Option<(Vec3, f32, f32)>,
    /// Each obstacle's motion as the ship estimates it from successive centres (`ship.rs`,
    /// moving obstacles); empty before the first step.
    pub obstacle_motion: Vec<ObstacleTrack>,
    /// Steps on which the short-horizon layer overrode route following to avoid a predicted
    /// contact with a moving obstacle (`ship.rs`, step 5).
    pub dodge_steps: u32,
    /// True when the latest step's velocity came from that layer (off-leg replans wait for it).
    pub dodging: bool,
    /// True when the scene gave the ship no waypoint (none at the start, or the user deleted
    /// them all): finished, it is `idle`, whatever it reached before.
    pub given_none: bool,
}

/// One obstacle's motion as the ship sees it, from successive centres (`ship.rs`, step 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ObstacleTrack {
    /// The centre at the previous step.
    pub previous: Vec3,
    /// The velocity over the last step (world units per second; zero for an edit's jump).
    pub velocity: Vec3,
    /// The speed the sweep plans against: the last step's speed, or the remembered one decayed
    /// per step when larger (a bounce shortens one step's displacement).
    pub speed: f32,
}

impl ShipState {
    /// A ship that has not planned yet.
    pub fn new(params: &PlannerParams) -> Self {
        ShipState {
            remaining: params.waypoints.clone(),
            given_none: params.waypoints.is_empty(),
            ..Default::default()
        }
    }

    /// The state after the user edited the waypoints of a ship in flight (seed 004: "a waypoint
    /// is removed when the ship arrives at each one"): waypoints already reached or reported stay
    /// consumed. The consumed prefix is the longest run of leading new waypoints that equal
    /// waypoints this ship had consumed; the ship plans afresh through the rest (moving waypoint 2
    /// does not send it back to waypoint 1; moving waypoint 1 itself makes it a new waypoint).
    pub fn after_edit(&self, old_waypoints: &[Vec3], params: &PlannerParams) -> ShipState {
        let mut fresh = ShipState::new(params);
        if !self.has_planned {
            return fresh;
        }
        let mut consumed: Vec<Vec3> = Vec::new();
        let mut remaining = self.remaining.iter().peekable();
        for &w in old_waypoints {
            if remaining.peek().is_some_and(|&&r| r == w) {
                remaining.next();
            } else {
                consumed.push(w);
            }
        }
        let mut k = 0;
        while let Some(&w) = params.waypoints.get(k) {
            match consumed.iter().position(|&c| c == w) {
                Some(i) => {
                    consumed.remove(i);
                    k += 1;
                }
                None => break,
            }
        }
        fresh.remaining = params.waypoints.get(k..).map(<[Vec3]>::to_vec).unwrap_or_default();
        fresh.waypoints_reached = self.waypoints_reached;
        fresh.unreachable = self.unreachable.clone();
        fresh.skipped = self.skipped;
        fresh
    }

    /// The ship's status for `run --json`, the inspector and the step-through: `flying` while
    /// waypoints remain, `unreachable` once a waypoint was reported unreachable and the ship holds
    /// position, `arrived` when every waypoint was reached, `idle` when it has none (never given
    /// any, or the user deleted them all, even after it reached some).
    pub fn status(&self) -> ShipStatus {
        if !self.finished {
            ShipStatus::Flying
        } else if self.given_none {
            ShipStatus::Idle
        } else if !self.unreachable.is_empty() {
            ShipStatus::Unreachable
        } else if self.waypoints_reached == 0 {
            ShipStatus::Idle
        } else {
            ShipStatus::Arrived
        }
    }

    /// One line for the window: the status and, for each waypoint reported unreachable, why.
    pub fn status_line(&self) -> String {
        let mut line = match self.status() {
            ShipStatus::Flying => "flying".to_string(),
            ShipStatus::Arrived => "arrived".to_string(),
            ShipStatus::Unreachable => "unreachable, holding position".to_string(),
            ShipStatus::Idle => "no waypoints, holding position".to_string(),
        };
        for u in &self.unreachable {
            line.push_str(&format!("; waypoint {} {}", u.index + 1, u.reason.describe()));
        }
        line
    }
}

/// What a planner ship is doing (serialised lowercase in `run --json`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShipStatus {
    /// Waypoints remain.
    #[default]
    Flying,
    /// Every waypoint was reached.
    Arrived,
    /// At least one waypoint was reported unreachable; the ship holds position.
    Unreachable,
    /// The ship was given no waypoint: it holds position and never arrives (add one with the
    /// Target tool).
    Idle,
}

/// One step of the ship: (re)plan when due, drop reached waypoints, thrust toward the next one.
/// Moving obstacles are predicted to move straight on (see [`ship_in_box`] for a world whose
/// obstacles bounce inside a box).
pub fn ship(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    params: &PlannerParams,
    state: &mut ShipState,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    ship::step(k, limits, obstacles, None, params, state, dt, gizmos)
}

/// The box inside which a world's moving obstacles bounce (the simulation's bounds: a sphere's
/// surface reflects off each wall), so that the ship's short-horizon layer predicts the bounces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BounceBox {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

/// [`ship`](fn@ship) in a world whose moving obstacles bounce inside `bounds` (None: they never
/// bounce).
#[allow(clippy::too_many_arguments)]
pub fn ship_in_box(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    bounds: Option<BounceBox>,
    params: &PlannerParams,
    state: &mut ShipState,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    ship::step(k, limits, obstacles, bounds, params, state, dt, gizmos)
}
