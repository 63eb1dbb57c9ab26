//! Leader following (Reynolds 1999): follow a point behind the leader, and get out of its way
//! when standing in front of it.
//!
//! # Motivation
//! A crowd following a guide should trail behind it, not crowd in front of it or block its way.
//! Reynolds' leader following combines arrival at a point behind the leader, evasion when in the
//! leader's path, and separation among the followers (added by combining this behaviour with
//! `separation`). OpenSteer's leader demo and the classic "leader following" write-ups.
//!
//! # Implementation
//! The follow point is `behind` units behind the leader along its forward direction and is held
//! like a formation slot (`offset_pursuit::hold_slot`: the leader's velocity plus a correction
//! over `approach_time`). When the agent stands in the leader's path — within `sight_distance`
//! ahead of the leader and within `sight_radius` of its line of travel — it instead steps out
//! sideways at full speed (away from the line, to the leader's right when exactly on it), keeping
//! the leader's forward speed so it is not run over; beside the zone and still ahead of the
//! leader it heads for the follow point without closing in on the leader's line, so it goes
//! back round the zone instead of straight through it. With `clear_path` off it only holds the
//! follow point (the plain follower that Compare sets beside it).
//!
//! # Parameters
//! `behind`, `sight_distance`, `sight_radius` (world units), `approach_time` (seconds),
//! `clear_path` (on by default; off only holds the follow point, the follower Compare races
//! against), plus the agent's limits; the leader is another agent's kinematics.

use super::neighbourhood::forward;
use super::offset_pursuit::slot_desired_velocity;
use super::param::{Param, ParamKind};
use super::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of leader following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LeaderFollowingParams {
    /// Distance of the follow point behind the leader (world units, typically 20–100).
    pub behind: f32,
    /// Length of the zone ahead of the leader that followers clear (world units).
    pub sight_distance: f32,
    /// Half-width of that zone (world units).
    pub sight_radius: f32,
    /// Time over which the follower closes the distance to its follow point (seconds).
    pub approach_time: f32,
    /// Whether the follower steps out of the leader's path when standing in it (off: it only
    /// holds the follow point, the plain follower Compare races against).
    pub clear_path: bool,
}

/// Distance behind.
pub const BEHIND: Param = Param {
    key: "behind",
    label: "behind",
    unit: "u",
    min: 0.0,
    max: 2000.0,
    default: 50.0,
    help: "How far behind the leader the follow point is.",
    kind: ParamKind::Float,
};
/// Sight distance.
pub const SIGHT_DISTANCE: Param = Param {
    key: "sight_distance",
    label: "sight distance",
    unit: "u",
    min: 0.0,
    max: 2000.0,
    default: 80.0,
    help: "Length of the zone ahead of the leader that followers keep clear.",
    kind: ParamKind::Float,
};
/// Sight radius.
pub const SIGHT_RADIUS: Param = Param {
    key: "sight_radius",
    label: "sight radius",
    unit: "u",
    min: 0.0,
    max: 1000.0,
    default: 25.0,
    help: "Half-width of the zone ahead of the leader that followers keep clear.",
    kind: ParamKind::Float,
};
/// Clearing the leader's path.
pub const CLEAR_PATH: Param = Param {
    key: "clear_path",
    label: "clear the path",
    unit: "",
    min: 0.0,
    max: 1.0,
    default: 1.0,
    help: "Step out sideways when in the zone ahead of the leader; off: only hold the follow point.",
    kind: ParamKind::Bool,
};

impl LeaderFollowingParams {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] =
        &[BEHIND, SIGHT_DISTANCE, SIGHT_RADIUS, super::offset_pursuit::APPROACH_TIME, CLEAR_PATH];
}

impl Default for LeaderFollowingParams {
    fn default() -> Self {
        LeaderFollowingParams {
            behind: BEHIND.default,
            sight_distance: SIGHT_DISTANCE.default,
            sight_radius: SIGHT_RADIUS.default,
            approach_time: super::offset_pursuit::APPROACH_TIME.default,
            clear_path: CLEAR_PATH.default_bool(),
        }
    }
}

/// Whether `position` stands in the leader's path: within `sight_distance` ahead of the leader
/// and within `sight_radius` of its line of travel (the zone followers clear; the leader
/// metrics time it).
pub fn in_leaders_path(position: Vec3, leader: &Kinematics, p: &LeaderFollowingParams) -> bool {
    let fwd = forward(leader);
    let offset = position - leader.position;
    let along = offset.dot(fwd);
    let across = offset - fwd * along;
    along >= 0.0 && along <= p.sight_distance && across.length() < p.sight_radius
}

/// Leader following. Returns [`Steering::Acceleration`].
pub fn leader_following(
    k: &Kinematics,
    limits: &Limits,
    leader: &Kinematics,
    p: &LeaderFollowingParams,
    gizmos: &mut Gizmos,
) -> Steering {
    leader_following_aiming(k, limits, leader, p, |point, _| point, gizmos)
}

