//! Waypoint following with a node radius, and the "closest node" variant: the baseline that
//! seed 002 ("The path follow conundrum, part 2") criticises before it moves on to projection.
//!
//! # Motivation
//! The simplest path follower seeks one node at a time and moves on once inside the node's
//! radius. It backtracks: an agent pushed past a node without entering its radius turns around
//! to fetch it. Seed 002's first fix "always considers the closest path node as the current
//! node"; it stops the backtracking along a leg, but, as the seed says, it behaves like large,
//! ever-changing node radii (half the distance to the next node), so the agent cuts corners
//! unpredictably, and on a hairpin the closest node may belong to the other leg. Both flaws are
//! reproduced here on purpose so they can be compared with projected and predictive following.
//!
//! # Implementation
//! The nodes are the path's points. Plain mode: seek `current_node` with dynamic seek
//! ([`seek_acceleration`]); while the agent is inside its radius, advance (wrapping on closed
//! paths). Closest-node mode: the seed's "current node" is the node the agent is at, i.e. the
//! closest one, so each step the sought node becomes the node after the closest (then, if the
//! agent is inside the radius of that one, the next). Reading the sought node itself as the
//! closest would leave the agent hovering at the edge of the first node's radius forever (tried:
//! each time it leaves the radius, the node it just reached is again the closest, so it turns
//! back). On an open path the last node is
//! approached with an arrive-like speed ramp (`approach_acceleration`); once the agent is
//! inside its radius the state is `finished` and the agent brakes to a stop. Closed paths loop
//! forever.
//!
//! # Parameters
//! [`WaypointsParams`]: `node_radius` (world units) and `closest_node`.

use super::param::{Param, ParamKind};
use super::{accelerate_toward_velocity, seek_acceleration, STEER_TIME};
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Polyline;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of node-radius waypoint following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WaypointsParams {
    /// A node counts as reached inside this distance (world units, typically 5–60).
    pub node_radius: f32,
    /// Seed 002's first idea: always treat the closest node as the current one.
    pub closest_node: bool,
}

impl WaypointsParams {
    /// Declaration of `node_radius`.
    pub const NODE_RADIUS: Param = Param {
        key: "node_radius",
        label: "node radius",
        unit: "u",
        min: 1.0,
        max: 500.0,
        default: 20.0,
        help: "A node counts as reached inside this distance.",
        kind: ParamKind::Float,
    };
    /// Declaration of `closest_node`.
    pub const CLOSEST_NODE: Param = Param {
        key: "closest_node",
        label: "closest node",
        unit: "",
        min: 0.0,
        max: 1.0,
        default: 0.0,
        help: "Seed 002 first idea: always treat the closest node as the current one (cuts corners).",
        kind: ParamKind::Bool,
    };
    /// Every parameter, in field order (the panel, the validator and the docs read this).
    pub const PARAMS: &'static [Param] = &[Self::NODE_RADIUS, Self::CLOSEST_NODE];
}

impl Default for WaypointsParams {
    fn default() -> Self {
        WaypointsParams {
            node_radius: Self::NODE_RADIUS.default,
            closest_node: Self::CLOSEST_NODE.default_bool(),
        }
    }
}

/// Which node the agent heads for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WaypointsState {
    /// Index of the node being sought.
    pub current_node: usize,
    /// True once the last node of an open path is reached.
    pub finished: bool,
}

/// Seek the current node; advance when inside its radius.
pub fn waypoints(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut WaypointsState,
    p: &WaypointsParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let nodes = path.points();
    let n_nodes = nodes.len();
    let Some(last) = n_nodes.checked_sub(1) else {
        // Nothing to follow.
        state.finished = true;
        return Steering::Acceleration(brake_acceleration(k, limits));
    };
    let closed = path.is_closed() && n_nodes >= 2;
    let node_radius = if p.node_radius.is_nan() { 0.0 } else { p.node_radius.max(0.0) };
    let next = |node: usize| if closed { (node + 1) % n_nodes } else { (node + 1).min(last) };
    let node_at = |node: usize| nodes.get(node).copied().unwrap_or(Vec3::ZERO);

    if state.current_node > last {
        state.current_node = if closed { state.current_node % n_nodes } else { last };
    }
    if !state.finished {
        if p.closest_node {
            state.current_node = next(closest_node(nodes, k.position));
        }
        // Advance past every node the agent is inside (coincident nodes are passed at once).
        for _ in 0..n_nodes {
            if k.position.distance(node_at(state.current_node)) > node_radius {
                break;
            }
            if !closed && state.current_node == last {
                state.finished = true;
                break;
            }
            state.current_node = next(state.current_node);
        }
    }

    let node = node_at(state.current_node);
    if gizmos.is_enabled() {
        let previous =
            if closed { (state.current_node + last) % n_nodes } else { state.current_node.saturating_sub(1) };
        gizmos.push(GizmoRole::CurrentSegment, GizmoShape::Line(node_at(previous), node));
        gizmos.push(GizmoRole::NodeRadius, GizmoShape::Circle { center: node, radius: node_radius });
        gizmos.push(GizmoRole::Target, GizmoShape::Point(node));
    }
    let acceleration = if state.finished {
        brake_acceleration(k, limits)
    } else if !closed && state.current_node == last {
        approach_acceleration(k, limits, node)
    } else {
        seek_acceleration(k, limits, node)
    };
    Steering::Acceleration(acceleration)
}

