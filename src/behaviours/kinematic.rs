//! Kinematic seek and flee, and orientation from velocity (seed 001).
//!
//! CONTRACT skeleton: bodies filled by the behaviours helper.

use super::{Gizmos, Kinematics, Steering};
use glam::Vec3;

/// Seed 001's getNewOrientation: heading of `velocity` if it is non-zero, else `current`.
pub fn new_orientation(current: f32, velocity: Vec3) -> f32 {
    let _ = (current, velocity);
    todo!("behaviours helper")
}

/// Kinematic seek: velocity at `max_speed` toward `target` ([`Steering::Velocity`]); zero when on it.
pub fn seek(k: &Kinematics, target: Vec3, max_speed: f32, gizmos: &mut Gizmos) -> Steering {
    let _ = (k, target, max_speed, gizmos);
    todo!("behaviours helper")
}

/// Kinematic flee: velocity at `max_speed` away from `target`; zero when on it.
pub fn flee(k: &Kinematics, target: Vec3, max_speed: f32, gizmos: &mut Gizmos) -> Steering {
    let _ = (k, target, max_speed, gizmos);
    todo!("behaviours helper")
}
