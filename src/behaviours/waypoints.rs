//! Waypoints with a node radius, and the "closest node" variant (seed 002's baseline). CONTRACT skeleton.

use super::{Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Polyline;
use serde::{Deserialize, Serialize};

/// Parameters of node-radius waypoint following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WaypointsParams {
    /// A node counts as reached inside this distance (world units, typically 5–60).
    pub node_radius: f32,
    /// Seed 002's first idea: always treat the closest node as the current one.
    pub closest_node: bool,
}

impl Default for WaypointsParams {
    fn default() -> Self {
        WaypointsParams { node_radius: 20.0, closest_node: false }
    }
}

/// Which node the agent heads for.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WaypointsState {
    /// Index of the node being sought.
    pub current_node: usize,
    /// True once the last node of an open path is reached.
    pub finished: bool,
}

/// Seek the current node; advance when inside its radius.
pub fn waypoints(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut WaypointsState,
    p: &WaypointsParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let _ = (k, limits, path, state, p, gizmos);
    todo!("paths helper")
}
