//! Interpose (Buckland, after Reynolds): put yourself between two agents — a bodyguard, a
//! goalkeeper, a referee.
//!
//! # Motivation
//! Steering to the midpoint of two moving agents arrives too late: by then they have moved.
//! Buckland's interpose estimates how long the agent needs to reach the current midpoint,
//! predicts both agents that far ahead and arrives at the midpoint of the predictions. Yuka's
//! `InterposeBehavior` is the same.
//!
//! # Implementation
//! `t = |midpoint − position| / max_speed` (0 for an agent that cannot move); the target is the
//! midpoint of `a + v_a·t` and `b + v_b·t`, and the agent uses seed 001's dynamic arrive (with its
//! braking cap) toward it with `slow_radius`, so it comes to rest between two agents that stand
//! still.
//!
//! # Parameters
//! `slow_radius` (world units), plus the agent's limits; the two agents are others' kinematics.

use super::arrive::{arrive, ArriveParams};
use super::param::{Param, ParamKind};
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of interpose.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InterposeParams {
    /// Inside this distance of the interpose point the agent slows down (world units).
    pub slow_radius: f32,
}

/// Slow radius.
pub const SLOW_RADIUS: Param = Param {
    key: "slow_radius",
    label: "slow radius",
    unit: "u",
    min: 0.0,
    max: 2000.0,
    default: 60.0,
    help: "Inside this distance of the point between the two agents the agent slows down.",
    kind: ParamKind::Float,
};

impl InterposeParams {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[SLOW_RADIUS];
}

impl Default for InterposeParams {
    fn default() -> Self {
        InterposeParams { slow_radius: SLOW_RADIUS.default }
    }
}

/// The point interpose steers to between `a` and `b`.
pub fn interpose_point(k: &Kinematics, limits: &Limits, a: &Kinematics, b: &Kinematics) -> Vec3 {
    let midpoint = (a.position + b.position) * 0.5;
    let speed = limits.max_speed.max(0.0);
    let t = if speed > 0.0 { (midpoint - k.position).length() / speed } else { 0.0 };
    let t = if t.is_finite() { t } else { 0.0 };
    (a.position + a.velocity * t + b.position + b.velocity * t) * 0.5
}

/// Interpose between `a` and `b`. Returns [`Steering::Acceleration`].
pub fn interpose(
    k: &Kinematics,
    limits: &Limits,
    a: &Kinematics,
    b: &Kinematics,
    p: &InterposeParams,
    gizmos: &mut Gizmos,
) -> Steering {
    interpose_aiming(k, limits, a, b, p, |point, _| point, gizmos)
}

/// Interpose between `a` and `b` arriving at `aim(interpose point)` instead of the point itself
/// (an agent that avoids obstacles aims round the one in the way, and at a rock's rim when the
/// point is inside it: `detour::detour_target`).
pub fn interpose_aiming(
    k: &Kinematics,
    limits: &Limits,
    a: &Kinematics,
    b: &Kinematics,
    p: &InterposeParams,
    aim: impl FnOnce(Vec3, &mut Gizmos) -> Vec3,
    gizmos: &mut Gizmos,
) -> Steering {
    let point = aim(interpose_point(k, limits, a, b), gizmos);
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Projection, GizmoShape::Line(a.position, b.position));
    }
    let arrive_params = ArriveParams { slow_radius: p.slow_radius, ..ArriveParams::default() };
    match arrive(k, limits, point, &arrive_params, gizmos) {
        Steering::Acceleration(a) if a.is_finite() => Steering::Acceleration(a),
        _ => Steering::NONE,
    }
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use crate::sim::integrate;
    use proptest::prelude::*;

    fn run(a_velocity: Vec3, b_velocity: Vec3, seconds: usize) -> (Kinematics, Kinematics, Kinematics) {
        let limits = Limits { radius: 6.0, max_speed: 150.0, max_acceleration: 400.0 };
        let mut k = Kinematics { position: Vec3::new(0.0, -200.0, 0.0), ..Kinematics::default() };
        let mut a =
            Kinematics { position: Vec3::new(-150.0, 100.0, 0.0), velocity: a_velocity, orientation: 0.0 };
        let mut b =
            Kinematics { position: Vec3::new(250.0, 0.0, 0.0), velocity: b_velocity, orientation: 0.0 };
        let dt = 1.0 / 60.0;
        for _ in 0..seconds * 60 {
            let s = interpose(&k, &limits, &a, &b, &InterposeParams::default(), &mut Gizmos::disabled());
            integrate(&mut k, &limits, s, dt);
            a.position += a.velocity * dt;
            b.position += b.velocity * dt;
        }
        (k, a, b)
    }

    #[test]
    fn interposer_comes_to_rest_at_the_midpoint_of_two_still_agents() {
        let (k, a, b) = run(Vec3::ZERO, Vec3::ZERO, 6);
        assert!((k.position - (a.position + b.position) * 0.5).length() < 5.0, "{}", k.position);
        assert!(k.velocity.length() < 1.0);
    }

    #[test]
    fn interposer_stays_on_the_line_between_two_moving_agents() {
        let (k, a, b) = run(Vec3::new(20.0, 10.0, 0.0), Vec3::new(-10.0, 25.0, 0.0), 8);
        // Distance from the segment a–b, measured against the segment's own length.
        let ab = b.position - a.position;
        let t = ((k.position - a.position).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
        let off = (a.position + ab * t - k.position).length();
        assert!(off < 10.0 && (0.3..0.7).contains(&t), "off {off}, at {t}");
    }

    proptest! {
        #[test]
        fn interpose_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), a in testing::kinematics(),
            b in testing::kinematics(), slow_radius in 0.0f32..2000.0,
        ) {
            let s = interpose(&k, &limits, &a, &b, &InterposeParams { slow_radius }, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
