//! The ship of seed 004 (`004_*.txt`): it plans when given its waypoints and every half second
//! after that, and its movement system thrusts toward the next real waypoint.
//!
//! # Motivation
//! The seed is explicit that the planned line is not the ship's exact path: the movement system
//! produces thrust toward the next waypoint and must absorb unexpected forces (weapons fire, the
//! sandbox's pushes). This file is that movement system: dynamic (acceleration-limited), never
//! overshooting its last waypoint, and returning to the corridor the planner checked when knocked
//! out of it.
//!
//! # Implementation
//! Each step, in order:
//! 0. *Moving obstacles.* The ship estimates each obstacle's speed from its centre's change since
//!    the previous step and plans (and checks routes, commitment and arrival) against every sphere
//!    grown by speed × [`sweep_horizon`] (replan interval + [`REACTION_TIME`]): a ball round
//!    where the obstacle is now holding everywhere it can reach, in any direction and through
//!    bounces, before the plan is checked again and the ship has had time to act on it. Static
//!    obstacles are unchanged. A sphere never grows over the ship: its growth stops
//!    [`GROWTH_GAP`] short of the ship's clearance, so a plan never starts inside a swept sphere
//!    (the planner's exit waypoint out of one is pushed out radially and not cast against the real
//!    spheres round the ship; every contact of the old moving-field measurements was such an exit
//!    leg flown into a slow sphere beside the ship). Class without contact: README, "Moving
//!    obstacles".
//! 1. *Arrival.* The first remaining user waypoint is reached inside `arrival_radius` (or its moved
//!    stand-in, when the planner moved it out of a clearance). Reached waypoints leave the queue and
//!    the plan is trimmed up to them.
//! 2. *Replanning.* On the first step and whenever `since_replan` (accumulated `dt`) reaches
//!    `replan_interval`, the ship plans from its position through the remaining waypoints,
//!    rebuilding the obstacle index from the current spheres (obstacles may move). Waypoints the
//!    plan finds unreachable are dropped (`skipped`). The ship also replans at once when knocked
//!    more than half the clearance off its current leg (`early_replans`; the timer is not reset).
//!    **Commitment** (no flip-flop between sides): a replan keeps the route being flown to the
//!    next user waypoint while every remaining leg of it, cast from the ship with half the
//!    clearance, is clear, unless the new route to that waypoint is at least [`COMMIT_SHORTER`]
//!    (20%) shorter; a route that came from the fallback search is kept while clear without
//!    planning at all. When only the leg from the ship to the route's next waypoint is blocked,
//!    the seed's loop plans the way back to that waypoint and the route is kept behind it, by the
//!    same rules with the way back counted (`Commitment::Rejoin`; among static obstacles only:
//!    with moving ones a blocked leg is replaced as before). **No progress**: when the ship has not come [`PROGRESS_STEP`] closer to the
//!    next user waypoint for [`NO_PROGRESS_TIME`] seconds, it replans at once with the fallback
//!    search forced (`forced_fallbacks`). Waypoints the fallback proves sealed in are dropped and
//!    recorded in `unreachable` with the reason; with none left the ship holds position. A
//!    waypoint that only the *swept* spheres seal is not unreachable: that plan is made again
//!    against the spheres where they are now, and only what those seal is reported.
//! 3. *Intermediate waypoints* (avoidance, exit) are dropped when reached within `arrival_radius`
//!    or passed (beyond the plane through the waypoint across the leg), provided the direct route
//!    to the following waypoint is clear with half the clearance; always when within a quarter of
//!    the arrival radius.
//! 4. *Thrust.* The ship seeks a carrot point a little ahead of its projection on the current leg,
//!    so a push is followed by a return to the checked corridor. Its desired speed is capped so it
//!    can slow down in time: `sqrt(v_c² + 2·a_b·D)` for each of the next four waypoints at path
//!    distance D (less the arrival radius at corners, where the turn begins), where `v_c` is zero at the last planned waypoint and, at a corner turning by θ,
//!    the speed whose sideways part `v sin θ` (all of v past a right angle) can be cancelled at 80%
//!    of the maximum acceleration within a quarter of the clearance; `a_b` is half the maximum acceleration (margin for steering while braking). Near a stop it is
//!    also capped at `D / (2·STEER_TIME)`, so it settles without oscillating. The turn from the
//!    ship's current heading onto the carrot counts as a corner at distance zero, so after a replan
//!    or a push the ship slows before it turns (its turn stays inside the clearance); before a corner it
//!    asks `a_b·STEER_TIME` less, the lag of tracking a falling speed. Acceleration comes
//!    from [`accelerate_toward_velocity`], within the agent's limits.
//! 5. *Short horizon* (`dodge`). The step's wish is predicted [`DODGE_HORIZON`] (1.5 s) ahead
//!    with the ship's own controller and integration, against every obstacle moving straight on
//!    at its estimated velocity — reflected off the walls of the box the world bounces obstacles
//!    in, when the simulation passes it ([`predict`], [`predicted_centre`]). When a *moving* obstacle is predicted within half
//!    the clearance of the ship, the ship steers instead toward the velocity nearest its wish that
//!    is predicted clear of every obstacle (moving or static) — one of 40 directions (a circle in
//!    a flat scene) at full or half speed, a stop, or its current velocity — and, when none is
//!    clear, toward the one whose predicted gap stays largest: it escapes sideways, back, up or
//!    down rather than only braking. Off-leg replans wait until the dodge ends. Once the queue is
//!    empty the ship holds position on the last waypoint, and holding dodges the same way.
//! 6. *Incoming fire* (optional disturbance). While waypoints remain, each step is hit with
//!    probability `incoming_fire · dt` (a Bernoulli approximation of a Poisson process). A hit
//!    changes the velocity by `fire_strength` in a random direction (in the horizontal plane when
//!    the start and every waypoint share one height, so 2D scenes stay flat); the step's steering
//!    is then that new velocity instead of the thrust. The generator is [`SplitMix64`] seeded on
//!    the first step from `fire_seed` and the start position, so runs repeat bit for bit. Recovery
//!    is steps 2 and 4: the ship replans at once when knocked off its leg and steers back.
//!
//! # Parameters
//! [`PlannerParams`] (clearance, iteration limit, replan interval, arrival radius, smoothing) and
//! the agent's [`Limits`] (radius for the casts, max speed, max acceleration).

