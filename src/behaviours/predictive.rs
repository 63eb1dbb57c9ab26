//! Predictive ("sloppy") path following in a channel, the last idea of seed 002 ("The path
//! follow conundrum, part 2"), after Craig Reynolds' path following.
//!
//! # Motivation
//! Projected following tracks the centre line tightly. Reynolds' version gives the agent a
//! channel of half-width `path_radius` around the path and only steers when the agent is about to
//! leave it, so the motion looks natural and loose ("sloppy"): control traded for naturalness,
//! as the seed puts it.
//!
//! # Implementation
//! Each step:
//! 1. The agent's own position is projected coherently (`state.cursor`), which gives its arc
//!    length and the path direction under it.
//! 2. The predicted position is `position + velocity · prediction_time`. An agent at rest
//!    predicts along the path direction at a quarter of its max speed, so it gets going.
//! 3. The predicted position is projected coherently with its own cursor (`predicted_cursor`,
//!    seeded from the agent's cursor). Both projections descend locally from their cursor's
//!    segment to adjacent segments only while those are nearer
//!    ([`Polyline::project_point_local`]), so a hairpin's other leg or a figure-eight crossing
//!    never captures them, and the cost is one segment projection in the common case, whatever
//!    the path's segment count.
//! 4. If the predicted projection is within `path_radius` and the agent moves along the path
//!    (velocity · path direction > 0), there is no correction: the agent accelerates along its
//!    current velocity toward max speed, with no lateral change.
//! 5. Otherwise the target is on the path `lead` ahead of the farther of the two projections,
//!    where `lead = max(path_radius, agent radius, 1)`, then moved sideways toward the predicted
//!    position by at most half the path radius (inside the channel, so a correction is gentle
//!    rather than a dash for the centre line). The agent seeks it. Measuring from the farther
//!    projection keeps the target ahead of the agent even when it faces the wrong way.
//! 6. On an open path, once that target would reach the end, the agent approaches the end with an
//!    arrive-like speed ramp, is `finished` within its body radius of it, and then brakes.
//!
//! Steps 1–3 depend only on where the agent is and how it moves, so [`observe`] can make them
//! as soon as the agent has moved, and [`predictive`] uses them at the next step if nothing
//! changed in between (compared bit for bit), or makes them itself. The simulation observes
//! right after integrating, handing over the projection of the agent its metrics just made: the
//! prediction's projection then runs beside the metrics' projection rather than at the head of
//! the next step's chain of dependent arithmetic. Either way the agent moves exactly the same
//! (tested bit for bit: `predictive_observed_ahead_moves_exactly_as_observed_on_demand`). The
//! gain, measured with `cargo run --release --example predictive_speed` (behaviour +
//! integration, 10,000 agents, best of 5, 2026-11-24 03:07 UTC, load average 7.9–8.5 on the
//! shared 2-core EPYC): 196 / 230 / 239 / 259 ns per agent-step observing ahead against
//! 241 / 267 / 297 / 290 ns observing on demand at 8 / 32 / 128 / 1,024 segments, 11–20% less.
//!
//! Gizmos: the prediction (point), its projection (point and the line from the prediction), the
//! channel (a circle of `path_radius` at the projection), the current segment, and the target
//! when there is one.
//!
//! # Parameters
//! [`PredictiveParams`]: `prediction_time` (seconds) and `path_radius` (world units).

use super::param::{Param, ParamKind};
use super::waypoints::{approach_acceleration, brake_acceleration, end_tolerance};
use super::{accelerate_toward_velocity, seek_acceleration, STEER_TIME};
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use crate::geometry::{max_of_number, PathCursor, PathProjection, Polyline};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Below this speed (world units per second) the agent counts as at rest.
pub(crate) const REST_SPEED: f32 = 0.01;
/// An agent at rest predicts along the path at this fraction of its max speed.
pub(crate) const START_SPEED_FRACTION: f32 = 0.25;
/// The correction target is at most this fraction of the path radius off the centre line.
const LATERAL_PULL_FRACTION: f32 = 0.5;

/// Parameters of predictive path following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PredictiveParams {
    /// How far ahead in time the position is predicted (seconds, typically 0.1–1.5).
    pub prediction_time: f32,
    /// Half-width of the channel inside which no correction is made (world units, typically 5–60).
    pub path_radius: f32,
}

