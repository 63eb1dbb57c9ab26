//! The pure 3D waypoint planner of seed 004 (`004_*.txt`, "Path-Finding in 3D"): a stack of
//! proto-waypoints, sphere casts, avoidance waypoints and an iteration limit.
//!
//! # Motivation
//! A ship told to fly through a queue of waypoints must not fly through the obstacles between
//! them. The seed plans with a loop that only ever asks one question — "is the route from here to
//! the next proto-waypoint clear?" — and answers "no" by inserting an avoidance waypoint. The
//! iteration limit keeps a complicated plan from costing a frame; a partial plan is extended by the
//! next replan.
//!
//! # Implementation
//! The user waypoints go onto a stack, the first on top. Each iteration casts a sphere of radius
//! `r + clearance` (ship radius plus clearance) from the current *perspective* (the ship, then
//! the last real waypoint) to the top of the stack. A clear route pops the proto-waypoint into the
//! real list and moves the perspective there; a hit (the earliest along the cast) pushes an
//! avoidance waypoint. The loop stops when the stack is empty or after `iteration_limit`
//! iterations (a partial plan, [`PlanStatus::IterationLimit`]).
//!
//! **Avoidance formula** (the seed's picture is lost; this one is derived here). Let X be the
//! perspective, T the proto-waypoint, c the hit obstacle's centre and ρ = R + r + clearance its
//! inflated radius, enlarged by 2% (+0.01) for a safety margin. Work in the plane through c that
//! contains the route: its axes are the route direction d and u, the component of (hit point − c)
//! perpendicular to d — the side the route already passes on. (When the route goes through the
//! centre, u is d × z, or d × x if d is vertical, so the choice is deterministic and stays in the
//! z = 0 plane for 2D scenes.) From X draw the tangent line to the circle of radius ρ on the u side,
//! and likewise from T; the avoidance waypoint W is the corner where the two tangent lines meet.
//! With tangent points at angles ψ_X and ψ_T around c, W lies at angle (ψ_X + ψ_T) / 2 and distance
//! ρ / cos((ψ_X − ψ_T) / 2) from c, so both new legs X→W and W→T clear the obstacle by
//! construction, and the route X→W→T is the shortest one-corner route around it. When the wrap
//! angle ψ_X − ψ_T exceeds 90° the corner would fly off towards infinity, so W is instead the
//! corner of X's tangent with the tangent 90° further round (distance ρ√2); the next iteration,
//! casting from W, continues round the obstacle. A perspective already within ρ uses the line
//! through itself perpendicular to the radius instead of a tangent. The avoidance vector recorded
//! for the panel runs from the hit point (the cast sphere's centre at contact) to W.
//!
//! Two rules keep the loop from cycling. When the perspective is itself an avoidance waypoint
//! round the obstacle hit again, the side is chosen to keep the same sense of rotation round it
//! (otherwise, in 3D, the loop can swing between two corners on opposite sides forever). And a
//! candidate corner within 1% of ρ of a real waypoint already planned is refused.
//!
//! **Degenerate cases.**
//! - *Avoidance waypoint inside another obstacle* (close or overlapping obstacles): W must keep
//!   1% beyond every inflated radius. If it does not, the corner on the opposite side (−u) is
//!   tried; if that is blocked too, the blocking obstacle joins a cluster and W is recomputed round
//!   the cluster's bounding sphere, growing it (up to eight obstacles) until W is free, first on
//!   the u side, then on the −u side. If nothing works the first corner is used anyway and the
//!   next iterations (or the iteration limit) deal with it; every leg is still cast, so a plan
//!   never contains an unchecked leg.
//! - *User waypoint inside an obstacle* (closer than R + r to its centre): unreachable, skipped,
//!   listed in the status with the obstacle; the rest are still planned. A waypoint only inside the
//!   clearance is moved out to the nearest free point ([`PlanNote::WaypointMoved`]).
//! - *Start inside an obstacle or its clearance*: the first real waypoint is an exit, pushed out
//!   radially (repeatedly, for overlapping obstacles) to just beyond the inflated surface
//!   ([`PlanNote::ExitFirst`]); planning starts from there.
//! - *Coincident waypoints*: consecutive user waypoints closer than 1e-3 are merged; a leg shorter
//!   than 1e-4 is popped without a cast (no zero-length cast, no NaN).
//!
//! Smoothing (optional) drops an avoidance waypoint whenever its predecessor sees its successor;
//! user waypoints and exits are never dropped.
//!
//! # Parameters
//! See [`PlanOptions`]: `clearance` (world units beyond the ship radius, typically 2–30),
//! `iteration_limit` (typically 8–64; the seed's lag guard), `smoothing`, and `record` (keep a
//! per-iteration trace for the step-through panel; off for replanning and benchmarks).

use super::fallback::{self, FallbackOutcome, FallbackSearch};
use super::grid::{IndexHit, ObstacleIndex};
use crate::geometry::Sphere;
use glam::{Vec2, Vec3};
use std::f32::consts::{FRAC_PI_2, TAU};