use super::plan::{
    path_length, plan, straight_length, FallbackMode, Plan, PlanOptions, Unreachable, WaypointKind,
};
use super::{BounceBox, ObstacleIndex, ObstacleTrack, PlannerParams, ShipState, SplitMix64};
use crate::behaviours::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use crate::geometry::{cast_sphere_sphere, project_point_segment, Sphere};
use glam::Vec3;

/// How many upcoming waypoints the speed limit looks at.
const LOOKAHEAD_WAYPOINTS: usize = 4;

/// One step of the ship (see the module header).
#[allow(clippy::too_many_arguments)]
pub fn step(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    bounds: Option<BounceBox>,
    params: &PlannerParams,
    state: &mut ShipState,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    let pos = k.position;
    if !pos.is_finite() || !k.velocity.is_finite() {
        return Steering::NONE;
    }
    let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
    let first = !state.has_planned;
    if first {
        state.has_planned = true;
        state.start = pos;
        state.leg_start = pos;
        state.leg_entry = pos;
        state.straight_length = straight_length(pos, &state.remaining);
        state.fire_rng = SplitMix64::new(fire_seed(params.fire_seed, pos));
    } else {
        state.since_replan += dt;
    }

    // Moving obstacles (module header, step 0): plan against each sphere grown by the distance it
    // can cover before the plan is next checked.
    let real = obstacles;
    let swept = sweep_obstacles(obstacles, pos, limits, params, state, dt);
    let obstacles: &[Sphere] = &swept;

    reach_user_waypoints(pos, limits, obstacles, params, state);
    let stuck = no_progress(pos, params, state, if first { 0.0 } else { dt });

    if !state.remaining.is_empty() {
        let interval = if params.replan_interval.is_finite() { params.replan_interval } else { 0.5 };
        let due = first || stuck || interval <= 0.0 || state.since_replan + 1e-4 >= interval;
        let off_course =
            !due && !state.dodging && off_leg_distance(pos, state) > off_course_threshold(params);
        if due || off_course {
            replan(pos, limits, (obstacles, real), params, state, first, stuck);
            if first {
                state.since_replan = 0.0;
            } else {
                state.replans += 1;
                if due {
                    state.since_replan =
                        (state.since_replan - interval.max(0.0)).clamp(0.0, interval.max(0.0));
                } else {
                    state.early_replans += 1;
                }
            }
            reach_user_waypoints(pos, limits, obstacles, params, state);
        }
    }
    if state.remaining.is_empty() && !state.finished {
        state.finished = true;
        state.planned.clear();
        state.kinds.clear();
        // The last plan's casts and avoidance vectors no longer explain anything the ship does.
        state.avoidances.clear();
        if state.hold.is_none() {
            state.hold = Some(pos);
        }
    }

    drop_intermediate_waypoints(pos, limits, obstacles, params, state);

    let desired = desired_velocity(k, limits, params, state);
    let desired = dodge(k, limits, params, real, bounds, state, desired);
    let hit = incoming_fire(pos, params, state, dt);
    if gizmos.is_enabled() {
        emit_gizmos(pos, desired, obstacles, params, state, gizmos);
    }
    match hit {
        Some(change) => Steering::Velocity(k.velocity + change),
        None => Steering::Acceleration(accelerate_toward_velocity(
            k.velocity,
            desired,
            STEER_TIME,
            limits.max_acceleration,
        )),
    }
}

/// The obstacles the ship plans against: each sphere grown by its estimated speed times
/// [`sweep_horizon`] (module header, step 0). The speed of obstacle i is |Δcentre| / dt between
/// successive steps, kept as the larger of that and the previous estimate decayed by
/// [`SPEED_MEMORY`] per step (a bounce shortens one step's displacement). A change in the number of
/// obstacles (an edit) forgets the estimates, and a step faster than [`JUMP_SPEEDS`] times the ship's
/// top speed counts as a jump (an obstacle dragged in the editor), not as motion. A sphere never
/// grows over the ship: its growth stops [`GROWTH_GAP`] short of the ship's clearance, so the
/// planner never starts inside a swept sphere (an exit pushed out of one is not checked against
/// the real spheres round it, and flew into them); what the obstacle can do inside that gap is the
/// short-horizon layer's business (step 5). Static obstacles come back unchanged.
fn sweep_obstacles(
    obstacles: &[Sphere],
    pos: Vec3,
    limits: &Limits,
    params: &PlannerParams,
    state: &mut ShipState,
    dt: f32,
) -> Vec<Sphere> {
    let jump = JUMP_SPEEDS * limits.max_speed.max(1.0);
    let known = state.obstacle_motion.len() == obstacles.len() && dt > 0.0;
    if !known {
        state.obstacle_motion = obstacles
            .iter()
            .map(|s| ObstacleTrack { previous: s.center, ..ObstacleTrack::default() })
            .collect();
    }
    let horizon = sweep_horizon(params);
    let keep = limits.radius.max(0.0) + params.clearance.max(0.0) + GROWTH_GAP;
    obstacles
        .iter()
        .zip(state.obstacle_motion.iter_mut())
        .map(|(sphere, track)| {
            if known {
                let velocity = (sphere.center - track.previous) / dt;
                // Faster than any motion the ship could react to: an edit (a drag), not motion.
                let moved = velocity.length();
                let velocity = if moved.is_finite() && moved <= jump { velocity } else { Vec3::ZERO };
                track.velocity = velocity;
                track.speed = velocity.length().max(track.speed * SPEED_MEMORY);
            }
            track.previous = sphere.center;
            let room = sphere.center.distance(pos) - sphere.radius - keep;
            let grow = (track.speed * horizon).min(room);
            if grow > 0.0 && grow.is_finite() {
                Sphere { center: sphere.center, radius: sphere.radius + grow }
            } else {
                *sphere
            }
        })
        .collect()
}

/// Seconds of obstacle motion the ship plans against: the replan interval (a plan is checked again
/// after it) plus [`REACTION_TIME`] for the ship to act on the next plan.
pub fn sweep_horizon(params: &PlannerParams) -> f32 {
    let interval =
        if params.replan_interval.is_finite() { params.replan_interval.clamp(0.0, 60.0) } else { 0.5 };
    interval + REACTION_TIME
}

