//! Dynamic arrive (seed 001). CONTRACT skeleton: filled by the behaviours helper.

use super::{Gizmos, Kinematics, Limits, Steering};
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of dynamic arrive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ArriveParams {
    /// Inside this distance the agent has arrived (world units, typically 2–20).
    pub target_radius: f32,
    /// Inside this distance the agent slows down (world units, typically 50–200).
    pub slow_radius: f32,
    /// Time over which to reach the target speed (seconds, seed default 0.1).
    pub time_to_target: f32,
}

impl Default for ArriveParams {
    fn default() -> Self {
        ArriveParams { target_radius: 5.0, slow_radius: 80.0, time_to_target: 0.1 }
    }
}

/// Dynamic arrive toward `target`.
pub fn arrive(
    k: &Kinematics,
    limits: &Limits,
    target: Vec3,
    p: &ArriveParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let _ = (k, limits, target, p, gizmos);
    todo!("behaviours helper")
}