/// Consecutive user waypoints closer than this are merged (world units).
pub const MERGE_DISTANCE: f32 = 1e-3;
/// A leg shorter than this is taken without a cast (world units).
pub const MIN_LEG: f32 = 1e-4;
/// The largest turn one avoidance corner makes around an obstacle (radians).
pub const MAX_WRAP: f32 = FRAC_PI_2;
/// How many obstacles a cluster may merge before giving up on that side.
pub const MAX_CLUSTER: usize = 8;
/// Points the planner chooses (avoidance waypoints, exits, moved waypoints) keep at least this
/// factor of every inflated radius.
pub const FREE_FACTOR: f32 = 1.01;

/// How a plan is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanOptions {
    /// Extra distance kept from obstacle surfaces beyond the ship radius (world units, 2–30).
    pub clearance: f32,
    /// Most loop iterations (typically 8–64); the plan is partial when it is reached.
    pub iteration_limit: u32,
    /// Drop avoidance waypoints whose neighbours see each other.
    pub smoothing: bool,
    /// Record a [`PlanIteration`] per iteration (for the step-through panel).
    pub record: bool,
    /// When the complete grid search of `fallback.rs` runs.
    pub fallback: FallbackMode,
}

/// When [`plan`] runs the complete fallback search (`fallback.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FallbackMode {
    /// Never: the seed's loop alone (partial plans are extended by replans).
    Off,
    /// When the loop ends at its iteration limit before reaching the next user waypoint.
    #[default]
    WhenStuck,
    /// Also route to the next user waypoint by the search first (the ship made no progress).
    Force,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            clearance: 10.0,
            iteration_limit: 32,
            smoothing: false,
            record: false,
            fallback: FallbackMode::WhenStuck,
        }
    }
}

/// Where a real waypoint came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaypointKind {
    /// The user's waypoint with this index in the input slice (possibly moved out of a clearance).
    User(usize),
    /// An avoidance waypoint the planner inserted.
    Avoidance,
    /// The way out for a start inside an obstacle or its clearance.
    Exit,
    /// A corner of a route found by the complete fallback search.
    Fallback,
}

/// Why a user waypoint cannot be planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnreachableReason {
    /// It lies closer than obstacle radius + ship radius to this obstacle's centre.
    InsideObstacle {
        /// The obstacle's index.
        obstacle: usize,
    },
    /// One of its coordinates is not finite.
    NotFinite,
    /// The complete fallback search exhausted the free cells connected to it without meeting the
    /// ship: no route keeps the clearance (it is sealed in, e.g. a pocket of obstacles).
    NoRoute {
        /// Grid cells the search explored.
        explored: usize,
    },
}

impl UnreachableReason {
    /// Why, in words (after "waypoint N").
    pub fn describe(&self) -> String {
        match self {
            UnreachableReason::InsideObstacle { obstacle } => format!("is inside obstacle {obstacle}"),
            UnreachableReason::NotFinite => "is not a finite point".to_string(),
            UnreachableReason::NoRoute { explored } => {
                format!("is sealed in: no route keeps the clearance (grid search explored {explored} cells)")
            }
        }
    }

    /// A short machine-readable name (`run --json`).
    pub fn code(&self) -> &'static str {
        match self {
            UnreachableReason::InsideObstacle { .. } => "inside_obstacle",
            UnreachableReason::NotFinite => "not_finite",
            UnreachableReason::NoRoute { .. } => "no_route",
        }
    }
}

/// A user waypoint the plan skips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unreachable {
    /// Index in the user waypoint slice.
    pub index: usize,
    /// The waypoint.
    pub position: Vec3,
    /// Why.
    pub reason: UnreachableReason,
}

/// How planning ended.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanStatus {
    /// The stack emptied and every user waypoint is in the plan.
    Complete,
    /// The stack emptied, but these user waypoints were skipped.
    Unreachable(Vec<Unreachable>),
    /// The iteration limit stopped the loop: the plan is partial (`Plan::pending` is what is left).
    IterationLimit {
        /// User waypoints skipped as unreachable.
        unreachable: Vec<Unreachable>,
    },
}

/// Things the planner did that a user may want to know about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanNote {
    /// The start was inside this obstacle's inflated sphere; the plan exits first.
    ExitFirst {
        /// The (deepest) obstacle the start was in.
        obstacle: usize,
        /// True when the ship's body overlaps an obstacle, not just the clearance.
        colliding: bool,
        /// The exit waypoint.
        exit: Vec3,
    },
    /// A user waypoint inside an obstacle's clearance was moved out to a free point.
    WaypointMoved {
        /// Index in the user waypoint slice.
        index: usize,
        /// The obstacle whose clearance it was in.
        obstacle: usize,
        /// Where it is planned instead.
        to: Vec3,
    },
    /// A user waypoint coincided with the previous one and was merged into it.
    WaypointMerged {
        /// The index merged away.
        index: usize,
        /// The index kept (the later one).
        into: usize,
    },
}

