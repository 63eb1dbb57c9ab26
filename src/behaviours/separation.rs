//! Separation (Reynolds' boids, 1987/1999): steer away from crowding neighbours.
//!
//! # Motivation
//! The first of the three flocking rules: without it a flock collapses onto its centre. It is
//! also the simplest crowd behaviour — people in a corridor keep their distance the same way.
//! OpenSteer's `steerForSeparation`, Yuka's `SeparationBehavior` and gdx-ai's `Separation`.
//!
//! # Implementation
//! Each neighbour in view (see `neighbourhood`) pushes the agent directly away from it with a
//! strength that falls linearly from 1 at contact to 0 at the neighbourhood radius (OpenSteer
//! and Yuka use 1/d, which is unbounded at contact; the linear fall-off is bounded and continuous
//! at the radius, so a neighbour crossing the radius does not kick). The sum is clamped to length
//! 1 and scaled by the agent's `max_acceleration`: a lone neighbour at half the radius asks for
//! half the agent's acceleration, a crowd at most all of it.
//!
//! # Parameters
//! `radius` (world units) and `view_angle` (radians, full cone), plus the agent's
//! `max_acceleration`.

use super::neighbourhood::{self, Neighbour, View};
use super::param::Param;
use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Limits, Steering};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of separation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SeparationParams {
    /// Neighbours farther than this are ignored (world units, typically 10–60).
    pub radius: f32,
    /// Full angle of the view cone (radians, 0–2π).
    pub view_angle: f32,
}

/// The neighbourhood radius of separation.
pub const RADIUS: Param =
    neighbourhood::radius_param(25.0, "Neighbours closer than this push the agent away.");

impl SeparationParams {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[RADIUS, neighbourhood::VIEW_ANGLE];
}

impl Default for SeparationParams {
    fn default() -> Self {
        SeparationParams { radius: RADIUS.default, view_angle: neighbourhood::VIEW_ANGLE.default }
    }
}

/// Separation from `neighbours` (any superset of the real neighbours; the radius and view cone
/// are applied here). Returns [`Steering::Acceleration`].
pub fn separation(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &[Neighbour],
    p: &SeparationParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let view = View::new(k, p.radius, p.view_angle);
    let mut push = Vec3::ZERO;
    for n in neighbours {
        if let Some((offset, d)) = view.sees(n.position) {
            push -= offset * ((1.0 - d / view.radius) / d);
            if gizmos.is_enabled() {
                gizmos.push(GizmoRole::NeighbourLink, GizmoShape::Line(k.position, n.position));
            }
        }
    }
    let linear = push.clamp_length_max(1.0) * limits.max_acceleration.max(0.0);
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::NeighbourRadius, GizmoShape::Circle { center: k.position, radius: p.radius });
        gizmos.push(GizmoRole::SteeringForce, GizmoShape::Arrow(k.position, k.position + linear * 0.25));
    }
    Steering::Acceleration(if linear.is_finite() { linear } else { Vec3::ZERO })
}

#[cfg(test)]
mod tests {
    use super::super::neighbourhood::testing;
    use super::*;
    use proptest::prelude::*;

    fn accel(s: Steering) -> Vec3 {
        match s {
            Steering::Acceleration(a) => a,
            _ => panic!("separation is dynamic"),
        }
    }

    #[test]
    fn separation_pushes_straight_away_in_proportion_to_closeness_and_ignores_the_unseen() {
        let k = Kinematics { position: Vec3::ZERO, velocity: Vec3::new(10.0, 0.0, 0.0), orientation: 0.0 };
        let limits = Limits { radius: 5.0, max_speed: 100.0, max_acceleration: 400.0 };
        let p = SeparationParams { radius: 20.0, view_angle: std::f32::consts::PI };
        let near = Neighbour { position: Vec3::new(10.0, 0.0, 0.0), velocity: Vec3::ZERO };
        let a = accel(separation(&k, &limits, &[near], &p, &mut Gizmos::disabled()));
        assert!((a - Vec3::new(-200.0, 0.0, 0.0)).length() < 1e-3, "{a}");
        // Behind (outside a 180° cone) and beyond the radius: nothing.
        let behind = Neighbour { position: Vec3::new(-5.0, 0.0, 0.0), velocity: Vec3::ZERO };
        let far = Neighbour { position: Vec3::new(25.0, 0.0, 0.0), velocity: Vec3::ZERO };
        assert_eq!(accel(separation(&k, &limits, &[behind, far], &p, &mut Gizmos::disabled())), Vec3::ZERO);
        // Two symmetric neighbours push along the bisector; a crowd saturates at max acceleration.
        let crowd: Vec<Neighbour> = (0..8)
            .map(|i| Neighbour {
                position: Vec3::new(1.0, (i as f32 - 3.5) * 0.1, 0.0),
                velocity: Vec3::ZERO,
            })
            .collect();
        let a = accel(separation(&k, &limits, &crowd, &p, &mut Gizmos::disabled()));
        assert!((a.length() - 400.0).abs() < 1e-2 && a.x < 0.0 && a.y.abs() < 1e-2, "{a}");
    }

    proptest! {
        #[test]
        fn separation_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), neighbours in testing::neighbours(),
            radius in 0.0f32..1000.0, view_angle in 0.0f32..7.0,
        ) {
            let p = SeparationParams { radius, view_angle };
            let s = separation(&k, &limits, &neighbours, &p, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
