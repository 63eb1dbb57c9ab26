//! Pursuit (Reynolds 1999): seek where a moving target will be, not where it is.
//!
//! # Motivation
//! Seek aims at the target's current position and so chases its tail along a curve; a pursuer
//! that predicts the target's position cuts the corner and catches a constant-velocity target
//! sooner. OpenSteer's `steerForPursuit`, Yuka's `PursuitBehavior`, gdx-ai's `Pursue`.
//!
//! # Implementation
//! The prediction time is the time the pursuer needs to cover the current distance at its
//! current speed, capped at `max_prediction` (Millington's formulation of Reynolds' rule; gdx-ai
//! and Yuka do the same): `t = min(distance / speed, max_prediction)`, and `max_prediction` when
//! the pursuer stands still. The predicted point `target + target_velocity · t` is sought at full
//! speed with the shared dynamic rule (reach the desired velocity over `STEER_TIME`, clamped to
//! `max_acceleration`). [`predicted_position`] is shared with `evade`.
//!
//! # Parameters
//! `max_prediction` (seconds), plus the agent's limits; the target is another agent's
//! kinematics (its position and velocity).

use super::param::Param;
use super::{seek_acceleration, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of pursuit (and evade).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PursuitParams {
    /// The longest look-ahead along the target's velocity (seconds, typically 0.5–3).
    pub max_prediction: f32,
}

/// The cap on the prediction time.
pub const MAX_PREDICTION: Param = Param {
    kind: crate::behaviours::param::ParamKind::Float,
    key: "max_prediction",
    label: "max prediction",
    unit: "s",
    min: 0.0,
    max: 10.0,
    default: 1.0,
    help: "The longest time ahead at which the other agent's position is predicted.",
};

impl PursuitParams {
    /// The cap on the prediction time (the module's [`MAX_PREDICTION`]).
    pub const MAX_PREDICTION: Param = MAX_PREDICTION;
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[MAX_PREDICTION];
}

impl Default for PursuitParams {
    fn default() -> Self {
        PursuitParams { max_prediction: MAX_PREDICTION.default }
    }
}

/// Where `target` will be when `k` could reach it: `target.position + target.velocity · t`
/// with `t = min(distance / speed, max_prediction)`.
pub fn predicted_position(k: &Kinematics, target: &Kinematics, max_prediction: f32) -> Vec3 {
    let distance = (target.position - k.position).length();
    let speed = k.velocity.length();
    let cap = max_prediction.max(0.0);
    let t = if speed <= 0.0 || distance >= speed * cap { cap } else { distance / speed };
    let t = if t.is_finite() { t } else { 0.0 };
    target.position + target.velocity * t
}

/// Pursuit of `target`. Returns [`Steering::Acceleration`].
pub fn pursuit(
    k: &Kinematics,
    limits: &Limits,
    target: &Kinematics,
    p: &PursuitParams,
    gizmos: &mut Gizmos,
) -> Steering {
    pursuit_aiming(k, limits, target, p, |predicted, _| predicted, gizmos)
}

/// Pursuit of `target` seeking `aim(predicted point)` instead of the predicted point itself (an
/// agent that avoids obstacles aims round the one in the way: `detour::detour_target`).
pub fn pursuit_aiming(
    k: &Kinematics,
    limits: &Limits,
    target: &Kinematics,
    p: &PursuitParams,
    aim: impl FnOnce(Vec3, &mut Gizmos) -> Vec3,
    gizmos: &mut Gizmos,
) -> Steering {
    let predicted = predicted_position(k, target, p.max_prediction);
    let linear = seek_acceleration(k, limits, aim(predicted, gizmos));
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Prediction, GizmoShape::Line(target.position, predicted));
        gizmos.push(GizmoRole::Target, GizmoShape::Point(predicted));
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

    /// Steps until the pursuer is within 10 units of a target moving at constant velocity;
    /// returns the number of steps.
    fn capture_steps(predict: bool) -> usize {
        let limits = Limits { radius: 5.0, max_speed: 120.0, max_acceleration: 400.0 };
        let mut k = Kinematics::default();
        let mut target = Kinematics {
            position: Vec3::new(400.0, 0.0, 0.0),
            velocity: Vec3::new(0.0, 80.0, 0.0),
            orientation: 0.0,
        };
        let dt = 1.0 / 60.0;
        for step in 0..6000 {
            if (target.position - k.position).length() < 10.0 {
                return step;
            }
            let s = if predict {
                pursuit(&k, &limits, &target, &PursuitParams::default(), &mut Gizmos::disabled())
            } else {
                Steering::Acceleration(seek_acceleration(&k, &limits, target.position))
            };
            integrate(&mut k, &limits, s, dt);
            target.position += target.velocity * dt;
        }
        usize::MAX
    }

    #[test]
    fn pursuit_catches_a_constant_velocity_target_sooner_than_seek() {
        let pursued = capture_steps(true);
        let sought = capture_steps(false);
        assert!(pursued < sought, "pursuit {pursued} steps, seek {sought} steps");
        // And by a real margin: more than a tenth sooner.
        assert!((pursued as f32) < 0.9 * sought as f32, "pursuit {pursued} steps, seek {sought} steps");
    }

    #[test]
    fn prediction_time_is_distance_over_speed_capped() {
        let k = Kinematics { velocity: Vec3::new(100.0, 0.0, 0.0), ..Kinematics::default() };
        let target = Kinematics {
            position: Vec3::new(50.0, 0.0, 0.0),
            velocity: Vec3::new(0.0, 10.0, 0.0),
            orientation: 0.0,
        };
        assert_eq!(predicted_position(&k, &target, 2.0), Vec3::new(50.0, 5.0, 0.0));
        assert_eq!(predicted_position(&k, &target, 0.1), Vec3::new(50.0, 1.0, 0.0));
        let still = Kinematics::default();
        assert_eq!(predicted_position(&still, &target, 2.0), Vec3::new(50.0, 20.0, 0.0));
    }

    proptest! {
        #[test]
        fn pursuit_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), target in testing::kinematics(),
            max_prediction in 0.0f32..10.0,
        ) {
            let s = pursuit(&k, &limits, &target, &PursuitParams { max_prediction }, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