/// A cast hit as the planner records it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanHit {
    /// Index of the obstacle hit.
    pub obstacle: usize,
    /// The cast sphere's centre at contact.
    pub point: Vec3,
    /// Fraction of the route travelled before contact.
    pub toi: f32,
    /// True when the perspective was already inside the inflated obstacle.
    pub started_inside: bool,
}

/// One avoidance waypoint and why it exists.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Avoidance {
    /// The obstacle the cast hit.
    pub obstacle: usize,
    /// The cast sphere's centre at contact.
    pub hit_point: Vec3,
    /// The avoidance waypoint pushed onto the stack.
    pub waypoint: Vec3,
    /// Obstacles the waypoint was computed around (1 unless a cluster formed).
    pub cluster_size: usize,
}

impl Avoidance {
    /// The avoidance vector of the seed's picture: from the hit point to the waypoint.
    pub fn vector(&self) -> Vec3 {
        self.waypoint - self.hit_point
    }
}

/// One turn of the planning loop, for the step-through panel.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanIteration {
    /// Where the route test started.
    pub perspective: Vec3,
    /// The proto-waypoint tested (top of the stack).
    pub target: Vec3,
    /// What the proto-waypoint is.
    pub target_kind: WaypointKind,
    /// The proto-waypoint stack before this iteration, bottom first (the top is last).
    pub stack: Vec<Vec3>,
    /// The earliest obstacle on the route, if any.
    pub hit: Option<PlanHit>,
    /// The avoidance waypoint pushed, if the route was blocked.
    pub avoidance: Option<Avoidance>,
    /// True when the route was clear and the proto-waypoint became real.
    pub popped: bool,
    /// Real waypoints after this iteration (the plan so far is `waypoints[..real_count]`).
    pub real_count: usize,
}

/// A planned route.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Where the plan starts (the ship).
    pub start: Vec3,
    /// The real waypoints, in flying order.
    pub waypoints: Vec<Vec3>,
    /// What each real waypoint is (same length as `waypoints`).
    pub kinds: Vec<WaypointKind>,
    /// How planning ended.
    pub status: PlanStatus,
    /// Exits, moved and merged waypoints.
    pub notes: Vec<PlanNote>,
    /// Every avoidance waypoint computed, in order (kept even without `record`; it is cheap).
    pub avoidances: Vec<Avoidance>,
    /// Proto-waypoints left on the stack at the iteration limit, bottom first.
    pub pending: Vec<Vec3>,
    /// Loop iterations used (at most the limit).
    pub iteration_count: u32,
    /// Per-iteration trace (empty unless `PlanOptions::record`).
    pub iterations: Vec<PlanIteration>,
    /// The complete fallback searches this plan ran, in order (usually none).
    pub fallbacks: Vec<FallbackSearch>,
}

impl Plan {
    /// Length from the start through every real waypoint.
    pub fn planned_length(&self) -> f32 {
        path_length(self.start, &self.waypoints)
    }

    /// True when the stack emptied (the status is not `IterationLimit`).
    pub fn is_finished(&self) -> bool {
        !matches!(self.status, PlanStatus::IterationLimit { .. })
    }

    /// True when every user waypoint is planned.
    pub fn is_complete(&self) -> bool {
        self.status == PlanStatus::Complete
    }

    /// The user waypoints skipped as unreachable.
    pub fn unreachable(&self) -> &[Unreachable] {
        match &self.status {
            PlanStatus::Complete => &[],
            PlanStatus::Unreachable(list) | PlanStatus::IterationLimit { unreachable: list } => list,
        }
    }

    /// One line for a status bar: outcome, waypoints, iterations, skipped waypoints.
    pub fn summary(&self) -> String {
        let outcome = match &self.status {
            PlanStatus::Complete => "complete".to_string(),
            PlanStatus::Unreachable(list) => format!("complete except {} unreachable", list.len()),
            PlanStatus::IterationLimit { .. } => {
                format!("partial (iteration limit, {} proto-waypoints left)", self.pending.len())
            }
        };
        let mut line = format!(
            "{outcome}: {} waypoints, {} iterations, length {:.1}",
            self.waypoints.len(),
            self.iteration_count,
            self.planned_length()
        );
        for u in self.unreachable() {
            match u.reason {
                UnreachableReason::InsideObstacle { obstacle } => {
                    line.push_str(&format!("; waypoint {} is inside obstacle {obstacle}", u.index + 1));
                }
                UnreachableReason::NotFinite => {
                    line.push_str(&format!("; waypoint {} is not a finite point", u.index + 1));
                }
                UnreachableReason::NoRoute { explored } => {
                    line.push_str(&format!(
                        "; waypoint {} is unreachable (sealed in: the grid search explored {explored} cells)",
                        u.index + 1
                    ));
                }
            }
        }
        for note in &self.notes {
            match note {
                PlanNote::ExitFirst { obstacle, colliding, .. } => {
                    let what = if *colliding { "inside" } else { "within the clearance of" };
                    line.push_str(&format!("; started {what} obstacle {obstacle}, exiting first"));
                }
                PlanNote::WaypointMoved { index, obstacle, .. } => {
                    line.push_str(&format!(
                        "; waypoint {} moved out of obstacle {obstacle}'s clearance",
                        index + 1
                    ));
                }
                PlanNote::WaypointMerged { index, into } => {
                    line.push_str(&format!("; waypoint {} merged into {}", index + 1, into + 1));
                }
            }
        }
        line
    }
}