/// Seconds the ship is given to act on a new plan (see [`sweep_horizon`]).
pub const REACTION_TIME: f32 = 0.5;
/// An obstacle step faster than this many times the ship's top speed is a jump, not motion.
pub const JUMP_SPEEDS: f32 = 4.0;
/// Per-step decay of a remembered obstacle speed (a 60 Hz step forgets half in about a second).
pub const SPEED_MEMORY: f32 = 0.99;
/// How far short of the ship's clearance a swept sphere stops growing (world units).
pub const GROWTH_GAP: f32 = 1.0;

/// How long the latest hit stays drawn, seconds.
const HIT_SHOWN_FOR: f32 = 0.75;

/// The seed of the incoming-fire generator: the scene's seed mixed with the start position.
fn fire_seed(seed: u64, start: Vec3) -> u64 {
    let [x, y, z] = start.to_array().map(|c| c.to_bits() as u64);
    seed ^ x.rotate_left(7) ^ y.rotate_left(29) ^ z.rotate_left(47)
}

/// Draws this step's incoming fire (module header, step 6): the velocity change of a hit, if any.
fn incoming_fire(pos: Vec3, params: &PlannerParams, state: &mut ShipState, dt: f32) -> Option<Vec3> {
    if let Some((_, _, age)) = &mut state.last_hit {
        *age += dt;
        if *age > HIT_SHOWN_FOR {
            state.last_hit = None;
        }
    }
    let rate = params.incoming_fire;
    let strength = params.fire_strength;
    if !(rate.is_finite() && rate > 0.0 && strength.is_finite() && strength > 0.0)
        || state.remaining.is_empty()
    {
        return None;
    }
    let chance = (rate * dt).min(1.0);
    if state.fire_rng.next_f32() >= chance {
        return None;
    }
    let angle = std::f32::consts::TAU * state.fire_rng.next_f32();
    let rise = 2.0 * state.fire_rng.next_f32() - 1.0;
    let direction = if flat(params, state) {
        Vec3::new(angle.cos(), angle.sin(), 0.0)
    } else {
        let across = (1.0 - rise * rise).max(0.0).sqrt();
        Vec3::new(across * angle.cos(), across * angle.sin(), rise)
    };
    let change = direction * strength;
    state.hits += 1;
    state.last_hit = Some((pos, change, 0.0));
    Some(change)
}

/// True when the start and every waypoint share one height: a 2D scene, kept in its plane by the
/// disturbances and the dodges.
fn flat(params: &PlannerParams, state: &ShipState) -> bool {
    state.remaining.iter().chain(&params.waypoints).all(|w| (w.z - state.start.z).abs() < 1e-3)
}

/// Plans from `pos` and installs the plan in `state`.
fn replan(
    pos: Vec3,
    limits: &Limits,
    (obstacles, real): (&[Sphere], &[Sphere]),
    params: &PlannerParams,
    state: &mut ShipState,
    first: bool,
    stuck: bool,
) {
    let fallback = if stuck { FallbackMode::Force } else { FallbackMode::WhenStuck };
    let options = PlanOptions { record: false, fallback, ..params.plan_options() };
    let radius = limits.radius.max(0.0);
    let query_radius = radius + options.clearance.max(0.0);
    // The index first: the commitment checks below must see where the obstacles are now.
    let reusable = state
        .index
        .as_ref()
        .is_some_and(|index| index.query_radius() == query_radius && index.spheres() == obstacles);
    if !reusable {
        state.index = Some(ObstacleIndex::new(obstacles, query_radius));
    }
    // A route from the fallback is kept without planning while it is clear (commitment).
    if !first && !stuck && flying_fallback_route(pos, limits, params, state) {
        state.kept_routes += 1;
        return;
    }
    let mut new_plan = match &state.index {
        Some(index) => plan(pos, radius, &state.remaining, index, &options),
        None => return,
    };
    // Swept spheres are where obstacles *might* be: a waypoint they seal is not unreachable. The
    // ship plans against where the obstacles are now instead (the short-horizon layer guards it)
    // and reports only what the real spheres seal.
    if !new_plan.unreachable().is_empty() && obstacles != real {
        new_plan = plan(pos, radius, &state.remaining, &ObstacleIndex::new(real, query_radius), &options);
    }
    state.iterations = state.iterations.saturating_add(new_plan.iteration_count);
    if first {
        state.planned_length = new_plan.planned_length();
    }
    if !new_plan.fallbacks.is_empty() {
        state.fallback_plans += 1;
    }
    if stuck {
        state.forced_fallbacks += 1;
    }
    if !first && !stuck && new_plan.unreachable().is_empty() {
        let decision = match &state.index {
            Some(index) => commitment(pos, limits, params, state, index, &new_plan, &options),
            None => Commitment::Replace,
        };
        match decision {
            Commitment::Keep => {
                state.kept_routes += 1;
                return;
            }
            Commitment::Rejoin { waypoints, kinds } => {
                state.kept_routes += 1;
                state.planned.splice(0..0, waypoints);
                state.kinds.splice(0..0, kinds);
                state.leg_start = pos;
                state.leg_entry = pos;
                return;
            }
            Commitment::Replace => {}
        }
    }
    // Drop the unreachable waypoints from the queue and renumber the plan's user indices.
    let mut dropped: Vec<usize> = new_plan.unreachable().iter().map(|u| u.index).collect();
    dropped.sort_unstable();
    dropped.dedup();
    for &i in dropped.iter().rev() {
        if i < state.remaining.len() {
            state.remaining.remove(i);
            state.skipped += 1;
        }
    }
    // Recorded with the index into the scene's waypoint list (the plan's indexes `remaining`).
    state.unreachable.extend(new_plan.unreachable().iter().map(|u| Unreachable {
        index: params.waypoints.iter().position(|w| *w == u.position).unwrap_or(u.index),
        ..*u
    }));
    state.kinds = new_plan
        .kinds
        .iter()
        .map(|kind| match *kind {
            WaypointKind::User(i) => WaypointKind::User(i - dropped.iter().filter(|&&j| j < i).count()),
            other => other,
        })
        .collect();
    state.planned = new_plan.waypoints;
    state.leg_start = pos;
    state.leg_entry = pos;
    state.avoidances = new_plan.avoidances;
    state.status = Some(new_plan.status);
}

