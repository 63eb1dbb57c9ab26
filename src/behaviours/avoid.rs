//! Obstacle avoidance for agents with `avoid_obstacles` (spheres in 3D, circles in 2D). CONTRACT skeleton.

use super::{Gizmos, Kinematics, Limits};
use crate::geometry::Sphere;
use glam::Vec3;
use serde::{Deserialize, Serialize};

/// Parameters of obstacle avoidance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AvoidParams {
    /// How far ahead the probe looks, in seconds of travel at the current speed (typically 0.5–2).
    pub look_ahead: f32,
    /// Extra clearance kept beyond the sum of radii (world units, typically 2–20).
    pub margin: f32,
}

impl Default for AvoidParams {
    fn default() -> Self {
        AvoidParams { look_ahead: 1.0, margin: 6.0 }
    }
}

/// Lateral acceleration that steers around the most imminent obstacle on the probe, or None
/// when the probe is clear. Also pushes out of an obstacle the agent already overlaps.
pub fn avoid_obstacles(
    k: &Kinematics,
    limits: &Limits,
    obstacles: &[Sphere],
    p: &AvoidParams,
    gizmos: &mut Gizmos,
) -> Option<Vec3> {
    let _ = (k, limits, obstacles, p, gizmos);
    todo!("behaviours helper")
}
