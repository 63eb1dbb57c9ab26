//! Kinematic seek and flee, and orientation from velocity (seed 001).
//!
//! # Motivation
//! The simplest movement there is: ask for full speed straight toward (seek) or straight away
//! from (flee) a target, and face the way you move. Seed 001 calls these kinematic because they
//! output a velocity, not an acceleration; they are the baseline the dynamic behaviours improve.
//!
//! # Implementation
//! The direction to (or from) the target is normalised the seed's way, which leaves a zero
//! vector unchanged, so an agent standing on its target asks for zero velocity instead of NaN.
//! The seed sets the character's orientation inside `getSteering`; here behaviours are pure, so
//! the simulation calls [`new_orientation`] with the velocity it applied.
//!
//! # Parameters
//! `max_speed` (world units per second, from the agent's limits) and the target point.

use super::{GizmoRole, GizmoShape, Gizmos, Kinematics, Steering};
use glam::Vec3;

/// Seed 001's getNewOrientation: heading of `velocity` if it is non-zero, else `current`.
///
/// The heading is `atan2(v.y, v.x)` (z up; the seed's `atan2(-x, z)` in its y-up world). A
/// velocity with no x-y component (zero, or straight up or down in 3D) has no heading, so the
/// current orientation is kept; the seed only tests for a zero vector, which in its own world
/// would turn a purely vertical velocity into heading 0.
pub fn new_orientation(current: f32, velocity: Vec3) -> f32 {
    if velocity.x != 0.0 || velocity.y != 0.0 {
        velocity.y.atan2(velocity.x)
    } else {
        current
    }
}

/// Kinematic seek: velocity at `max_speed` toward `target` ([`Steering::Velocity`]); zero when on it.
pub fn seek(k: &Kinematics, target: Vec3, max_speed: f32, gizmos: &mut Gizmos) -> Steering {
    let velocity = (target - k.position).normalize_or_zero() * max_speed;
    push_gizmos(k, target, velocity, gizmos);
    Steering::Velocity(velocity)
}

/// Kinematic flee: velocity at `max_speed` away from `target`; zero when on it.
pub fn flee(k: &Kinematics, target: Vec3, max_speed: f32, gizmos: &mut Gizmos) -> Steering {
    let velocity = (k.position - target).normalize_or_zero() * max_speed;
    push_gizmos(k, target, velocity, gizmos);
    Steering::Velocity(velocity)
}

/// The target as a point and the requested velocity as an arrow from the agent.
fn push_gizmos(k: &Kinematics, target: Vec3, velocity: Vec3, gizmos: &mut Gizmos) {
    if gizmos.is_enabled() {
        gizmos.push(GizmoRole::Target, GizmoShape::Point(target));
        gizmos.push(GizmoRole::DesiredVelocity, GizmoShape::Arrow(k.position, k.position + velocity));
    }
}