/// Index of the node closest to `position` (the first on ties; 0 for no nodes).
fn closest_node(nodes: &[Vec3], position: Vec3) -> usize {
    let mut best = (0, f32::INFINITY);
    for (node_idx, node) in nodes.iter().enumerate() {
        let distance_sq = node.distance_squared(position);
        if distance_sq < best.1 {
            best = (node_idx, distance_sq);
        }
    }
    best.0
}

/// Fraction of max acceleration the end-of-path approach plans to brake with, leaving the
/// rest for steering and for the lag of [`STEER_TIME`].
const APPROACH_BRAKING_FRACTION: f32 = 0.5;

/// Acceleration toward `end` with a speed that ramps down as sqrt(2·a·d) so the agent can stop
/// on it (a = half the max acceleration): how every path follower approaches the end of an
/// open path.
pub(crate) fn approach_acceleration(k: &Kinematics, limits: &Limits, end: Vec3) -> Vec3 {
    let to_end = end - k.position;
    let braking = APPROACH_BRAKING_FRACTION * limits.max_acceleration.max(0.0);
    let speed = limits.max_speed.max(0.0).min((2.0 * braking * to_end.length()).sqrt());
    let desired = to_end.normalize_or_zero() * speed;
    accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration)
}

/// How close to the end of an open path a projected or predictive follower must come to be
/// finished: its body radius (at least one unit), so the agent covers the end point.
pub(crate) fn end_tolerance(limits: &Limits) -> f32 {
    if limits.radius.is_nan() {
        1.0
    } else {
        limits.radius.max(1.0)
    }
}