/// Length of the polyline from `start` through `points`.
pub fn path_length(start: Vec3, points: &[Vec3]) -> f32 {
    let mut previous = start;
    let mut total = 0.0;
    for &p in points {
        total += previous.distance(p);
        previous = p;
    }
    total
}

/// Straight-line length from `start` through the user's waypoints (the plan's baseline).
pub fn straight_length(start: Vec3, user_waypoints: &[Vec3]) -> f32 {
    path_length(start, user_waypoints)
}

/// Plans a route for a ship of `ship_radius` from `start` through `user_waypoints` around the
/// obstacles in `obstacles` (build it with query radius `ship_radius + options.clearance`; a
/// smaller one still works, by brute force).
pub fn plan(
    start: Vec3,
    ship_radius: f32,
    user_waypoints: &[Vec3],
    obstacles: &ObstacleIndex,
    options: &PlanOptions,
) -> Plan {
    let ship_radius = if ship_radius.is_finite() { ship_radius.max(0.0) } else { 0.0 };
    let clearance = if options.clearance.is_finite() { options.clearance.max(0.0) } else { 0.0 };
    let ctx = Ctx { index: obstacles, ship_radius, cast_radius: ship_radius + clearance };
    let mut out = Plan {
        start,
        waypoints: Vec::new(),
        kinds: Vec::new(),
        status: PlanStatus::Complete,
        notes: Vec::new(),
        avoidances: Vec::new(),
        pending: Vec::new(),
        iteration_count: 0,
        iterations: Vec::new(),
        fallbacks: Vec::new(),
    };
    if !start.is_finite() {
        // Nothing sensible can be planned from nowhere; report every waypoint as pending.
        out.pending = user_waypoints.iter().rev().copied().collect();
        out.status = PlanStatus::IterationLimit { unreachable: Vec::new() };
        return out;
    }

    // The start: exit first if it is inside an inflated obstacle.
    let mut perspective = start;
    if let Some(exit) = ctx.exit_point(start) {
        out.waypoints.push(exit.point);
        out.kinds.push(WaypointKind::Exit);
        out.notes.push(PlanNote::ExitFirst {
            obstacle: exit.obstacle,
            colliding: ctx.body_containing(start).is_some(),
            exit: exit.point,
        });
        perspective = exit.point;
    }

    // The user waypoints: skip unreachable ones, move those in a clearance, merge duplicates.
    let mut unreachable = Vec::new();
    let mut protos: Vec<(Vec3, WaypointKind)> = Vec::with_capacity(user_waypoints.len());
    for (index, &w) in user_waypoints.iter().enumerate() {
        if !w.is_finite() {
            unreachable.push(Unreachable { index, position: w, reason: UnreachableReason::NotFinite });
            continue;
        }
        if let Some(obstacle) = ctx.body_containing(w) {
            unreachable.push(Unreachable {
                index,
                position: w,
                reason: UnreachableReason::InsideObstacle { obstacle },
            });
            continue;
        }
        let mut target = w;
        if let Some(exit) = ctx.exit_point(w) {
            out.notes.push(PlanNote::WaypointMoved { index, obstacle: exit.obstacle, to: exit.point });
            target = exit.point;
        }
        if let Some(last) = protos.last_mut() {
            if last.0.distance(target) < MERGE_DISTANCE {
                if let WaypointKind::User(previous) = last.1 {
                    out.notes.push(PlanNote::WaypointMerged { index: previous, into: index });
                }
                last.1 = WaypointKind::User(index);
                continue;
            }
        }
        protos.push((target, WaypointKind::User(index)));
    }

    // The loop of seed 004.
    let mut stack: Vec<Proto> = protos
        .into_iter()
        .rev()
        .map(|(position, kind)| Proto { position, kind, circulation: None })
        .collect();
    let mut circulation: Option<Circulation> = None;
    let mut limited;
    let mut iteration_limit = options.iteration_limit;
    let mut reached_user = false;
    let mut fallbacks_left = MAX_FALLBACKS;
    if options.fallback == FallbackMode::Force {
        fallbacks_left -= 1;
        perspective =
            fallback_to_next(&ctx, &mut out, &mut stack, &mut unreachable, user_waypoints, perspective);
        reached_user = out.kinds.iter().any(|k| matches!(k, WaypointKind::User(_)));
    }
    let mut segment_start = (out.waypoints.len(), perspective);
    loop {
        limited = false;
        while let Some(&top) = stack.last() {
            if out.iteration_count >= iteration_limit {
                limited = true;
                break;
            }
            out.iteration_count += 1;
            let target = top.position;
            let snapshot =
                if options.record { stack.iter().map(|p| p.position).collect() } else { Vec::new() };
            let hit = if perspective.distance(target) < MIN_LEG {
                None
            } else {
                obstacles.cast(perspective, target, ctx.cast_radius)
            };
            match hit {
                None => {
                    stack.pop();
                    out.waypoints.push(target);
                    out.kinds.push(top.kind);
                    if options.record {
                        out.iterations.push(PlanIteration {
                            perspective,
                            target,
                            target_kind: top.kind,
                            stack: snapshot,
                            hit: None,
                            avoidance: None,
                            popped: true,
                            real_count: out.waypoints.len(),
                        });
                    }
                    perspective = target;
                    circulation = top.circulation;
                    if matches!(top.kind, WaypointKind::User(_)) {
                        reached_user = true;
                    }
                }
                Some(index_hit) => {
                    let avoided = ctx.avoid(perspective, target, &index_hit, circulation, &out.waypoints);
                    let avoidance = Avoidance {
                        obstacle: index_hit.obstacle,
                        hit_point: index_hit.hit.point,
                        waypoint: avoided.waypoint,
                        cluster_size: avoided.cluster_size,
                    };
                    out.avoidances.push(avoidance);
                    stack.push(Proto {
                        position: avoided.waypoint,
                        kind: WaypointKind::Avoidance,
                        circulation: avoided.circulation,
                    });
                    if options.record {
                        out.iterations.push(PlanIteration {
                            perspective,
                            target,
                            target_kind: top.kind,
                            stack: snapshot,
                            hit: Some(PlanHit {
                                obstacle: index_hit.obstacle,
                                point: index_hit.hit.point,
                                toi: index_hit.hit.toi,
                                started_inside: index_hit.hit.started_inside,
                            }),
                            avoidance: Some(avoidance),
                            popped: false,
                            real_count: out.waypoints.len(),
                        });
                    }
                }
            }
        }
        // Fallback (module header): the loop stopped before reaching the next user waypoint.
        let stuck = limited && !reached_user;
        if !stuck || options.fallback == FallbackMode::Off || fallbacks_left == 0 {
            break;
        }
        fallbacks_left -= 1;
        out.waypoints.truncate(segment_start.0);
        out.kinds.truncate(segment_start.0);
        perspective =
            fallback_to_next(&ctx, &mut out, &mut stack, &mut unreachable, user_waypoints, segment_start.1);
        circulation = None;
        reached_user = out.kinds.iter().any(|k| matches!(k, WaypointKind::User(_)));
        segment_start = (out.waypoints.len(), perspective);
        iteration_limit = out.iteration_count.saturating_add(options.iteration_limit);
    }
    out.pending = stack.iter().map(|p| p.position).collect();

    if options.smoothing {
        smooth(&mut out, obstacles, ctx.cast_radius);
    }

    out.status = if limited {
        PlanStatus::IterationLimit { unreachable }
    } else if unreachable.is_empty() {
        PlanStatus::Complete
    } else {
        PlanStatus::Unreachable(unreachable)
    };
    out
}