impl PredictiveParams {
    /// Declaration of `prediction_time`.
    pub const PREDICTION_TIME: Param = Param {
        key: "prediction_time",
        label: "prediction time",
        unit: "s",
        min: 0.0,
        max: 10.0,
        default: 0.5,
        help: "How far ahead in time the position is predicted.",
        kind: ParamKind::Float,
    };
    /// Declaration of `path_radius`.
    pub const PATH_RADIUS: Param = Param {
        key: "path_radius",
        label: "path radius",
        unit: "u",
        min: 1.0,
        max: 500.0,
        default: 20.0,
        help: "Half-width of the channel inside which no correction is made.",
        kind: ParamKind::Float,
    };
    /// Every parameter, in field order (the panel, the validator and the docs read this).
    pub const PARAMS: &'static [Param] = &[Self::PREDICTION_TIME, Self::PATH_RADIUS];
}

impl Default for PredictiveParams {
    fn default() -> Self {
        PredictiveParams {
            prediction_time: Self::PREDICTION_TIME.default,
            path_radius: Self::PATH_RADIUS.default,
        }
    }
}

/// Coherent projection cursors for the agent and its predicted position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PredictiveState {
    /// Where the agent itself projects.
    pub cursor: PathCursor,
    /// Where the predicted position projects.
    pub predicted_cursor: PathCursor,
    /// True once the end of an open path is reached.
    pub finished: bool,
    /// Whether `observation` holds steps 1–3 made ahead of time by [`observe`] (the
    /// simulation calls it right after moving the agent); the next [`predictive`] call uses
    /// them when they were made for exactly the same position, velocity, parameters and max
    /// speed, and makes them afresh otherwise (a drag in the editor moves the agent, a slider
    /// changes the parameters).
    pub observed: bool,
    /// Steps 1–3 made ahead of time (meaningful while `observed`).
    pub observation: Observation,
}

/// Where the agent and its prediction are on the path (steps 1–3), and what they were made
/// from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Observation {
    /// What it was made from: position (3), velocity (3), prediction time, path radius, max speed.
    pub inputs: [f32; 9],
    /// Arc length of the agent's projection onto the path.
    pub agent_along: f32,
    /// The path's direction under the agent.
    pub path_direction: Vec3,
    /// The unit direction of motion (the path's when at rest).
    pub heading: Vec3,
    /// The predicted position.
    pub predicted: Vec3,
    /// Its projection onto the path.
    pub prediction: PathProjection,
}

impl Observation {
    /// Whether it was made for exactly this state, compared bit for bit without a branch per
    /// number: the same bits in give the same observation out.
    #[inline(always)]
    fn made_for(&self, k: &Kinematics, limits: &Limits, p: &PredictiveParams) -> bool {
        let now = inputs(k, limits, p);
        let differing =
            self.inputs.iter().zip(&now).fold(0u32, |acc, (a, b)| acc | (a.to_bits() ^ b.to_bits()));
        differing == 0
    }
}

/// The numbers steps 1–3 depend on: the agent's position and velocity, the parameters, and the
/// max speed (an agent at rest predicts with it).
#[inline(always)]
pub(crate) fn inputs(k: &Kinematics, limits: &Limits, p: &PredictiveParams) -> [f32; 9] {
    [
        k.position.x,
        k.position.y,
        k.position.z,
        k.velocity.x,
        k.velocity.y,
        k.velocity.z,
        p.prediction_time,
        p.path_radius,
        limits.max_speed,
    ]
}

/// Steps 1–3 ahead of time, for the next [`predictive`] call: the simulation calls this after
/// moving the agent, with the projection of the agent its metrics just made by the same
/// tracking rule (so it is not made twice). Done here, the prediction's projection runs beside
/// the metrics' instead of at the head of the next step's chain of dependent arithmetic. Does
/// nothing for a finished agent or a path without segments.
#[inline(always)]
pub fn observe(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut PredictiveState,
    p: &PredictiveParams,
    agent_projection: Option<PathProjection>,
) {
    state.observed = false;
    if path.segment_count() == 0 || state.finished {
        return;
    }
    state.observation = make_observation(k, limits, path, state, p, agent_projection);
    state.observed = true;
}