/// What a replan does with the route being flown (commitment, module header step 2).
#[derive(Clone, Debug, PartialEq)]
enum Commitment {
    /// Keep it as it is.
    Keep,
    /// Keep it, flying first through these waypoints (of these kinds) back onto it: only the leg
    /// from the ship to its next waypoint was blocked (the ship was knocked or carried off it).
    Rejoin { waypoints: Vec<Vec3>, kinds: Vec<WaypointKind> },
    /// Fly the new plan.
    Replace,
}

/// Commitment (module header, step 2): the route being flown to the next user waypoint stays
/// while it is clear (every remaining leg, from the ship, cast with half the clearance) and the
/// new plan's route to that waypoint is not [`COMMIT_SHORTER`] shorter; a route that came from the
/// fallback search stays while clear whatever the new plan. When only the leg from the ship to the
/// route's next waypoint is blocked, the seed's loop plans from the ship back to that waypoint
/// (no fallback) and the route stays with that way back in front of it, judged by the same rules
/// with the way back counted in its length: a ship pushed across to the far side of the axis of
/// a symmetric cluster goes back to the side it chose instead of taking the other.
fn commitment(
    pos: Vec3,
    limits: &Limits,
    params: &PlannerParams,
    state: &ShipState,
    index: &ObstacleIndex,
    new_plan: &Plan,
    options: &PlanOptions,
) -> Commitment {
    let Some(user) = state.kinds.iter().position(|k| matches!(k, WaypointKind::User(0))) else {
        return Commitment::Replace;
    };
    let (Some(route), Some(kinds)) = (state.planned.get(..=user), state.kinds.get(..user)) else {
        return Commitment::Replace;
    };
    let radius = half_clearance_radius(limits, params);
    // Among moving obstacles a blocked leg is the field's news, not the ship's wandering: replace.
    let all_static = state.obstacle_motion.iter().all(|track| track.speed <= MOVING_SPEED);
    let (way_back, way_back_kinds) = if route_is_clear(pos, route, index, radius) {
        (Vec::new(), Vec::new())
    } else {
        let Some((&next, rest)) = route.split_first() else { return Commitment::Replace };
        if !all_static {
            return Commitment::Replace;
        }
        if !route_is_clear(next, rest, index, radius) {
            return Commitment::Replace;
        }
        let join_options = PlanOptions { fallback: FallbackMode::Off, smoothing: false, ..*options };
        let join = plan(pos, limits.radius.max(0.0), &[next], index, &join_options);
        let count = join.waypoints.len().saturating_sub(1);
        let joined =
            join.is_finished() && join.unreachable().is_empty() && join.waypoints.last() == Some(&next);
        match (joined, join.waypoints.get(..count), join.kinds.get(..count)) {
            (true, Some(waypoints), Some(kinds)) => (waypoints.to_vec(), kinds.to_vec()),
            _ => return Commitment::Replace,
        }
    };
    let keep = if kinds.contains(&WaypointKind::Fallback) {
        true
    } else {
        let current = path_length(pos, &[way_back.as_slice(), route].concat());
        let new_length = new_plan
            .kinds
            .iter()
            .position(|k| matches!(k, WaypointKind::User(0)))
            .and_then(|u| new_plan.waypoints.get(..=u))
            .map(|w| path_length(pos, w));
        new_length.is_none_or(|length| length >= (1.0 - COMMIT_SHORTER) * current)
    };
    match (keep, way_back.is_empty()) {
        (false, _) => Commitment::Replace,
        (true, true) => Commitment::Keep,
        (true, false) => Commitment::Rejoin { waypoints: way_back, kinds: way_back_kinds },
    }
}

/// True when the ship flies a fallback route to the next user waypoint that is still clear.
fn flying_fallback_route(pos: Vec3, limits: &Limits, params: &PlannerParams, state: &ShipState) -> bool {
    let Some(user) = state.kinds.iter().position(|k| matches!(k, WaypointKind::User(0))) else {
        return false;
    };
    let fallback = state.kinds.get(..user).is_some_and(|kinds| kinds.contains(&WaypointKind::Fallback));
    match (&state.index, state.planned.get(..=user)) {
        (Some(index), Some(route)) if fallback => {
            route_is_clear(pos, route, index, half_clearance_radius(limits, params))
        }
        _ => false,
    }
}

/// True when every leg from `pos` through `route` is clear for a sphere of `radius`.
fn route_is_clear(pos: Vec3, route: &[Vec3], index: &ObstacleIndex, radius: f32) -> bool {
    let mut from = pos;
    route.iter().all(|&to| {
        let clear = index.is_clear(from, to, radius);
        from = to;
        clear
    })
}

/// How much shorter a new route must be to replace a clear one being flown (fraction).
pub const COMMIT_SHORTER: f32 = 0.2;
/// Seconds without progress toward the next user waypoint before the fallback is forced.
pub const NO_PROGRESS_TIME: f32 = 4.0;
/// Getting this much closer (world units) to the next user waypoint counts as progress.
pub const PROGRESS_STEP: f32 = 10.0;

/// Tracks progress toward the next user waypoint; true (once, then the clock restarts) when the
/// ship has not come [`PROGRESS_STEP`] closer for [`NO_PROGRESS_TIME`] seconds.
fn no_progress(pos: Vec3, params: &PlannerParams, state: &mut ShipState, dt: f32) -> bool {
    let Some(&target) = state.remaining.first() else {
        state.progress = None;
        return false;
    };
    let distance = pos.distance(target);
    let (mut best, mut since) = match state.progress {
        Some((t, best, since)) if t == target => (best, since + dt),
        _ => (distance, 0.0),
    };
    if distance < best - PROGRESS_STEP || distance <= params.arrival_radius {
        best = distance;
        since = 0.0;
    }
    let stuck = since >= NO_PROGRESS_TIME;
    if stuck {
        best = distance;
        since = 0.0;
    }
    state.progress = Some((target, best, since));
    stuck
}