/// The most fallback searches one plan runs (each settles one user waypoint).
pub const MAX_FALLBACKS: u32 = 3;

/// Runs the complete search from `from` to the next user waypoint on the stack: a route becomes
/// real waypoints ([`WaypointKind::Fallback`] corners, then the user waypoint); no route makes the
/// waypoint unreachable. The waypoint and the avoidance protos above it leave the stack. Returns
/// the new perspective.
fn fallback_to_next(
    ctx: &Ctx,
    out: &mut Plan,
    stack: &mut Vec<Proto>,
    unreachable: &mut Vec<Unreachable>,
    user_waypoints: &[Vec3],
    from: Vec3,
) -> Vec3 {
    let Some(at) = stack.iter().rposition(|p| matches!(p.kind, WaypointKind::User(_))) else {
        return from;
    };
    let Some(&target) = stack.get(at) else { return from };
    stack.truncate(at);
    let mut found = fallback::search(from, target.position, ctx.index, ctx.cast_radius);
    found.after_iterations = out.iteration_count;
    found.kept = out.waypoints.len();
    let perspective = match &found.outcome {
        FallbackOutcome::Route(points) => {
            for (i, &p) in points.iter().enumerate() {
                out.waypoints.push(p);
                out.kinds.push(if i + 1 == points.len() { target.kind } else { WaypointKind::Fallback });
            }
            target.position
        }
        FallbackOutcome::NoRoute | FallbackOutcome::NoEntry => {
            if let WaypointKind::User(index) = target.kind {
                unreachable.push(Unreachable {
                    index,
                    position: user_waypoints.get(index).copied().unwrap_or(target.position),
                    reason: UnreachableReason::NoRoute { explored: found.expanded },
                });
            }
            from
        }
    };
    out.fallbacks.push(found);
    perspective
}

