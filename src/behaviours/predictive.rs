//! Predictive ("sloppy") path following in a channel (seed 002 / Reynolds). CONTRACT skeleton.

use super::{Gizmos, Kinematics, Limits, Steering};
use crate::geometry::{PathCursor, Polyline};
use serde::{Deserialize, Serialize};

/// Parameters of predictive path following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PredictiveParams {
    /// How far ahead in time the position is predicted (seconds, typically 0.1–1.5).
    pub prediction_time: f32,
    /// Half-width of the channel inside which no correction is made (world units, typically 5–60).
    pub path_radius: f32,
}

impl Default for PredictiveParams {
    fn default() -> Self {
        PredictiveParams { prediction_time: 0.5, path_radius: 20.0 }
    }
}

/// Coherent projection cursors for the agent and its predicted position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PredictiveState {
    /// Where the agent itself projects.
    pub cursor: PathCursor,
    /// Where the predicted position projects.
    pub predicted_cursor: PathCursor,
    /// True once the end of an open path is reached.
    pub finished: bool,
}

/// Predict, project, and correct only when outside the channel.
pub fn predictive(
    k: &Kinematics,
    limits: &Limits,
    path: &Polyline,
    state: &mut PredictiveState,
    p: &PredictiveParams,
    gizmos: &mut Gizmos,
) -> Steering {
    let _ = (k, limits, path, state, p, gizmos);
    todo!("paths helper")
}
