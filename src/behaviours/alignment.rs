//! Alignment (Reynolds' boids): steer toward the average heading of the neighbours.
//!
//! # Motivation
//! The second flocking rule, the one that makes a flock move as one: each boid matches its
//! neighbours' heading and speed. OpenSteer's `steerForAlignment`, Yuka's `AlignmentBehavior`,
//! gdx-ai's `Alignment`.
//!
//! # Implementation
//! The neighbours in view are averaged by heading (their unit velocities, as Reynolds and
//! OpenSteer do); the desired velocity is that mean direction at the agent's `max_speed`, reached
//! over `STEER_TIME` and clamped to `max_acceleration` (the rule the path followers use, seed
//! 001's dynamic arrive). An earlier version averaged velocities, which also matches speed: in a
//! flock whose headings start scattered the mean velocity is near zero, so every boid braked and
//! the flock stalled at a standstill (measured: mean speed 60 → 2.5 u/s in 10 s). No neighbour,
//! or headings that cancel out: no steering.
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

/// Parameters of alignment.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AlignmentParams {
    /// Neighbours farther than this are ignored (world units, typically 20–100).
    pub radius: f32,
    /// Full angle of the view cone (radians, 0–2π).
    pub view_angle: f32,
}

/// The neighbourhood radius of alignment.
pub const RADIUS: Param =
    neighbourhood::radius_param(50.0, "Neighbours within this distance are matched in velocity.");

impl AlignmentParams {
    /// The declarations of the fields, in field order.
    pub const PARAMS: &'static [Param] = &[RADIUS, neighbourhood::VIEW_ANGLE];
}

impl Default for AlignmentParams {
    fn default() -> Self {
        AlignmentParams { radius: RADIUS.default, view_angle: neighbourhood::VIEW_ANGLE.default }
    }
}

/// Alignment with `neighbours` (radius and view cone applied here). Returns
/// [`Steering::Acceleration`].
pub fn alignment(
    k: &Kinematics,
    limits: &Limits,
    neighbours: &[Neighbour],
    p: &AlignmentParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let view = View::new(k, p.radius, p.view_angle);
    let mut sum = Vec3::ZERO;
    let mut count = 0u32;
    for n in neighbours {
        if view.sees(n.position).is_some() {
            sum += n.velocity.normalize_or_zero();
            count += 1;
            if gizmos.is_enabled() {
                gizmos.push(GizmoRole::NeighbourLink, GizmoShape::Line(k.position, n.position));
            }
        }
    }
    let heading = sum.normalize_or_zero();
    if count == 0 || heading == Vec3::ZERO {
        return Steering::NONE;
    }
    let desired = heading * limits.max_speed.max(0.0);
    let linear = accelerate_toward_velocity(k.velocity, desired, STEER_TIME, limits.max_acceleration);
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::NeighbourRadius, GizmoShape::Circle { center: k.position, radius: p.radius });
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
    fn alignment_turns_toward_the_neighbours_common_heading_and_ignores_strangers() {
        let k = Kinematics { position: Vec3::ZERO, velocity: Vec3::new(50.0, 0.0, 0.0), orientation: 0.0 };
        let limits = Limits { radius: 5.0, max_speed: 100.0, max_acceleration: 10_000.0 };
        let p = AlignmentParams { radius: 30.0, view_angle: std::f32::consts::TAU };
        let v = Vec3::new(0.0, 80.0, 0.0);
        let flock = [
            Neighbour { position: Vec3::new(10.0, 0.0, 0.0), velocity: v },
            Neighbour { position: Vec3::new(-10.0, 5.0, 0.0), velocity: v },
            Neighbour { position: Vec3::new(100.0, 0.0, 0.0), velocity: Vec3::new(-100.0, 0.0, 0.0) },
        ];
        let Steering::Acceleration(a) = alignment(&k, &limits, &flock, &p, &mut Gizmos::disabled()) else {
            panic!("dynamic")
        };
        // Unclamped: toward the common heading at full speed, (0, 100), over STEER_TIME.
        let desired = Vec3::new(0.0, 100.0, 0.0);
        assert!((a - (desired - k.velocity) / STEER_TIME).length() < 1e-2, "{a}");
        assert_eq!(alignment(&k, &limits, &flock[2..], &p, &mut Gizmos::disabled()), Steering::NONE);
    }

    proptest! {
        #[test]
        fn alignment_is_finite_and_within_the_acceleration_limit(
            k in testing::kinematics(), limits in testing::limits(), neighbours in testing::neighbours(),
            radius in 0.0f32..1000.0, view_angle in 0.0f32..7.0,
        ) {
            let s = alignment(&k, &limits, &neighbours, &AlignmentParams { radius, view_angle }, &mut Gizmos::recording());
            prop_assert!(testing::within_acceleration(s, &limits));
        }
    }
}