/// Builds an index for `obstacles` and plans (the convenience the ship and the UI use).
pub fn plan_spheres(
    start: Vec3,
    ship_radius: f32,
    user_waypoints: &[Vec3],
    obstacles: &[Sphere],
    options: &PlanOptions,
) -> Plan {
    let index = ObstacleIndex::new(obstacles, ship_radius.max(0.0) + options.clearance.max(0.0));
    plan(start, ship_radius, user_waypoints, &index, options)
}

/// Drops avoidance waypoints whose predecessor sees their successor (greedy, in order).
fn smooth(out: &mut Plan, obstacles: &ObstacleIndex, cast_radius: f32) {
    let n = out.waypoints.len();
    let mut waypoints = Vec::with_capacity(n);
    let mut kinds = Vec::with_capacity(n);
    let mut anchor = out.start;
    for i in 0..n {
        let (Some(&w), Some(&kind)) = (out.waypoints.get(i), out.kinds.get(i)) else { break };
        if kind == WaypointKind::Avoidance {
            if let Some(&next) = out.waypoints.get(i + 1) {
                if obstacles.is_clear(anchor, next, cast_radius) {
                    continue;
                }
            }
        }
        waypoints.push(w);
        kinds.push(kind);
        anchor = w;
    }
    out.waypoints = waypoints;
    out.kinds = kinds;
}

/// A way out of the obstacles containing a point.
struct Exit {
    point: Vec3,
    obstacle: usize,
}

/// What every helper needs: the obstacles and the radii.
struct Ctx<'a> {
    index: &'a ObstacleIndex,
    ship_radius: f32,
    cast_radius: f32,
}

impl Ctx<'_> {
    /// The inflated radius of an obstacle (the radius a cast centre must stay outside).
    fn inflated(&self, sphere: &Sphere) -> f32 {
        sphere.radius.max(0.0) + self.cast_radius
    }

    /// The first obstacle whose body (radius + ship radius) contains `point`.
    fn body_containing(&self, point: Vec3) -> Option<usize> {
        let mut found: Option<usize> = None;
        self.index.visit_near(point, self.cast_radius, |k, s| {
            if point.distance(s.center) < s.radius.max(0.0) + self.ship_radius && found.is_none_or_greater(k)
            {
                found = Some(k);
            }
        });
        found
    }

    /// The lowest-index obstacle whose inflated sphere (times [`FREE_FACTOR`]) contains `point`.
    fn blocker(&self, point: Vec3) -> Option<usize> {
        let mut found: Option<usize> = None;
        self.index.visit_near(point, self.cast_radius, |k, s| {
            if point.distance(s.center) < self.inflated(s) * FREE_FACTOR && found.is_none_or_greater(k) {
                found = Some(k);
            }
        });
        found
    }

    /// The obstacle `point` is deepest in (inflated, times [`FREE_FACTOR`]).
    fn deepest(&self, point: Vec3) -> Option<(usize, Sphere)> {
        let mut found: Option<(usize, Sphere, f32)> = None;
        self.index.visit_near(point, self.cast_radius, |k, s| {
            let depth = self.inflated(s) * FREE_FACTOR - point.distance(s.center);
            if depth > 0.0 {
                let better = match found {
                    None => true,
                    Some((j, _, best)) => depth > best || (depth == best && k < j),
                };
                if better {
                    found = Some((k, *s, depth));
                }
            }
        });
        found.map(|(k, s, _)| (k, s))
    }

    /// If `point` is inside an inflated obstacle, the nearest free point found by pushing it out
    /// radially (repeatedly, for overlapping obstacles; at last out of their bounding sphere).
    fn exit_point(&self, point: Vec3) -> Option<Exit> {
        let (first, _) = self.deepest(point)?;
        let mut e = point;
        let mut cluster: Option<(Vec3, f32)> = None;
        for _ in 0..16 {
            let Some((_, s)) = self.deepest(e) else {
                return Some(Exit { point: e, obstacle: first });
            };
            let rho = self.inflated(&s);
            let dir = (e - s.center).try_normalize().unwrap_or(Vec3::X);
            e = s.center + dir * margin_radius(rho);
            cluster = Some(match cluster {
                None => (s.center, rho),
                Some(c) => enclose(c, (s.center, rho)),
            });
        }
        if let Some((center, rho)) = cluster {
            let dir = (e - center).try_normalize().unwrap_or(Vec3::X);
            e = center + dir * margin_radius(rho);
        }
        Some(Exit { point: e, obstacle: first })
    }

    /// The avoidance waypoint for a route `x → t` blocked by `hit` (see the module header).
    /// `circulation` is the way the perspective itself was reached round an obstacle: going on
    /// round the same obstacle keeps that sense of rotation (so the loop cannot swing back and
    /// forth between the two sides). Candidates within 1% of a real waypoint already planned are
    /// refused (no cycles).
    fn avoid(
        &self,
        x: Vec3,
        t: Vec3,
        hit: &IndexHit,
        circulation: Option<Circulation>,
        visited: &[Vec3],
    ) -> Avoided {
        let Some(sphere) = self.index.get(hit.obstacle) else {
            return Avoided { waypoint: x, cluster_size: 1, circulation: None };
        };
        let rho = self.inflated(sphere);
        let d = (t - x).normalize_or_zero();
        let rel = hit.hit.point - sphere.center;
        let perp = rel - d * rel.dot(d);
        let mut side = if perp.length() > 1e-4 * (1.0 + rho) {
            perp.normalize_or_zero()
        } else {
            fallback_perpendicular(d)
        };
        if let Some(previous) = circulation {
            // Going round side s turns about s × d; keep the previous sense round this obstacle.
            if previous.obstacle == hit.obstacle && side.cross(d).dot(previous.axis) < 0.0 {
                side = -side;
            }
        }
        let tabu = 0.01 * rho;
        let done = |w: Vec3, cluster_size: usize| Avoided {
            waypoint: w,
            cluster_size,
            circulation: (x - sphere.center)
                .cross(w - sphere.center)
                .try_normalize()
                .map(|axis| Circulation { obstacle: hit.obstacle, axis }),
        };
        // First the plain corner on either side, then clusters grown on either side.
        let mut first: Option<Vec3> = None;
        let mut blocked: [Option<usize>; 2] = [None; 2];
        for (slot, s) in [side, -side].into_iter().enumerate() {
            let Some(w) = corner_waypoint(x, t, sphere.center, rho, s) else { continue };
            first.get_or_insert(w);
            if visited.iter().any(|v| v.distance(w) < tabu) {
                continue;
            }
            match self.blocker(w) {
                None => return done(w, 1),
                Some(k) => blocked[slot] = Some(k),
            }
        }
        for (slot, s) in [side, -side].into_iter().enumerate() {
            let Some(mut k) = blocked[slot] else { continue };
            let mut cluster = (sphere.center, rho);
            let mut members = 1;
            while members < MAX_CLUSTER {
                let Some(other) = self.index.get(k) else { break };
                let grown = enclose(cluster, (other.center, self.inflated(other)));
                if grown.1 <= cluster.1 * (1.0 + 1e-6) && grown.0.distance(cluster.0) <= 1e-6 * cluster.1 {
                    break;
                }
                cluster = grown;
                members += 1;
                let Some(w) = corner_waypoint(x, t, cluster.0, cluster.1, s) else { break };
                if visited.iter().any(|v| v.distance(w) < tabu) {
                    break;
                }
                match self.blocker(w) {
                    None => return done(w, members),
                    Some(next) => k = next,
                }
            }
        }
        done(first.unwrap_or(x + side * margin_radius(rho)), 1)
    }
}

