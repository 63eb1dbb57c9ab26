//! Projected path following (seed 002). CONTRACT skeleton.

use super::{Gizmos, Kinematics, Limits, Steering};
use crate::geometry::Polyline;
use serde::{Deserialize, Serialize};

/// Parameters of projected path following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProjectedParams {
    /// How far ahead of the projection the virtual target runs (world units, typically 10–80).
    pub offset: f32,
}

impl Default for ProjectedParams {
    fn default() -> Self {
        ProjectedParams { offset: 30.0 }
    }
}

/// The current segment (seed 002 keeps current and next node).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProjectedState {
    /// Index of the current segment.
    pub segment_idx: usize,
    /// True once the end of an open path is reached.
    pub finished: bool,
}

/// Project onto the current segment, target = node + dir·(l + offset), seek it.
pub fn projected(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut ProjectedState,
    p: &ProjectedParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let _ = (k, limits, path, state, p, gizmos);
    todo!("paths helper")
}