/// Acceleration toward zero velocity (a finished follower braking to a stop).
pub(crate) fn brake_acceleration(k: &Kinematics, limits: &Limits) -> Vec3 {
    accelerate_toward_velocity(k.velocity, Vec3::ZERO, STEER_TIME, limits.max_acceleration)
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

    fn zigzag(closed: bool) -> Polyline {
        Polyline::new(vec![v(0.0, 0.0), v(100.0, 0.0), v(100.0, 100.0), v(200.0, 100.0)], closed)
    }

    #[test]
    fn node_is_sought_until_the_agent_is_inside_its_radius() {
        let path = zigzag(false);
        let mut state = WaypointsState { current_node: 1, finished: false };
        let p = WaypointsParams { node_radius: 10.0, closest_node: false };
        let limits = Limits::default();
        let steering = waypoints(&at(50.0, 0.0), &limits, &path, &mut state, &p, &mut Gizmos::disabled());
        assert_eq!(state.current_node, 1);
        // From rest, seek wants 150 units/s along +x within 0.1 s: clamped to max acceleration.
        assert_eq!(steering, Steering::Acceleration(v(400.0, 0.0)));
        waypoints(&at(91.0, 0.0), &limits, &path, &mut state, &p, &mut Gizmos::disabled());
        assert_eq!(state.current_node, 2);
    }

    #[test]
    fn starting_on_the_first_node_advances_to_the_second() {
        let path = zigzag(false);
        let mut state = WaypointsState::default();
        let p = WaypointsParams::default();
        waypoints(&at(0.0, 0.0), &Limits::default(), &path, &mut state, &p, &mut Gizmos::disabled());
        assert_eq!(state.current_node, 1);
    }

    #[test]
    fn coincident_nodes_are_passed_in_one_step() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(0.0, 0.0), v(0.0, 0.0), v(50.0, 0.0)], false);
        let mut state = WaypointsState::default();
        waypoints(
            &at(1.0, 0.0),
            &Limits::default(),
            &path,
            &mut state,
            &WaypointsParams::default(),
            &mut Gizmos::disabled(),
        );
        assert_eq!(state.current_node, 3);
    }

    #[test]
    fn closed_path_wraps_from_the_last_node_to_the_first() {
        let path = zigzag(true);
        let mut state = WaypointsState { current_node: 3, finished: false };
        waypoints(
            &at(195.0, 100.0),
            &Limits::default(),
            &path,
            &mut state,
            &WaypointsParams::default(),
            &mut Gizmos::disabled(),
        );
        assert_eq!(state.current_node, 0);
        assert!(!state.finished);
    }

    #[test]
    fn open_path_finishes_at_the_last_node_and_brakes() {
        let path = zigzag(false);
        let mut state = WaypointsState { current_node: 3, finished: false };
        let k = Kinematics { position: v(195.0, 100.0), velocity: v(20.0, 0.0), orientation: 0.0 };
        let steering = waypoints(
            &k,
            &Limits::default(),
            &path,
            &mut state,
            &WaypointsParams::default(),
            &mut Gizmos::disabled(),
        );
        assert!(state.finished);
        assert_eq!(state.current_node, 3);
        assert_eq!(steering, Steering::Acceleration(v(-200.0, 0.0)));
    }

    #[test]
    fn last_node_is_approached_with_a_speed_ramp() {
        let path = zigzag(false);
        let mut state = WaypointsState { current_node: 3, finished: false };
        // 50 units away: the ramp allows sqrt(2·200·50) ≈ 141 units/s, moving at 150 → brake.
        let k = Kinematics { position: v(150.0, 100.0), velocity: v(150.0, 0.0), orientation: 0.0 };
        let steering = waypoints(
            &k,
            &Limits::default(),
            &path,
            &mut state,
            &WaypointsParams::default(),
            &mut Gizmos::disabled(),
        );
        let Steering::Acceleration(acceleration) = steering else { panic!("dynamic steering expected") };
        assert!((acceleration.x - (141.421_36 - 150.0) / 0.1).abs() < 0.01, "{acceleration}");
    }

    #[test]
    fn closest_node_seeks_the_node_after_the_closest() {
        let path = zigzag(false);
        let mut state = WaypointsState::default();
        let p = WaypointsParams { node_radius: 5.0, closest_node: true };
        // Closest node is 1 (at (100, 0)); the sought node becomes 2.
        waypoints(&at(70.0, 10.0), &Limits::default(), &path, &mut state, &p, &mut Gizmos::disabled());
        assert_eq!(state.current_node, 2);
        // Far along, closer to node 2 than node 1: seek node 3 (the corner at node 2 is cut).
        waypoints(&at(100.0, 60.0), &Limits::default(), &path, &mut state, &p, &mut Gizmos::disabled());
        assert_eq!(state.current_node, 3);
    }

    #[test]
    fn closest_node_sends_an_agent_drifting_across_a_hairpin_back_down_the_first_leg() {
        let path = Polyline::new(vec![v(0.0, 0.0), v(400.0, 0.0), v(400.0, 60.0), v(0.0, 60.0)], false);
        let mut state = WaypointsState { current_node: 3, finished: false };
        let p = WaypointsParams { node_radius: 5.0, closest_node: true };
        // Near the end of the return leg but drifted past the middle of the hairpin: node 0 is
        // now the closest, so the agent is sent back to node 1, 370 units away.
        waypoints(&at(30.0, 28.0), &Limits::default(), &path, &mut state, &p, &mut Gizmos::disabled());
        assert_eq!(state.current_node, 1);
    }

    #[test]
    fn empty_path_finishes_and_brakes_without_nan() {
        let path = Polyline::new(vec![], false);
        let mut state = WaypointsState { current_node: 4, finished: false };
        let k = Kinematics { velocity: v(10.0, 0.0), ..Kinematics::default() };
        let steering = waypoints(
            &k,
            &Limits::default(),
            &path,
            &mut state,
            &WaypointsParams::default(),
            &mut Gizmos::disabled(),
        );
        assert!(state.finished);
        assert_eq!(steering, Steering::Acceleration(v(-100.0, 0.0)));
    }

    #[test]
    fn gizmos_show_the_target_node_and_its_radius() {
        let path = zigzag(false);
        let mut state = WaypointsState { current_node: 2, finished: false };
        let mut gizmos = Gizmos::recording();
        waypoints(
            &at(100.0, 50.0),
            &Limits::default(),
            &path,
            &mut state,
            &WaypointsParams::default(),
            &mut gizmos,
        );
        let roles: Vec<GizmoRole> = gizmos.items().iter().map(|gizmo| gizmo.role).collect();
        assert_eq!(roles, vec![GizmoRole::CurrentSegment, GizmoRole::NodeRadius, GizmoRole::Target]);
        assert_eq!(gizmos.items()[2].shape, GizmoShape::Point(v(100.0, 100.0)));
    }
}