/// Removes the user waypoints the ship has reached (directly, or via their planned stand-in).
fn reach_user_waypoints(
    pos: Vec3,
    limits: &Limits,
    obstacles: &[Sphere],
    params: &PlannerParams,
    state: &mut ShipState,
) {
    let arrival = params.arrival_radius.max(0.0);
    loop {
        let Some(&w0) = state.remaining.first() else { return };
        let (count, position) = if pos.distance(w0) <= arrival {
            (1, w0)
        } else {
            match (state.kinds.first(), state.planned.first()) {
                (Some(&WaypointKind::User(i)), Some(&p0)) if pos.distance(p0) <= arrival => (i + 1, p0),
                _ => return,
            }
        };
        let count = count.min(state.remaining.len());
        state.remaining.drain(..count);
        state.waypoints_reached += count as u32;
        let mut reached_at = position;
        if let Some(p) =
            state.kinds.iter().rposition(|kind| matches!(kind, WaypointKind::User(j) if *j < count))
        {
            if let Some(&planned_position) = state.planned.get(p) {
                reached_at = planned_position;
            }
            state.planned.drain(..(p + 1).min(state.planned.len()));
            state.kinds.drain(..=p);
        }
        for kind in &mut state.kinds {
            if let WaypointKind::User(j) = kind {
                *j = j.saturating_sub(count);
            }
        }
        state.leg_start = reached_at;
        state.leg_entry = match state.planned.first() {
            Some(&next) if route_clear(obstacles, pos, next, half_clearance_radius(limits, params)) => pos,
            _ => reached_at,
        };
        if state.remaining.is_empty() {
            state.hold = Some(reached_at);
        }
    }
}

/// Drops avoidance and exit waypoints that are reached or passed (module header, step 3).
fn drop_intermediate_waypoints(
    pos: Vec3,
    limits: &Limits,
    obstacles: &[Sphere],
    params: &PlannerParams,
    state: &mut ShipState,
) {
    let arrival = params.arrival_radius.max(0.0);
    let forced_radius = (0.25 * arrival).max(0.5);
    while let (Some(&w), Some(&kind)) = (state.planned.first(), state.kinds.first()) {
        if matches!(kind, WaypointKind::User(_)) {
            return;
        }
        let distance = pos.distance(w);
        let forced = distance <= forced_radius;
        let leg = w - state.leg_start;
        let passed = leg.length_squared() > 1e-8 && (pos - w).dot(leg) > 0.0;
        if !(forced || distance <= arrival || passed) {
            return;
        }
        let clear = match state.planned.get(1) {
            Some(&next) => route_clear(obstacles, pos, next, half_clearance_radius(limits, params)),
            // The last waypoint of a partial plan: keep it until the next plan extends the route.
            None => false,
        };
        if !(forced || clear) {
            return;
        }
        state.leg_start = w;
        state.leg_entry = if clear { pos } else { w };
        state.planned.remove(0);
        state.kinds.remove(0);
    }
}

/// The radius the ship's own route checks use: its body plus half the clearance.
fn half_clearance_radius(limits: &Limits, params: &PlannerParams) -> f32 {
    limits.radius.max(0.0) + 0.5 * params.clearance.max(0.0)
}

/// How far off its leg the ship may be before it replans at once.
fn off_course_threshold(params: &PlannerParams) -> f32 {
    (0.5 * params.clearance).max(1.0)
}

/// Distance from the ship to its current corridor: the planned leg, or the checked route from where
/// the ship turned onto it (zero without a plan).
fn off_leg_distance(pos: Vec3, state: &ShipState) -> f32 {
    match state.planned.first() {
        Some(&target) => {
            let (on_leg, _) = project_point_segment(pos, state.leg_start, target);
            let (on_entry, _) = project_point_segment(pos, state.leg_entry, target);
            on_leg.distance(pos).min(on_entry.distance(pos))
        }
        None => 0.0,
    }
}

/// True when a sphere of `radius` swept from `from` to `to` touches no obstacle (every obstacle
/// is tested: this runs only near waypoints).
fn route_clear(obstacles: &[Sphere], from: Vec3, to: Vec3, radius: f32) -> bool {
    obstacles.iter().all(|s| {
        !(s.center.is_finite() && s.radius.is_finite())
            || cast_sphere_sphere(from, to, radius, s.center, s.radius).is_none()
    })
}

/// Largest speed from which the ship can turn by the angle between `incoming` and `outgoing`
/// while straying at most a quarter of the clearance from the new leg: the sideways speed
/// `v sin θ` (all of `v` past a right angle) is cancelled at 80% of the maximum acceleration.
fn corner_speed(incoming: Vec3, outgoing: Vec3, limits: &Limits, params: &PlannerParams) -> f32 {
    let (Some(a), Some(b)) = (incoming.try_normalize(), outgoing.try_normalize()) else {
        return limits.max_speed;
    };
    let cos = a.dot(b);
    let bend = if cos >= 0.0 { (1.0 - cos * cos).max(1e-6) } else { 1.0 };
    let allowed = 0.25 * params.clearance.max(1.0);
    (2.0 * 0.8 * limits.max_acceleration.max(0.0) * allowed / bend).sqrt().min(limits.max_speed)
}

/// The speed from which the ship can slow to `end_speed` over `distance` (module header, step 4).
fn approach_speed(end_speed: f32, distance: f32, limits: &Limits) -> f32 {
    let brake = 0.5 * limits.max_acceleration.max(0.0);
    let speed = (end_speed * end_speed + 2.0 * brake * distance.max(0.0)).sqrt();
    if end_speed <= 0.0 {
        speed.min(distance.max(0.0) / (2.0 * STEER_TIME))
    } else {
        // Tracking a speed that falls at `brake` lags by `brake · STEER_TIME`: ask that much less.
        (speed - brake * STEER_TIME).max(end_speed)
    }
}

/// The velocity the ship wants this step.
fn desired_velocity(k: &Kinematics, limits: &Limits, params: &PlannerParams, state: &ShipState) -> Vec3 {
    let pos = k.position;
    let max_speed = limits.max_speed.max(0.0);
    let Some(&target) = state.planned.first() else {
        // No route: settle on the hold point, or brake where we are.
        return match state.hold {
            Some(hold) => {
                let distance = pos.distance(hold);
                (hold - pos).normalize_or_zero() * approach_speed(0.0, distance, limits).min(max_speed)
            }
            None => Vec3::ZERO,
        };
    };
    let speed = k.velocity.length();
    let along = (target - state.leg_start).normalize_or_zero();
    let (projection, _) = project_point_segment(pos, state.leg_start, target);
    let lookahead = params.arrival_radius.max(params.clearance).max(0.2 * speed).max(1.0);
    let carrot = if along == Vec3::ZERO || projection.distance(target) <= lookahead {
        target
    } else {
        projection + along * lookahead
    };

    // The turn from the current heading onto the carrot is a corner at the ship itself: a replan
    // that turns the route (or a push) first slows the ship to a speed whose turn fits.
    let mut desired_speed = max_speed.min(corner_speed(k.velocity, carrot - pos, limits, params));
    let mut distance = pos.distance(target);
    let mut incoming = if along == Vec3::ZERO { target - pos } else { along };
    for (i, &waypoint) in state.planned.iter().take(LOOKAHEAD_WAYPOINTS).enumerate() {
        let next = state.planned.get(i + 1).copied();
        // The ship turns for the next leg when it reaches a corner's arrival radius, so the corner
        // speed must be reached there; the last waypoint is approached to a stop on the point.
        let (end_speed, braking_distance) = match next {
            Some(next) => (
                corner_speed(incoming, next - waypoint, limits, params),
                distance - params.arrival_radius.max(0.0),
            ),
            None => (0.0, distance),
        };
        desired_speed = desired_speed.min(approach_speed(end_speed, braking_distance, limits));
        let Some(next) = next else { break };
        incoming = next - waypoint;
        distance += waypoint.distance(next);
    }
    (carrot - pos).normalize_or_zero() * desired_speed
}