/// The sense in which a route goes round an obstacle: the unit axis of rotation about its centre.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Circulation {
    obstacle: usize,
    axis: Vec3,
}

/// An avoidance waypoint with the cluster it was computed round and its sense of rotation.
struct Avoided {
    waypoint: Vec3,
    cluster_size: usize,
    circulation: Option<Circulation>,
}

/// A proto-waypoint on the stack.
#[derive(Clone, Copy, Debug)]
struct Proto {
    position: Vec3,
    kind: WaypointKind,
    circulation: Option<Circulation>,
}

/// `Option<usize>` helper: true when empty or holding a larger index than `k`.
trait LowestIndex {
    fn is_none_or_greater(&self, k: usize) -> bool;
}

impl LowestIndex for Option<usize> {
    fn is_none_or_greater(&self, k: usize) -> bool {
        match self {
            None => true,
            Some(j) => k < *j,
        }
    }
}

/// The inflated radius with the planner's safety margin (2% and 0.01 units).
fn margin_radius(rho: f32) -> f32 {
    rho * 1.02 + 0.01
}

/// A unit vector perpendicular to `d`, deterministic: d × z, or d × x when d is vertical.
pub fn fallback_perpendicular(d: Vec3) -> Vec3 {
    let a = d.cross(Vec3::Z);
    if a.length() > 1e-3 {
        a.normalize_or_zero()
    } else {
        d.cross(Vec3::X).try_normalize().unwrap_or(Vec3::Y)
    }
}

/// The smallest sphere containing two spheres.
fn enclose(a: (Vec3, f32), b: (Vec3, f32)) -> (Vec3, f32) {
    let (ca, ra) = a;
    let (cb, rb) = b;
    let dist = ca.distance(cb);
    if dist + rb <= ra {
        return a;
    }
    if dist + ra <= rb {
        return b;
    }
    let radius = 0.5 * (dist + ra + rb);
    let dir = (cb - ca).try_normalize().unwrap_or(Vec3::ZERO);
    (ca + dir * (radius - ra), radius)
}

/// The tangent line a route takes past the circle of radius `rho` around the origin of the plane:
/// its normal's angle ψ and its distance from the centre. `leaving` is true for the perspective
/// (the route leaves it going clockwise round, over the +u side) and false for the target.
fn tangent_line(p: Vec2, rho: f32, leaving: bool) -> Option<(f32, f32)> {
    let s = p.length();
    if s.is_nan() || s <= 1e-6 {
        return None;
    }
    let phi = p.y.atan2(p.x);
    if s <= rho {
        return Some((phi, s));
    }
    let beta = (rho / s).clamp(-1.0, 1.0).acos();
    Some((if leaving { phi - beta } else { phi + beta }, rho))
}

