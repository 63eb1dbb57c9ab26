//! Constant-speed following of a parametric curve F(T) (seed 000). CONTRACT skeleton.

use super::{Gizmos, Steering};
use crate::geometry::Curve;
use serde::{Deserialize, Serialize};

/// How T is advanced each step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParametricMethod {
    /// The seed's twelve steps: secant over delta T as F'(T), T increment = distance / |F'|.
    #[default]
    Secant,
    /// A corrected method whose measured speed equals the set speed.
    ArcLength,
}

/// Parameters of parametric curve following.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ParametricParams {
    /// Desired speed along the curve (world units per second, typically 20–300).
    pub speed: f32,
    /// The seed's small parameter increment for the secant (T units, typically 0.001–0.1).
    pub delta_t: f32,
    /// Starting parameter T0.
    pub t0: f32,
    /// Secant (the seed) or arc length (corrected).
    pub method: ParametricMethod,
}

impl Default for ParametricParams {
    fn default() -> Self {
        ParametricParams { speed: 100.0, delta_t: 0.01, t0: 0.0, method: ParametricMethod::Secant }
    }
}

/// The follower's parameter T.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParametricState {
    /// Current parameter value.
    pub t: f32,
    /// True once T has reached the end of an open curve.
    pub finished: bool,
}

impl ParametricState {
    /// State at T0 (seed step 2: the agent is placed at F(T0)).
    pub fn start(p: &ParametricParams) -> Self {
        ParametricState { t: p.t0, finished: false }
    }
}

/// One step of `dt` seconds: returns [`Steering::Position`] with P2 = F(T_new).
pub fn parametric(
    curve: &Curve,
    state: &mut ParametricState,
    p: &ParametricParams,
    dt: f32,
    gizmos: &mut Gizmos,
) -> Steering {
    let _ = (curve, state, p, dt, gizmos);
    todo!("behaviours helper")
}
