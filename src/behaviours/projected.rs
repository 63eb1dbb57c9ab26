//! Projected path following (seed 002, after Millington's "Artificial Intelligence for Games"):
//! the agent chases a virtual target that runs a fixed offset ahead of its projection onto the
//! current segment, like the greyhounds' rabbit.
//!
//! # Motivation
//! Seeking nodes backtracks and cuts corners (see `waypoints`). Projecting the agent onto the
//! path and steering toward a point ahead of that projection never asks the agent to turn back,
//! and keeps it on the line between the nodes.
//!
//! # Implementation
//! Seed 002's formula, on the current segment (currentNode, nextNode):
//! `vectorA = next - current`, `vectorB = agent - current`, `l = dot(normalize(vectorA), vectorB)`,
//! `target = current + normalize(vectorA) · (l + offset)`. When `l` reaches the segment's length
//! the state advances to the next segment (wrapping on closed paths; zero-length segments are
//! passed at once). It also advances when the agent is beside the next segment (its projection
//! there is past the start) and nearer to it than to the current one: on a sharp corner the
//! target already runs along the next segment and pulls the agent inside the bend, where `l`
//! alone would never reach the segment's length and the agent would stall. Only the current segment is ever projected onto, so a hairpin's other leg or
//! a figure-eight crossing cannot capture the agent, and legs are never skipped: the agent
//! must pass the end of a leg along that leg's own direction before the next one is considered.
//!
//! Two documented extensions of the seed:
//! - When `l + offset` spills past the end of the segment, the target continues along the
//!   following segment(s) by arc length instead of running off along the extended segment, so the
//!   agent starts turning before the corner rather than cutting it late. When `l + offset` is
//!   negative (the agent is behind the segment's start) the target is the segment's start.
//! - On an open path the target stops at the end point; once it is there the agent approaches
//!   the end with an arrive-like speed ramp, is `finished` when within its body radius of the end
//!   (at least one unit), and then brakes to a stop.
//!
//! The target is sought with [`seek_acceleration`] (full speed).
//!
//! # Parameters
//! [`ProjectedParams`]: `offset`, the distance of the target ahead of the projection (world
//! units; negative offsets are allowed but the target never goes behind the segment's start).

use super::param::{Param, ParamKind};
use super::waypoints::{approach_acceleration, brake_acceleration, end_tolerance};
use super::{seek_acceleration, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Polyline;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of projected path following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProjectedParams {
    /// How far ahead of the projection the virtual target runs (world units, typically 10–80).
    pub offset: f32,
}

impl ProjectedParams {
    /// Declaration of `offset`.
    pub const OFFSET: Param = Param {
        key: "offset",
        label: "offset",
        unit: "u",
        min: 0.0,
        max: 500.0,
        default: 30.0,
        help: "How far ahead of the projection the virtual target runs.",
        kind: ParamKind::Float,
    };
    /// Every parameter, in field order (the panel, the validator and the docs read this).
    pub const PARAMS: &'static [Param] = &[Self::OFFSET];
}

impl Default for ProjectedParams {
    fn default() -> Self {
        ProjectedParams { offset: Self::OFFSET.default }
    }
}

/// The current segment (seed 002 keeps current and next node).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProjectedState {
    /// Index of the current segment.
    pub segment_idx: usize,
    /// True once the end of an open path is reached.
    pub finished: bool,
}

/// Project onto the current segment, target = node + dir·(l + offset), seek it.
pub fn projected(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut ProjectedState,
    p: &ProjectedParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let count = path.segment_count();
    let Some(last) = count.checked_sub(1) else {
        return follow_single_point(k, limits, path, &mut state.finished, gizmos);
    };
    let closed = path.is_closed();
    if state.segment_idx > last {
        state.segment_idx = if closed { state.segment_idx % count } else { last };
    }
    let end = path.point_at_distance(path.length());
    if state.finished {
        return Steering::Acceleration(brake_acceleration(k, limits));
    }

    // Advance while the projection has passed the end of the current segment, or while the
    // agent is already beside the next segment and nearer to it than to the current one (on a
    // sharp corner the target spills onto the next segment and pulls the agent inside the
    // bend, where `l` would never reach the segment's length: without this it would stall).
    let mut segment = SegmentProjection::new(path, state.segment_idx, k.position);
    for _ in 0..count {
        if !closed && state.segment_idx == last {
            break;
        }
        let next_idx = (state.segment_idx + 1) % count;
        let next = SegmentProjection::new(path, next_idx, k.position);
        let passed_end = segment.l >= segment.length;
        let beside_next = next.l > 0.0 && next.distance(k.position) < segment.distance(k.position);
        if !(passed_end || beside_next) {
            break;
        }
        state.segment_idx = next_idx;
        segment = next;
    }

    let offset = if p.offset.is_finite() { p.offset } else { 0.0 };
    let target_along = (segment.l + offset).max(0.0);
    let target_distance = path.segment_start_distance(state.segment_idx) + target_along;
    let at_end = !closed && target_distance >= path.length();
    let target = if at_end {
        end
    } else if target_along <= segment.length {
        // The seed's formula.
        segment.start + segment.direction * target_along
    } else {
        path.point_at_distance(target_distance)
    };

    if gizmos.is_enabled() {
        let projection = segment.start + segment.direction * segment.l.max(0.0).min(segment.length);
        gizmos.push(GizmoRole::CurrentSegment, GizmoShape::Line(segment.start, segment.end));
        gizmos.push(GizmoRole::Projection, GizmoShape::Point(projection));
        gizmos.push(GizmoRole::Projection, GizmoShape::Line(k.position, projection));
        gizmos.push(GizmoRole::Target, GizmoShape::Point(target));
    }

    if at_end {
        if k.position.distance(end) <= end_tolerance(limits) {
            state.finished = true;
            return Steering::Acceleration(brake_acceleration(k, limits));
        }
        return Steering::Acceleration(approach_acceleration(k, limits, end));
    }
    Steering::Acceleration(seek_acceleration(k, limits, target))
}