/// Steps 1–3; `agent_projection`, when given, is the agent's projection made by the same
/// tracking rule (used only when the agent's cursor is already initialised).
#[inline(always)]
fn make_observation(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut PredictiveState,
    p: &PredictiveParams,
    agent_projection: Option<PathProjection>,
) -> Observation {
    let prediction_time = non_negative(p.prediction_time);
    let reacquire_distance = (4.0 * non_negative(p.path_radius)).max(100.0);

    // 1. Where the agent is on the path.
    let agent = match agent_projection {
        Some(projection) if state.cursor.initialised => {
            state.cursor = PathCursor {
                segment_idx: projection.segment_idx,
                distance_along: projection.distance_along,
                initialised: true,
            };
            projection
        }
        _ => path.project_point_local(k.position, &mut state.cursor, reacquire_distance),
    };
    let path_direction = path.segment_direction(agent.segment_idx);

    // 2. Where it will be.
    let speed = k.velocity.length();
    let (heading, predicted) = if speed > REST_SPEED {
        (k.velocity / speed, k.position + k.velocity * prediction_time)
    } else {
        let start_speed = START_SPEED_FRACTION * limits.max_speed.max(0.0);
        (path_direction, k.position + path_direction * start_speed * prediction_time)
    };

    // 3. Where that is on the path.
    if !state.predicted_cursor.initialised {
        state.predicted_cursor = state.cursor;
    }
    let prediction = path.project_point_local(predicted, &mut state.predicted_cursor, reacquire_distance);
    Observation {
        inputs: inputs(k, limits, p),
        agent_along: agent.distance_along,
        path_direction,
        heading,
        predicted,
        prediction,
    }
}

/// [`make_observation`] out of line into the state, for a step that was not observed ahead
/// of time.
#[inline(never)]
fn observe_now(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut PredictiveState,
    p: &PredictiveParams,
) {
    state.observation = make_observation(k, limits, path, state, p, None);
}

/// Predict, project, and correct only when outside the channel.
#[inline(always)]
pub fn predictive(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut PredictiveState,
    p: &PredictiveParams,
    gizmos: &mut Gizmos,
) -> Steering {
    if path.segment_count() == 0 {
        state.observed = false;
        return super::projected::follow_single_point(k, limits, path, &mut state.finished, gizmos);
    }
    if state.finished {
        state.observed = false;
        return Steering::Acceleration(brake_acceleration(k, limits));
    }
    let path_radius = non_negative(p.path_radius);
    let closed = path.is_closed();
    let length = path.length();

    // 1–3, made ahead of time for exactly this state, or now.
    let observed = std::mem::take(&mut state.observed);
    if !(observed && state.observation.made_for(k, limits, p)) {
        observe_now(k, limits, path, state, p);
    }
    let Observation { agent_along, path_direction, heading, predicted, prediction, .. } = state.observation;

    if gizmos.is_enabled() {
        let (segment_start, segment_end) = path.segment(prediction.segment_idx);
        gizmos.push(GizmoRole::Prediction, GizmoShape::Point(predicted));
        gizmos.push(GizmoRole::Projection, GizmoShape::Point(prediction.point));
        gizmos.push(GizmoRole::Projection, GizmoShape::Line(predicted, prediction.point));
        gizmos.push(
            GizmoRole::PathRadius,
            GizmoShape::Circle { center: prediction.point, radius: path_radius },
        );
        gizmos.push(GizmoRole::CurrentSegment, GizmoShape::Line(segment_start, segment_end));
    }

    // 5. The target a little ahead of the farther projection (arc lengths compared modulo laps).
    let mut ahead = prediction.distance_along - agent_along;
    if closed {
        // Both lie in [0, length): one lap at most either way.
        if ahead > 0.5 * length {
            ahead -= length;
        } else if ahead < -0.5 * length {
            ahead += length;
        }
    }
    // `path_radius` is never NaN (clamped above): a plain comparison (see `max_of_number`).
    let lead = max_of_number(path_radius, limits.radius).max(1.0);
    let target_distance = agent_along + ahead.max(0.0) + lead;

    // 6. The end of an open path.
    if !closed && target_distance >= length {
        let end = path.point_at_distance(length);
        gizmos.push(GizmoRole::Target, GizmoShape::Point(end));
        if k.position.distance(end) <= end_tolerance(limits) {
            state.finished = true;
            return Steering::Acceleration(brake_acceleration(k, limits));
        }
        return Steering::Acceleration(approach_acceleration(k, limits, end));
    }

    // 4. Inside the channel and going the right way: no correction.
    let right_way = heading.dot(path_direction) > 0.0;
    if prediction.distance <= path_radius && right_way {
        let desired = heading * limits.max_speed.max(0.0);
        return Steering::Acceleration(accelerate_toward_velocity(
            k.velocity,
            desired,
            STEER_TIME,
            limits.max_acceleration,
        ));
    }

    let target = correction_target(path, target_distance, predicted, &prediction, path_radius);
    gizmos.push(GizmoRole::Target, GizmoShape::Point(target));
    Steering::Acceleration(seek_acceleration(k, limits, target))
}

