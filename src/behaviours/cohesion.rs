//! Cohesion (Reynolds' boids): steer toward the centre of the neighbours.
//!
//! # Motivation
//! The third flocking rule, the one that keeps a flock together: each boid seeks the average
//! position of its neighbours. OpenSteer's `steerForCohesion`, Yuka's `CohesionBehavior`,
//! gdx-ai's `Cohesion`.
//!
//! # Implementation
//! The centroid of the neighbours in view is sought: desired velocity toward it at a speed that
//! grows linearly with its distance up to `max_speed` at the neighbourhood radius (a plain seek
//! at full speed, as Yuka does, overshoots the centre and makes small groups pulse), reached over
//! `STEER_TIME` and clamped to `max_acceleration`. No neighbour: no steering.
//!
//! # Parameters
//! `radius` (world units) and `view_angle` (radians), plus the agent's limits.

use super::neighbourhood::{self, Neighbour, View};
use super::param::Param;
use super::{
    accelerate_toward_velocity, GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering, STEER_TIME,
};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of cohesion.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CohesionParams {
    /// Neighbours farther than this are ignored (world units, typically 20–100).
    pub radius: f32,
    /// Full angle of the view cone (radians, 0–2π).
    pub view_angle: f32,
}

/// The neighbourhood radius of cohesion.
pub const RADIUS: Param =
    neighbourhood::radius_param(50.0, "Neighbours within this distance pull the agent toward their centre.");

impl CohesionParams {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[RADIUS, neighbourhood::VIEW_ANGLE];
}

impl Default for CohesionParams {
    fn default() -> Self {
        CohesionParams { radius: RADIUS.default, view_angle: neighbourhood::VIEW_ANGLE.default }
    }
}

/// Cohesion with `neighbours` (radius and view cone applied here). Returns
/// [`Steering::Acceleration`].
pub fn cohesion(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &[Neighbour],
    p: &CohesionParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let view = View::new(k, p.radius, p.view_angle);
    let mut sum = Vec3::ZERO;
    let mut count = 0u32;
    for n in neighbours {
        if let Some((offset, _)) = view.sees(n.position) {
            sum += offset;
            count += 1;
        }
    }
    if count == 0 || view.radius <= 0.0 {
        return Steering::NONE;
    }
    let to_centre = sum / count as f32;
    let desired =
        (to_centre * (limits.max_speed.max(0.0) / view.radius)).clamp_length_max(limits.max_speed.max(0.0));
    let linear = accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration);
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::NeighbourRadius, GizmoShape::Circle { center: k.position, radius: p.radius });
        gizmos.push(GizmoRole::Target, GizmoShape::Point(k.position + to_centre));
        gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(k.position, k.position + desired));
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn cohesion_at_rest_accelerates_straight_at_the_centroid_of_those_in_view() {
        let k = Kinematics { position: Vec3::ZERO, velocity: Vec3::ZERO, orientation: 0.0 };
        let limits = Limits { radius: 5.0, max_speed: 100.0, max_acceleration: 400.0 };
        let p = CohesionParams { radius: 40.0, view_angle: std::f32::consts::TAU };
        let group = [
            Neighbour { position: Vec3::new(20.0, 10.0, 0.0), velocity: Vec3::ZERO },
            Neighbour { position: Vec3::new(20.0, -30.0, 0.0), velocity: Vec3::ZERO },
            Neighbour { position: Vec3::new(-300.0, 0.0, 0.0), velocity: Vec3::ZERO },
        ];
        let Steering::Acceleration(a) = cohesion(&k, &limits, &group, &p, &mut Gizmos::disabled()) else {
            panic!("dynamic")
        };
        let centroid = Vec3::new(20.0, -10.0, 0.0);
        assert!(a.normalize().dot(centroid.normalize()) > 0.99999, "{a}");
        assert!((a.length() - 400.0).abs() < 1e-2);
        assert_eq!(cohesion(&k, &limits, &group[2..], &p, &mut Gizmos::disabled()), Steering::NONE);
    }

    proptest! {
        #[test]
        fn cohesion_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), neighbours in testing::neighbours(),
            radius in 0.0f32..1000.0, view_angle in 0.0f32..7.0,
        ) {
            let s = cohesion(&k, &limits, &neighbours, &CohesionParams { radius, view_angle }, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