fn emit_gizmos(
    pos: Vec3,
    desired: Vec3,
    obstacles: &[Sphere],
    params: &PlannerParams,
    state: &ShipState,
    gizmos: &mut Gizmos,
) {
    if let Some(&first_user) = state.remaining.first() {
        gizmos.push(GizmoRole::Probe, GizmoShape::Line(pos, first_user));
    }
    let mut previous = pos;
    let mut previous_kind = None;
    for (&w, &kind) in state.planned.iter().zip(&state.kinds) {
        // Legs into or out of a fallback corner came from the fallback search: their own colour.
        let fallback = kind == WaypointKind::Fallback || previous_kind == Some(WaypointKind::Fallback);
        let role = if fallback { GizmoRole::FallbackSegment } else { GizmoRole::CurrentSegment };
        gizmos.push(role, GizmoShape::Line(previous, w));
        previous = w;
        previous_kind = Some(kind);
    }
    if let Some(&target) = state.planned.first().or(state.hold.as_ref()) {
        gizmos.push(GizmoRole::Target, GizmoShape::Point(target));
        gizmos.push(
            GizmoRole::NodeRadius,
            GizmoShape::Circle { center: target, radius: params.arrival_radius },
        );
    }
    let mut outlined: Vec<usize> = Vec::new();
    for a in &state.avoidances {
        gizmos.push(GizmoRole::CastHit, GizmoShape::Point(a.hit_point));
        gizmos.push(GizmoRole::AvoidanceVector, GizmoShape::Arrow(a.hit_point, a.waypoint));
        // The seed's blue: the obstacle the cast detected, outlined once.
        if !outlined.contains(&a.obstacle) {
            outlined.push(a.obstacle);
            if let Some(s) = obstacles.get(a.obstacle) {
                gizmos.push(GizmoRole::CastHit, GizmoShape::Circle { center: s.center, radius: s.radius });
            }
        }
    }
    if let Some((at, change, _)) = state.last_hit {
        gizmos.push(GizmoRole::Disturbance, GizmoShape::Arrow(at, at + change));
    }
    gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(pos, pos + desired * STEER_TIME));
}

/// Seconds ahead the short-horizon layer predicts (step 5): long enough to stop from full speed
/// (v / a = 0.6 s for the ship) and then some to slip sideways.
pub const DODGE_HORIZON: f32 = 1.5;
/// Prediction sub-step of the short-horizon layer, seconds.
pub const DODGE_STEP: f32 = 1.0 / 30.0;
/// An obstacle slower than this (world units per second) is static for the short-horizon layer
/// (the route already keeps clear of it).
pub const MOVING_SPEED: f32 = 0.5;
/// Directions the short-horizon layer tries (a Fibonacci sphere; a circle in a flat scene).
const DODGE_DIRECTIONS: usize = 40;

/// What flying toward one velocity for [`DODGE_HORIZON`] predicts: the smallest signed gap to any
/// obstacle and the first time it falls below the margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// Smallest gap between the ship's sphere and any obstacle's over the horizon (world units).
    pub min_gap: f32,
    /// First predicted time (seconds) the gap is below the margin; None: never.
    pub first_below: Option<f32>,
}

/// Predicts the ship steering toward `wanted` with the ship's own controller
/// ([`accelerate_toward_velocity`], the world's integration) against obstacles moving straight at
/// their estimated velocities, over [`DODGE_HORIZON`].
pub fn predict(
    k: &Kinematics,
    limits: &Limits,
    wanted: Vec3,
    obstacles: &[(Sphere, Vec3)],
    bounds: Option<BounceBox>,
    margin: f32,
) -> Prediction {
    let mut p = k.position;
    let mut v = k.velocity;
    let max_speed = limits.max_speed.max(0.0);
    let mut prediction = Prediction { min_gap: f32::INFINITY, first_below: None };
    let steps = (DODGE_HORIZON / DODGE_STEP).round() as usize;
    for i in 1..=steps {
        let a = accelerate_toward_velocity(v, wanted, STEER_TIME, limits.max_acceleration);
        v = (v + a * DODGE_STEP).clamp_length_max(max_speed);
        p += v * DODGE_STEP;
        let t = i as f32 * DODGE_STEP;
        for (sphere, velocity) in obstacles {
            let centre = predicted_centre(sphere, *velocity, t, bounds);
            let gap = p.distance(centre) - sphere.radius - limits.radius;
            prediction.min_gap = prediction.min_gap.min(gap);
            if gap < margin && prediction.first_below.is_none() {
                prediction.first_below = Some(t);
            }
        }
    }
    prediction
}

/// Where a sphere moving at `velocity` is after `t` seconds: straight on, or, inside `bounds`,
/// reflected off each wall as the world bounces it (its surface meets the wall; an axis on which
/// the box is narrower than the sphere is left straight). Each axis folds the straight motion
/// into a triangle wave between `min + r` and `max - r`.
pub fn predicted_centre(sphere: &Sphere, velocity: Vec3, t: f32, bounds: Option<BounceBox>) -> Vec3 {
    let straight = sphere.center + velocity * t;
    let Some(bounds) = bounds else { return straight };
    let mut centre = straight;
    for axis in 0..3 {
        let low = bounds.min[axis] + sphere.radius;
        let high = bounds.max[axis] - sphere.radius;
        let span = high - low;
        // Only a sphere that starts inside its range bounces; one outside stays straight, as
        // predicting where the world will push it is not this layer's business.
        let start = sphere.center[axis];
        if !(span > 0.0 && span.is_finite() && (low..=high).contains(&start) && velocity[axis] != 0.0) {
            continue;
        }
        let folded = (straight[axis] - low).rem_euclid(2.0 * span);
        centre[axis] = low + if folded > span { 2.0 * span - folded } else { folded };
    }
    centre
}