/// Step 5's target: the point on the path at arc length `target_distance` (looked up from the
/// prediction's segment), moved sideways toward the predicted position by at most half the
/// path radius (`path_radius` already clamped to ≥ 0).
#[inline(always)]
pub(crate) fn correction_target(
    path: &Polyline,
    target_distance: f32,
    predicted: Vec3,
    prediction: &PathProjection,
    path_radius: f32,
) -> Vec3 {
    let (on_path, direction_there) =
        path.point_and_direction_at_distance(target_distance, prediction.segment_idx);
    let offset = predicted - prediction.point;
    let lateral = (offset - direction_there * offset.dot(direction_there))
        .clamp_length_max(LATERAL_PULL_FRACTION * path_radius);
    on_path + lateral
}

/// `value` clamped to ≥ 0, NaN read as 0 (`f32::max` returns the other operand for NaN).
#[inline(always)]
pub(crate) fn non_negative(value: f32) -> f32 {
    value.max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn v(x: f32, y: f32) -> Vec3 {
        Vec3::new(x, y, 0.0)
    }

    fn moving(x: f32, y: f32, vx: f32, vy: f32) -> Kinematics {
        Kinematics { position: v(x, y), velocity: v(vx, vy), orientation: vy.atan2(vx) }
    }

    fn straight() -> Polyline {
        Polyline::new(vec![v(0.0, 0.0), v(1000.0, 0.0)], false)
    }

    fn gizmo_point(gizmos: &Gizmos, role: GizmoRole) -> Option<Vec3> {
        gizmos.items().iter().find_map(|gizmo| match (gizmo.role, gizmo.shape) {
            (r, GizmoShape::Point(point)) if r == role => Some(point),
            _ => None,
        })
    }

    #[test]
    fn inside_the_channel_only_speeds_up_along_the_velocity() {
        let path = straight();
        let mut state = PredictiveState::default();
        let p = PredictiveParams { prediction_time: 0.5, path_radius: 20.0 };
        let mut gizmos = Gizmos::recording();
        // Predicted (150, 15): 15 from the path, inside the radius.
        let steering = predictive(
            &moving(100.0, 5.0, 100.0, 20.0),
            &Limits::default(),
            &path,
            &mut state,
            &p,
            &mut gizmos,
        );
        let velocity = v(100.0, 20.0);
        let expected = ((velocity.normalize() * 150.0 - velocity) / 0.1).clamp_length_max(400.0);
        assert_eq!(steering, Steering::Acceleration(expected));
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Prediction), Some(v(150.0, 15.0)));
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Projection), Some(v(150.0, 0.0)));
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Target), None);
        assert_eq!(state.cursor.distance_along, 100.0);
        assert_eq!(state.predicted_cursor.distance_along, 150.0);
    }

    #[test]
    fn leaving_the_channel_seeks_a_target_ahead_pulled_inside() {
        let path = straight();
        let mut state = PredictiveState::default();
        let p = PredictiveParams { prediction_time: 0.5, path_radius: 20.0 };
        let mut gizmos = Gizmos::recording();
        // Predicted (150, 35): outside. Target: 20 ahead of x = 150, 10 (half the radius) toward +y.
        let k = moving(100.0, 5.0, 100.0, 60.0);
        let steering = predictive(&k, &Limits::default(), &path, &mut state, &p, &mut gizmos);
        let target = v(170.0, 10.0);
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Target), Some(target));
        assert_eq!(steering, Steering::Acceleration(seek_acceleration(&k, &Limits::default(), target)));
    }

    #[test]
    fn at_rest_the_prediction_runs_along_the_path() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(0.0, 500.0)], false);
        let mut state = PredictiveState::default();
        let mut gizmos = Gizmos::recording();
        let steering = predictive(
            &moving(0.0, 10.0, 0.0, 0.0),
            &Limits::default(),
            &path,
            &mut state,
            &PredictiveParams::default(),
            &mut gizmos,
        );
        // 0.25 · 150 · 0.5 = 18.75 ahead; on the path, so no correction: accelerate along +y.
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Prediction), Some(v(0.0, 28.75)));
        assert_eq!(steering, Steering::Acceleration(v(0.0, 400.0)));
    }

    #[test]
    fn moving_the_wrong_way_inside_the_channel_is_corrected_forward() {
        let path = straight();
        let mut state = PredictiveState::default();
        let mut gizmos = Gizmos::recording();
        let k = moving(500.0, 0.0, -100.0, 0.0);
        predictive(&k, &Limits::default(), &path, &mut state, &PredictiveParams::default(), &mut gizmos);
        // The target is measured from the agent's own projection (the prediction is behind it).
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Target), Some(v(520.0, 0.0)));
    }

    #[test]
    fn hairpin_prediction_stays_on_the_agents_leg() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(400.0, 0.0), v(400.0, 60.0), v(0.0, 60.0)], false);
        let mut state = PredictiveState::default();
        let p = PredictiveParams { prediction_time: 0.5, path_radius: 20.0 };
        let mut gizmos = Gizmos::recording();
        predictive(&moving(100.0, 10.0, 100.0, 0.0), &Limits::default(), &path, &mut state, &p, &mut gizmos);
        // Drifting toward the other leg: prediction (200, 40) is 20 from leg 2 and 40 from leg 0.
        gizmos.clear();
        predictive(&moving(150.0, 25.0, 100.0, 30.0), &Limits::default(), &path, &mut state, &p, &mut gizmos);
        assert_eq!(state.predicted_cursor.segment_idx, 0);
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Projection), Some(v(200.0, 0.0)));
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Target), Some(v(220.0, 10.0)));
    }

    #[test]
    fn open_path_end_is_approached_then_finished() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0)], false);
        let mut state = PredictiveState::default();
        let mut gizmos = Gizmos::recording();
        let steering = predictive(
            &moving(60.0, 0.0, 150.0, 0.0),
            &Limits::default(),
            &path,
            &mut state,
            &PredictiveParams::default(),
            &mut gizmos,
        );
        assert_eq!(gizmo_point(&gizmos, GizmoRole::Target), Some(v(100.0, 0.0)));
        assert!(matches!(steering, Steering::Acceleration(a) if a.x < 0.0));
        let steering = predictive(
            &moving(99.0, 0.0, 5.0, 0.0),
            &Limits::default(),
            &path,
            &mut state,
            &PredictiveParams::default(),
            &mut Gizmos::disabled(),
        );
        assert!(state.finished);
        assert_eq!(steering, Steering::Acceleration(v(-50.0, 0.0)));
    }

    #[test]
    fn closed_path_target_wraps_over_the_seam() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0), v(100.0, 100.0), v(0.0, 100.0)], true);
        let mut state = PredictiveState::default();
        let mut gizmos = Gizmos::recording();
        // On the closing segment heading down and out: predicted (-40, -10) projects to the corner.
        predictive(
            &moving(0.0, 20.0, -80.0, -60.0),
            &Limits::default(),
            &path,
            &mut state,
            &PredictiveParams::default(),
            &mut gizmos,
        );
        assert_eq!(state.predicted_cursor.distance_along, 0.0);
        let target = gizmo_point(&gizmos, GizmoRole::Target).unwrap();
        // 20 along segment 0, pulled 10 toward the prediction's side (-y).
        assert!((target - v(20.0, -10.0)).length() < 1e-4, "{target}");
    }

    #[test]
    fn degenerate_paths_do_not_produce_nan() {
        let limits = Limits::default();
        let p = PredictiveParams::default();
        for path in [
            Polyline::new(vec![], true),
            Polyline::new(vec![v(5.0, 5.0)], false),
            Polyline::new(vec![v(5.0, 5.0), v(5.0, 5.0)], true),
            Polyline::new(vec![v(5.0, 5.0), v(5.0, 5.0), v(9.0, 5.0)], false),
        ] {
            let mut state = PredictiveState::default();
            for k in [moving(0.0, 0.0, 0.0, 0.0), moving(5.0, 5.0, 3.0, -2.0)] {
                let steering = predictive(&k, &limits, &path, &mut state, &p, &mut Gizmos::recording());
                assert!(matches!(steering, Steering::Acceleration(a) if a.is_finite()), "{path:?}");
            }
        }
    }
}