/// Leader following holding `aim(follow point)` instead of the point behind the leader itself
/// (an agent that avoids obstacles aims round the one in the way: `detour::Detour::aim`); while
/// the aim is not the point, the leader's velocity is left out of the desired velocity.
pub fn leader_following_aiming(
    k: &Kinematics,
    limits: &Limits,
    leader: &Kinematics,
    p: &LeaderFollowingParams,
    aim: impl FnOnce(Vec3, &mut Gizmos) -> Vec3,
    gizmos: &mut Gizmos,
) -> Steering {
    let fwd = forward(leader);
    let right = Vec3::new(fwd.y, -fwd.x, 0.0);
    let offset = k.position - leader.position;
    let across = offset - fwd * offset.dot(fwd);
    let linear = if p.clear_path && in_leaders_path(k.position, leader, p) {
        let side = across.normalize_or_zero();
        let side = if side == Vec3::ZERO { right } else { side };
        let desired = (leader.velocity.dot(fwd).max(0.0) * fwd + side * limits.max_speed.max(0.0))
            .clamp_length_max(limits.max_speed.max(0.0));
        accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration)
    } else {
        let point = leader.position - fwd * p.behind;
        let aimed = aim(point, gizmos);
        let velocity = if aimed == point { leader.velocity } else { Vec3::ZERO };
        let mut desired = slot_desired_velocity(k, limits, aimed, velocity, p.approach_time);
        // Beside the zone, ahead of the leader: go back round the zone's side rather than
        // straight through it (no velocity toward the leader's line until behind it).
        let along = offset.dot(fwd);
        if p.clear_path && along >= 0.0 && along <= p.sight_distance {
            let out = across.normalize_or_zero();
            desired -= out * desired.dot(out).min(0.0);
        }
        accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration)
    };
    if gizmos.is_enabled() {
        let ahead = leader.position + fwd * p.sight_distance;
        gizmos.push(
            GizmoRole::Boundary,
            GizmoShape::Line(leader.position + right * p.sight_radius, ahead + right * p.sight_radius),
        );
        gizmos.push(
            GizmoRole::Boundary,
            GizmoShape::Line(leader.position - right * p.sight_radius, ahead - right * p.sight_radius),
        );
        gizmos.push(GizmoRole::Target, GizmoShape::Point(leader.position - fwd * p.behind));
        gizmos.push(GizmoRole::SteeringForce, GizmoShape::Arrow(k.position, k.position + linear * 0.25));
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use crate::sim::integrate;
    use proptest::prelude::*;

    #[test]
    fn a_follower_in_front_of_the_leader_clears_its_path_then_trails_behind() {
        let limits = Limits { radius: 6.0, max_speed: 150.0, max_acceleration: 400.0 };
        let p = LeaderFollowingParams::default();
        let mut k = Kinematics {
            position: Vec3::new(40.0, 2.0, 0.0),
            velocity: Vec3::new(60.0, 0.0, 0.0),
            orientation: 0.0,
        };
        let mut leader =
            Kinematics { position: Vec3::ZERO, velocity: Vec3::new(60.0, 0.0, 0.0), orientation: 0.0 };
        let dt = 1.0 / 60.0;
        let mut cleared_at = None;
        for step in 0..600 {
            let s = leader_following(&k, &limits, &leader, &p, &mut Gizmos::disabled());
            integrate(&mut k, &limits, s, dt);
            leader.position += leader.velocity * dt;
            let offset = k.position - leader.position;
            if cleared_at.is_none() && offset.y.abs() >= p.sight_radius {
                cleared_at = Some(step);
            }
            // Never run over: the follower never ends up within touching distance of the leader.
            assert!(offset.length() > 2.0 * limits.radius, "step {step}: {offset}");
        }
        assert!(cleared_at.is_some_and(|s| s < 30), "cleared at {cleared_at:?}");
        let behind = leader.position - Vec3::new(p.behind, 0.0, 0.0);
        assert!((k.position - behind).length() < 1.0, "ends at {} not {behind}", k.position);
    }

    /// The smallest gap between the bodies of a follower starting `ahead` of a leader walking
    /// east (both of radius 6) and the leader, over ten seconds.
    fn closest_gap_to_the_leader(ahead: f32, clear_path: bool) -> f32 {
        let limits = Limits { radius: 6.0, max_speed: 100.0, max_acceleration: 400.0 };
        let p = LeaderFollowingParams { clear_path, ..Default::default() };
        let mut k = Kinematics { position: Vec3::new(ahead, 3.0, 0.0), ..Default::default() };
        let mut leader =
            Kinematics { position: Vec3::ZERO, velocity: Vec3::new(40.0, 0.0, 0.0), orientation: 0.0 };
        let dt = 1.0 / 60.0;
        let mut gap = f32::INFINITY;
        for _ in 0..600 {
            let s = leader_following(&k, &limits, &leader, &p, &mut Gizmos::disabled());
            integrate(&mut k, &limits, s, dt);
            leader.position += leader.velocity * dt;
            gap = gap.min(k.position.distance(leader.position) - 2.0 * limits.radius);
        }
        let behind = leader.position - Vec3::new(p.behind, 0.0, 0.0);
        assert!(
            k.position.distance(behind) < 1.0,
            "{ahead} ahead, clear_path {clear_path}: ends at {}",
            k.position
        );
        gap
    }

    #[test]
    fn a_follower_clearing_the_path_goes_round_the_leader_where_a_plain_one_runs_into_it() {
        for ahead in [20.0, 30.0, 50.0, 70.0] {
            let clearing = closest_gap_to_the_leader(ahead, true);
            let plain = closest_gap_to_the_leader(ahead, false);
            assert!(clearing > 5.0, "{ahead} ahead: clearing came within {clearing} of the leader");
            assert!(plain < 0.0, "{ahead} ahead: the plain follower kept {plain} from the leader");
        }
    }

    proptest! {
        #[test]
        fn leader_following_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), leader in testing::kinematics(),
            behind in 0.0f32..2000.0, sight_distance in 0.0f32..2000.0, sight_radius in 0.0f32..1000.0,
            approach_time in 0.0f32..10.0, clear_path: bool,
        ) {
            let p = LeaderFollowingParams { behind, sight_distance, sight_radius, approach_time, clear_path };
            let s = leader_following(&k, &limits, &leader, &p, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