/// The short-horizon layer (module header, step 5): when steering toward `desired` is predicted to
/// bring a *moving* obstacle within half the clearance of the ship within [`DODGE_HORIZON`], the
/// ship steers instead toward the velocity nearest `desired` that is predicted clear of every
/// obstacle (moving or not) — sideways, back, up or down, at full or half speed, or a stop; when
/// none is clear, the one whose predicted gap stays largest. Holding position dodges the same way.
fn dodge(
    k: &Kinematics,
    limits: &Limits,
    params: &PlannerParams,
    real: &[Sphere],
    bounds: Option<BounceBox>,
    state: &mut ShipState,
    desired: Vec3,
) -> Vec3 {
    state.dodging = false;
    let max_speed = limits.max_speed.max(0.0);
    let margin = 0.5 * params.clearance.max(0.0);
    let pos = k.position;
    let ship_reach = max_speed * DODGE_HORIZON + limits.radius.max(0.0) + margin;
    let mut moving: Vec<(Sphere, Vec3)> = Vec::new();
    let mut near: Vec<(Sphere, Vec3)> = Vec::new();
    for (sphere, track) in real.iter().zip(&state.obstacle_motion) {
        if !(sphere.center.is_finite() && sphere.radius.is_finite() && track.velocity.is_finite()) {
            continue;
        }
        let speed = track.velocity.length();
        let reach = ship_reach + speed * DODGE_HORIZON + sphere.radius;
        if sphere.center.distance(pos) > reach {
            continue;
        }
        let velocity = if speed > MOVING_SPEED { track.velocity } else { Vec3::ZERO };
        near.push((*sphere, velocity));
        if speed > MOVING_SPEED {
            moving.push((*sphere, velocity));
        }
    }
    if moving.is_empty() {
        return desired;
    }
    let nominal = predict(k, limits, desired, &moving, bounds, margin);
    if nominal.first_below.is_none() {
        return desired;
    }
    // Candidates: the wish itself, a stop, the current velocity, and directions at full and half
    // speed.
    let in_plane = flat(params, state);
    let mut candidates = vec![desired, Vec3::ZERO, k.velocity];
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    for i in 0..DODGE_DIRECTIONS {
        let direction = if in_plane {
            let angle = std::f32::consts::TAU * i as f32 / DODGE_DIRECTIONS as f32;
            Vec3::new(angle.cos(), angle.sin(), 0.0)
        } else {
            let z = 1.0 - 2.0 * (i as f32 + 0.5) / DODGE_DIRECTIONS as f32;
            let across = (1.0 - z * z).max(0.0).sqrt();
            let angle = golden * i as f32;
            Vec3::new(across * angle.cos(), across * angle.sin(), z)
        };
        candidates.push(direction * max_speed);
        candidates.push(direction * (0.5 * max_speed));
    }
    let mut best: Option<(bool, f32, Vec3)> = None;
    for wanted in candidates {
        let prediction = predict(k, limits, wanted, &near, bounds, margin);
        let clear = prediction.first_below.is_none();
        // Clear candidates by closeness to the wish; otherwise by the largest predicted gap.
        let score = if clear { wanted.distance(desired) } else { -prediction.min_gap };
        let better = match best {
            None => true,
            Some((best_clear, best_score, _)) => {
                (clear && !best_clear) || (clear == best_clear && score < best_score)
            }
        };
        if better {
            best = Some((clear, score, wanted));
        }
    }
    match best {
        Some((_, _, wanted)) => {
            state.dodging = true;
            state.dodge_steps = state.dodge_steps.saturating_add(1);
            wanted
        }
        None => desired,
    }
}

#[cfg(test)]
mod tests {
    //! Commitment (module header, step 2) on hand-made routes round one sphere: what the replan
    //! keeps and what it replaces.
    use super::*;
    use crate::planner::plan::PlanOptions;

    const WAYPOINT: Vec3 = Vec3::new(400.0, 0.0, 0.0);

    fn limits() -> Limits {
        Limits { radius: 6.0, max_speed: 120.0, max_acceleration: 200.0 }
    }

    fn params() -> PlannerParams {
        PlannerParams { waypoints: vec![WAYPOINT], clearance: 4.0, ..PlannerParams::default() }
    }

    /// One sphere of radius 50 halfway; the ship at the origin flies round it through `corner`.
    fn flying_through(corner: Vec3, kind: WaypointKind) -> (ShipState, ObstacleIndex) {
        let spheres = [Sphere { center: Vec3::new(200.0, 0.0, 0.0), radius: 50.0 }];
        let index = ObstacleIndex::new(&spheres, 10.0);
        let mut state = ShipState::new(&params());
        state.planned = vec![corner, WAYPOINT];
        state.kinds = vec![kind, WaypointKind::User(0)];
        (state, index)
    }

    /// A plan whose route to the waypoint goes through `corner` (only its route matters here).
    fn new_route_through(corner: Vec3, index: &ObstacleIndex) -> Plan {
        let options = PlanOptions { clearance: 4.0, ..PlanOptions::default() };
        let mut new_plan = plan(Vec3::ZERO, 6.0, &[WAYPOINT], index, &options);
        new_plan.waypoints = vec![corner, WAYPOINT];
        new_plan.kinds = vec![WaypointKind::Avoidance, WaypointKind::User(0)];
        new_plan
    }

    /// The corner at x = 200 on the far side (y < 0) giving a route of `length` from the origin.
    fn corner_for_length(length: f32) -> Vec3 {
        let half = 0.5 * length;
        Vec3::new(200.0, -(half * half - 200.0 * 200.0).sqrt(), 0.0)
    }

    fn decide(at: Vec3, state: &ShipState, index: &ObstacleIndex, new_plan: &Plan) -> Commitment {
        let options = PlanOptions { clearance: 4.0, ..PlanOptions::default() };
        commitment(at, &limits(), &params(), state, index, new_plan, &options)
    }

