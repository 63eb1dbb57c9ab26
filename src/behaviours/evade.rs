//! Evade (Reynolds 1999): flee from where a moving hunter will be, not where it is.
//!
//! # Motivation
//! Flee runs straight away from the hunter's current position; when the hunter is not coming
//! straight at the agent, that is the wrong way, and the agent keeps less distance than it
//! could. Evade predicts the hunter's position like pursuit and flees from that, so it steps out
//! of the hunter's line early. OpenSteer's `steerForEvasion`, Yuka's `EvadeBehavior`, gdx-ai's
//! `Evade`.
//!
//! # Implementation
//! The hunter's position is predicted as in `pursuit` (`t = min(distance / speed,
//! max_prediction)`), and the agent asks for full speed directly away from the predicted point,
//! reached over `STEER_TIME` and clamped to `max_acceleration`. On the predicted point itself
//! (no direction), it keeps its velocity.
//!
//! # Parameters
//! `max_prediction` (seconds; [`PursuitParams`], the same declaration as pursuit), plus the
//! agent's limits; the hunter is another agent's kinematics.

use super::pursuit::{predicted_position, PursuitParams};
use super::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use glam::Vec3;

/// Evasion of `hunter`. Returns [`Steering::Acceleration`].
pub fn evade(
    k: &Kinematics,
    limits: &Limits,
    hunter: &Kinematics,
    p: &PursuitParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let predicted = predicted_position(k, hunter, p.max_prediction);
    let away = (k.position - predicted).normalize_or_zero();
    if away == Vec3::ZERO {
        return Steering::NONE;
    }
    let desired = away * limits.max_speed.max(0.0);
    let linear = accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration);
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Prediction, GizmoShape::Line(hunter.position, predicted));
        gizmos.push(GizmoRole::Target, GizmoShape::Point(predicted));
        gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(k.position, k.position + desired));
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use crate::sim::integrate;
    use proptest::prelude::*;

    /// The smallest distance between a hunter crossing at constant velocity and an agent that
    /// evades (or flees).
    fn closest_distance(predict: bool) -> f32 {
        let limits = Limits { radius: 5.0, max_speed: 60.0, max_acceleration: 300.0 };
        let mut k = Kinematics { position: Vec3::new(0.0, 40.0, 0.0), ..Kinematics::default() };
        let mut hunter = Kinematics {
            position: Vec3::new(-400.0, 0.0, 0.0),
            velocity: Vec3::new(150.0, 0.0, 0.0),
            orientation: 0.0,
        };
        let dt = 1.0 / 60.0;
        let p = PursuitParams { max_prediction: 2.0 };
        let mut closest = f32::INFINITY;
        for _ in 0..600 {
            closest = closest.min((hunter.position - k.position).length());
            let s = if predict {
                evade(&k, &limits, &hunter, &p, &mut Gizmos::disabled())
            } else {
                let desired = (k.position - hunter.position).normalize_or_zero() * limits.max_speed;
                Steering::Acceleration(accelerate_toward_velocity(
                    k.velocity,
                    desired,
                    STEER_TIME,
                    limits.max_acceleration,
                ))
            };
            integrate(&mut k, &limits, s, dt);
            hunter.position += hunter.velocity * dt;
        }
        closest
    }

    #[test]
    fn an_evader_keeps_more_distance_from_a_passing_hunter_than_flee() {
        let evaded = closest_distance(true);
        let fled = closest_distance(false);
        assert!(evaded > fled + 10.0, "evade keeps {evaded}, flee {fled}");
    }

    proptest! {
        #[test]
        fn evade_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), hunter in testing::kinematics(),
            max_prediction in 0.0f32..10.0,
        ) {
            let s = evade(&k, &limits, &hunter, &PursuitParams { max_prediction }, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