/// The seed's projection of the agent onto one segment.
struct SegmentProjection {
    /// currentNode.
    start: Vec3,
    /// nextNode.
    end: Vec3,
    /// vectorANormalized (zero for a zero-length segment).
    direction: Vec3,
    /// vectorALength.
    length: f32,
    /// l = dot(vectorANormalized, vectorB).
    l: f32,
}

impl SegmentProjection {
    fn new(path: &Polyline, segment_idx: usize, position: Vec3) -> SegmentProjection {
        let (start, end) = path.segment(segment_idx);
        let vector_a = end - start;
        let length = vector_a.length();
        let direction = vector_a.normalize_or_zero();
        let vector_b = position - start;
        let l = direction.dot(vector_b);
        SegmentProjection { start, end, direction, length, l: if l.is_finite() { l } else { 0.0 } }
    }

    /// Distance from `position` to the closest point of the segment.
    fn distance(&self, position: Vec3) -> f32 {
        (self.start + self.direction * self.l.clamp(0.0, self.length)).distance(position)
    }
}

/// A path without segments: approach its only point (finished inside the end tolerance), or,
/// with no point at all, finish and brake.
pub(crate) fn follow_single_point(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    finished: &mut bool,
    gizmos: &mut Gizmos,
) -> Steering {
    match path.points().first() {
        Some(&end) if !*finished => {
            gizmos.push(GizmoRole::Target, GizmoShape::Point(end));
            if k.position.distance(end) <= end_tolerance(limits) {
                *finished = true;
                Steering::Acceleration(brake_acceleration(k, limits))
            } else {
                Steering::Acceleration(approach_acceleration(k, limits, end))
            }
        }
        _ => {
            *finished = true;
            Steering::Acceleration(brake_acceleration(k, limits))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec3 {
        Vec3::new(x, y, 0.0)
    }

    fn at(x: f32, y: f32) -> Kinematics {
        Kinematics { position: v(x, y), ..Kinematics::default() }
    }

    fn target_of(gizmos: &Gizmos) -> Vec3 {
        gizmos
            .items()
            .iter()
            .find_map(|gizmo| match (gizmo.role, gizmo.shape) {
                (GizmoRole::Target, GizmoShape::Point(point)) => Some(point),
                _ => None,
            })
            .unwrap()
    }

    fn run(path: &Polyline, state: &mut ProjectedState, k: Kinematics, offset: f32) -> (Steering, Vec3) {
        let mut gizmos = Gizmos::recording();
        let steering =
            projected(&k, &Limits::default(), path, state, &ProjectedParams { offset }, &mut gizmos);
        (steering, target_of(&gizmos))
    }

    fn hairpin() -> Polyline {
        Polyline::new(vec![v(0.0, 0.0), v(400.0, 0.0), v(400.0, 60.0), v(0.0, 60.0)], false)
    }

    #[test]
    fn target_is_the_seeds_formula_on_a_known_segment() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0), v(100.0, 100.0)], false);
        let mut state = ProjectedState::default();
        // l = dot((1, 0), (30, 10)) = 30; target = (0, 0) + (1, 0)·(30 + 20).
        let (steering, target) = run(&path, &mut state, at(30.0, 10.0), 20.0);
        assert_eq!(target, v(50.0, 0.0));
        assert_eq!(state.segment_idx, 0);
        // Seek from rest: desired velocity toward (20, -10) at 150, over 0.1 s, clamped to 400.
        let expected = (v(20.0, -10.0).normalize() * 150.0 / 0.1).clamp_length_max(400.0);
        assert_eq!(steering, Steering::Acceleration(expected));
    }

    #[test]
    fn target_on_a_diagonal_segment_uses_the_normalised_direction() {
        let path = Polyline::new(vec![v(10.0, 10.0), v(70.0, 90.0), v(200.0, 90.0)], false);
        let mut state = ProjectedState::default();
        // vectorA = (60, 80), length 100, direction (0.6, 0.8); vectorB = (50, 0): l = 30.
        let (_, target) = run(&path, &mut state, at(60.0, 10.0), 20.0);
        assert!((target - v(10.0 + 0.6 * 50.0, 10.0 + 0.8 * 50.0)).length() < 1e-4, "{target}");
    }

    #[test]
    fn target_spilling_past_the_corner_continues_on_the_next_segment() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0), v(100.0, 100.0)], false);
        let mut state = ProjectedState::default();
        // l = 90, l + offset = 120: 20 units past the corner along the next segment.
        let (_, target) = run(&path, &mut state, at(90.0, 5.0), 30.0);
        assert_eq!(target, v(100.0, 20.0));
        assert_eq!(state.segment_idx, 0);
    }

    #[test]
    fn passing_the_segment_end_advances_to_the_next_segment() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0), v(100.0, 100.0)], false);
        let mut state = ProjectedState::default();
        let (_, target) = run(&path, &mut state, at(103.0, 8.0), 30.0);
        assert_eq!(state.segment_idx, 1);
        assert_eq!(target, v(100.0, 38.0));
    }

    #[test]
    fn agent_behind_the_segment_start_targets_the_start() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0)], false);
        let mut state = ProjectedState::default();
        let (_, target) = run(&path, &mut state, at(-50.0, 0.0), 20.0);
        assert_eq!(target, v(0.0, 0.0));
    }

    #[test]
    fn hairpin_leg_is_kept_even_when_the_other_leg_is_closer() {
        let path = hairpin();
        let mut state = ProjectedState::default();
        // 35 from leg 0, 25 from leg 2: the target stays on leg 0.
        let (_, target) = run(&path, &mut state, at(200.0, 35.0), 30.0);
        assert_eq!(state.segment_idx, 0);
        assert_eq!(target, v(230.0, 0.0));
    }

    #[test]
    fn hairpin_turn_advances_one_leg_at_a_time() {
        let path = hairpin();
        let mut state = ProjectedState::default();
        run(&path, &mut state, at(402.0, 5.0), 30.0);
        assert_eq!(state.segment_idx, 1);
        let (_, target) = run(&path, &mut state, at(405.0, 61.0), 30.0);
        assert_eq!(state.segment_idx, 2);
        assert_eq!(target, v(400.0 - 25.0, 60.0));
    }

    #[test]
    fn closed_path_wraps_the_segment_and_the_target() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0), v(100.0, 100.0), v(0.0, 100.0)], true);
        let mut state = ProjectedState { segment_idx: 3, finished: false };
        // On the closing segment (0,100)→(0,0) at l = 90: the target spills 20 onto segment 0.
        let (_, target) = run(&path, &mut state, at(0.0, 10.0), 30.0);
        assert_eq!(target, v(20.0, 0.0));
        run(&path, &mut state, at(1.0, -1.0), 30.0);
        assert_eq!(state.segment_idx, 0);
        assert!(!state.finished);
    }

    #[test]
    fn open_path_end_is_approached_then_finished() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0)], false);
        let mut state = ProjectedState::default();
        let k = Kinematics { position: v(80.0, 0.0), velocity: v(150.0, 0.0), orientation: 0.0 };
        let (steering, target) = run(&path, &mut state, k, 30.0);
        assert_eq!(target, v(100.0, 0.0));
        let Steering::Acceleration(acceleration) = steering else { panic!("dynamic steering expected") };
        assert!(acceleration.x < 0.0, "approaching the end brakes: {acceleration}");
        assert!(!state.finished);
        let k = Kinematics { position: v(97.0, 1.0), velocity: v(10.0, 0.0), orientation: 0.0 };
        let (steering, _) = run(&path, &mut state, k, 30.0);
        assert!(state.finished);
        assert_eq!(steering, Steering::Acceleration(v(-100.0, 0.0)));
    }

    #[test]
    fn zero_length_segments_are_passed_without_nan() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(0.0, 0.0), v(0.0, 0.0), v(100.0, 0.0)], false);
        let mut state = ProjectedState::default();
        let (steering, target) = run(&path, &mut state, at(0.0, 5.0), 30.0);
        assert_eq!(state.segment_idx, 2);
        assert_eq!(target, v(30.0, 0.0));
        let Steering::Acceleration(acceleration) = steering else { panic!("dynamic steering expected") };
        assert!(acceleration.is_finite());
    }

    #[test]
    fn degenerate_paths_approach_or_brake_without_nan() {
        let single = Polyline::new(vec![v(10.0, 0.0)], true);
        let mut state = ProjectedState::default();
        let (steering, target) = run(&single, &mut state, at(0.0, 0.0), 30.0);
        assert_eq!(target, v(10.0, 0.0));
        assert!(matches!(steering, Steering::Acceleration(a) if a.is_finite() && a.x > 0.0));
        let empty = Polyline::new(vec![], false);
        let mut state = ProjectedState::default();
        let steering = projected(
            &at(0.0, 0.0),
            &Limits::default(),
            &empty,
            &mut state,
            &ProjectedParams::default(),
            &mut Gizmos::disabled(),
        );
        assert!(state.finished);
        assert_eq!(steering, Steering::Acceleration(Vec3::ZERO));
    }
}