    fn keeps(state: &ShipState, index: &ObstacleIndex, new_plan: &Plan) -> bool {
        decide(Vec3::ZERO, state, index, new_plan) == Commitment::Keep
    }

    #[test]
    fn a_predicted_sphere_reflects_off_the_wall_its_surface_meets() {
        let bounds = Some(BounceBox { min: Vec3::ZERO, max: Vec3::splat(100.0) });
        let sphere = Sphere { center: Vec3::new(80.0, 50.0, 50.0), radius: 10.0 };
        let velocity = Vec3::new(20.0, 0.0, 0.0);
        // Surface at the wall (x = 90) after 0.5 s, then 0.5 s back.
        assert_eq!(predicted_centre(&sphere, velocity, 1.0, bounds), Vec3::new(80.0, 50.0, 50.0));
        assert_eq!(predicted_centre(&sphere, velocity, 0.25, bounds), Vec3::new(85.0, 50.0, 50.0));
        // Across the whole box and off the far wall: 80 → 90 → 10 (4.5 s) → 20.
        assert_eq!(predicted_centre(&sphere, velocity, 5.0, bounds), Vec3::new(20.0, 50.0, 50.0));
        // No box, or a sphere outside its range: straight on.
        assert_eq!(predicted_centre(&sphere, velocity, 1.0, None), Vec3::new(100.0, 50.0, 50.0));
        let outside = Sphere { center: Vec3::new(95.0, 50.0, 50.0), radius: 10.0 };
        assert_eq!(predicted_centre(&outside, velocity, 1.0, bounds), Vec3::new(115.0, 50.0, 50.0));
    }

    #[test]
    fn a_clear_route_is_kept_against_the_mirror_route_of_the_same_length() {
        let (state, index) = flying_through(Vec3::new(200.0, 80.0, 0.0), WaypointKind::Avoidance);
        assert!(keeps(&state, &index, &new_route_through(Vec3::new(200.0, -80.0, 0.0), &index)));
    }

    #[test]
    fn a_new_route_less_than_a_fifth_shorter_does_not_replace_the_clear_one_being_flown() {
        let (state, index) = flying_through(Vec3::new(200.0, 200.0, 0.0), WaypointKind::Avoidance);
        let current = path_length(Vec3::ZERO, &state.planned);
        for fraction in [0.99, 0.9, 0.81] {
            let corner = corner_for_length(fraction * current);
            let new_plan = new_route_through(corner, &index);
            assert!((new_plan.planned_length() - fraction * current).abs() < 0.01);
            assert!(keeps(&state, &index, &new_plan), "{fraction} of the length replaced the route");
        }
    }

    #[test]
    fn a_new_route_at_least_a_fifth_shorter_replaces_the_clear_one_being_flown() {
        let (state, index) = flying_through(Vec3::new(200.0, 200.0, 0.0), WaypointKind::Avoidance);
        let current = path_length(Vec3::ZERO, &state.planned);
        for fraction in [0.79, 0.75] {
            let new_plan = new_route_through(corner_for_length(fraction * current), &index);
            assert!(!keeps(&state, &index, &new_plan), "{fraction} of the length did not replace the route");
        }
        assert_eq!(COMMIT_SHORTER, 0.2, "the README and these cases say 20%");
    }

    #[test]
    fn a_route_blocked_only_between_the_ship_and_its_next_corner_is_rejoined_round_the_obstacle() {
        // The ship has been carried below the sphere: the straight leg up to its corner at
        // y = 80 crosses the sphere, the rest of the route is clear.
        let (state, index) = flying_through(Vec3::new(200.0, 80.0, 0.0), WaypointKind::Avoidance);
        let at = Vec3::new(140.0, -70.0, 0.0);
        assert!(!index.is_clear(at, state.planned[0], 8.0));
        let longer = new_route_through(Vec3::new(200.0, -300.0, 0.0), &index);
        let Commitment::Rejoin { waypoints, kinds } = decide(at, &state, &index, &longer) else {
            panic!("{:?}", decide(at, &state, &index, &longer))
        };
        assert!(!waypoints.is_empty() && kinds.len() == waypoints.len());
        assert!(kinds.iter().all(|k| !matches!(k, WaypointKind::User(_))));
        let mut from = at;
        for &w in waypoints.iter().chain(&state.planned) {
            assert!(index.is_clear(from, w, 8.0), "leg {from} -> {w}");
            from = w;
        }
        // Judged with the way back counted: from down here the mirror route, a fifth shorter than
        // the way back and on, wins.
        let way = path_length(at, &[waypoints.as_slice(), state.planned.as_slice()].concat());
        let short = new_route_through(Vec3::new(200.0, -80.0, 0.0), &index);
        assert!(path_length(at, &short.waypoints) < 0.8 * way);
        assert_eq!(decide(at, &state, &index, &short), Commitment::Replace);
    }

    #[test]
    fn a_blocked_route_is_replaced_even_by_a_longer_one() {
        // The corner at y = 20 takes the first leg through the sphere (radius 50 + 6 + 2 for the
        // half clearance).
        let (state, index) = flying_through(Vec3::new(200.0, 20.0, 0.0), WaypointKind::Avoidance);
        let longer = new_route_through(Vec3::new(200.0, -300.0, 0.0), &index);
        assert!(longer.planned_length() > path_length(Vec3::ZERO, &state.planned));
        assert!(!keeps(&state, &index, &longer));
    }

    #[test]
    fn a_clear_fallback_route_is_kept_even_against_a_much_shorter_one_and_left_when_blocked() {
        let (state, index) = flying_through(Vec3::new(200.0, 200.0, 0.0), WaypointKind::Fallback);
        assert!(keeps(&state, &index, &new_route_through(Vec3::new(200.0, -80.0, 0.0), &index)));
        assert!(flying_fallback_route(Vec3::ZERO, &limits(), &params(), &{
            let mut s = state.clone();
            s.index = Some(index.clone());
            s
        }));
        let (blocked, index) = flying_through(Vec3::new(200.0, 20.0, 0.0), WaypointKind::Fallback);
        assert!(!keeps(&blocked, &index, &new_route_through(Vec3::new(200.0, -80.0, 0.0), &index)));
        let mut blocked = blocked;
        blocked.index = Some(index);
        assert!(!flying_fallback_route(Vec3::ZERO, &limits(), &params(), &blocked));
    }
}