/// The avoidance corner for the route `x → t` round the sphere (`center`, `rho`) on the `side`
/// half-plane: the meeting point of the two tangent lines (module header).
pub fn corner_waypoint(x: Vec3, t: Vec3, center: Vec3, rho: f32, side: Vec3) -> Option<Vec3> {
    let d = (t - x).try_normalize()?;
    let rx = x - center;
    let perp = rx - d * rx.dot(d);
    let e2 = if perp.length() > 1e-5 * (1.0 + rho) {
        let p = perp.normalize_or_zero();
        if p.dot(side) >= 0.0 {
            p
        } else {
            -p
        }
    } else {
        (side - d * side.dot(d)).try_normalize()?
    };
    let rt = t - center;
    let x2 = Vec2::new(rx.dot(d), rx.dot(e2));
    let t2 = Vec2::new(rt.dot(d), rt.dot(e2));
    let rho_m = margin_radius(rho);
    let (psi_x, o1) = tangent_line(x2, rho_m, true)?;
    let (psi_t, ot) = tangent_line(t2, rho_m, false)?;
    let mut wrap = (psi_x - psi_t).rem_euclid(TAU);
    if wrap > TAU - 1e-4 {
        wrap = 0.0;
    }
    let (psi2, o2) = if wrap > MAX_WRAP { (psi_x - MAX_WRAP, rho_m) } else { (psi_t, ot) };
    let n1 = Vec2::new(psi_x.cos(), psi_x.sin());
    let n2 = Vec2::new(psi2.cos(), psi2.sin());
    let det = n1.x * n2.y - n1.y * n2.x;
    let y = if det.abs() < 1e-6 {
        n1 * o1.max(o2)
    } else {
        Vec2::new((o1 * n2.y - o2 * n1.y) / det, (n1.x * o2 - n2.x * o1) / det)
    };
    let w = center + d * y.x + e2 * y.y;
    w.is_finite().then_some(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_corner_sits_on_the_perpendicular_at_rho_over_cos_half_wrap() {
        // X and T far on either side, route offset 10 above a sphere of inflated radius 50.
        let x = Vec3::new(-1000.0, 10.0, 0.0);
        let t = Vec3::new(1000.0, 10.0, 0.0);
        let w = corner_waypoint(x, t, Vec3::ZERO, 50.0, Vec3::Y).unwrap();
        let rho_m = margin_radius(50.0);
        let beta = (rho_m / x.length()).acos();
        let phi = 10f32.atan2(-1000.0);
        let half_wrap = 0.5 * ((phi - beta) - (10f32.atan2(1000.0) + beta));
        assert!(w.x.abs() < 1e-3, "{w}");
        assert!((w.y - rho_m / half_wrap.cos()).abs() < 1e-3, "{w}");
    }

    #[test]
    fn both_legs_of_a_corner_clear_the_obstacle() {
        let x = Vec3::new(-120.0, -20.0, 5.0);
        let t = Vec3::new(90.0, 30.0, -10.0);
        let w = corner_waypoint(x, t, Vec3::ZERO, 50.0, Vec3::Y).unwrap();
        let legs = [(x, w), (w, t)];
        for (a, b) in legs {
            let dist = crate::geometry::cast::distance_point_segment(Vec3::ZERO, a, b);
            assert!(dist >= 50.0, "{dist}");
        }
    }

    #[test]
    fn wide_wrap_is_capped_at_a_right_angle_corner() {
        // Perspective and target hug the sphere on opposite sides: the wrap is nearly 180°.
        let rho_m = margin_radius(50.0);
        let x = Vec3::new(-rho_m, 0.0, 0.0);
        let t = Vec3::new(rho_m, 0.0, 0.0);
        let w = corner_waypoint(x, t, Vec3::ZERO, 50.0, Vec3::Y).unwrap();
        assert!((w - Vec3::new(-rho_m, rho_m, 0.0)).length() < 0.05, "{w}");
    }

    #[test]
    fn enclosing_sphere_contains_both() {
        let (c, r) = enclose((Vec3::ZERO, 1.0), (Vec3::new(4.0, 0.0, 0.0), 2.0));
        assert!((c - Vec3::new(2.5, 0.0, 0.0)).length() < 1e-6);
        assert_eq!(r, 3.5);
        assert_eq!(enclose((Vec3::ZERO, 5.0), (Vec3::X, 1.0)), (Vec3::ZERO, 5.0));
    }

    #[test]
    fn fallback_perpendicular_stays_in_the_ground_plane_for_flat_routes() {
        let p = fallback_perpendicular(Vec3::X);
        assert_eq!(p, Vec3::new(0.0, -1.0, 0.0));
        let vertical = fallback_perpendicular(Vec3::Z);
        assert!((vertical.length() - 1.0).abs() < 1e-6 && vertical.dot(Vec3::Z).abs() < 1e-6);
    }
}
